#!/usr/bin/env bash
# Refactors on real code: Cairn's renames and moves applied to real corpora,
# compared with the language servers' renames and checked with the
# compilers; writes the "Refactors on real code" section of bench/RESULTS.md.
#   usage: bench/renamebench/run.sh [go gin|go client-go|ts|java|rust|move-go|move-ts|move-py|scale|report ...]
#          (default: all of them, then report; java: java.util, judged by javac;
#          rust: the regex-syntax crate of the lang_rust corpus, judged by cargo check)
# Env: N (Go symbols per stratum, default 8: 7 strata, so 56 per module),
#      TS_N (TypeScript symbols per stratum, default 4: 8 strata), JAVA_N (Java methods
#      per stratum, default 8: 3 strata), RUST_N (Rust symbols per stratum, default 8: 3 strata),
#      SEED (default 1),
#      MOVES (moves per language, default 10), RERUN=1 (Go: measure again only the symbols
#      whose applied rename broke the build or differed from gopls, in the existing JSON).
# Installs its pinned tools under bench/out/tools (gopls v0.23.0; with npm:
# typescript 5.9.3, typescript-language-server 5.3.0, scip-typescript 0.4.0
# and pyright 1.1.414;
# scip-go comes from
# make tools), fetches the corpora (bench/corpora.sh) and copies each into a
# git work copy outside this repository ($CAIRN_RENAMEBENCH_WORK, default
# ~/.cache/cairn-renamebench): every refactor is applied there and undone
# with git after it is measured.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
out=$root/bench/out/renamebench
tools=$root/bench/out/tools
node=$tools/node
work=${CAIRN_RENAMEBENCH_WORK:-${XDG_CACHE_HOME:-$HOME/.cache}/cairn-renamebench}
corpora=${CAIRN_CORPORA:-$HOME/.cache/cairn-corpora}
mkdir -p "$out" "$tools" "$work"
N=${N:-8}
TS_N=${TS_N:-4}
JAVA_N=${JAVA_N:-8}
RUST_N=${RUST_N:-8}
SEED=${SEED:-1}
MOVES=${MOVES:-10}

[ -x "$tools/gopls" ] || GOBIN=$tools go install golang.org/x/tools/gopls@v0.23.0
if [ ! -x "$node/node_modules/.bin/typescript-language-server" ] || [ ! -x "$node/node_modules/.bin/scip-typescript" ] ||
  [ ! -x "$node/node_modules/.bin/pyright" ]; then
  mkdir -p "$node"
  npm i --prefix "$node" --no-audit --no-fund typescript@5.9.3 typescript-language-server@5.3.0 @sourcegraph/scip-typescript@0.4.0 \
    pyright@1.1.414 >/dev/null
fi
[ -x "$root/bin/tools/scip-go" ] || make tools
make build >/dev/null
go build -o bin/renamebench ./bench/renamebench/cmd/renamebench
export PATH=$tools:$root/bin/tools:$node/node_modules/.bin:$PATH

declare -A dir
while IFS='=' read -r name path; do dir[$name]=$path; done < <(bench/corpora.sh "$corpora")
export GOMODCACHE=$corpora/gomod GOFLAGS=-mod=mod GOTOOLCHAIN=local GOWORK=off

# prepare NAME SRC: a git work copy of the corpus (once).
prepare() {
  local w=$work/$1
  [ -f "$work/.ready-$1" ] && return
  rm -rf "$w"; mkdir -p "$w"
  case $1 in
  rxjs)
    # rxjs's sources with its development dependencies, TypeScript pinned to 5.
    cp -r "$2/src" "$2/tsconfig.json" "$2/package.json" "$w/"
    chmod -R u+w "$w"
    (cd "$w" && node -e '
      const fs = require("fs"); const p = JSON.parse(fs.readFileSync("package.json"));
      p.devDependencies.typescript = "5.9.3"; fs.writeFileSync("package.json", JSON.stringify(p, null, 2));' &&
      npm install --ignore-scripts --no-audit --no-fund --legacy-peer-deps >/dev/null)
    printf 'node_modules/\n*.tsbuildinfo\n' > "$w/.gitignore"
    ;;
  django)
    # The package as its importers name it (django/...), so that pyright
    # resolves `import django.x` to the work copy.
    mkdir -p "$w/django" && cp -r "$2/." "$w/django/" && chmod -R u+w "$w"
    printf '{ "include": ["django"], "pythonVersion": "3.12" }\n' > "$w/pyrightconfig.json"
    printf '__pycache__/\n' > "$w/.gitignore"
    ;;
  regex-syntax)
    cp -r "$2/." "$w/"; chmod -R u+w "$w"
    printf 'target/\nCargo.lock\n' > "$w/.gitignore"
    ;;
  *) cp -r "$2/." "$w/"; chmod -R u+w "$w" ;;
  esac
  (cd "$w" && git init -q && git add -A && git -c user.name=bench -c user.email=bench@localhost commit -qm corpus)
  touch "$work/.ready-$1"
}

# copy_of NAME FROM: a second work copy of a prepared one, so that moves and
# the large rename can run beside the renames.
copy_of() {
  [ -f "$work/.ready-$1" ] && return
  rm -rf "${work:?}/$1"; cp -a "$work/$2" "$work/$1"
  touch "$work/.ready-$1"
}

run_go() { # corpus
  local src
  case $1 in gin) src=${dir[go_small]} ;; client-go) src=${dir[go_med]} ;; *) echo "unknown Go corpus $1" >&2; exit 2 ;; esac
  prepare "$1" "$src"
  bin/renamebench go -corpus "$1" -work "$work/$1" -state "$out/state" -n "$N" -seed "$SEED" \
    -scip "$out/$1.scip" -indexer "scip-go index --quiet --output $out/$1.scip" -lsp "gopls serve" -out "$out/go-$1.json" ${RERUN:+-rerun}
}

steps=("$@")
[ ${#steps[@]} -gt 0 ] || steps=("go gin" "go client-go" ts java rust move-go move-ts move-py scale report)
# step NAME: one step; a failing step is reported and the next ones run.
step() {
  local s=$1
  case $s in
  "go "*) run_go "${s#go }" ;;
  ts)
    prepare rxjs "${dir[ts_small]}"
    bin/renamebench ts -corpus rxjs -work "$work/rxjs" -state "$out/state" -n "$TS_N" -seed "$SEED" \
      -scip "$out/rxjs.scip" -indexer "$node/node_modules/.bin/scip-typescript index --output $out/rxjs.scip" \
      -lsp "typescript-language-server --stdio" -lsp-lang typescript -lsp-wait -out "$out/ts-rxjs.json"
    ;;
  java)
    # java.util of the OpenJDK 17 sources, compiled over the JDK's own
    # java.base (javac --patch-module): no Java indexer or language server
    # here, so the syntactic layer alone, judged by javac.
    prepare java.util "${dir[lang_java]}"
    bin/renamebench java -corpus java.util -work "$work/java.util" -state "$out/state" -n "$JAVA_N" -seed "$SEED" \
      -javac "--patch-module java.base=java.base" -out "$out/java-java.util.json"
    ;;
  rust)
    # A crate without dependencies from Debian's packages, checked offline;
    # no Rust indexer or language server here: cargo check judges.
    prepare regex-syntax "$(ls -d "${dir[lang_rust]}"/regex-syntax-* | head -1)"
    bin/renamebench rust -corpus regex-syntax -work "$work/regex-syntax" -state "$out/state" -n "$RUST_N" -seed "$SEED" \
      -out "$out/rust-regex-syntax.json"
    ;;
  move-go)
    prepare gin "${dir[go_small]}"; copy_of gin-move gin
    bin/renamebench move -lang go -corpus gin -work "$work/gin-move" -state "$out/state" -moves "$MOVES" -seed "$SEED" -out "$out/move-go.json"
    ;;
  move-py)
    prepare django "${dir[py]}"
    bin/renamebench move -lang py -corpus django -work "$work/django" -state "$out/state" -moves "$MOVES" -seed "$SEED" -out "$out/move-py.json"
    ;;
  move-ts)
    prepare rxjs "${dir[ts_small]}"; copy_of rxjs-move rxjs
    bin/renamebench move -lang ts -corpus rxjs -work "$work/rxjs-move" -state "$out/state" -moves "$MOVES" -seed "$SEED" -out "$out/move-ts.json"
    ;;
  scale)
    prepare client-go "${dir[go_med]}"; copy_of client-go-scale client-go
    bin/renamebench scale -corpus client-go-scale -work "$work/client-go-scale" -state "$out/state" -symbol rest.Config \
      -scip "$out/client-go.scip" -indexer "scip-go index --quiet --output $out/client-go.scip" -out "$out/scale.json"
    ;;
  report) bin/renamebench report -in "$out" -results bench/RESULTS.md -work "$work" ;;
  *) echo "unknown step $s" >&2; exit 2 ;;
  esac
}

failed=()
for s in "${steps[@]}"; do
  if ! (step "$s"); then
    echo "renamebench: step '$s' failed" >&2
    failed+=("$s")
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "renamebench: failed steps: ${failed[*]}" >&2
  exit 1
fi
