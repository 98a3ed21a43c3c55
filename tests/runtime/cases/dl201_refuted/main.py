"""DL201 refuted: the print runs on two steps out of six, not every iteration. findings.json
holds the finding a static check that missed the guard would make."""
import os

import torch
import torch.nn as nn

device = torch.device(os.environ.get("DEVLINT_TEST_DEVICE", "meta"))


LOG_STEPS = {0, 4}


def main():
    torch.manual_seed(0)
    model = nn.Linear(4, 1).to(device)
    for step in range(6):
        x = torch.randn(8, 4, device=device)
        loss = model(x).pow(2).mean()
        if step in LOG_STEPS:
            print(step, loss)  # verdict: DL201 refuted (2 times in 6 iterations)


if __name__ == "__main__":
    main()
