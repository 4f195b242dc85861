// SPDX-License-Identifier: GPL-2.0
/*
 * afalg-check - check ChaCha skcipher drivers from user space via AF_ALG
 *
 * Meant to run inside a test VM.  It shares no code with the module under
 * test: it pushes the same key, IV and data through the driver under test
 * and through the kernel's generic driver and compares the results, checks
 * RFC 8439 vectors, the handling of bad input and the rfc7539 AEAD built on
 * top of the driver.
 *
 * Every check prints "PASS <what>" or "FAIL <what>: <details>"; the exit
 * status is 1 if anything failed, 2 on usage errors.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <linux/if_alg.h>
#include <linux/types.h>

#ifndef SOL_ALG
#define SOL_ALG 279
#endif

typedef __u8 u8;
typedef __u32 u32;
typedef __u64 u64;

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define MAX_LEN		(256 * 1024)	/* longest request */
#define MAX_IOV		1000		/* below UIO_MAXIOV */
#define MAX_IVLEN	64
#define KEYLEN		32
#define AUTHSIZE	16
#define GUARD		256	/* bytes after the output that must stay */
#define CANARY		0xa5	/* fill of the bytes around output iovecs */
#define MAX_SHOWN	50	/* FAIL lines printed before going quiet */

static const char *const algs[] = { "chacha20", "xchacha20", "xchacha12" };

static u64 opt_seed;
static unsigned int opt_ivsize;
static const char *opt_driver;
/* The kernel's reference drivers: chacha20-generic, or chacha20-lib (6.16+) */
static const char *opt_ref = "generic";

static unsigned long n_pass, n_fail;
static int rx_max_iov = MAX_IOV;	/* see set_rx_max_iov() */

static u8 src_buf[MAX_LEN + 64];	/* request input */
static u8 ref_buf[MAX_LEN + 64];	/* output of the reference driver */
static u8 out_buf[MAX_LEN + 4 * MAX_IOV + 64 + GUARD];	/* scattered */
static u8 got_buf[MAX_LEN + 64];	/* out_buf gathered */
static struct iovec src_iov[MAX_IOV], dst_iov[MAX_IOV];

/* SplitMix64: reproducible from --seed, good enough for test data. */
static u64 rng_state;

static u64 rnd64(void)
{
	u64 z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A random number in [0, n) */
static size_t rnd(size_t n)
{
	return n ? rnd64() % n : 0;
}

static void rnd_fill(u8 *p, size_t n)
{
	while (n--)
		*p++ = rnd64() >> 56;
}

static void put_le32(u8 *p, u32 v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

static const char *hex(const u8 *p, size_t n)
{
	static char s[2 * MAX_IVLEN + 1];
	size_t i;

	for (i = 0; i < n && i < MAX_IVLEN; i++)
		sprintf(s + 2 * i, "%02x", p[i]);
	s[2 * i] = 0;
	return s;
}

#define pass(...)	report(true, __VA_ARGS__)
#define fail(...)	report(false, __VA_ARGS__)

/* Print PASS or FAIL (the first MAX_SHOWN of those); -1 if failed. */
static int report(bool ok, const char *fmt, ...)
{
	va_list ap;

	if (ok)
		n_pass++;
	else if (++n_fail > MAX_SHOWN)
		return -1;
	va_start(ap, fmt);
	fputs(ok ? "PASS " : "FAIL ", stdout);
	vprintf(fmt, ap);
	putchar('\n');
	va_end(ap);
	return ok ? 0 : -1;
}

static const char *errstr(ssize_t n)
{
	return n < 0 ? strerror(-n) : "short";
}

/* Index of the first byte where a and b differ, or n. */
static size_t first_diff(const u8 *a, const u8 *b, size_t n)
{
	size_t i = 0;

	while (i < n && a[i] == b[i])
		i++;
	return i;
}

/* Offset in out_buf of the first non-canary byte in [p, end), or -1. */
static long canary_broken(const u8 *p, const u8 *end)
{
	for (; p < end; p++)
		if (*p != CANARY)
			return p - out_buf;
	return -1;
}

/*
 * An AF_ALG transform: tfm is the bound socket holding the key, op the
 * socket accepted from it that requests are sent to.
 */
struct alg {
	const char *name;
	unsigned int ivsize;
	bool aead;
	int tfm;
	int op;
};

static unsigned int ivsize_of(const char *name)
{
	if (opt_ivsize)
		return opt_ivsize;
	return strncmp(name, "xchacha", 7) ? 16 : 32;
}

static int alg_open(struct alg *a, const char *type, const char *name,
		    unsigned int ivsize)
{
	struct sockaddr_alg sa = { .salg_family = AF_ALG };
	int err;

	a->name = name;
	a->ivsize = ivsize;
	a->aead = !strcmp(type, "aead");
	a->op = -1;
	if (snprintf((char *)sa.salg_name, sizeof(sa.salg_name), "%s",
		     name) >= (int)sizeof(sa.salg_name))
		return -ENAMETOOLONG;
	snprintf((char *)sa.salg_type, sizeof(sa.salg_type), "%s", type);
	a->tfm = socket(AF_ALG, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (a->tfm < 0)
		return -errno;
	if (bind(a->tfm, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		err = -errno;
		close(a->tfm);
		a->tfm = -1;
		return err;
	}
	return 0;
}

static void alg_close_op(struct alg *a)
{
	if (a->op >= 0)
		close(a->op);
	a->op = -1;
}

static void alg_close(struct alg *a)
{
	alg_close_op(a);
	if (a->tfm >= 0)
		close(a->tfm);
	a->tfm = -1;
}

/* (Re)open the operation socket, with room for MAX_LEN in both ways. */
static int alg_accept(struct alg *a)
{
	int size = 4 * MAX_LEN;

	alg_close_op(a);
	a->op = accept4(a->tfm, NULL, NULL, SOCK_CLOEXEC);
	if (a->op < 0)
		return -errno;
	setsockopt(a->op, SOL_SOCKET, SO_SNDBUF, &size, sizeof(size));
	setsockopt(a->op, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
	return 0;
}

/* The key can only change while no operation socket is open. */
static int alg_setkey(struct alg *a, const u8 *key, unsigned int len)
{
	alg_close_op(a);
	if (setsockopt(a->tfm, SOL_ALG, ALG_SET_KEY, key, len) < 0)
		return -errno;
	return alg_accept(a);
}

static int alg_authsize(struct alg *a)
{
	if (setsockopt(a->tfm, SOL_ALG, ALG_SET_AEAD_AUTHSIZE, NULL,
		       AUTHSIZE) < 0)
		return -errno;
	return 0;
}

/* One request: its data goes out in nsend sendmsg calls, comes back in one. */
struct req {
	u32 dir;			/* ALG_OP_ENCRYPT or ALG_OP_DECRYPT */
	const u8 *iv;
	unsigned int ivlen;
	int assoclen;			/* AEAD only; < 0 for skciphers */
	const struct iovec *src;
	int nsrc;
	int nsend;			/* all but the last with MSG_MORE */
	struct iovec *dst;
	int ndst;
};

static struct cmsghdr *put_cmsg(struct msghdr *msg, struct cmsghdr *c,
				int type, const void *p, size_t len)
{
	c = c ? CMSG_NXTHDR(msg, c) : CMSG_FIRSTHDR(msg);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = type;
	c->cmsg_len = CMSG_LEN(len);
	memcpy(CMSG_DATA(c), p, len);
	return c;
}

/*
 * Send r's operation, IV and data to a's operation socket.  Returns 0, or
 * -errno (-EMSGSIZE for a short send) after replacing the operation socket
 * by a fresh one, so that no half-sent request lingers.
 */
static ssize_t alg_send(struct alg *a, const struct req *r)
{
	union {
		char buf[2 * CMSG_SPACE(sizeof(u32)) +
			 CMSG_SPACE(sizeof(struct af_alg_iv) + MAX_IVLEN)];
		struct cmsghdr align;
	} ctl = { { 0 } };
	struct {
		struct af_alg_iv h;
		u8 iv[MAX_IVLEN];
	} iv;
	struct msghdr msg = { .msg_control = ctl.buf };
	struct cmsghdr *c;
	ssize_t n, want;
	int i, j, lo, hi;

	iv.h.ivlen = r->ivlen;
	memcpy(iv.iv, r->iv, r->ivlen);
	msg.msg_controllen = CMSG_SPACE(sizeof(u32)) +
			     CMSG_SPACE(sizeof(iv.h) + r->ivlen) +
			     (r->assoclen >= 0 ? CMSG_SPACE(sizeof(u32)) : 0);
	c = put_cmsg(&msg, NULL, ALG_SET_OP, &r->dir, sizeof(u32));
	c = put_cmsg(&msg, c, ALG_SET_IV, &iv, sizeof(iv.h) + r->ivlen);
	if (r->assoclen >= 0)
		put_cmsg(&msg, c, ALG_SET_AEAD_ASSOCLEN, &r->assoclen,
			 sizeof(u32));

	for (i = 0; i < r->nsend; i++) {
		lo = r->nsrc * i / r->nsend;
		hi = r->nsrc * (i + 1) / r->nsend;
		msg.msg_iov = (struct iovec *)r->src + lo;
		msg.msg_iovlen = hi - lo;
		for (want = 0, j = lo; j < hi; j++)
			want += r->src[j].iov_len;
		n = sendmsg(a->op, &msg, i + 1 < r->nsend ? MSG_MORE : 0);
		if (n != want)
			goto err;
		msg.msg_control = NULL;
		msg.msg_controllen = 0;
	}
	return 0;
err:
	n = n < 0 ? -errno : -EMSGSIZE;
	alg_accept(a);
	return n;
}

/*
 * Run r on a's operation socket: the number of bytes received or -errno.
 *
 * AF_ALG's aead_recvmsg() runs a request only while the receive buffer has
 * room (it loops on msg_data_left()): with none it returns 0 without
 * running it and leaves the data queued, and the next sendmsg() fails with
 * EINVAL.  An AEAD decryption of no AD and no text has no output, so it
 * gets one byte of room; the callers' length checks catch a write to it.
 */
static ssize_t alg_run(struct alg *a, const struct req *r)
{
	struct msghdr msg = { .msg_iov = r->dst, .msg_iovlen = r->ndst };
	u8 spare;
	struct iovec room = { &spare, 1 };
	ssize_t n = alg_send(a, r);
	size_t left = 0;
	int i;

	if (n < 0)
		return n;
	for (i = 0; i < r->ndst; i++)
		left += r->dst[i].iov_len;
	if (!left && r->assoclen >= 0) {
		msg.msg_iov = &room;
		msg.msg_iovlen = 1;
	}
	n = recvmsg(a->op, &msg, 0);
	if (n >= 0)
		return n;
	n = -errno;
	alg_accept(a);
	return n;
}

/*
 * Cut len bytes at buf into at most maxn iovecs of at most max bytes (one
 * iovec if max is 0), a quarter of them 1 byte long, each followed by up
 * to gap unused bytes.  Returns the number of iovecs.
 */
static int split(struct iovec *iov, u8 *buf, size_t len, size_t max,
		 unsigned int gap, int maxn)
{
	size_t done = 0, piece;
	int n = 0;

	do {
		piece = max ? (rnd(4) ? 1 + rnd(max) : 1) : len;
		if (piece > len - done || n == maxn - 1)
			piece = len - done;
		iov[n].iov_base = buf;
		iov[n++].iov_len = piece;
		buf += piece + rnd(gap + 1);
		done += piece;
	} while (done < len);
	return n;
}

/* The driver under test and its reference, with the same key. */
struct pair {
	struct alg ours;
	struct alg ref;
};

/* How a request is fed to the driver under test. */
struct layout {
	u32 dir;		/* the reference always encrypts */
	size_t src_piece;	/* see split() */
	size_t dst_piece;
	int nsend;
	int assoclen;		/* AEAD: bytes of src_buf that are AD */
};

static const struct layout plain = { ALG_OP_ENCRYPT, 0, 0, 1, -1 };

/*
 * Encrypt len bytes of src_buf with the reference driver in one piece and
 * run them through the driver under test as lay says; compare the results,
 * and check that nothing around the output iovecs was written.
 */
static int check_one(struct pair *p, const char *what, const u8 *iv,
		     size_t len, const struct layout *lay)
{
	size_t outlen = len + (lay->assoclen >= 0 ? AUTHSIZE : 0), i, o = 0;
	struct iovec one_src = { src_buf, len }, one_dst = { ref_buf, outlen };
	struct req r = {
		.dir = ALG_OP_ENCRYPT, .iv = iv, .ivlen = p->ref.ivsize,
		.assoclen = lay->assoclen, .src = &one_src, .nsrc = 1,
		.nsend = 1, .dst = &one_dst, .ndst = 1,
	};
	char ctx[2 * MAX_IVLEN + 400];
	u8 *pos = out_buf, *end;
	long bad = -1;
	ssize_t n;

	n = alg_run(&p->ref, &r);
	if (n != (ssize_t)outlen)
		return fail("%s, %s: len %zu iv %s: returned %zd (%s)",
			    p->ref.name, what, len, hex(iv, r.ivlen), n,
			    errstr(n));

	r.dir = lay->dir;
	r.src = src_iov;
	r.nsrc = split(src_iov, src_buf, len, lay->src_piece, 0, MAX_IOV);
	r.nsend = lay->nsend;
	r.dst = dst_iov;
	r.ndst = split(dst_iov, out_buf + rnd(64), outlen, lay->dst_piece, 3,
		       rx_max_iov);
	end = (u8 *)dst_iov[r.ndst - 1].iov_base + dst_iov[r.ndst - 1].iov_len;
	memset(out_buf, CANARY, end + GUARD - out_buf);
	snprintf(ctx, sizeof(ctx),
		 "%s vs %s, %s: len %zu iv %s (%scrypt, %d src iovecs in %d sendmsg, %d dst iovecs)",
		 p->ours.name, p->ref.name, what, len, hex(iv, r.ivlen),
		 lay->dir == ALG_OP_ENCRYPT ? "en" : "de", r.nsrc, r.nsend,
		 r.ndst);

	n = alg_run(&p->ours, &r);
	if (n != (ssize_t)outlen)
		return fail("%s: returned %zd (%s), expected %zu", ctx, n,
			    errstr(n), outlen);
	for (i = 0; i < (size_t)r.ndst && bad < 0; i++) {
		bad = canary_broken(pos, dst_iov[i].iov_base);
		memcpy(got_buf + o, dst_iov[i].iov_base, dst_iov[i].iov_len);
		o += dst_iov[i].iov_len;
		pos = (u8 *)dst_iov[i].iov_base + dst_iov[i].iov_len;
	}
	if (bad < 0)
		bad = canary_broken(end, end + GUARD);
	if (bad >= 0)
		return fail("%s: wrote outside its output iovecs, at byte %ld of the buffer",
			    ctx, bad);
	i = first_diff(got_buf, ref_buf, outlen);
	if (i < outlen)
		return fail("%s: first differing byte %zu: 0x%02x, %s gives 0x%02x",
			    ctx, i, got_buf[i], p->ref.name, ref_buf[i]);
	return 0;
}

static int pair_open(struct pair *p, const char *type, const char *ours,
		     const char *ref, unsigned int ivsize)
{
	int err = alg_open(&p->ours, type, ours, ivsize);

	if (!err) {
		err = alg_open(&p->ref, type, ref, ivsize);
		if (err)
			alg_close(&p->ours);
	}
	if (!err && p->ours.aead) {
		err = alg_authsize(&p->ours) ?: alg_authsize(&p->ref);
		if (err) {
			alg_close(&p->ours);
			alg_close(&p->ref);
		}
	}
	if (err)
		return fail("bind %s %s / %s: %s", type, ours, ref,
			    strerror(-err));
	return 0;
}

static void pair_close(struct pair *p)
{
	alg_close(&p->ours);
	alg_close(&p->ref);
}

/* Give both drivers the same new random key. */
static int pair_rekey(struct pair *p)
{
	u8 key[KEYLEN];
	int err;

	rnd_fill(key, sizeof(key));
	err = alg_setkey(&p->ours, key, sizeof(key)) ?:
	      alg_setkey(&p->ref, key, sizeof(key));
	if (err)
		return fail("setkey %s / %s: %s", p->ours.name, p->ref.name,
			    strerror(-err));
	return 0;
}

static void group_done(const struct pair *p, const char *what,
		       unsigned long fails_before, unsigned int count)
{
	if (n_fail == fails_before)
		pass("%s = %s, %s (%u requests)", p->ours.name, p->ref.name,
		     what, count);
}

/*
 * The 32-bit block counter in the IV: bytes 0..3 for ChaCha20, 24..27 for
 * XChaCha (whose bytes 28..31 are the next state word, which the counter
 * does not carry into).
 */
static u8 *counter_of(const struct pair *p, u8 *iv)
{
	return iv + (p->ref.ivsize == 32 ? 24 : 0);
}

/* Random data and IV for a request of len bytes; wrap: counter near 2^32 */
static u8 *rnd_request(struct pair *p, u8 *iv, size_t len, bool wrap)
{
	rnd_fill(iv, p->ref.ivsize);
	if (wrap)
		put_le32(counter_of(p, iv), -1 - rnd(16));
	rnd_fill(src_buf, len);
	return iv;
}

/* A random request fed to the driver under test in a random way */
static int check_random(struct pair *p, const char *what, size_t max)
{
	struct layout lay = plain;
	u8 iv[MAX_IVLEN];
	size_t len = rnd(max + 1);

	if (rnd(2)) {
		lay.src_piece = 1 + rnd(rnd(2) ? 8 : 512);
		lay.dst_piece = 1 + rnd(rnd(2) ? 8 : 512);
	}
	if (!rnd(4))
		lay.nsend = 2 + rnd(6);
	if (!rnd(4))
		lay.dir = ALG_OP_DECRYPT;
	rnd_request(p, iv, len, !rnd(8));
	return check_one(p, what, iv, len, &lay);
}

static void compare_all(struct pair *p)
{
	struct layout lay;
	u8 iv[MAX_IVLEN];
	unsigned long f;
	unsigned int i;
	size_t len;

	if (pair_rekey(p))
		return;
	for (f = n_fail, len = 0; len <= 2048; len++)
		check_one(p, "every length 0..2048",
			  rnd_request(p, iv, len, false), len, &plain);
	group_done(p, "every length 0..2048", f, 2049);

	pair_rekey(p);
	for (f = n_fail, i = 0; i < 40; i++) {
		len = i < 4 ? MAX_LEN - i : rnd(MAX_LEN + 1);
		check_one(p, "random lengths up to 256 KiB",
			  rnd_request(p, iv, len, false), len, &plain);
	}
	group_done(p, "random lengths up to 256 KiB", f, i);

	for (f = n_fail, i = 0; i < 400; i++) {
		lay = plain;
		lay.src_piece = 1 + rnd(i & 1 ? 8 : 300);
		lay.dst_piece = 1 + rnd(i & 2 ? 8 : 300);
		len = rnd(i < 300 ? 4096 : 65536) + 1;
		check_one(p, "many src/dst iovecs",
			  rnd_request(p, iv, len, false), len, &lay);
	}
	group_done(p, "many src/dst iovecs", f, i);

	/* Each counter value 0xfffffff0..0xffffffff, six times */
	pair_rekey(p);
	for (f = n_fail, i = 0; i < 16 * 6; i++) {
		lay = plain;
		lay.dst_piece = i & 1 ? 1 + rnd(100) : 0;
		len = i % 6 < 2 ? 64 * 17 + 7 : rnd(64 * 40);
		rnd_request(p, iv, len, false);
		put_le32(counter_of(p, iv), 0xfffffff0 + i / 6);
		if (i & 2)
			put_le32(counter_of(p, iv) + 4, ~0u);
		check_one(p, "counter wrap", iv, len, &lay);
	}
	group_done(p, "counter wrap", f, i);

	for (f = n_fail, i = 0; i < 150; i++) {
		lay = plain;
		lay.nsend = 2 + rnd(7);
		lay.src_piece = 1 + rnd(i & 1 ? 16 : 1000);
		lay.dst_piece = i & 2 ? 1 + rnd(500) : 0;
		len = rnd(i < 100 ? 3000 : 40000);
		check_one(p, "MSG_MORE", rnd_request(p, iv, len, false), len,
			  &lay);
	}
	group_done(p, "MSG_MORE", f, i);

	pair_rekey(p);
	for (f = n_fail, i = 0; i < 300; i++) {
		lay = plain;
		lay.dir = ALG_OP_DECRYPT;
		lay.dst_piece = i & 1 ? 1 + rnd(64) : 0;
		len = i < 200 ? rnd(1100) : rnd(MAX_LEN / 4);
		check_one(p, "decrypt = encrypt",
			  rnd_request(p, iv, len, i & 2), len, &lay);
	}
	group_done(p, "decrypt = encrypt", f, i);
}

/* "xchacha12-foo" -> "xchacha12-generic" (or -lib, --ref lib) */
static const char *generic_of(const char *drv)
{
	static char s[8][64];
	static unsigned int k;
	char *r = s[k++ % ARRAY_SIZE(s)];

	snprintf(r, sizeof(s[0]), "%.*s-%s", (int)strcspn(drv, "-"), drv,
		 opt_ref);
	return r;
}

/*
 * Test vectors, transcribed from RFC 8439.  Section 2.4.2: ChaCha20 with
 * key 00:01:02:..:1f, block counter 1, nonce 00:00:00:00:00:00:00:4a:00:00:
 * 00:00; the kernel's IV is the le32 counter followed by the nonce.  The
 * plaintext is "Ladies and Gentlemen of the class of '99: If I could offer
 * you only one tip for the future, sunscreen would be it."
 */
static const u8 sunscreen[] =
	"\x4c\x61\x64\x69\x65\x73\x20\x61\x6e\x64\x20\x47\x65\x6e\x74\x6c"
	"\x65\x6d\x65\x6e\x20\x6f\x66\x20\x74\x68\x65\x20\x63\x6c\x61\x73"
	"\x73\x20\x6f\x66\x20\x27\x39\x39\x3a\x20\x49\x66\x20\x49\x20\x63"
	"\x6f\x75\x6c\x64\x20\x6f\x66\x66\x65\x72\x20\x79\x6f\x75\x20\x6f"
	"\x6e\x6c\x79\x20\x6f\x6e\x65\x20\x74\x69\x70\x20\x66\x6f\x72\x20"
	"\x74\x68\x65\x20\x66\x75\x74\x75\x72\x65\x2c\x20\x73\x75\x6e\x73"
	"\x63\x72\x65\x65\x6e\x20\x77\x6f\x75\x6c\x64\x20\x62\x65\x20\x69"
	"\x74\x2e";
#define PLEN	(sizeof(sunscreen) - 1)

static const u8 rfc8439_2_4_2_iv[] =
	"\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x4a\x00\x00\x00\x00";
static const u8 rfc8439_2_4_2_ct[] =
	"\x6e\x2e\x35\x9a\x25\x68\xf9\x80\x41\xba\x07\x28\xdd\x0d\x69\x81"
	"\xe9\x7e\x7a\xec\x1d\x43\x60\xc2\x0a\x27\xaf\xcc\xfd\x9f\xae\x0b"
	"\xf9\x1b\x65\xc5\x52\x47\x33\xab\x8f\x59\x3d\xab\xcd\x62\xb3\x57"
	"\x16\x39\xd6\x24\xe6\x51\x52\xab\x8f\x53\x0c\x35\x9f\x08\x61\xd8"
	"\x07\xca\x0d\xbf\x50\x0d\x6a\x61\x56\xa3\x8e\x08\x8a\x22\xb6\x5e"
	"\x52\xbc\x51\x4d\x16\xcc\xf8\x06\x81\x8c\xe9\x1a\xb7\x79\x37\x36"
	"\x5a\xf9\x0b\xbf\x74\xa3\x5b\xe6\xb4\x0b\x8e\xed\xf2\x78\x5e\x42"
	"\x87\x4d";

/*
 * Section 2.8.2: AEAD_CHACHA20_POLY1305 of the same plaintext with key
 * 80:81:..:9f; the nonce is a 32-bit constant and a 64-bit IV.
 */
static const u8 rfc8439_2_8_2_nonce[] =
	"\x07\x00\x00\x00\x40\x41\x42\x43\x44\x45\x46\x47";
static const u8 rfc8439_2_8_2_aad[] =
	"\x50\x51\x52\x53\xc0\xc1\xc2\xc3\xc4\xc5\xc6\xc7";
static const u8 rfc8439_2_8_2_ct[] =
	"\xd3\x1a\x8d\x34\x64\x8e\x60\xdb\x7b\x86\xaf\xbc\x53\xef\x7e\xc2"
	"\xa4\xad\xed\x51\x29\x6e\x08\xfe\xa9\xe2\xb5\xa7\x36\xee\x62\xd6"
	"\x3d\xbe\xa4\x5e\x8c\xa9\x67\x12\x82\xfa\xfb\x69\xda\x92\x72\x8b"
	"\x1a\x71\xde\x0a\x9e\x06\x0b\x29\x05\xd6\xa5\xb6\x7e\xcd\x3b\x36"
	"\x92\xdd\xbd\x7f\x2d\x77\x8b\x8c\x98\x03\xae\xe3\x28\x09\x1b\x58"
	"\xfa\xb3\x24\xe4\xfa\xd6\x75\x94\x55\x85\x80\x8b\x48\x31\xd7\xbc"
	"\x3f\xf4\xde\xf0\x8e\x4b\x7a\x9d\xe5\x76\xd2\x65\x86\xce\xc6\x4b"
	"\x61\x16"
	/* tag */
	"\x1a\xe1\x0b\x59\x4f\x09\xe2\x6a\x7e\x90\x2e\xcb\xd0\x60\x06\x91";

/* Open name with the key first, first + 1, ... */
static int vector_open(struct alg *a, const char *type, const char *name,
		       unsigned int ivsize, u8 first)
{
	u8 key[KEYLEN];
	int i, err;

	for (i = 0; i < KEYLEN; i++)
		key[i] = first + i;
	err = alg_open(a, type, name, ivsize);
	if (!err && a->aead)
		err = alg_authsize(a);
	if (!err)
		err = alg_setkey(a, key, sizeof(key));
	if (err) {
		alg_close(a);
		return fail("%s %s: %s", type, name, strerror(-err));
	}
	return 0;
}

/* Run r, output in one or in 1..7 byte iovecs, and expect out. */
static int check_vector(struct alg *a, const char *what, struct req *r,
			const u8 *out, size_t outlen, bool split_dst)
{
	ssize_t n;
	size_t i;

	r->dst = dst_iov;
	r->ndst = split(dst_iov, got_buf, outlen, split_dst ? 7 : 0, 0,
			rx_max_iov);
	n = alg_run(a, r);
	if (n != (ssize_t)outlen)
		return fail("%s via %s: returned %zd (%s), expected %zu", what,
			    a->name, n, errstr(n), outlen);
	i = first_diff(got_buf, out, outlen);
	if (i < outlen)
		return fail("%s via %s: first differing byte %zu: 0x%02x, expected 0x%02x",
			    what, a->name, i, got_buf[i], out[i]);
	return pass("%s via %s%s", what, a->name,
		    split_dst ? ", output in small iovecs" : "");
}

/*
 * Print the driver of the /proc/crypto entry called name with the highest
 * priority: the one the name resolves to.
 */
static void show_driver(const char *name)
{
	char line[256], drv[160] = "", best[160] = "";
	int prio = -1, top = -1, match = 0, count = 0;
	FILE *f = fopen("/proc/crypto", "r");

	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (!strncmp(line, "name ", 5))
			match = !strcmp(strchr(line, ':') + 2, name);
		else if (!strncmp(line, "driver ", 7))
			snprintf(drv, sizeof(drv), "%s", strchr(line, ':') + 2);
		else if (!strncmp(line, "priority ", 9))
			prio = atoi(strchr(line, ':') + 2);
		if (line[0] || !match)
			continue;
		count++;
		if (prio > top) {
			top = prio;
			memcpy(best, drv, sizeof(best));
		}
	}
	if (f)
		fclose(f);
	printf("DRIVER %s -> %s (priority %d, %d entries)\n", name,
	       top < 0 ? "none in /proc/crypto" : best, top, count);
}

static void cmd_vector(void)
{
	const char *name = opt_driver ? opt_driver : "chacha20";
	const char *what = "RFC 8439 2.4.2";
	const u8 *ct = rfc8439_2_4_2_ct;
	struct iovec in = { (void *)sunscreen, PLEN };
	struct req r = {
		.dir = ALG_OP_ENCRYPT, .iv = rfc8439_2_4_2_iv, .ivlen = 16,
		.assoclen = -1, .src = &in, .nsrc = 1, .nsend = 1,
	};
	struct alg a;

	if (vector_open(&a, "skcipher", name, 16, 0))
		return;
	if (!opt_driver)
		show_driver(name);
	check_vector(&a, what, &r, ct, PLEN, false);
	check_vector(&a, what, &r, ct, PLEN, true);
	r.dir = ALG_OP_DECRYPT;
	in.iov_base = (void *)ct;
	check_vector(&a, "RFC 8439 2.4.2 decryption", &r, (u8 *)sunscreen,
		     PLEN, false);
	alg_close(&a);
}

static void check_bad_input(const char *drv)
{
	static const unsigned int keylens[] = { 0, 1, 16, 31, 33, 64 };
	static const unsigned int ivlens[] = {
		0, 8, 12, 15, 16, 17, 31, 32, 33
	};
	u8 key[64] = { 0 }, iv[MAX_IVLEN] = { 0 }, out[16];
	struct iovec none = { src_buf, 0 }, dst = { out, sizeof(out) };
	struct req r = {
		.iv = iv, .assoclen = -1, .src = &none, .nsrc = 1,
		.dst = &dst, .ndst = 1,
	};
	unsigned long f;
	struct pair p;
	ssize_t n;
	u32 i;

	if (pair_open(&p, "skcipher", drv, generic_of(drv), ivsize_of(drv)))
		return;

	for (f = n_fail, i = 0; i < ARRAY_SIZE(keylens); i++) {
		alg_close_op(&p.ours);
		n = setsockopt(p.ours.tfm, SOL_ALG, ALG_SET_KEY, key,
			       keylens[i]);
		if (n == 0 || errno != EINVAL)
			fail("badinput %s: key length %u: %s, expected EINVAL",
			     drv, keylens[i], n ? strerror(errno) : "accepted");
	}
	if (n_fail == f)
		pass("badinput %s: key lengths 0, 1, 16, 31, 33, 64 give EINVAL",
		     drv);
	if (pair_rekey(&p))
		goto out;

	for (f = n_fail, i = 0; i < ARRAY_SIZE(ivlens); i++) {
		if (ivlens[i] == p.ours.ivsize)
			continue;
		r.ivlen = ivlens[i];
		r.nsend = 1;
		n = alg_run(&p.ours, &r);
		if (n != -EINVAL)
			fail("badinput %s: IV length %u: returned %zd (%s), expected EINVAL",
			     drv, ivlens[i], n, errstr(n));
	}
	if (n_fail == f)
		pass("badinput %s: wrong IV lengths give EINVAL", drv);

	/* Empty requests, with room for output, in one or two sendmsg */
	r.ivlen = p.ours.ivsize;
	for (f = n_fail, i = 0; i < 4; i++) {
		r.dir = i & 1 ? ALG_OP_DECRYPT : ALG_OP_ENCRYPT;
		r.nsend = 1 + i / 2;
		n = alg_run(&p.ours, &r);
		if (n != 0)
			fail("badinput %s: empty request %u: returned %zd (%s), expected 0",
			     drv, i, n, n < 0 ? strerror(-n) : "data");
	}
	if (n_fail == f)
		pass("badinput %s: empty requests return 0 bytes", drv);

	for (f = n_fail, i = 0; i < 200; i++)
		check_random(&p, "after bad input", 2048);
	group_done(&p, "after bad input", f, i);
out:
	pair_close(&p);
}

#define ESP_SALT	4
#define ESP_IV		8

/* The RFC 8439 2.8.2 key, and for ESP its nonce's first 4 bytes as salt. */
static size_t cp_vector_key(u8 *key, bool esp)
{
	int i;

	for (i = 0; i < KEYLEN; i++)
		key[i] = 0x80 + i;
	if (!esp)
		return KEYLEN;
	memcpy(key + KEYLEN, rfc8439_2_8_2_nonce, ESP_SALT);
	return KEYLEN + ESP_SALT;
}

/*
 * RFC 8439 2.8.2 through @name: encryption, decryption, and a tampered
 * byte that must give EBADMSG (in the tag; for ESP anywhere in text or
 * tag).  AF_ALG's AEAD data is AD || text [|| tag].  As rfc7539esp (@esp)
 * sees it: salt 07 00 00 00 in the key, the nonce's last 8 bytes as IV,
 * the AD followed by that IV, and the request in two sendmsg calls.
 */
static void rfc_vector(const char *name, bool esp)
{
	const char *what = esp ? "RFC 8439 2.8.2 as ESP" : "RFC 8439 2.8.2";
	const char *tampered = esp ? "tampered text or tag" : "tampered tag";
	const size_t ivlen = esp ? ESP_IV : 12;
	const size_t adlen = sizeof(rfc8439_2_8_2_aad) - 1;
	const size_t alen = adlen + (esp ? ESP_IV : 0);
	const u8 *iv = rfc8439_2_8_2_nonce + 12 - ivlen;
	u8 key[KEYLEN + ESP_SALT], ad[64], ct[PLEN + AUTHSIZE];
	u8 expect[64 + PLEN + AUTHSIZE];
	struct iovec in[2] = { { ad, alen }, { (void *)sunscreen, PLEN } };
	struct req r = {
		.dir = ALG_OP_ENCRYPT, .iv = iv, .ivlen = ivlen,
		.assoclen = alen, .src = in, .nsrc = 2, .nsend = esp ? 2 : 1,
	};
	size_t klen = cp_vector_key(key, esp);
	char title[64];
	struct alg a;
	ssize_t n;
	int err;

	memcpy(ad, rfc8439_2_8_2_aad, adlen);
	memcpy(ad + adlen, iv, alen - adlen);
	err = alg_open(&a, "aead", name, ivlen) ?: alg_authsize(&a) ?:
	      alg_setkey(&a, key, klen);
	if (err) {
		alg_close(&a);
		fail("aead %s: %s", name, strerror(-err));
		return;
	}
	memcpy(ct, rfc8439_2_8_2_ct, sizeof(ct));
	memcpy(expect, ad, alen);
	memcpy(expect + alen, ct, sizeof(ct));
	check_vector(&a, what, &r, expect, alen + sizeof(ct), false);

	r.dir = ALG_OP_DECRYPT;
	in[1].iov_base = ct;
	in[1].iov_len = sizeof(ct);
	memcpy(expect + alen, sunscreen, PLEN);
	snprintf(title, sizeof(title), "%s, decryption", what);
	check_vector(&a, title, &r, expect, alen + PLEN, true);

	ct[esp ? rnd(sizeof(ct)) : PLEN + rnd(AUTHSIZE)] ^= 1 << rnd(8);
	n = alg_run(&a, &r);
	if (n != -EBADMSG)
		fail("%s via %s: %s: returned %zd (%s), expected EBADMSG",
		     what, name, tampered, n, errstr(n));
	else
		pass("%s via %s: %s gives EBADMSG", what, name, tampered);
	alg_close(&a);
}

static void cmd_aead(const char *ours)
{
	char name[2][64];
	struct layout lay = plain;
	unsigned long f;
	struct pair p;
	u8 iv[12];
	size_t len;
	int i;

	/* The plain name first, so that it resolves to the best drivers */
	rfc_vector("rfc7539(chacha20,poly1305)", false);
	snprintf(name[0], 64, "rfc7539(%s,poly1305-generic)", ours);
	rfc_vector(name[0], false);

	/* Random requests vs the template on chacha20-generic (or -lib) */
	snprintf(name[1], 64, "rfc7539(chacha20-%s,poly1305-generic)", opt_ref);
	if (!pair_open(&p, "aead", name[0], name[1], sizeof(iv))) {
		for (f = n_fail, i = 0; i < 200; i++) {
			if (i % 50 == 0 && pair_rekey(&p))
				break;
			lay.assoclen = rnd(i & 1 ? 64 : 600);
			lay.src_piece = i & 4 ? 1 + rnd(50) : 0;
			lay.dst_piece = i & 2 ? 1 + rnd(100) : 0;
			lay.nsend = 1 + rnd(3);
			len = lay.assoclen + rnd(i < 150 ? 1100 : 20000);
			rnd_fill(iv, sizeof(iv));
			rnd_fill(src_buf, len);
			check_one(&p, "random AEAD requests", iv, len, &lay);
		}
		group_done(&p, "random AEAD requests", f, i);
		pair_close(&p);
	}
	show_driver("rfc7539(chacha20,poly1305)");
}

/*
 * The module's own AEADs: OURS_RFC (an rfc7539(chacha20,poly1305) driver)
 * and OURS_ESP (rfc7539esp) against the kernel's template on the reference
 * drivers, which computes the same thing in two passes.
 */
static int cp_rekey(struct pair *p, size_t klen)
{
	u8 key[KEYLEN + ESP_SALT];
	int err;

	rnd_fill(key, klen);
	err = alg_setkey(&p->ours, key, klen) ?:
	      alg_setkey(&p->ref, key, klen);
	if (err)
		return fail("setkey %s / %s: %s", p->ours.name, p->ref.name,
			    strerror(-err));
	return 0;
}

/*
 * Decryption: adlen + textlen bytes of src_buf encrypted by the reference,
 * then decrypted by ours as lay says, must give src_buf back; then with
 * one bit of the AD (outside ESP's IV), text or tag flipped, EBADMSG from
 * both.
 */
static int cp_decrypt_one(struct pair *p, const char *what, const u8 *iv,
			  size_t adlen, size_t textlen,
			  const struct layout *lay, bool esp)
{
	size_t ctlen = adlen + textlen + AUTHSIZE, authlen, i;
	struct iovec one_src = { src_buf, adlen + textlen };
	struct iovec one_dst = { ref_buf, ctlen };
	struct req r = {
		.dir = ALG_OP_ENCRYPT, .iv = iv, .ivlen = p->ref.ivsize,
		.assoclen = adlen, .src = &one_src, .nsrc = 1, .nsend = 1,
		.dst = &one_dst, .ndst = 1,
	};
	ssize_t n, m;

	n = alg_run(&p->ref, &r);
	if (n != (ssize_t)ctlen)
		return fail("%s, %s: encryption: returned %zd (%s)",
			    p->ref.name, what, n, errstr(n));
	r.dir = ALG_OP_DECRYPT;
	r.src = src_iov;
	r.nsrc = split(src_iov, ref_buf, ctlen, lay->src_piece, 0, MAX_IOV);
	r.nsend = lay->nsend;
	r.dst = dst_iov;
	r.ndst = split(dst_iov, got_buf, adlen + textlen, lay->dst_piece, 0,
		       rx_max_iov);
	n = alg_run(&p->ours, &r);
	if (n != (ssize_t)(adlen + textlen))
		return fail("%s, %s: decryption of %zu + %zu bytes: returned %zd (%s)",
			    p->ours.name, what, adlen, textlen, n,
			    errstr(n));
	i = first_diff(got_buf + adlen, src_buf + adlen, textlen);
	if (i < textlen)
		return fail("%s, %s: decryption of %zu + %zu bytes: first differing byte %zu",
			    p->ours.name, what, adlen, textlen, i);

	/* A forgery: every authenticated byte counts. */
	authlen = adlen - (esp ? ESP_IV : 0);
	i = rnd(authlen + textlen + AUTHSIZE);
	if (i >= authlen)
		i += adlen - authlen;
	ref_buf[i] ^= 1 << rnd(8);
	r.nsrc = split(src_iov, ref_buf, ctlen, lay->src_piece, 0, MAX_IOV);
	n = alg_run(&p->ours, &r);
	r.src = &one_src;
	one_src.iov_base = ref_buf;
	one_src.iov_len = ctlen;
	r.nsrc = 1;
	r.nsend = 1;
	m = alg_run(&p->ref, &r);
	if (n != -EBADMSG || m != -EBADMSG)
		return fail("%s, %s: byte %zu of %zu + %zu + tag flipped: %zd (%s), %s %zd (%s)",
			    p->ours.name, what, i, adlen, textlen, n,
			    errstr(n), p->ref.name, m, errstr(m));
	return 0;
}

/* ours and ref, the errno of each, or 0 */
static int cp_same(const char *what, const char *ours, int a, const char *ref,
		   int b)
{
	if (a != b || !a)
		return fail("%s: %s %s, %s %s", what, ours,
			    a ? strerror(-a) : "succeeds", ref,
			    b ? strerror(-b) : "succeeds");
	return 0;
}

/* Bad keys, tag sizes, AD and text lengths: the template's errors. */
static void cp_bad_input(struct pair *p, bool esp, size_t klen)
{
	static const unsigned int authsizes[] = { 0, 4, 8, 12, 15, 17, 32 };
	unsigned long f = n_fail;
	u8 key[KEYLEN + ESP_SALT + 8] = { 0 }, iv[12] = { 0 };
	struct iovec one = { src_buf, 64 }, out = { got_buf, 128 };
	struct req r = {
		.iv = iv, .ivlen = p->ref.ivsize, .src = &one, .nsrc = 1,
		.nsend = 1, .dst = &out, .ndst = 1,
	};
	char what[96];
	size_t k;
	int a, b, i;

	for (k = 0; k <= sizeof(key); k++) {
		if (k == klen)
			continue;
		snprintf(what, sizeof(what), "setkey of %zu bytes", k);
		alg_close_op(&p->ours);
		alg_close_op(&p->ref);
		a = setsockopt(p->ours.tfm, SOL_ALG, ALG_SET_KEY, key, k) ?
		    -errno : 0;
		b = setsockopt(p->ref.tfm, SOL_ALG, ALG_SET_KEY, key, k) ?
		    -errno : 0;
		cp_same(what, p->ours.name, a, p->ref.name, b);
	}
	for (i = 0; i < (int)ARRAY_SIZE(authsizes); i++) {
		snprintf(what, sizeof(what), "authsize %u", authsizes[i]);
		a = setsockopt(p->ours.tfm, SOL_ALG, ALG_SET_AEAD_AUTHSIZE,
			       NULL, authsizes[i]) ? -errno : 0;
		b = setsockopt(p->ref.tfm, SOL_ALG, ALG_SET_AEAD_AUTHSIZE,
			       NULL, authsizes[i]) ? -errno : 0;
		cp_same(what, p->ours.name, a, p->ref.name, b);
	}
	if (alg_authsize(&p->ours) || alg_authsize(&p->ref) ||
	    cp_rekey(p, klen))
		return;
	/* Decryption of less than a tag */
	for (k = 0; k < AUTHSIZE; k++) {
		snprintf(what, sizeof(what), "decryption of %zu bytes", k);
		r.dir = ALG_OP_DECRYPT;
		r.assoclen = 0;
		one.iov_len = k;
		a = alg_run(&p->ours, &r);
		b = alg_run(&p->ref, &r);
		cp_same(what, p->ours.name, a, p->ref.name, b);
	}
	/* ESP: the AD must hold the 8-byte IV */
	for (k = 0; esp && k < ESP_IV; k++) {
		snprintf(what, sizeof(what), "assoclen %zu", k);
		r.dir = rnd(2) ? ALG_OP_DECRYPT : ALG_OP_ENCRYPT;
		r.assoclen = k;
		one.iov_len = 64;
		a = alg_run(&p->ours, &r);
		b = alg_run(&p->ref, &r);
		cp_same(what, p->ours.name, a, p->ref.name, b);
	}
	if (n_fail == f)
		pass("%s: bad keys, tag sizes, lengths fail as %s fails",
		     p->ours.name, p->ref.name);
}

static void cp_random(const char *ours, const char *tmpl, bool esp)
{
	size_t klen = KEYLEN + (esp ? ESP_SALT : 0), len, adlen;
	unsigned int ivsize = esp ? ESP_IV : 12;
	char ref[96];
	struct layout lay;
	unsigned long f;
	struct pair p;
	u8 iv[12];
	int i;

	snprintf(ref, sizeof(ref), "%s(chacha20-%s,poly1305-generic)", tmpl,
		 opt_ref);
	if (pair_open(&p, "aead", ours, ref, ivsize))
		return;
	for (f = n_fail, i = 0; i < 300; i++) {
		if (i % 50 == 0 && cp_rekey(&p, klen))
			break;
		lay = plain;
		adlen = (esp ? ESP_IV : 0) + rnd(i & 1 ? 64 : 600);
		lay.assoclen = adlen;
		lay.src_piece = i & 4 ? 1 + rnd(i & 8 ? 16 : 300) : 0;
		lay.dst_piece = i & 2 ? 1 + rnd(i & 16 ? 16 : 300) : 0;
		lay.nsend = 1 + rnd(3);
		len = rnd(i < 200 ? 1100 : 20000);
		if (i == 32) {		/* a decryption with no output */
			adlen = esp ? ESP_IV : 0;
			lay.assoclen = adlen;
			len = 0;
		}
		rnd_fill(iv, sizeof(iv));
		rnd_fill(src_buf, adlen + len);
		if (i & 32) {
			if (cp_decrypt_one(&p, "random decryption", iv, adlen,
					   len, &lay, esp))
				continue;
		} else {
			check_one(&p, "random encryption", iv, adlen + len,
				  &lay);
		}
	}
	group_done(&p, "random requests, encryption, decryption, forgeries", f,
		   i);
	cp_bad_input(&p, esp, klen);
	pair_close(&p);
}

/*
 * wycheproof FILE DRIVER: every test of FILE (gen-wycheproof.py's format)
 * through DRIVER, an rfc7539(chacha20,poly1305) driver.  Valid tests:
 * encryption gives ct || tag, decryption gives msg back.  Invalid ones
 * with a 12-byte IV: decryption gives EBADMSG; with another IV length,
 * which the driver cannot express, the request is refused (EINVAL).
 */
static int wp_field(const char *hexs, u8 *out, size_t max)
{
	size_t n = strlen(hexs), i;
	unsigned int b;

	if (!strcmp(hexs, "-"))
		return 0;
	if (n % 2 || n / 2 > max)
		return -1;
	for (i = 0; i < n / 2; i++) {
		if (sscanf(hexs + 2 * i, "%2x", &b) != 1)
			return -1;
		out[i] = b;
	}
	return n / 2;
}

/* Run @r, output in one iovec, and expect @out; no line if it matches. */
static void wp_expect(struct alg *a, int id, const char *what, struct req *r,
		      const u8 *out, size_t outlen)
{
	ssize_t n;
	size_t i;

	r->dst = dst_iov;
	r->ndst = 1;
	dst_iov[0].iov_base = got_buf;
	dst_iov[0].iov_len = outlen;
	n = alg_run(a, r);
	if (n != (ssize_t)outlen) {
		fail("wycheproof %d %s via %s: returned %zd (%s), expected %zu",
		     id, what, a->name, n, errstr(n), outlen);
		return;
	}
	i = first_diff(got_buf, out, outlen);
	if (i < outlen)
		fail("wycheproof %d %s via %s: first differing byte %zu",
		     id, what, a->name, i);
}

static void cmd_wycheproof(const char *file, const char *name)
{
	static char line[8 * 4096];
	static u8 key[64], iv[64], aad[2048], msg[4096], ct[4096 + 16];
	static u8 expect[2048 + 4096 + 16];
	char f[8][4096 * 2 + 2];
	unsigned long fails = n_fail, valid = 0, invalid = 0, other = 0;
	FILE *fp = fopen(file, "r");
	struct alg a = { .tfm = -1, .op = -1 };
	int id, ok, err;

	if (!fp) {
		fail("wycheproof: %s: %s", file, strerror(errno));
		return;
	}
	err = alg_open(&a, "aead", name, 12) ?: alg_authsize(&a);
	if (err) {
		fail("wycheproof: aead %s: %s", name, strerror(-err));
		fclose(fp);
		return;
	}
	while (fgets(line, sizeof(line), fp)) {
		int kl, il, al, ml, cl, tl;
		struct iovec in[2];
		struct req r = { .iv = iv, .src = in, .nsrc = 2, .nsend = 1 };
		ssize_t n;

		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (sscanf(line, "%d %d %8193s %8193s %8193s %8193s %8193s %8193s",
			   &id, &ok, f[0], f[1], f[2], f[3], f[4], f[5]) != 8) {
			fail("wycheproof: %s: bad line: %.40s", file, line);
			break;
		}
		kl = wp_field(f[0], key, sizeof(key));
		il = wp_field(f[1], iv, sizeof(iv));
		al = wp_field(f[2], aad, sizeof(aad));
		ml = wp_field(f[3], msg, sizeof(msg));
		cl = wp_field(f[4], ct, sizeof(ct) - 16);
		tl = wp_field(f[5], ct + (cl > 0 ? cl : 0), 16);
		if (il >= 0 && il != 12 && cl == 0 && tl == 0) {
			/* No ciphertext to give: a zero tag to decrypt. */
			memset(ct, 0, AUTHSIZE);
			tl = AUTHSIZE;
		}
		if (kl != KEYLEN || il < 0 || al < 0 || ml < 0 || cl != ml ||
		    tl != AUTHSIZE) {
			fail("wycheproof %d: field lengths", id);
			continue;
		}
		err = alg_setkey(&a, key, kl);
		if (err) {
			fail("wycheproof %d: setkey: %s", id, strerror(-err));
			continue;
		}
		r.ivlen = il;
		r.assoclen = al;
		in[0].iov_base = aad;
		in[0].iov_len = al;
		if (il != 12) {
			/* The driver's IV is 12 bytes: refused either way. */
			r.dir = ALG_OP_DECRYPT;
			in[1].iov_base = ct;
			in[1].iov_len = cl + tl;
			r.dst = dst_iov;
			r.ndst = 1;
			dst_iov[0].iov_base = got_buf;
			dst_iov[0].iov_len = al + cl;
			n = alg_run(&a, &r);
			if (n != -EINVAL)
				fail("wycheproof %d (%d-byte IV): %zd (%s), not EINVAL",
				     id, il, n, errstr(n));
			other++;
			continue;
		}
		if (ok) {
			in[1].iov_base = msg;
			in[1].iov_len = ml;
			r.dir = ALG_OP_ENCRYPT;
			memcpy(expect, aad, al);
			memcpy(expect + al, ct, cl + tl);
			wp_expect(&a, id, "encryption", &r, expect,
				  al + cl + tl);
			in[1].iov_base = ct;
			in[1].iov_len = cl + tl;
			r.dir = ALG_OP_DECRYPT;
			memcpy(expect + al, msg, ml);
			wp_expect(&a, id, "decryption", &r, expect, al + ml);
			valid++;
		} else {
			in[1].iov_base = ct;
			in[1].iov_len = cl + tl;
			r.dir = ALG_OP_DECRYPT;
			r.dst = dst_iov;
			r.ndst = 1;
			dst_iov[0].iov_base = got_buf;
			dst_iov[0].iov_len = al + cl;
			n = alg_run(&a, &r);
			if (n != -EBADMSG)
				fail("wycheproof %d (invalid): returned %zd (%s), expected EBADMSG",
				     id, n, errstr(n));
			invalid++;
		}
	}
	fclose(fp);
	alg_close(&a);
	if (n_fail == fails && valid + invalid + other)
		pass("wycheproof via %s: %lu valid tests %s, %lu invalid %s, %lu %s",
		     name, valid, "encrypted and decrypted", invalid,
		     "ones EBADMSG", other, "with other IV lengths refused");
	else if (!(valid + invalid + other))
		fail("wycheproof: no tests in %s", file);
}

/* Allocate the first of @n names that binds: a template instance, say. */
static void cmd_bind(const char *type, char **name, int n)
{
	int i, err = -ENOENT;
	struct alg a;

	for (i = 0; i < n; i++) {
		err = alg_open(&a, type, name[i], 0);
		alg_close(&a);
		if (!err) {
			pass("bind %s %s", type, name[i]);
			return;
		}
	}
	fail("bind %s %s%s: %s", type, name[0], n > 1 ? " (or the others)" : "",
	     strerror(-err));
}

static void cmd_chachapoly(const char *rfc, const char *esp)
{
	/* The plain names first: they resolve to the best drivers. */
	rfc_vector("rfc7539(chacha20,poly1305)", false);
	rfc_vector("rfc7539esp(chacha20,poly1305)", true);
	rfc_vector(rfc, false);
	rfc_vector(esp, true);
	cp_random(rfc, "rfc7539", false);
	cp_random(esp, "rfc7539esp", true);
	show_driver("rfc7539(chacha20,poly1305)");
	show_driver("rfc7539esp(chacha20,poly1305)");
}

struct totals {
	u64 ops;
	u64 fails;
};

/* One stress process: random requests on random algorithms until end. */
static struct totals stress_child(char drv[][64], int ndrv, time_t end)
{
	struct pair p[ARRAY_SIZE(algs)];
	struct totals t = { 0, 1 };
	unsigned long f = n_fail;
	int i, k;

	for (i = 0; i < ndrv; i++)
		if (pair_open(&p[i], "skcipher", drv[i], generic_of(drv[i]),
			      ivsize_of(drv[i])) || pair_rekey(&p[i]))
			return t;
	while (time(NULL) < end) {
		k = rnd(ndrv);
		if (!rnd(64))
			pair_rekey(&p[k]);
		check_random(&p[k], "stress", rnd(8) ? 4096 : MAX_LEN / 4);
		t.ops++;
	}
	for (i = 0; i < ndrv; i++)
		pair_close(&p[i]);
	t.fails = n_fail - f;
	return t;
}

/*
 * The drivers: a comma separated list of driver names, or a suffix ("simd"
 * or "-simd" gives chacha20-simd, xchacha20-simd and xchacha12-simd).
 */
static int stress_drivers(const char *s, char drv[][64])
{
	size_t len = strcspn(s, "-");
	bool list = strchr(s, ',');
	int n;

	for (n = 0; n < (int)ARRAY_SIZE(algs); n++)
		list |= len == strlen(algs[n]) && !strncmp(s, algs[n], len);
	if (!list) {
		for (n = 0; n < (int)ARRAY_SIZE(algs); n++)
			snprintf(drv[n], 64, "%s%s%s", algs[n],
				 s[0] == '-' ? "" : "-", s);
		return n;
	}
	for (n = 0; n < (int)ARRAY_SIZE(algs); n++) {
		if (sscanf(s, "%63[^,]", drv[n]) != 1)
			break;
		s += strcspn(s, ",");
		s += *s == ',';
	}
	return n;
}

static void cmd_stress(const char *arg, int secs, int nproc)
{
	char drv[ARRAY_SIZE(algs)][64];
	int ndrv = stress_drivers(arg, drv), fds[2], i, st, bad = 0;
	struct totals t, sum = { 0, 0 };
	time_t end = time(NULL) + secs;
	pid_t pid;

	if (pipe(fds) < 0) {
		fail("stress: pipe: %s", strerror(errno));
		return;
	}
	fflush(stdout);
	for (i = 0; i < nproc; i++) {
		pid = fork();
		if (pid < 0) {
			fail("stress: fork: %s", strerror(errno));
			break;
		}
		if (pid == 0) {
			rng_state = opt_seed + i + 1;
			t = stress_child(drv, ndrv, end);
			if (write(fds[1], &t, sizeof(t)) != sizeof(t))
				t.fails++;
			_exit(t.fails ? 1 : 0);
		}
	}
	close(fds[1]);
	while (wait(&st) > 0)
		bad += !WIFEXITED(st) || WEXITSTATUS(st);
	for (i = 0; read(fds[0], &t, sizeof(t)) == sizeof(t); i++) {
		sum.ops += t.ops;
		sum.fails += t.fails;
	}
	close(fds[0]);
	if (bad || sum.fails || i < nproc)
		fail("stress %s: %d processes, %d reported, %d failed, %llu requests, %llu bad",
		     arg, nproc, i, bad, (unsigned long long)sum.ops,
		     (unsigned long long)sum.fails);
	else
		pass("stress %s: %d processes x %d s, %llu requests identical to *-%s",
		     arg, nproc, secs, (unsigned long long)sum.ops, opt_ref);
}

#ifdef __x86_64__
/*
 * keepregs: a task that keeps values of its own in zmm16-31 and k1-k7 while
 * the driver under test serves its requests.  One asm statement loads the
 * registers, makes the read() that runs the request in the kernel, and
 * stores them back, so that nothing of this program's own (libc's EVEX
 * string functions, say) touches them in between: what comes back is what
 * the kernel's kernel_fpu_begin()/end() and the return to user space kept.
 * A second process holds other values in the same registers in a busy loop,
 * preempted by the timer while the first one's requests run.
 */
struct xregs {
	u8 zmm[16][64];		/* zmm16 .. zmm31 */
	u64 k[7];		/* k1 .. k7 */
};

/* Load the registers from operand [in], store them to operand [out]. */
#define XREGS_LOAD							\
	".irp i,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31\n\t"	\
	"vmovdqu64 (\\i-16)*64(%[in]), %%zmm\\i\n\t"			\
	".endr\n\t"							\
	".irp i,1,2,3,4,5,6,7\n\t"					\
	"kmovq 1024+(\\i-1)*8(%[in]), %%k\\i\n\t"			\
	".endr\n\t"
#define XREGS_STORE							\
	".irp i,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31\n\t"	\
	"vmovdqu64 %%zmm\\i, (\\i-16)*64(%[out])\n\t"			\
	".endr\n\t"							\
	".irp i,1,2,3,4,5,6,7\n\t"					\
	"kmovq %%k\\i, 1024+(\\i-1)*8(%[out])\n\t"			\
	".endr\n\t"
#define XREGS_CLOBBERS							\
	"xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21", "xmm22",	\
	"xmm23", "xmm24", "xmm25", "xmm26", "xmm27", "xmm28", "xmm29",	\
	"xmm30", "xmm31", "k1", "k2", "k3", "k4", "k5", "k6", "k7"

__attribute__((target("avx512f,avx512bw")))
static long read_keeping(int fd, void *buf, size_t len,
			 const struct xregs *in, struct xregs *out)
{
	long ret = SYS_read;

	asm volatile(XREGS_LOAD "syscall\n\t" XREGS_STORE
		     : "+a" (ret)
		     : "D" ((long)fd), "S" (buf), "d" (len), [in] "r" (in),
		       [out] "r" (out)
		     : "rcx", "r11", "memory", XREGS_CLOBBERS);
	return ret;
}

__attribute__((target("avx512f,avx512bw")))
static void spin_keeping(const struct xregs *in, struct xregs *out,
			 unsigned long loops)
{
	asm volatile(XREGS_LOAD "1: dec %[n]\n\tjnz 1b\n\t" XREGS_STORE
		     : [n] "+r" (loops)
		     : [in] "r" (in), [out] "r" (out)
		     : "memory", XREGS_CLOBBERS);
}

/*
 * The busy process, until the other one sets shared[0]: its rounds go to
 * shared[1], those that lost a register to shared[2].
 */
static void spinner(unsigned long *shared)
{
	struct xregs in, out;

	while (!__atomic_load_n(&shared[0], __ATOMIC_RELAXED)) {
		rnd_fill((u8 *)&in, sizeof(in));
		spin_keeping(&in, &out, 2000000);
		__atomic_store_n(&shared[1], shared[1] + 1, __ATOMIC_RELAXED);
		if (memcmp(&in, &out, sizeof(in)))
			__atomic_store_n(&shared[2], shared[2] + 1,
					 __ATOMIC_RELAXED);
	}
}

static void cmd_keepregs(const char *drv, int n)
{
	unsigned long *shared;
	struct iovec s = { .iov_base = src_buf }, d = { .iov_base = ref_buf };
	struct req r = { .dir = ALG_OP_ENCRYPT, .assoclen = -1, .src = &s,
			 .nsrc = 1, .nsend = 1, .dst = &d, .ndst = 1 };
	unsigned long bad_regs = 0, bad_data = 0, f = n_fail;
	struct xregs in, out;
	u8 iv[MAX_IVLEN];
	struct pair p;
	pid_t pid;
	long got;
	int i, st;

	__builtin_cpu_init();
	if (!__builtin_cpu_supports("avx512f") ||
	    !__builtin_cpu_supports("avx512bw")) {
		fail("keepregs: this CPU has no AVX-512F and BW");
		return;
	}
	shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED) {
		fail("keepregs: mmap: %s", strerror(errno));
		return;
	}
	if (pair_open(&p, "skcipher", drv, generic_of(drv), ivsize_of(drv)))
		return;
	if (pair_rekey(&p))
		goto out;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		rng_state = opt_seed + 1;
		spinner(shared);
		_exit(0);
	}
	r.ivlen = p.ref.ivsize;
	r.iv = iv;
	for (i = 0; i < n; i++) {
		/* Every length up to 4 KiB: the widest cores and the tails */
		s.iov_len = 1 + rnd(4096);
		d.iov_len = s.iov_len;
		rnd_request(&p, iv, s.iov_len, false);
		rnd_fill((u8 *)&in, sizeof(in));
		got = alg_send(&p.ours, &r);
		if (!got)
			got = read_keeping(p.ours.op, got_buf, s.iov_len, &in,
					   &out);
		if (got != (long)s.iov_len) {
			fail("keepregs %s: request %d of %zu bytes: %s", drv,
			     i, s.iov_len, errstr(got));
			break;
		}
		if (memcmp(&in, &out, sizeof(in)) &&
		    !bad_regs++)
			fail("keepregs %s: zmm16-31/k1-k7 changed across request %d (%zu bytes)",
			     drv, i, s.iov_len);
		if ((alg_run(&p.ref, &r) != (ssize_t)s.iov_len ||
		     memcmp(got_buf, ref_buf, s.iov_len)) && !bad_data++)
			fail("keepregs %s: request %d (%zu bytes) differs from %s",
			     drv, i, s.iov_len, p.ref.name);
	}
	__atomic_store_n(&shared[0], 1, __ATOMIC_RELAXED);
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
	    WEXITSTATUS(st))
		fail("keepregs: the busy process did not run or end");
	else if (shared[2] || !shared[1])
		fail("keepregs: the busy process lost its registers in %lu of %lu rounds",
		     shared[2], shared[1]);
	printf("INFO keepregs: the busy process ran %lu rounds\n", shared[1]);
	if (n_fail == f)
		pass("keepregs %s: %d requests kept zmm16-31, k1-k7; output = %s",
		     drv, n, p.ref.name);
	else if (bad_regs || bad_data)
		fail("keepregs %s: %lu of %d requests lost registers, %lu gave other data",
		     drv, bad_regs, n, bad_data);
out:
	pair_close(&p);
}
#else
static void cmd_keepregs(const char *drv, int n)
{
	fail("keepregs %s (%d): x86-64 only", drv, n);
}
#endif

/*
 * Each output iovec takes an allocation charged to net.core.optmem_max
 * (20 KiB before Linux 6.9: then more than about 20 fail with ENOMEM).
 */
static void set_rx_max_iov(void)
{
	FILE *f = fopen("/proc/sys/net/core/optmem_max", "r");
	long optmem = 20480;

	if (!f || fscanf(f, "%ld", &optmem) != 1)
		optmem = 20480;
	if (f)
		fclose(f);
	rx_max_iov = (optmem - 10240) / 768;
	rx_max_iov = rx_max_iov < 4 ? 4 : rx_max_iov > MAX_IOV ? MAX_IOV :
		     rx_max_iov;
	printf("INFO net.core.optmem_max %ld: up to %d output iovecs\n",
	       optmem, rx_max_iov);
}

static void die_usage(void)
{
	fputs("usage: afalg-check [--seed N] [--ivsize N] [--driver NAME] [--ref SFX] CMD\n"
	      "  --ref SFX              the kernel's reference drivers: *-SFX\n"
	      "                         (default generic; lib from Linux 6.16 on)\n"
	      "  compare OURS GENERIC   e.g. compare chacha20-simd chacha20-generic\n"
	      "  vector                 RFC 8439 2.4.2 via chacha20 (or --driver)\n"
	      "  badinput DRIVER...     bad keys, IV lengths, empty requests\n"
	      "  stress DRIVERS SECONDS NPROC\n"
	      "                         DRIVERS: a suffix (simd: chacha20-simd,\n"
	      "                         xchacha20-simd, ...) or a comma separated list\n"
	      "  aead OURS_CHACHA20     RFC 8439 2.8.2 via rfc7539(OURS,poly1305-generic)\n"
	      "  wycheproof FILE DRIVER Project Wycheproof's ChaCha20-Poly1305 tests\n"
	      "                         (gen-wycheproof.py's file) through DRIVER\n"
	      "  bind TYPE NAME...      allocate the first NAME that binds (a\n"
	      "                         template instance, say)\n"
	      "  chachapoly RFC ESP     the drivers RFC of rfc7539(chacha20,poly1305)\n"
	      "                         and ESP of rfc7539esp against the template\n"
	      "  keepregs DRIVER N      N requests that must keep the caller's\n"
	      "                         zmm16-31 and k1-k7 (x86-64, AVX-512)\n"
	      "  encrypt DRIVER KEYHEX IVHEX\n"
	      "                         standard input through DRIVER to standard output\n",
	      stderr);
	exit(2);
}

/* Parse up to max bytes of hex; returns the byte count or -1. */
static int unhex(u8 *out, int max, const char *s)
{
	int n = 0;
	unsigned int b;

	while (*s) {
		if (n == max || sscanf(s, "%2x", &b) != 1 || !s[1])
			return -1;
		out[n++] = b;
		s += 2;
	}
	return n;
}

/* encrypt: standard input through one driver to standard output. */
static int cmd_encrypt(const char *drv, const char *keyhex, const char *ivhex)
{
	u8 key[KEYLEN], iv[MAX_IVLEN];
	struct iovec s = { .iov_base = src_buf }, d = { .iov_base = got_buf };
	struct req r = { .dir = ALG_OP_ENCRYPT, .iv = iv, .assoclen = -1,
			 .src = &s, .nsrc = 1, .nsend = 1, .dst = &d, .ndst = 1 };
	struct alg a;
	int ivlen, err;
	ssize_t n;

	ivlen = unhex(iv, sizeof(iv), ivhex);
	if (unhex(key, sizeof(key), keyhex) != KEYLEN || ivlen < 0)
		die_usage();
	r.ivlen = ivlen;
	s.iov_len = fread(src_buf, 1, MAX_LEN, stdin);
	d.iov_len = s.iov_len;
	err = alg_open(&a, "skcipher", drv, ivlen);
	if (!err)
		err = alg_setkey(&a, key, sizeof(key));
	n = err ? err : alg_run(&a, &r);
	alg_close(&a);
	if (n != (ssize_t)s.iov_len) {
		fprintf(stderr, "encrypt via %s: %s\n", drv, errstr(n));
		return 1;
	}
	fwrite(got_buf, 1, n, stdout);
	return 0;
}

int main(int argc, char **argv)
{
	struct pair p;
	char *arg[8];
	int i, n = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (getrandom(&opt_seed, sizeof(opt_seed), 0) != sizeof(opt_seed))
		opt_seed = time(NULL) ^ ((u64)getpid() << 32);
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--seed") && i + 1 < argc)
			opt_seed = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--ivsize") && i + 1 < argc)
			opt_ivsize = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--driver") && i + 1 < argc)
			opt_driver = argv[++i];
		else if (!strcmp(argv[i], "--ref") && i + 1 < argc)
			opt_ref = argv[++i];
		else if (!strncmp(argv[i], "--", 2) || n == (int)ARRAY_SIZE(arg))
			die_usage();
		else
			arg[n++] = argv[i];
	}
	if (!n || opt_ivsize > MAX_IVLEN)
		die_usage();
	if (!strcmp(arg[0], "encrypt") && n == 4)
		return cmd_encrypt(arg[1], arg[2], arg[3]);
	rng_state = opt_seed;
	printf("INFO seed %llu\n", (unsigned long long)opt_seed);
	set_rx_max_iov();

	if (!strcmp(arg[0], "compare") && n == 3) {
		if (!pair_open(&p, "skcipher", arg[1], arg[2],
			       ivsize_of(arg[2]))) {
			compare_all(&p);
			pair_close(&p);
		}
	} else if (!strcmp(arg[0], "vector") && n == 1) {
		cmd_vector();
	} else if (!strcmp(arg[0], "badinput") && n >= 2) {
		for (i = 1; i < n; i++)
			check_bad_input(arg[i]);
	} else if (!strcmp(arg[0], "stress") && n == 4) {
		cmd_stress(arg[1], atoi(arg[2]), atoi(arg[3]));
	} else if (!strcmp(arg[0], "aead") && n == 2) {
		cmd_aead(arg[1]);
	} else if (!strcmp(arg[0], "bind") && n >= 3) {
		cmd_bind(arg[1], arg + 2, n - 2);
	} else if (!strcmp(arg[0], "wycheproof") && n == 3) {
		cmd_wycheproof(arg[1], arg[2]);
	} else if (!strcmp(arg[0], "chachapoly") && n == 3) {
		cmd_chachapoly(arg[1], arg[2]);
	} else if (!strcmp(arg[0], "keepregs") && n == 3) {
		cmd_keepregs(arg[1], atoi(arg[2]));
	} else {
		die_usage();
	}

	if (n_fail)
		printf("RESULT FAILED: %lu passed, %lu failed%s\n", n_pass,
		       n_fail, n_fail > MAX_SHOWN ? " (not all shown)" : "");
	else
		printf("RESULT OK: %lu passed\n", n_pass);
	return n_fail ? 1 : 0;
}
