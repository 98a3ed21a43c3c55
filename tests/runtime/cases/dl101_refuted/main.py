"""DL101 where the discarded `.to(device)` changed nothing: the tensor was made there."""
import os

import torch
import torch.nn as nn

device = torch.device(os.environ.get("DEVLINT_TEST_DEVICE", "meta"))


def main():
    weights = torch.ones(4, device=device)
    weights.to(device)  # verdict: DL101 refuted (already on)
    print("weights on", weights.device.type)


if __name__ == "__main__":
    main()
