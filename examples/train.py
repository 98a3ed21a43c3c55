"""Trains SmallResNet on an .npz image dataset.

    python train.py --data data/cifar10.npz --epochs 30
"""
import argparse
import os

import torch
import torch.nn as nn

from dataset import build_loader, class_weights
from model import SmallResNet
from utils import get_device, save_checkpoint, set_seed


def parse_args():
    parser = argparse.ArgumentParser(description="Train SmallResNet.")
    parser.add_argument("--data", default="data/cifar10.npz")
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--batch-size", type=int, default=128)
    parser.add_argument("--lr", type=float, default=0.1)
    parser.add_argument("--num-classes", type=int, default=10)
    parser.add_argument("--device", default=None, help="e.g. cuda:1 or cpu (default: auto)")
    parser.add_argument("--noise-std", type=float, default=0.02, help="Gaussian pixel noise (0 disables)")
    parser.add_argument("--log-every", type=int, default=100)
    parser.add_argument("--out", default="checkpoints")
    return parser.parse_args()


def main():
    args = parse_args()
    set_seed(0)
    device = get_device(args.device)
    train_loader = build_loader(args.data, train=True, batch_size=args.batch_size, noise_std=args.noise_std)

    model = SmallResNet(num_classes=args.num_classes)
    if torch.cuda.device_count() > 1:
        model = nn.DataParallel(model)  # expect: DL205
    model.to(device)
    criterion = nn.CrossEntropyLoss(weight=class_weights(args.data, args.num_classes))  # expect: DL103
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9, weight_decay=5e-4, nesterov=True)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=args.epochs)

    for epoch in range(args.epochs):
        model.train()
        running_loss = torch.zeros((), device=device)
        running_correct = torch.zeros((), device)  # expect: DL112
        for step, (images, labels) in enumerate(train_loader):
            images = images.to(device)
            labels = labels.to(device)
            logits = model(images)
            loss = criterion(logits, labels)
            if torch.isnan(loss):  # expect: DL201
                raise RuntimeError(f"loss became NaN at epoch {epoch} step {step}")
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
            running_loss += loss.detach()
            running_correct += (logits.argmax(dim=1) == labels).sum()
            if step % args.log_every == 0:
                print(f"epoch {epoch} step {step}: loss {loss.item():.4f}")
        scheduler.step()
        seen = len(train_loader) * args.batch_size
        print(f"epoch {epoch}: mean loss {running_loss.item() / len(train_loader):.4f}, "
              f"train accuracy {running_correct.item() / seen:.4f}")
        bare_model = model.module if isinstance(model, nn.DataParallel) else model
        save_checkpoint(bare_model, optimizer, epoch, os.path.join(args.out, "last.pt"))


if __name__ == "__main__":
    main()
