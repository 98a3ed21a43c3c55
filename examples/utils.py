"""Small helpers shared by the training, evaluation and prediction scripts."""
import os
import random

import numpy as np
import torch


def get_device(name=None):
    """The requested device, else the first GPU when there is one, else the CPU."""
    if name:
        return torch.device(name)
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


def set_seed(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def save_checkpoint(model, optimizer, epoch, path):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch}, path)


def load_weights(model, path, device):
    """Loads a checkpoint written by save_checkpoint into `model`; returns its epoch."""
    checkpoint = torch.load(path, map_location=device)
    model.load_state_dict(checkpoint["model"])
    return checkpoint["epoch"]
