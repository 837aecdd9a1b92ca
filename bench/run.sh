#!/usr/bin/env bash
# Prints troupe's measured figures as a table. Timings are medians of repeated runs; nothing here
# is asserted (the machines are shared and noisy). Usage: bash bench/run.sh
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/troupe-bench-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$repo"

row() { printf '%-44s %s\n' "$1" "$2"; }
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
# rss PID: "VmRSS RssAnon" in MiB
rss() { awk '/^VmRSS:/{r=$2} /^RssAnon:/{a=$2} END {printf "%.1f MiB (RssAnon %.1f MiB)", r/1024, a/1024}' "/proc/$1/status"; }

go build -o "$work/troupe" ./cmd/troupe
go build -ldflags="-s -w" -o "$work/troupe-stripped" ./cmd/troupe
# Write the fresh binary back to disk now, as the kernel does within 30 s anyway: dirty
# page-cache pages cannot be reclaimed, so a just-linked binary would keep startup-only pages.
sync "$work/troupe"
echo "troupe benchmarks · $(go version | cut -d' ' -f3) · $(nproc) cores · $(date -u +%F)"
echo
row "stripped binary size" "$(du -m "$work/troupe-stripped" | cut -f1) MiB ($(stat -c %s "$work/troupe-stripped") bytes)"

for i in $(seq 1 21); do
  s=$(date +%s%N); "$work/troupe" version >/dev/null; e=$(date +%s%N); echo $(( (e - s) / 1000 ))
done | median | { read -r us; row "troupe version wall time (median of 21)" "$(awk -v u="$us" 'BEGIN{printf "%.1f ms", u/1000}')"; }

# Idle RSS of troupe chat after 3 s (its stdin held open, no input).
proj="$work/idle"; mkdir -p "$proj"; (cd "$proj" && git init -q)
printf '{"turns":[{"text":"hi"}]}' > "$work/idle.json"
mkfifo "$work/stdin"
(cd "$proj" && "$work/troupe" chat --model "scripted:$work/idle.json" <"$work/stdin" >/dev/null 2>&1) &
exec 7>"$work/stdin"
sleep 3
pid=$(pgrep -f "troupe chat --model scripted:$work/idle.json" | head -1)
row "idle RSS of troupe chat after 3 s" "$(rss "$pid")"
exec 7>&-
wait || true

# The offline demo: peak RSS of the troupe process itself (VmHWM, polled until it exits; the
# go test it runs is a separate process) and the wall time of the whole run. Run twice: the
# first run after a build maps the binary from the large page-cache folios the linker's writes
# left (higher RSS for the same pages touched); later runs see the file as it is normally read.
demo_run() {
  rm -rf "$work/demo"; cp -r examples/demo/project "$work/demo"
  (cd "$work/demo" && git init -q && git add -A && git -c user.email=b@b -c user.name=b commit -qm demo)
  local s e hwm=0 h demo
  s=$(date +%s%N)
  (cd "$work/demo" && exec "$work/troupe" run --mode yolo --model "scripted:$repo/examples/demo/script.json" 'fix the test' >/dev/null 2>&1) &
  demo=$!
  while kill -0 "$demo" 2>/dev/null; do
    h=$(awk '/^VmHWM:/{print $2}' "/proc/$demo/status" 2>/dev/null || true)
    [ -n "$h" ] && hwm=$h
    sleep 0.005
  done
  wait "$demo" || true
  e=$(date +%s%N)
  row "offline demo ($1): troupe peak RSS / wall" "$(awk -v k="$hwm" 'BEGIN{printf "%.1f MiB", k/1024}') / $(awk -v n=$((e - s)) 'BEGIN{printf "%.2f s", n/1e9}') (wall includes go test)"
}
demo_run "first run after build"
demo_run "second run"

# Go benchmarks: first request bytes, per-turn overhead, event throughput, store.
go test -run '^$' -bench 'BenchmarkFirstRequest|BenchmarkTurnOverhead|BenchmarkEventThroughput|BenchmarkPromptSavings|BenchmarkApprovalLatency' -benchtime 1x ./actors/ 2>/dev/null |
  awk '/^Benchmark/ { for (i = 3; i < NF; i += 2) printf "%-44s %s %s\n", $1 " " $(i+1), $i, "" }'
# Structure of actors/ (issue 12): lines per file, the session type's fields and methods, now and
# at 902d0b4 (the last commit before the issue's work on actors/); then the measures of issue 18
# (the session as a room), now and at 7279458, where that work began.
go run ./bench/archstats -before 902d0b4 -room-before 7279458 2>/dev/null || echo "archstats: failed (run go run ./bench/archstats to see why)"
# File truth: re-checking 100 tracked files before a model call (none changed), and the time
# added to a bash call by watching 1,000 tracked files for the command's own changes.
go test -run '^$' -bench 'BenchmarkRecheck100|BenchmarkOwnChangeWatch1000' -benchtime 200x ./tools/ 2>/dev/null |
  awk '/^Benchmark/ { for (i = 3; i < NF; i += 2) printf "%-44s %s %s\n", $1 " " $(i+1), $i, "" }'

# Permissions: deciding a bash call through the shell parser (tools/shellparse) for a typical
# command, a wrapped and nested one, a 1 MB one-liner and 1 MB of chained commands (medians
# of 5 runs; go test prints each run's time per decision).
go test -run '^$' -bench 'BenchmarkShellDecision' -benchtime 3x -count 5 ./tools/ 2>/dev/null |
  awk '/^Benchmark/ { print $1, $3 }' | sort -k1,1 -k2,2n |
  awk '{ a[$1] = a[$1] " " $2; n[$1]++ } END { for (k in a) { split(a[k], v, " "); printf "%-44s %s ns/decision (median of %d)\n", k, v[int((n[k]+1)/2)], n[k] } }'

# Subagents: spawn latency (from the spawn_agent call to the child's first model request; 200
# spawns, one per turn, then 200 in one turn) and 1,000 scripted subagents alive at once, each
# doing 3 tool turns (peak RSS is the go test process's: Node, bus, store and a TCP watcher).
# Each benchmark runs in a process of its own.
go test -run '^$' -bench 'BenchmarkSpawnLatency' -benchtime 1x ./actors/ >"$work/spawn.txt" 2>/dev/null || true
go test -run '^$' -bench 'BenchmarkThousandAgents' -benchtime 1x ./actors/ >"$work/agents.txt" 2>/dev/null || true
# metric FILE BENCH UNIT: the value a benchmark reported in UNIT ("?" if it did not run).
metric() { awk -v b="$2" -v u="$3" '$1 ~ "^" b "(-[0-9]+)?$" { for (i = 3; i < NF; i += 2) if ($(i+1) == u) { print $i; f = 1; exit } } END { if (!f) print "?" }' "$1"; }
s1="BenchmarkSpawnLatency/one-per-turn" s2="BenchmarkSpawnLatency/burst" k="BenchmarkThousandAgents"
row "subagent spawn to first request p50 / p99" "$(metric "$work/spawn.txt" "$s1" ms-p50) / $(metric "$work/spawn.txt" "$s1" ms-p99) ms (one spawn per turn)"
row "  200 spawns in one turn: p50 / p99" "$(metric "$work/spawn.txt" "$s2" ms-p50) / $(metric "$work/spawn.txt" "$s2" ms-p99) ms"
row "1,000 subagents x 3 tool turns: wall" "$(metric "$work/agents.txt" "$k" s-wall) s ($(metric "$work/agents.txt" "$k" s-until-all-alive) s until all alive)"
row "1,000 subagents: peak RSS (growth)" "$(metric "$work/agents.txt" "$k" MiB-peak-RSS) MiB ($(metric "$work/agents.txt" "$k" MiB-peak-RSS-growth) MiB, $(metric "$work/agents.txt" "$k" KiB-RSS/agent) KiB per agent)"
row "1,000 subagents: events/s to a TCP watcher" "$(metric "$work/agents.txt" "$k" events/s) (seq gaps: $(metric "$work/agents.txt" "$k" seq-gaps))"

# Long session (issue 5): 500 scripted turns, each a 14–16 KB tool output (bash seq, read_file,
# grep), in a 32k window; the compactor answers with a summary, or is absent (every compaction
# then falls back to a mechanical summary). Request bytes should stay flat over the turns.
go test -run '^$' -bench 'BenchmarkLongSession500Turns' -benchtime 1x ./actors/ >"$work/long.txt" 2>/dev/null || true
# series FILE BENCH KEY: the values of the benchmark's log line that contains KEY.
series() { awk -v b="--- BENCH: $2" -v k="$3" 'index($0, b) == 1 { on = 1; next } /^(---|Benchmark)/ { on = 0 } on && index($0, k) { sub(/.*: /, ""); print; f = 1; exit } END { if (!f) print "?" }' "$1"; }
for v in model-summary mechanical; do
  l="BenchmarkLongSession500Turns/$v"
  row "500-turn session, 32k window ($v)" "largest request $(metric "$work/long.txt" "$l" tokens/max-request) of $(metric "$work/long.txt" "$l" tokens/window) tokens; $(metric "$work/long.txt" "$l" requests-over-window) over the window"
  row "  compactions (mechanical) / violations" "$(metric "$work/long.txt" "$l" compactions) ($(metric "$work/long.txt" "$l" mechanical-compactions)) / $(metric "$work/long.txt" "$l" pairing-violations)"
  row "  request bytes, first / last 100 turns" "$(metric "$work/long.txt" "$l" bytes/req-first100) / $(metric "$work/long.txt" "$l" bytes/req-last100) (ratio $(metric "$work/long.txt" "$l" last100/first100))"
  row "  request bytes per turn (mean of 50)" "$(series "$work/long.txt" "$l" "request bytes, mean of the 50")"
  row "  projection.Project per turn: median / p99" "$(metric "$work/long.txt" "$l" µs/project-median) / $(metric "$work/long.txt" "$l" µs/project-p99) µs (session wall $(metric "$work/long.txt" "$l" s/session) s)"
done

# Repair (issue 9): a scripted noisy model works through the 22 tasks of examples/repair with
# turn repair on and off (fixed seed): first i.i.d. noise, then consistent personas at several
# mistake rates and stickiness; tasks finished, turns, mistakes recovered by family, and the
# text-call parser's throughput on a 1 MB reply. Then the replay of real malformed calls.
echo
go run ./bench/repair 2>/dev/null || echo "repair bench: failed (run go run ./bench/repair to see why)"
echo
go run ./bench/repair -replay 2>/dev/null | sed -n '1,/^excluded/p' || echo "repair replay: failed (run go run ./bench/repair -replay to see why)"

# Hooks (issue 23): per tool call, no hook against one trivial matching PreToolUse hook and one
# that does not match, through the binary and the scripted provider.
echo
go run ./bench/hooks 2>/dev/null || echo "hooks bench: failed (run go run ./bench/hooks to see why)"

# The store after many one-shot runs: open time, table count and size after N processes that
# each open, write a short session and exit (go run ./bench/storecycles -h for larger runs).
echo
go run ./bench/storecycles -cycles 10,100 2>/dev/null || echo "storecycles: failed (run go run ./bench/storecycles to see why)"

# Start-up phases, private memory, attach and binary composition (issue 13): bash bench/startup.sh

# Cross-session memory (issue 23): bytes it adds to the stable prefix at the caps, the memory
# tool's schema, and the cost of reading it at a session start and of a locked write.
echo
go run ./bench/memoryprefix 2>/dev/null || echo "memoryprefix: failed (run go run ./bench/memoryprefix to see why)"
