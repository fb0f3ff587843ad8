import Foundation
import Testing
@testable import RigbookCore
@testable import RigbookStore

/// `Register.record` checks a change against the particulars in force under its write lock.
@Suite struct ParticularsRecordTests {
    @Test func aNameAnotherConnectionTookIsRefusedAndNothingIsAppended() throws {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            let first = try Register.open(path: path), second = try Register.open(path: path)
            let seen = try first.particulars()
            try second.record(.examiner(Examiner(name: "Ann Smith")))
            let late = ParticularsChange.examiner(Examiner(name: "ann smith"))
            #expect(late.problems(in: seen).isEmpty, "what the first connection read allowed it")
            #expect(throws: RegisterError.invalidParticulars(["Another examiner is already named ann smith."])) {
                try first.record(late)
            }
            #expect(try first.particulars().examiners.count == 1)
            #expect(try first.particularsHistory(subject: late.subject).isEmpty)
        }
    }

    @Test func versionsAreKeptOldestFirstAndAnEqualOneIsNotKeptAgain() throws {
        try withTemporaryDirectory { folder in
            let register = try Register.open(path: registerPath(in: folder))
            var employer = try #require(try register.particulars().employers[Particulars.mainEmployerUUID])
            employer.name = "ACME"
            #expect(try register.record(.employer(employer)))
            #expect(try !register.record(.employer(employer)), "the same again adds nothing")
            employer.address = "1 Quay Road"
            #expect(try register.record(.employer(employer)))
            let history = try register.particularsHistory(subject: employer.uuid)
            #expect(history.map { $0.change[.name] } == ["Main employer", "ACME", "ACME"])
            #expect(history.map { $0.change[.address] } == ["", "", "1 Quay Road"])
        }
    }
}
