"""The program's own error: raised deep in its code, caught at the top, printed with the
program's traceback and turned into exit status 3. devlint must pass all of it through."""
# exit-status: 3
import sys
import traceback

import os

import torch
import torch.nn as nn

device = torch.device(os.environ.get("DEVLINT_TEST_DEVICE", "meta"))


class ConfigError(Exception):
    pass


def load_config(path):
    raise ConfigError("no such config: %s" % path)


def setup():
    weights = torch.ones(4)
    weights.to(device)  # verdict: DL101 confirmed
    return load_config("missing.toml")


def main():
    try:
        setup()
    except ConfigError:
        traceback.print_exc()
        print("giving up", file=sys.stderr)
        sys.exit(3)


if __name__ == "__main__":
    main()
