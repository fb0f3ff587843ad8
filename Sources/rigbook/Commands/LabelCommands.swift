import Foundation
import RigbookApp
import RigbookCore
import RigbookStore

extension Commands {
    struct LabelsOptions: OptionTable {
        let tags = Operand("TAG", missing: "a TAG", kind: .tag, repeats: true)
        let layout = Option.choice("--layout", Labels.Layout.allCases.map(\.rawValue),
                                   "The label (default \(Labels.Layout.card.rawValue)).")
        let sheet = Option.choice("--sheet", Labels.Sheet.all.map(\.name),
                                  "The label stationery (default \(Labels.Sheet.small.name)).")
        let site = Option("--site", "SITE", "Every asset on this site (name or uuid).")
        let dueBefore = Option("--due-before", "YYYY-MM-DD", "Every asset due before this day, the overdue included.")
        let kind = Option.kind
        let format = Option.documentFormat
        let out = Option.out
    }

    static let labels = CommandSpec(
        name: "labels",
        abstract: "Print labels with QR codes for the equipment: one A4 HTML page of labels.",
        usage: """
            rigbook labels TAG... [--layout card|due|tag|danger] [--sheet 2x7|2x4] [--format html|pdf] [--out FILE]
                   rigbook labels [--site SITE] [--due-before YYYY-MM-DD] [--kind lifting|electrical]
                   [--layout …] [--sheet …] [--format html|pdf] [--out FILE]
            """,
        discussion: """
            A self-contained HTML page (no external files, no scripts) of labels on A4 sheets, each with the
            asset's QR code and the name of the employer whose site it is on. Layouts:
              card  \(Labels.Layout.card.summary)
              due   \(Labels.Layout.due.summary)
              tag   \(Labels.Layout.tag.summary)
              danger \(Labels.Layout.danger.summary)
            An electrical item always gets its test tag, or the DANGER tag when its last test failed; lifting
            equipment gets --layout card (the default) or due; --layout danger tags every item out of service.
            Sheets: 2x7 (\(Labels.Sheet.small.summary), the default) or 2x4 (\(Labels.Sheet.large.summary)).
            Print at 100 % (no scaling, no margins) onto the label stationery.
            Which assets: the TAGs given, in that order; or every asset of --site (a site's name or uuid),
            or every asset due before --due-before (the overdue included), or both together, in tag order;
            --kind keeps lifting equipment or electrical items only.
            The QR code holds the label's payload, /RB1:TAG:YYYYMMDD (docs/FORMATS.md), which a scanner
            types back into the register list (# or /). The colour code is the register's setting
            organisation.colour_code (`rigbook settings set organisation.colour_code au-quarters`).
            Exit 1 when a tag is not in the register or nothing matches. Without --out it goes to standard
            output. --format pdf, or an --out name ending .pdf, draws the sheets as PDF (cairo and pango), at the
            stationery's exact geometry with vector QR codes; a PDF is never written to a terminal (exit 64).
            """,
        options: LabelsOptions.self
    ) { arguments, context in
        let layoutWord = try arguments.value(\.layout)
        let layout = try layoutWord.map { (word: String) throws(UsageError) -> Labels.Layout in
            guard let layout = Labels.Layout(rawValue: word) else {
                let layouts = Labels.Layout.allCases.map(\.rawValue).joined(separator: ", ")
                throw UsageError("--layout must be one of \(layouts), not \(word)")
            }
            return layout
        }
        let kind = try arguments.value(\.kind).map { (word: String) throws(UsageError) in try parseKind(word) }
        let sheetWord = try arguments.value(\.sheet) ?? Labels.Sheet.small.name
        guard let sheet = Labels.Sheet.named(sheetWord) else {
            let sheets = Labels.Sheet.all.map(\.name).joined(separator: ", ")
            throw UsageError("--sheet must be one of \(sheets), not \(sheetWord)")
        }
        let site = try arguments.value(\.site)
        let before = try arguments.date(\.dueBefore)
        let out = try arguments.value(\.out)
        let format = try Parse.documentFormat(try arguments.value(\.format), out: out)
        var tags: [String] = []
        while let tag = arguments.nextOperand(\.tags) { tags.append(tag) }
        try arguments.finish()
        if tags.isEmpty && site == nil && before == nil && kind == nil {
            throw UsageError("give one or more TAGs, or --site SITE, --due-before YYYY-MM-DD and/or --kind "
                             + "(see `rigbook help labels`)")
        }
        if !tags.isEmpty && (site != nil || before != nil || kind != nil) {
            throw UsageError("give TAGs, or --site, --due-before and --kind, not both")
        }

        let register = try context.readRegister()
        let particulars = try orFail { try register.particulars() }
        // One sheet of rows is held at a time and the page written as it is made: a run for a whole site of a
        // large register costs the memory of one sheet. Chosen by tags: those rows alone are held,
        // in the order given.
        func write(count: Int, _ rows: ((RegisterRow) throws -> Void) throws -> Void) throws {
            if format == "pdf" {
                var all: [RegisterRow] = []
                try rows { all.append($0) }
                let pdf = try LabelPrinting.pdf(all, register: register, particulars: particulars, today: context.today,
                                                layout: layout, sheet: sheet)
                return try writeBytes(pdf, to: out, home: context.home, what: "a PDF")
            }
            try withSink(out, home: context.home) { sink in
                try LabelPrinting.stream(count: count, rows, register: register, particulars: particulars,
                                         today: context.today, layout: layout, sheet: sheet, to: sink)
            }
        }
        var count = 0
        try orFail {
            try register.onOneSnapshot {
                if !tags.isEmpty {
                    let chosen = try rows(taggedWith: tags, in: register)
                    count = chosen.count
                    try write(count: count, { body in try chosen.forEach(body) })
                    return
                }
                let source = try chooser(register: register, particulars: particulars, site: site, before: before,
                                         kind: kind, today: context.today)
                try source.forEachRow { _ in count += 1 }
                guard count > 0 else {
                    let what = [kind.map { "of kind \($0.rawValue)" }, site.map { "at \(VisibleText.make($0))" },
                                before.map { "due before \($0.iso)" }].compactMap { $0 }.joined(separator: " and ")
                    throw CommandFailure("rigbook: no asset \(what); no labels were printed")
                }
                try write(count: count) { body in try source.forEachRow(body) }
            }
        }

        if out != nil {
            let sheets = (count + sheet.perSheet - 1) / sheet.perSheet
            printError("rigbook: \(count) label\(count == 1 ? "" : "s") on \(sheets) A4 "
                       + "sheet\(sheets == 1 ? "" : "s") of \(sheet.summary)")
        }
        return ExitCode.success
    }
}

/// The rows of `tags`, in the order given (retired assets too: a label may be reprinted for the record); a tag not
/// in the register fails the command before anything is written.
private func rows(taggedWith tags: [String], in register: Register) throws -> [RegisterRow] {
    let wanted = Set(tags.map { Tags.key(Tags.normalized($0)) })
    var byKey: [String: RegisterRow] = [:]
    try RegisterSource(register, includingRetired: true).forEachRow { row in
        let key = Tags.key(row.asset.tag)
        if wanted.contains(key) { byKey[key] = row }
    }
    return try tags.map { tag in
        guard let row = byKey[Tags.key(Tags.normalized(tag))] else {
            throw CommandFailure("rigbook: no asset is tagged \(VisibleText.make(tag)); no labels were printed")
        }
        return row
    }
}

/// The register's active assets on `site`, due before `before` and of `kind` (each nil: any).
private func chooser(register: Register, particulars: Particulars, site: String?, before: CalendarDate?,
                     kind: AssetKind?, today: CalendarDate) throws -> RegisterSource {
    let siteUUID = try site.map { try SiteReference.resolve($0, in: particulars).uuid }
    return RegisterSource(register) { row in
        (siteUUID.map { particulars.asset(row.asset.uuid).siteUUID == $0 } ?? true)
            && (before.map { before in row.status(on: today).nextDue.map { $0 < before } ?? false } ?? true)
            && (kind.map { row.asset.kind == $0 } ?? true)
    }
}
