/// What `rigbook-bench --help` prints: every option the bench reads, and nothing is measured.
enum Usage {
    static let text = """
        rigbook-bench: speed and memory of the real code paths (no curses: the in-memory screen), at 1,000, 10,000
        and 100,000 assets. Figures go to standard output as Markdown tables for docs/PERFORMANCE.md; a debug build's
        are meaningless, so: swift run -c release rigbook-bench [OPTIONS]

        USAGE: rigbook-bench [--sizes N,N...] [--homes DIR] [--skip-terminal] [--loss] [--paste-only]
               rigbook-bench ONE-FIGURE-OPTION

        The whole bench (with no option: every figure at every size):
          --sizes N,N...             Register sizes to build and measure (default 1000,10000,100000).
          --homes DIR                Keep the registers it makes, in DIR/h<size>.
          --skip-terminal            Leave out key to screen in tmux and the 1 MB paste.
          --loss                     Add the loss window under kill -9 (--kills N, default 20).
          --paste-only               Measure the 1 MB paste again after the whole bench.

        One figure alone:
          --terminal-only            Key to screen in tmux (--keys N, default 400; --samples CSV writes each).
          --loss-only                The loss window under kill -9 (--kills N, default 20).
          --import-only              Importing 100,000 rows and 10,000 test results.
          --pdf-only                 Certificates as PDF.
          --sync-only URL            Sync with an empty PostgreSQL database (--sync-assets N, default 1000).
          --bulk-only HOME           The bulk commands (due, export, asset list, calendar, report as HTML and
                                     PDF, labels) on an existing home, each its own process: time and peak memory.

        On a kept home, for profilers:
          --form-only HOME           The form's keystroke, typed into notes.
          --list-only HOME           The list's keys (down, PgDn, End, Home).
          --filter-only HOME         The filter's own work (--each: every keystroke's time and matches).
          --first-frame HOME         The first frame (--phases: its parts one by one).
          --batch-save-only HOME     The batch save of 300 records (--rounds N, default 11).

        The bench's own children (not for a person): --peak-of COMMAND..., --measure-child COMMAND...,
        --memory-probe HOME.

          -h, --help                 Print this and measure nothing.
        """

    /// `--help` or `-h` among the bench's own words: not among those of a command it runs (`--peak-of`,
    /// `--measure-child`), which follow it.
    static func asked(_ arguments: [String]) -> Bool {
        arguments.dropFirst().prefix { $0 != "--peak-of" && $0 != "--measure-child" }
            .contains { $0 == "--help" || $0 == "-h" }
    }
}
