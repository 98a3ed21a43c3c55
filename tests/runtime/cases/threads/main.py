"""A device error in a thread the program starts: the tracer follows new threads."""
import threading

import os

import torch
import torch.nn as nn

device = torch.device(os.environ.get("DEVLINT_TEST_DEVICE", "meta"))


def worker(results):
    weights = torch.ones(4, device=device)
    batch = torch.ones(4)  # verdict: DL102 confirmed (same device)
    try:
        results.append(weights * batch)
    except RuntimeError as err:
        results.append("caught a device error: %s" % ("same device" in str(err)))


def main():
    results = []
    thread = threading.Thread(target=worker, args=(results,))
    thread.start()
    thread.join()
    print(results[0])


if __name__ == "__main__":
    main()
