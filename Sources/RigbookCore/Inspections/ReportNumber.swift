/// A thorough examination's report number: the register identity's first 8 hex digits in upper case, a
/// dash and the register's gap-free sequence padded to 6 digits, e.g. `7F3A91C2-000123` (docs/FORMATS.md).
public enum ReportNumber {
    public static func make(identity: String, sequence: Int) -> String {
        let digits = String(sequence)
        return identity.prefix(8).uppercased() + "-" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }
}
