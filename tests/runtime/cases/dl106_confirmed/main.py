"""DL106: a plain tensor attribute is not moved by `model.to(device)`."""
import os

import torch
import torch.nn as nn

device = torch.device(os.environ.get("DEVLINT_TEST_DEVICE", "meta"))


class Normalize(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(4))
        self.mean = torch.zeros(4)  # verdict: DL106 confirmed (`self.mean` on cpu)

    def forward(self, x):
        return (x - self.mean) * self.scale


def main():
    model = Normalize().to(device)
    x = torch.ones(2, 4, device=device)
    try:
        out = model(x)
        print("output on", out.device.type)
    except RuntimeError as err:
        print("caught a device error:", "same device" in str(err))


if __name__ == "__main__":
    main()
