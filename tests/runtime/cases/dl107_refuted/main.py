"""DL107 refuted: the module's own `to()` moves the blocks of its plain list too."""
import os

import torch
import torch.nn as nn

device = torch.device(os.environ.get("DEVLINT_TEST_DEVICE", "meta"))


class Stack(nn.Module):
    def __init__(self):
        super().__init__()
        self.head = nn.Linear(4, 4)
        self.blocks = [nn.Linear(4, 4) for _ in range(2)]  # verdict: DL107 refuted

    def to(self, *args, **kwargs):
        for block in self.blocks:
            block.to(*args, **kwargs)
        return super().to(*args, **kwargs)

    def forward(self, x):
        h = self.head(x)
        for block in self.blocks:
            h = h + block(h)
        return h


def main():
    model = Stack().to(device)
    print("output on", model(torch.ones(2, 4, device=device)).device.type)


if __name__ == "__main__":
    main()
