#!/usr/bin/env bash
# Agent questions in one call: asks every question of
# bench/agentbench/questions.json of Cairn (one CLI call with --json each),
# scores the answers against the committed ground truth and their tokens
# against a grep-and-read baseline, and writes the "Agent questions in one
# call" section of bench/RESULTS.md.
#   usage: bench/agentbench/run.sh                      score the committed questions
#          REGEN=1 bench/agentbench/run.sh [repo...]    draw the questions and their ground truth
#                                                       again (all repositories, or those named),
#                                                       then score; installs the pinned oracles
# Needs: go, rg (ripgrep); for REGEN also npm, node and python3.
# The work copies of the corpora live outside this repository
# ($CAIRN_AGENTBENCH_WORK, default ~/.cache/cairn-agentbench): inside it, Cairn
# would take this repository's git top level for the corpus's root.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
command -v rg >/dev/null || { echo "agentbench: rg is missing (apt-get install ripgrep)" >&2; exit 1; }
work=${CAIRN_AGENTBENCH_WORK:-${XDG_CACHE_HOME:-$HOME/.cache}/cairn-agentbench}
corpora=${CAIRN_CORPORA:-$HOME/.cache/cairn-corpora}
tools=$root/bench/out/tools   # shared with bench/precision: the same pinned versions
node=$tools/node
out=$root/bench/out/agentbench
mkdir -p "$work" "$out" "$tools"

make build >/dev/null
go build -o bin/agentbench ./bench/agentbench/cmd/agentbench

declare -A dir
while IFS='=' read -r name path; do dir[$name]=$path; done < <(bench/corpora.sh "$corpora")

gomodenv() { export GOMODCACHE=$corpora/gomod GOFLAGS=-mod=mod GOTOOLCHAIN=local GOWORK=off; }
# prepare NAME: a writable work copy laid out as the oracles need it (once).
prepare() {
  local n=$1 w=$work/$1 src
  [ -f "$work/.ready-$n" ] && return
  rm -rf "$w"; mkdir -p "$w"
  case $n in
  gin) cp -r "${dir[go_small]}/." "$w/" ;;
  client-go) cp -r "${dir[go_med]}/." "$w/" ;;
  kubernetes)
    # buildable for gopls: no vendor/ or go.work, the staging modules from
    # the module proxy at the release's version instead of ./staging
    cp -r "${dir[go_large]}/." "$w/"; chmod -R u+w "$w"
    rm -rf "$w/vendor" "$w/go.work" "$w/go.work.sum"
    (cd "$w" && gomodenv && for m in $(awk '$2 == "=>" && $3 ~ /^\.\/staging\// {print $1}' go.mod); do
      go mod edit -dropreplace="$m" -require="$m@v0.31.0"; done)
    ;;
  rxjs) src=${dir[ts_small]}; cp -r "$src/src" "$src/tsconfig.json" "$src/package.json" "$w/" ;;
  effect)
    src=${dir[ts]}; cp -r "$src/src" "$src/package.json" "$w/"
    cat > "$w/tsconfig.json" <<'EOF'
{
  "compilerOptions": {
    "strict": true,
    "exactOptionalPropertyTypes": true,
    "noEmit": true,
    "skipLibCheck": true,
    "target": "ES2022",
    "module": "NodeNext",
    "moduleResolution": "NodeNext",
    "lib": ["ES2022", "DOM"]
  },
  "include": ["src"]
}
EOF
    ;;
  django) cp -r "${dir[py]}" "$w/django" ;;   # the package inside a project root: modules are django.*
  esac
  chmod -R u+w "$w"
  touch "$work/.ready-$n"
}
repos=(gin client-go kubernetes rxjs effect django)
for r in "${repos[@]}"; do prepare "$r"; done

if [ -n "${REGEN:-}" ]; then
  [ -x "$tools/gopls" ] || GOBIN=$tools go install golang.org/x/tools/gopls@v0.23.0
  if [ ! -x "$node/node_modules/.bin/pyright-langserver" ] || [ ! -x "$node/node_modules/.bin/typescript-language-server" ]; then
    mkdir -p "$node"
    npm i --prefix "$node" --no-audit --no-fund typescript@5.9.3 typescript-language-server@5.3.0 pyright@1.1.414 >/dev/null
  fi
  for r in gin client-go kubernetes; do (cd "$work/$r" && gomodenv && go mod download); done
  sel=$(IFS=,; echo "$*")
  PATH=$tools:$node/node_modules/.bin:$PATH bin/agentbench gen -work "$work" -node "$node" ${sel:+-repos "$sel"} \
    -out bench/agentbench/questions.json
fi

rm -rf "$out/state"
machine="$(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//' | cut -d' ' -f1-2)"
bin/agentbench run -questions bench/agentbench/questions.json -work "$work" -cairn bin/cairn \
  -state "$out/state" -out "$out/results.json" -results bench/RESULTS.md -machine "$machine"
echo "agentbench: wrote bench/RESULTS.md" >&2
