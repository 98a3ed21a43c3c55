"""The runtime of `devlint run`: runs a program unchanged under a C line tracer (the _tracer
extension) armed on the lines of devlint's findings, and reports at exit whether each finding
was confirmed, refuted, not reached or inconclusive, and which device mismatches no finding
predicted.

    python -m devlint_runtime [--findings FILE] [--report FILE] [--format text|json] \\
        -- SCRIPT [ARGS...]          (or: -- -m MODULE [ARGS...])

`devlint run` execs this with PYTHONPATH pointing at the build's runtime/ directory; the
launcher puts PYTHONPATH back before the program starts.
"""
