import Foundation
import RigbookCore
import RigbookStore
@testable import RigbookUI
@testable import RigbookApp
import Testing

/// A save signs with its examiner's key: made at the first save on this machine, asked for its passphrase once a
/// run when it has one, and never leaving a record half-signed or a draft lost.
@Suite(.serialized) struct SaveSigningTests {
    @Test func theFirstSaveMakesTheExaminersKeyAndSignsTheRecord() throws {
        let h = try FormHarness(profile: Profile(inspectorName: "Ann Smith", certificationNumber: "LEEA-1"))
        h.press(.char("i"))
        h.fillCompletePass()
        h.press(.ctrl("s"))
        #expect(h.form == nil)
        let record = try #require(try h.history().first)
        #expect(record.signedBy?.examiner == "Ann Smith", "\(String(describing: record.signedBy))")
        let keys = try h.register.examinerKeys()
        #expect(keys.map(\.examiner) == ["Ann Smith"])
        #expect(KeyRing(home: h.home).fingerprints() == keys.map(\.fingerprint))
        #expect(try h.register.verifyChain().problems.isEmpty)
    }

    @Test func aKeyUnderAPassphraseIsAskedForOnceAWrongOneAskedAgainAndEscKeepsTheDraft() throws {
        let h = try FormHarness(profile: Profile(inspectorName: "Ann Smith", certificationNumber: "LEEA-1"))
        let key = try KeyRing(home: h.home).create(passphrase: "quay crane 7")
        try h.register.addKey(key.publicKey, examiner: "Ann Smith")
        h.press(.char("i"))
        h.fillCompletePass()
        h.press(.ctrl("s"))
        #expect(h.shows("under a passphrase"), "\(h.screenText)")
        #expect(try h.history().isEmpty, "nothing saved unsigned")
        // Esc: not saved, and the form is still there with what was typed.
        h.press(.escape)
        #expect(h.form != nil && h.shows("stays locked"), "\(h.screenText)")
        // A wrong passphrase is said, and asked again.
        h.press(.ctrl("s"))
        h.type("quay crane 8")
        h.press(.enter)
        #expect(h.shows("does not open the key"), "\(h.screenText)")
        #expect(try h.history().isEmpty)
        h.type("quay crane 7")
        #expect(!h.shows("quay crane 7"), "the passphrase is never shown")
        h.press(.enter)
        #expect(h.form == nil, "\(h.screenText)")
        let record = try #require(try h.history().first)
        #expect(record.signedBy?.fingerprint == key.publicKey.fingerprint)
        // Kept for the run: the next save asks nothing.
        h.press(.char("i"))
        h.fillCompletePass()
        h.press(.ctrl("s"))
        #expect(h.form == nil, "\(h.screenText)")
        #expect(try h.history().count == 2)
    }

    @Test func aKeyFileOthersCanReadIsRefusedAtTheGateAndTheDraftStays() throws {
        let h = try FormHarness(profile: Profile(inspectorName: "Ann Smith", certificationNumber: "LEEA-1"))
        let key = try KeyRing(home: h.home).create(passphrase: nil)
        try h.register.addKey(key.publicKey, examiner: "Ann Smith")
        let file = h.home.keysFolder + "/\(key.publicKey.fingerprint).pem"
        chmod(file, 0o644)
        h.press(.char("i"))
        h.fillCompletePass()
        h.press(.ctrl("s"))
        #expect(h.form != nil)
        #expect(h.shows("chmod 600"), "\(h.screenText)")
        #expect(try h.history().isEmpty)
        h.advance(0.6)
        #expect(try h.readDraft() != nil, "the draft is kept")
        chmod(file, 0o600)
        h.press(.ctrl("s"))
        #expect(h.form == nil)
        #expect(try h.history().first?.signedBy != nil)
    }
}
