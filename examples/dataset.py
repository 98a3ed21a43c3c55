"""CIFAR-10 style data stored in one .npz file: uint8 images (N, 32, 32, 3) and integer labels."""
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class NpzImageDataset(Dataset):
    def __init__(self, path, train=True, noise_std=0.0):
        data = np.load(path)
        split = "train" if train else "test"
        self.images = data[f"x_{split}"]
        self.labels = data[f"y_{split}"].astype(np.int64)
        self.train = train
        self.noise_std = noise_std

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, index):
        image = self.images[index]
        if self.train and np.random.rand() < 0.5:
            image = image[:, ::-1]  # horizontal flip
        tensor = torch.from_numpy(np.ascontiguousarray(image)).permute(2, 0, 1).float().div(255.0)
        if self.train and self.noise_std > 0:
            # Gaussian pixel noise, drawn on the GPU where sampling is cheap.
            tensor = tensor.cuda()  # expect: DL113
            tensor = (tensor + self.noise_std * torch.randn_like(tensor)).clamp(0.0, 1.0)
        return tensor, int(self.labels[index])


def build_loader(path, train, batch_size, num_workers=4, noise_std=0.0):
    dataset = NpzImageDataset(path, train=train, noise_std=noise_std)
    return DataLoader(
        dataset,
        batch_size=batch_size,
        shuffle=train,
        num_workers=num_workers,
        pin_memory=True,
        drop_last=train,
    )


def class_weights(path, num_classes):
    """Inverse-frequency weights for the training split, normalized to mean 1."""
    labels = np.load(path)["y_train"]
    counts = np.bincount(labels, minlength=num_classes).astype(np.float32)
    weights = counts.sum() / (num_classes * np.maximum(counts, 1.0))
    return torch.from_numpy(weights)
