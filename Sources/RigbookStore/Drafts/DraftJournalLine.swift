import RigbookCore

/// An inspection draft as the journal's JSON line, written by hand: the same bytes `JSONEncoder` writes with
/// `.sortedKeys` and `.withoutEscapingSlashes` (DraftJournalLineTests compares them), in a fraction of the time.
/// The journal takes a line on every key, and Foundation's encoder was the largest part of a typed character.
/// Any draft holding what this writer does not write (an asset editor's or a test's values, reg 10's answers,
/// attachments, keys a newer build wrote) is nil here and goes through `JSONEncoder`: slower, never wrong.
enum DraftJournalLine {
    static func bytes(_ draft: DraftFile) -> [UInt8]? {
        guard draft.assetValues == nil, draft.testValues == nil, draft.defectNotice == nil,
              draft.values.attachments.isEmpty, draft.unknownKeys.isEmpty else { return nil }
        var o = JSONObjectBytes()
        o.bytes.reserveCapacity(1024 + draft.values.notes.utf8.count + draft.values.defectDescription.utf8.count)

        // Keys in sorted order, as `.sortedKeys` writes them.
        if let amends = draft.amends { o.key("amends"); o.number(amends) } else { o.key("amends"); o.optional(nil) }
        if let uuid = draft.amendsUUID { o.key("amends_uuid"); o.string(uuid) }
        o.key("app_version"); o.string(draft.appVersion)
        o.key("asset_tag"); o.string(draft.assetTag)
        o.key("asset_uuid"); o.string(draft.assetUUID)
        o.key("created_at"); o.string(draft.createdAt)
        o.key("draft_id"); o.string(draft.draftID)
        o.key("focused_field"); o.optional(draft.focusedField)
        o.key("form_kind"); o.string(draft.formKind)
        o.key("host"); o.string(draft.host)
        o.key("operator"); o.string(draft.operatorName)
        o.key("os_user"); o.string(draft.osUser)
        o.key("pid"); o.number(draft.pid)
        o.key("revision"); o.number(draft.revision)
        o.key("schema_version"); o.number(draft.schemaVersion)
        o.key("session_id"); o.string(draft.sessionID)
        o.key("updated_at"); o.string(draft.updatedAt)
        o.key("values"); o.raw(values(draft.values))
        return o.closed()
    }

    /// The values' object.
    private static func values(_ v: InspectionValues) -> [UInt8] {
        var o = JSONObjectBytes()
        o.key("action"); o.string(v.action.rawValue)
        if !v.amendmentReason.isEmpty { o.key("amendment_reason"); o.string(v.amendmentReason) }
        o.key("certification_number"); o.string(v.certificationNumber)
        o.key("check_corrosion"); o.bool(v.checkCorrosion)
        o.key("check_cuts"); o.bool(v.checkCuts)
        o.key("check_deformation"); o.bool(v.checkDeformation)
        o.key("check_fittings"); o.bool(v.checkFittings)
        o.key("check_marking"); o.bool(v.checkMarking)
        o.key("confirmed"); o.bool(v.confirmed)
        o.key("defect_description"); o.string(v.defectDescription)
        o.key("examination_basis"); o.optional(v.examinationBasis?.rawValue)
        o.key("inspection_date"); o.string(v.inspectionDate)
        o.key("inspection_type"); o.string(v.inspectionType.rawValue)
        o.key("inspector_name"); o.string(v.inspectorName)
        o.key("installed_correctly"); o.bool(v.installedCorrectly)
        o.key("next_examination_by"); o.string(v.nextExaminationBy)
        o.key("notes"); o.string(v.notes)
        o.key("remedy_deadline"); o.string(v.remedyDeadline)
        o.key("remedy_deadline_set"); o.bool(v.remedyDeadlineSet)
        o.key("remedy_particulars"); o.string(v.remedyParticulars)
        o.key("repair_particulars"); o.string(v.repairParticulars)
        o.key("result"); o.optional(v.result?.rawValue)
        o.key("scheme_reference"); o.string(v.schemeReference)
        o.key("test_particulars"); o.string(v.testParticulars)
        return o.closed()
    }

    /// A JSON string as Foundation's encoder writes it: `"` and `\` escaped, the C0 controls as `\b \f \n \r \t`
    /// or `\u00XX`, everything else (DEL, `/`, non-ASCII) as its UTF-8 bytes.
    /// Whether a JSON string holds this byte of UTF-8 as it is, with no escape.
    @inline(__always) static func holdsAsIs(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
    }

    static func appendJSONString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            // Bytes that need no escape go in as whole runs: a line is mostly such text.
            var runStart = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                guard !holdsAsIs(byte) else { continue }
                if runStart < index { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index])) }
                runStart = index + 1
                switch byte {
                case UInt8(ascii: "\""): out.append(0x5C); out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C); out.append(0x5C)
                case 0x08: out.append(0x5C); out.append(UInt8(ascii: "b"))
                case 0x0C: out.append(0x5C); out.append(UInt8(ascii: "f"))
                case 0x0A: out.append(0x5C); out.append(UInt8(ascii: "n"))
                case 0x0D: out.append(0x5C); out.append(UInt8(ascii: "r"))
                case 0x09: out.append(0x5C); out.append(UInt8(ascii: "t"))
                default:
                    out.append(0x5C); out.append(UInt8(ascii: "u")); out.append(UInt8(ascii: "0"))
                    out.append(UInt8(ascii: "0")); out.append(hexDigits[Int(byte >> 4)])
                    out.append(hexDigits[Int(byte & 0xF)])
                }
            }
            if runStart < bytes.count { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...])) }
        }
        out.append(UInt8(ascii: "\""))
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
}

/// One JSON object written key by key into bytes, in the order given (the caller keeps keys sorted).
struct JSONObjectBytes {
    var bytes: [UInt8] = []
    private var first = true

    mutating func key(_ name: StaticString) {
        bytes.append(first ? UInt8(ascii: "{") : UInt8(ascii: ","))
        first = false
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
    }

    mutating func string(_ text: String) { DraftJournalLine.appendJSONString(text, to: &bytes) }
    mutating func optional(_ text: String?) {
        if let text { string(text) } else { literal("null") }
    }
    mutating func number<N: BinaryInteger>(_ value: N) { bytes.append(contentsOf: String(value).utf8) }
    mutating func bool(_ value: Bool) { literal(value ? "true" : "false") }
    private mutating func literal(_ text: StaticString) { text.withUTF8Buffer { bytes.append(contentsOf: $0) } }
    /// A value already written as JSON.
    mutating func raw(_ json: [UInt8]) { bytes.append(contentsOf: json) }

    /// The object's bytes, closed.
    func closed() -> [UInt8] { first ? Array("{}".utf8) : bytes + [UInt8(ascii: "}")] }
}
