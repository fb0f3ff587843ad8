#!/bin/bash
# CPU a key of the live full-screen program (PERFORMANCE.md, "Work per key"): starts RIGBOOK in tmux (80×24) on a
# copy of HOME, goes to the list (list: sends j) or into a form's notes (notes: i, then Tab ×8, sends a), and
# runs `perf ARGS -p PID` while N keys are sent 10 ms apart. Divide perf's task-clock by N.
#   docs/tools/cpu-per-key.sh .build/release/rigbook HOME list 300 stat -e task-clock
#   docs/tools/cpu-per-key.sh .build/release/rigbook HOME notes 300 record -g -o notes.data
# HOME: a data home holding a register of 1,000 assets (e.g. one `rigbook-bench --homes DIR` keeps as DIR/h1000).
set -eu
BIN=$(realpath "$1"); SOURCE=$2; MODE=$3; N=$4; shift 4
WORK=$(mktemp -d); SOCKET=cpu-per-key-$$
trap 'tmux -L $SOCKET kill-server 2>/dev/null || true; rm -rf "$WORK"' EXIT
mkdir -p "$WORK/home" && cp -r "$SOURCE/Documents" "$WORK/home/" && rm -f "$WORK/home/Documents/Drafts/"*
tmux -L $SOCKET -f /dev/null new-session -d -s k -x 80 -y 24 \
    "RIGBOOK_HOME=$WORK/home RIGBOOK_TODAY=2026-11-30 TERM=xterm-256color $BIN"
for _ in $(seq 1 100); do tmux -L $SOCKET capture-pane -p -t k | grep -q " assets" && break; sleep 0.1; done
PID=$(tmux -L $SOCKET list-panes -t k -F '#{pane_pid}')
KEY=j
if [ "$MODE" = notes ]; then
    tmux -L $SOCKET send-keys -t k i; sleep 0.3
    for _ in 1 2 3 4 5 6 7 8; do tmux -L $SOCKET send-keys -t k Tab; sleep 0.05; done
    KEY=a
fi
sleep 0.5
perf "$@" -p "$PID" > "$WORK/perf.out" 2>&1 &
PERF=$!
sleep 0.3
for _ in $(seq 1 "$N"); do tmux -L $SOCKET send-keys -t k $KEY; sleep 0.01; done
sleep 0.3
kill -INT $PERF; wait $PERF || true
cat "$WORK/perf.out"
