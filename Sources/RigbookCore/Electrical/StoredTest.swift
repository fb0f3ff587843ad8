import Foundation

/// A saved test as the register keeps it (append-only, in the hash chain like an inspection record).
public struct StoredTest: Sendable, Equatable {
    public var id: Int64
    public var testUUID: UUID
    public var assetUUID: UUID
    public var sessionID: String
    public var values: TestValues
    public var passed: Bool
    public var verdicts: [StoredVerdict]
    public var savedAt: String
    public var appVersion: String
    public var operatorName: String
    public var entryHash: String?
    /// The limits the readings were judged by (the register's when the form opened); nil when the stored
    /// JSON cannot be read.
    public var limits: TestLimits?

    public init(id: Int64, testUUID: UUID, assetUUID: UUID, sessionID: String, values: TestValues, passed: Bool,
                verdicts: [StoredVerdict], savedAt: String, appVersion: String, operatorName: String,
                entryHash: String?, limits: TestLimits? = nil) {
        self.limits = limits
        self.id = id
        self.testUUID = testUUID
        self.assetUUID = assetUUID
        self.sessionID = sessionID
        self.values = values
        self.passed = passed
        self.verdicts = verdicts
        self.savedAt = savedAt
        self.appVersion = appVersion
        self.operatorName = operatorName
        self.entryHash = entryHash
    }

    /// A test counts for status as a thorough examination of its kind: a pass restarts the interval, a fail
    /// makes the asset DO NOT USE until a later passing test (SPEC §12, §7).
    public var facts: RecordFacts {
        TestFacts.facts(id: id, passed: passed, date: CalendarDate(iso: values.testDate) ?? CalendarDate(dayNumber: 0))
    }
}

/// One reading's verdict as stored (JSON in the record): field, outcome, text.
public struct StoredVerdict: Hashable, Sendable, Codable {
    public var field: String
    public var outcome: String
    public var text: String

    public init(_ v: ReadingVerdict) {
        field = v.field.rawValue
        outcome = v.outcome.rawValue
        text = v.text
    }
}

public enum TestFacts {
    public static func facts(id: Int64, passed: Bool, date: CalendarDate) -> RecordFacts {
        RecordFacts(id: id, type: .thoroughPeriodic, result: passed ? .pass : .failDangerous,
                    action: .none, remedyDeadline: nil, inspectionDate: date)
    }
}

extension ValidatedTest {
    public func facts(id: Int64) -> RecordFacts { TestFacts.facts(id: id, passed: passed, date: testDate) }
}
