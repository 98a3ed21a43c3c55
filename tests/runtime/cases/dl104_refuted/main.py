"""DL104 refuted: the batches are moved to the device by the collate function, given the device
through `functools.partial`, which the static check does not follow: it takes the batches for
CPU tensors. (A dataset whose items are on the device already, `torch.randn(n, 4,
device=device)` sliced in __getitem__, is followed since the twenty-seventh session, and not
reported.)"""
import functools
import os

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

device = torch.device(os.environ.get("DEVLINT_TEST_DEVICE", "meta"))


def collate_to(batch, device):
    inputs = torch.stack([b[0] for b in batch]).to(device)
    targets = torch.stack([b[1] for b in batch]).to(device)
    return inputs, targets


def main():
    data = TensorDataset(torch.randn(8, 4), torch.randn(8, 4))
    loader = DataLoader(data, batch_size=4, collate_fn=functools.partial(collate_to, device=device))
    model = nn.Linear(4, 4).to(device)
    for inputs, targets in loader:
        preds = model(inputs)  # verdict: DL104 refuted
        print("error on", (preds - targets).device.type)  # verdict: DL104 refuted


if __name__ == "__main__":
    main()
