/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The libraries the benchmark compares with, behind one interface:
 * OpenSSL (EVP_chacha20, natively and with its AVX-512 code masked off
 * through OPENSSL_ia32cap), libsodium and libgcrypt, all from Debian's
 * -dev packages.  Each call encrypts one message from the start of the
 * key stream at the benchmark's IV, which is set per message.
 */
#ifndef BENCH_PEERS_H
#define BENCH_PEERS_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Set up every peer (20 rounds, the 16-byte IV in the kernel's layout:
 * le32 counter, 12 nonce bytes); returns how many there are.
 */
unsigned int peers_init(const uint8_t *key, const uint8_t *iv);

/* Peer @i: its name (the CSV name), or NULL past the last. */
const char *peer_name(unsigned int i);

/* XOR @len bytes of peer @i's key stream for the IV into @src, to @dst. */
void peer_crypt(unsigned int i, uint8_t *dst, const uint8_t *src,
		unsigned int len);

/*
 * The libraries' ChaCha20-Poly1305 (RFC 8439): OpenSSL's
 * EVP_chacha20_poly1305, libsodium's IETF construction, libgcrypt's
 * GCRY_CIPHER_MODE_POLY1305.  Set up every one with the 32-byte key and
 * the 12-byte nonce of every message; returns how many there are.
 */
unsigned int peers_aead_init(const uint8_t *key, const uint8_t *nonce);

/* AEAD peer @i: its name (the CSV name), or NULL past the last. */
const char *peer_aead_name(unsigned int i);

/*
 * One message of @len bytes from @src to @dst with @adlen bytes of AD:
 * encrypting, the tag to @tag; decrypting, checked against @tag.  Returns
 * 0, or -1 if the tag does not match or the library fails.
 */
int peer_aead(unsigned int i, bool decrypt, uint8_t *dst, const uint8_t *src,
	      unsigned int len, const uint8_t *ad, unsigned int adlen,
	      uint8_t *tag);

#endif /* BENCH_PEERS_H */
