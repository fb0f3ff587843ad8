import Foundation
import RigbookCore

/// Makes a batch's rows as `Register.load` inserts them (each asset with its summary, then its records, then its
/// tests each with its attachments), with everything but what the chain gives them: this runs on a thread of its
/// own, ahead of the chain. Record uuids are drawn and report numbers taken in the order `Register.load` takes
/// them, so the rows are the same. Used by one thread at a time.
final class BulkRowMaker: @unchecked Sendable {
    private let identity: String
    private var reportSequence: Int
    private let addedAt: @Sendable () -> String
    private let saved: @Sendable (CalendarDate) -> SaveStamp
    private let recordUUID: () -> UUID
    private let whoSigns: @Sendable (String, CalendarDate) -> RecordSigner?
    private let statuses: StatusColumns.Ahead
    /// Every signer met so far, each once, and where it is among them by its key's fingerprint.
    private var signers: [RecordSigner] = []
    private var signerIndex: [String: Int] = [:]

    init(identity: String, reportSequence: Int, addedAt: @escaping @Sendable () -> String,
         saved: @escaping @Sendable (CalendarDate) -> SaveStamp, recordUUID: @escaping () -> UUID,
         signer: @escaping @Sendable (String, CalendarDate) -> RecordSigner?) throws {
        statuses = try StatusColumns.Ahead(columns: AssetColumns.written)
        self.identity = identity
        self.reportSequence = reportSequence
        self.addedAt = addedAt
        self.saved = saved
        self.recordUUID = recordUUID
        whoSigns = signer
    }

    func rows(_ batch: Register.LoadBatch) throws -> BulkRows {
        var rows = BulkRows(capacity: batch.items.count)
        rows.sequenceBefore = reportSequence
        for ((asset, records, tests), particulars) in zip(batch.items, batch.particularsJSON) {
            // What SQLite's foreign keys would check, which the load leaves off: each record and test is of the asset
            // it comes with (inserted before it), and a batch holds no amendments.
            guard records.allSatisfy({ $0.assetUUID == asset.uuid && $0.amends == nil }),
                  tests.allSatisfy({ $0.assetUUID == asset.uuid }) else {
                throw RegisterError.writeFailed("a bulk load's record is not of the asset it came with, or amends one")
            }
            let summary = Register.LoadBatch.summary(records: records, tests: tests, saved: saved)
            var values = AssetColumns.values(asset, summary: summary, createdAt: addedAt())
            values += try statuses.values(values)
            rows.append(.asset, values, signer: nil)
            for (record, particularsJSON) in zip(records, particulars) {
                var values = InspectionColumns.values(record, recordUUID: recordUUID(), amendsID: nil, asset: asset,
                                                      saved: saved(record.inspectionDate),
                                                      particularsJSON: particularsJSON)
                values.append(reportNumber(record))
                rows.append(.inspection, values, signer: signer(record.values.inspectorName, record.inspectionDate))
            }
            for test in tests {
                let testUUID = recordUUID(), stamp = saved(test.testDate)
                rows.append(.test, try TestColumns.values(test, testUUID: testUUID, asset: asset, saved: stamp),
                            signer: signer(test.values.technician, test.testDate))
                for values in AttachmentColumns.entries(test.values.attachments, kind: AttachmentColumns.testKind,
                                                        recordUUID: testUUID, attachedAt: stamp.savedAt) {
                    rows.append(.attachment, values, signer: nil)
                }
            }
        }
        rows.assets = batch.items.count
        rows.sequenceAfter = reportSequence
        rows.signers = signers
        return rows
    }

    /// Where the examiner who signs what `examiner` saved on `date` is among `signers` (nil: nobody signs it).
    private func signer(_ examiner: String, _ date: CalendarDate) -> Int? {
        guard let signer = whoSigns(examiner, date) else { return nil }
        if let index = signerIndex[signer.fingerprint] { return index }
        signers.append(signer)
        signerIndex[signer.fingerprint] = signers.count - 1
        return signers.count - 1
    }

    /// A thorough examination takes the next number of the register's gap-free sequence (`Register.chained`).
    private func reportNumber(_ record: ValidatedInspection) -> SQLValue {
        guard record.values.inspectionType.isThorough else { return .null }
        reportSequence += 1
        return .text(ReportNumber.make(identity: identity, sequence: reportSequence))
    }
}
