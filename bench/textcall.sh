#!/usr/bin/env bash
# Prints the text tool-call parser's throughput (tools/textcall) for a 1 MB reply mixing prose
# and calls in several formats, and a 1 MB reply with no call. Nothing is asserted.
# Usage: bash bench/textcall.sh
set -euo pipefail
cd "$(dirname "$0")/.."
go test -run '^$' -bench 'Parse_|Looks_' -benchtime 20x ./tools/textcall |
  awk '/^Benchmark/ { for (i = 2; i <= NF; i++) if ($i == "MB/s") printf "%-44s %s MB/s\n", "textcall " $1, $(i-1) }'
