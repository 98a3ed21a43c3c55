"""DL202: a non-blocking copy from a DataLoader that does not pin its batches."""
import os

import torch
import torch.nn as nn

device = torch.device(os.environ.get("DEVLINT_TEST_DEVICE", "meta"))

from torch.utils.data import DataLoader, TensorDataset


def main():
    data = TensorDataset(torch.randn(8, 4))
    loader = DataLoader(data, batch_size=4)
    model = nn.Linear(4, 2).to(device)
    for (inputs,) in loader:
        inputs = inputs.to(device, non_blocking=True)  # verdict: DL202 confirmed (not pinned) [cuda: pageable]
        print(tuple(model(inputs).shape))


if __name__ == "__main__":
    main()
