import Foundation
import RigbookCore

/// A batch inspection's draft (`Documents/Drafts/batch-<visit>.json`): the assets of the batch
/// and the shared values, with the same header as a single form's draft (docs/FORMATS.md).
/// The batch's own keys (`Contents`) read as its own: `draft.assets`, as `draft.updatedAt` is the header's.
@dynamicMemberLookup
public struct BatchDraftFile: Codable, Equatable, Sendable {
    public static let formKind = "batch"

    /// One asset of the batch: its uuid, and its tag as it was when the draft was written (for people).
    public struct Member: Codable, Equatable, Sendable {
        public var assetUUID: String
        public var assetTag: String

        public init(assetUUID: String, assetTag: String) {
            self.assetUUID = assetUUID
            self.assetTag = assetTag
        }

        enum CodingKeys: String, CodingKey {
            case assetUUID = "asset_uuid"
            case assetTag = "asset_tag"
        }
    }

    /// What a batch's draft holds beyond the header every draft has, written flat beside it.
    public struct Contents: Codable, Equatable, Sendable {
        public var formKind: String = BatchDraftFile.formKind
        /// The visit every record of the batch will carry (lower case).
        public var visitUUID: String
        public var assets: [Member]
        public var values: InspectionValues
        /// Left out of the file (not null) when no field has the focus, as batch drafts have always been written.
        public var focusedField: String?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case formKind = "form_kind"
            case visitUUID = "visit_uuid"
            case assets, values
            case focusedField = "focused_field"
        }
    }

    /// The file's id (`batch-<visit uuid>`, its name), its schema, who wrote it and when, as a single form's draft.
    public var header: DraftHeader
    public var contents: Contents
    /// What a newer build wrote that this one does not read: written back untouched.
    public var unknownKeys = UnknownDraftKeys()

    public init(visit: UUID, assets: [Member], values: InspectionValues, createdAt: String, updatedAt: String,
                operatorName: String, osUser: String = SystemIdentity.userName,
                host: String = SystemIdentity.hostName, pid: Int32 = SystemIdentity.processID, revision: Int,
                focusedField: String? = nil) {
        header = DraftHeader(draftID: BatchIdentity.draftID(visit: visit), createdAt: createdAt, updatedAt: updatedAt,
                             operatorName: operatorName, osUser: osUser, host: host, pid: pid, revision: revision)
        contents = Contents(visitUUID: visit.uuidString.lowercased(), assets: assets, values: values,
                            focusedField: focusedField)
    }

    public subscript<Value>(dynamicMember field: WritableKeyPath<Contents, Value>) -> Value {
        get { contents[keyPath: field] }
        set { contents[keyPath: field] = newValue }
    }

    public var visit: UUID? { UUID(uuidString: contents.visitUUID) }

    public init(from decoder: Decoder) throws {
        header = try DraftHeader(from: decoder)
        contents = try Contents(from: decoder)
    }

    public func encode(to encoder: Encoder) throws {
        try header.encode(to: encoder)
        try contents.encode(to: encoder)
    }
}

extension BatchDraftFile: DraftDocument {
    public static let knownKeys = Set(Contents.CodingKeys.allCases.map(\.stringValue)).union(DraftHeader.keys)
    public var knownValueKeys: Set<String> { InspectionValues.jsonKeys }
}

extension DraftStore {
    /// Ids a lock may be taken on: a single form's draft id or a batch's.
    static func isLockableID(_ id: String) -> Bool { isDraftID(id) || BatchIdentity.visit(ofDraftID: id) != nil }

    /// The batch drafts present, from the file names alone.
    public func batchIDs() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix(".json") }
            .map { String($0.dropLast(5)) }
            .filter { BatchIdentity.visit(ofDraftID: $0) != nil }
            .sorted()
    }

    /// Writes a batch draft atomically and durably, as `write(_:)` writes a single form's.
    public func write(batch draft: BatchDraftFile) throws {
        guard BatchIdentity.visit(ofDraftID: draft.draftID) != nil,
              draft.draftID == draft.visit.map(BatchIdentity.draftID(visit:)) else {
            throw DraftStoreError.io("\(draft.draftID) is not a batch draft id")
        }
        try writeFile(draft, id: draft.draftID)
    }

    /// The batch draft with this id, nil when there is none; read under the same rules as any draft (no link
    /// followed, a regular file of at most 1 MB), and one whose contents do not match its name is unreadable.
    public func readBatch(id: String) throws(DraftStoreError) -> BatchDraftFile? {
        guard let data = try readBytes(id: id) else { return nil }
        let draft = try DraftStore.decode(data, as: BatchDraftFile.self)
        guard draft.draftID == id, draft.visit.map(BatchIdentity.draftID(visit:)) == id,
              draft.assets.allSatisfy({ UUID(uuidString: $0.assetUUID) != nil }) else {
            throw .unreadable("its contents do not match its name")
        }
        return draft
    }
}
