"""DL104 refuted: the batches are moved to the device by the loader's collate function, a
lambda that moves what the default collation stacks, which the static check does not read (it
follows a project function a lambda calls, or one bound with `functools.partial`): it takes the
batches for CPU tensors. (A dataset whose items are on the device already, `torch.randn(n, 4,
device=device)` sliced in __getitem__, is followed since the twenty-seventh session, and not
reported.)"""
import os

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset, default_collate

device = torch.device(os.environ.get("DEVLINT_TEST_DEVICE", "meta"))


def main():
    data = TensorDataset(torch.randn(8, 4), torch.randn(8, 4))
    loader = DataLoader(
        data, batch_size=4, collate_fn=lambda b: [t.to(device) for t in default_collate(b)]
    )
    model = nn.Linear(4, 4).to(device)
    for inputs, targets in loader:
        preds = model(inputs)  # verdict: DL104 refuted
        print("error on", (preds - targets).device.type)  # verdict: DL104 refuted


if __name__ == "__main__":
    main()
