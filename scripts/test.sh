#!/usr/bin/env bash
# Quick-start step 2: runs every test in two configurations, each with ctest:
#   build/       the default build (RelWithDebInfo), as users get it
#   build-asan/  Debug with AddressSanitizer + UndefinedBehaviorSanitizer
# Installs missing dependencies first (through scripts/setup.sh --deps-only). Exits non-zero if
# either configuration fails to build or has a failing test; both run either way.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root" || exit 1

jobs=$(nproc 2>/dev/null || echo 2)

if ! scripts/setup.sh --check-deps >/dev/null; then
  echo "==> dependencies missing: running scripts/setup.sh --deps-only"
  if ! scripts/setup.sh --deps-only; then
    echo "test.sh: could not install the build dependencies; run scripts/setup.sh as root" >&2
    exit 1
  fi
fi

# Sanitizer findings fail the test that hits them; leaks are reported too.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

failed=()

# run_config LABEL DIR CMAKE-ARGS...
run_config() {
  local label=$1 dir=$2
  shift 2
  echo
  echo "================================================================"
  echo "== $label: $dir"
  echo "================================================================"
  if ! cmake -S . -B "$dir" "$@"; then
    echo "test.sh: $label: configure failed" >&2
    failed+=("$label (configure)")
    return
  fi
  if ! cmake --build "$dir" -j "$jobs"; then
    echo "test.sh: $label: build failed" >&2
    failed+=("$label (build)")
    return
  fi
  echo "== $label: ctest"
  if ! (cd "$dir" && ctest --output-on-failure -j "$jobs"); then
    failed+=("$label (tests)")
  fi
}

run_config "default build (RelWithDebInfo)" build
run_config "sanitizer build (Debug, ASan+UBSan)" build-asan \
  -DCMAKE_BUILD_TYPE=Debug -DDEVLINT_SANITIZE=ON

echo
if [ "${#failed[@]}" -ne 0 ]; then
  echo "test.sh: FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "test.sh: both configurations passed"
