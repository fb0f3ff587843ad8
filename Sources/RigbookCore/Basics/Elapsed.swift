import Foundation

/// How long ago something happened, as a person reads it in a list: "40 s", "3 min", "2 h", "5 days".
public enum Elapsed {
    public static func text(_ seconds: TimeInterval) -> String {
        let s = max(0, Int(seconds))
        if s < 60 { return "\(s) s" }
        if s < 3600 { return "\(s / 60) min" }
        if s < 86_400 { return "\(s / 3600) h" }
        return "\(s / 86_400) day\(s / 86_400 == 1 ? "" : "s")"
    }
}
