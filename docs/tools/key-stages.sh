#!/bin/bash
# Where a key's time goes, stage by stage, for rigbook and vim alike (PERFORMANCE.md, "How to profile"):
# runs `rigbook-bench --terminal-only` under a system-wide `perf record` of the scheduler and read/write
# tracepoints, then, for every key each program answered, times
#   A→B  the bench's send-keys to tmux writing the key into the pane's pty
#   B→C  the key in the pty to the program's read returning it (the wake-up)
#   C→D  the program's read to its first write to the terminal (its own work, run cold)
#   D→E  that write to tmux sending the control client the pane's %output (tmux parses what was written)
#   A→F  the whole, as the bench sees it (plus the bench's own read)
# and prints the medians and 90th percentiles. perf writes ~2 GB into WORK; the figures carry its overhead (every
# traced system call costs a few µs, and perf's own writing keeps one core busy), for both programs alike.
# Needs perf (Debian: linux-perf) and root or kernel.perf_event_paranoid <= -1 for the tracepoints.
#   docs/tools/key-stages.sh .build/release/rigbook-bench /tmp/stages
set -eu
BENCH=$(realpath "$1"); WORK=$2
mkdir -p "$WORK"
perf record -a -o "$WORK/perf.data" -e sched:sched_switch,sched:sched_wakeup \
    -e syscalls:sys_enter_write,syscalls:sys_exit_write,syscalls:sys_enter_read,syscalls:sys_exit_read \
    -e syscalls:sys_enter_writev,syscalls:sys_exit_writev -- "$BENCH" --terminal-only > "$WORK/bench.out" 2> /dev/null
grep "^| [↓t]" "$WORK/bench.out" || true
perf script -i "$WORK/perf.data" -F comm,tid,cpu,time,event,trace 2> /dev/null | grep -v "^ *perf " > "$WORK/events.txt"
python3 - "$WORK/events.txt" <<'PY'
import re, sys
pattern = re.compile(r'^\s*(.+?)\s+(\d+)\s+\[(\d+)\]\s+([\d.]+):\s+(\S+):\s*(.*)$')
events = []
for line in open(sys.argv[1]):
    m = pattern.match(line)
    if m:
        comm, tid, _, t, event, rest = m.groups()
        events.append((float(t) * 1e6, comm, int(tid), event, rest))
programs = []
for e in events:
    if e[1] in ('rigbook', 'vim') and e[2] not in [p for p, _ in programs]:
        programs.append((e[2], e[1]))
def quantile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * q))] if xs else float('nan')
names = ['A→B send to pty', 'B→C wake-up', 'C→D in the program', 'D→E tmux to %output', 'A→F whole']
for pid, name in programs:
    stages = {n: [] for n in names}
    i = 0
    while i < len(events):
        e = events[i]
        if not (e[1].startswith('tmux: server') and e[3] == 'syscalls:sys_exit_writev' and e[4].strip() == '0x1'):
            i += 1
            continue
        B = e[0]
        A = next((events[j][0] for j in range(i, max(-1, i - 400), -1)
                  if events[j][1] == 'rigbook-bench' and events[j][3] == 'syscalls:sys_enter_write'), None)
        C = D = E = F = None
        j = i + 1
        while j < len(events) and events[j][0] - B < 50000:
            x = events[j]
            if C is None and x[2] == pid and x[3] == 'syscalls:sys_exit_read': C = x[0]
            elif C is not None and D is None and x[2] == pid and x[3] == 'syscalls:sys_enter_write' \
                    and x[4].startswith('fd: 0x00000001'): D = x[0]
            elif D is not None and E is None and x[1].startswith('tmux: server') \
                    and x[3] == 'syscalls:sys_enter_writev': E = x[0]
            elif E is not None and x[1] == 'rigbook-bench' and x[3] == 'syscalls:sys_exit_read': F = x[0]; break
            j += 1
        if None not in (A, C, D, E, F) and F - A < 20000:
            for n, v in zip(names, [B - A, C - B, D - C, E - D, F - A]): stages[n].append(v)
        i = j
    count = len(stages[names[0]])
    if count == 0: continue
    print(f'{name} (pid {pid}), {count} keys: ' + '; '.join(
        f'{n} {quantile(v, 0.5):.0f} / {quantile(v, 0.9):.0f} µs' for n, v in stages.items()))
PY
