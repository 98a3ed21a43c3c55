"""Measures SmallResNet's training throughput on synthetic CIFAR-sized batches.

    python benchmark.py --batch-size 256 --steps 50
"""
import argparse
import time

import torch
import torch.nn as nn

from model import SmallResNet
from utils import get_device


def warm_up_gpus():
    """Creates a CUDA context and runs one matmul on every visible GPU, so no timed step pays for it."""
    for index in range(torch.cuda.device_count()):
        with torch.cuda.device(index):
            warm = torch.randn(1024, 1024)  # expect: DL110
            torch.mm(warm, warm)
            torch.cuda.synchronize()


def main():
    parser = argparse.ArgumentParser(description="Benchmark SmallResNet training throughput.")
    parser.add_argument("--batch-size", type=int, default=256)
    parser.add_argument("--steps", type=int, default=50)
    parser.add_argument("--device", default=None)
    args = parser.parse_args()

    device = get_device(args.device)
    warm_up_gpus()
    model = SmallResNet(num_classes=10).to(device)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    # Host-side images, as the data loader delivers them; labels are generated on the device.
    images = torch.rand(args.batch_size, 3, 32, 32)
    labels = torch.randint(0, 10, (args.batch_size,), device=device)

    # Mixed precision has to stay close to float32 before its speed is worth measuring.
    model.eval()
    batch = images.to(device)
    with torch.no_grad():
        reference = model(batch).cpu()
        with torch.autocast(device_type=device.type, dtype=torch.bfloat16):
            mixed = model(batch)
    max_err = (mixed.float() - reference).abs().max()  # expect: DL111
    print(f"autocast: max abs difference to float32 {max_err.item():.3e}")

    model.train()
    step = 0
    start = time.perf_counter()
    while step < args.steps:
        logits = model(images.to(device))  # expect: DL204
        loss = criterion(logits, labels)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        step += 1
    elapsed = time.perf_counter() - start  # expect: DL203
    print(f"train: {args.steps * args.batch_size / elapsed:.0f} images/s on {device}")


if __name__ == "__main__":
    main()
