#!/usr/bin/env bash
# Throughput benchmark: tree-sitter parsing alone (bench/bare_parse) against devlint with one and
# two workers, on the same Python files. Best (lowest wall time) of BENCH_RUNS runs each.
#
#   bench/run.sh [CORPUS...]      default corpus: /usr/lib/python3.11
#
# Environment: BENCH_RUNS (default 3), BUILD_DIR (default build). Builds what is missing; the
# build's chatter goes to stderr, the table to stdout; nothing is written besides the build.
set -euo pipefail
export LC_ALL=C

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

runs=${BENCH_RUNS:-3}
build=${BUILD_DIR:-build}
if [ "$#" -eq 0 ]; then
  set -- /usr/lib/python3.11
fi
for path in "$@"; do
  [ -e "$path" ] || { echo "bench/run.sh: $path: no such file or directory" >&2; exit 2; }
done

if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S . -B "$build" >&2
fi
cmake --build "$build" --target devlint bare_parse -j "$(nproc)" >&2

bare="$build/bench/bare_parse"
devlint="$build/devlint"

# best_wall CMD...: runs CMD $runs times (stdout and stderr discarded) and prints the lowest wall
# time in seconds. Exit codes 0 and 1 are fine (1: findings or per-file errors); others abort.
best_wall() {
  local best="" i start end rc secs
  for ((i = 0; i < runs; i++)); do
    start=$EPOCHREALTIME
    rc=0
    "$@" >/dev/null 2>&1 || rc=$?
    end=$EPOCHREALTIME
    if [ "$rc" -gt 1 ]; then
      echo "bench/run.sh: '$*' exited with $rc" >&2
      exit 1
    fi
    secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.6f", b - a }')
    if [ -z "$best" ] || awk -v s="$secs" -v b="$best" 'BEGIN { exit !(s < b) }'; then
      best=$secs
    fi
  done
  printf '%s\n' "$best"
}

# Files and lines come from the bare parser's walk, which skips what devlint's default walk skips.
counts=$("$bare" "$@" 2>/dev/null || true)
files=$(sed -n 's/.*files=\([0-9]*\).*/\1/p' <<<"$counts")
lines=$(sed -n 's/.*lines=\([0-9]*\).*/\1/p' <<<"$counts")
if [ -z "$files" ] || [ "$files" -eq 0 ]; then
  echo "bench/run.sh: no Python files under $*" >&2
  exit 1
fi
checked=$("$devlint" --format json --exit-zero "$@" 2>/dev/null |
  sed -n 's/^[[:space:]]*"files_checked":[[:space:]]*\([0-9]*\).*/\1/p' | head -n 1 || true)
if [ -n "$checked" ] && [ "$checked" != "$files" ]; then
  echo "bench/run.sh: note: devlint checked $checked files, bare_parse parsed $files" >&2
fi

t_bare=$(best_wall "$bare" "$@")
t_j1=$(best_wall "$devlint" -j 1 --exit-zero --quiet "$@")
t_j2=$(best_wall "$devlint" -j 2 --exit-zero --quiet "$@")

row() { # LABEL SECONDS
  awk -v label="$1" -v f="$files" -v l="$lines" -v s="$2" \
    'BEGIN { printf "%-16s %8d %10d %9.3f %12.0f\n", label, f, l, s, (s > 0 ? l / s : 0) }'
}

echo "corpus: $* (best of $runs runs, wall time)"
printf '%-16s %8s %10s %9s %12s\n' run files lines seconds lines/s
row "bare parse" "$t_bare"
row "devlint -j 1" "$t_j1"
row "devlint -j 2" "$t_j2"
awk -v b="$t_bare" -v j1="$t_j1" -v j2="$t_j2" 'BEGIN {
  printf "devlint -j 1 / bare parse throughput: %.2f\n", (j1 > 0 ? b / j1 : 0)
  printf "devlint -j 2 / -j 1 speedup:           %.2fx\n", (j2 > 0 ? j1 / j2 : 0)
}'
