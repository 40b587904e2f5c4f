#!/usr/bin/env bash
# Reliability campaigns, long by design (not part of `make test`): fuzzing
# of every fuzz target (in the background, beside the rest), SIGKILL at
# random points of multi-file writes and of every indexing and writing
# operation, the path battery, load on the kubernetes corpus and the memory
# budget on five kubernetes releases side by side. Writes the "Reliability"
# section of bench/RESULTS.md from this one run, followed by the hand-written
# bench/harden-notes.md (what earlier campaigns found and how it was fixed).
#   usage: bench/harden.sh
# Env: FUZZTIME (per target, default 8m: over an hour in all), FUZZPAR
# (fuzz workers per target, default 1), FUZZLANES (targets fuzzed at once,
# default 2), KILLS (SIGKILLs of writers, default 1000),
# OPS_KILLS (SIGKILLs per operation of the operations campaign: full index,
# incremental reindex, SCIP import, rename, workspace apply; default 200),
# LOAD_CLIENTS / LOAD_CALLS / LOAD_ROUNDS (the load run on the kubernetes
# corpus: default 50 clients, 2000 calls per round, 5 rounds: 10,000 calls;
# LOAD_CALLS=0 leaves it out), MEM_BUDGETS (index.memory_mb values for the
# full index of five kubernetes releases, default 256; "none" leaves it out).
# A crash a fuzz target finds is left in <package>/testdata/fuzz/<target>/
# (go test writes it there) and fails the run; turn it into a fix.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
export PATH=$root/bin/tools:$PATH
FUZZTIME=${FUZZTIME:-8m}
FUZZPAR=${FUZZPAR:-1}
FUZZLANES=${FUZZLANES:-2}
KILLS=${KILLS:-1000}
OPS_KILLS=${OPS_KILLS:-200}
out=bench/out/harden
mkdir -p "$out"
gocache=$(go env GOCACHE)
module=$(go list -m)
targets=(
  "internal/lang FuzzDecode"
  "internal/lang/all FuzzExtract"
  "internal/manifest FuzzParse"
  "internal/config FuzzLoad"
  "internal/scan FuzzResolve"
  "internal/tools FuzzToolArguments"
  "internal/tools FuzzCursor"
  "internal/semantic FuzzImport"
)
make -s build || exit 1
failed=0
started=$(date -u +%H:%M)
load_start=$(cut -d' ' -f1-3 /proc/loadavg)

# fuzz runs in FUZZLANES background lanes beside the campaigns below, each
# lane one target at a time (targets dealt round-robin); each target writes
# its table row, its seconds and whether it failed to files of its own.
fuzz_one() {
  local pkg=$1 name=$2
  log=$out/$name.log
  echo "harden: fuzzing $name ($pkg) for $FUZZTIME" >&2
  start=$(date +%s)
  go test -run '^$' -fuzz "^$name\$" -fuzztime "$FUZZTIME" -parallel "$FUZZPAR" "./$pkg" >"$log" 2>&1
  rc=$?
  secs=$(( $(date +%s) - start ))
  execs=$(grep -o 'execs: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  corpus=$(ls "$gocache/fuzz/$module/$pkg/$name" 2>/dev/null | wc -l)
  crashes=0
  if [ $rc -ne 0 ]; then crashes=1; echo "harden: $name FAILED, see $log" >&2; fi
  # keep a sample of the generated corpus with the package's seeds, up
  # to 40 inputs a target (make test runs each one), so that runs after
  # the first add only what a crash leaves
  kept=$pkg/testdata/fuzz/$name
  mkdir -p "$kept"
  room=$(( 40 - $(ls "$kept" | wc -l) ))
  if [ "$room" -gt 0 ]; then
    ls "$gocache/fuzz/$module/$pkg/$name" 2>/dev/null | sort | while read -r f; do
      [ -e "$kept/$f" ] || echo "$f"
    done | head -"$room" | while read -r f; do cp "$gocache/fuzz/$module/$pkg/$name/$f" "$kept/"; done
  fi
  mins=$(awk -v s="$secs" 'BEGIN { printf "%.1f", s / 60 }')
  echo "| \`$name\` | $pkg | $mins min | ${execs:-0} | $corpus | $crashes |" >"$out/fuzz.$name.row"
  echo "$secs $crashes" >"$out/fuzz.$name.sum"
}
fuzz_lane() {
  local lane=$1 i=0
  for t in "${targets[@]}"; do
    if [ $(( i % FUZZLANES )) -eq "$lane" ]; then
      read -r pkg name <<<"$t"
      fuzz_one "$pkg" "$name"
    fi
    i=$(( i + 1 ))
  done
}
rm -f "$out"/fuzz.*.row "$out"/fuzz.*.sum
fuzz_pids=()
for (( lane = 0; lane < FUZZLANES; lane++ )); do
  fuzz_lane "$lane" &
  fuzz_pids+=($!)
done

echo "harden: $KILLS SIGKILLs of multi-file writers" >&2
CAIRN_CRASH_KILLS=$KILLS go test -count=1 -timeout 120m -run '^TestCrashAtRandomPoints$' -v ./internal/service/ >"$out/crash.log" 2>&1 || failed=1
crash_line=$(grep -o 'seed [0-9]*, [^:]*: map\[[^]]*\]' "$out/crash.log" | tail -1)
crash_ok=$(grep -q -- '--- PASS: TestCrashAtRandomPoints' "$out/crash.log" && echo passed || echo FAILED)

echo "harden: $OPS_KILLS SIGKILLs per operation (index, reindex, SCIP import, rename, workspace apply)" >&2
CAIRN_CRASH_OPS_KILLS=$OPS_KILLS go test -count=1 -timeout 180m -run '^TestCrashDuringOperations$' -v ./internal/service/ >"$out/crash-ops.log" 2>&1 || failed=1
ops_lines=$(grep -o '[a-z_]*: map\[[^]]*\] (median finished run [^)]*)' "$out/crash-ops.log" | paste -sd ';' -)
ops_ok=$(grep -q -- '--- PASS: TestCrashDuringOperations' "$out/crash-ops.log" && echo passed || echo FAILED)
echo "harden: the path battery" >&2
go test -count=1 -run '^TestPathBattery$' -v ./internal/httpapi/ >"$out/battery.log" 2>&1 || failed=1
battery_line=$(grep -o 'path battery: [0-9]* attempts on [0-9]* tools' "$out/battery.log" | tail -1 | sed 's/^path battery: //')
battery_ok=$(grep -q -- '--- PASS: TestPathBattery' "$out/battery.log" && echo "0 escapes" || echo "ESCAPES (see $out/battery.log)")

LOAD_CLIENTS=${LOAD_CLIENTS:-50}
LOAD_CALLS=${LOAD_CALLS:-2000}
LOAD_ROUNDS=${LOAD_ROUNDS:-5}
load_md="Load: not run (LOAD_CALLS=0)."
if [ "$LOAD_CALLS" != 0 ]; then
  echo "harden: load, $LOAD_CLIENTS MCP clients x $LOAD_CALLS calls x $LOAD_ROUNDS rounds on kubernetes" >&2
  k8s=$(bash bench/corpora.sh | sed -n 's/^go_large=//p')
  go build -o bin/loadbench ./bench/cmd/loadbench && make -s build &&
    nice -n 10 bin/loadbench -bin bin/cairn -repo "$k8s" -clients "$LOAD_CLIENTS" -calls "$LOAD_CALLS" -rounds "$LOAD_ROUNDS" \
      -md "$out/load.md" -json "$out/load.json" >"$out/load.log" 2>&1 || failed=1
  load_md=$(cat "$out/load.md" 2>/dev/null || echo "Load: FAILED before a round finished, see $out/load.log.")
fi

MEM_BUDGETS=${MEM_BUDGETS:-256}
mem_md="Memory budget: not run (MEM_BUDGETS=none)."
if [ "$MEM_BUDGETS" != none ]; then
  echo "harden: memory budget on five kubernetes releases at memory_mb $MEM_BUDGETS" >&2
  # shellcheck disable=SC2086
  CAIRN=$root/bin/cairn nice -n 10 bash bench/memory.sh $MEM_BUDGETS >"$out/memory.log" 2>&1 || failed=1
  mem_rows=$(grep '^memory_mb=' "$out/memory.log" | while read -r line; do
    eval "$line"
    budget=$memory_mb; [ "$budget" = default ] && budget=1024
    bound=$((budget + baseline_mb))
    holds=no; [ "$peak_rss_mb" -le "$bound" ] && holds="yes, $((bound - peak_rss_mb)) MB to spare"
    echo "| $memory_mb | $peak_rss_mb MB | $baseline_mb MB | $bound MB | $holds | $wall | $files | $symbols | $load_before → $load_after |"
  done)
  corpus_line=$(grep '^corpus=' "$out/memory.log" | head -1)
  mem_md="Memory budget (\`bench/memory.sh\`): \`cairn index --full\` from nothing of five kubernetes releases side by side (${corpus_line#corpus=}); peak RSS is VmHWM, baseline the same binary with its store open before indexing; the budget holds when peak ≤ budget + baseline.

| \`memory_mb\` | peak RSS | baseline | budget + baseline | holds | wall | files | symbols written | load average before → after |
|---:|---:|---:|---:|---|---:|---:|---:|---|
${mem_rows:-| $MEM_BUDGETS | FAILED, see $out/memory.log | | | | | | | |}"
fi

echo "harden: waiting for the fuzzing to end" >&2
wait "${fuzz_pids[@]}"
total_s=0
fuzz_rows=""
for t in "${targets[@]}"; do
  read -r pkg name <<<"$t"
  if read -r secs crashes <"$out/fuzz.$name.sum"; then
    total_s=$(( total_s + secs ))
    [ "$crashes" = 0 ] || failed=1
    fuzz_rows+=$(cat "$out/fuzz.$name.row")$'\n'
  else
    failed=1
    fuzz_rows+="| \`$name\` | $pkg | did not run | | | |"$'\n'
  fi
done
ended=$(date -u +%H:%M)

ops_rows=$(grep -o '[a-z_]*: map\[[^]]*\] (median finished run [^)]*)' "$out/crash-ops.log" |
  sed 's/^\([a-z_]*\): map\[\([^]]*\)\] (median finished run \([^)]*\))$/| \1 | \2 | \3 |/')
notes=""
[ -f bench/harden-notes.md ] && notes=$(cat bench/harden-notes.md)

section=$(cat <<MD
<!-- reliability:begin -->
## Reliability (\`make harden\`)

Generated by \`make harden\` (bench/harden.sh) in one run on $(date -u +%Y-%m-%d), $started–$ended UTC, $(nproc) cores, load average $load_start at the start and $(cut -d' ' -f1-3 /proc/loadavg) at the end (the machine is shared: latencies measure the queue on it, not one call). Every figure in this section comes from that run; what earlier campaigns found and fixed follows it.

**Fuzzing**: \`go test -fuzz\` per target for $FUZZTIME with $FUZZPAR worker(s), $FUZZLANES targets at a time beside the campaigns below, $(awk -v s="$total_s" 'BEGIN { printf "%.0f", s / 60 }') minutes in all; a crash fails the run and stays in the package's testdata/fuzz.

| fuzz target | package | time | executions | corpus | crashes |
|---|---|---:|---:|---:|---:|
${fuzz_rows}

**Kills**: multi-file \`write_source\` batches SIGKILLed at random points ($KILLS kills), each checked all-old or all-new after the next open: $crash_ok, ${crash_line:-no summary}. Every indexing and writing operation SIGKILLed $OPS_KILLS times (\`TestCrashDuringOperations\`: a kill at a moment drawn below the median finished run; after it every write is all old or all new and nine answers equal a clean index's byte for byte): $ops_ok.

| operation | outcomes | median finished run |
|---|---|---:|
${ops_rows:-| FAILED | see $out/crash-ops.log | |}

**Path battery**: every path and symbol argument of every tool (found in the registry) against 25 escapes, over REST: ${battery_line:-no summary}: $battery_ok.

$load_md

$mem_md

$notes
<!-- reliability:end -->
MD
)
results=bench/RESULTS.md
if grep -q '<!-- reliability:begin -->' "$results"; then
  SECTION="$section" perl -0pi -e 's/<!-- reliability:begin -->.*?<!-- reliability:end -->/$ENV{SECTION}/s' "$results"
else
  printf '\n%s\n' "$section" >>"$results"
fi
echo "harden: wrote the Reliability section of $results" >&2
exit $failed
