"""Classifies one image file with a trained checkpoint.

    python predict.py cat.png --checkpoint checkpoints/last.pt
"""
import argparse

import numpy as np
import torch
from PIL import Image

from model import SmallResNet
from utils import get_device

CLASSES = ("airplane", "automobile", "bird", "cat", "deer", "dog", "frog", "horse", "ship", "truck")


def load_image(path):
    """An RGB image file as a (1, 3, 32, 32) float tensor in [0, 1]."""
    image = Image.open(path).convert("RGB").resize((32, 32))
    array = np.asarray(image, dtype=np.float32) / 255.0
    return torch.from_numpy(array).permute(2, 0, 1).unsqueeze(0)


@torch.no_grad()
def main():
    parser = argparse.ArgumentParser(description="Classify one image.")
    parser.add_argument("image")
    parser.add_argument("--checkpoint", default="checkpoints/last.pt")
    parser.add_argument("--device", default=None)
    args = parser.parse_args()

    device = get_device(args.device)
    model = SmallResNet(num_classes=len(CLASSES))
    checkpoint = torch.load(args.checkpoint, map_location="cpu")
    model.load_state_dict(checkpoint["model"])
    model.eval()

    x = load_image(args.image).to(device)
    probs = model(x).softmax(dim=1)[0]  # expect: DL105
    top = probs.topk(3)
    for p, i in zip(top.values.tolist(), top.indices.tolist()):
        print(f"{CLASSES[i]:>12s}: {p:.3f}")


if __name__ == "__main__":
    main()
