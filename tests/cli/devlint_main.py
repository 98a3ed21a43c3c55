"""The command line every unittest suite that drives a devlint executable shares:
`--devlint PATH` (or `--devlint=PATH`; else $DEVLINT; else build/devlint), then unittest's own
options. Used by tests/cli/test_*.py and tests/regress/run_regress.py."""
import os
import sys


def parse_args(script):
    """(absolute path of devlint, argv for unittest.main); exits when devlint is not there."""
    devlint = None
    argv = [sys.argv[0]]
    args = iter(sys.argv[1:])
    for arg in args:
        if arg == "--devlint":
            devlint = next(args, None)
        elif arg.startswith("--devlint="):
            devlint = arg.split("=", 1)[1]
        else:
            argv.append(arg)
    devlint = os.path.abspath(devlint or os.environ.get("DEVLINT") or "build/devlint")
    if not os.access(devlint, os.X_OK):
        sys.exit("%s: devlint not found at %s (pass --devlint PATH)"
                 % (os.path.basename(script), devlint))
    return devlint, argv
