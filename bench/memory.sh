#!/usr/bin/env bash
# The memory budget (index.memory_mb) on a corpus five times kubernetes:
# five releases of k8s.io/kubernetes side by side in one directory (from
# the Go module proxy, into the module cache of bench/corpora.sh), indexed
# from nothing by `cairn index --full` at each budget. Prints one line per
# run: the budget, peak RSS (VmHWM, from /usr/bin/time), RSS of the same
# binary with the store open before indexing (`cairn status` on a fresh
# state), wall time, files and symbols written, and the load average.
#   usage: nice -n 10 bench/memory.sh [MB ...]   (default: 256 512 default)
# CAIRN=path runs that binary instead of building one; VERSIONS lists the
# releases (default: v1.31.0 v1.30.0 v1.29.0 v1.28.0 v1.27.0).
# The corpus and the index states live under $CAIRN_CORPORA/mem5x
# (~/.cache/cairn-corpora by default); the states are removed after each run.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${CAIRN_CORPORA:-$HOME/.cache/cairn-corpora}
budgets=("$@")
[ ${#budgets[@]} -gt 0 ] || budgets=(256 512 default)
versions=(${VERSIONS:-v1.31.0 v1.30.0 v1.29.0 v1.28.0 v1.27.0})
cairn=${CAIRN:-}
if [ -z "$cairn" ]; then
  (cd "$root" && go build -o bin/cairn ./cmd/cairn)
  cairn=$root/bin/cairn
fi

# The corpus: each release as a directory of its own (hard links into the
# module cache, which is read-only: the directories are made writable so
# that the corpus can be removed).
corpus=$dir/mem5x/corpus
mkdir -p "$dir/gomod" "$corpus"
for v in "${versions[@]}"; do
  if [ ! -d "$corpus/kubernetes-$v" ]; then
    (cd "$dir" && GOMODCACHE="$dir/gomod" GOFLAGS=-mod=mod GOTOOLCHAIN=local go mod download -json "k8s.io/kubernetes@$v" >/dev/null) ||
      { echo "cannot download k8s.io/kubernetes@$v" >&2; exit 1; }
    cp -al "$dir/gomod/k8s.io/kubernetes@$v" "$corpus/kubernetes-$v.tmp"
    find "$corpus/kubernetes-$v.tmp" -type d -exec chmod u+w {} +
    mv "$corpus/kubernetes-$v.tmp" "$corpus/kubernetes-$v"
  fi
done

state=$dir/mem5x/state
trap 'rm -rf "$state"' EXIT
echo "corpus=$corpus ($(find "$corpus" -type f | wc -l) files, $(du -sh "$corpus" | cut -f1)) releases=${versions[*]}"
for mb in "${budgets[@]}"; do
  env=()
  [ "$mb" = default ] || env=("CAIRN__INDEX__MEMORY_MB=$mb")
  rm -rf "$state"
  base=$( { env "${env[@]}" /usr/bin/time -f %M "$cairn" --repo "$corpus" --state-dir "$state" status >/dev/null; } 2>&1 | tail -1)
  rm -rf "$state"
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  out=$(mktemp) err=$(mktemp)
  env "${env[@]}" /usr/bin/time -v "$cairn" --repo "$corpus" --state-dir "$state" index --full --json >"$out" 2>"$err" ||
    { tail -5 "$err" >&2; exit 1; }
  peak=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$err")
  wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$err")
  files=$(sed -n 's/^    "files": \([0-9]*\),/\1/p' "$out" | head -1)
  symbols=$(sed -n 's/^    "symbols_written": \([0-9]*\),/\1/p' "$out")
  echo "memory_mb=$mb peak_rss_mb=$((peak / 1024)) baseline_mb=$((base / 1024)) wall=$wall files=$files symbols=$symbols load_before=\"$load\" load_after=\"$(cut -d' ' -f1-3 /proc/loadavg)\""
  rm -f "$out" "$err"
done
rm -rf "$state"
