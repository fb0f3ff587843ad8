import Foundation
import RigbookCore
import RigbookStore

/// rigbook-formats(5): the draft file, the exports and the labels, as this build writes them. The example draft is
/// one this build encodes, and every list of keys and columns is the one its writers use, so the page cannot drift
/// from what it describes; docs/FORMATS.md in the sources has the same with examples and history.
enum FormatsPage {
    static var text: String {
        var page = Roff(title: "RIGBOOK-FORMATS", section: 5, version: RigbookVersion.current)
        page.section("NAME")
        page.line("rigbook-formats - the draft, export and label formats of rigbook")
        page.section("DESCRIPTION")
        page.paragraph("""
            What rigbook(1) writes for people and other programs to read: the drafts of forms being typed, the
            exports of the register, and the payload, layouts and sheets of its labels. DATA is the data home (see
            FILES in rigbook(1)).
            """)
        drafts(&page)
        exports(&page)
        labels(&page)
        page.section("SEE ALSO")
        page.line("`rigbook`(1)")
        return page.text
    }

    private static func drafts(_ page: inout Roff) {
        page.section("DRAFTS")
        page.paragraph("""
            A form being typed is kept in DATA/Documents/Drafts/<draft_id>.json, where draft_id is the form's kind
            and the asset's uuid (inspection-, asset-, test- or batch-<uuid>): one JSON object, written 0600 by a
            temporary file renamed over it, 500 ms after the last key. Every key also goes at once to the
            keystroke journal <draft_id>.journal beside it, and <draft_id>.lock names the session that has the form
            open. Lists, statuses, histories and exports never read drafts; saving or discarding the form deletes
            them. An inspection's draft, as this rigbook writes it:
            """)
        page.verbatim(exampleDraft)
        page.paragraph("""
            schema_version is 1; a draft of another version is moved to Corrupt/ unread. values holds the form's
            fields under these names, by form_kind:
            """)
        for (kind, keys) in [("inspection", InspectionValues.jsonKeys), ("asset", AssetDraft.jsonKeys),
                             ("test", TestValues.jsonKeys)] {
            page.item(Roff.bold(kind), keys.sorted().joined(separator: ", "))
        }
        page.paragraph("""
            A key this rigbook does not know, at the top level or under values, is a newer build's: the draft is read
            as usual, and every rewrite writes the key back with its value as it was.
            """)
    }

    /// A fresh inspection's draft as `DraftStore` writes it.
    private static var exampleDraft: String {
        let uuid = "560a467a-7014-4347-830f-4004a19467ca"
        let draft = DraftFile(draftID: "inspection-\(uuid)", sessionID: "inspection-\(uuid):0b0c6f5e",
                              assetUUID: uuid, assetTag: "SL-0042", amends: nil, values: InspectionValues(),
                              createdAt: "2026-11-30T08:23:01.120Z", updatedAt: "2026-11-30T08:23:09.880Z",
                              operatorName: "Jane Doe", osUser: "jane", host: "depot-laptop", pid: 18096,
                              revision: 7, focusedField: "notes")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(draft)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    private static func exports(_ page: inout Roff) {
        page.section("EXPORTS")
        page.paragraph("""
            CSV is RFC 4180 in UTF-8, a header row first; a cell a spreadsheet would run as a formula (starting =, +,
            - or @) is written after a '. Dates are YYYY-MM-DD, times ISO 8601 in UTC.
            """)
        page.subsection("rigbook export, rigbook asset list --format csv|json")
        page.paragraph("An asset a row (an object in JSON), with its status as of the day, in these columns:")
        page.paragraph(AssetListing.csvHeader.joined(separator: ", "))
        page.subsection("rigbook export --table records")
        page.paragraph("""
            Every inspection record and electrical test, told apart by kind (inspection, electrical_test), in these
            columns:
            """)
        page.paragraph(TestExport.combinedColumns.joined(separator: ", "))
        page.subsection("rigbook export --format json")
        page.paragraph("""
            One object: {"schema_version": 1, "as_of", "generated_at", "assets": [...], "records": [...]}, the
            assets as above and the records as history --format json writes them.
            """)
    }

    private static func labels(_ page: inout Roff) {
        page.section("LABELS")
        page.subsection("The payload")
        let example = LabelPayload(tag: "SL-0042", due: CalendarDate(year: 2027, month: 6, day: 30))
        page.paragraph("""
            Each label's QR code holds \(example.text): a slash (a scan typed into the register list opens its
            filter), the format and version \(LabelPayload.version), the tag, and the date the next examination or
            test is due as YYYYMMDD, empty when there is none. The tag keeps 0-9, A-Z, space and $ * + - . /;
            a-z are written upper case (tags ignore case), and every other byte of its UTF-8, % and : included, is
            written %XX: a tag A:b%1 gives \(LabelPayload(tag: "A:b%1", due: nil).text). A reader refuses another
            version by name.
            """)
        page.subsection("Layouts (--layout)")
        for layout in Labels.Layout.allCases { page.item(Roff.bold(layout.rawValue), layout.summary) }
        page.subsection("Sheets (--sheet)")
        for sheet in Labels.Sheet.all {
            page.item(Roff.bold(sheet.name), "\(sheet.perSheet) labels on A4, \(sheet.summary).")
        }
        page.subsection("Colour codes (organisation.colour_code)")
        for scheme in ColourCodeScheme.allCases { page.item(Roff.bold(scheme.rawValue), scheme.label) }
    }
}
