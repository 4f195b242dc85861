// SPDX-License-Identifier: GPL-2.0
/*
 * ktls-check: TLS 1.3 records with ChaCha20-Poly1305 through the kernel's
 * TLS (kTLS) between two guests, as tools/ipsec/run.sh's kTLS checks run
 * it.  No handshake: both ends derive the same keys from SEED, one per
 * direction, and hand them to the kernel with setsockopt(SOL_TLS, TLS_TX
 * and TLS_RX).  Each end sends SIZE bytes (plus 4097) on every
 * connection, in records of 1 to 16384 bytes, from a stream both ends can
 * recompute, and checks every byte it receives against the other end's.
 *
 *   ktls-check [-n CONNS] server PORT SEED SIZE
 *   ktls-check [-n CONNS] client HOST PORT SEED SIZE
 *   ktls-check server PORT SEED SIZE badrx
 *   ktls-check client HOST PORT SEED SIZE badrx
 *
 * SIZE: MiB, or KiB with a K after it.  -n CONNS: that many connections at
 * once (default 1), each in its own process with its own keys and streams:
 * those of SEED plus the connection's number, which the client sends as
 * the connection's first byte, before kTLS takes over.  badrx, with one
 * connection only: this end's receive key has one bit flipped, so the
 * first record it receives must fail with EBADMSG and nothing reach it.  Prints the
 * kernel's rfc7539(chacha20,poly1305) driver of highest priority (kTLS
 * allocates it by that name) and one RESULT line; exit status 0 when what
 * happened is what was expected.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/tls.h>

#ifndef SOL_TLS
#define SOL_TLS		282
#endif
#ifndef TCP_ULP
#define TCP_ULP		31
#endif

#define MAX_RECORD	16384

typedef unsigned long long u64;

static u64 rnd_next(u64 *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dULL;
}

/* The byte stream of direction @dir (0: client to server), from @seed. */
struct stream {
	u64 data, sizes;
};

static void stream_init(struct stream *st, u64 seed, int dir)
{
	st->data = seed * 0x9e3779b97f4a7c15ULL + 2 * dir + 1;
	st->sizes = seed * 0xbf58476d1ce4e5b9ULL + 2 * dir + 2;
}

static void stream_fill(struct stream *st, unsigned char *p, size_t n)
{
	while (n--)
		*p++ = (unsigned char)(rnd_next(&st->data) >> 56);
}

static void key_of(u64 seed, int dir, struct tls12_crypto_info_chacha20_poly1305 *ci)
{
	u64 s = seed ^ (0x1234567ULL + dir);
	unsigned char *p = (unsigned char *)ci->iv;
	size_t i;

	memset(ci, 0, sizeof(*ci));
	ci->info.version = TLS_1_3_VERSION;
	ci->info.cipher_type = TLS_CIPHER_CHACHA20_POLY1305;
	for (i = 0; i < sizeof(ci->iv); i++)
		p[i] = (unsigned char)(rnd_next(&s) >> 56);
	for (i = 0; i < sizeof(ci->key); i++)
		ci->key[i] = (unsigned char)(rnd_next(&s) >> 56);
	for (i = 0; i < sizeof(ci->rec_seq); i++)
		ci->rec_seq[i] = 0;
}

/* The driver "rfc7539(chacha20,poly1305)" resolves to, and its refcnt. */
static void show_driver(const char *when)
{
	char line[256], name[160] = "", drv[160] = "", best[160] = "none";
	int prio = -1, top = -1, ref = 0, best_ref = 0;
	FILE *f = fopen("/proc/crypto", "r");

	while (f && fgets(line, sizeof(line), f)) {
		char *v = strchr(line, ':');

		line[strcspn(line, "\n")] = 0;
		if (v)
			v += 2;
		if (!line[0] && !strcmp(name, "rfc7539(chacha20,poly1305)") &&
		    prio > top) {
			top = prio;
			best_ref = ref;
			snprintf(best, sizeof(best), "%s", drv);
		}
		if (!v)
			continue;
		if (!strncmp(line, "name ", 5))
			snprintf(name, sizeof(name), "%s", v);
		else if (!strncmp(line, "driver ", 7))
			snprintf(drv, sizeof(drv), "%s", v);
		else if (!strncmp(line, "priority ", 9))
			prio = atoi(v);
		else if (!strncmp(line, "refcnt ", 7))
			ref = atoi(v);
	}
	if (f)
		fclose(f);
	printf("DRIVER %s: rfc7539(chacha20,poly1305) -> %s (priority %d, refcnt %d)\n",
	       when, best, top, best_ref);
}

static int connect_to(const char *host, int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
	int i, fd;

	if (inet_pton(AF_INET, host, &a.sin_addr) != 1)
		return -1;
	for (i = 0; i < 100; i++) {
		fd = socket(AF_INET, SOCK_STREAM, 0);
		if (fd < 0)
			return -1;
		if (!connect(fd, (struct sockaddr *)&a, sizeof(a)))
			return fd;
		close(fd);
		usleep(100000);
	}
	return -1;
}

/* A socket listening on @port. */
static int listen_on(int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
	int one = 1, l = socket(AF_INET, SOCK_STREAM, 0);

	if (l < 0)
		return -1;
	setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(l, (struct sockaddr *)&a, sizeof(a)) || listen(l, 64))
		return -1;
	printf("LISTENING %d\n", port);
	fflush(stdout);
	return l;
}

/* Send @total bytes of direction @dir's stream in records of 1-16384. */
static int send_all(int fd, u64 seed, int dir, size_t total)
{
	static unsigned char buf[MAX_RECORD];
	struct stream st;
	size_t done = 0;

	stream_init(&st, seed, dir);
	while (done < total) {
		size_t n = 1 + rnd_next(&st.sizes) % MAX_RECORD, off = 0;

		if (n > total - done)
			n = total - done;
		stream_fill(&st, buf, n);
		while (off < n) {
			ssize_t k = send(fd, buf + off, n - off, 0);

			if (k <= 0)
				return -errno;
			off += k;
		}
		done += n;
	}
	return 0;
}

/*
 * Receive and check @total bytes of direction @dir's stream; returns 0, or
 * -errno, the bytes checked before it in *@got.
 */
static int recv_all(int fd, u64 seed, int dir, size_t total, size_t *got)
{
	static unsigned char buf[MAX_RECORD], want[MAX_RECORD];
	struct stream st;

	stream_init(&st, seed, dir);
	*got = 0;
	while (*got < total) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0), i;

		if (n < 0)
			return -errno;
		if (n == 0)
			return -ECONNRESET;
		stream_fill(&st, want, n);
		for (i = 0; i < n; i++)
			if (buf[i] != want[i]) {
				printf("MISMATCH at byte %zu\n", *got + i);
				return -EILSEQ;
			}
		*got += n;
	}
	return 0;
}

/* The end of a RESULT OK line: what each connection carried, and @after. */
static void print_carried(size_t total, const char *after)
{
	printf("%zu bytes each way in records of 1-%d bytes, every byte as sent%s\n",
	       total, MAX_RECORD, after);
}

/*
 * Connection number @conn of @conns, @fd: kTLS on it, then SIZE bytes each
 * way at once.  Prints "RESULT ..." (one connection) or "CONN ..." (one of
 * several); returns 0 when what happened is what was expected.
 */
static int run_conn(int fd, int server, u64 seed, size_t total, int badrx,
		    int conn, int conns)
{
	struct tls12_crypto_info_chacha20_poly1305 tx, rx;
	const char *tag = conns > 1 ? "CONN" : "RESULT";
	size_t got = 0;
	int err, status = 0;
	pid_t pid;

	/* Direction 0: client to server.  Each end's TX is its own. */
	key_of(seed, server, &tx);
	key_of(seed, !server, &rx);
	if (badrx)
		rx.key[7] ^= 0x20;
	if (setsockopt(fd, SOL_TCP, TCP_ULP, "tls", sizeof("tls")) ||
	    setsockopt(fd, SOL_TLS, TLS_TX, &tx, sizeof(tx)) ||
	    setsockopt(fd, SOL_TLS, TLS_RX, &rx, sizeof(rx))) {
		printf("%s FAIL: %d: kTLS setup: %s\n", tag, conn,
		       strerror(errno));
		return 1;
	}
	if (!conn)
		show_driver("in use");

	pid = fork();
	if (pid < 0) {
		printf("%s FAIL: %d: fork: %s\n", tag, conn, strerror(errno));
		return 1;
	}
	if (!pid) {
		err = send_all(fd, seed, server, total);
		/* With a wrong key at either end the peer stops reading. */
		_exit(err ? 1 : 0);
	}
	err = recv_all(fd, seed, !server, total, &got);
	if (badrx) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		if (err == -EBADMSG && got == 0) {
			printf("%s OK: wrong receive key: EBADMSG, 0 bytes taken\n",
			       tag);
			return 0;
		}
		printf("%s FAIL: %d: wrong receive key: %s after %zu bytes\n",
		       tag, conn, err ? strerror(-err) : "no error", got);
		return 1;
	}
	if (err) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		printf("%s FAIL: %d: received %zu of %zu bytes, then %s\n", tag,
		       conn, got, total, strerror(-err));
		return 1;
	}
	waitpid(pid, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		printf("%s FAIL: %d: sending failed\n", tag, conn);
		return 1;
	}
	if (conns == 1) {
		printf("RESULT OK: ");
		print_carried(total, "");
	}
	/* Let the peer take the last records before the socket closes. */
	shutdown(fd, SHUT_WR);
	recv(fd, &got, 1, 0);
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	int server, port, fd, l = -1, badrx, conns = 1, i, st, bad = 0;
	unsigned char conn;
	size_t total;
	time_t t0 = time(NULL);
	char *end, took[32];
	u64 seed;
	pid_t pid;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc >= 3 && !strcmp(argv[1], "-n")) {
		conns = atoi(argv[2]);
		argc -= 2;
		argv += 2;
	}
	server = argc >= 2 && !strcmp(argv[1], "server");
	badrx = argc == (server ? 6 : 7) && !strcmp(argv[argc - 1], "badrx");
	if ((!(server && (argc == 5 || argc == 6)) &&
	     !(argc >= 2 && !strcmp(argv[1], "client") &&
	       (argc == 6 || argc == 7))) || conns < 1 || conns > 64 ||
	    (badrx && conns > 1)) {
		fputs("usage: ktls-check [-n CONNS] server PORT SEED SIZE\n"
		      "       ktls-check [-n CONNS] client HOST PORT SEED SIZE\n"
		      "       ktls-check server PORT SEED SIZE badrx\n"
		      "       ktls-check client HOST PORT SEED SIZE badrx\n",
		      stderr);
		return 2;
	}
	port = atoi(argv[server ? 2 : 3]);
	seed = strtoull(argv[server ? 3 : 4], NULL, 0);
	total = strtoull(argv[server ? 4 : 5], &end, 0) * 1024;
	if (*end != 'K')
		total *= 1024;
	total += 4097;
	signal(SIGPIPE, SIG_IGN);

	if (server) {
		l = listen_on(port);
		if (l < 0) {
			printf("RESULT FAIL: no listening socket: %s\n",
			       strerror(errno));
			return 1;
		}
	}
	for (i = 0; i < conns; i++) {
		/* The client numbers its connections; the server reads it. */
		conn = i;
		fd = server ? accept(l, NULL, NULL) : connect_to(argv[2], port);
		if (fd < 0 || (server ? recv(fd, &conn, 1, MSG_WAITALL) :
			       send(fd, &conn, 1, 0)) != 1 || conn >= conns) {
			printf("RESULT FAIL: connection %d: %s\n", i,
			       fd < 0 ? strerror(errno) : "no number");
			bad++;
			break;
		}
		if (conns == 1)
			return run_conn(fd, server, seed, total, badrx, 0, 1);
		pid = fork();
		if (!pid)
			_exit(run_conn(fd, server, seed + conn, total, 0, conn,
				       conns));
		if (pid < 0) {
			printf("RESULT FAIL: fork: %s\n", strerror(errno));
			bad++;
			break;
		}
		close(fd);
	}
	if (l >= 0)
		close(l);
	while (wait(&st) > 0)
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			bad++;
	if (bad) {
		printf("RESULT FAIL: %d of %d connections failed\n", bad, conns);
		return 1;
	}
	snprintf(took, sizeof(took), ", in %lld s", (long long)(time(NULL) - t0));
	printf("RESULT OK: %d connections at once, each ", conns);
	print_carried(total, took);
	return 0;
}
