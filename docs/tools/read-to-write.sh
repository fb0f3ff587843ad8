#!/bin/bash
# A key's own time in the live program, from the `read` that takes the key to the first `write` to the terminal
# (PERFORMANCE.md, "How to profile"): starts BIN in tmux (80×24) on a copy of HOME (or vim on a
# 1,000-line file when BIN is `vim`), goes to the list or the notes (MODE: list sends j, notes sends a), sends N keys
# GAP seconds apart through one tmux control client (no process started per key) and prints, of `perf trace -e
# read,write`'s read→write (tracing included), the median, the 10th/90th/99th percentiles and the four slowest keys.
# Needs perf (Debian: linux-perf).
#   docs/tools/read-to-write.sh .build/release/rigbook HOME notes 150 0.035
#   docs/tools/read-to-write.sh vim - notes 150 0.035
set -eu
BIN=$1; SOURCE=$2; MODE=$3; N=$4; GAP=$5
. "$(dirname "$0")/live-program.sh"
if [ "$BIN" = vim ]; then
    start_vim "$MODE" read-to-write
else
    start_live_program "$(realpath "$BIN")" "$SOURCE" read-to-write
    go_to "$MODE" 0.05
fi
sleep 0.5
perf trace -e read,write -p "$PID" -o "$WORK/trace.out" 2> /dev/null &
TRACE=$!
sleep 0.5
python3 - "$SOCKET" "$KEY" "$N" "$GAP" <<'PY'
import subprocess, sys, threading, time
socket, key, count, gap = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
client = subprocess.Popen(['tmux', '-L', socket, '-C', 'attach', '-t', 'k'], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
threading.Thread(target=lambda: [None for _ in client.stdout], daemon=True).start()
for _ in range(count):
    client.stdin.write(f'send-keys -t k {key}\n'.encode()); client.stdin.flush(); time.sleep(gap)
client.stdin.close()
PY
sleep 0.3
kill -INT $TRACE; wait $TRACE || true
python3 - "$WORK/trace.out" <<'PY'
import re, sys
start, times = None, []
for line in open(sys.argv[1]):
    m = re.match(r'\s*([\d.]+) \(\s*[\d.]+ ms\): \S* ?(read|write)\((fd: (\d+))?', line)
    if not m: continue
    t, call, fd = float(m.group(1)), m.group(2), m.group(4) or '0'
    if call == 'read' and fd == '0' and start is None: start = t
    elif call == 'write' and fd == '1' and start is not None: times.append((t - start) * 1000); start = None
times.sort()
if not times: sys.exit('no keys were timed')
print(f'{len(times)} keys: read→write median {times[len(times) // 2]:.0f} µs, '
      f'10th {times[len(times) // 10]:.0f}, 90th {times[len(times) * 9 // 10]:.0f}, '
      f'99th {times[len(times) * 99 // 100]:.0f}, slowest {", ".join(f"{t:.0f}" for t in times[-4:])}')
PY
