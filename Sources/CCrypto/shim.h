#ifndef RIGBOOK_CCRYPTO_SHIM_H
#define RIGBOOK_CCRYPTO_SHIM_H
// libcrypto's EVP digests (SHA-256 for the register's hash chain); only RigbookStore imports this.
#include <openssl/evp.h>
#endif
