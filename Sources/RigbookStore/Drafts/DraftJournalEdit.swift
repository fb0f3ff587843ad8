import Foundation
import RigbookCore

/// A journal line that holds one typed edit: the inspection form's text field typed into and its whole
/// new value, against the draft the journal's lines before it (or the draft file, when they are none) stand for.
/// A typed key is nearly every line, and this line is a cached prefix and the field's text: it can be stored
/// before the key's echo without delaying it, where a whole draft per key cost ~60 µs (PERFORMANCE.md).
///
///     {"draft_id":"inspection-…","edit":"notes","revision":3,"session_id":"…","text":"Sling ok","updated_ms":…}
///
/// `revision` and `session_id` are those of the draft it applies to, as a whole line's are; an edit that does not
/// match the draft before it is passed over. Replayed, it sets the field, puts the focus there and takes its time.
public struct DraftJournalEdit: Codable, Equatable, Sendable {
    public var draftID: String
    /// The field's JSON name (`FormField.key`).
    public var edit: String
    public var revision: Int
    public var sessionID: String
    public var text: String
    /// Milliseconds since 1970 (UTC): a clock read and a number, not a formatted date, on the key's path.
    public var updatedMilliseconds: Int64

    enum CodingKeys: String, CodingKey {
        case draftID = "draft_id", edit, revision, sessionID = "session_id", text, updatedMilliseconds = "updated_ms"
    }

    /// `draft` with this edit made, or nil when it does not apply to it (another draft, session or revision, a
    /// form kind without typed edits, a field this build does not know).
    func applied(to draft: DraftFile) -> DraftFile? {
        guard draft.draftID == draftID, draft.sessionID == sessionID, draft.revision == revision,
              draft.formKind == DraftFile.formKind, draft.assetValues == nil, draft.testValues == nil,
              let field = FormField(key: edit)
        else { return nil }
        var edited = draft
        edited.values[text: field] = text
        edited.focusedField = edit
        edited.updatedAt = Timestamp.string(Date(timeIntervalSince1970: Double(updatedMilliseconds) / 1000))
        return edited
    }

    /// The line's bytes up to its text, which stay the same key after key: kept by the journal.
    static func prefix(draftID: String, field: String, revision: Int, sessionID: String) -> [UInt8] {
        var o = JSONObjectBytes()
        o.key("draft_id"); o.string(draftID)
        o.key("edit"); o.string(field)
        o.key("revision"); o.number(revision)
        o.key("session_id"); o.string(sessionID)
        o.key("text")
        return o.bytes
    }

    /// The whole line: `prefix`, the text and the time.
    static func line(prefix: [UInt8], text: String, updatedMilliseconds: Int64) -> [UInt8] {
        var out = prefix
        out.reserveCapacity(prefix.count + text.utf8.count + 40)
        JSONObjectBytes.appendString(text, to: &out)
        appendEnd(updatedMilliseconds, to: &out)
        return out
    }

    /// After the text's closing quote: the time and the end of the object.
    private static func appendEnd(_ updatedMilliseconds: Int64, to out: inout [UInt8]) {
        out.append(contentsOf: #","updated_ms":"#.utf8)
        out.append(contentsOf: String(updatedMilliseconds).utf8)
        out.append(UInt8(ascii: "}"))
    }

    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
    }
}
