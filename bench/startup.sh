#!/usr/bin/env bash
# Prints how troupe starts and what it holds (issue 13): a one-shot `troupe run` against the
# scripted model, exec → exit and exec → first event, each start-up phase (TROUPE_TRACE_START=1;
# "node …" rows are the background node's own, from its serve.log), the CPU time of the client
# and of the node it started (what a loaded machine does not inflate), peak RSS, RssFile,
# private memory and PSS, `troupe version`, an idle `troupe chat` (client and node), a run
# attaching to `troupe serve`, the binary's size and what each module adds to it (bench/SIZES.md
# explains the big ones), and the harness overhead per turn. Medians over RUNS runs (default 11)
# in one invocation; nothing is asserted.
#
# Usage: bash bench/startup.sh            measure this checkout
#        BEFORE=main bash bench/startup.sh   also measure that revision (built from a temporary
#                                            worktree), its rows first: before and after in one run
#        TROUPE_BIN=/path/troupe bash bench/startup.sh   measure a given binary (e.g. main's)
#        PEER='crush run "hi"' bash bench/startup.sh      also time a peer's one-shot, as a ratio
#        COLD_BUILD=1 bash bench/startup.sh              also one cold `go build -a` (minutes of CPU)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/troupe-startup-XXXXXX")
cleanup() {
  [ -d "$work/before-src" ] && git -C "$repo" worktree remove --force "$work/before-src" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
cd "$repo"
row() { printf '%-44s %s\n' "$1" "$2"; }
mib() { awk -v b="$(stat -c %s "$1")" 'BEGIN{printf "%.1f MiB", b/1048576}'; }

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
row "binary (unstripped / stripped -s -w -trimpath)" "$(mib "$bin") / $(mib "$work/troupe-stripped")"
"$work/startbench" -sizes "$work/troupe-stripped" 2>/dev/null || "$work/startbench" -sizes "$bin"

# measure BIN SRC: the run-time rows for the binary BIN built from the checkout SRC.
measure() {
  peer=${PEER:-}
  if [ -z "$peer" ] && command -v crush >/dev/null; then
    peer='crush run "say hi"'
  fi
  "$work/startbench" -bin "$1" -runs "${RUNS:-11}" ${peer:+-peer "$peer"}
  [ -z "$peer" ] && row "peer one-shot (crush)" "not installed here: no ratio"

  # Package initialisation: the sum of GODEBUG=inittrace's clock times, and the three largest.
  GODEBUG=inittrace=1 "$1" version 2>&1 >/dev/null | awk '/^init /{t+=$5; print $5, $2} END{printf "%s total\n", t}' | sort -rn >"$work/init.txt"
  row "package init (inittrace, sum of clock)" "$(awk '/total/{printf "%.1f ms", $1}' "$work/init.txt")"
  awk '!/total/ && n++ < 3' "$work/init.txt" | while read -r ms pkg; do row "  init $pkg" "$ms ms"; done

  # Harness overhead per turn (actors benchmark, scripted provider, 200 turns a run): the median
  # and mean gap between turns of the last of TURN_RUNS runs (default 3), and the rate at which
  # one watcher over TCP receives 200k text deltas.
  if (cd "$2" && go test -run '^$' -bench 'BenchmarkTurnOverhead|BenchmarkEventThroughput' -benchtime "${TURN_RUNS:-3}x" ./actors/) >"$work/turn.txt" 2>&1; then
    awk '/^BenchmarkTurnOverhead/ { for (i = 5; i < NF; i += 2) printf "%-44s %s\n", "turn overhead: " substr($(i+1), index($(i+1), "/") + 1), $i " µs" }
      /^BenchmarkEventThroughput/ { for (i = 5; i < NF; i += 2) if ($(i+1) == "events/s") printf "%-44s %.0f events/s\n", "events to one watcher", $i }' "$work/turn.txt"
  else
    row "turn overhead" "benchmark failed: $(tail -1 "$work/turn.txt")"
  fi
}

before=${BEFORE:-}
if [ -n "$before" ]; then
  git -C "$repo" worktree add -q --detach "$work/before-src" "$before"
  (cd "$work/before-src" && go build -o "$work/troupe-before" ./cmd/troupe &&
    go build -trimpath -ldflags="-s -w" -o "$work/troupe-before-stripped" ./cmd/troupe)
  sync "$work/troupe-before"
  dd if="$work/troupe-before" iflag=nocache count=0 status=none 2>/dev/null || true
  echo "== before: $before ($(git -C "$repo" rev-parse --short "$before"))"
  row "binary (unstripped / stripped -s -w -trimpath)" "$(mib "$work/troupe-before") / $(mib "$work/troupe-before-stripped")"
  measure "$work/troupe-before" "$work/before-src"
  echo "== after: this checkout"
  row "binary (unstripped / stripped -s -w -trimpath)" "$(mib "$bin") / $(mib "$work/troupe-stripped")"
fi
measure "$bin" "$repo"

if [ "${COLD_BUILD:-}" = 1 ]; then
  # One cold build of cmd/troupe: CPU seconds and the largest process's peak RSS, then each
  # compile and link step's CPU and peak RSS (through -toolexec), summed by module, largest
  # first. Costs minutes of CPU: only on request.
  printf '#!/bin/sh\nfor a; do [ "$p" = -p ] && pkg=$a; p=$a; done\nexec /usr/bin/time -a -o "%s" -f "$(basename "$1") $pkg %%U %%S %%M" "$@"\n' "$work/tools.log" >"$work/toolexec.sh"
  chmod +x "$work/toolexec.sh"
  GOCACHE="$work/gocache" /usr/bin/time -f '%U %S %M' -o "$work/cold.txt" go build -a -toolexec "$work/toolexec.sh" -o "$work/cold" ./cmd/troupe
  row "cold go build -a: CPU / peak RSS" "$(awk '{printf "%.0f CPU-s (%.1f CPU-min) / %.0f MiB", $1+$2, ($1+$2)/60, $3/1024}' "$work/cold.txt")"
  awk 'NF == 5 && $1 == "link" { printf "%-44s %.0f CPU-s / %.0f MiB\n", "  cold build: link", $3+$4, $5/1024 }' "$work/tools.log"
  awk 'NF == 5 && $1 == "compile" {
      n = split($2, p, "/")
      if (p[1] == "github.com" || p[1] == "golang.org" || p[1] == "kernel.org") mod = p[1] "/" p[2] "/" p[3]
      else if (p[1] ~ /\./) mod = p[1] "/" p[2]
      else mod = "std/" p[1]
      cpu[mod] += $3 + $4; if ($5 > rss[mod]) rss[mod] = $5 }
    END { for (m in cpu) printf "%.1f %s %.0f\n", cpu[m], m, rss[m] / 1024 }' "$work/tools.log" |
    sort -rn | head -8 | while read -r cpu mod rss; do row "  cold build: $mod" "$cpu CPU-s, largest compile $rss MiB"; done
fi
