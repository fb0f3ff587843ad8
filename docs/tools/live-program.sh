# Sourced by the per-key profiling scripts (cpu-per-key.sh, callgrind-per-key.sh, read-to-write.sh,
# code-footprint.sh): the live full-screen program in tmux (80×24) on a copy of a data home, the keys that take it to
# the list or into a form's notes, and vim beside it.

# start_live_program BIN HOME NAME [WRAPPER...]: copies HOME's Documents (drafts left out) into a temporary home,
# starts BIN in a tmux server of its own (WRAPPER before it, e.g. valgrind), waits for the list and sets WORK,
# SOCKET and PID (the program's). The server and the copy go when the script exits.
start_live_program() {
    local bin=$1 source=$2 name=$3
    shift 3
    WORK=$(mktemp -d); SOCKET=$name-$$
    trap 'tmux -L $SOCKET kill-server 2>/dev/null || true; rm -rf "$WORK"' EXIT
    mkdir -p "$WORK/home" && cp -r "$source/Documents" "$WORK/home/" && rm -f "$WORK/home/Documents/Drafts/"*
    tmux -L "$SOCKET" -f /dev/null new-session -d -s k -x 80 -y 24 \
        "exec env RIGBOOK_HOME=$WORK/home RIGBOOK_TODAY=2026-11-30 TERM=xterm-256color $* $bin"
    for _ in $(seq 1 600); do tmux -L "$SOCKET" capture-pane -p -t k | grep -q " assets" && break; sleep 0.1; done
    PID=$(tmux -L "$SOCKET" list-panes -t k -F '#{pane_pid}')
}

# go_to MODE PAUSE: list stays on the list, notes opens a form and tabs to its notes (keys PAUSE seconds apart);
# sets KEY, the key to time there (j or a).
go_to() {
    KEY=j
    if [ "$1" = notes ]; then
        tmux -L "$SOCKET" send-keys -t k i; sleep "$2"
        for _ in 1 2 3 4 5 6 7 8; do tmux -L "$SOCKET" send-keys -t k Tab; sleep "$2"; done
        KEY=a
    fi
}

# start_vim MODE NAME [WRAPPER...]: vim on a 1,000-line file in a tmux server of its own (80×24), WRAPPER before it;
# in insert mode for MODE notes. Sets WORK, SOCKET, PID and KEY (j, or a in insert mode), as the two above do.
start_vim() {
    local mode=$1 name=$2
    shift 2
    WORK=$(mktemp -d); SOCKET=$name-$$
    trap 'tmux -L $SOCKET kill-server 2>/dev/null || true; rm -rf "$WORK"' EXIT
    seq 1 1000 | sed 's/.*/line & of a plain text file for vim/' > "$WORK/file.txt"
    tmux -L "$SOCKET" -f /dev/null new-session -d -s k -x 80 -y 24 \
        "exec env TERM=xterm-256color $* vim -u NONE -N -n $WORK/file.txt"
    for _ in $(seq 1 300); do tmux -L "$SOCKET" capture-pane -p -t k | grep -q "line 1 of" && break; sleep 0.1; done
    PID=$(tmux -L "$SOCKET" list-panes -t k -F '#{pane_pid}')
    KEY=j
    if [ "$mode" = notes ]; then tmux -L "$SOCKET" send-keys -t k i; KEY=a; sleep 0.3; fi
}
