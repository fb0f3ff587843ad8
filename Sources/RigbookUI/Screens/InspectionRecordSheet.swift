import Foundation
import RigbookCore

/// An inspection record as the record viewer shows it: every field, the report particulars of a thorough
/// examination, the files, who saved it, and what amends it or what it amends. A opens the form amending it.
public struct InspectionRecordSheet: RecordSheet {
    let row: RegisterRow
    let record: StoredInspection
    public var printed: PrintedRecord { .inspection(recordUUID: record.recordUUID) }

    public init(row: RegisterRow, record: StoredInspection) {
        self.row = row
        self.record = record
    }

    public static let keymap = RecordKeys.keymap(title: "Inspection record", [
        KeyBinding([.char("A")], help: "Amend this record, or the newest record amending it "
                   + "(a new record; this one stays as it is)", footer: "amend", rank: .sometimes, action: .amend),
        .scan(.scan),
    ])

    public var title: String {
        let superseded = record.supersededBy.map { " · superseded by #\($0)" }
            ?? record.outrankedBy.map { " · outranked by #\($0)" } ?? ""
        return " Record #\(record.id) · \(row.asset.tag) · \(record.values.inspectionDate)" + superseded
    }

    public func amend() -> Outcome {
        .effects([.openForm(assetUUID: row.asset.uuid, amending: record, recover: false)])
    }

    public var lines: [(String, String)] {
        let v = record.values
        func tick(_ flag: Bool) -> String { flag ? "yes" : "no" }
        // What amends the record, or what it amends, first: it says whether the rest still counts.
        return amendmentLines + [
            (FormField.inspectionType.shortLabel, v.inspectionType.label),
            (FormField.inspectorName.shortLabel, v.inspectorName),
            (FormField.certificationNumber.shortLabel, v.certificationNumber),
            (FormField.checkMarking.briefLabel, tick(v.checkMarking)),
            (FormField.checkCuts.briefLabel, tick(v.checkCuts)),
            (FormField.checkDeformation.briefLabel, tick(v.checkDeformation)),
            (FormField.checkFittings.briefLabel, tick(v.checkFittings)),
            (FormField.checkCorrosion.briefLabel, tick(v.checkCorrosion)),
            (FormField.result.shortLabel, v.result?.label ?? "—"),
            (FormField.notes.shortLabel, v.notes.isEmpty ? "—" : v.notes),
            (FormField.schemeReference.shortLabel, v.schemeReference.isEmpty ? "—" : v.schemeReference),
            (FormField.defectDescription.shortLabel, v.defectDescription.isEmpty ? "—" : v.defectDescription),
            (FormField.action.shortLabel, v.action.label),
            (FormField.remedyDeadlineSet.shortLabel, tick(v.remedyDeadlineSet)),
            (FormField.remedyDeadline.shortLabel, v.remedyDeadline.isEmpty ? "—" : v.remedyDeadline),
            (FormField.inspectionDate.shortLabel, v.inspectionDate),
        ] + reportLines + attachmentLines + [
            (FormField.confirmed.briefLabel, tick(v.confirmed)),
            ("Saved at", record.savedAt),
            ("Saved by (operator)", record.operatorName),
            ("Rigbook version", record.appVersion),
            ("WLL and location then",
             "\(Asset.wllText(record.assetWLLKg)) · \(record.assetLocation.isEmpty ? "—" : record.assetLocation)"),
            ("Session id", record.sessionID),
            ("Record uuid", record.recordUUID.uuidString.lowercased()),
            ("Report number", record.reportNumber ?? "—"),
            ("SHA-256", record.recordHash ?? "—"),
            ("Signed by", record.signedBy?.text ?? SignedBy.beforeKeys),
        ]
    }

    /// The files the record names: name and size, then the SHA-256 they are kept under.
    var attachmentLines: [(String, String)] {
        let files = record.values.attachments
        guard !files.isEmpty else { return [(FormField.attachments.shortLabel, "none")] }
        return files.enumerated().flatMap { index, file in
            [(index == 0 ? FormField.attachments.shortLabel : "", "\(file.name) · \(file.sizeText)"),
             // The whole hash is in `history --format json` and the certificate; 16 digits tell files apart here.
             ("", "SHA-256 \(file.sha256.prefix(16))…")]
        }
    }

    /// A thorough examination's report particulars (Schedule 1): what applies, "not recorded" on a record
    /// saved before they were asked.
    var reportLines: [(String, String)] {
        let v = record.values
        guard v.inspectionType.isThorough else { return [] }
        let notRecorded = "not recorded"
        func text(_ value: String) -> String { value.isEmpty ? "—" : value }
        guard let particulars = record.particulars else {
            return [("Report particulars", notRecorded + " (saved before Schedule 1 particulars were kept)")]
        }
        var lines: [(String, String)] = [
            (FormField.examinationBasis.shortLabel, v.examinationBasis?.label ?? notRecorded),
        ]
        if FormField.installedCorrectly.applies(to: v) {
            lines.append((FormField.installedCorrectly.briefLabel, v.installedCorrectly ? "yes" : "no"))
        }
        lines.append((FormField.testParticulars.shortLabel, text(v.testParticulars)))
        if FormField.repairParticulars.applies(to: v) {
            lines.append((FormField.repairParticulars.shortLabel, text(v.repairParticulars)))
        }
        if FormField.remedyParticulars.applies(to: v) {
            lines.append((FormField.remedyParticulars.shortLabel, text(v.remedyParticulars)))
        }
        lines.append((FormField.nextExaminationBy.briefLabel, text(v.nextExaminationBy)))
        func place(_ name: String, _ address: String) -> String {
            address.isEmpty ? name : name + " · " + address.replacingOccurrences(of: "\n", with: ", ")
        }
        lines += [
            ("Employer", place(particulars.employer.name, particulars.employer.address)),
            ("Site", place(particulars.site.name, particulars.site.address)),
            ("Previous thorough exam.", particulars.previousThoroughExamination ?? "none"),
        ]
        if !particulars.asset.lessor.isEmpty { lines.append(("Lessor", particulars.asset.lessor)) }
        return lines
    }

    /// What the record amends and why, and what superseded it: ids as the history shows them, with uuids.
    var amendmentLines: [(String, String)] {
        func named(_ id: Int64, _ uuid: UUID?) -> String {
            "#\(id)" + (uuid.map { " · " + $0.uuidString.lowercased() } ?? "")
        }
        var lines: [(String, String)] = []
        if let amends = record.amends {
            lines.append(("Amends record", named(amends, record.amendsUUID)))
            for (id, uuid) in zip(record.alsoAmends, record.alsoAmendsUUIDs) {
                lines.append(("Also supersedes", named(id, uuid) + " (conflicting amendments settled)"))
            }
            lines.append((FormField.amendmentReason.label, record.values.amendmentReason.isEmpty ? "—"
                          : record.values.amendmentReason))
        }
        if let newer = record.supersededBy {
            lines.append(("Superseded by", named(newer, record.supersededByUUID)))
            lines.append(("Counts for status", "no: record #\(newer) amends it"))
        } else if let other = record.outrankedBy {
            lines.append(("Outranked by", named(other, record.outrankedByUUID)))
            lines.append(("Counts for status", "no: #\(other), a conflicting amendment of the same record saved "
                          + "later, stands until an amendment of either settles them"))
        }
        return lines
    }
}
