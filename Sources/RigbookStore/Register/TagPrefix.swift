import Foundation
import RigbookCore

extension Register {
    /// The tags that begin with `prefix`, ignoring letter case as tags do, in the order of their keys: what a shell
    /// completes a TAG with, on every Tab. One range read of the tag keys' index (a few milliseconds at 100,000
    /// assets) on a read-only connection that waits at most a moment for a lock. Unlike `openForReading`, it never
    /// brings a register of an earlier build up to date (a write, and minutes at a million assets): such a register,
    /// a missing one, or any failure gives no tags, and nothing is made on disk where there is no register.
    public static func tags(startingWith prefix: String, inRegisterAt path: String) -> [String] {
        guard FileManager.default.fileExists(atPath: path),
              let db = try? Database(path: path, mode: .readOnly, busyTimeoutMilliseconds: 50) else { return [] }
        let key = Tags.key(Tags.normalized(prefix))
        // U+10FFFF sorts after every character a key can continue with: the range is exactly the keys that begin so.
        guard let statement = try? db.prepare("SELECT tag FROM assets WHERE tag_key >= ? AND tag_key < ?"
                                              + " ORDER BY tag_key"),
              (try? statement.bind([.text(key), .text(key + "\u{10FFFF}")])) != nil else { return [] }
        var tags: [String] = []
        while (try? statement.step()) == true { tags.append(statement.text(0)) }
        return tags
    }
}
