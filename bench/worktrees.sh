#!/usr/bin/env bash
# Worktrees and baseline artifacts on the kubernetes corpus (go_large): the
# corpus becomes a git repository with a generated history of ten commits
# (each touches a few Go files); ten worktrees, each on a different commit,
# are indexed one after the other from nothing, against one worktree alone
# (wall time and disk of the index state: the shared blob store plus every
# worktree's own index). Then the import path: export the index of HEAD,
# clone, import, time the first query of the clone. Writes the worktrees
# section of bench/RESULTS.md.
#   usage: nice -n 10 bench/worktrees.sh [RESULTS.md]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
results=${1:-$root/bench/RESULTS.md}
go build -o bin/cairn ./cmd/cairn
go build -o bin/wtquery ./bench/cmd/wtquery
cairn=$root/bin/cairn
corpus=${CORPUS:-go_large} # another Go corpus of bench/corpora.sh for a quick try
src=$(bench/corpora.sh | sed -n "s/^$corpus=//p")
work=$(mktemp -d)
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com
export GIT_AUTHOR_DATE=2024-01-01T00:00:00Z GIT_COMMITTER_DATE=2024-01-01T00:00:00Z GIT_CONFIG_NOSYSTEM=1
export XDG_CACHE_HOME=$work/cache HOME=$work/home
mkdir -p "$HOME"
unset CAIRN__STATE_DIR

now() { date +%s%N; }
ms() { echo $(( ($2 - $1) / 1000000 )); }
bytes() { { du -sb "$@" 2>/dev/null || true; } | awk '{s += $1} END {print s + 0}'; }
state() { # the index state of the repository: shared blob store + every worktree's own
  bytes "$repo/.git/cairn" "$XDG_CACHE_HOME/cairn"
}
reset() { rm -rf "$repo/.git/cairn" "$XDG_CACHE_HOME/cairn"; }

# The repository and its history: commit 0 is the corpus, commits 1..9
# change three Go files each (a new function, an edited comment).
repo=$work/repo
cp -r "$src" "$repo"
chmod -R u+w "$repo"
cd "$repo"
git init -q -b main
git add -A
git commit -qm "kubernetes v1.31.0"
mapfile -t allgo < <(git ls-files '*.go' | grep -v -e _test.go -e /testdata/)
step=$(( ${#allgo[@]} / 28 ))
gofiles=()
for j in $(seq 1 27); do gofiles+=("${allgo[$(( j * step ))]}"); done
for i in $(seq 1 9); do
  for k in 0 1 2; do
    f=${gofiles[$(( (i - 1) * 3 + k ))]}
    printf '\n// benchGenerated%d is added by commit %d of the generated history.\nfunc benchGenerated%d_%d() int { return %d }\n' "$i" "$i" "$i" "$k" "$i" >> "$f"
  done
  git commit -qam "generated change $i"
done
mapfile -t commits < <(git rev-list --reverse HEAD)
files=$(git ls-files | wc -l)

# One worktree: the main checkout at the newest commit.
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
reset
t0=$(now); "$cairn" --timeout 3600000 --repo "$repo" index >/dev/null 2>&1; t1=$(now)
one_ms=$(ms "$t0" "$t1")
one_bytes=$(state)
one_blobs=$(bytes "$repo/.git/cairn")

# Ten worktrees, each on its own commit, indexed from nothing one after the other.
for i in $(seq 0 8); do
  git worktree add -q --detach "$work/wt$i" "${commits[$i]}"
done
reset
declare -a each
t0=$(now)
for d in "$repo" $(for i in $(seq 0 8); do echo "$work/wt$i"; done); do
  s=$(now); "$cairn" --timeout 3600000 --repo "$d" index >/dev/null 2>&1; e=$(now)
  each+=("$(ms "$s" "$e")")
done
t1=$(now)
ten_ms=$(ms "$t0" "$t1")
ten_bytes=$(state)
load_ten=$(cut -d' ' -f1-3 /proc/loadavg)
ten_blobs=$(bytes "$repo/.git/cairn/blobs.db" "$repo/.git/cairn/blobs.db-wal")
ten_base=$(bytes "$repo/.git/cairn/baselines")
ten_own=$(bytes "$XDG_CACHE_HOME/cairn")
mapfile -t owns < <(for d in "$repo" $(for i in $(seq 0 8); do echo "$work/wt$i"; done); do
  "$cairn" --repo "$d" status --json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["storage"]["own_bytes"])'
done)

# Reads on an overlay worktree against a standalone index of the same tree
# (its export imported into a state directory of its own), in one process.
t0=$(now); "$cairn" --repo "$work/wt8" index export --out "$work/art/wt8.cairn-index" >/dev/null 2>&1; t1=$(now)
export8_ms=$(ms "$t0" "$t1")
"$cairn" --repo "$work/wt8" --state-dir "$work/alone8" index import "$work/art/wt8.cairn-index" >/dev/null 2>&1
queries=$("$root/bin/wtquery" -repo "$work/wt8" -alone "$work/alone8")
load="load average $(cut -d' ' -f1-3 /proc/loadavg) when the reads ended"

# The import path: export HEAD's index, clone, import, first query.
art=$work/art/head.cairn-index
t0=$(now); "$cairn" --repo "$repo" index export --out "$art" >/dev/null 2>&1; t1=$(now)
export_ms=$(ms "$t0" "$t1")
art_bytes=$(bytes "$art")
git clone -q "$repo" "$work/clone"
t0=$(now); "$cairn" --repo "$work/clone" index import "$art" >/dev/null 2>&1; t1=$(now)
import_ms=$(ms "$t0" "$t1")
t0=$(now); "$cairn" --repo "$work/clone" symbol --json NewSharedInformerFactory >/dev/null 2>&1 || true; t1=$(now)
first_ms=$(ms "$t0" "$t1")
t0=$(now); "$cairn" --repo "$work/clone" refs --json k8s.io/kubernetes/pkg/apis/core.Pod >/dev/null 2>&1 || true; t1=$(now)
refs_ms=$(ms "$t0" "$t1")
# The same clone indexed from nothing, for the comparison.
rm -rf "$work/clone2"; git clone -q "$repo" "$work/clone2"
t0=$(now); "$cairn" --timeout 3600000 --repo "$work/clone2" symbol --json NewSharedInformerFactory >/dev/null 2>&1 || true; t1=$(now)
cold_ms=$(ms "$t0" "$t1")

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
mb() { awk -v a="$1" 'BEGIN { printf "%.1f MB", a / 1e6 }'; }
sec() { awk -v a="$1" 'BEGIN { printf "%.2f s", a / 1000 }'; }
section=$(cat <<MD
<!-- worktrees:begin -->
## Worktrees and baseline artifacts

\`bench/worktrees.sh\` ($(date -u +%Y-%m-%d), under \`nice -n 10\` on the shared 2-core machine): the kubernetes corpus ($corpus, $files files) as a git repository with a generated history of ten commits (each of the last nine adds a function to three Go files). Ten worktrees, each on a different commit, are indexed one after the other from nothing (\`cairn index\`, whole process, wall clock), against the main checkout alone (load average $load_start before the one worktree, $load_ten after the ten). Disk is the whole index state: the blob store shared beside the git common dir plus every worktree's own index.

| | wall time | disk | of which the shared blob store |
|---|---:|---:|---:|
| one worktree | $(sec "$one_ms") | $(mb "$one_bytes") | $(mb "$one_blobs") |
| ten worktrees | $(sec "$ten_ms") | $(mb "$ten_bytes") | $(mb "$ten_blobs") |
| ratio (target ≤ 1.5 time, ≤ 1.3 disk) | **$(ratio "$ten_ms" "$one_ms")x** | **$(ratio "$ten_bytes" "$one_bytes")x** | |

Per worktree in order (ms): ${each[*]}. The first builds everything; when the second is indexed, the first one's index (no process owns it) moves into \`.git/cairn/baselines/\` and becomes the baseline both are overlays over; every later worktree copies an overlay over the same baseline (\`seeded_from\`), rehashes every file and parses and links again only what differs. Of the ten worktrees' $(mb "$ten_bytes"): blob store $(mb "$ten_blobs"), one baseline $(mb "$ten_base"), the ten worktrees' own state $(mb "$ten_own") (own index per worktree, bytes: ${owns[*]}).

Reads in one process on worktree 9 (an overlay over the baseline, three files differing from it) against a standalone index of the same tree (its \`cairn index export\`, $(sec "$export8_ms"), imported into a state directory of its own); $load; 11 interleaved rounds:

$queries

Import path: \`cairn index export\` of HEAD took $(sec "$export_ms") and wrote $(mb "$art_bytes"); in a fresh \`git clone\`, \`cairn index import\` (verify the checksum, unpack, install, rehash every file) took $(sec "$import_ms"); the clone's first query afterwards (\`symbol NewSharedInformerFactory\`, whole process) answered in $(sec "$first_ms"), \`refs core.Pod\` in $(sec "$refs_ms"). The same first query in a clone without an artifact (it builds the index first): $(sec "$cold_ms").
<!-- worktrees:end -->
MD
)
cd "$root"
if grep -q '<!-- worktrees:begin -->' "$results"; then
  python3 - "$results" "$section" <<'PY'
import re, sys
path, section = sys.argv[1], sys.argv[2]
s = open(path).read()
s = re.sub(r'<!-- worktrees:begin -->.*?<!-- worktrees:end -->', lambda m: section, s, flags=re.S)
open(path, 'w').write(s)
PY
else
  printf '\n%s\n' "$section" >> "$results"
fi
echo "$section"
