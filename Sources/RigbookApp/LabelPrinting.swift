import Foundation
import RigbookCore
import RigbookQR
import RigbookStore

/// Labels as files (issue 16): the page `rigbook labels` prints and `L` on the list writes, with QR codes from
/// `QREncoder`. Shared by the command line and the session, so both print the same label for the same asset.
public enum LabelPrinting {
    /// The labels page for `rows` (in the order given).
    public static func page(_ rows: [RegisterRow], particulars: Particulars, today: CalendarDate,
                            layout: Labels.Layout, sheet: Labels.Sheet, printedAt: String = Timestamp.now()) -> String {
        let scheme = particulars.organisation.colourCode
        let items = rows.map { Labels.Item(row: $0, particulars: particulars, today: today, scheme: scheme) }
        return Labels.render(items, layout: layout, sheet: sheet, qr: { QREncoder.matrix($0) }, printedAt: printedAt)
    }

    /// The QR code an asset's history shows: its label's payload, at error correction L (the screen is not
    /// scuffed, and a smaller code fits more terminals).
    public static func screenCode(_ row: RegisterRow, today: CalendarDate) -> QRMatrix? {
        QREncoder.matrix(LabelPayload(tag: row.asset.tag, due: row.status(on: today).nextDue).text, correction: .low)
    }

    /// The folder `L` writes into: `Documents/Labels` of the data home.
    public static func folder(_ home: DataHome) -> String { home.documents + "/Labels" }

    /// Writes the labels of `rows` into `Documents/Labels/labels-<when>.html` (private, like every file of the
    /// home) and returns its path. `when` is the local time to the second, with a counter on a clash.
    public static func write(_ rows: [RegisterRow], particulars: Particulars, today: CalendarDate, home: DataHome,
                             layout: Labels.Layout = .card, sheet: Labels.Sheet = .small,
                             now: Date = Date()) throws -> String {
        let folder = folder(home)
        try DataHome.makePrivateDirectory(folder)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let stem = folder + "/labels-" + formatter.string(from: now)
        var path = stem + ".html"
        var counter = 2
        while FileManager.default.fileExists(atPath: path) {
            path = stem + "-\(counter).html"
            counter += 1
        }
        let html = page(rows, particulars: particulars, today: today, layout: layout, sheet: sheet)
        try AtomicFile.write(Data(html.utf8), to: path)
        return path
    }
}
