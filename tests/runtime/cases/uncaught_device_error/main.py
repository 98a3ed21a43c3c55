"""An uncaught device error ends the program: the traceback on stderr must be the program's
alone (none of devlint's frames) and the exit status 1."""
# exit-status: 1
import os

import torch
import torch.nn as nn

device = torch.device(os.environ.get("DEVLINT_TEST_DEVICE", "meta"))


def main():
    values = torch.ones(4, device=device)
    factors = torch.full((4,), 2.0)  # verdict: DL102 confirmed (Expected all tensors to be on the same device)
    print("scaling")
    scaled = values * factors
    print(scaled.device.type)


if __name__ == "__main__":
    main()
