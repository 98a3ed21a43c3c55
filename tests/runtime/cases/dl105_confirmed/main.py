"""DL105: the inputs are moved to the device, the model never is."""
import os

import torch
import torch.nn as nn

device = torch.device(os.environ.get("DEVLINT_TEST_DEVICE", "meta"))


def main():
    model = nn.Sequential(nn.Linear(4, 4), nn.ReLU())
    x = torch.ones(2, 4).to(device)
    try:
        out = model(x)  # verdict: DL105 confirmed (`model` on cpu)
        print("output on", out.device.type)
    except RuntimeError as err:
        print("caught a device error:", "same device" in str(err))


if __name__ == "__main__":
    main()
