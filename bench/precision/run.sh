#!/usr/bin/env bash
# Precision and recall of Cairn's references against compiler-grade oracles,
# written into the precision section of bench/RESULTS.md.
#   usage: bench/precision/run.sh [go|ts|py ...]   (default: all three)
# Installs its pinned tools under bench/out/tools (gopls, and with npm:
# scip-typescript, scip-python, typescript, typescript-language-server,
# pyright), fetches the corpora (bench/corpora.sh), copies each to a writable
# work dir, runs the corpus's SCIP indexer there, then scores Cairn.
# Env: N (sample size, default 200), TS_LSP_N (symbols asked of
# typescript-language-server, default 60), GO_LSP_N (of gopls, default all),
# CALLS_N (functions and methods whose callers are scored, Go and TypeScript,
# default 500), CALLS_ONLY=1 (score the call edges alone: no language
# server, the reference results of the earlier run are kept, and the work
# copy and SCIP index of an earlier run are reused when both exist).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
out=$root/bench/out/precision
tools=$root/bench/out/tools
node=$tools/node
# Work copies live outside this repository: inside it, Cairn would take the
# repository's git top level for the corpus's root.
work=${CAIRN_PRECISION_WORK:-${XDG_CACHE_HOME:-$HOME/.cache}/cairn-precision}
mkdir -p "$out" "$tools" "$work"
N=${N:-200}
CALLS_N=${CALLS_N:-500}
calls_only=${CALLS_ONLY:-}

# reuse name: in calls-only mode, an earlier run's work copy and index stand.
reuse() { [ -n "$calls_only" ] && [ -d "$work/$1" ] && [ -s "$out/$1.scip" ]; }
# node_tools: the npm tools (the SCIP indexers for TypeScript and Python, and
# the language servers).
node_tools() {
  local b missing=
  for b in scip-typescript scip-python typescript-language-server pyright-langserver; do
    [ -x "$node/node_modules/.bin/$b" ] || missing=1
  done
  [ -z "$missing" ] && return
  mkdir -p "$node"
  npm i --prefix "$node" --no-audit --no-fund @sourcegraph/scip-typescript@0.4.0 @sourcegraph/scip-python@0.6.6 \
    typescript@5.9.3 typescript-language-server@5.3.0 pyright@1.1.414 >/dev/null
}
if [ -z "$calls_only" ]; then
  [ -x "$tools/gopls" ] || GOBIN=$tools go install golang.org/x/tools/gopls@v0.23.0
  node_tools
fi
export PATH=$tools:$root/bin/tools:$node/node_modules/.bin:$PATH
go build -o bin/precision ./bench/precision/cmd/precision

declare -A dir
while IFS='=' read -r name path; do dir[$name]=$path; done < <(bench/corpora.sh)
corpora=${CAIRN_CORPORA:-$HOME/.cache/cairn-corpora}

fresh() { # src dst: a writable copy (the corpora caches are read-only)
  rm -rf "$2"; mkdir -p "$2"; cp -r "$1/." "$2/"; chmod -R u+w "$2"
}

rm -rf "$out"/state-*   # a clean Cairn index per corpus
langs=("$@")
[ ${#langs[@]} -gt 0 ] || langs=(go ts py)
for l in "${langs[@]}"; do
  case $l in
  go)
    w=$work/go_med
    export GOMODCACHE=$corpora/gomod GOFLAGS=-mod=mod GOTOOLCHAIN=local
    if ! reuse go_med; then
      [ -x "$root/bin/tools/scip-go" ] || make tools
      fresh "${dir[go_med]}" "$w"
      echo "precision: scip-go on client-go" >&2
      (cd "$w" && scip-go index --quiet --output "$out/go_med.scip")
    fi
    if [ -n "$calls_only" ]; then
      bin/precision run -name go_med -lang go -repo "$w" -state "$out/state-go_med" -oracle "$out/go_med.scip" \
        -n "$N" -calls-n "$CALLS_N" -calls-only -out "$out/go_med.json"
    else
      bin/precision run -name go_med -lang go -repo "$w" -state "$out/state-go_med" -oracle "$out/go_med.scip" \
        -lsp "$tools/gopls serve" -lsp-n "${GO_LSP_N:-0}" -n "$N" -calls-n "$CALLS_N" -out "$out/go_med.json"
    fi
    unset GOMODCACHE GOFLAGS GOTOOLCHAIN
    ;;
  ts)
    w=$work/ts_small
    if ! reuse ts_small; then
      node_tools
      rm -rf "$w"; mkdir -p "$w"
      src=${dir[ts_small]}
      cp -r "$src/src" "$src/tsconfig.json" "$src/package.json" "$w/"   # the sources, not the built dist/
      chmod -R u+w "$w"
      echo "precision: scip-typescript on rxjs" >&2
      (cd "$w" && scip-typescript index --output "$out/ts_small.scip" >/dev/null)
    fi
    if [ -n "$calls_only" ]; then
      bin/precision run -name ts_small -lang ts -repo "$w" -state "$out/state-ts_small" -oracle "$out/ts_small.scip" \
        -n "$N" -calls-n "$CALLS_N" -calls-only -out "$out/ts_small.json"
    else
      bin/precision run -name ts_small -lang ts -repo "$w" -state "$out/state-ts_small" -oracle "$out/ts_small.scip" \
        -lsp "typescript-language-server --stdio" -lsp-lang typescript -lsp-open -lsp-wait progress -lsp-n "${TS_LSP_N:-60}" \
        -n "$N" -calls-n "$CALLS_N" -out "$out/ts_small.json"
    fi
    ;;
  py)
    [ -z "$calls_only" ] || continue   # call edges are scored on Go and TypeScript
    w=$work/py
    rm -rf "$w"; mkdir -p "$w"
    cp -r "${dir[py]}" "$w/django"   # the package inside a project root, so modules are django.*
    chmod -R u+w "$w"
    echo "precision: scip-python on Django" >&2
    (cd "$w" && scip-python index --quiet --project-name django --project-version 3.2 --output "$out/py.scip")
    bin/precision run -name py -lang py -repo "$w" -state "$out/state-py" -oracle "$out/py.scip" -primary lsp \
      -lsp "pyright-langserver --stdio" -lsp-lang python -lsp-open -lsp-wait "log:Found" -n "$N" -out "$out/py.json"
    ;;
  *) echo "unknown language $l (go, ts, py)" >&2; exit 2 ;;
  esac
done
bin/precision report -in "$out" -results bench/RESULTS.md
echo "precision: wrote bench/RESULTS.md" >&2
