"""DL103: the loss keeps its class weights on the CPU while the logits are on the device."""
import os

import torch
import torch.nn as nn

device = torch.device(os.environ.get("DEVLINT_TEST_DEVICE", "meta"))


def main():
    model = nn.Linear(4, 3).to(device)
    criterion = nn.CrossEntropyLoss(weight=torch.tensor([1.0, 2.0, 3.0]))  # verdict: DL103 confirmed (differ)
    x = torch.ones(5, 4).to(device)
    y = torch.zeros(5, dtype=torch.long).to(device)
    try:
        loss = criterion(model(x), y)
        print("loss on", loss.device.type)
    except RuntimeError as err:
        print("caught a device error:", "same device" in str(err))


if __name__ == "__main__":
    main()
