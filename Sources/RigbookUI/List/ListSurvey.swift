import RigbookCore

/// What the list needs of every row beside its status: the widest value of each column that can grow, the widest
/// tag, how many rows have a draft and how many an interval longer than LOLER allows.
struct ListSurvey: Sendable, Equatable {
    var name = 0
    var location = 0
    var serial = 0
    var manufacturer = 0
    /// The widest WLL as the list writes it, lifting equipment only.
    var wll = 0
    var liftsPersons = false
    /// In display columns, unlike the byte widths above.
    var tag = 0
    var drafts = 0
    var flaggedIntervals = 0

    /// Adds one row. A register holds few distinct limits: each is written out once (`wllWidths`), not once a row.
    /// Column widths are bytes, not display columns: exact for ASCII, a little generous for other scripts (仓 is 3
    /// bytes, 2 columns), and free of a pass over every character of a million assets at start-up.
    mutating func add(_ row: borrowing RegisterRow, wllWidths: inout [Double: Int]) {
        // Read through `row` rather than a copy of its asset: a copy retains and releases every string of a row,
        // a third of this pass at a million assets.
        let cap = ListColumn.ContentWidths.cap
        if !row.asset.isElectrical, wllWidths[row.asset.wllKg] == nil {
            let width = Asset.wllText(row.asset.wllKg).utf8.count
            wllWidths[row.asset.wllKg] = width
            wll = max(wll, min(cap, width))
        }
        name = max(name, min(cap, row.asset.name.utf8.count))
        location = max(location, min(cap, row.asset.location.utf8.count))
        serial = max(serial, min(cap, row.asset.serialNumber.utf8.count))
        manufacturer = max(manufacturer, min(cap, row.asset.manufacturer.utf8.count))
        if row.asset.liftsPersons { liftsPersons = true }
        tag = max(tag, Self.displayWidth(ofTag: row.asset.tag))
        if row.hasDraft { drafts += 1 }
        if row.asset.intervalExceedsLOLER { flaggedIntervals += 1 }
    }

    /// A tag's width as the list shows it: printable ASCII is a column a byte, anything else as `VisibleText` draws
    /// it (control characters made visible, wide characters two columns). The bytes are looked at in place: going
    /// through the UTF-8 view a byte at a time was 35 million instructions at 100,000 assets.
    static func displayWidth(ofTag tag: String) -> Int {
        let ascii = tag.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
        } ?? tag.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
        return ascii ? tag.utf8.count : VisibleText.make(tag).displayWidth
    }

    mutating func merge(_ other: ListSurvey) {
        name = max(name, other.name)
        location = max(location, other.location)
        serial = max(serial, other.serial)
        manufacturer = max(manufacturer, other.manufacturer)
        wll = max(wll, other.wll)
        liftsPersons = liftsPersons || other.liftsPersons
        tag = max(tag, other.tag)
        drafts += other.drafts
        flaggedIntervals += other.flaggedIntervals
    }

    /// The survey of `rows`, one pass on this thread.
    static func of(_ rows: [RegisterRow]) -> ListSurvey {
        var survey = ListSurvey(), wllWidths: [Double: Int] = [:]
        for row in rows { survey.add(row, wllWidths: &wllWidths) }
        return survey
    }

    /// Each row's status on `today` and the survey of all of them, in one pass over the rows, in two halves at
    /// once for a large register (five passes, each copying every row, were a quarter of a second of the
    /// first frame at a million assets).
    static func statuses(of rows: [RegisterRow], on today: CalendarDate) -> ([StatusReport], ListSurvey) {
        guard !rows.isEmpty else { return ([], ListSurvey()) }
        var surveys: [ListSurvey] = []
        let reports = [StatusReport](unsafeUninitializedCapacity: rows.count) { buffer, written in
            // The buffer's address crosses to the other thread as a number: each part writes only its own rows.
            let reportsAddress = UInt(bitPattern: buffer.baseAddress)
            surveys = InHalves.map(count: rows.count) { range in
                let reports = UnsafeMutablePointer<StatusReport>(bitPattern: reportsAddress)!
                var survey = ListSurvey(), wllWidths: [Double: Int] = [:]
                for index in range {
                    // One copy of the row for both: each read of the array's element retains every string of the row.
                    let row = rows[index]
                    (reports + index).initialize(to: row.status(on: today))
                    survey.add(row, wllWidths: &wllWidths)
                }
                return survey
            }.map(\.result)
            written = rows.count
        }
        var survey = surveys[0]
        for other in surveys.dropFirst() { survey.merge(other) }
        return (reports, survey)
    }
}
