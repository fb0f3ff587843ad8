#!/bin/bash
# Instructions a key of the live full-screen program (PERFORMANCE.md, "How to profile"): runs
# RIGBOOK under callgrind in tmux (80×24) on a copy of HOME, goes to the list (list: 25 j first, past the page) or
# into a form's notes (notes: i, Tab ×8, a ×5), turns instrumentation on, sends N keys 150 ms apart, turns it off
# and dumps. Prints the profile's file and its total divided by N; `callgrind_annotate --inclusive=yes FILE` for
# the functions. HOME: a data home of 1,000 assets (`RIGBOOK_TODAY=2026-11-30 rigbook --home H sample --assets 1000`).
#   docs/tools/callgrind-per-key.sh .build/release/rigbook HOME list 50 OUT
set -eu
BIN=$(realpath "$1"); SOURCE=$2; MODE=$3; N=$4; OUT=$(realpath -m "$5")
. "$(dirname "$0")/live-program.sh"
start_live_program "$BIN" "$SOURCE" callgrind-per-key valgrind --tool=callgrind --instr-atstart=no \
    "--callgrind-out-file=$OUT"
go_to "$MODE" 0.2
if [ "$MODE" = notes ]; then
    for _ in 1 2 3 4 5; do tmux -L "$SOCKET" send-keys -t k a; sleep 0.2; done
else
    for _ in $(seq 1 25); do tmux -L "$SOCKET" send-keys -t k j; sleep 0.2; done
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
