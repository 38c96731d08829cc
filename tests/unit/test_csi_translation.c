/*
 * test_csi_translation.c - the data conversions of core/csi_translation.c
 * and core/sha1.c.
 *
 * SHA-1: the FIPS 180-4 examples ("abc", the 56-byte two-block message)
 * and the empty string.  GetCSIAttachLimitKey: a driver name under 40
 * characters is appended as is; from 40 on the key is the prefix, the
 * name's first 23 characters and the first 16 hex digits of its SHA-1,
 * worked out with Python's hashlib (sha1(name).hexdigest()[:16]).
 */
#include <string.h>

#include "check.h"
#include "../../core/csi_translation.h"
#include "../../core/sha1.h"

static void hex(const char *msg, const char *want)
{
	uint8_t d[20];
	sha1(msg, strlen(msg), d);
	char got[41];
	for (int i = 0; i < 20; i++)
		snprintf(got + 2 * i, 3, "%02x", d[i]);
	CHECK_STR(got, want);
}

int main(void)
{
	hex("abc", "a9993e364706816aba3e25717850c26c9cd0d89d");
	hex("", "da39a3ee5e6b4b0d3255bfef95601890afd80709");
	hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
	    "84983e441c3bd26ebaae4aa1f95129e5e54670f1");

	char key[128];
	CHECK_STR(csi_attach_limit_key("ebs.csi.aws.com", key, sizeof key),
		  "attachable-volumes-csi-ebs.csi.aws.com");
	/* 39 characters: 23 + 39 = 62 < 63, not hashed */
	const char *d39 = "a23456789012345678901234567890123456789";
	CHECK_EQ((int)strlen(d39), 39);
	CHECK_STR(csi_attach_limit_key(d39, key, sizeof key),
		  "attachable-volumes-csi-a23456789012345678901234567890123456789");
	CHECK_STR(csi_attach_limit_key("example.very-long-csi-driver-name.storage.io",
				       key, sizeof key),
		  "attachable-volumes-csi-example.very-long-csi-d02331e6eb7560870");
	return check_done("test_csi_translation");
}
