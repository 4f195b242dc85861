// SPDX-License-Identifier: GPL-2.0
/*
 * The libraries beside the module: OpenSSL, libsodium, libgcrypt.
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

	if (gcry_check_version(NULL)) {
		gcry_control(GCRYCTL_DISABLE_SECMEM, 0);
		gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
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
