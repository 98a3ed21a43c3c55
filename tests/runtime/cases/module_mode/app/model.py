"""The model of the package run with `python -m app.train`."""
import torch
import torch.nn as nn


class Scaler(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.offset = torch.ones(4)  # verdict: DL106 confirmed

    def forward(self, x):
        return self.fc(x) + self.offset
