"""Run as a module: python -m app.train --steps N."""
import argparse
import os
import sys

import torch

from app.model import Scaler

device = torch.device(os.environ.get("DEVLINT_TEST_DEVICE", "meta"))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=1)
    args = parser.parse_args()
    print("argv0 is this file:", sys.argv[0] == os.path.abspath(__file__), "name", __name__)
    model = Scaler().to(device)
    for step in range(args.steps):
        try:
            print(step, model(torch.ones(2, 4, device=device)).device.type)
        except RuntimeError as err:
            print(step, "caught a device error:", "same device" in str(err))


if __name__ == "__main__":
    main()
