"""DL107: blocks kept in a plain list are not moved with the model."""
import os

import torch
import torch.nn as nn

device = torch.device(os.environ.get("DEVLINT_TEST_DEVICE", "meta"))


class Stack(nn.Module):
    def __init__(self):
        super().__init__()
        self.head = nn.Linear(4, 4)
        self.blocks = [nn.Linear(4, 4) for _ in range(2)]  # verdict: DL107 confirmed (`self.blocks[0]` on cpu)

    def forward(self, x):
        h = self.head(x)
        for block in self.blocks:
            h = h + block(h)
        return h


def main():
    model = Stack().to(device)
    x = torch.ones(2, 4, device=device)
    try:
        out = model(x)
        print("output on", out.device.type)
    except RuntimeError as err:
        print("caught a device error:", "same device" in str(err))


if __name__ == "__main__":
    main()
