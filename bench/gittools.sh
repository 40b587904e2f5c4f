#!/usr/bin/env bash
# Measures test_run affected_by against go test ./... on gin, and a
# symbol's history and blame against git log -L and git blame on Cairn's
# own repository (same commits), and prints the section of
# bench/RESULTS.md it fills (## Tests and history).
#   usage: bench/gittools.sh > bench/out/gittools.md
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
go build -o bin/cairn ./cmd/cairn
cairn=$root/bin/cairn
gin_src=$(bench/corpora.sh | sed -n 's/^go_gin=//p')
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export GOTOOLCHAIN=local GOFLAGS=-count=1 GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com

ms() { # command... : prints the wall time in ms
  local t0 t1
  t0=$(date +%s%N); "$@" >/dev/null 2>&1 || true; t1=$(date +%s%N)
  echo $(( (t1 - t0) / 1000000 ))
}
median3() { # command... : median of three runs
  local a b c
  a=$(ms "$@"); b=$(ms "$@"); c=$(ms "$@")
  printf '%s\n%s\n%s\n' "$a" "$b" "$c" | sort -n | sed -n 2p
}

# gin as a git repository, its dependencies and build cache warm.
cp -r "$gin_src" "$work/gin" && chmod -R u+w "$work/gin"
cd "$work/gin"
git init -q && git add -A && git commit -qm gin
go mod download >/dev/null 2>&1
go test ./... >/dev/null 2>&1 || true
"$cairn" --state-dir "$work/state-gin" index >/dev/null
all=$(median3 go test ./...)
echo "## Tests and history"
echo
echo "Measured by \`bench/gittools.sh\` on this machine (2 cores), warm build caches, test results never cached (GOFLAGS=-count=1); wall time, median of 3."
echo
echo "### test_run affected_by vs go test ./... (gin v1.10.0)"
echo
echo "| changed file | targets run | test_run affected_by | go test ./... |"
echo "|---|---|---:|---:|"
for f in ginS/gins.go internal/bytesconv/bytesconv.go render/json.go; do
  sel=$("$cairn" --state-dir "$work/state-gin" --json test run --affected-by "$f" 2>/dev/null | python3 -c 'import json,sys; print(", ".join(json.load(sys.stdin)["data"]["selected"]))')
  t=$(median3 "$cairn" --state-dir "$work/state-gin" test run --affected-by "$f")
  echo "| $f | $sel | $t ms | $all ms |"
done
echo

# Cairn's own history: a symbol's commits by git_history and by git log -L.
cd "$work" && git clone -q "$root" cairn && cd cairn
"$cairn" --state-dir "$work/state-cairn" index >/dev/null
echo "### A symbol's history and blame vs git (Cairn's repository, $(git rev-list --count HEAD) commits)"
echo
echo "| symbol | span | git_history | git log -L | same commits | git_blame | git blame -L | same commits |"
echo "|---|---|---:|---:|---|---:|---:|---|"
for s in 'internal/index/reconcile.go#Index.Reconcile' 'internal/tools/registry.go#Invoke' 'internal/change/risk.go#riskScore'; do
  out=$("$cairn" --state-dir "$work/state-cairn" --json git history --symbol "$s" --limit 100)
  read -r path a b < <(echo "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin)["data"]; print(d["span"]["path"], d["span"]["line"], d["span"]["end_line"])')
  mine=$(echo "$out" | python3 -c 'import json,sys; print(" ".join(c["oid"] for c in json.load(sys.stdin)["data"]["commits"]))')
  theirs=$(git log -s --format=%H -L "$a,$b:$path" HEAD | tr '\n' ' ' | sed 's/ $//')
  same=no; [ "$mine" = "$theirs" ] && same="yes ($(echo "$mine" | wc -w))"
  th=$(median3 "$cairn" --state-dir "$work/state-cairn" git history --symbol "$s" --limit 100)
  tl=$(median3 git log -s --format=%H -L "$a,$b:$path" HEAD)
  bmine=$("$cairn" --state-dir "$work/state-cairn" --json git blame --symbol "$s" | python3 -c 'import json,sys; print(" ".join(sorted(c["oid"] for c in json.load(sys.stdin)["data"]["commits"])))')
  btheirs=$(git blame --porcelain -L "$a,$b" -- "$path" | grep -E '^[0-9a-f]{40} ' | cut -d' ' -f1 | sort -u | tr '\n' ' ' | sed 's/ $//')
  bsame=no; [ "$bmine" = "$btheirs" ] && bsame="yes ($(echo "$bmine" | wc -w))"
  tb=$(median3 "$cairn" --state-dir "$work/state-cairn" git blame --symbol "$s")
  tg=$(median3 git blame --porcelain -L "$a,$b" -- "$path")
  echo "| \`$s\` | $path:$a-$b | $th ms | $tl ms | $same | $tb ms | $tg ms | $bsame |"
done
