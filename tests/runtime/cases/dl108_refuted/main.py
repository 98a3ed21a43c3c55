"""DL108 refuted: the scores live on a "report device" that is the CPU unless the environment
says otherwise; devlint takes it for an accelerator."""
import os

import torch
import torch.nn as nn

device = torch.device(os.environ.get("DEVLINT_TEST_DEVICE", "meta"))
report_device = torch.device(os.environ.get("DEVLINT_TEST_REPORT_DEVICE", "cpu"))


def main():
    scores = torch.ones(3, device=report_device) * 2
    print(scores.numpy())  # verdict: DL108 refuted (`scores` is on cpu)


if __name__ == "__main__":
    main()
