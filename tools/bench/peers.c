// SPDX-License-Identifier: GPL-2.0
/*
 * The libraries beside the module: OpenSSL, libsodium, libgcrypt, for
 * ChaCha20 and for ChaCha20-Poly1305.
 *
 * OpenSSL reads OPENSSL_ia32cap once, when libcrypto is loaded.  The
 * masked row ("openssl-noavx512", for CPUs where OpenSSL would run its
 * AVX-512 code) therefore loads a second copy of libcrypto into a link
 * map namespace of its own (dlmopen) with AVX512F and AVX512VL masked off;
 * the native row uses the copy the benchmark is linked with.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gcrypt.h>
#include <openssl/evp.h>
#include <sodium.h>

#include "peers.h"

/* CPUID leaf 7 EBX bits 16 (AVX512F) and 31 (AVX512VL), OpenSSL's syntax. */
#define OSSL_NOAVX512	":~0x80010000"

struct ossl_api {
	EVP_CIPHER_CTX *ctx;
	int (*init)(EVP_CIPHER_CTX *ctx, const EVP_CIPHER *type, ENGINE *impl,
		    const unsigned char *key, const unsigned char *iv);
	int (*update)(EVP_CIPHER_CTX *ctx, unsigned char *out, int *outl,
		      const unsigned char *in, int inl);
	EVP_CIPHER_CTX *(*ctx_new)(void);
	const EVP_CIPHER *(*chacha20)(void);
};

enum peer_kind { PEER_OPENSSL, PEER_SODIUM, PEER_GCRYPT };

struct peer {
	const char *name;
	enum peer_kind kind;
	struct ossl_api ossl;
	gcry_cipher_hd_t gcry;
};

#define MAX_PEERS	4

static struct peer peers[MAX_PEERS];
static unsigned int npeers;
static uint8_t peer_key[32], peer_iv[16];

static int ossl_setup(struct ossl_api *o)
{
	o->ctx = o->ctx_new();
	if (!o->ctx || o->init(o->ctx, o->chacha20(), NULL, peer_key,
			       peer_iv) != 1)
		return -1;
	return 0;
}

/* A second libcrypto with OPENSSL_ia32cap masking AVX-512. */
static int ossl_masked(struct ossl_api *o)
{
	const char *old = getenv("OPENSSL_ia32cap");
	char *saved = old ? strdup(old) : NULL;
	void *h;

	setenv("OPENSSL_ia32cap", OSSL_NOAVX512, 1);
	h = dlmopen(LM_ID_NEWLM, "libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
	if (saved) {
		setenv("OPENSSL_ia32cap", saved, 1);
		free(saved);
	} else {
		unsetenv("OPENSSL_ia32cap");
	}
	if (!h) {
		fprintf(stderr, "bench: dlmopen libcrypto.so.3: %s\n",
			dlerror());
		return -1;
	}
	o->ctx_new = dlsym(h, "EVP_CIPHER_CTX_new");
	o->chacha20 = dlsym(h, "EVP_chacha20");
	o->init = dlsym(h, "EVP_EncryptInit_ex");
	o->update = dlsym(h, "EVP_EncryptUpdate");
	if (!o->ctx_new || !o->chacha20 || !o->init || !o->update)
		return -1;
	return ossl_setup(o);
}

static struct peer *new_peer(const char *name, enum peer_kind kind)
{
	struct peer *p = &peers[npeers];

	memset(p, 0, sizeof(*p));
	p->name = name;
	p->kind = kind;
	return p;
}

/* libgcrypt initialised once, for ChaCha20 or the AEAD, whichever first. */
static bool gcry_ready(void)
{
	if (gcry_control(GCRYCTL_INITIALIZATION_FINISHED_P))
		return true;
	if (!gcry_check_version(NULL))
		return false;
	gcry_control(GCRYCTL_DISABLE_SECMEM, 0);
	gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
	return true;
}

unsigned int peers_init(const uint8_t *key, const uint8_t *iv)
{
	struct peer *p;

	memcpy(peer_key, key, sizeof(peer_key));
	memcpy(peer_iv, iv, sizeof(peer_iv));

	p = new_peer("openssl", PEER_OPENSSL);
	p->ossl.ctx_new = EVP_CIPHER_CTX_new;
	p->ossl.chacha20 = EVP_chacha20;
	p->ossl.init = EVP_EncryptInit_ex;
	p->ossl.update = EVP_EncryptUpdate;
	if (!ossl_setup(&p->ossl))
		npeers++;
	else
		fprintf(stderr, "bench: OpenSSL's chacha20 failed to start\n");

	/* Masking matters only where OpenSSL would take its AVX-512 code. */
	if (__builtin_cpu_supports("avx512f")) {
		p = new_peer("openssl-noavx512", PEER_OPENSSL);
		if (!ossl_masked(&p->ossl))
			npeers++;
		else
			fprintf(stderr, "bench: no openssl-noavx512 row\n");
	}

	if (sodium_init() >= 0) {
		new_peer("libsodium", PEER_SODIUM);
		npeers++;
	} else {
		fprintf(stderr, "bench: sodium_init failed\n");
	}

	if (gcry_ready()) {
		p = new_peer("libgcrypt", PEER_GCRYPT);
		if (!gcry_cipher_open(&p->gcry, GCRY_CIPHER_CHACHA20,
				      GCRY_CIPHER_MODE_STREAM, 0) &&
		    !gcry_cipher_setkey(p->gcry, peer_key, sizeof(peer_key)))
			npeers++;
		else
			fprintf(stderr, "bench: libgcrypt's chacha20 failed\n");
	}
	return npeers;
}

const char *peer_name(unsigned int i)
{
	return i < npeers ? peers[i].name : NULL;
}

void peer_crypt(unsigned int i, uint8_t *dst, const uint8_t *src,
		unsigned int len)
{
	struct peer *p = &peers[i];
	uint32_t ctr;
	int outl;

	switch (p->kind) {
	case PEER_OPENSSL:
		p->ossl.init(p->ossl.ctx, NULL, NULL, NULL, peer_iv);
		p->ossl.update(p->ossl.ctx, dst, &outl, src, len);
		break;
	case PEER_SODIUM:
		memcpy(&ctr, peer_iv, sizeof(ctr));	/* little-endian x86 */
		crypto_stream_chacha20_ietf_xor_ic(dst, src, len, peer_iv + 4,
						   ctr, peer_key);
		break;
	case PEER_GCRYPT:
		gcry_cipher_setiv(p->gcry, peer_iv, sizeof(peer_iv));
		gcry_cipher_encrypt(p->gcry, dst, len, src, len);
		break;
	}
}

/* ---- ChaCha20-Poly1305 ---- */

#define AEAD_TAG_BYTES	16

struct aead_peer {
	const char *name;
	enum peer_kind kind;
	EVP_CIPHER_CTX *enc, *dec;	/* OpenSSL: a context per direction */
	gcry_cipher_hd_t gcry;
};

static struct aead_peer aead_peers[3];
static unsigned int naead_peers;
static uint8_t aead_key[32], aead_nonce[12];

/* A context keyed once; each message sets its IV (the nonce) anew. */
static EVP_CIPHER_CTX *ossl_aead_ctx(bool decrypt)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();

	if (ctx && EVP_CipherInit_ex(ctx, EVP_chacha20_poly1305(), NULL,
				     aead_key, aead_nonce, !decrypt) == 1)
		return ctx;
	EVP_CIPHER_CTX_free(ctx);
	return NULL;
}

unsigned int peers_aead_init(const uint8_t *key, const uint8_t *nonce)
{
	struct aead_peer *p = &aead_peers[0];

	memcpy(aead_key, key, sizeof(aead_key));
	memcpy(aead_nonce, nonce, sizeof(aead_nonce));

	p->name = "openssl-aead";
	p->kind = PEER_OPENSSL;
	p->enc = ossl_aead_ctx(false);
	p->dec = ossl_aead_ctx(true);
	if (p->enc && p->dec)
		p++;
	else
		fprintf(stderr, "bench: OpenSSL's chacha20-poly1305 failed\n");

	if (sodium_init() >= 0) {
		p->name = "libsodium-aead";
		p->kind = PEER_SODIUM;
		p++;
	} else {
		fprintf(stderr, "bench: sodium_init failed\n");
	}

	if (gcry_ready()) {
		p->name = "libgcrypt-aead";
		p->kind = PEER_GCRYPT;
		if (!gcry_cipher_open(&p->gcry, GCRY_CIPHER_CHACHA20,
				      GCRY_CIPHER_MODE_POLY1305, 0) &&
		    !gcry_cipher_setkey(p->gcry, aead_key, sizeof(aead_key)))
			p++;
		else
			fprintf(stderr, "bench: libgcrypt's chacha20-poly1305 failed\n");
	}
	naead_peers = p - aead_peers;
	return naead_peers;
}

const char *peer_aead_name(unsigned int i)
{
	return i < naead_peers ? aead_peers[i].name : NULL;
}

static int ossl_aead(EVP_CIPHER_CTX *ctx, bool decrypt, uint8_t *dst,
		     const uint8_t *src, unsigned int len, const uint8_t *ad,
		     unsigned int adlen, uint8_t *tag)
{
	int n, fin;

	if (EVP_CipherInit_ex(ctx, NULL, NULL, NULL, aead_nonce, -1) != 1 ||
	    EVP_CipherUpdate(ctx, NULL, &n, ad, adlen) != 1 ||
	    EVP_CipherUpdate(ctx, dst, &n, src, len) != 1)
		return -1;
	if (decrypt)
		return EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG,
					   AEAD_TAG_BYTES, tag) == 1 &&
		       EVP_CipherFinal_ex(ctx, dst + n, &fin) == 1 ? 0 : -1;
	return EVP_CipherFinal_ex(ctx, dst + n, &fin) == 1 &&
	       EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, AEAD_TAG_BYTES,
				   tag) == 1 ? 0 : -1;
}

static int sodium_aead(bool decrypt, uint8_t *dst, const uint8_t *src,
		       unsigned int len, const uint8_t *ad, unsigned int adlen,
		       uint8_t *tag)
{
	if (decrypt)
		return crypto_aead_chacha20poly1305_ietf_decrypt_detached
			(dst, NULL, src, len, tag, ad, adlen, aead_nonce,
			 aead_key);
	return crypto_aead_chacha20poly1305_ietf_encrypt_detached
		(dst, tag, NULL, src, len, ad, adlen, NULL, aead_nonce,
		 aead_key);
}

static int gcry_aead(gcry_cipher_hd_t h, bool decrypt, uint8_t *dst,
		     const uint8_t *src, unsigned int len, const uint8_t *ad,
		     unsigned int adlen, uint8_t *tag)
{
	if (gcry_cipher_setiv(h, aead_nonce, sizeof(aead_nonce)) ||
	    gcry_cipher_authenticate(h, ad, adlen))
		return -1;
	if (decrypt)
		return gcry_cipher_decrypt(h, dst, len, src, len) ||
		       gcry_cipher_checktag(h, tag, AEAD_TAG_BYTES) ? -1 : 0;
	return gcry_cipher_encrypt(h, dst, len, src, len) ||
	       gcry_cipher_gettag(h, tag, AEAD_TAG_BYTES) ? -1 : 0;
}

int peer_aead(unsigned int i, bool decrypt, uint8_t *dst, const uint8_t *src,
	      unsigned int len, const uint8_t *ad, unsigned int adlen,
	      uint8_t *tag)
{
	struct aead_peer *p = &aead_peers[i];

	switch (p->kind) {
	case PEER_OPENSSL:
		return ossl_aead(decrypt ? p->dec : p->enc, decrypt, dst, src,
				 len, ad, adlen, tag);
	case PEER_SODIUM:
		return sodium_aead(decrypt, dst, src, len, ad, adlen, tag);
	case PEER_GCRYPT:
		return gcry_aead(p->gcry, decrypt, dst, src, len, ad, adlen,
				 tag);
	}
	return -1;
}
