"""DL108: `.numpy()` on a tensor that lives on the device."""
import os

import torch
import torch.nn as nn

device = torch.device(os.environ.get("DEVLINT_TEST_DEVICE", "meta"))


def main():
    scores = torch.ones(3, device=device) * 2
    try:
        array = scores.numpy()  # verdict: DL108 confirmed (to numpy)
        print("array", array.shape)
    except TypeError as err:
        print("caught:", "numpy" in str(err))


if __name__ == "__main__":
    main()
