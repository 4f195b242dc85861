// SPDX-License-Identifier: GPL-2.0
/*
 * ping-sweep: ICMP echo requests of every size from 1 to 1400 bytes of
 * data, over and over for SECONDS, from a raw socket, as run.sh --load's
 * pings (load.sh).  Up to 128 requests are out at once; one without a
 * reply after 10 s counts as lost.  The sizes go up one by one, but a size
 * that has had no reply yet, and none out, goes first.  After SECONDS,
 * only such sizes go, for up to EXTRA seconds more, until every size has
 * had a reply.  Each request's data is a pattern of its size and sequence
 * number, and each reply's must come back whole.
 *
 *   ping-sweep DST SECONDS EXTRA
 *
 * Prints one line, "sweeps N sizes A of 1400 (B in SECONDS s) sent S
 * replies R wrong W lost L rtt avg T max M ms", and exits 0 when every
 * size got a reply and no reply was wrong.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/ip_icmp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_SIZE	1400
#define WINDOW		128
#define LOST_AFTER_MS	10000

struct out {
	int size;		/* 0: the slot is free */
	unsigned short seq;
	long long sent_ms;
};

static long long now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000LL + t.tv_nsec / 1000000;
}

static unsigned short csum(const void *p, size_t n)
{
	const unsigned char *b = p;
	unsigned long s = 0;

	for (; n > 1; n -= 2, b += 2)
		s += b[0] << 8 | b[1];
	if (n)
		s += b[0] << 8;
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return htons(~s & 0xffff);
}

/*
 * The size after @size (from 1 again past MAX_SIZE, one more sweep in
 * *@sweeps), or one without a reply and without a request out, if any.
 */
static int next_size(int size, const unsigned int *answered,
		     const unsigned char *pending, unsigned long *sweeps)
{
	int i, s = size;

	for (i = 0; i < MAX_SIZE; i++) {
		s = s % MAX_SIZE + 1;
		if (!answered[s] && !pending[s])
			return s;
	}
	if (size == MAX_SIZE)
		++*sweeps;
	return size % MAX_SIZE + 1;
}

/* The data of the request of @size bytes with sequence number @seq. */
static void fill(unsigned char *p, int size, unsigned short seq)
{
	unsigned int x = (unsigned int)size * 2654435761u ^ seq * 40503u;
	int i;

	for (i = 0; i < size; i++) {
		x = x * 1103515245u + 12345u;
		p[i] = x >> 23;
	}
}

int main(int argc, char **argv)
{
	static unsigned char pkt[sizeof(struct icmphdr) + MAX_SIZE];
	static unsigned char buf[65536], want[MAX_SIZE];
	static unsigned int answered[MAX_SIZE + 1];
	static unsigned char pending[MAX_SIZE + 1];
	unsigned long sent = 0, replies = 0, wrong = 0, lost = 0, sweeps = 0;
	long long rtt_sum = 0, rtt_max = 0;
	struct sockaddr_in dst = { .sin_family = AF_INET };
	unsigned short id = getpid() & 0xffff, seq = 0;
	struct out win[WINDOW] = { { 0 } };
	long long end, stop;
	int fd, size = 1, i, nsizes = 0, busy = 0, by_end = -1;

	if (argc != 4 || inet_pton(AF_INET, argv[1], &dst.sin_addr) != 1) {
		fputs("usage: ping-sweep DST SECONDS EXTRA\n", stderr);
		return 2;
	}
	end = now_ms() + atoi(argv[2]) * 1000LL;
	stop = end + atoi(argv[3]) * 1000LL;
	fd = socket(AF_INET, SOCK_RAW, IPPROTO_ICMP);
	if (fd < 0) {
		printf("ping-sweep: socket: %s\n", strerror(errno));
		return 1;
	}
	/* Room for a window of replies, and every other ICMP packet. */
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &(int){ 1 << 20 }, sizeof(int));
	while (now_ms() < end || busy ||
	       (nsizes < MAX_SIZE && now_ms() < stop)) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		long long t = now_ms();

		if (t >= end && by_end < 0)
			by_end = nsizes;
		/*
		 * Fill the window with the next sizes while time is left;
		 * after SECONDS, only with sizes that have had no reply.
		 */
		for (i = 0; i < WINDOW && t < stop; i++) {
			struct icmphdr *h = (struct icmphdr *)pkt;

			if (win[i].size)
				continue;
			if (t >= end && (answered[size] || pending[size]))
				size = next_size(size, answered, pending, &sweeps);
			if (t >= end && (answered[size] || pending[size]))
				break;
			memset(h, 0, sizeof(*h));
			h->type = ICMP_ECHO;
			h->un.echo.id = htons(id);
			h->un.echo.sequence = htons(++seq);
			fill(pkt + sizeof(*h), size, seq);
			h->checksum = csum(pkt, sizeof(*h) + size);
			if (sendto(fd, pkt, sizeof(*h) + size, 0,
				   (struct sockaddr *)&dst, sizeof(dst)) < 0)
				break;
			win[i] = (struct out){ size, seq, t };
			pending[size]++;
			sent++;
			busy++;
			size = next_size(size, answered, pending, &sweeps);
		}
		/* Requests out too long are lost. */
		for (i = 0; i < WINDOW; i++)
			if (win[i].size && t - win[i].sent_ms > LOST_AFTER_MS) {
				pending[win[i].size]--;
				win[i].size = 0;
				lost++;
				busy--;
			}
		if (poll(&pfd, 1, 50) <= 0)
			continue;
		while (1) {
			ssize_t n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
			struct iphdr *ip = (struct iphdr *)buf;
			struct icmphdr *h;
			int hl, len;

			if (n <= 0)
				break;
			hl = ip->ihl * 4;
			if (n < hl + (ssize_t)sizeof(*h))
				continue;
			h = (struct icmphdr *)(buf + hl);
			if (h->type != ICMP_ECHOREPLY || ntohs(h->un.echo.id) != id)
				continue;
			len = n - hl - sizeof(*h);
			for (i = 0; i < WINDOW; i++)
				if (win[i].size &&
				    win[i].seq == ntohs(h->un.echo.sequence))
					break;
			if (i == WINDOW)
				continue;	/* late: already counted lost */
			fill(want, win[i].size, win[i].seq);
			if (len != win[i].size ||
			    memcmp((unsigned char *)(h + 1), want, len))
				wrong++;
			else if (!answered[win[i].size]++)
				nsizes++;
			replies++;
			rtt_sum += now_ms() - win[i].sent_ms;
			if (now_ms() - win[i].sent_ms > rtt_max)
				rtt_max = now_ms() - win[i].sent_ms;
			pending[win[i].size]--;
			win[i].size = 0;
			busy--;
		}
	}
	printf("sweeps %lu sizes %d of %d (%d in %s s) ", sweeps, nsizes,
	       MAX_SIZE, by_end < 0 ? nsizes : by_end, argv[2]);
	printf("sent %lu replies %lu wrong %lu lost %lu rtt avg %lld max %lld ms\n",
	       sent, replies, wrong, lost,
	       replies ? rtt_sum / (long long)replies : 0, rtt_max);
	return nsizes == MAX_SIZE && !wrong ? 0 : 1;
}
