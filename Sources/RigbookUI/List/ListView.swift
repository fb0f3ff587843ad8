import RigbookCore
import Synchronization

/// How each status looks: colour for those who have it, words for everyone.
public enum StatusStyle {
    public static func of(_ status: AssetStatus) -> Style {
        switch status {
        case .doNotUse: Style(colour: .red, bold: true, reverse: true)
        case .overdue: Style(colour: .red, bold: true)
        case .remedyBy: Style(colour: .yellow, bold: true)
        case .quarantined: Style(colour: .magenta, bold: true)
        case .dueSoon: Style(colour: .yellow)
        case .untested: Style(colour: .cyan)
        case .ok: Style(colour: .green)
        case .withdrawn, .retired: Style(dim: true)
        }
    }
}

extension StatusStyle {
    public static func of(_ colour: LabelColour) -> Colour {
        switch colour {
        case .red: .red
        case .yellow: .yellow
        case .green: .green
        case .blue: .blue
        }
    }
}

struct ListColumn: Equatable, Sendable {
    enum ID {
        case tag, draft, name, type, wll, persons, site, location, serial, manufacturer, lastExam, nextDue, status
        /// The colour code, as a word in its colour, when the register uses one.
        case colour
    }
    var id: ID
    var title: String
    var width: Int
    var alignRight = false

    /// The tag's marks (draft, interval flag) sit in the gap after it: no separator of their own.
    var gap: Int { id == .tag ? 0 : 1 }

    /// What the widest value of each growing column needs (display columns, at most `cap`).
    struct ContentWidths: Sendable, Equatable {
        static let cap = 24
        var name = cap
        var type = 16
        var location = cap
        /// 0: no site column (the register has one site).
        var site = 0
        var serial = cap
        var manufacturer = cap
        /// The widest WLL as the list writes it ("1024 kg", "12.25 t"): a limit is never cut to fit.
        var wll = 6
        /// Some asset lifts persons: the column that marks them is worth its room.
        var liftsPersons = false
        /// The register uses a colour code: a column for it after the status.
        var colourCode = false
    }
}

/// Draws the register list. Only the rows on screen are formatted, so the cost of a frame does not
/// grow with the register.
enum ListView {
    /// Title, counts, column headings and footer.
    static let chromeHeight = 4

    /// From this width on, serial numbers and manufacturers have columns of their own.
    static let wideWidth = 120

    /// Columns that fit in `width`, least important dropped first. Spare room goes first to location and site,
    /// so they are never cut while the name has room to spare, then to the name, then to the other columns.
    static func columns(width: Int, tagWidth: Int = 9, content: ListColumn.ContentWidths = .init()) -> [ListColumn] {
        var columns: [ListColumn] = [
            ListColumn(id: .tag, title: "TAG", width: tagWidth),
            ListColumn(id: .draft, title: "", width: 1),
            ListColumn(id: .name, title: "NAME", width: min(10, max(4, width - tagWidth - 14))),
            ListColumn(id: .type, title: "TYPE", width: 8),
            ListColumn(id: .wll, title: "WLL", width: max(6, content.wll), alignRight: true),
        ]
        if content.liftsPersons { columns.append(ListColumn(id: .persons, title: "P", width: 1)) }
        if content.site > 0 { columns.append(ListColumn(id: .site, title: "SITE", width: min(8, content.site))) }
        columns.append(ListColumn(id: .location, title: "LOCATION", width: 8))
        if width >= wideWidth {
            if content.serial > 0 {
                columns.append(ListColumn(id: .serial, title: "SERIAL", width: min(8, content.serial)))
            }
            if content.manufacturer > 0 {
                columns.append(ListColumn(id: .manufacturer, title: "MAKER", width: min(8, content.manufacturer)))
            }
        }
        columns += [
            ListColumn(id: .lastExam, title: "LAST EXAM", width: 10),
            ListColumn(id: .nextDue, title: "NEXT DUE", width: 10),
            ListColumn(id: .status, title: "STATUS", width: 11),
        ]
        if content.colourCode { columns.append(ListColumn(id: .colour, title: "CODE", width: 6)) }
        let dropOrder: [ListColumn.ID] = [.lastExam, .manufacturer, .serial, .type, .site, .location, .wll, .persons,
                                          .nextDue]
        func total(_ cs: [ListColumn]) -> Int { cs.reduce(0) { $0 + $1.width + $1.gap } - 1 }
        for id in dropOrder where total(columns) > width {
            columns.removeAll { $0.id == id }
        }
        var spare = width - total(columns)
        func grow(_ id: ListColumn.ID, to wanted: Int) {
            guard spare > 0, let index = columns.firstIndex(where: { $0.id == id }) else { return }
            let growth = min(spare, wanted - columns[index].width)
            if growth > 0 { columns[index].width += growth; spare -= growth }
        }
        grow(.location, to: content.location)
        grow(.site, to: content.site)
        grow(.name, to: min(content.name, ListColumn.ContentWidths.cap))
        grow(.type, to: content.type)
        grow(.serial, to: content.serial)
        grow(.manufacturer, to: content.manufacturer)
        grow(.name, to: Int.max)
        return columns
    }

    /// `memoized`: rows drawn before from equal inputs are copied from the list's memos (false: every row
    /// formatted, for tests).
    static func draw(_ list: ListState, into frame: inout Frame, area: Rect, memoized: Bool = true) {
        // Whole rows only: a list drawn into part of the screen is drawn row by row.
        let memo = memoized && area.x == 0 && area.y == 0 && area.width == frame.width ? list.memos : nil
        list.memos.title.row(0, key: TitleKey(list, width: area.width), in: &frame, enabled: memo != nil) { frame in
            drawTitle(list, into: &frame, area: area)
        }
        if list.loaded && list.assetCount == 0 {
            drawWelcome(list, into: &frame, area: area)
            drawFooter(list, into: &frame, area: area, memo: memo)
            return
        }
        // The counts and the headings have their rows only above the footer's: on a terminal of 2 or 3 rows the
        // footer, drawn over them, left the end of a longer line standing beside it (a stray "N" at 10×3).
        if area.height > 2 {
            let key = CountsKey(counts: list.shownCounts ?? list.counts, flagged: list.flaggedIntervals,
                                width: area.width)
            list.memos.counts.row(1, key: key, in: &frame, enabled: memo != nil) { frame in
                drawCounts(list, into: &frame, area: area)
            }
        }
        let columns = list.memos.columns.columns(width: area.width, tagWidth: list.tagWidth,
                                                 content: list.contentWidths)
        if area.height > 3 {
            list.memos.headings.row(2, key: columns, in: &frame, enabled: memo != nil) { frame in
                var x = 0
                for column in columns {
                    if column.id != .draft {
                        frame.put(column.title.padded(toWidth: column.width, alignRight: column.alignRight),
                                  x: x, y: 2, in: area, style: .bold)
                    }
                    x += column.width + column.gap
                }
            }
        }
        let page = ListState.pageSize(area)
        let first = list.top
        let last = min(list.visibleCount, first + page)
        if list.visibleCount == 0 && !list.query.isEmpty {
            let unknown = list.unknownStatusWords.map { "is:\($0)" }.joined(separator: ", ")
            let text = unknown.isEmpty ? "  No asset matches “\(list.query)”. Esc clears the filter."
                : "  No asset matches: no status is called \(unknown). Statuses: \(FilterQuery.statusWords)"
            frame.put(text, x: 0, y: 3, in: area, style: .dim)
        }
        let hasSite = columns.contains { $0.id == .site }
        let scheme = list.particulars.organisation.colourCode
        for position in first..<max(first, last) where list.holdsRow(visible: position) {
            drawListRow(list, position: position, y: 3 + position - first, columns: columns, hasSite: hasSite,
                        scheme: scheme, area: area, memo: memo, into: &frame)
        }
        drawFooter(list, into: &frame, area: area, memo: memo)
    }

    /// The list's row at visible `position`, drawn at `y`: copied from the memo when it holds the row, else formatted
    /// (and kept). The memo keeps rows without the selection bar (`drawSelection`), so a ↓ copies the two rows it
    /// moves between and turns the bar over, instead of formatting them again.
    static func drawListRow(_ list: ListState, position: Int, y: Int, columns: [ListColumn], hasSite: Bool,
                            scheme: ColourCodeScheme, area: Rect, memo: ListMemos?, into frame: inout Frame) {
        let index = list.rowIndex(visible: position)
        let uuid = list.rows[index].asset.uuid
        let site = hasSite ? list.siteName(of: list.rows[index].asset) : ""
        let marked = !list.marks.isEmpty && list.marks.contains(uuid)
        defer { if position == list.selection { drawSelection(columns: columns, y: y, in: area, &frame) } }
        // A row of the same version of the rows is looked up without copying it (nearly every row of a ↓).
        if let memo = memo?.rows, y < area.height,
           let cells = memo.cells(uuid: uuid, version: list.rowsVersion, index: index, site: site,
                                  columns: columns, scheme: scheme, marked: marked, width: area.width),
           frame.placeLine(cells, y: y) { return }
        let row = list.rows[index]
        let inputs = ListRowInputs(row: row, report: list.reports[index], version: list.rowsVersion, index: index,
                                   site: site, columns: columns, scheme: scheme, marked: marked,
                                   width: area.width)
        if let memo = memo?.rows, y < area.height, let cells = memo.cells(for: inputs), frame.placeLine(cells, y: y) {
            return
        }
        drawRow(row, report: inputs.report, site: { inputs.site }, columns: columns, y: y, in: area, into: &frame,
                scheme: scheme)
        if inputs.marked { drawMark(columns: columns, y: y, in: area, &frame) }
        if let memo = memo?.rows, y < area.height, let cells = frame.lineCells(y) { memo.keep(cells, for: inputs) }
    }

    /// Everything the title row is drawn from (`drawTitle`).
    struct TitleKey: Equatable, Sendable {
        var assets: Int
        var readOnly: Bool
        var drafts: Int
        var query: String
        var shown: Int
        var marked: Int
        var sync: String?
        var today: CalendarDate
        var width: Int

        init(_ list: ListState, width: Int) {
            assets = list.assetCount
            readOnly = list.readOnly
            drafts = list.draftCount + list.batchDrafts.count
            query = list.query
            shown = list.query.isEmpty ? 0 : list.visibleCount
            marked = list.marks.count
            sync = list.syncHeader
            today = list.today
            self.width = width
        }
    }

    /// Everything the counts row is drawn from (`drawCounts`).
    struct CountsKey: Equatable, Sendable {
        var counts: [AssetStatus: Int]
        var flagged: Int
        var width: Int
    }

    struct FooterKey: Equatable, Sendable {
        var query: String
        var width: Int
    }

    static func drawRow(_ row: RegisterRow, report: StatusReport, site: () -> String, columns: [ListColumn], y: Int,
                        in area: Rect, into frame: inout Frame, scheme: ColourCodeScheme = .none) {
        var x = 0
        for column in columns {
            let text: String
            var style = Style.plain
            switch column.id {
            case .tag: text = row.asset.tag
            case .draft:
                // The draft mark, else "!" for an interval longer than LOLER reg 9(3) allows without a scheme.
                text = row.hasDraft ? "✎" : row.asset.intervalExceedsLOLER ? "!" : ""
                style = Style(colour: row.hasDraft ? .yellow : .red, bold: true)
            case .name: text = row.asset.name
            case .type: text = row.asset.typeLabel
            case .wll: text = row.asset.isElectrical ? "—" : Asset.wllText(row.asset.wllKg)
            case .location: text = row.asset.location
            case .site: text = site()
            case .serial: text = row.asset.serialNumber
            case .manufacturer: text = row.asset.manufacturer
            case .persons:
                // Equipment that lifts persons: examined at least every 6 months (LOLER reg 9(3)).
                text = row.asset.liftsPersons ? "P" : ""
                style = Style(colour: .magenta, bold: true)
            case .lastExam: text = row.summary.lastThoroughDate?.iso ?? "—"
            case .nextDue:
                text = report.due.text
            case .status:
                text = report.status.label
                style = StatusStyle.of(report.status)
            case .colour:
                // A word, so NO_COLOR and colour-blind users read it; the colour only adds to it.
                let colour = scheme.colour(for: row, report: report)
                text = colour?.word ?? ""
                style = Style(colour: colour.map(StatusStyle.of) ?? .normal, bold: true)
            }
            // The column's blanks are plain, whatever its text's style: a coloured blank looks like any other,
            // except in the selection bar, where reverse video turns it into a block of colour, and it costs the
            // terminal two changes of style.
            frame.fill(y: y, in: area, x: x, count: column.width, style: .plain)
            if !frame.putASCIIColumn(text, x: x, y: y, in: area, width: column.width, style: style,
                                     alignRight: column.alignRight) {
                // Cut what will be drawn (control characters made visible), so "…" marks every cut.
                let shown = VisibleText.make(text).truncated(toWidth: column.width)
                let indent = column.alignRight ? max(0, column.width - shown.displayWidth) : 0
                frame.put(shown, x: x + indent, y: y, in: area, style: style, maxWidth: column.width - indent)
            }
            x += column.width + column.gap
        }
    }

    /// A marked asset (for a batch) shows • in the mark column after its tag, over a draft mark.
    /// The selection bar: the selected row's tag in reverse video. Not the whole row: a ↓ then rewrites two tags,
    /// not two rows of text, which is most of what goes down an SSH link per key (about 45 bytes, not 175 or more).
    static func drawSelection(columns: [ListColumn], y: Int, in area: Rect, _ frame: inout Frame) {
        let width = columns.first { $0.id == .tag }?.width ?? area.width
        frame.restyle(y: y, in: area, count: width) { $0.reverse.toggle() }
    }

    static func drawMark(columns: [ListColumn], y: Int, in area: Rect, _ frame: inout Frame) {
        guard let tag = columns.first(where: { $0.id == .tag }), columns.contains(where: { $0.id == .draft }) else {
            return
        }
        frame.put("•", x: tag.width, y: y, in: area, style: Style(colour: .cyan, bold: true))
    }

    static func drawTitle(_ list: ListState, into frame: inout Frame, area: Rect) {
        frame.fill(y: 0, in: area, style: .reverse)
        var title = " Rigbook  " + (list.readOnly ? "READ ONLY  " : "")
            + "\(list.assetCount) asset\(list.assetCount == 1 ? "" : "s")"
        let drafts = list.draftCount + list.batchDrafts.count
        if drafts > 0 { title += "  ✎ \(drafts) draft\(drafts == 1 ? "" : "s")" }
        if !list.query.isEmpty {
            // Waiting for a large register's index, the list shows every asset: none of them is the filter's.
            title += list.filterWaiting ? "  filter: waiting for its index" : "  filter: \(list.visibleCount) shown"
        }
        if !list.marks.isEmpty { title += "  • \(list.marks.count) marked" }
        // On the right, each only when the counts fit beside it (the counts matter more): the sync's state,
        // then the date, which goes first when there is no room for both.
        let sync = list.syncHeader.map { $0 + "  " } ?? ""
        var right = sync + list.today.iso + " "
        if area.width < title.displayWidth + right.displayWidth + 1 { right = sync.isEmpty ? "" : sync }
        if area.width < title.displayWidth + right.displayWidth + 1 { right = "" }
        let rightWidth = right.displayWidth
        frame.put(title, x: 0, y: 0, in: area, style: .reverse,
                  maxWidth: rightWidth > 0 ? area.width - rightWidth - 1 : area.width)
        if rightWidth > 0 { frame.put(right, x: area.width - rightWidth, y: 0, in: area, style: .reverse) }
    }

    static func drawCounts(_ list: ListState, into frame: inout Frame, area: Rect) {
        var x = 1
        // With a filter, the counts are of what it shows.
        let counts = list.shownCounts ?? list.counts
        for status in AssetStatus.allCases {
            let count = counts[status] ?? 0
            guard count > 0 else { continue }
            let number = "\(count) "
            if x + number.count + status.label.count > area.width - 2 {
                // Say that more statuses are counted than fit.
                frame.put("…", x: min(x, area.width - 1), y: 1, in: area)
                break
            }
            x += frame.put(number, x: x, y: 1, in: area)
            x += frame.put(status.label, x: x, y: 1, in: area, style: StatusStyle.of(status))
            x += 2
        }
        let flagged = list.flaggedIntervals
        let note = "! \(flagged) interval\(flagged == 1 ? "" : "s") over LOLER 9(3)"
        if flagged > 0 && x + note.count < area.width - 1 {
            frame.put(note, x: x, y: 1, in: area, style: Style(colour: .red, bold: true))
        }
    }

    static func drawWelcome(_ list: ListState, into frame: inout Frame, area: Rect) {
        var lines: [(String, Style)] = [
            ("The register is empty.", .bold),
            ("", .plain),
            ("Press u to set up this register: the employer,", .plain),
            ("site and examiner every report names (needed", .plain),
            ("before the first thorough examination is saved).", .plain),
            ("", .plain),
            ("Press S to load sample data (\(list.sampleSize) assets with years", .plain),
            ("of history: lifting equipment and its inspections,", .plain),
            ("electrical items and their tests) and look around.", .plain),
            ("", .plain),
            ("Press a to add an asset, or from a shell:", .plain),
            ("  rigbook asset add --tag SL-0042 \\", .plain),
            ("    --name \"2 t web sling 3 m\" --type web-sling \\", .plain),
            ("    --wll 2000 --interval 6", .plain),
            ("", .plain),
            ("? shows the keys, q quits.", .dim),
        ]
        // A short terminal loses the blank lines first, so every way to start still shows.
        if lines.count > area.height - 3 { lines.removeAll { $0.0.isEmpty } }
        let top = max(1, (area.height - lines.count) / 2)
        let widest = lines.map { $0.0.displayWidth }.max() ?? 0
        let left = max(1, (area.width - widest) / 2)
        for (offset, line) in lines.enumerated() where top + offset < area.height - 1 {
            frame.put(line.0, x: left, y: top + offset, in: area, style: line.1)
        }
    }

    static func drawFooter(_ list: ListState, into frame: inout Frame, area: Rect, memo: ListMemos? = nil) {
        let y = area.height - 1
        guard y > 0 else { return }
        if let scan = list.scan {
            scan.draw(into: &frame, area: area, y: y, hint: ListState.scanKeymap.hint)
            return
        }
        if list.editingFilter {
            let prompt = "/" + list.query
            let used = frame.put(prompt, x: 0, y: y, in: area, style: .bold)
            frame.cursor = (area.x + min(used, area.width - 1), area.y + y)
            let hint = "  " + (list.filterWaiting ? ListState.waitingHint : ListState.filterKeymap.hint)
            if used + hint.displayWidth < area.width { frame.put(hint, x: used, y: y, in: area, style: .dim) }
            return
        }
        if list.filterWaiting {
            let used = frame.put("/\(list.query)  ", x: 0, y: y, in: area, style: .bold)
            frame.put(ListState.waitingHint, x: used, y: y, in: area, style: .dim)
            return
        }
        let key = FooterKey(query: list.query, width: area.width)
        list.memos.footerRow.row(y, key: key, in: &frame, enabled: memo != nil) { frame in
            var prefix = ""
            if !list.query.isEmpty { prefix = "/\(list.query)  " }
            frame.put(prefix, x: 0, y: y, in: area, style: .bold)
            frame.put(list.memos.footer.footer(width: area.width - prefix.displayWidth),
                      x: prefix.displayWidth, y: y, in: area, style: .dim)
        }
    }
}
