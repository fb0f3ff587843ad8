import Foundation
import RigbookCore
import RigbookPDF
import RigbookQR
import RigbookStore

/// Labels as files: the page `rigbook labels` prints and `L` on the list writes, with QR codes from
/// `QREncoder`. Shared by the command line and the session, so both print the same label for the same asset.
public enum LabelPrinting {
    /// The labels page for `rows` (in the order given). `lastTests` are the electrical items' latest tests
    /// (`Register.latestTests`): an electrical item gets its AS/NZS 3760 test tag, or the DANGER tag when that
    /// test failed, whatever `layout` lifting equipment gets (nil: the card).
    public static func page(_ rows: [RegisterRow], particulars: Particulars, today: CalendarDate,
                            layout: Labels.Layout?, sheet: Labels.Sheet, lastTests: [UUID: StoredTest] = [:],
                            printedAt: String = Timestamp.now()) -> String {
        let scheme = particulars.organisation.colourCode
        let items = rows.map {
            Labels.Item(row: $0, particulars: particulars, today: today, scheme: scheme,
                        lastTest: lastTests[$0.asset.uuid])
        }
        return Labels.render(items, layout: layout, sheet: sheet, qr: { QREncoder.matrix($0) }, printedAt: printedAt)
    }

    /// The labels page for `count` rows, written as they come (`forEachRow` hands each in turn): one sheet of rows is
    /// held at a time, with its electrical items' latest tests read from `register`, so the memory does not grow with
    /// the labels asked for. Gives `count` rows or the page's head miscounts them (`rigbook labels` counts first, on
    /// the same snapshot).
    public static func stream(count: Int, _ forEachRow: ((RegisterRow) throws -> Void) throws -> Void,
                              register: Register, particulars: Particulars, today: CalendarDate,
                              layout: Labels.Layout?, sheet: Labels.Sheet, printedAt: String = Timestamp.now(),
                              to write: (String) throws -> Void) throws {
        let scheme = particulars.organisation.colourCode
        var writer = Labels.PageWriter(layout: layout, sheet: sheet)
        var held: [RegisterRow] = []
        held.reserveCapacity(sheet.perSheet)
        // Both closures are called only while this function runs.
        try withoutActuallyEscaping(write) { write in
            func writeHeld() throws {
                let tests = try lastTests(held, in: register)
                for row in held {
                    let item = Labels.Item(row: row, particulars: particulars, today: today, scheme: scheme,
                                           lastTest: tests[row.asset.uuid])
                    try write(writer.label(item, qr: { QREncoder.matrix($0) }))
                }
                held.removeAll(keepingCapacity: true)
            }
            try write(Labels.PageWriter.head(count: count, sheet: sheet, printedAt: printedAt))
            try forEachRow { row in
                held.append(row)
                if held.count == sheet.perSheet { try writeHeld() }
            }
            try writeHeld()
            try write(writer.tail())
        }
    }

    /// The labels of `rows` (in the order given) as a PDF of A4 sheets at the stationery's geometry, with vector
    /// QR codes; an electrical item gets its test tag or DANGER tag as on the page. Dated `today`: the same
    /// labels on the same day give the same bytes.
    public static func pdf(_ rows: [RegisterRow], register: Register, particulars: Particulars, today: CalendarDate,
                           layout: Labels.Layout?, sheet: Labels.Sheet) throws -> [UInt8] {
        let tests = try lastTests(rows, in: register)
        let scheme = particulars.organisation.colourCode
        let labels = rows.map { row in
            Labels.Printed(Labels.Item(row: row, particulars: particulars, today: today, scheme: scheme,
                                       lastTest: tests[row.asset.uuid]),
                           requested: layout, sheet: sheet, qr: { QREncoder.matrix($0) })
        }
        return try LabelSheetPDF.render(labels, sheet: sheet, title: "Labels, \(sheet.name) — \(rows.count) label"
                                            + (rows.count == 1 ? "" : "s"), created: "\(today.iso)T00:00:00Z")
    }

    /// The latest test of each electrical item among `rows`, read from the register (none: nothing is read).
    public static func lastTests(_ rows: [RegisterRow], in register: Register) throws(RegisterError)
        -> [UUID: StoredTest] {
        let electrical = Set(rows.lazy.filter(\.asset.isElectrical).map(\.asset.uuid))
        return electrical.isEmpty ? [:] : try register.latestTests(of: electrical)
    }

    /// The QR code an asset's history shows: its label's payload, at error correction L (the screen is not
    /// scuffed, and a smaller code fits more terminals).
    public static func screenCode(_ row: RegisterRow, today: CalendarDate) -> QRMatrix? {
        QREncoder.matrix(LabelPayload(tag: row.asset.tag, due: row.status(on: today).nextDue).text, correction: .low)
    }

    /// The folder `L` writes into: `Documents/Labels` of the data home.
    public static func folder(_ home: DataHome) -> String { home.documents + "/Labels" }

    /// Writes the labels of `rows` into `Documents/Labels/labels-<when>.html` (private, like every file of the
    /// home) and returns its path. `when` is the local time to the second, with a counter on a clash (-2, -3, …):
    /// the name is taken exclusively, so two terminals writing in the same second each keep their own file.
    public static func write(_ rows: [RegisterRow], particulars: Particulars, today: CalendarDate, home: DataHome,
                             layout: Labels.Layout? = nil, sheet: Labels.Sheet = .small,
                             lastTests: [UUID: StoredTest] = [:], now: Date = Date()) throws -> String {
        let folder = folder(home)
        try DataHome.makePrivateDirectory(folder)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let stem = "labels-" + formatter.string(from: now)
        let html = page(rows, particulars: particulars, today: today, layout: layout, sheet: sheet,
                        lastTests: lastTests)
        return try AtomicFile.createNew(in: folder, named: { $0 == 0 ? stem + ".html" : stem + "-\($0 + 1).html" }) {
            try $0.write(contentsOf: Data(html.utf8))
        }
    }
}
