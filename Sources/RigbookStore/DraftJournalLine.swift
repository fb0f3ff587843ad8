import RigbookCore

/// An inspection draft as the journal's JSON line, written by hand: the same bytes `JSONEncoder` writes with
/// `.sortedKeys` and `.withoutEscapingSlashes` (DraftJournalLineTests compares them), in a fraction of the time.
/// The journal takes a line on every key, and Foundation's encoder was the largest part of a typed character.
/// Any draft holding what this writer does not write (an asset editor's or a test's values, reg 10's answers,
/// attachments) is nil here and goes through `JSONEncoder`: slower, never wrong.
enum DraftJournalLine {
    static func bytes(_ draft: DraftFile) -> [UInt8]? {
        guard draft.assetValues == nil, draft.testValues == nil, draft.defectNotice == nil,
              draft.values.attachments.isEmpty else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(1024 + draft.values.notes.utf8.count + draft.values.defectDescription.utf8.count)
        var first = true
        func key(_ name: StaticString) {
            out.append(first ? UInt8(ascii: "{") : UInt8(ascii: ","))
            first = false
            out.append(UInt8(ascii: "\""))
            name.withUTF8Buffer { out.append(contentsOf: $0) }
            out.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        }
        func string(_ text: String) { appendJSONString(text, to: &out) }
        func optional(_ text: String?) {
            if let text { string(text) } else { out.append(contentsOf: Array("null".utf8)) }
        }
        func number<N: BinaryInteger>(_ value: N) { out.append(contentsOf: Array(String(value).utf8)) }

        // Keys in sorted order, as `.sortedKeys` writes them.
        if let amends = draft.amends { key("amends"); number(amends) } else { key("amends"); optional(nil) }
        if let uuid = draft.amendsUUID { key("amends_uuid"); string(uuid) }
        key("app_version"); string(draft.appVersion)
        key("asset_tag"); string(draft.assetTag)
        key("asset_uuid"); string(draft.assetUUID)
        key("created_at"); string(draft.createdAt)
        key("draft_id"); string(draft.draftID)
        key("focused_field"); optional(draft.focusedField)
        key("form_kind"); string(draft.formKind)
        key("host"); string(draft.host)
        key("operator"); string(draft.operatorName)
        key("os_user"); string(draft.osUser)
        key("pid"); number(draft.pid)
        key("revision"); number(draft.revision)
        key("schema_version"); number(draft.schemaVersion)
        key("session_id"); string(draft.sessionID)
        key("updated_at"); string(draft.updatedAt)
        key("values")
        values(draft.values, into: &out)
        out.append(UInt8(ascii: "}"))
        return out
    }

    private static func values(_ v: InspectionValues, into out: inout [UInt8]) {
        var first = true
        func key(_ name: StaticString) {
            out.append(first ? UInt8(ascii: "{") : UInt8(ascii: ","))
            first = false
            out.append(UInt8(ascii: "\""))
            name.withUTF8Buffer { out.append(contentsOf: $0) }
            out.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        }
        func string(_ text: String) { appendJSONString(text, to: &out) }
        func optional(_ text: String?) {
            if let text { string(text) } else { out.append(contentsOf: Array("null".utf8)) }
        }
        func bool(_ value: Bool) { out.append(contentsOf: value ? Array("true".utf8) : Array("false".utf8)) }

        key("action"); string(v.action.rawValue)
        if !v.amendmentReason.isEmpty { key("amendment_reason"); string(v.amendmentReason) }
        key("certification_number"); string(v.certificationNumber)
        key("check_corrosion"); bool(v.checkCorrosion)
        key("check_cuts"); bool(v.checkCuts)
        key("check_deformation"); bool(v.checkDeformation)
        key("check_fittings"); bool(v.checkFittings)
        key("check_marking"); bool(v.checkMarking)
        key("confirmed"); bool(v.confirmed)
        key("defect_description"); string(v.defectDescription)
        key("examination_basis"); optional(v.examinationBasis?.rawValue)
        key("inspection_date"); string(v.inspectionDate)
        key("inspection_type"); string(v.inspectionType.rawValue)
        key("inspector_name"); string(v.inspectorName)
        key("installed_correctly"); bool(v.installedCorrectly)
        key("next_examination_by"); string(v.nextExaminationBy)
        key("notes"); string(v.notes)
        key("remedy_deadline"); string(v.remedyDeadline)
        key("remedy_deadline_set"); bool(v.remedyDeadlineSet)
        key("remedy_particulars"); string(v.remedyParticulars)
        key("repair_particulars"); string(v.repairParticulars)
        key("result"); optional(v.result?.rawValue)
        key("scheme_reference"); string(v.schemeReference)
        key("test_particulars"); string(v.testParticulars)
        out.append(UInt8(ascii: "}"))
    }

    /// A JSON string as Foundation's encoder writes it: `"` and `\` escaped, the C0 controls as `\b \f \n \r \t`
    /// or `\u00XX`, everything else (DEL, `/`, non-ASCII) as its UTF-8 bytes.
    static func appendJSONString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        let hex = Array("0123456789abcdef".utf8)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): out.append(contentsOf: [0x5C, 0x5C])
            case 0x08: out.append(contentsOf: [0x5C, UInt8(ascii: "b")])
            case 0x0C: out.append(contentsOf: [0x5C, UInt8(ascii: "f")])
            case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0x00..<0x20:
                out.append(contentsOf: [0x5C, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                        hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
