import Foundation
import RigbookCore

/// What the list of a large register holds instead of every row: the rows around the screen, where they are in
/// the list, and how long the list is. The register reads a window by keyset from a row at its edge, so a key, a
/// frame and the memory the list holds cost what a few screens cost, whatever the register's size.
public struct ListWindow: Sendable, Equatable {
    /// Position in the list of the window's first row (`ListState.rows[0]`).
    public var start: Int
    /// How many rows the list has: the counts of the statuses shown.
    public var total: Int
    /// The list's statuses (retired last, when shown), in attention order.
    public var statuses: [AssetStatus]
    /// Which filter's answer the window holds rows of, by position in it (`ListState.filterAnswers`); nil when it
    /// holds the whole list's, by keyset.
    public var filterAnswer: Int? = nil

    /// Rows a load reads beyond the screen on each side; after that, a page ahead is read while the loop waits.
    public static let margin = 100
    /// The most rows a window keeps (on a screen taller than `walk`, the screen and a page each side of it): a read
    /// that would grow it further lets the far side go.
    static let largest = 8 * margin
    /// Further than this from the window, a move reads afresh from an end of the list rather than walking to it.
    static let walk = 4 * margin
}

/// A read of rows for the window: `limit` rows after `anchor` (nil: from the first row), or before it when
/// `backwards` (nil: from the last row).
public struct ListWindowRequest: Sendable, Equatable {
    public var anchor: ListAnchor?
    public var backwards: Bool
    public var limit: Int
    public var today: CalendarDate
    public var statuses: [AssetStatus]
    public var counts: [AssetStatus: Int]
    /// A filtered list's rows, read by uuid instead of by keyset (nil: the whole list's).
    public var matched: MatchedRead? = nil
}

/// Rows of a filter's answer to read: those at `from` on in the answer, by their uuids.
public struct MatchedRead: Sendable, Equatable {
    public var answer: Int
    public var from: Int
    public var uuids: [UUID]
}

/// The rows a `ListWindowRequest` read, in list order.
public struct ListWindowPage: Sendable {
    public var request: ListWindowRequest
    public var rows: [RegisterRow]

    public init(request: ListWindowRequest, rows: [RegisterRow]) {
        self.request = request
        self.rows = rows
    }
}

/// A large register read for its list: the counts, and a window of rows around the row to select.
public struct ListWindowLoad: Sendable {
    public var counts: [AssetStatus: Int]
    public var statuses: [AssetStatus]
    /// The window's rows, in list order, and the position of the first.
    public var rows: [RegisterRow]
    public var start: Int
    /// The row to select (nil: the position the selection had, within the list's new length).
    public var selected: UUID?
    /// Assets with a draft, and with an interval longer than LOLER allows, in the whole register.
    public var drafts: Int
    public var flaggedIntervals: Int
    /// The register's longest tags: the tag column fits them, wherever they are in the list.
    public var longestTags: [String]
    public var particulars: Particulars
    public var batchDrafts: Set<String>
    /// The register's state the load saw: a filter index made from it is current.
    public var stamp: RegisterStamp

    public init(counts: [AssetStatus: Int], statuses: [AssetStatus], rows: [RegisterRow], start: Int,
                selected: UUID?, drafts: Int, flaggedIntervals: Int, longestTags: [String], particulars: Particulars,
                batchDrafts: Set<String>, stamp: RegisterStamp) {
        self.stamp = stamp
        self.longestTags = longestTags
        self.counts = counts
        self.statuses = statuses
        self.rows = rows
        self.start = start
        self.selected = selected
        self.drafts = drafts
        self.flaggedIntervals = flaggedIntervals
        self.particulars = particulars
        self.batchDrafts = batchDrafts
    }
}
