"""DL104 refuted: the dataset already holds its tensors on the device (its own __getitem__
returns slices of them), which the static check does not follow: it takes a dataset's items for
CPU tensors."""
import os

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

device = torch.device(os.environ.get("DEVLINT_TEST_DEVICE", "meta"))


class OnDevice(Dataset):
    def __init__(self, n):
        self.inputs = torch.randn(n, 4, device=device)
        self.targets = torch.randn(n, 4, device=device)

    def __len__(self):
        return len(self.inputs)

    def __getitem__(self, i):
        return self.inputs[i], self.targets[i]


def main():
    loader = DataLoader(OnDevice(8), batch_size=4)
    model = nn.Linear(4, 4).to(device)
    for inputs, targets in loader:
        preds = model(inputs)  # verdict: DL104 refuted
        print("error on", (preds - targets).device.type)  # verdict: DL104 refuted


if __name__ == "__main__":
    main()
