"""A small ResNet-style classifier for 32x32 RGB images."""
import torch
import torch.nn as nn
import torch.nn.functional as F

CIFAR_MEAN = (0.4914, 0.4822, 0.4465)
CIFAR_STD = (0.2470, 0.2435, 0.2616)


class ResidualBlock(nn.Module):
    def __init__(self, in_channels, out_channels, stride=1):
        super().__init__()
        self.conv1 = nn.Conv2d(in_channels, out_channels, 3, stride=stride, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(out_channels)
        self.conv2 = nn.Conv2d(out_channels, out_channels, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(out_channels)
        self.shortcut = nn.Identity()
        if stride != 1 or in_channels != out_channels:
            self.shortcut = nn.Sequential(
                nn.Conv2d(in_channels, out_channels, 1, stride=stride, bias=False),
                nn.BatchNorm2d(out_channels),
            )

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return F.relu(out + self.shortcut(x))


class SmallResNet(nn.Module):
    """Normalizes its input itself, so callers pass images scaled to [0, 1]."""

    def __init__(self, num_classes=10, widths=(32, 64, 128), feature_drop=0.1):
        super().__init__()
        self.feature_drop = feature_drop
        self.register_buffer("mean", torch.tensor(CIFAR_MEAN).view(1, 3, 1, 1))
        self.std = torch.tensor(CIFAR_STD).view(1, 3, 1, 1)  # expect: DL106
        self.stem = nn.Sequential(
            nn.Conv2d(3, widths[0], 3, padding=1, bias=False),
            nn.BatchNorm2d(widths[0]),
            nn.ReLU(inplace=True),
        )
        self.stages = []  # expect: DL107
        in_channels = widths[0]
        for i, width in enumerate(widths):
            self.stages.append(ResidualBlock(in_channels, width, stride=1 if i == 0 else 2))
            in_channels = width
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(in_channels, num_classes)

    def forward(self, x):
        x = (x - self.mean) / self.std
        x = self.stem(x)
        for stage in self.stages:
            x = stage(x)
        features = self.pool(x).flatten(1)
        if self.training and self.feature_drop > 0:
            # Drop whole samples' features (a cheap stochastic-depth variant for the head).
            keep = torch.rand(features.size(0), 1) > self.feature_drop  # expect: DL102
            features = features * keep / (1 - self.feature_drop)
        return self.fc(features)
