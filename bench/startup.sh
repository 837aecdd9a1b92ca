#!/usr/bin/env bash
# Prints how troupe starts and what it holds (issue 13): a one-shot `troupe run` against the
# scripted model, exec → exit and exec → first event, each start-up phase (TROUPE_TRACE_START=1),
# peak RSS and private memory, `troupe version`, an idle `troupe chat`, a run attaching to
# `troupe serve`, the binary's size and what each module adds to it, and the harness overhead
# per turn. Medians over RUNS runs (default 11) in one invocation; nothing is asserted.
#
# Usage: bash bench/startup.sh            measure this checkout
#        TROUPE_BIN=/path/troupe bash bench/startup.sh   measure a given binary (e.g. main's)
#        PEER='crush run "hi"' bash bench/startup.sh      also time a peer's one-shot, as a ratio
#        COLD_BUILD=1 bash bench/startup.sh              also one cold `go build -a` (minutes of CPU)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/troupe-startup-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$repo"
row() { printf '%-44s %s\n' "$1" "$2"; }

bin=${TROUPE_BIN:-}
if [ -z "$bin" ]; then
  bin="$work/troupe"
  go build -o "$bin" ./cmd/troupe
fi
go build -trimpath -ldflags="-s -w" -o "$work/troupe-stripped" ./cmd/troupe
go build -o "$work/startbench" ./bench/startbench
# Write the binary out and drop it from the page cache, so it is mapped as an installed binary
# is (read back by readahead), not from the folios the linker's writes left behind.
sync "$bin"
dd if="$bin" iflag=nocache count=0 status=none 2>/dev/null || true

echo "troupe start-up · $(go version | cut -d' ' -f3) · $(nproc) cores · load $(cut -d' ' -f1-3 /proc/loadavg) · $(date -u +%FT%TZ)"
row "binary (unstripped / stripped -s -w -trimpath)" "$(awk -v b="$(stat -c %s "$bin")" 'BEGIN{printf "%.1f MiB", b/1048576}') / $(awk -v b="$(stat -c %s "$work/troupe-stripped")" 'BEGIN{printf "%.1f MiB", b/1048576}')"
"$work/startbench" -sizes "$work/troupe-stripped" 2>/dev/null || "$work/startbench" -sizes "$bin"

peer=${PEER:-}
if [ -z "$peer" ] && command -v crush >/dev/null; then
  peer='crush run "say hi"'
fi
"$work/startbench" -bin "$bin" -runs "${RUNS:-11}" ${peer:+-peer "$peer"}
[ -z "$peer" ] && row "peer one-shot (crush)" "not installed here: no ratio"

# Package initialisation: the sum of GODEBUG=inittrace's clock times, and the three largest.
GODEBUG=inittrace=1 "$bin" version 2>&1 >/dev/null | awk '/^init /{t+=$5; print $5, $2} END{printf "%s total\n", t}' | sort -rn >"$work/init.txt"
row "package init (inittrace, sum of clock)" "$(awk '/total/{printf "%.1f ms", $1}' "$work/init.txt")"
grep -v total "$work/init.txt" | head -3 | while read -r ms pkg; do row "  init $pkg" "$ms ms"; done

# Harness overhead per turn (actors benchmark, scripted provider).
go test -run '^$' -bench 'BenchmarkTurnOverhead' -benchtime 1x ./actors/ 2>/dev/null |
  awk '/^Benchmark/ { for (i = 3; i < NF; i += 2) printf "%-44s %s %s\n", $1 " " $(i+1), $i, "" }'

if [ "${COLD_BUILD:-}" = 1 ]; then
  # One cold build of cmd/troupe: CPU seconds and the largest process's peak RSS (the compiler
  # or the linker). Costs minutes of CPU: only on request.
  GOCACHE="$work/gocache" /usr/bin/time -f '%U %S %M' -o "$work/cold.txt" go build -a -o "$work/cold" ./cmd/troupe
  row "cold go build -a: CPU / peak RSS" "$(awk '{printf "%.0f CPU-s (%.1f CPU-min) / %.0f MiB", $1+$2, ($1+$2)/60, $3/1024}' "$work/cold.txt")"
fi
