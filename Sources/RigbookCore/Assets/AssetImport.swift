import Foundation

/// CSV as spreadsheets write it: UTF-8 with or without a byte order mark, lines ending in
/// CRLF, LF or CR, fields quoted when they hold commas, quotes or line breaks, quotes doubled inside.
public enum CSVText {
    public struct Record: Sendable, Equatable {
        /// The line of the file the record starts on (1: the header).
        public var line: Int
        public var fields: [String]
    }

    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { "line \(line): \(message)" }
    }

    /// Every record of `text`, blank lines left out.
    public static func records(_ text: String) -> Result<[Record], Failure> {
        var scalars = Array(text.unicodeScalars)
        if scalars.first == "\u{FEFF}" { scalars.removeFirst() }
        var records: [Record] = []
        var fields: [String] = []
        var field = String.UnicodeScalarView()
        var line = 1, recordLine = 1
        var i = 0
        var quotedField = false
        func endRecord() {
            fields.append(String(field))
            field = String.UnicodeScalarView()
            // A blank line is one empty unquoted field: not a record.
            if !(fields.count == 1 && fields[0].isEmpty && !quotedField) {
                records.append(Record(line: recordLine, fields: fields))
            }
            fields = []
            quotedField = false
        }
        while i < scalars.count {
            let c = scalars[i]
            if c == "\"" && field.isEmpty && !quotedField {
                quotedField = true
                i += 1
                var closed = false
                while i < scalars.count {
                    let q = scalars[i]
                    if q == "\"" {
                        if i + 1 < scalars.count && scalars[i + 1] == "\"" { field.append("\""); i += 2; continue }
                        closed = true
                        i += 1
                        break
                    }
                    if q == "\n" || (q == "\r" && !(i + 1 < scalars.count && scalars[i + 1] == "\n")) { line += 1 }
                    field.append(q)
                    i += 1
                }
                guard closed else {
                    return .failure(Failure(line: recordLine, message: "a quoted field is never closed"))
                }
                if i < scalars.count, !",\r\n".unicodeScalars.contains(scalars[i]) {
                    return .failure(Failure(line: line, message: "text after a closing quote"))
                }
                continue
            }
            switch c {
            case ",":
                fields.append(String(field))
                field = String.UnicodeScalarView()
                quotedField = false
            case "\r", "\n":
                if c == "\r", i + 1 < scalars.count, scalars[i + 1] == "\n" { i += 1 }
                endRecord()
                line += 1
                recordLine = line
            default:
                field.append(c)
            }
            i += 1
        }
        if !field.isEmpty || !fields.isEmpty || quotedField { endRecord() }
        return .success(records)
    }

    /// A spreadsheet's formula guard taken off: `'=SUM(…)` was written for `=SUM(…)` (see `CSV.field`).
    public static func unguarded(_ cell: String) -> String {
        guard cell.unicodeScalars.first == "'", cell.unicodeScalars.count > 1 else { return cell }
        let second = cell.unicodeScalars[cell.unicodeScalars.index(after: cell.unicodeScalars.startIndex)]
        return "=+-@\t\r".unicodeScalars.contains(second) ? String(cell.unicodeScalars.dropFirst()) : cell
    }
}

/// Reading a client's spreadsheet of assets (`rigbook import FILE.csv`): the columns of
/// `asset list --format csv`, every row checked as `asset add` checks it.
public enum AssetImport {
    /// A reason the import cannot go ahead: where (`line 37, wll_kg`) and why.
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        public var line: Int?
        public var column: String?
        public var message: String

        public init(line: Int?, column: String? = nil, _ message: String) {
            self.line = line
            self.column = column
            self.message = message
        }

        public var description: String {
            let place = [line.map { "line \($0)" }, column].compactMap { $0 }.joined(separator: ", ")
            return place.isEmpty ? message : "\(place): \(message)"
        }
    }

    /// One good row: the asset it makes, with the line it came from.
    public struct Row: Sendable {
        public var line: Int
        public var asset: Asset
    }

    /// The columns that make an asset: its fields as `asset list --format csv` names them (`AssetField.added`), its
    /// uuid and its kind (an electrical asset's row says `electrical`; empty or `lifting`: lifting equipment).
    public static let columns = AssetField.added.map(\.rawValue) + ["uuid", "kind"]
    /// Computed from the register, so an export can be imported as it is: read past, never trusted.
    public static let ignoredColumns = ["last_thorough_examination", "latest_result", "next_due", "remedy_deadline",
                                        "status"]
    public static let requiredColumns = ["tag", "name", "type", "wll_kg"]

    /// The column a field of the add screen is read from, which its problems name (`line 37, wll_kg: …`): the one
    /// of its name, or with its unit.
    public static func columnName(_ field: Asset.Field) -> String {
        switch field {
        case .wll: "wll_kg"
        case .length: "length_m"
        case .serial: "serial_number"
        case .interval: "interval_months"
        default: columns.first { $0.replacingOccurrences(of: "_", with: "") == "\(field)".lowercased() } ?? "\(field)"
        }
    }

    /// Every problem found: nothing may be imported.
    public struct Problems: Error, Sendable, Equatable {
        public var items: [Problem]

        public init(items: [Problem]) { self.items = items }
    }

    /// The good rows, or every problem found (then nothing may be imported).
    public static func parse(_ text: String, today: CalendarDate) -> Result<[Row], Problems> {
        let records: [CSVText.Record]
        switch CSVText.records(text) {
        case .success(let found): records = found
        case .failure(let failure): return .failure(Problems(items: [Problem(line: failure.line, failure.message)]))
        }
        guard let header = records.first else {
            return .failure(Problems(items: [Problem(line: nil, "the file is empty")]))
        }
        var problems: [Problem] = []
        let names = header.fields.map { CSVText.unguarded($0).trimmingCharacters(in: .whitespaces).lowercased() }
        let known = Set(columns + ignoredColumns)
        let unknown = names.filter { !known.contains($0) }
        if !unknown.isEmpty {
            problems.append(Problem(line: header.line, "unknown column\(unknown.count == 1 ? "" : "s") "
                                    + unknown.map { "'\($0)'" }.joined(separator: ", ")
                                    + "; the columns are those of `rigbook asset list --format csv`"))
        }
        for name in Set(names) where names.filter({ $0 == name }).count > 1 {
            problems.append(Problem(line: header.line, "the column '\(name)' is named twice"))
        }
        // A spreadsheet with a kind column may hold electrical assets only: type and WLL are then asked per row.
        let missing = requiredColumns.filter { !names.contains($0) && !(names.contains("kind") && $0 != "tag"
                                                                           && $0 != "name") }
        if !missing.isEmpty {
            problems.append(Problem(line: header.line, "missing column\(missing.count == 1 ? "" : "s") "
                                    + missing.joined(separator: ", ")))
        }
        guard problems.isEmpty else { return .failure(Problems(items: problems)) }
        let index = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        var rows: [Row] = []
        rows.reserveCapacity(records.count - 1)
        var tags = TakenTags<Int>()
        var uuids: [UUID: Int] = [:]
        for record in records.dropFirst() {
            guard record.fields.count == names.count else {
                problems.append(Problem(line: record.line, "\(record.fields.count) fields where the header has "
                                        + "\(names.count)"))
                continue
            }
            // Every asset field is one line: a line break typed in a cell becomes a space, as a paste's does.
            func cell(_ name: String) -> String {
                guard let column = index[name] else { return "" }
                let text = CSVText.unguarded(record.fields[column])
                guard text.unicodeScalars.contains(where: { $0 == "\n" || $0 == "\r" }) else { return text }
                return text.replacingOccurrences(of: "\r\n", with: " ").replacingOccurrences(of: "\n", with: " ")
                    .replacingOccurrences(of: "\r", with: " ")
            }
            let (asset, rowProblems) = asset(cell, line: record.line, today: today)
            problems += rowProblems
            guard let asset else { continue }
            if let (clash, first) = tags.clash(with: asset.tag) {
                let refusal = if case .same = clash { "\(asset.tag) is also on line \(first)" }
                    else { clash.refusal(of: asset.tag, place: "on line \(first)") }
                problems.append(Problem(line: record.line, column: "tag", refusal))
            } else { tags.insert(asset.tag, holder: record.line) }
            if let first = uuids[asset.uuid] {
                problems.append(Problem(line: record.line, column: "uuid", "the same uuid is on line \(first)"))
            } else { uuids[asset.uuid] = record.line }
            rows.append(Row(line: record.line, asset: asset))
        }
        return problems.isEmpty ? .success(rows) : .failure(Problems(items: problems))
    }

    /// One row's asset through `AssetDraft`, the add screen's checks, or its problems.
    private static func asset(_ cell: (String) -> String, line: Int,
                              today: CalendarDate) -> (Asset?, [Problem]) {
        var problems: [Problem] = []
        var draft = AssetDraft()
        draft.tag = cell("tag")
        draft.name = cell("name")
        draft.clientRef = cell("client_ref")
        let kindText = cell("kind").trimmingCharacters(in: .whitespaces).lowercased()
        if kindText == "electrical" {
            return electricalAsset(cell, draft: draft, line: line, today: today)
        } else if !kindText.isEmpty && kindText != "lifting" {
            problems.append(Problem(line: line, column: "kind", "unknown kind '\(kindText)'; lifting or electrical"))
        }
        let typeText = cell("type").trimmingCharacters(in: .whitespaces)
        if let type = EquipmentType.allCases.first(where: {
            $0.rawValue == typeText.lowercased() || $0.label.lowercased() == typeText.lowercased()
        }) {
            draft.type = type
        } else {
            problems.append(Problem(line: line, column: "type", typeText.isEmpty ? "the type is empty"
                                    : "unknown type '\(typeText)'; one of "
                                    + EquipmentType.allCases.map(\.rawValue).joined(separator: " ")))
        }
        draft.wllKg = cell("wll_kg")
        draft.lengthM = cell("length_m")
        draft.location = cell("location")
        draft.manufacturer = cell("manufacturer")
        draft.serialNumber = cell("serial_number")
        draft.manufactured = cell("manufactured")
        draft.commissioned = cell("commissioned")
        draft.intervalMonths = cell("interval_months")
        draft.examinationScheme = cell("examination_scheme")
        switch cell("lifts_persons").trimmingCharacters(in: .whitespaces).lowercased() {
        case "", "false", "no", "n", "0": draft.liftsPersons = false
        case "true", "yes", "y", "1": draft.liftsPersons = true
        case let other: problems.append(Problem(line: line, column: "lifts_persons", "'\(other)' is not true or false"))
        }
        return made(draft, uuid: cell("uuid"), problems: problems, line: line, today: today)
    }

    /// The asset a row's draft makes under the row's uuid (a new one when empty), or every problem of the row:
    /// those found reading its cells (`problems`) and the add screen's checks.
    private static func made(_ draft: AssetDraft, uuid uuidText: String, problems: [Problem], line: Int,
                             today: CalendarDate) -> (Asset?, [Problem]) {
        var problems = problems
        let uuidText = uuidText.trimmingCharacters(in: .whitespaces)
        let uuid = uuidText.isEmpty ? UUID() : UUID(uuidString: uuidText)
        if uuid == nil { problems.append(Problem(line: line, column: "uuid", "'\(uuidText)' is not a uuid")) }
        switch draft.validated(today: today) {
        case .success(var asset) where problems.isEmpty:
            asset.uuid = uuid ?? asset.uuid
            return (asset, [])
        case .success: break
        case .failure(let failure):
            problems += failure.items.map { Problem(line: line, column: columnName($0.0), $0.1) }
        }
        return (nil, problems)
    }

    /// An electrical asset from its cells by column name (tag, name, location, equipment_class, environment,
    /// interval_months…), checked as a row of this import is: for an import of tests that adds the assets it names.
    public static func electricalAsset(_ cells: [String: String], line: Int,
                                       today: CalendarDate) -> (Asset?, [Problem]) {
        var draft = AssetDraft()
        draft.tag = cells["tag"] ?? ""
        draft.name = cells["name"] ?? ""
        return electricalAsset({ cells[$0] ?? "" }, draft: draft, line: line, today: today)
    }

    /// An electrical asset's row: tag, name, location (its site), equipment_class, environment, risk,
    /// interval_months, interval_reason, commissioned, uuid; type and WLL may be empty (or `other`, 0).
    private static func electricalAsset(_ cell: (String) -> String, draft start: AssetDraft, line: Int,
                                        today: CalendarDate) -> (Asset?, [Problem]) {
        var problems: [Problem] = []
        var draft = start
        draft.kind = .electrical
        let classText = cell("equipment_class")
        if let value = ElectricalClass(word: classText) { draft.equipmentClass = value } else {
            problems.append(Problem(line: line, column: "equipment_class",
                                    "unknown equipment class '\(classText)'; one of "
                                    + ElectricalClass.allCases.map(\.rawValue).joined(separator: " ")))
        }
        let environmentText = cell("environment").trimmingCharacters(in: .whitespaces).lowercased()
        if let value = ElectricalEnvironment(rawValue: environmentText) { draft.environment = value } else {
            problems.append(Problem(line: line, column: "environment",
                                    "unknown environment '\(environmentText)'; one of "
                                    + ElectricalEnvironment.allCases.map(\.rawValue).joined(separator: " ")))
        }
        let riskText = cell("risk").trimmingCharacters(in: .whitespaces).lowercased()
        if let value = riskText.isEmpty ? .normal : ElectricalRisk(rawValue: riskText) { draft.risk = value } else {
            problems.append(Problem(line: line, column: "risk", "unknown risk '\(riskText)'; normal or high"))
        }
        for (name, allowed) in [("type", ["", "other"]), ("wll_kg", ["", "0"]), ("length_m", [""]),
                                ("manufactured", [""])] {
            let text = cell(name).trimmingCharacters(in: .whitespaces).lowercased()
            if !allowed.contains(text) {
                problems.append(Problem(line: line, column: name, "an electrical asset has no \(name)"))
            }
        }
        draft.location = cell("location")
        draft.commissioned = cell("commissioned")
        draft.intervalMonths = cell("interval_months")
        draft.intervalReason = cell("interval_reason")
        return made(draft, uuid: cell("uuid"), problems: problems, line: line, today: today)
    }
}
