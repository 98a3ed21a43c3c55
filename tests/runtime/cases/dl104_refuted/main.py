"""DL104 refuted: the dataset already holds its tensors on the device."""
import os

import torch
import torch.nn as nn

device = torch.device(os.environ.get("DEVLINT_TEST_DEVICE", "meta"))

from torch.utils.data import DataLoader, TensorDataset


def main():
    data = TensorDataset(torch.randn(8, 4, device=device), torch.randn(8, 4, device=device))
    loader = DataLoader(data, batch_size=4)
    model = nn.Linear(4, 4).to(device)
    for inputs, targets in loader:
        preds = model(inputs)  # verdict: DL104 refuted
        print("error on", (preds - targets).device.type)  # verdict: DL104 refuted


if __name__ == "__main__":
    main()
