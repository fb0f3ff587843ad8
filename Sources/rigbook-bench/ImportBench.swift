import Foundation
import RigbookCore
import RigbookStore

/// The import target: a client's spreadsheet of 100,000 assets imported "in seconds": the CSV read and checked
/// as `asset add` checks each row, then added in one transaction with the hash chain, as `rigbook import`.
enum ImportBench {
    struct Result {
        var rows: Int
        var bytes: Int
        var parse = Samples()
        var insert = Samples()
        var whole = Samples()
    }

    /// A spreadsheet as a client sends one: BOM, CRLF, quoted names with commas, every column filled.
    static func spreadsheet(rows: Int) -> String {
        let types = EquipmentType.allCases
        var text = "\u{FEFF}tag,name,type,wll_kg,length_m,location,manufacturer,serial_number,manufactured,"
            + "commissioned,interval_months,lifts_persons,examination_scheme\r\n"
        text.reserveCapacity(rows * 130)
        for i in 0..<rows {
            let type = types[i % types.count]
            let interval = type.defaultIntervalMonths(liftsPersons: false)
            text += "IM-\(String(format: "%06d", i)),\"\(i % 20 + 1) t \(type.label.lowercased()), lot \(i / 1000)\","
                + "\(type.rawValue),\(1000 + i % 9000),\(i % 5 == 0 ? "" : "3.5"),Bay \(i % 40),Acme,SN\(i),"
                + "2024-0\(i % 9 + 1)-1\(i % 9),2025-0\(i % 9 + 1)-2\(i % 9),\(interval),false,\r\n"
        }
        return text
    }

    static func run(rows: Int, repeats: Int = 3) throws -> Result {
        let text = spreadsheet(rows: rows)
        var result = Result(rows: rows, bytes: text.utf8.count)
        for _ in 0..<repeats {
            let home = DataHome(root: temporaryHome("import"))
            defer { try? FileManager.default.removeItem(atPath: home.root) }
            let register = try Register.open(path: home.registerPath)
            var parsed: [AssetImport.Row] = []
            let start = now()
            try result.parse.time { parsed = try AssetImport.parse(text, today: benchToday).get() }
            try result.insert.time { _ = try register.importAssets(parsed) }
            result.whole.values.append((now() - start) * 1000)
            guard try register.assetCount() == rows else { throw CocoaError(.featureUnsupported) }
        }
        return result
    }

    static func printTable(_ r: Result) {
        print("## Import of a spreadsheet (`rigbook import`)")
        print("")
        print("| figure (median of \(r.whole.values.count)) | \(r.rows.formatted()) rows (\(r.bytes / 1_048_576) MB) |")
        print("|---|---|")
        print("| read and check every row (`AssetImport.parse`) | \(format(r.parse.median)) |")
        print("| add them in one transaction, hash chain included | \(format(r.insert.median)) |")
        print("| whole import | \(format(r.whole.median)) |")
        print("")
    }
}
