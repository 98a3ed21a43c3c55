"""DL101 where the discarded `.to(device)` changed nothing: the tensor was already there. A
tensor devlint sees made on the device is not reported (the call returns it unchanged); one
copied through a library call it cannot follow is, and only the run shows where it was."""
import os
import pickle

import torch

device = torch.device(os.environ.get("DEVLINT_TEST_DEVICE", "meta"))


def main():
    weights: torch.Tensor = pickle.loads(pickle.dumps(torch.ones(4, device=device)))
    weights.to(device)  # verdict: DL101 refuted (already on)
    print("weights on", weights.device.type)


if __name__ == "__main__":
    main()
