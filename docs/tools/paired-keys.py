#!/usr/bin/env python3
# Key to screen, paired (PERFORMANCE.md, "How to profile"): two programs, each in a tmux server of its own at 80×24,
# driven through control-mode clients; each key is sent to A and to B in turn (the order alternating), and the time
# from the `send-keys` to the first `%output` is taken for each. The difference of each pair cancels what the
# machine does meanwhile, which a single run of the bench cannot. SETUP_A / SETUP_B: keys (comma-separated) sent
# first, e.g. "i,Tab,Tab,Tab,Tab,Tab,Tab,Tab,Tab" to reach the notes. Prints medians, 90th and 99th percentiles (µs)
# and the median of the pairs' differences.
#   docs/tools/paired-keys.py "env RIGBOOK_HOME=H RIGBOOK_TODAY=2026-11-30 TERM=xterm-256color BIN" \
#       "env TERM=xterm-256color vim -u NONE -N -n FILE" 400 [KEY]
import os, subprocess, sys, time, select, statistics, uuid
def start(cmd, tag):
    sock = f"ab-{os.getpid()}-{tag}"
    subprocess.run(["tmux", "-L", sock, "-f", "/dev/null", "new-session", "-d", "-s", "b", "-x", "80", "-y", "24", cmd], check=True)
    p = subprocess.Popen(["tmux", "-L", sock, "-C", "attach", "-t", "b"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    return sock, p
def drain(p, quiet=0.03):
    fd = p.stdout.fileno(); data = b""
    while select.select([fd], [], [], quiet)[0]:
        d = os.read(fd, 65536)
        if not d: break
        data += d
    return data
def key(p, k):
    drain(p, 0.0)
    fd = p.stdout.fileno(); buf = b""
    t0 = time.perf_counter()
    p.stdin.write(f"send-keys -t b {k}\n".encode())
    while True:
        select.select([fd], [], [], 2)
        buf += os.read(fd, 65536)
        i = buf.find(b"%output")
        if i >= 0: return (time.perf_counter() - t0) * 1e6
def main():
    a, b, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    k = sys.argv[4] if len(sys.argv) > 4 else "j"
    A = start(a, "a"); B = start(b, "b")
    time.sleep(1.5); drain(A[1], 0.2); drain(B[1], 0.2)
    for (s_, p_), env in ((A, "SETUP_A"), (B, "SETUP_B")):
        for k_ in filter(None, os.environ.get(env, "").split(",")):
            p_.stdin.write(f"send-keys -t b {k_}\n".encode()); time.sleep(0.1)
    time.sleep(0.5); drain(A[1], 0.2); drain(B[1], 0.2)
    ta, tb = [], []
    for i in range(n):
        for (s, p), out in ((A, ta), (B, tb)) if i % 2 == 0 else ((B, tb), (A, ta)):
            out.append(key(p, k)); drain(p, 0.035)
    for s, p in (A, B):
        subprocess.run(["tmux", "-L", s, "kill-server"])
    def q(v, f): v = sorted(v); return v[min(len(v)-1, int(f*len(v)))]
    for name, v in (("A", ta), ("B", tb)):
        print(f"{name}: median {statistics.median(v):.0f} p90 {q(v,.9):.0f} p99 {q(v,.99):.0f}")
    d = [x - y for x, y in zip(ta, tb)]
    print(f"paired A-B: median {statistics.median(d):+.0f}")
main()
