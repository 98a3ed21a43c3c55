"""DL102 refuted: the CPU noise is moved with `type_as` before it meets the activations, a
move devlint does not follow. findings.json holds the finding devlint's static check would make
if it missed the move (it follows it today)."""
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
        noise = torch.randn(h.shape[0], 4)  # verdict: DL102 refuted (every value is on)
        noise = noise.type_as(h)
        return h + noise


def main():
    model = Noisy().to(device)
    out = model(torch.ones(2, 4, device=device))
    print("output on", out.device.type)


if __name__ == "__main__":
    main()
