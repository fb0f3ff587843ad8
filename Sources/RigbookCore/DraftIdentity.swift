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

    /// The asset editor's draft id (issue 14): `asset-<uuid>`.
    public static func assetDraftID(assetUUID: UUID) -> String {
        "asset-" + assetUUID.uuidString.lowercased()
    }

    /// One opening of the asset editor: its changes carry it, so a draft already saved is recognised.
    public static func assetSessionID(assetUUID: UUID, session: UUID = UUID()) -> String {
        assetDraftID(assetUUID: assetUUID) + ":" + session.uuidString.lowercased()
    }

    /// The draft id part of a session id.
    public static func draftID(ofSession id: String) -> String {
        String(id.prefix { $0 != ":" })
    }
}
