#!/usr/bin/env bash
# Run on the development machine (no GPU needed) before tests/gpu/run.sh: puts a devlint binary
# that runs without Debian's packages into build/gpu-bundle/ (the binary, the shared libraries it
# needs besides glibc, the launcher's sources), so the GPU machine needs only a C compiler and
# its Python's headers to build the runtime's extension. Hand build/gpu-bundle to the GPU machine
# with the working tree (with the device tool: carry ["build/gpu-bundle"]).
#
#   tests/gpu/prepare.sh [BUILD_DIR]     (default: build; built first if needed)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
build=${1:-build}
bundle=build/gpu-bundle

if [ ! -x "$build/devlint" ]; then
  cmake -S . -B "$build" >/dev/null
fi
cmake --build "$build" -j "$(nproc)" --target devlint >/dev/null

rm -rf "$bundle"
mkdir -p "$bundle/lib"
cp "$build/devlint" "$bundle/devlint"
# every shared library but glibc's own (the GPU machine's glibc is as new or newer)
ldd "$build/devlint" | awk '/=> \// {print $3}' | while read -r lib; do
  case "$(basename "$lib")" in
    libc.so.* | libm.so.* | libpthread.so.* | libdl.so.* | librt.so.* | ld-linux*) ;;
    *) cp -L "$lib" "$bundle/lib/" ;;
  esac
done
echo "tests/gpu/prepare.sh: $bundle ready ($(ls "$bundle/lib" | tr '\n' ' '))"
