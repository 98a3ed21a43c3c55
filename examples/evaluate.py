"""Evaluates a checkpoint on the test split and saves the logits for later analysis.

    python evaluate.py --checkpoint checkpoints/last.pt --output test_logits.pt
"""
import argparse

import torch
from torch.utils.data import DataLoader

from dataset import NpzImageDataset
from model import SmallResNet
from utils import get_device, load_weights

# Which CIFAR-10 classes are vehicles (airplane, automobile, ship, truck), for the coarse accuracy.
IS_VEHICLE = torch.tensor([1, 1, 0, 0, 0, 0, 0, 0, 1, 1], dtype=torch.bool)


@torch.no_grad()
def main():
    parser = argparse.ArgumentParser(description="Evaluate SmallResNet.")
    parser.add_argument("--data", default="data/cifar10.npz")
    parser.add_argument("--checkpoint", default="checkpoints/last.pt")
    parser.add_argument("--output", default="test_logits.pt")
    parser.add_argument("--num-classes", type=int, default=10)
    parser.add_argument("--device", default=None)
    args = parser.parse_args()

    device = get_device(args.device)
    model = SmallResNet(num_classes=args.num_classes)
    epoch = load_weights(model, args.checkpoint, device)
    model.to(device)
    model.eval()
    test_loader = DataLoader(NpzImageDataset(args.data, train=False), batch_size=256, num_workers=4)

    correct, coarse_correct, total = 0, 0, 0
    all_logits, all_labels = [], []
    for images, labels in test_loader:
        images = images.to(device, non_blocking=True)  # expect: DL202
        logits = model(images)
        preds = logits.argmax(dim=1)
        correct += (preds == labels).sum()  # expect: DL104
        coarse_correct += (IS_VEHICLE[preds] == IS_VEHICLE[labels]).sum()  # expect: DL114
        total += labels.size(0)
        all_logits.append(logits)
        all_labels.append(labels)
    print(f"checkpoint from epoch {epoch}: test accuracy {int(correct) / max(total, 1):.4f}, "
          f"vehicle/animal accuracy {int(coarse_correct) / max(total, 1):.4f}")

    all_logits = torch.cat(all_logits)
    all_logits.cpu()  # expect: DL101
    torch.save({"logits": all_logits, "labels": torch.cat(all_labels)}, args.output)


if __name__ == "__main__":
    main()
