// SPDX-License-Identifier: GPL-2.0
/*
 * fscrypt-check - the fscrypt ioctls for the test VM's check 12, and a
 * byte-string search over a block device for checks 12 and 13
 *
 *   fscrypt-check add-key MNT KEYFILE	add a raw 64-byte v2 key to the
 *					filesystem at MNT; prints its id
 *   fscrypt-check set-policy DIR ID [direct]
 *					v2 policy, Adiantum for contents
 *					and names, padding 32 (direct:
 *					DIRECT_KEY too), on an empty DIR
 *   fscrypt-check get-policy PATH	prints the policy of PATH
 *   fscrypt-check key-status MNT ID	present, absent or
 *					incompletely-removed
 *   fscrypt-check remove-key MNT ID	removes the key; prints the
 *					kernel's status flags
 *   fscrypt-check find FILE PATTERN-FILE [ALIGN]
 *					prints each byte offset in FILE
 *					(read with O_DIRECT where it can)
 *					at which PATTERN-FILE's bytes are,
 *					only at multiples of ALIGN if given
 *
 * It shares no code with the module under test.  Exit status: 0 done,
 * 1 failed (with a message on stderr), 2 usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <linux/fscrypt.h>

#define KEY_BYTES	64	/* FSCRYPT_MAX_KEY_SIZE */
#define ID_BYTES	FSCRYPT_KEY_IDENTIFIER_SIZE
#define CHUNK		(1024 * 1024)
#define DIO_ALIGN	4096

/* The key_spec and raw key of FS_IOC_ADD_ENCRYPTION_KEY, in one buffer */
struct add_key {
	struct fscrypt_add_key_arg arg;
	unsigned char raw[KEY_BYTES];
};

static int die_usage(void)
{
	fprintf(stderr,
		"usage: fscrypt-check add-key MNT KEYFILE | set-policy DIR ID [direct] |\n"
		"       get-policy PATH | key-status MNT ID | remove-key MNT ID |\n"
		"       find FILE PATTERN-FILE [ALIGN]\n");
	return 2;
}

static int fail(const char *what, const char *path)
{
	fprintf(stderr, "fscrypt-check: %s %s: %s\n", what, path,
		strerror(errno));
	return 1;
}

static int open_path(const char *path)
{
	return open(path, O_RDONLY | O_CLOEXEC);
}

static void print_id(const unsigned char *id)
{
	int i;

	for (i = 0; i < ID_BYTES; i++)
		printf("%02x", id[i]);
	printf("\n");
}

/* parse_id: ID_BYTES from 2 * ID_BYTES hex digits; 0 on success */
static int parse_id(const char *hex, unsigned char *id)
{
	unsigned int v;
	int i;

	if (strlen(hex) != 2 * ID_BYTES) {
		fprintf(stderr, "fscrypt-check: bad key id '%s'\n", hex);
		return -1;
	}
	for (i = 0; i < ID_BYTES; i++) {
		if (sscanf(hex + 2 * i, "%2x", &v) != 1) {
			fprintf(stderr, "fscrypt-check: bad key id '%s'\n",
				hex);
			return -1;
		}
		id[i] = v;
	}
	return 0;
}

/* read_all: exactly @len bytes of @path into @buf; 0 on success */
static int read_all(const char *path, void *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = open_path(path);
	if (fd < 0)
		return fail("open", path);
	n = read(fd, buf, len);
	close(fd);
	if (n != (ssize_t)len) {
		fprintf(stderr, "fscrypt-check: %s: want %zu bytes, read %zd\n",
			path, len, n);
		return 1;
	}
	return 0;
}

static int cmd_add_key(const char *mnt, const char *keyfile)
{
	struct add_key k;
	int fd, rc;

	memset(&k, 0, sizeof(k));
	if (read_all(keyfile, k.raw, sizeof(k.raw)))
		return 1;
	k.arg.key_spec.type = FSCRYPT_KEY_SPEC_TYPE_IDENTIFIER;
	k.arg.raw_size = sizeof(k.raw);
	fd = open_path(mnt);
	if (fd < 0)
		return fail("open", mnt);
	rc = ioctl(fd, FS_IOC_ADD_ENCRYPTION_KEY, &k.arg);
	close(fd);
	memset(k.raw, 0, sizeof(k.raw));
	if (rc)
		return fail("FS_IOC_ADD_ENCRYPTION_KEY", mnt);
	print_id(k.arg.key_spec.u.identifier);
	return 0;
}

static int cmd_set_policy(const char *dir, const char *id, int direct)
{
	struct fscrypt_policy_v2 p;
	int fd, rc;

	memset(&p, 0, sizeof(p));
	p.version = FSCRYPT_POLICY_V2;
	p.contents_encryption_mode = FSCRYPT_MODE_ADIANTUM;
	p.filenames_encryption_mode = FSCRYPT_MODE_ADIANTUM;
	p.flags = FSCRYPT_POLICY_FLAGS_PAD_32;
	if (direct)
		p.flags |= FSCRYPT_POLICY_FLAG_DIRECT_KEY;
	if (parse_id(id, p.master_key_identifier))
		return 1;
	fd = open_path(dir);
	if (fd < 0)
		return fail("open", dir);
	rc = ioctl(fd, FS_IOC_SET_ENCRYPTION_POLICY, &p);
	close(fd);
	if (rc)
		return fail("FS_IOC_SET_ENCRYPTION_POLICY", dir);
	return 0;
}

static int cmd_get_policy(const char *path)
{
	struct fscrypt_get_policy_ex_arg a;
	struct fscrypt_policy_v2 *p = &a.policy.v2;
	int fd, rc;

	memset(&a, 0, sizeof(a));
	a.policy_size = sizeof(a.policy);
	fd = open_path(path);
	if (fd < 0)
		return fail("open", path);
	rc = ioctl(fd, FS_IOC_GET_ENCRYPTION_POLICY_EX, &a);
	close(fd);
	if (rc)
		return fail("FS_IOC_GET_ENCRYPTION_POLICY_EX", path);
	if (a.policy.version != FSCRYPT_POLICY_V2) {
		printf("version %u\n", a.policy.version);
		return 0;
	}
	printf("v2 contents %u filenames %u flags 0x%x key ",
	       p->contents_encryption_mode, p->filenames_encryption_mode,
	       p->flags);
	print_id(p->master_key_identifier);
	return 0;
}

static void set_spec(struct fscrypt_key_specifier *spec,
		     const unsigned char *id)
{
	spec->type = FSCRYPT_KEY_SPEC_TYPE_IDENTIFIER;
	memcpy(spec->u.identifier, id, ID_BYTES);
}

static int cmd_key_status(const char *mnt, const char *id)
{
	struct fscrypt_get_key_status_arg a;
	unsigned char raw[ID_BYTES];
	int fd, rc;

	if (parse_id(id, raw))
		return 1;
	memset(&a, 0, sizeof(a));
	set_spec(&a.key_spec, raw);
	fd = open_path(mnt);
	if (fd < 0)
		return fail("open", mnt);
	rc = ioctl(fd, FS_IOC_GET_ENCRYPTION_KEY_STATUS, &a);
	close(fd);
	if (rc)
		return fail("FS_IOC_GET_ENCRYPTION_KEY_STATUS", mnt);
	switch (a.status) {
	case FSCRYPT_KEY_STATUS_PRESENT:
		printf("present, %u user(s)\n", a.user_count);
		break;
	case FSCRYPT_KEY_STATUS_ABSENT:
		printf("absent\n");
		break;
	case FSCRYPT_KEY_STATUS_INCOMPLETELY_REMOVED:
		printf("incompletely-removed\n");
		break;
	default:
		printf("status %u\n", a.status);
		break;
	}
	return 0;
}

static int cmd_remove_key(const char *mnt, const char *id)
{
	struct fscrypt_remove_key_arg a;
	unsigned char raw[ID_BYTES];
	int fd, rc;

	if (parse_id(id, raw))
		return 1;
	memset(&a, 0, sizeof(a));
	set_spec(&a.key_spec, raw);
	fd = open_path(mnt);
	if (fd < 0)
		return fail("open", mnt);
	rc = ioctl(fd, FS_IOC_REMOVE_ENCRYPTION_KEY, &a);
	close(fd);
	if (rc)
		return fail("FS_IOC_REMOVE_ENCRYPTION_KEY", mnt);
	printf("removed, status flags 0x%x%s%s\n", a.removal_status_flags,
	       a.removal_status_flags &
	       FSCRYPT_KEY_REMOVAL_STATUS_FLAG_FILES_BUSY ? " files-busy" : "",
	       a.removal_status_flags &
	       FSCRYPT_KEY_REMOVAL_STATUS_FLAG_OTHER_USERS ? " other-users" : "");
	return 0;
}

/* The whole of @path into a buffer (O_DIRECT if it opens so). */
static unsigned char *read_file(const char *path, size_t *len)
{
	unsigned char *buf = NULL, *nbuf;
	size_t size = 0, cap = 0;
	ssize_t n;
	void *mem;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_DIRECT);
	if (fd < 0 && errno == EINVAL)
		fd = open_path(path);
	if (fd < 0) {
		fail("open", path);
		return NULL;
	}
	for (;;) {
		if (cap - size < CHUNK) {
			if (posix_memalign(&mem, DIO_ALIGN, cap + CHUNK)) {
				fprintf(stderr, "fscrypt-check: out of memory\n");
				goto out_err;
			}
			nbuf = mem;
			if (buf)
				memcpy(nbuf, buf, size);
			free(buf);
			buf = nbuf;
			cap += CHUNK;
		}
		n = read(fd, buf + size, CHUNK);
		if (n < 0) {
			fail("read", path);
			goto out_err;
		}
		if (!n)
			break;
		size += n;
	}
	close(fd);
	*len = size;
	return buf;
out_err:
	close(fd);
	free(buf);
	return NULL;
}

static int cmd_find(const char *path, const char *patfile, const char *align)
{
	unsigned char *hay, *pat, *p;
	size_t hlen, plen, off, step = 1;

	if (align)
		step = strtoul(align, NULL, 0);
	if (!step)
		return die_usage();
	pat = read_file(patfile, &plen);
	if (!pat)
		return 1;
	hay = read_file(path, &hlen);
	if (!hay || !plen) {
		free(pat);
		free(hay);
		if (!plen)
			fprintf(stderr, "fscrypt-check: empty pattern\n");
		return 1;
	}
	for (off = 0; off + plen <= hlen; off = p - hay + 1) {
		p = memmem(hay + off, hlen - off, pat, plen);
		if (!p)
			break;
		if ((size_t)(p - hay) % step == 0)
			printf("%zu\n", (size_t)(p - hay));
	}
	free(pat);
	free(hay);
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 4 && !strcmp(argv[1], "add-key"))
		return cmd_add_key(argv[2], argv[3]);
	if ((argc == 4 || argc == 5) && !strcmp(argv[1], "set-policy"))
		return cmd_set_policy(argv[2], argv[3],
				      argc == 5 && !strcmp(argv[4], "direct"));
	if (argc == 3 && !strcmp(argv[1], "get-policy"))
		return cmd_get_policy(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "key-status"))
		return cmd_key_status(argv[2], argv[3]);
	if (argc == 4 && !strcmp(argv[1], "remove-key"))
		return cmd_remove_key(argv[2], argv[3]);
	if ((argc == 4 || argc == 5) && !strcmp(argv[1], "find"))
		return cmd_find(argv[2], argv[3], argc == 5 ? argv[4] : NULL);
	return die_usage();
}
