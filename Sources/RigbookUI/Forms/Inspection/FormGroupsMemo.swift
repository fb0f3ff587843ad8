import RigbookCore
import Synchronization

/// The inspection form's groups and fields in focus order, by the few values that decide which fields apply
/// (`FormField.applies(to:)`): a form asks for them several times a key, and filtering every group's fields
/// again each time was a tenth of a typed character. A pure memo: equal keys give equal groups.
final class FormGroupsMemo: Sendable {
    /// Everything `FormState.groups` reads: whether the form amends, and what `applies(to:)` reads of the values.
    struct Key: Equatable, Sendable {
        var amending: Bool
        var inspectionType: InspectionType
        var result: InspectionResult?

        /// Borrows the form: an owned parameter would copy the whole form (every string retained) per key.
        init(_ form: borrowing FormState) {
            amending = form.amending != nil
            inspectionType = form.values.inspectionType
            result = form.values.result
        }
    }

    struct Groups: Sendable {
        var groups: [(title: String, fields: [FormField])]
        var fields: [FormField]
        /// The multi-line fields among them, which the layout wraps on every key.
        var multiline: [FormField]
    }

    /// The groups last asked for: a form asks for the same ones key after key, and comparing one key costs less
    /// than hashing it.
    private let kept = Mutex<(key: Key, groups: Groups)?>(nil)

    func groups(_ form: FormState) -> Groups {
        let key = Key(form)
        if let groups = kept.withLock({ $0?.key == key ? $0?.groups : nil }) { return groups }
        let groups = FormGroupsMemo.make(amending: key.amending, values: form.values)
        kept.withLock { $0 = (key, groups) }
        return groups
    }

    /// The groups from nothing: what the memo keeps. From the two things they depend on, not the whole form (a
    /// form passed on is copied, every string of it, on each key that asks for its fields).
    static func make(amending: Bool, values: InspectionValues) -> Groups {
        let groups: [(title: String, fields: [FormField])] = FormField.groups
            .filter { amending || !$0.fields.contains(.amendmentReason) }
            // The attachments line is a field with none too: Tab reaches it, and Ctrl-O is said there.
            .map { ($0.title, $0.fields.filter { $0 == .attachments || $0.applies(to: values) }) }
            .filter { !$0.fields.isEmpty }
        let fields = groups.flatMap(\.fields)
        return Groups(groups: groups, fields: fields, multiline: fields.filter { $0.kind == .multiline })
    }
}
