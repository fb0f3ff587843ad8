/// The earliest date a record of evidence (an inspection, a test, an instrument's calibration) may carry. A date
/// before it is a slip of the keyboard (`1900`, `0026`), not a record: with no commission date to compare it
/// with, it would otherwise be saved and make the asset overdue since then. One floor and one sentence for the
/// inspection gate and the test gate (DECISIONS: "The earliest date").
public enum RecordDates {
    public static let earliest = CalendarDate(year: 1970, month: 1, day: 1)!

    /// The sentence refusing `date` as "the `what`" when it is before the floor; nil when it is not.
    public static func tooEarly(_ date: CalendarDate, what: String) -> String? {
        guard date < earliest else { return nil }
        return "The \(what) \(date.iso) is before \(earliest.iso), the earliest date a record may carry: "
            + "check the year."
    }
}
