"""DL101: the copy made by `.to(device)` is thrown away; the tensor stays on the CPU."""
import os

import torch
import torch.nn as nn

device = torch.device(os.environ.get("DEVLINT_TEST_DEVICE", "meta"))


def main():
    weights = torch.ones(4)
    weights.to(device)  # verdict: DL101 confirmed (still on cpu)
    bias = torch.zeros(4, device=device)
    print("weights on the cpu:", weights.device.type == "cpu", "bias on", bias.device.type)


if __name__ == "__main__":
    main()
