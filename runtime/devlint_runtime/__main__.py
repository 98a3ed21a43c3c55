"""python -m devlint_runtime: see devlint_runtime/__init__.py."""
import sys

from devlint_runtime.launcher import main

main(sys.argv[1:])
