"""Findings whose code does not run: an evaluation this run skips, and a CPU tensor that is made
but returned before it meets the activations."""
import os

import torch
import torch.nn as nn

device = torch.device(os.environ.get("DEVLINT_TEST_DEVICE", "meta"))
from torch.utils.data import DataLoader, TensorDataset


def evaluate():
    model = nn.Linear(4, 4).to(device)
    loader = DataLoader(TensorDataset(torch.randn(8, 4), torch.randn(8, 4)), batch_size=4)
    total = 0
    for inputs, targets in loader:
        inputs = inputs.to(device)
        total += (model(inputs) - targets).abs().sum()  # verdict: DL104 not-reached (never ran)
    return total


class Noisy(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        h = self.fc(x)
        noise = torch.randn(h.shape[0], 4)  # verdict: DL102 not-reached (where its values meet, never ran)
        if noise.device != h.device:
            return h
        return h + noise


def main():
    if os.environ.get("DEVLINT_TEST_EVALUATE"):
        print(evaluate())
    print(tuple(Noisy().to(device)(torch.ones(2, 4, device=device)).shape))


if __name__ == "__main__":
    main()
