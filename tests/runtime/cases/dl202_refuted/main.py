"""DL202 refuted: the DataLoader is switched to pinned memory after it is built."""
import os

import torch
import torch.nn as nn

device = torch.device(os.environ.get("DEVLINT_TEST_DEVICE", "meta"))

from torch.utils.data import DataLoader, TensorDataset


def main():
    data = TensorDataset(torch.randn(8, 4))
    loader = DataLoader(data, batch_size=4)
    loader.pin_memory = True
    model = nn.Linear(4, 2).to(device)
    for (inputs,) in loader:
        inputs = inputs.to(device, non_blocking=True)  # verdict: DL202 refuted (pin) [cuda: pinned host memory]
        print(tuple(model(inputs).shape))


if __name__ == "__main__":
    main()
