"""DL106 refuted: the module moves its plain attribute itself, in `_apply`, through `setattr`
(an `_apply` that assigns `self.mean = fn(self.mean)` is seen statically, and not reported)."""
import os

import torch
import torch.nn as nn

device = torch.device(os.environ.get("DEVLINT_TEST_DEVICE", "meta"))


class Normalize(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(4))
        self.mean = torch.zeros(4)  # verdict: DL106 refuted

    def _apply(self, fn, *args, **kwargs):
        super()._apply(fn, *args, **kwargs)
        setattr(self, "mean", fn(self.mean))
        return self

    def forward(self, x):
        return (x - self.mean) * self.scale


def main():
    model = Normalize().to(device)
    print("output on", model(torch.ones(2, 4, device=device)).device.type)


if __name__ == "__main__":
    main()
