"""A DataLoader with two worker processes, forked while the tracer runs: the batches, the
program's output and the verdicts must be as without devlint, and the workers print no report."""
import os

import torch
import torch.nn as nn

device = torch.device(os.environ.get("DEVLINT_TEST_DEVICE", "meta"))
from torch.utils.data import DataLoader, Dataset


class Squares(Dataset):
    def __len__(self):
        return 16

    def __getitem__(self, i):
        return torch.full((4,), float(i)), torch.tensor(float(i * i))


def main():
    loader = DataLoader(Squares(), batch_size=4, num_workers=2)
    model = nn.Linear(4, 1).to(device)
    for inputs, targets in loader:
        inputs = inputs.to(device)
        preds = model(inputs).squeeze(1)
        try:
            print(tuple((preds - targets).shape))  # verdict: DL104 confirmed
        except RuntimeError as err:
            print("caught a device error:", "same device" in str(err))


if __name__ == "__main__":
    main()
