import Foundation

/// Names of drafts, made from the form kind and the asset's UUID only, never from typed text, so no
/// tag can steer a path.
public enum DraftIdentity {
    /// The draft id, which names the file (`Documents/Drafts/<id>.json`): one per form kind and asset.
    public static func draftID(assetUUID: UUID) -> String {
        "inspection-" + assetUUID.uuidString.lowercased()
    }

    /// The session id saved with the record (a unique column): the draft id plus one form session, so the same
    /// form can be saved once, and a later inspection of the same asset gets a new one.
    public static func sessionID(assetUUID: UUID, session: UUID = UUID()) -> String {
        draftID(assetUUID: assetUUID) + ":" + session.uuidString.lowercased()
    }

    /// The asset editor's draft id: `asset-<uuid>`.
    public static func assetDraftID(assetUUID: UUID) -> String {
        "asset-" + assetUUID.uuidString.lowercased()
    }

    /// One opening of the asset editor: its changes carry it, so a draft already saved is recognised.
    public static func assetSessionID(assetUUID: UUID, session: UUID = UUID()) -> String {
        assetDraftID(assetUUID: assetUUID) + ":" + session.uuidString.lowercased()
    }

    /// The draft id part of a session id.
    public static func draftID(ofSession id: String) -> String { String(id.prefix { $0 != ":" }) }
}

/// Names of a batch inspection: its visit id names the draft file (`batch-<visit>`) and links
/// the records it saves; each record's session id is the batch's draft id and its asset, so every record has
/// its own, and a batch saved just before a crash is recognised by any one of them.
public enum BatchIdentity {
    public static let prefix = "batch-"

    public static func draftID(visit: UUID) -> String { prefix + visit.uuidString.lowercased() }

    public static func sessionID(visit: UUID, assetUUID: UUID) -> String {
        draftID(visit: visit) + ":" + assetUUID.uuidString.lowercased()
    }

    /// The visit a batch draft id names, read from the id alone; nil for anything else.
    public static func visit(ofDraftID id: String) -> UUID? {
        guard id.hasPrefix(prefix), id.count == prefix.count + 36 else { return nil }
        let text = id.dropFirst(prefix.count)
        guard text == text.lowercased() else { return nil }
        return UUID(uuidString: String(text))
    }
}
