"""DL102: noise made on the CPU inside forward meets the module's activations."""
import os

import torch
import torch.nn as nn

device = torch.device(os.environ.get("DEVLINT_TEST_DEVICE", "meta"))


class Noisy(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        h = self.fc(x)
        noise = torch.randn(h.shape[0], 4)  # verdict: DL102 confirmed (same device)
        return h + noise


def main():
    model = Noisy().to(device)
    x = torch.ones(2, 4, device=device)
    try:
        out = model(x)
        print("no error", tuple(out.shape))
    except RuntimeError as err:
        print("caught a device error:", "same device" in str(err))


if __name__ == "__main__":
    main()
