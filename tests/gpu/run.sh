#!/usr/bin/env bash
# `devlint run` on a real GPU: builds the runtime's extension against the GPU machine's Python
# (3.12 with PyTorch 2.x and CUDA there), then runs every program of tests/runtime/cases/ with
# DEVLINT_TEST_DEVICE=cuda, plainly and under `devlint run`, through tests/runtime/run_tests.py
# --require-driver: outputs and exit statuses unchanged, every verdict as its line announces,
# and the evidence from the CUDA driver (cuPointerGetAttribute: device memory on GPU 0, pinned
# or pageable host memory). Then tests/gpu/device_semantics.py (the device rules RULES.md states,
# run on CUDA) and, time permitting, the overhead benchmark on the GPU.
#
#   tests/gpu/prepare.sh                         # first, on the development machine
#   tests/gpu/run.sh [PYTHON]                    # on the GPU machine, from the repository root
#
# devlint itself comes from a full CMake build when the machine has CMake, tree-sitter, cJSON
# and node_modules/ (then with -DPython3_EXECUTABLE=PYTHON), otherwise from build/gpu-bundle/
# (tests/gpu/prepare.sh), with the extension compiled here by the C compiler. Everything is
# written to $OUT (the device tool's output folder) or a temporary folder: the log, each case's
# two runs (reports/), and bench.txt. Exit status: the tests' (0 when all passed). Stays well
# under 5 minutes: the build takes seconds, the cases run 6 at a time, the benchmark is skipped
# when less than 100 s of the budget is left.
#
# Rehearsal without a GPU: DEVLINT_GPU_DRY_RUN=1 accepts a Python whose torch has no CUDA and
# runs the cases on `meta` without --require-driver; DEVLINT_GPU_BUNDLE=1 skips the CMake build.
set -uo pipefail

start=$SECONDS
dry=${DEVLINT_GPU_DRY_RUN:-0}
device=cuda
driver_flag=--require-driver
if [ "$dry" = 1 ]; then
  device=meta
  driver_flag=
fi
budget=${GPU_BUDGET_S:-280}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root" || exit 1
out=${OUT:-$(mktemp -d /tmp/devlint-gpu-XXXXXX)}
mkdir -p "$out"
log=$out/gpu.log
say() { printf '==> [%3ds] %s\n' "$((SECONDS - start))" "$*" | tee -a "$log"; }

# --- the interpreter: the first that has torch with CUDA ---
py=""
for cand in "${1:-}" "${PYTHON:-}" python3.12 python3 /usr/bin/python3; do
  [ -n "$cand" ] && command -v "$cand" >/dev/null 2>&1 || continue
  if "$cand" -c "import torch, sys; sys.exit(0 if torch.cuda.is_available() or '$dry' == '1' else 1)" 2>/dev/null; then
    py=$(command -v "$cand")
    break
  fi
done
if [ -z "$py" ]; then
  say "no Python with torch and a usable CUDA device found (tried ${1:-} \$PYTHON python3.12 python3)"
  exit 1
fi
say "python: $py ($("$py" -c 'import sys, torch; print(sys.version.split()[0], "torch", torch.__version__, "CUDA", torch.version.cuda, torch.cuda.get_device_name(0) if torch.cuda.is_available() else "(no GPU)")'))"
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a "$log"

work=$(mktemp -d /tmp/devlint-gpu-build-XXXXXX)
devlint=""

# --- devlint: a full build if this machine can, else the bundle + the extension built here ---
if [ "${DEVLINT_GPU_BUNDLE:-0}" != 1 ] && command -v cmake >/dev/null &&
  pkg-config --exists tree-sitter libcjson 2>/dev/null &&
  [ -f node_modules/tree-sitter-python/src/parser.c ]; then
  say "building devlint and the runtime with CMake against $py"
  if cmake -S . -B "$work/build" -DPython3_EXECUTABLE="$py" -DDEVLINT_TESTS=OFF \
    -DDEVLINT_WERROR=OFF >>"$log" 2>&1 &&
    cmake --build "$work/build" -j "$(nproc)" --target devlint devlint_runtime >>"$log" 2>&1; then
    devlint=$work/build/devlint
  else
    say "CMake build failed (see $log); trying build/gpu-bundle"
  fi
fi
if [ -z "$devlint" ]; then
  if [ ! -x build/gpu-bundle/devlint ]; then
    say "no build/gpu-bundle/devlint: run tests/gpu/prepare.sh on the development machine and bring build/gpu-bundle"
    exit 1
  fi
  cc=$(command -v cc || command -v gcc || command -v clang)
  include=$("$py" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
  suffix=$("$py" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
  if [ -z "$cc" ] || [ ! -f "$include/Python.h" ]; then
    say "cannot build the extension: C compiler '${cc:-none}', Python.h in '$include' ($( [ -f "$include/Python.h" ] && echo found || echo missing))"
    exit 1
  fi
  cp -r build/gpu-bundle "$work/bundle"
  pkg=$work/bundle/runtime/devlint_runtime
  mkdir -p "$pkg"
  cp runtime/devlint_runtime/*.py "$pkg/"
  say "building the extension with $cc against $include"
  if ! "$cc" -O2 -g -std=gnu11 -fPIC -shared -fvisibility=hidden -Wall -Wextra \
    -Wno-unused-parameter -I"$include" runtime/src/*.c runtime/cuda/*.c -ldl \
    -o "$pkg/_tracer$suffix" >>"$log" 2>&1; then
    say "the extension does not compile (see $log)"
    tail -30 "$log"
    exit 1
  fi
  export LD_LIBRARY_PATH="$work/bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  devlint=$work/bundle/devlint
fi
"$devlint" --version | tee -a "$log" || exit 1

# --- the programs, on CUDA ---
say "tests/runtime/run_tests.py --device $device $driver_flag"
DEVLINT_TEST_DEVICE=$device timeout $((budget - (SECONDS - start) - 20)) \
  "$py" tests/runtime/run_tests.py --devlint "$devlint" --python "$py" --device "$device" \
  $driver_flag --jobs 6 --save "$out/reports" -v 2>&1 | tee -a "$log"
status=${PIPESTATUS[0]}
say "tests: exit status $status"
grep -h "CUDA driver\|driver: " "$out"/reports/*.devlint.txt 2>/dev/null | head -5 | tee -a "$log"

# --- the device rules devlint rests on, as PyTorch on this GPU has them ---
if [ "$dry" != 1 ]; then
  say "tests/gpu/device_semantics.py"
  "$py" tests/gpu/device_semantics.py 2>&1 | tee -a "$log"
  semantics=${PIPESTATUS[0]}
  say "device semantics: exit status $semantics"
  [ "$semantics" != 0 ] && [ "$status" = 0 ] && status=$semantics
fi

# --- the overhead on this machine, if there is time ---
left=$((budget - (SECONDS - start)))
if [ "$left" -gt 100 ]; then
  bench_device=cuda
  [ "$dry" = 1 ] && bench_device=cpu
  say "bench/runtime_overhead.py on $bench_device (${left}s left)"
  BENCH_DEVICE=$bench_device timeout $((left - 10)) "$py" bench/runtime_overhead.py --devlint "$devlint" \
    --python "$py" --runs 2 --steps 300 --widths 32,256 2>&1 | tee "$out/bench.txt" | tee -a "$log"
else
  say "benchmark skipped: ${left}s left"
fi
rm -rf "$work"
say "done: exit status $status"
exit "$status"
