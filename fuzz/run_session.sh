#!/bin/sh
# One fuzzing session as a ctest test: run_session.sh LOG ARTIFACT_PREFIX TARGET [ARGS...]
#
# libFuzzer prints a line per new input, and ctest keeps only the start of a long output, so a
# crash's report (at the end) and the input that caused it were lost from CI's log (a
# non-reproducible SegFault in fuzz.cpp, 2026-11-30). The whole log goes to LOG; the test prints
# its end, and on failure every input the session kept under ARTIFACT_PREFIX, in base64, so a
# CI log alone is enough to replay the crash:
#     base64 -d > crash && fuzz_TARGET crash
log=$1
prefix=$2
shift 2
start="$log.start" # the inputs kept by this session are the ones newer than it
: >"$start"
"$@" >"$log" 2>&1
rc=$?
tail -n 120 "$log"
if [ "$rc" -ne 0 ]; then
    echo "== $1 exited with $rc; its whole log: $log"
    for input in "$prefix"*; do
        [ -f "$input" ] && [ "$input" -nt "$start" ] || continue
        echo "== $input ($(wc -c <"$input") bytes), base64:"
        base64 "$input"
    done
fi
exit "$rc"
