"""What a program can see of how it was started: under devlint run it must be the same as
without (argv, sys.path, PYTHONPATH, __main__, the interpreter's flags), and no finding here."""
import os
import sys

import __main__

print("argv", sys.argv)
print("path0", sys.path[0] == os.path.dirname(os.path.realpath(__file__)))
print("path", [p for p in sys.path if "devlint" in p or "runtime" in p])
print("PYTHONPATH", os.environ.get("PYTHONPATH"))
print("devlint variables", sorted(k for k in os.environ if k.startswith("DEVLINT_RUNTIME")))
print("main", __name__, __main__.__file__ == os.path.abspath(__file__), __spec__, __package__)
print("main attributes", sorted(k for k in vars(__main__) if k.startswith("__")))
print("flags", sys.flags.optimize, sys.flags.dont_write_bytecode)
sys.stdout.flush()
sys.stderr.write("a line on stderr\n")
