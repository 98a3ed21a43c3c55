"""A device mismatch devlint cannot predict: the CPU tensor comes from a factory looked up in a
dict, which the static analysis does not follow."""
import os

import torch
import torch.nn as nn

device = torch.device(os.environ.get("DEVLINT_TEST_DEVICE", "meta"))

FACTORIES = {"ones": torch.ones}


def main():
    make = FACTORIES["ones"]
    offsets = make(4)
    values = torch.ones(4, device=device)
    try:
        shifted = values + offsets  # unpredicted
        print("shifted on", shifted.device.type)
    except RuntimeError as err:
        print("caught a device error:", "same device" in str(err))


if __name__ == "__main__":
    main()
