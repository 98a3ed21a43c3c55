"""DL103 refuted: the weight buffer is replaced by a moved copy, which devlint does not see."""
import os

import torch
import torch.nn as nn

device = torch.device(os.environ.get("DEVLINT_TEST_DEVICE", "meta"))


def main():
    model = nn.Linear(4, 3).to(device)
    criterion = nn.CrossEntropyLoss(weight=torch.tensor([1.0, 2.0, 3.0]))  # verdict: DL103 refuted (every value is on)
    criterion.weight = criterion.weight.to(device)
    x = torch.ones(5, 4).to(device)
    y = torch.zeros(5, dtype=torch.long).to(device)
    loss = criterion(model(x), y)
    print("loss on", loss.device.type)


if __name__ == "__main__":
    main()
