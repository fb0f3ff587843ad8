import Foundation
import Testing
@testable import RigbookStore

/// Ed25519 through libcrypto: a key signs, its public key verifies, and nothing else does; the key file round
/// trips, under a passphrase or not; and Debian's openssl checks a signature with the public key's PEM alone.
@Suite struct SigningKeyTests {
    static let message = Array("rigbook-entry 1\nkind inspection\nparent none\n".utf8)

    @Test func aSignatureVerifiesWithItsKeyOnlyAndOnlyOverItsBytes() throws {
        let key = try SigningKey.generate(), other = try SigningKey.generate()
        let signature = try key.sign(Self.message)
        #expect(signature.count == 64)
        #expect(key.publicKey.verifies(signature, of: Self.message))
        #expect(!other.publicKey.verifies(signature, of: Self.message))
        var changed = Self.message
        changed[changed.count - 2] ^= 1
        #expect(!key.publicKey.verifies(signature, of: changed))
        var forged = signature
        forged[0] ^= 1
        #expect(!key.publicKey.verifies(forged, of: Self.message))
        #expect(key.publicKey.fingerprint.count == 64 && key.publicKey.fingerprint != other.publicKey.fingerprint)
        #expect(key.publicKey.shortFingerprint.split(separator: " ").count == 4)
    }

    /// A key keeps its libcrypto context from one signature to the next: each is still the one a new key of the same
    /// seed makes (Ed25519 signatures depend on the key and the message alone).
    @Test func aKeySignsManyMessagesAsANewKeySignsEach() throws {
        let seed = [UInt8](repeating: 7, count: 32)
        let kept = try SigningKey.sample(seed: seed)
        for index in 0..<5 {
            let message = Self.message + Array("record \(index)".utf8)
            #expect(try kept.sign(message) == (try SigningKey.sample(seed: seed).sign(message)))
            #expect(kept.publicKey.verifies(try kept.sign(message), of: message))
        }
    }

    @Test func theKeyFileRoundTripsUnderAPassphraseAndRefusesTheWrongOne() throws {
        let key = try SigningKey.generate()
        let plain = try key.pem(passphrase: nil)
        #expect(plain.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        #expect(try SigningKey(pem: plain, passphrase: nil).publicKey == key.publicKey)
        let locked = try key.pem(passphrase: "quay crane 7")
        #expect(locked.hasPrefix("-----BEGIN ENCRYPTED PRIVATE KEY-----"))
        #expect(try SigningKey(pem: locked, passphrase: "quay crane 7").publicKey == key.publicKey)
        #expect(throws: KeyError("the passphrase does not open the key")) {
            try SigningKey(pem: locked, passphrase: "quay crane 8")
        }
        #expect(throws: KeyError("the key is under a passphrase, and none was given")) {
            try SigningKey(pem: locked, passphrase: nil)
        }
        #expect(throws: KeyError.self) { try SigningKey(pem: "-----BEGIN PRIVATE KEY-----\nAAAA\n", passphrase: nil) }
        let publicPEM = try key.publicKey.pem
        #expect(publicPEM.hasPrefix("-----BEGIN PUBLIC KEY-----"))
        #expect(try PublicKey(pem: publicPEM) == key.publicKey)
    }

    @Test func debiansOpenSSLChecksASignatureWithThePublicKeyAlone() throws {
        let key = try SigningKey.generate()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sig-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func file(_ name: String, _ bytes: [UInt8]) throws -> String {
            let path = folder.appendingPathComponent(name).path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return path
        }
        let message = try file("record.txt", Self.message)
        let signature = try file("record.sig", try key.sign(Self.message))
        let publicFile = try file("key.pem", Array(try key.publicKey.pem.utf8))
        func openssl(_ input: String) throws -> Int32 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
            process.arguments = ["pkeyutl", "-verify", "-pubin", "-inkey", publicFile, "-rawin", "-in", input,
                                 "-sigfile", signature]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus
        }
        #expect(try openssl(message) == 0)
        #expect(try openssl(try file("other.txt", Array("another record".utf8))) != 0)
    }
}

