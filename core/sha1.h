/*
 * sha1.h - SHA-1 (FIPS 180-4), for the one place kube hashes a name the
 * scheduler reads: a CSI driver's attach-limit key (csi_translation.h).
 */
#ifndef KSO_SHA1_H
#define KSO_SHA1_H

#include <stddef.h>
#include <stdint.h>

/* sha1: the digest of data[0..n) into out. */
void sha1(const void *data, size_t n, uint8_t out[20]);

#endif
