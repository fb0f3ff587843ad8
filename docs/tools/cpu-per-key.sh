#!/bin/bash
# CPU a key of the live full-screen program (PERFORMANCE.md, "How to profile"): starts RIGBOOK in tmux (80×24) on a
# copy of HOME, goes to the list (list: sends j) or into a form's notes (notes: i, then Tab ×8, sends a), and
# runs `perf ARGS -p PID` while N keys are sent 10 ms apart. Divide perf's task-clock by N.
#   docs/tools/cpu-per-key.sh .build/release/rigbook HOME list 300 stat -e task-clock
#   docs/tools/cpu-per-key.sh .build/release/rigbook HOME notes 300 record -g -o notes.data
# HOME: a data home holding a register of 1,000 assets (e.g. one `rigbook-bench --homes DIR` keeps as DIR/h1000).
set -eu
BIN=$(realpath "$1"); SOURCE=$2; MODE=$3; N=$4; shift 4
. "$(dirname "$0")/live-program.sh"
start_live_program "$BIN" "$SOURCE" cpu-per-key
go_to "$MODE" 0.05
sleep 0.5
perf "$@" -p "$PID" > "$WORK/perf.out" 2>&1 &
PERF=$!
sleep 0.3
for _ in $(seq 1 "$N"); do tmux -L $SOCKET send-keys -t k $KEY; sleep 0.01; done
sleep 0.3
kill -INT $PERF; wait $PERF || true
cat "$WORK/perf.out"
