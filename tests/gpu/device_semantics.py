"""PyTorch's device rules as RULES.md states them, checked on a real GPU.

devlint's rules rest on a few facts about which operations mix devices (RULES.md, "Device
semantics"). Some were taken from PyTorch's source rather than run; this script runs each one
on CUDA and says whether PyTorch agrees. tests/gpu/run.sh runs it; on a machine without CUDA it
has nothing to check and says so (exit 2: not a pass).

Each case is (what RULES.md says, code, whether it must raise). Exit status: 0 when PyTorch
agrees with every line, 1 when any disagrees (the line says which), 2 without CUDA.
"""
import sys

import torch


def cases(cuda):
    cpu_vec = torch.zeros(4)
    cpu_long = torch.zeros(4, dtype=torch.long)
    return [
        ("a 0-dim CPU tensor meets a CUDA tensor",
         lambda: torch.ones(3, device=cuda) * torch.tensor(2.0), False),
        ("a 1-element 1-D CPU tensor does not meet a CUDA tensor",
         lambda: torch.ones(3, device=cuda) * torch.ones(1), True),
        ("a CPU tensor is never the target of an in-place op with a CUDA operand (0-dim too)",
         lambda: torch.tensor(0.0).add_(torch.ones((), device=cuda)), True),
        ("a CUDA tensor may be indexed with CPU indices",
         lambda: torch.ones(4, device=cuda)[torch.tensor([0, 2])], False),
        ("a CPU tensor indexed with CUDA indices fails (DL114)",
         lambda: cpu_vec[torch.tensor([0, 2], device=cuda)], True),
        ("a CPU tensor mask-assigned with a CUDA mask fails (DL114, RULES.md)",
         lambda: cpu_vec.__setitem__(torch.tensor([True, False, True, False], device=cuda), 1.0),
         True),
        ("a CPU tensor assigned through CUDA indices fails (DL114, RULES.md)",
         lambda: cpu_vec.__setitem__(torch.tensor([0, 2], device=cuda), 1.0), True),
        ("a 0-dim integer CUDA tensor indexes a CPU tensor as the number it holds",
         lambda: cpu_long.__setitem__(torch.tensor(1, device=cuda),
                                      cpu_long[torch.tensor(2, device=cuda)] + 1), False),
        ("a factory inside `with torch.cuda.device(0):` creates on the CPU (DL110)",
         lambda: _factory_in_cuda_context(), False),
    ]


def _factory_in_cuda_context():
    with torch.cuda.device(0):
        made = torch.randn(3)
    if made.device.type != "cpu":
        raise AssertionError("created on %s" % made.device)


def main():
    if not torch.cuda.is_available():
        print("device_semantics: no CUDA device here; nothing checked")
        return 2
    cuda = torch.device("cuda")
    disagreements = 0
    for claim, run, must_raise in cases(cuda):
        try:
            run()
            torch.cuda.synchronize()
            raised = None
        except (RuntimeError, IndexError, AssertionError) as err:
            raised = err
        agrees = (raised is not None) == must_raise and not isinstance(raised, AssertionError)
        disagreements += not agrees
        what = "raises: %s" % str(raised).splitlines()[0] if raised else "runs"
        print("%s  %s (%s)" % ("agrees   " if agrees else "DISAGREES", claim, what))
    print("device_semantics: %d of %d claims disagree with torch %s"
          % (disagreements, len(cases(cuda)), torch.__version__))
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
