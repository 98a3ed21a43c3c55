#!/usr/bin/env bash
# Quick-start step 2: runs every test in four configurations:
#   build/       the default build (RelWithDebInfo), as users get it; also a valgrind memcheck
#                of a whole run (label valgrind)
#   build-asan/  Debug with AddressSanitizer + UndefinedBehaviorSanitizer
#   build-fuzz/  clang, libFuzzer + ASan + UBSan: each fuzz target of fuzz/ (Python, notebook,
#                TOML, the language server's input, C++ when built with libclang) runs for
#                DEVLINT_FUZZ_SECONDS (default 60, two targets at a time) and replays
#                tests/regress/ (label fuzz)
#   build-tsan/  clang, ThreadSanitizer: the parallel checker over the fixtures and the language
#                server's protocol tests (label tsan)
# The two clang configurations take about four minutes on two cores; DEVLINT_ROBUSTNESS=0 skips
# them for a quick local run (CI runs them).
# Installs missing dependencies first (through scripts/setup.sh --deps-only, then clang,
# libFuzzer's runtime and valgrind). Exits non-zero if any configuration fails to build or has a
# failing test; all run either way.
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

robustness=${DEVLINT_ROBUSTNESS:-1}

# The robustness configurations' tools (Debian 12: clang is clang-14) and valgrind.
ROBUST_PACKAGES=(valgrind)
[ "$robustness" = 0 ] || ROBUST_PACKAGES+=(clang libclang-rt-14-dev)
missing_robust=()
for pkg in "${ROBUST_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' ||
    missing_robust+=("$pkg")
done
if [ "${#missing_robust[@]}" -ne 0 ]; then
  echo "==> installing ${missing_robust[*]} (fuzz, ThreadSanitizer and valgrind configurations)"
  if [ "$(id -u)" -ne 0 ] ||
    ! { apt-get -o Acquire::Retries=3 update -qq && apt-get -o Acquire::Retries=3 install -y --no-install-recommends "${missing_robust[@]}"; }; then
    echo "test.sh: missing ${missing_robust[*]}: install them as root (apt-get install)" >&2
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
# The clang configurations build only what their tests use (no unit tests, no `devlint run`
# runtime) and do not turn clang-only warnings into errors (gcc's -Werror build guards those).
# They add about four minutes on two cores (mostly the 60 s fuzzing runs): DEVLINT_ROBUSTNESS=0
# skips them.
clang_only=(-DCMAKE_C_COMPILER=clang -DDEVLINT_TESTS=OFF -DDEVLINT_RUNTIME=OFF -DDEVLINT_WERROR=OFF)
if [ "$robustness" != 0 ]; then
  run_config "fuzz build (clang, libFuzzer + ASan + UBSan)" build-fuzz "${clang_only[@]}" \
    -DDEVLINT_FUZZ_SECONDS="${DEVLINT_FUZZ_SECONDS:-60}" \
    -DDEVLINT_FUZZ=ON
  run_config "ThreadSanitizer build (clang)" build-tsan "${clang_only[@]}" -DDEVLINT_TSAN=ON
else
  echo
  echo "== fuzz and ThreadSanitizer configurations skipped (DEVLINT_ROBUSTNESS=0)"
fi

echo
if [ "${#failed[@]}" -ne 0 ]; then
  echo "test.sh: FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "test.sh: all configurations passed"
