#!/usr/bin/env bash
# The offline demo: troupe fixes a failing Go test with the scripted provider (no API key, no
# network). It builds troupe, copies the demo project to a fresh temporary git repo, runs the
# agent there, and shows the diff and the now-passing test.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/troupe-demo-XXXXXX")
bin="$work/bin/troupe"
# The demo leaves nothing behind; TROUPE_DEMO_KEEP=1 keeps the project to look at afterwards.
cleanup() {
  if [ "${TROUPE_DEMO_KEEP:-}" = 1 ]; then echo "== kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

echo "== building troupe"
(cd "$repo" && go build -o "$bin" ./cmd/troupe)

echo "== fresh copy of the demo project in $work/project"
cp -r "$here/project" "$work/project"
cd "$work/project"
git init -q && git add -A && git -c user.email=demo@troupe -c user.name=demo commit -qm "demo: failing test"
echo "-- before: go test"
go test ./... 2>&1 | sed 's/^/   /' || true

echo "== troupe run (scripted model, mode yolo: no approvals in a throwaway repo)"
"$bin" run --model "scripted:$here/script.json" --mode yolo "Make the failing test in this Go module pass."

echo "== after: git diff"
git --no-pager diff
echo "-- after: go test"
go test ./... 2>&1 | sed 's/^/   /'
echo "== the session is stored (troupe sessions):"
"$bin" sessions
