import Synchronization

/// What the list's drawing keeps from one frame to the next, owned by the list it draws: a copy of the list
/// shares it (each memo is keyed by everything its drawing reads, so a stale entry can only be missed, never
/// shown), and a second list in the same process, a test's or the bench's, keeps its own.
final class ListMemos: Sendable {
    let rows = ListRowMemo()
    let columns = ColumnsMemo()
    let title = ScreenRowMemo<ListView.TitleKey>()
    let counts = ScreenRowMemo<ListView.CountsKey>()
    let headings = ScreenRowMemo<[ListColumn]>()
    let footerRow = ScreenRowMemo<ListView.FooterKey>()
    let footer = FooterMemo { ListState.keymap.footer(width: $0) }
    private let versions = Atomic<Int>(0)

    /// A version of the list's rows no copy sharing these memos has had (`ListState.rowsVersion`).
    func newVersion() -> Int { versions.wrappingAdd(1, ordering: .relaxed).newValue }

    /// The columns as last laid out, the same array while nothing they follow changes: every row's memo compares
    /// its columns with the kept row's, and one array compares by identity, not column by column.
    final class ColumnsMemo: Sendable {
        private struct Kept: Sendable {
            var width: Int
            var tagWidth: Int
            var content: ListColumn.ContentWidths
            var columns: [ListColumn]
        }

        private let kept = Mutex<Kept?>(nil)

        func columns(width: Int, tagWidth: Int, content: ListColumn.ContentWidths) -> [ListColumn] {
            if let kept = kept.withLock({ $0 }), kept.width == width, kept.tagWidth == tagWidth,
               kept.content == content {
                return kept.columns
            }
            let columns = ListView.columns(width: width, tagWidth: tagWidth, content: content)
            kept.withLock { $0 = Kept(width: width, tagWidth: tagWidth, content: content, columns: columns) }
            return columns
        }
    }
}
