import CCrypto
import Foundation
import RigbookCore

/// Why a key could not be made, read, or used.
public struct KeyError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }

    /// libcrypto's own words for its last error, after ours.
    static func libcrypto(_ what: String) -> KeyError {
        let code = ERR_get_error()
        ERR_clear_error()
        guard code != 0 else { return KeyError(what) }
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buffer, buffer.count)
        let reason = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return KeyError("\(what) (\(reason))")
    }
}

/// An Ed25519 public key: 32 bytes, named by its fingerprint (the SHA-256 of those bytes, in hex). What the
/// register keeps of an examiner's key, and what a certificate carries for anyone to check its signature with.
public struct PublicKey: Sendable, Hashable {
    public let raw: [UInt8]

    public init(raw: [UInt8]) throws(KeyError) {
        guard raw.count == 32 else { throw KeyError("an Ed25519 public key is 32 bytes, not \(raw.count)") }
        self.raw = raw
    }

    /// From the PEM text `openssl pkey -pubout` writes (`-----BEGIN PUBLIC KEY-----`).
    public init(pem: String) throws(KeyError) {
        let key = try Ed25519.withBIO(pem) { bio in PEM_read_bio_PUBKEY(bio, nil, nil, nil) }
        guard let key else { throw KeyError.libcrypto("not an Ed25519 public key in PEM") }
        defer { EVP_PKEY_free(key) }
        try self.init(raw: try Ed25519.rawPublic(key))
    }

    /// The SHA-256 of the key's bytes, 64 hex digits: how a key is named everywhere.
    public var fingerprint: String { (try? HashChain.sha256(raw)) ?? "" }

    /// The fingerprint as people read it aloud: its first 16 digits in fours (`3f2a 9c01 77be 0d4e`).
    public var shortFingerprint: String { RecordProof.grouped(fingerprint) }

    /// PEM text (SubjectPublicKeyInfo), as `openssl pkeyutl -verify -pubin` reads it.
    public var pem: String {
        get throws(KeyError) {
            let key = try evp()
            defer { EVP_PKEY_free(key) }
            return try Ed25519.pemText { bio in PEM_write_bio_PUBKEY(bio, key) }
        }
    }

    /// Whether `signature` is this key's over `message`.
    public func verifies(_ signature: [UInt8], of message: [UInt8]) -> Bool {
        guard signature.count == 64, let key = try? evp() else { return false }
        defer { EVP_PKEY_free(key) }
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, nil, nil, key) == 1 else { return false }
        let verified = signature.withUnsafeBufferPointer { s in
            message.withUnsafeBufferPointer { m in
                EVP_DigestVerify(context, s.baseAddress, s.count, m.baseAddress, m.count)
            }
        }
        ERR_clear_error()
        return verified == 1
    }

    private func evp() throws(KeyError) -> OpaquePointer {
        let key = raw.withUnsafeBufferPointer { EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nil, $0.baseAddress,
                                                                             $0.count) }
        guard let key else { throw KeyError.libcrypto("libcrypto refused the public key") }
        return key
    }
}

/// An Ed25519 private key in memory: made, or read from its PEM file (PKCS #8, under a passphrase when it has one),
/// and used to sign. It is never written anywhere but its own file.
public final class SigningKey: @unchecked Sendable {
    private let key: OpaquePointer
    public let publicKey: PublicKey
    /// libcrypto's signing context for this key, made at the first signature and kept: making one for each was a
    /// sixth of a signature's time (a million-asset sample signs 1.8 million records). One signature at a time.
    private var context: OpaquePointer?
    private let signing = NSLock()

    private init(_ key: OpaquePointer) throws(KeyError) {
        self.key = key
        do {
            publicKey = try PublicKey(raw: try Ed25519.rawPublic(key))
        } catch {
            EVP_PKEY_free(key)
            throw error
        }
    }

    deinit {
        EVP_MD_CTX_free(context)
        EVP_PKEY_free(key)
    }

    /// A new key from the system's random source.
    public static func generate() throws(KeyError) -> SigningKey {
        guard let context = EVP_PKEY_CTX_new_id(EVP_PKEY_ED25519, nil) else {
            throw KeyError.libcrypto("libcrypto cannot make Ed25519 keys")
        }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_keygen(context, &key) == 1, let key else {
            throw KeyError.libcrypto("libcrypto could not make a key")
        }
        return try SigningKey(key)
    }

    /// The key whose 32 private bytes are `seed`: the sample data's keys, the same for the same seed. Never a
    /// person's key, which comes from `generate`.
    static func sample(seed: [UInt8]) throws(KeyError) -> SigningKey {
        guard seed.count == 32 else { throw KeyError("a key's seed is 32 bytes") }
        let key = seed.withUnsafeBufferPointer { EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nil, $0.baseAddress,
                                                                              $0.count) }
        guard let key else { throw KeyError.libcrypto("libcrypto refused the seed") }
        return try SigningKey(key)
    }

    /// The key a PEM file holds; `passphrase` opens one written under a passphrase.
    public convenience init(pem: String, passphrase: String?) throws(KeyError) {
        let encrypted = pem.contains("ENCRYPTED PRIVATE KEY")
        if encrypted && passphrase == nil { throw KeyError("the key is under a passphrase, and none was given") }
        let read = try Ed25519.withBIO(pem) { bio in
            // An empty passphrase for a plain key: libcrypto never asks for one.
            (passphrase ?? "").withCString { word in
                PEM_read_bio_PrivateKey(bio, nil, nil, UnsafeMutableRawPointer(mutating: word))
            }
        }
        guard let read else {
            ERR_clear_error()
            throw KeyError(encrypted ? "the passphrase does not open the key" : "the key file is not an Ed25519 key")
        }
        guard EVP_PKEY_get_id(read) == EVP_PKEY_ED25519 else {
            EVP_PKEY_free(read)
            throw KeyError("the key file is not an Ed25519 key")
        }
        try self.init(read)
    }

    /// The key as PEM (PKCS #8), under `passphrase` with AES-256 when there is one.
    public func pem(passphrase: String?) throws(KeyError) -> String {
        try Ed25519.pemText { bio in
            guard let passphrase, !passphrase.isEmpty else {
                return PEM_write_bio_PKCS8PrivateKey(bio, key, nil, nil, 0, nil, nil)
            }
            var word = Array(passphrase.utf8CString.dropLast())
            return word.withUnsafeMutableBufferPointer { buffer in
                PEM_write_bio_PKCS8PrivateKey(bio, key, EVP_aes_256_cbc(), buffer.baseAddress, Int32(buffer.count),
                                              nil, nil)
            }
        }
    }

    /// The key's signature over `message`: 64 bytes.
    public func sign(_ message: [UInt8]) throws(KeyError) -> [UInt8] {
        signing.lock()
        defer { signing.unlock() }
        // Ed25519 signs in one call, which leaves the context ready for the next; a libcrypto that will not sign twice
        // with one context is given a new one, once.
        for fresh in [context == nil, true] {
            if fresh { try renewContext() }
            if let signature = signOnce(message) { return signature }
            ERR_clear_error()
        }
        throw KeyError.libcrypto("libcrypto could not sign")
    }

    /// A new signing context for the key in place of the kept one (none when libcrypto cannot make one).
    private func renewContext() throws(KeyError) {
        EVP_MD_CTX_free(context)
        let made = EVP_MD_CTX_new()
        guard let made, EVP_DigestSignInit(made, nil, nil, nil, key) == 1 else {
            EVP_MD_CTX_free(made)
            context = nil
            throw KeyError.libcrypto("libcrypto could not sign")
        }
        context = made
    }

    /// The signature over `message` with the kept context; nil when libcrypto would not make it.
    private func signOnce(_ message: [UInt8]) -> [UInt8]? {
        guard let context else { return nil }
        var signature = [UInt8](repeating: 0, count: 64)
        var length = signature.count
        let signed = message.withUnsafeBufferPointer { m in
            EVP_DigestSign(context, &signature, &length, m.baseAddress, m.count) == 1
        }
        return signed && length == 64 ? signature : nil
    }
}

/// libcrypto's pieces shared by the public and the private key.
enum Ed25519 {
    static func rawPublic(_ key: OpaquePointer) throws(KeyError) -> [UInt8] {
        var raw = [UInt8](repeating: 0, count: 32)
        var length = raw.count
        guard EVP_PKEY_get_raw_public_key(key, &raw, &length) == 1, length == 32 else {
            throw KeyError.libcrypto("not an Ed25519 key")
        }
        return raw
    }

    /// `body` reading from a memory BIO over `text`.
    static func withBIO<T>(_ text: String, _ body: (OpaquePointer) -> T) throws(KeyError) -> T {
        let bytes = Array(text.utf8)
        let result: T? = bytes.withUnsafeBufferPointer { buffer in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            return body(bio)
        }
        guard let result else { throw KeyError.libcrypto("libcrypto could not read the text") }
        return result
    }

    /// What `write` writes into a memory BIO, as text; `write` returns libcrypto's 1 for success.
    static func pemText(_ write: (OpaquePointer) -> Int32) throws(KeyError) -> String {
        guard let method = BIO_s_mem(), let bio = BIO_new(method) else {
            throw KeyError.libcrypto("libcrypto could not write")
        }
        defer { BIO_free(bio) }
        guard write(bio) == 1 else { throw KeyError.libcrypto("libcrypto could not write the key") }
        var bytes = [UInt8](repeating: 0, count: Int(BIO_ctrl_pending(bio)))
        let read = BIO_read(bio, &bytes, Int32(bytes.count))
        guard read == bytes.count else { throw KeyError.libcrypto("libcrypto could not write the key") }
        return String(decoding: bytes, as: UTF8.self)
    }
}
