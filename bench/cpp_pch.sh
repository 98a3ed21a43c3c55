#!/usr/bin/env bash
# What the PCH cache buys on C++ files: one libtorch extension file parsed cold (no PCH), while
# its PCH is built, and warm (PCH reused) — first libclang alone (bench/cpp_parse.c), then the
# whole of `devlint` on that file and on tests/fixtures/cpp (first run builds the PCHs, second
# reuses them). The PCH cache is a fresh temporary XDG_CACHE_HOME; the result cache is off,
# except in the last two rows (the default: fresh PCH and result caches, then a rerun).
#
#   bench/cpp_pch.sh [FILE]      # FILE: a C++ file including <torch/extension.h>; default: a
#                                # generated one (a module, a loss, a dispatch, a binding)
#
# BUILD_DIR (default build) holds devlint and bench/cpp_parse; both are built if missing.
# BENCH_FIXTURES=0 skips the fixture rows (minutes); BENCH_NO_PCH=0 skips the --no-pch rows.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
cmake --build "$build" -j2 --target cpp_parse devlint >&2

work=$(mktemp -d /tmp/devlint_cpp_pch.XXXXXX)
trap 'rm -rf "$work"' EXIT
file=${1:-}
if [[ -z $file ]]; then
  file=$work/ext.cpp
  cat >"$file" <<'EOF'
#include <torch/extension.h>
#include <vector>

struct Net : torch::nn::Module {
  Net() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor x) {
    auto w = torch::randn({2});
    auto loss = torch::nn::CrossEntropyLoss(torch::nn::CrossEntropyLossOptions().weight(w));
    x.to(torch::kCUDA);
    return fc->forward(x);
  }
  torch::nn::Linear fc{nullptr};
};

torch::Tensor scale(torch::Tensor t) {
  AT_DISPATCH_FLOATING_TYPES(t.scalar_type(), "scale", [&] { t.mul_(scalar_t(2)); });
  auto z = torch::zeros({4, 4}, torch::TensorOptions().dtype(torch::kFloat));
  std::vector<torch::Tensor> parts{t, z};
  return torch::cat(parts, 0).cuda();
}

PYBIND11_MODULE(ext, m) { m.def("scale", &scale); }
EOF
fi

echo "== libclang alone (bench/cpp_parse): $(nproc) cores, $(date -u '+%Y-%m-%d %H:%M UTC')"
"$build/bench/cpp_parse" --cache "$work/parse-cache" "$file"

# wall seconds of one devlint run (its exit status is 1 when it finds something: not a failure);
# --no-cache unless the arguments name a --cache-dir
seconds() {
  local t0 t1 cache=--no-cache
  [[ " $* " == *" --cache-dir "* ]] && cache=
  t0=$(date +%s.%N)
  XDG_CACHE_HOME=$work/xdg "$build/devlint" $cache "$@" >/dev/null 2>&1 || true
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }'
}

if ! "$build/devlint" --help 2>&1 | grep -q -- --no-pch; then
  echo "== devlint: this build has no C++ front end yet (no --no-pch option): skipped"
  exit 0
fi
echo
echo "== devlint end to end (--no-cache; PCH cache: a fresh XDG_CACHE_HOME)"
printf '%-44s %8s\n' run seconds
if [[ ${BENCH_NO_PCH:-1} != 0 ]]; then
  printf '%-44s %8s\n' "one file, no PCH (--no-pch)" "$(seconds --no-pch "$file")"
fi
printf '%-44s %8s\n' "one file, first run (builds the PCH)" "$(seconds "$file")"
printf '%-44s %8s\n' "one file, second run (reuses it)" "$(seconds "$file")"
fixtures=$root/tests/fixtures/cpp
if [[ -d $fixtures && ${BENCH_FIXTURES:-1} != 0 ]]; then
  rm -rf "$work/xdg"
  n=$(find "$fixtures" -type f \( -name '*.cpp' -o -name '*.cc' -o -name '*.cu' -o -name '*.h' \
        -o -name '*.hpp' -o -name '*.cuh' \) | wc -l)
  if [[ ${BENCH_NO_PCH:-1} != 0 ]]; then
    printf '%-44s %8s\n' "tests/fixtures/cpp ($n files), no PCH" "$(seconds --no-pch "$fixtures")"
  fi
  printf '%-44s %8s\n' "tests/fixtures/cpp ($n files), first run" "$(seconds "$fixtures")"
  printf '%-44s %8s\n' "tests/fixtures/cpp, second run" "$(seconds "$fixtures")"
  rm -rf "$work/xdg" # cold again: the default's first run builds the PCHs too
  printf '%-44s %8s\n' "tests/fixtures/cpp, result cache, first run" \
    "$(seconds --cache-dir "$work/results" "$fixtures")"
  printf '%-44s %8s\n' "tests/fixtures/cpp, result cache, second run" \
    "$(seconds --cache-dir "$work/results" "$fixtures")"
fi
if [[ -d $work/xdg/devlint/pch ]]; then
  echo "PCH cache: $(find "$work/xdg/devlint/pch" -name '*.pch' | wc -l) PCHs," \
       "$(du -sm "$work/xdg/devlint/pch" | cut -f1) MB"
fi
