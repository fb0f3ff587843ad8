import Testing
@testable import RigbookCore

/// `#expect` cannot take a mutating call on a local directly; these wrap the two that return a Bool.
private func fires(_ d: inout Debouncer, at now: Double) -> Bool { d.fireIfDue(now: now) }
private func flushes(_ d: inout Debouncer) -> Bool { d.flush() }

/// Debouncer on a virtual clock: plain Double seconds, nothing sleeps.
@Suite("Debouncer")
struct DebouncerTests {
    private let eps = 1e-9

    /// Times on a 0.01 s grid, computed from integer steps so they never drift.
    private func at(_ step: Int) -> Double { Double(step) / 100 }

    /// Drives a debouncer over a 0.01 s grid: at each step, pokes if `edits` has an edit at that step
    /// (before or after asking for a write, as the loop may do either), then calls fireIfDue.
    /// Returns the write times and, for each, the time of the first edit it carried.
    private func simulate(editSteps: Set<Int>, until lastStep: Int, pokeFirst: Bool = true,
                          debouncer start: Debouncer = Debouncer())
        -> (writes: [Double], firstEdits: [Double], lastEdits: [Double], end: Debouncer) {
        var d = start
        var writes: [Double] = [], firstEdits: [Double] = [], lastEdits: [Double] = []
        var firstUnwritten: Double?
        var lastUnwritten: Double?
        for step in 0...lastStep {
            let now = at(step)
            func edit() {
                guard editSteps.contains(step) else { return }
                d.poke(now: now)
                if firstUnwritten == nil { firstUnwritten = now }
                lastUnwritten = now
            }
            if pokeFirst { edit() }
            if d.fireIfDue(now: now) {
                writes.append(now)
                firstEdits.append(firstUnwritten ?? .nan)
                lastEdits.append(lastUnwritten ?? .nan)
                firstUnwritten = nil
                lastUnwritten = nil
            }
            if !pokeFirst { edit() }
        }
        return (writes, firstEdits, lastEdits, d)
    }

    @Test("defaults: quiet 0.5 s, ceiling 1.0 s, idle")
    func defaults() {
        var d = Debouncer()
        #expect(d.quiet == 0.5)
        #expect(d.maxDelay == 1.0)
        #expect(!d.isPending)
        #expect(d.deadline == nil)
        #expect(d.nextTimeout(now: 0) == nil)
        #expect(d.nextTimeout(now: 1234.5) == nil)
        #expect(!fires(&d, at: 0))
        #expect(!fires(&d, at: 1e9))
        #expect(!flushes(&d))
    }

    @Test("one edit: no write before 0.5 s, exactly one write at 0.5 s", arguments: [0.0, 3.25, 1000.0])
    func oneEdit(_ t0: Double) {
        var d = Debouncer()
        d.poke(now: t0)
        #expect(d.isPending)
        for dt in [0.0, 0.1, 0.25, 0.4, 0.49, 0.499_999] {
            #expect(!fires(&d, at: t0 + dt), "wrote \(dt) s after the edit")
        }
        #expect(d.isPending, "asking early must not clear the pending write")
        #expect(fires(&d, at: t0 + 0.5))
        #expect(!d.isPending)
        #expect(!fires(&d, at: t0 + 0.5), "the write fires once")
        #expect(!fires(&d, at: t0 + 0.6))
        #expect(!fires(&d, at: t0 + 10))
        #expect(d.nextTimeout(now: t0 + 0.6) == nil)
    }

    @Test("one edit on the 0.01 s grid: exactly one write, 0.5 s later", arguments: [true, false])
    func oneEditOnGrid(_ pokeFirst: Bool) {
        let run = simulate(editSteps: [20], until: 300, pokeFirst: pokeFirst)
        #expect(run.writes.count == 1, "\(run.writes)")
        let write = run.writes.first ?? .nan
        #expect(write >= 0.7 - eps && write < 0.7 + 0.01 + eps, "\(write)")
        #expect(!run.end.isPending)
    }

    @Test("a late fireIfDue still writes once, when asked")
    func lateAsk() {
        var d = Debouncer()
        d.poke(now: 0)
        #expect(fires(&d, at: 7))
        #expect(!fires(&d, at: 7.5))
    }

    @Test("a burst of edits 0.1 s apart for 0.4 s gives one write at last edit + 0.5")
    func burst() {
        var d = Debouncer()
        let edits = (0...4).map { Double($0) / 10 }
        for t in edits {
            #expect(!fires(&d, at: t))
            d.poke(now: t)
        }
        let last = edits.last!
        #expect(d.deadline.map { abs($0 - (last + 0.5)) < eps } == true, "\(String(describing: d.deadline))")
        #expect(!fires(&d, at: last + 0.5 - 1e-6))
        #expect(!fires(&d, at: 0.5), "0.5 s after the first edit is too early while the burst went on")
        #expect(fires(&d, at: last + 0.5 + eps))
        #expect(!fires(&d, at: last + 0.6))
        #expect(!fires(&d, at: 5))
    }

    @Test("a burst on the 0.01 s grid: one write, at last edit + 0.5", arguments: [true, false])
    func burstOnGrid(_ pokeFirst: Bool) {
        let run = simulate(editSteps: [0, 10, 20, 30, 40], until: 300, pokeFirst: pokeFirst)
        #expect(run.writes.count == 1, "\(run.writes)")
        let write = run.writes.first ?? .nan
        #expect(write >= 0.9 - eps && write < 0.9 + 0.01 + eps, "\(run.writes)")
        #expect(run.lastEdits.first == 0.4)
    }

    @Test("continuous typing for 5 s: never more than 1.0 s behind the first unwritten edit",
          arguments: [true, false])
    func continuousTyping(_ pokeFirst: Bool) {
        let editSteps = Set(stride(from: 0, through: 500, by: 10)) // every 0.1 s, 0.0 … 5.0
        let run = simulate(editSteps: editSteps, until: 800, pokeFirst: pokeFirst)
        #expect(!run.writes.isEmpty)
        // Every write is at most maxDelay after the first edit it carries.
        for (write, first) in zip(run.writes, run.firstEdits) {
            #expect(write - first <= 1.0 + eps, "edit at \(first) written at \(write)")
            #expect(write - first >= 0.5 - eps, "edit at \(first) written too early, at \(write)")
        }
        // A pure trailing debounce would write only after typing stops (5.5 s): this one writes during it.
        let whileTyping = run.writes.filter { $0 <= 5.0 + eps }
        #expect(whileTyping.count >= 4, "\(run.writes)")
        #expect((whileTyping.first ?? .infinity) <= 1.0 + eps, "\(run.writes)")
        // About once a second while typing.
        for (a, b) in zip(whileTyping, whileTyping.dropFirst()) {
            #expect(b - a >= 0.9 - eps && b - a <= 1.1 + 0.01 + eps, "writes at \(a) and \(b)")
        }
        // The last edit (5.0) is written, no later than 0.5 s after it, and nothing stays pending.
        #expect(run.lastEdits.last == 5.0)
        #expect((run.writes.last ?? .infinity) <= 5.5 + eps, "\(run.writes)")
        #expect(!run.end.isPending)
        #expect(run.writes.count <= 7, "\(run.writes)")
    }

    @Test("continuous typing, exact: writes at the ceiling when the loop wakes on nextTimeout")
    func continuousTypingExact() {
        // The loop blocks for nextTimeout, so it wakes exactly at the deadline.
        var d = Debouncer()
        var writes: [Double] = []
        var firstPending: Double?
        var now = 0.0
        var nextEdit = 0
        var wakes = 0
        while now <= 8 {
            wakes += 1
            if wakes > 1000 { Issue.record("the loop never settles"); break }
            let editTime = nextEdit <= 50 ? Double(nextEdit) / 10 : .infinity
            if let timeout = d.nextTimeout(now: now), now + timeout < editTime {
                now += timeout
                guard d.fireIfDue(now: now) else {
                    Issue.record("woke at the deadline \(now) but nothing fired")
                    break
                }
                if let first = firstPending { #expect(now - first <= 1.0 + eps) }
                writes.append(now)
                firstPending = nil
                continue
            }
            guard editTime.isFinite else { break }
            now = editTime
            d.poke(now: now)
            if firstPending == nil { firstPending = now }
            nextEdit += 1
        }
        #expect(writes.count >= 5, "\(writes)")
        #expect(abs((writes.first ?? .nan) - 1.0) < eps, "\(writes)")
        #expect(!d.isPending)
    }

    @Test("cancel before the deadline: the write never fires")
    func cancelBeforeDeadline() {
        var d = Debouncer()
        d.poke(now: 0)
        d.poke(now: 0.2)
        d.cancel()
        #expect(!d.isPending)
        #expect(d.deadline == nil)
        #expect(d.firstPending == nil && d.lastEdit == nil)
        #expect(d.nextTimeout(now: 0.3) == nil)
        for t in [0.5, 0.7, 1.0, 2.0, 100.0] {
            #expect(!fires(&d, at: t), "fired at \(t)")
        }
        #expect(!flushes(&d))
    }

    @Test("a new edit after cancel starts a fresh period")
    func editAfterCancel() {
        var d = Debouncer()
        d.poke(now: 0)
        d.cancel()
        d.poke(now: 3)
        #expect(d.firstPending == 3)
        #expect(!fires(&d, at: 3.4))
        #expect(fires(&d, at: 3.5))
    }

    @Test("flush is true only when something was pending, then clears")
    func flush() {
        var d = Debouncer()
        #expect(!flushes(&d))
        d.poke(now: 1)
        d.poke(now: 1.2)
        #expect(flushes(&d))
        #expect(!d.isPending)
        #expect(d.deadline == nil)
        #expect(!flushes(&d))
        #expect(!fires(&d, at: 1.7))
        #expect(!fires(&d, at: 10))
        // Flushing after the write already fired has nothing left to write.
        d.poke(now: 20)
        #expect(fires(&d, at: 20.5))
        #expect(!flushes(&d))
    }

    @Test("no write after save or discard, even when the timer was already due")
    func noWriteAfterSave() {
        var d = Debouncer()
        d.poke(now: 0)
        // The loop was busy saving: time passes beyond the deadline without a fireIfDue.
        #expect(d.nextTimeout(now: 0.8) == 0)
        d.cancel()
        #expect(!fires(&d, at: 0.8))
        #expect(!fires(&d, at: 1.5))
        #expect(!fires(&d, at: 60))
        #expect(d.nextTimeout(now: 0.8) == nil)
    }

    @Test("nextTimeout: nil when idle, 0.5 after an edit, shrinking, 0 when overdue")
    func nextTimeout() {
        var d = Debouncer()
        #expect(d.nextTimeout(now: 0) == nil)
        d.poke(now: 10)
        #expect(d.nextTimeout(now: 10) == 0.5)
        let shrinking = [10.0, 10.1, 10.2, 10.3, 10.4, 10.45].compactMap { d.nextTimeout(now: $0) }
        #expect(shrinking.count == 6)
        #expect(zip(shrinking, shrinking.dropFirst()).allSatisfy { $0 > $1 }, "\(shrinking)")
        #expect(abs((d.nextTimeout(now: 10.2) ?? .nan) - 0.3) < eps)
        #expect(d.nextTimeout(now: 10.5) == 0)
        #expect(d.nextTimeout(now: 10.6) == 0, "overdue is 0, never negative")
        #expect(d.nextTimeout(now: 99) == 0)
        #expect(d.isPending, "asking for the timeout does not fire")
    }

    @Test("nextTimeout is min(quiet after the last edit, maxDelay after the first)")
    func nextTimeoutMin() {
        var d = Debouncer()
        d.poke(now: 0)
        d.poke(now: 0.3)
        // 0.3 + 0.5 = 0.8 < 0 + 1.0
        #expect(abs((d.deadline ?? .nan) - 0.8) < eps)
        #expect(abs((d.nextTimeout(now: 0.3) ?? .nan) - 0.5) < eps)
        d.poke(now: 0.7)
        // 0.7 + 0.5 = 1.2 > 0 + 1.0: the ceiling wins.
        #expect(abs((d.deadline ?? .nan) - 1.0) < eps)
        #expect(abs((d.nextTimeout(now: 0.7) ?? .nan) - 0.3) < eps)
        #expect(d.firstPending == 0)
        #expect(d.lastEdit == 0.7)
        #expect(!fires(&d, at: 0.99))
        #expect(fires(&d, at: 1.0))
        // After the write, the next edit is the first pending one again.
        d.poke(now: 1.05)
        #expect(d.firstPending == 1.05)
        #expect(abs((d.nextTimeout(now: 1.05) ?? .nan) - 0.5) < eps)
    }

    @Test("deadline is consistent with nextTimeout and fireIfDue", arguments: [0.0, 0.2, 0.35, 0.6, 0.9])
    func deadlineConsistent(_ secondEdit: Double) {
        var d = Debouncer()
        d.poke(now: 0)
        d.poke(now: secondEdit)
        let deadline = d.deadline ?? .nan
        #expect(abs(deadline - min(secondEdit + 0.5, 1.0)) < eps)
        for now in [secondEdit, secondEdit + 0.05, deadline - 0.01] where now <= deadline {
            let timeout = d.nextTimeout(now: now) ?? .nan
            #expect(timeout >= 0)
            #expect(abs(now + timeout - deadline) < eps)
        }
        var early = d
        #expect(!fires(&early, at: deadline - 1e-6))
        #expect(fires(&d, at: deadline))
    }

    @Test("custom quiet and ceiling are honoured")
    func customTimes() {
        var d = Debouncer(quiet: 0.2, maxDelay: 0.3)
        d.poke(now: 0)
        #expect(abs((d.nextTimeout(now: 0) ?? .nan) - 0.2) < eps)
        d.poke(now: 0.15)
        #expect(abs((d.deadline ?? .nan) - 0.3) < eps)
        #expect(!fires(&d, at: 0.29))
        #expect(fires(&d, at: 0.3))
    }
}
