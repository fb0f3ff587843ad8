#ifndef RIGBOOK_CCRYPTO_SHIM_H
#define RIGBOOK_CCRYPTO_SHIM_H
// libcrypto's EVP interface: SHA-256 for the register's hash chain, Ed25519 for examiners' signatures, PEM for
// their key files. Only RigbookStore imports this.
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/err.h>
#endif
