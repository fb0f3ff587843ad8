import RigbookCore

/// An inspection draft as the journal's JSON line, written straight into bytes (`JSONObjectBytes`): the same bytes
/// `JSONEncoder` writes with `.sortedKeys` and `.withoutEscapingSlashes` (DraftJournalLineTests compares them).
/// Any draft holding what this writer does not write (an asset editor's or a test's values, reg 10's answers,
/// attachments, keys a newer build wrote) is nil here and goes through `JSONEncoder`: slower, never wrong.
enum DraftJournalLine {
    private static let valuesFields = InspectionValues.jsonFields.sortedByKey()

    static func bytes(_ draft: DraftFile) -> [UInt8]? {
        guard draft.assetValues == nil, draft.testValues == nil, draft.defectNotice == nil,
              draft.unknownKeys.isEmpty else { return nil }
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
        // The values' object, written by the field list that is their JSON (`InspectionValues.jsonFields`).
        guard let values = valuesFields.jsonBytes(draft.values) else { return nil }
        o.key("values"); o.raw(values)
        return o.closed()
    }
}
