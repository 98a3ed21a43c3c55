"""DL104: the targets of each batch stay on the CPU while the predictions are on the device."""
import os

import torch
import torch.nn as nn

device = torch.device(os.environ.get("DEVLINT_TEST_DEVICE", "meta"))

from torch.utils.data import DataLoader, TensorDataset


def main():
    data = TensorDataset(torch.randn(8, 4), torch.randn(8, 4))
    loader = DataLoader(data, batch_size=4)
    model = nn.Linear(4, 4).to(device)
    for inputs, targets in loader:
        inputs = inputs.to(device)
        preds = model(inputs)
        try:
            err = preds - targets  # verdict: DL104 confirmed (Expected all tensors to be on the same device)
            print("error on", err.device.type)
        except RuntimeError as exc:
            print("caught a device error:", "same device" in str(exc))


if __name__ == "__main__":
    main()
