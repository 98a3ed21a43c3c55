"""DL105 refuted: the model is moved layer by layer through `apply`, which devlint does not follow."""
import os

import torch
import torch.nn as nn

device = torch.device(os.environ.get("DEVLINT_TEST_DEVICE", "meta"))


def main():
    model = nn.Sequential(nn.Linear(4, 4), nn.ReLU())
    model.apply(lambda m: m.to(device))
    x = torch.ones(2, 4).to(device)
    print("output on", model(x).device.type)  # verdict: DL105 refuted


if __name__ == "__main__":
    main()
