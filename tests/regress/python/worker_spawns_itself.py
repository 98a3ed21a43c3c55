import torch
import torch.multiprocessing as mp


def work(rank):
    mp.spawn(work, nprocs=2)


mp.spawn(work, nprocs=2)


def load():
    return torch.load("model.pt")


def report(model):
    if torch.cuda.is_available():
        model.to("cuda")
