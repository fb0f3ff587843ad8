#!/bin/bash
# The code a key runs (PERFORMANCE.md, "How to profile"): BIN (or vim on a 1,000-line file when BIN is
# `vim`) under callgrind in tmux (80×24), taken to the list or the notes (MODE: list sends j, notes sends a), ten
# keys to settle, then N keys 35 ms apart (as the bench sends them) with instrumentation on; prints, per key, the
# distinct lines and pages of machine code executed and the instructions, per object file, and the FUNCTIONS
# functions with the most lines. WHAT=key-path counts only rigbook's read→write (the key's event, its echo and
# journal line, the frame and its writing); by default the whole process between the keys, as for vim.
#   docs/tools/code-footprint.sh .build/release/rigbook HOME notes 20 OUT [FUNCTIONS] [WHAT]
set -eu
BIN=$1; SOURCE=$2; MODE=$3; N=$4; OUT=$(realpath -m "$5"); FUNCTIONS=${6:-0}; WHAT=${7:-process}
HERE=$(dirname "$(realpath "$0")")
. "$HERE/live-program.sh"
CALLGRIND="valgrind --tool=callgrind --instr-atstart=no --dump-instr=yes --callgrind-out-file=$OUT"
if [ "$WHAT" = key-path ]; then
    # Quoted for the shell tmux starts: the names are Swift's mangled ones, `$` and all.
    for name in 10RigbookApp7SessionC4sendyy0A2UI5EventOF 10RigbookApp7SessionC10nextUpdate \
                10RigbookApp7SessionC4echo 10RigbookApp7SessionC13writeJournals 7rigbook12DirectOutputC4draw \
                7rigbook14CursesTerminalC4read; do
        CALLGRIND="$CALLGRIND '--toggle-collect=*$name*'"
    done
    CALLGRIND="$CALLGRIND --collect-atstart=no"
fi
if [ "$BIN" = vim ]; then
    start_vim "$MODE" code-footprint $CALLGRIND
else
    start_live_program "$(realpath "$BIN")" "$SOURCE" code-footprint $CALLGRIND
    go_to "$MODE" 0.2
fi
for _ in $(seq 1 "${SETTLE:-10}"); do tmux -L "$SOCKET" send-keys -t k $KEY; sleep 0.2; done
sleep 1
callgrind_control -i on "$PID" > /dev/null 2>&1
for _ in $(seq 1 "$N"); do tmux -L "$SOCKET" send-keys -t k $KEY; sleep 0.035; done
sleep 0.05
callgrind_control -i off "$PID" > /dev/null 2>&1
callgrind_control -d "$PID" > /dev/null 2>&1
sleep 0.5
python3 "$HERE/code-footprint.py" "$OUT.1" "$N" "$FUNCTIONS"
