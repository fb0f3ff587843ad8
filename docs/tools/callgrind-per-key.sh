#!/bin/bash
# Instructions a key of the live full-screen program (PERFORMANCE.md, "Key to screen, third/fourth pass"): runs
# RIGBOOK under callgrind in tmux (80×24) on a copy of HOME, goes to the list (list: 25 j first, past the page) or
# into a form's notes (notes: i, Tab ×8, a ×5), turns instrumentation on, sends N keys 150 ms apart, turns it off
# and dumps. Prints the profile's file and its total divided by N; `callgrind_annotate --inclusive=yes FILE` for
# the functions. HOME: a data home of 1,000 assets (`RIGBOOK_TODAY=2026-11-30 rigbook --home H sample --assets 1000`).
#   docs/tools/callgrind-per-key.sh .build/release/rigbook HOME list 50 OUT
set -eu
BIN=$(realpath "$1"); SOURCE=$2; MODE=$3; N=$4; OUT=$(realpath -m "$5")
WORK=$(mktemp -d); SOCKET=callgrind-per-key-$$
trap 'tmux -L $SOCKET kill-server 2>/dev/null || true; rm -rf "$WORK"' EXIT
mkdir -p "$WORK/home" && cp -r "$SOURCE/Documents" "$WORK/home/" && rm -f "$WORK/home/Documents/Drafts/"*
tmux -L $SOCKET -f /dev/null new-session -d -s k -x 80 -y 24 \
    "exec env RIGBOOK_HOME=$WORK/home RIGBOOK_TODAY=2026-11-30 TERM=xterm-256color valgrind --tool=callgrind \
     --instr-atstart=no --callgrind-out-file=$OUT $BIN"
for _ in $(seq 1 600); do tmux -L $SOCKET capture-pane -p -t k | grep -q " assets" && break; sleep 0.1; done
PID=$(tmux -L $SOCKET list-panes -t k -F '#{pane_pid}')
KEY=j
if [ "$MODE" = notes ]; then
    tmux -L $SOCKET send-keys -t k i; sleep 1
    for _ in 1 2 3 4 5 6 7 8; do tmux -L $SOCKET send-keys -t k Tab; sleep 0.2; done
    for _ in 1 2 3 4 5; do tmux -L $SOCKET send-keys -t k a; sleep 0.2; done
    KEY=a
else
    for _ in $(seq 1 25); do tmux -L $SOCKET send-keys -t k j; sleep 0.2; done
fi
sleep 1
callgrind_control -i on "$PID" > /dev/null
for _ in $(seq 1 "$N"); do tmux -L $SOCKET send-keys -t k $KEY; sleep 0.15; done
sleep 0.5
callgrind_control -i off "$PID" > /dev/null
callgrind_control -d "$PID" > /dev/null
sleep 0.5
TOTAL=$(callgrind_annotate "$OUT.1" 2>/dev/null | grep -m1 "PROGRAM TOTALS" | awk '{gsub(",","",$1); print $1}')
echo "$OUT.1: $TOTAL instructions, $((TOTAL / N)) a key"
