#!/usr/bin/env bash
# Throughput benchmark (see bench/README.md): on the same Python files, tree-sitter parsing alone
# (bench/bare_parse), devlint with one and N workers, devlint with a warm result cache, flake8 and
# Ruff compiled to WebAssembly. Best (lowest wall time) of BENCH_RUNS runs each.
#
#   bench/run.sh [CORPUS...]            default corpus: /usr/lib/python3.11
#   bench/run.sh --generated [LINES]    the PyTorch-heavy corpus of bench/gen_corpus.py, LINES
#                                       lines (default 1000000), generated once into
#                                       $BENCH_CORPUS_DIR (default /tmp/devlint-bench-corpus)
#
# Environment: BENCH_RUNS (default 3), BENCH_JOBS (N, default nproc), BUILD_DIR (default build),
# BENCH_CORPUS_DIR, RUFF_RULES (default: ruff's own defaults E4,E7,E9,F; playground: the wasm
# module's Workspace.defaultSettings(), about 400 rules), RUFF_PASSES (lint passes over the corpus,
# the fastest timed: default 5, at least 2). Builds what is missing (devlint,
# bare_parse, bench/ruff/node_modules with `npm ci`); chatter goes to stderr, the table to stdout.
# Writes nothing else but the generated corpus and temporary files (a result cache among them,
# removed on exit). Exit status: 0, or 1 when devlint or a comparison tool failed (the table is
# still printed), 2 on a usage error.
set -euo pipefail
export LC_ALL=C

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

die() { # STATUS MESSAGE
  echo "bench/run.sh: $2" >&2
  exit "$1"
}
usage() { # the comment block above
  sed -n '2,/^[^#]/p' "$0" | sed '$d; s/^# \{0,1\}//'
  exit 0
}

runs=${BENCH_RUNS:-3}
build=${BUILD_DIR:-build}
jobs=${BENCH_JOBS:-$(nproc 2>/dev/null || echo 2)}
ruff_rules=${RUFF_RULES:-default}
ruff_pass_count=${RUFF_PASSES:-5}
gen_dir=${BENCH_CORPUS_DIR:-/tmp/devlint-bench-corpus}
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || die 2 "BENCH_RUNS must be a positive integer"
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || die 2 "BENCH_JOBS must be a positive integer"
[[ "$ruff_rules" =~ ^(default|playground)$ ]] || die 2 "RUFF_RULES must be default or playground"
[[ "$ruff_pass_count" =~ ^([2-9]|[1-9][0-9]+)$ ]] || die 2 "RUFF_PASSES must be an integer of at least 2"

gen_lines=""
corpus=()
while [ "$#" -gt 0 ]; do
  case "$1" in
    -h | --help) usage ;;
    --generated)
      gen_lines=1000000
      if [ "$#" -gt 1 ] && [[ "$2" =~ ^[0-9]+$ ]]; then
        gen_lines=$2
        shift
      fi
      [ "$gen_lines" -gt 0 ] || die 2 "--generated LINES must be positive"
      ;;
    --generated=*)
      gen_lines=${1#--generated=}
      [[ "$gen_lines" =~ ^[1-9][0-9]*$ ]] || die 2 "--generated LINES must be positive"
      ;;
    --) shift; corpus+=("$@"); break ;;
    -*) die 2 "unknown option: $1 (try --help)" ;;
    *) corpus+=("$1") ;;
  esac
  shift
done
if [ -z "$gen_lines" ] && [ "${#corpus[@]}" -eq 0 ]; then
  corpus=(/usr/lib/python3.11)
fi
for path in "${corpus[@]}"; do
  [ -e "$path" ] || die 2 "$path: no such file or directory"
done

started=$(date -u '+%Y-%m-%d %H:%M:%S UTC')
tmp=$(mktemp -d "${TMPDIR:-/tmp}/devlint-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# The generated corpus: bench/gen_corpus.py writes $gen_dir/pkgNNN/modNNNNN.py; a stamp records
# the lines asked for and the generator's checksum, so a matching corpus is reused as it is and
# any other is regenerated (into a temporary folder first, so an interrupted run leaves no half).
if [ -n "$gen_lines" ]; then
  stamp="lines=$gen_lines seed=1 generator=$(sha256sum bench/gen_corpus.py | cut -c1-16)"
  if [ "$(cat "$gen_dir/.bench-corpus" 2>/dev/null || true)" != "$stamp" ]; then
    if [ -e "$gen_dir" ]; then
      # Remove only what looks like a generated corpus.
      if find "$gen_dir" -mindepth 1 -maxdepth 1 ! -name 'pkg[0-9]*' ! -name .bench-corpus ! -name .planted | grep -q .; then
        echo "bench/run.sh: $gen_dir exists and is not a generated corpus; set BENCH_CORPUS_DIR" >&2
        exit 2
      fi
      rm -rf "$gen_dir"
    fi
    echo "bench/run.sh: generating a $gen_lines-line corpus in $gen_dir" >&2
    rm -rf "$gen_dir.partial"
    /usr/bin/python3 bench/gen_corpus.py "$gen_dir.partial" --lines "$gen_lines" >&2
    printf '%s\n' "$stamp" >"$gen_dir.partial/.bench-corpus"
    mv "$gen_dir.partial" "$gen_dir"
  else
    echo "bench/run.sh: reusing the $gen_lines-line corpus in $gen_dir" >&2
  fi
  corpus+=("$gen_dir")
fi

if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S . -B "$build" >&2
fi
cmake --build "$build" --target devlint bare_parse -j "$(nproc)" >&2

bare="$build/bench/bare_parse"
devlint="$build/devlint"
timer=""
if [ -x /usr/bin/time ]; then
  timer=/usr/bin/time
else
  echo "bench/run.sh: /usr/bin/time not found (apt-get install time): no user CPU or peak RSS" >&2
fi
status=0

# run_timed OUT CMD...: runs CMD once, its stdout to OUT, its stderr to $tmp/stderr; sets t_wall
# (seconds, from the shell's clock), t_user (user CPU seconds, children included) and t_rss (peak
# resident set of the largest process, MiB), the last two from /usr/bin/time ("-" without it).
# Returns CMD's exit status when it is above 1 (0 and 1: clean, or findings).
run_timed() {
  local out=$1 start end rc=0 line
  shift
  start=$EPOCHREALTIME
  if [ -n "$timer" ]; then
    "$timer" -f '%e %U %M' -o "$tmp/time" "$@" >"$out" 2>"$tmp/stderr" || rc=$?
  else
    "$@" >"$out" 2>"$tmp/stderr" || rc=$?
  fi
  end=$EPOCHREALTIME
  [ "$rc" -le 1 ] || return "$rc"
  t_wall=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.6f", b - a }')
  t_user=- t_rss=-
  if [ -n "$timer" ]; then
    # time prefixes "Command exited with non-zero status 1" when CMD exits 1: read the last line.
    line=$(tail -n 1 "$tmp/time")
    t_user=$(awk '{ printf "%.2f", $2 }' <<<"$line")
    t_rss=$(awk '{ printf "%.1f", $3 / 1024 }' <<<"$line")
  fi
}

# Rows: parallel arrays, one entry per row; r_note is set instead of the numbers for an n/a row.
r_label=() r_files=() r_lines=() r_bytes=() r_secs=() r_user=() r_rss=() r_note=()
add_row() { # LABEL FILES LINES BYTES SECONDS USER RSS
  r_label+=("$1") r_files+=("$2") r_lines+=("$3") r_bytes+=("$4") r_secs+=("$5") r_user+=("$6")
  r_rss+=("$7") r_note+=("")
}
add_na() { # LABEL REASON
  r_label+=("$1") r_files+=(0) r_lines+=(0) r_bytes+=(0) r_secs+=(0) r_user+=(-) r_rss+=(-)
  r_note+=("n/a ($2)")
}
# The seconds of row LABEL, or nothing when it is n/a or absent.
row_secs() {
  local i
  for i in "${!r_label[@]}"; do
    if [ "${r_label[$i]}" = "$1" ] && [ -z "${r_note[$i]}" ]; then
      printf '%s\n' "${r_secs[$i]}"
    fi
  done
}

# bench LABEL CMD...: runs CMD $runs times (output discarded) and adds a row for the run with the
# lowest wall time, with the corpus's counts. Returns non-zero (after a message) when CMD failed.
bench() {
  local label=$1 i rc best="" user="" rss=""
  shift
  echo "bench/run.sh: $label: $*" >&2
  for ((i = 0; i < runs; i++)); do
    rc=0
    run_timed /dev/null "$@" || rc=$?
    if [ "$rc" -ne 0 ]; then
      echo "bench/run.sh: '$*' exited with $rc:" >&2
      tail -n 5 "$tmp/stderr" >&2
      return "$rc"
    fi
    if [ -z "$best" ] || awk -v s="$t_wall" -v b="$best" 'BEGIN { exit !(s < b) }'; then
      best=$t_wall user=$t_user rss=$t_rss
    fi
  done
  add_row "$label" "$files" "$lines" "$bytes" "$best" "$user" "$rss"
}

# Files, lines and bytes come from the bare parser's walk, which reads what devlint's default walk
# reads.
counts=$("$bare" "${corpus[@]}" 2>/dev/null || true)
files=$(sed -n 's/.*files=\([0-9]*\).*/\1/p' <<<"$counts")
lines=$(sed -n 's/.*lines=\([0-9]*\).*/\1/p' <<<"$counts")
bytes=$(sed -n 's/.*bytes=\([0-9]*\).*/\1/p' <<<"$counts")
if [ -z "$files" ] || [ "$files" -eq 0 ]; then
  echo "bench/run.sh: no Python files under ${corpus[*]}" >&2
  exit 1
fi

help_text=$("$devlint" --help 2>&1 || true)
cold=()
if grep -q -- '--no-cache' <<<"$help_text"; then
  cold=(--no-cache) # so a default cache cannot make the cold rows warm
fi
"$devlint" "${cold[@]}" --format json --exit-zero "${corpus[@]}" >"$tmp/findings.json" 2>/dev/null || true
checked=$(sed -n 's/^[[:space:]]*"files_checked":[[:space:]]*\([0-9]*\).*/\1/p' "$tmp/findings.json" |
  head -n 1 || true)
found=$(grep -c '^[[:space:]]*"code":' "$tmp/findings.json" || true)
if [ -n "$checked" ] && [ "$checked" != "$files" ]; then
  echo "bench/run.sh: note: devlint checked $checked files, bare_parse parsed $files" >&2
fi

bench "bare parse" "$bare" "${corpus[@]}" || exit 1
bench "devlint -j 1" "$devlint" "${cold[@]}" -j 1 --exit-zero --quiet "${corpus[@]}" || exit 1
bench "devlint -j $jobs" "$devlint" "${cold[@]}" -j "$jobs" --exit-zero --quiet "${corpus[@]}" || exit 1

# Warm cache: one untimed run fills a fresh cache, then the timed runs reuse it.
if grep -q -- '--cache-dir' <<<"$help_text"; then
  warm=("$devlint" --cache-dir "$tmp/cache" -j "$jobs" --exit-zero --quiet "${corpus[@]}")
  echo "bench/run.sh: filling the cache in $tmp/cache" >&2
  rc=0
  run_timed /dev/null "${warm[@]}" || rc=$?
  if [ "$rc" -ne 0 ]; then
    echo "bench/run.sh: '${warm[*]}' exited with $rc:" >&2
    tail -n 5 "$tmp/stderr" >&2
    exit 1
  fi
  bench "devlint warm -j $jobs" "${warm[@]}" || exit 1
else
  add_na "devlint warm -j $jobs" "no result cache in this build"
fi

# flake8 (Debian's), its default checks, walking what the others walk: .py and .pyi files, the
# same folders skipped; --isolated so no configuration file of the corpus changes what it does.
flake8_version=""
if [ -x /usr/bin/flake8 ]; then
  flake8_version=$(/usr/bin/flake8 --version 2>/dev/null | tr -s '\n' ' ' | sed 's/ *$//' || true)
  if ! bench "flake8 -j $jobs" /usr/bin/flake8 --isolated -j "$jobs" --exit-zero \
    --filename='*.py,*.pyi' --extend-exclude='.*,venv,node_modules,__pycache__,build,dist,site-packages' \
    "${corpus[@]}"; then
    add_na "flake8 -j $jobs" "flake8 failed, see stderr"
    status=1
  fi
else
  add_na "flake8 -j $jobs" "flake8 not installed: apt-get install flake8"
fi

# Ruff through WebAssembly, one thread: bench/ruff/lint.mjs reads the corpus into memory, then
# lints it RUFF_PASSES times; the row's seconds are its fastest pass (the warmed module: the
# first pass runs while V8 still compiles the hot functions on background threads). Its user
# time covers every pass and the compiling, so the row shows none.
ruff_label="ruff-wasm (1 thread)"
ruff_note=""
ruff_load="" ruff_read="" ruff_wall="" ruff_version="" ruff_diags="" ruff_first="" ruff_passes=""
ruff_current() {
  (cd bench/ruff && node -e '
    const fs = require("fs");
    const lock = JSON.parse(fs.readFileSync("package-lock.json", "utf8"));
    for (const [path, meta] of Object.entries(lock.packages || {})) {
      if (!path) continue;
      const installed = JSON.parse(fs.readFileSync(path + "/package.json", "utf8")).version;
      if (installed !== meta.version) process.exit(1);
    }
  ' 2>/dev/null)
}
if ! command -v node >/dev/null 2>&1; then
  ruff_note="node not installed: apt-get install nodejs npm"
elif ! ruff_current; then
  if ! command -v npm >/dev/null 2>&1; then
    ruff_note="npm not installed: apt-get install npm"
  else
    echo "bench/run.sh: npm ci --prefix bench/ruff" >&2
    if ! npm ci --prefix bench/ruff --no-audit --no-fund >&2 2>"$tmp/npm"; then
      cat "$tmp/npm" >&2
      reason=$(grep -m 1 -E '^npm (ERR!|error) code ' "$tmp/npm" | sed -E 's/^npm (ERR!|error) //' || true)
      ruff_note="npm ci --prefix bench/ruff failed${reason:+: $reason}"
    fi
  fi
fi
if [ -z "$ruff_note" ]; then
  echo "bench/run.sh: $ruff_label: node bench/ruff/lint.mjs --rules $ruff_rules --passes $ruff_pass_count ${corpus[*]}" >&2
  best="" best_json=""
  for ((i = 0; i < runs; i++)); do
    rc=0
    run_timed "$tmp/ruff.json" node bench/ruff/lint.mjs --rules "$ruff_rules" \
      --passes "$ruff_pass_count" "${corpus[@]}" || rc=$?
    if [ "$rc" -ne 0 ]; then
      echo "bench/run.sh: bench/ruff/lint.mjs exited with $rc:" >&2
      tail -n 5 "$tmp/stderr" >&2
      ruff_note="bench/ruff/lint.mjs failed, see stderr"
      status=1
      break
    fi
    secs=$(sed -n 's/.*"lint_s":\([0-9.e-]*\).*/\1/p' "$tmp/ruff.json")
    if [ -z "$best" ] || awk -v s="$secs" -v b="$best" 'BEGIN { exit !(s < b) }'; then
      best=$secs best_json=$(cat "$tmp/ruff.json") ruff_wall=$t_wall rss=$t_rss
    fi
  done
  if [ -z "$ruff_note" ]; then
    field() { sed -n "s/.*\"$1\":\"\{0,1\}\([^,\"}]*\).*/\1/p" <<<"$best_json"; }
    ruff_load=$(field load_s) ruff_read=$(field read_s) ruff_version=$(field ruff)
    ruff_diags=$(field diagnostics) ruff_first=$(field first_pass_s) ruff_passes=$(field passes)
    if [ "$(field files)" != "$files" ]; then
      echo "bench/run.sh: note: ruff-wasm read $(field files) files, bare_parse parsed $files" >&2
    fi
    if [ "$(field errors)" != 0 ]; then
      echo "bench/run.sh: note: ruff-wasm failed on $(field errors) files" >&2
    fi
    add_row "$ruff_label" "$(field files)" "$(field lines)" "$(field bytes)" "$best" "-" "$rss"
  fi
fi
[ -z "$ruff_note" ] || add_na "$ruff_label" "$ruff_note"

# The report.
cpu=$(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo 2>/dev/null | head -n 1 || true)
echo "machine: $(nproc) cores (nproc), ${cpu:-unknown CPU}"
echo "devlint: $("$devlint" --version 2>/dev/null || echo unknown) ($devlint)"
echo "date:    $started (start)"
echo "corpus:  ${corpus[*]} (best of $runs runs, wall time; MB = 2^20 bytes)"
# On the generated corpus every finding should be a planted bug (bench/gen_corpus.py): a count
# that differs means findings missed or false ones.
planted=""
[ -z "$gen_lines" ] || planted=$(cat "$gen_dir/.planted" 2>/dev/null || true)
echo "findings: $found${planted:+ (bench/gen_corpus.py planted $planted bugs)}"
printf '%-22s %7s %9s %7s %9s %10s %7s %7s %7s\n' \
  run files lines MB seconds lines/s MB/s user-s RSS-MB
for i in "${!r_label[@]}"; do
  if [ -n "${r_note[$i]}" ]; then
    printf '%-22s %s\n' "${r_label[$i]}" "${r_note[$i]}"
    continue
  fi
  awk -v label="${r_label[$i]}" -v f="${r_files[$i]}" -v l="${r_lines[$i]}" -v b="${r_bytes[$i]}" \
    -v s="${r_secs[$i]}" -v u="${r_user[$i]}" -v m="${r_rss[$i]}" 'BEGIN {
      mb = b / 1048576
      printf "%-22s %7d %9d %7.2f %9.3f %10.0f %7.2f %7s %7s\n", label, f, l, mb, s,
        (s > 0 ? l / s : 0), (s > 0 ? mb / s : 0), u, m
    }'
done

t_bare=$(row_secs "bare parse")
t_j1=$(row_secs "devlint -j 1")
t_jn=$(row_secs "devlint -j $jobs")
t_warm=$(row_secs "devlint warm -j $jobs")
t_ruff=$(row_secs "$ruff_label")
ruff_lines=0
for i in "${!r_label[@]}"; do
  [ "${r_label[$i]}" = "$ruff_label" ] && ruff_lines=${r_lines[$i]}
done
awk -v b="$t_bare" -v j1="$t_j1" -v jn="$t_jn" -v w="$t_warm" -v r="$t_ruff" -v n="$jobs" \
  -v l="$lines" -v rl="$ruff_lines" 'BEGIN {
  printf "devlint -j 1 / bare parse throughput: %.2f (devlint keeps %.0f%% of raw parsing speed)\n",
    b / j1, 100 * b / j1
  printf "devlint -j %d / -j 1 speedup: %.2fx\n", n, j1 / jn
  if (w == "") printf "devlint warm / cold (-j %d) time: n/a (no result cache in this build)\n", n
  else printf "devlint warm / cold (-j %d) time: %.3f (cold / warm: %.1fx)\n", n, w / jn, (w > 0 ? jn / w : 0)
  if (r == "") print "devlint -j 1 vs ruff-wasm throughput: n/a (no ruff-wasm row)"
  else printf "devlint -j 1 vs ruff-wasm throughput: %.2fx (lines/s; ruff-wasm: its warmed lint calls alone)\n",
    (l / j1) / (rl / r)
}'
if [ -n "$ruff_load" ]; then
  awk -v v="$ruff_version" -v r="$ruff_rules" -v d="$ruff_diags" -v lo="$ruff_load" -v rd="$ruff_read" \
    -v w="$ruff_wall" -v fp="$ruff_first" -v np="$ruff_passes" 'BEGIN {
    printf "ruff-wasm: ruff %s, rules: %s, %d diagnostics\n", v, r, d
    printf "ruff-wasm: its row is the fastest of %d passes over the corpus; the first took %.3fs\n", np, fp
    printf "ruff-wasm: not in its row: module load %.3fs, reading the files %.3fs; node process %.3fs wall\n", lo, rd, w
    print  "           (the process wall includes every pass and V8 compiling the module on background threads)"
  }'
fi
[ -z "$flake8_version" ] || echo "flake8: $flake8_version"
exit "$status"
