#!/usr/bin/env bash
# Benchmark Cairn on the real corpora and write bench/RESULTS.md.
#   usage: bench/run.sh [corpus...]   (default: go_large go_med ts ts_small py)
# Needs: ctags (universal-ctags), rg (ripgrep), git, /usr/bin/time.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
for tool in ctags rg /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "bench: $tool is missing (apt-get install universal-ctags ripgrep time)" >&2; exit 1; }
done
go build -o bin/cairnbench ./bench/cmd/cairnbench
declare -A dir
while IFS='=' read -r name path; do dir[$name]=$path; done < <(bench/corpora.sh)
declare -A incr=(
  [go_large]="pkg/util/tail/tail.go,pkg/apis/core/types.go"
  [go_med]="util/homedir/homedir.go,rest/config.go"
)
corpora=("$@")
[ ${#corpora[@]} -gt 0 ] || corpora=(go_large go_med ts ts_small py js_workspace $(printf '%s\n' "${!dir[@]}" | grep '^lang_' | sort))
mkdir -p bench/out
for c in "${corpora[@]}"; do
  echo "bench: $c (${dir[$c]})" >&2
  if [[ $c == lang_* || $c == js_workspace ]]; then
    bin/cairnbench run -light -name "$c" -repo "${dir[$c]}" -cairn bin/cairn -out bench/out
    continue
  fi
  set_file=bench/queries/$c.symbols
  if [ ! -f "$set_file" ]; then
    bin/cairn --repo "${dir[$c]}" --state-dir "bench/out/state-$c" index >/dev/null
    bin/cairnbench genset -repo "${dir[$c]}" -state "bench/out/state-$c" -n 1000 -set "$set_file"
  fi
  lex=bench/queries/$c.lexical
  [ -f "$lex" ] || lex=""
  bin/cairnbench run -name "$c" -repo "${dir[$c]}" -cairn bin/cairn -out bench/out -set "$set_file" -lexical "$lex" -files "${incr[$c]:-}"
done
bin/cairnbench report -out bench/out -results bench/RESULTS.md
# impact_analyze on the most referenced symbols of the large Go corpus (its own section).
if [ -d "bench/out/state-go_large" ]; then
  bin/cairnbench impact -name go_large -repo "${dir[go_large]}" -state bench/out/state-go_large -n 20 -rounds 11 \
    -impact-results bench/RESULTS.md > bench/out/impact-go_large.json
  # graph_callers (depth 3 and 1) on the most called symbols (its own section).
  bin/cairnbench graph -name go_large -repo "${dir[go_large]}" -state bench/out/state-go_large -n 20 -rounds 11 \
    -graph-results bench/RESULTS.md > bench/out/graph-go_large.json
fi
echo "bench: wrote bench/RESULTS.md" >&2
