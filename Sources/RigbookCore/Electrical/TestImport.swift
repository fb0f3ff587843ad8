import Foundation

/// Reading a PAT tester's export (`rigbook tests import FILE.csv`): the spreadsheet format PAT software documents,
/// its fixed columns by name and its Test/Result/Unit/Status groups by position. Each row becomes the test form's
/// values; the register's part (the asset, the instrument it remembers, the gate) is `Register.planTestImport`.
public enum TestImport {
    /// How the export writes its dates.
    public enum DateFormat: String, CaseIterable, Sendable {
        case iso = "YYYY-MM-DD"
        case dayFirst = "DD/MM/YYYY"
        case monthFirst = "MM/DD/YYYY"

        /// The date a cell holds, as `YYYY-MM-DD`; a time of day after it (`14/07/2026 10:32`, `2026-07-14T10:32:05`)
        /// is read past. Nil: not a real date in this format.
        public func iso(_ cell: String) -> String? {
            guard let (year, month, day) = parts(cell) else { return nil }
            return CalendarDate(year: year, month: month, day: day)?.iso
        }

        /// The year, month and day a cell writes in this format, real or not; nil when it is not written so.
        func parts(_ cell: String) -> (Int, Int, Int)? {
            let text = cell.trimmingCharacters(in: .whitespaces)
            let separators: Set<Character> = self == .iso ? [" ", "T"] : [" "]
            let day = String(text.prefix { !separators.contains($0) })
            let time = text.dropFirst(day.count)
            guard time.isEmpty || Self.isTimeOfDay(time.dropFirst()) else { return nil }
            let parts = day.split(separator: self == .iso ? "-" : "/", omittingEmptySubsequences: false)
            let widths = self == .iso ? [4, 2, 2] : [2, 2, 4]
            guard parts.count == 3, zip(parts, widths).allSatisfy({ part, width in
                (width == 4 ? part.count == 4 : (1...2).contains(part.count))
                    && part.allSatisfy { $0.isASCII && $0.isNumber }
            }), let a = Int(parts[0]), let b = Int(parts[1]), let c = Int(parts[2]) else { return nil }
            switch self {
            case .iso: return (a, b, c)
            case .dayFirst: return (c, b, a)
            case .monthFirst: return (c, a, b)
            }
        }

        /// `HH:MM` or `HH:MM:SS`, a real time of day.
        static func isTimeOfDay(_ text: Substring) -> Bool {
            let fields = text.split(separator: ":", omittingEmptySubsequences: false)
            guard (2...3).contains(fields.count),
                  fields.allSatisfy({ $0.count == 2 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
                  let hour = Int(fields[0]), let minute = Int(fields[1]) else { return false }
            return hour < 24 && minute < 60 && (fields.count == 2 || (Int(fields[2]) ?? 60) < 60)
        }

        /// Why a cell is not a date of this format, naming the formats it could be in.
        func problem(_ cell: String) -> String {
            let shown = "'\(VisibleText.make(cell.trimmingCharacters(in: .whitespaces)))'"
            if parts(cell) != nil { return "\(shown) is not a real date" }
            let others = Self.allCases.filter { $0 != self && $0.iso(cell) != nil }.map(\.rawValue)
            return "\(shown) is not a date written \(rawValue)" + (others.isEmpty ? ""
                : "; if the export writes \(others.joined(separator: " or ")), pass --date-format with it")
        }
    }

    public struct Options: Sendable {
        public var dateFormat: DateFormat = .iso
        /// For rows whose export has no licence or calibration date.
        public var licence = ""
        public var calibrated = ""
        /// The technician has noted an instrument calibrated over the warning period before a test.
        public var calibrationNoted = false
        public var testType: TestType = .periodic

        public init() {}
    }

    /// One row read: the form's values it gives, where it came from, and what the register part needs.
    public struct Row: Sendable {
        public var line: Int
        public var assetTag: String
        public var values: TestValues
        /// The tester's retest period, when the export gives one.
        public var retestMonths: Int?
        /// What the tester's own Status said of each reading: the register judges by its limits, and says where
        /// the two differ.
        public var testerSaid: [TestField: PassFail]
        /// For an asset `--add-assets` adds: the export's description, class and location, as given.
        public var description: String
        public var equipmentClass: String
        public var location: String
    }

    /// The fixed columns: the names each is exported under (folded: lower case, one space), the first being the
    /// documented one.
    enum Column: CaseIterable {
        case assetID, testDate, passFail, retest, person, instrument, instrumentSerial, calibrationDate, licence
        case comments, procedure, description, equipmentClass, location, site

        /// The name the format documents.
        var documented: String {
            switch self {
            case .assetID: "Asset Id"
            case .testDate: "Test Date"
            case .passFail: "Pass/Fail"
            case .person: "Person"
            default: names[0]
            }
        }

        var names: [String] {
            switch self {
            case .assetID: ["asset id", "asset no", "asset number", "appliance id"]
            case .testDate: ["test date", "last full test date", "last test", "date"]
            case .passFail: ["pass/fail", "pass fail", "result overall", "overall result"]
            case .retest: ["retest (months)", "retest months", "retest period (months)", "retest"]
            case .person: ["person", "tester", "technician", "user"]
            case .instrument: ["instrument", "instrument model"]
            case .instrumentSerial: ["instrument serial", "instrument serial no", "instrument serial number"]
            case .calibrationDate: ["calibration date", "instrument calibration date"]
            case .licence: ["licence", "license", "licence number", "license number"]
            case .comments: ["comments", "comment", "test notes", "notes"]
            case .procedure: ["procedure reference", "standard"]
            case .description: ["asset description", "description"]
            case .equipmentClass: ["asset class", "class"]
            case .location: ["location name", "location"]
            case .site: ["site name", "site"]
            }
        }
    }

    /// Columns of the documented format Rigbook keeps nothing of: read past, and said (`readPast` of the result).
    public static let readPastColumns = [
        "client name", "asset type", "asset notes", "test name", "test tag", "asset make", "asset model",
        "asset serial", "category", "type", "end of life", "old asset id", "option_updateasset",
    ]

    /// What a file gave: its good rows, the columns read past, and every problem found (any problem: nothing may be
    /// imported, but the good rows can still be checked against the register, so every problem is said at once).
    public struct Parsed: Sendable {
        public var rows: [Row] = []
        public var readPast: [String] = []
        public var problems: [AssetImport.Problem] = []
    }

    public static func parse(_ text: String, options: Options) -> Parsed {
        let records: [CSVText.Record]
        switch CSVText.records(text) {
        case .success(let found): records = found
        case .failure(let failure):
            return Parsed(problems: [AssetImport.Problem(line: failure.line, failure.message)])
        }
        guard let first = records.first else {
            return Parsed(problems: [AssetImport.Problem(line: nil, "the file is empty")])
        }
        var problems: [AssetImport.Problem] = []
        var rows: [Row] = []
        rows.reserveCapacity(records.count)
        var header = Header(first, problems: &problems)
        var readPast = Set(header.readPast)
        for record in records.dropFirst() {
            // A second header block (two downloads in one file) names the columns of the rows after it.
            if Header.isHeader(record) {
                header = Header(record, problems: &problems)
                readPast.formUnion(header.readPast)
                continue
            }
            guard header.usable else { continue }
            if let row = header.row(record, options: options, problems: &problems) { rows.append(row) }
        }
        if rows.isEmpty && problems.isEmpty {
            problems.append(AssetImport.Problem(line: nil, "the file has no test rows"))
        }
        return Parsed(rows: rows, readPast: readPast.sorted(), problems: problems)
    }

    /// A header row: where each fixed column and each Test/Result/Unit/Status group is.
    struct Header {
        var line: Int
        var fixed: [Column: Int] = [:]
        var groups: [(test: Int, result: Int, unit: Int, status: Int)] = []
        /// Columns without a name: a spreadsheet's trailing empty columns, which must stay empty.
        var unnamed: [Int] = []
        var readPast: [String] = []
        var width: Int
        var usable = false

        static func folded(_ cell: String) -> String {
            CSVText.unguarded(cell).trimmingCharacters(in: .whitespaces).lowercased()
                .split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }

        /// A row naming the columns again: an Asset Id and a Test Date column, and every other cell a column's name
        /// (a data row's cells are values, never all names).
        static func isHeader(_ record: CSVText.Record) -> Bool {
            let names = record.fields.map(folded)
            let known = Set(Column.allCases.flatMap(\.names) + TestImport.readPastColumns
                            + ["test", "result", "unit", "status", ""])
            let named = Set(names)
            return !named.isDisjoint(with: Column.assetID.names) && !named.isDisjoint(with: Column.testDate.names)
                && names.allSatisfy(known.contains)
        }

        init(_ record: CSVText.Record, problems: inout [AssetImport.Problem]) {
            line = record.line
            width = record.fields.count
            let names = record.fields.map(Self.folded)
            var found: [AssetImport.Problem] = []
            func problem(_ message: String) { found.append(AssetImport.Problem(line: record.line, message)) }
            var unknown: [String] = []
            var index = 0
            while index < names.count {
                let name = names[index]
                if name == "test" {
                    // A group is read by position: Test, then Result, Unit and Status.
                    let expected = ["result", "unit", "status"]
                    let got = (1...3).map { index + $0 < names.count ? names[index + $0] : "" }
                    if got == expected {
                        groups.append((index, index + 1, index + 2, index + 3))
                        index += 4
                        continue
                    }
                    problem("column \(index + 1) starts a Test group, which needs Result, Unit and Status after it "
                            + "(found \(got.map { $0.isEmpty ? "nothing" : "'\($0)'" }.joined(separator: ", ")))")
                } else if name == "status", fixed[.passFail] == nil,
                          !names.contains(where: Column.passFail.names.contains) {
                    // Outside a group, Status is the row's Pass/Fail (the format's other name for it).
                    fixed[.passFail] = index
                } else if name.isEmpty {
                    unnamed.append(index)
                } else if let column = Column.allCases.first(where: { $0.names.contains(name) }) {
                    if let earlier = fixed[column] {
                        let given = record.fields[index].trimmingCharacters(in: .whitespaces)
                        problem(names[earlier] == name ? "the column '\(given)' is named twice"
                                : "the column '\(given)' is another name of column \(earlier + 1), "
                                    + "'\(record.fields[earlier].trimmingCharacters(in: .whitespaces))'")
                    }
                    fixed[column] = index
                } else if TestImport.readPastColumns.contains(name) {
                    readPast.append(record.fields[index].trimmingCharacters(in: .whitespaces))
                } else {
                    unknown.append(record.fields[index].trimmingCharacters(in: .whitespaces))
                }
                index += 1
            }
            if !unknown.isEmpty {
                problem("unknown column\(unknown.count == 1 ? "" : "s") " + unknown.map { "'\($0)'" }
                    .joined(separator: ", ") + "; the columns are those of the PAT export format in docs/FORMATS.md")
            }
            let required: [Column] = [.assetID, .testDate, .passFail, .person]
            let placed = fixed
            let missing = required.filter { placed[$0] == nil }
            if !missing.isEmpty {
                problem("missing column\(missing.count == 1 ? "" : "s") "
                        + missing.map { "'\($0.documented)'" }.joined(separator: ", "))
            }
            usable = found.isEmpty
            problems += found
        }

        /// The row's values, or nil with its problems added.
        func row(_ record: CSVText.Record, options: Options, problems: inout [AssetImport.Problem]) -> Row? {
            let fields = record.fields
            // A spreadsheet's empty rows (`,,,,`) are blank lines.
            guard fields.contains(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }) else { return nil }
            var found: [AssetImport.Problem] = []
            func problem(_ column: String?, _ message: String) {
                found.append(AssetImport.Problem(line: record.line, column: column, message))
            }
            if fields.count > width, fields[width...].contains(where: { !$0.trimmingCharacters(in: .whitespaces)
                                                                            .isEmpty }) {
                problem(nil, "\(fields.count) fields where the header on line \(line) has \(width)")
            }
            for index in unnamed where index < fields.count && !fields[index].trimmingCharacters(in: .whitespaces)
                .isEmpty {
                problem("column \(index + 1)", "a value under a column with no name in the header")
            }
            func cell(_ index: Int?) -> String {
                guard let index, index < fields.count else { return "" }
                return CSVText.unguarded(fields[index]).trimmingCharacters(in: .whitespaces)
            }
            func cell(_ column: Column) -> String { cell(fixed[column]) }
            func date(_ column: Column, _ name: String) -> String {
                let text = cell(column)
                guard !text.isEmpty else { return "" }
                if let iso = options.dateFormat.iso(text) { return iso }
                problem(name, options.dateFormat.problem(text))
                return text
            }
            var v = TestValues()
            v.testType = options.testType
            v.authenticated = true
            let tag = cell(.assetID)
            if tag.isEmpty { problem("Asset Id", "no asset id") }
            v.testDate = date(.testDate, "Test Date")
            if cell(.testDate).isEmpty { problem("Test Date", "no test date") }
            v.technician = cell(.person)
            if v.technician.isEmpty { problem("Person", "no technician: the person who tested signs the record") }
            let overall = cell(.passFail)
            switch overall.lowercased() {
            case "p", "pass", "passed": v.result = .pass
            case "f", "fail", "failed": v.result = .fail
            case "i", "information":
                problem("Pass/Fail", "an Information row records no test; leave it out of the file")
            case "": problem("Pass/Fail", "no result: P or F")
            default: problem("Pass/Fail", "'\(VisibleText.make(overall))' is not P, Pass, F or Fail")
            }
            var retest: Int?
            let retestText = cell(.retest)
            if !retestText.isEmpty {
                if let months = Int(retestText), (1...120).contains(months) { retest = months } else {
                    problem("Retest (Months)", "'\(VisibleText.make(retestText))' is not a number of months from 1 "
                            + "to 120")
                }
            }
            v.instrumentModel = cell(.instrument)
            v.instrumentSerial = cell(.instrumentSerial)
            v.calibrationDate = date(.calibrationDate, "Calibration Date")
            if v.calibrationDate.isEmpty { v.calibrationDate = options.calibrated }
            v.calibrationAcknowledged = options.calibrationNoted
            v.licenceNumber = cell(.licence).isEmpty ? options.licence : cell(.licence)
            v.notes = fixed[.comments].map { index in
                index < fields.count ? CSVText.unguarded(fields[index]).trimmingCharacters(in: .whitespacesAndNewlines)
                    : ""
            } ?? ""
            v.procedureReference = cell(.procedure)
            var filled: [TestField: Int] = [:]
            var testerSaid: [TestField: PassFail] = [:]
            for group in groups {
                let name = cell(group.test), result = cell(group.result), unit = TesterReading.unit(cell(group.unit))
                let status = cell(group.status)
                // A tester writes as many groups as its longest row: the empty ones of a shorter row are nothing.
                if name.isEmpty && result.isEmpty && unit.isEmpty && status.isEmpty { continue }
                let column = "column \(group.test + 1)"
                guard let reading = TesterReading.named(name) else {
                    problem(column, name.isEmpty ? "a reading with no test name"
                            : "'\(VisibleText.make(name))' is not a test Rigbook records; the accepted names are "
                            + TesterReading.acceptedNames)
                    continue
                }
                if let earlier = filled[reading.field] {
                    problem(column, "a second \(reading.what) in the row (the first is in column \(earlier))")
                    continue
                }
                filled[reading.field] = group.test + 1
                if reading.isObservation {
                    // The observation is the Result; a tester that leaves it empty says it in the group's Status.
                    let said = result.isEmpty ? status : result
                    guard let observed = TesterReading.passFail(said) else {
                        problem(column, "\(reading.what): '\(VisibleText.make(said))' is not P or F")
                        continue
                    }
                    switch reading.field {
                    case .visual: v.visual = observed
                    case .polarity: v.polarity = observed
                    default: v.rcdPushButton = observed
                    }
                    continue
                }
                if let said = TesterReading.passFail(status) { testerSaid[reading.field] = said }
                guard reading.units.contains(unit) else {
                    problem(column, "\(reading.what) in '\(VisibleText.make(unit))': write it in "
                            + reading.units.joined(separator: " or "))
                    continue
                }
                switch reading.field {
                case .earthContinuity: v.earthContinuityOhm = result
                case .insulation: v.insulationMOhm = result
                case .leakage: v.leakageMA = result
                case .rcdTripTime: v.rcdTripTimeMs = result
                default: v.loadCurrentA = result
                }
            }
            problems += found
            guard found.isEmpty else { return nil }
            return Row(line: record.line, assetTag: tag, values: v, retestMonths: retest, testerSaid: testerSaid,
                       description: cell(.description), equipmentClass: cell(.equipmentClass),
                       location: [cell(.site), cell(.location)].filter { !$0.isEmpty }.joined(separator: ", "))
        }
    }
}
