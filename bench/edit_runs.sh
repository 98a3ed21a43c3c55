#!/usr/bin/env bash
# What a user's runs cost on one project with the result cache: a cold run, a warm one, then,
# for each FILE given, a run after a comment is appended to it and one after it is restored.
#
#     bench/edit_runs.sh PROJECT [FILE...]        # FILE: relative to PROJECT
#
# Prints seconds (wall and user CPU), peak RSS, the results analysed again (the cache entries
# the run wrote) and the shared results reused once their DataLoader marks were compared
# (driver/check_marks.c) per run. The files are restored however the script ends. DEVLINT (default build/devlint) and JOBS (default 2) can be set. The cache keeps
# one entry per file: the run after a restore is a re-check too, not a warm run.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
devlint=${DEVLINT:-$root/build/devlint}
jobs=${JOBS:-2}
[ $# -ge 1 ] || { sed -n 2,10p "$0"; exit 2; }
project=$(cd "$1" && pwd)
shift
work=$(mktemp -d)
backups=()
restore() {
  for i in "${!backups[@]}"; do cp "$work/orig.$i" "$project/${backups[$i]}"; done
  rm -rf "$work"
}
trap restore EXIT

run() {
  touch "$work/before"
  DEVLINT_TIMING=1 /usr/bin/time -f "%e %U %M" -o "$work/time" \
    "$devlint" -j "$jobs" --cache-dir "$work/cache" \
    -q --exit-zero "$project" >/dev/null 2>"$work/stderr" || {
    cat "$work/stderr" >&2
    exit 1
  }
  read -r wall user kb <"$work/time"
  written=$(find "$work/cache" -name '*.json' -newer "$work/before" | wc -l)
  reused=$(sed -n 's/.* \([0-9]*\) of [0-9]* pending results reused.*/\1/p' "$work/stderr" | tail -n 1)
  reused=${reused:-0}
  printf '%-50s %8.2f s  %8.2f s CPU  %6d MB  %6d analysed  %6d reused after marks\n' "$1" \
    "$wall" "$user" $((kb / 1024)) "$written" "$reused"
}

run "cold (empty result cache)"
run "warm"
for file in "$@"; do
  i=${#backups[@]}
  cp "$project/$file" "$work/orig.$i"
  backups+=("$file")
  case "$file" in
    *.py) echo "# edited by bench/edit_runs.sh" >>"$project/$file" ;;
    *) echo "// edited by bench/edit_runs.sh" >>"$project/$file" ;;
  esac
  run "after editing $file"
  cp "$work/orig.$i" "$project/$file"
  run "after restoring it"
done
