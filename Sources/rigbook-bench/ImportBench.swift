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

/// The tests-import target: 10,000 rows of a PAT tester's export saved in < 5 s, signing included, as
/// `rigbook tests import` does it: the export read, each row planned against the register (its asset, the
/// instrument, the gate, a repeat), then every test signed and saved in one transaction. The register holds the
/// 10,000 electrical assets already (a depot's periodic round); making them is not timed.
enum TestImportBench {
    static let target = 5_000.0

    /// An export as a tester writes one: three reading groups a row, dates DD/MM/YYYY, every fifth row a fail.
    static func export(rows: Int) -> String {
        var text = "\u{FEFF}Asset Id,Test Date,Pass/Fail,Retest (Months),Instrument,Instrument Serial,Calibration Date,"
            + "Person,Comments,Test,Result,Unit,Status,Test,Result,Unit,Status,Test,Result,Unit,Status\r\n"
        for i in 0..<rows {
            let fail = i % 5 == 4
            text += "PAT-\(String(format: "%05d", i)),2\(i % 8)/11/2026,\(fail ? "F" : "P"),3,Apollo 600,AP-5521,"
                + "01/03/2026,Tech \(i % 4),\(fail ? "Earth high: tagged out" : ""),Visual,P,,P,"
                + "Earth Continuity,\(fail ? "1.9" : "0.\(i % 9 + 1)"),Ohm,\(fail ? "F" : "P"),"
                + "Insulation,\(i % 3 == 0 ? ">299" : "\(20 + i % 200)"),MOhm,P\r\n"
        }
        return text
    }

    static func run(rows: Int, repeats: Int = 3) throws -> Samples {
        let text = export(rows: rows)
        var assets = "tag,name,kind,equipment_class,environment,location\n"
        for i in 0..<rows {
            assets += "PAT-\(String(format: "%05d", i)),Kettle \(i),electrical,class-1,construction,Depot\n"
        }
        let assetRows = try AssetImport.parse(assets, today: benchToday).get()
        var options = TestImport.Options()
        options.dateFormat = .dayFirst
        var whole = Samples()
        for _ in 0..<repeats {
            let home = DataHome(root: temporaryHome("tests-import"))
            defer { try? FileManager.default.removeItem(atPath: home.root) }
            let register = try Register.open(path: home.registerPath)
            try register.importAssets(assetRows)
            var signers: [String: RecordSigner] = [:]
            for n in 0..<4 {
                let key = try SigningKey.generate()
                try register.addKey(key.publicKey, examiner: "Tech \(n)")
                signers["Tech \(n)"] = RecordSigner(key: key, examiner: "Tech \(n)")
            }
            var saved = 0
            try whole.time {
                let parsed = TestImport.parse(text, options: options)
                guard parsed.problems.isEmpty else { throw AssetImport.Problems(items: parsed.problems) }
                let plan = try register.planTestImport(parsed.rows, adding: nil, today: benchToday).get()
                saved = try register.importTests(plan, signers: signers).count
            }
            guard saved == rows else { throw CocoaError(.featureUnsupported) }
        }
        return whole
    }

    static func printTable(rows: Int, _ whole: Samples) {
        print("## Import of a PAT tester's export (`rigbook tests import`)")
        print("")
        print("| figure (median of \(whole.values.count)) | \(rows.formatted()) rows | target |")
        print("|---|---|---|")
        print("| read, plan against the register, sign and save in one transaction | \(format(whole.median)) | "
              + "< 5 s \(whole.median < target ? "✓" : "✗") |")
        print("")
    }
}
