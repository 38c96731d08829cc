/*
 * test_csi_translation.c - the data conversions of core/csi_translation.c
 * and core/sha1.c.
 *
 * SHA-1: the FIPS 180-4 examples ("abc", the 56-byte two-block message)
 * and the empty string.  GetCSIAttachLimitKey: a driver name under 40
 * characters is appended as is; from 40 on the key is the prefix, the
 * name's first 23 characters and the first 16 hex digits of its SHA-1,
 * worked out with Python's hashlib (sha1(name).hexdigest()[:16]).
 *
 * csi_translate_pv_affinity, against csi-translation-lib's
 * translateTopologyFromInTreeToCSI worked by hand: the zone key kept in
 * the node affinity (getTopologyLabel: GA in the affinity, beta in it,
 * GA label, beta label, else GA) is renamed to the driver's key when the
 * affinity has values under it; otherwise the PV's zone label, split at
 * "__", trimmed, without empties, deduplicated and sorted, becomes an In
 * requirement appended to every term (one term made when there is none);
 * with the beta zone key, a beta region requirement becomes the GA one.
 */
#include <string.h>

#include "check.h"
#include "../../core/csi_translation.h"
#include "../../core/sha1.h"
#include "../../core/arena.h"

static void hex(const char *msg, const char *want)
{
	uint8_t d[20];
	sha1(msg, strlen(msg), d);
	char got[41];
	for (int i = 0; i < 20; i++)
		snprintf(got + 2 * i, 3, "%02x", d[i]);
	CHECK_STR(got, want);
}

#define GKE "topology.gke.io/zone"
#define GA_ZONE "topology.kubernetes.io/zone"
#define BETA_ZONE "failure-domain.beta.kubernetes.io/zone"

/* A GCE PD PV with the given labels and one affinity term. */
static struct pv gce_pv(const struct label *labels, int n_labels,
			const struct requirement *exprs, int n_exprs,
			struct node_selector_term *term)
{
	struct pv v;
	memset(&v, 0, sizeof v);
	v.name = "pv";
	v.labels = (struct labels){labels, n_labels};
	v.has_intree = true;
	v.intree = DISK_GCE_PD;
	v.intree_id = "pd";
	v.intree_uri = "";
	if (n_exprs >= 0) {
		*term = (struct node_selector_term){.exprs = exprs, .n_exprs = n_exprs};
		v.node_affinity = (struct node_selector){true, term, 1};
	}
	return v;
}

/* "key op v1,v2" of requirement r. */
static void req_text(const struct requirement *r, char *out, size_t len)
{
	int w = snprintf(out, len, "%s %s", r->key, r->op == OP_IN ? "In" : "?");
	for (int i = 0; i < r->n_values && w > 0 && (size_t)w < len; i++)
		w += snprintf(out + w, len - (size_t)w, "%s%s", i ? "," : " ",
			      r->values[i]);
}

static void affinity_cases(void)
{
	struct arena a;
	arena_init(&a);
	struct node_selector out;
	struct node_selector_term term;
	char text[256];
	const char *const zone_a[] = {"us-central1-a"};
	const char *const region[] = {"us-central1"};

	/* the GA zone requirement is renamed, the others kept */
	struct requirement ga[] = {
		{.key = "disk", .op = OP_IN, .values = zone_a, .n_values = 1},
		{.key = GA_ZONE, .op = OP_IN, .values = zone_a, .n_values = 1},
	};
	struct pv v = gce_pv(NULL, 0, ga, 2, &term);
	CHECK(csi_translate_pv_affinity(&v, &a, &out) == NULL);
	CHECK(out.present && out.n_terms == 1 && out.terms[0].n_exprs == 2);
	CHECK_STR(out.terms[0].exprs[0].key, "disk");
	req_text(&out.terms[0].exprs[1], text, sizeof text);
	CHECK_STR(text, GKE " In us-central1-a");
	CHECK_STR(v.node_affinity.terms[0].exprs[1].key, GA_ZONE);   /* untouched */

	/* no affinity: the beta label's zones, trimmed, deduplicated,
	 * sorted, in one new term (an EBS volume: a GCE PD's handle would
	 * refuse zones that are not {locale}-{region}-{zone}) */
	const struct label beta[] = {{BETA_ZONE, " b __a__ b__"}};
	v = gce_pv(beta, 1, NULL, -1, &term);
	v.intree = DISK_AWS_EBS;
	v.intree_id = "vol-1";
	CHECK(csi_translate_pv_affinity(&v, &a, &out) == NULL);
	CHECK(out.present && out.n_terms == 1 && out.terms[0].n_exprs == 1);
	req_text(&out.terms[0].exprs[0], text, sizeof text);
	CHECK_STR(text, "topology.ebs.csi.aws.com/zone In a,b");

	/* an affinity without the zone key: the GA label appended to it */
	const struct label ga_label[] = {{GA_ZONE, "us-central1-a"}};
	struct requirement host[] = {
		{.key = "kubernetes.io/hostname", .op = OP_IN, .values = zone_a,
		 .n_values = 1},
	};
	v = gce_pv(ga_label, 1, host, 1, &term);
	CHECK(csi_translate_pv_affinity(&v, &a, &out) == NULL);
	CHECK(out.n_terms == 1 && out.terms[0].n_exprs == 2);
	req_text(&out.terms[0].exprs[1], text, sizeof text);
	CHECK_STR(text, GKE " In us-central1-a");

	/* beta zone and region requirements: zone to the driver's key,
	 * region to the GA key */
	struct requirement betas[] = {
		{.key = BETA_ZONE, .op = OP_IN, .values = zone_a, .n_values = 1},
		{.key = "failure-domain.beta.kubernetes.io/region", .op = OP_IN,
		 .values = region, .n_values = 1},
	};
	v = gce_pv(NULL, 0, betas, 2, &term);
	CHECK(csi_translate_pv_affinity(&v, &a, &out) == NULL);
	CHECK_STR(out.terms[0].exprs[0].key, GKE);
	CHECK_STR(out.terms[0].exprs[1].key, "topology.kubernetes.io/region");

	/* nothing to translate: the affinity as it is (absent) */
	v = gce_pv(NULL, 0, NULL, -1, &term);
	CHECK(csi_translate_pv_affinity(&v, &a, &out) == NULL);
	CHECK(!out.present);

	/* an empty zone label: addTopology's error is not returned, the
	 * affinity stays as it is */
	const struct label empty[] = {{GA_ZONE, ""}};
	v = gce_pv(empty, 1, NULL, -1, &term);
	CHECK(csi_translate_pv_affinity(&v, &a, &out) == NULL);
	CHECK(!out.present);

	/* both zone labels, different: gce_pd.go's error */
	const struct label both[] = {{BETA_ZONE, "a"}, {GA_ZONE, "b"}};
	v = gce_pv(both, 2, NULL, -1, &term);
	const char *e = csi_translate_pv_affinity(&v, &a, &out);
	CHECK(e != NULL);
	CHECK_STR(e ? e : "", "could not translate pv: topology labels from two "
		  "Kubernetes versions are different: a and b");
	arena_release(&a);
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
	affinity_cases();
	return check_done("test_csi_translation");
}
