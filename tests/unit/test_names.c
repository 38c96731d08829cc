/*
 * test_names.c - truth tables for Kubernetes name validation
 * (apimachinery pkg/util/validation: IsQualifiedName, IsValidLabelValue,
 * IsDNS1123Subdomain, IsDNS1123Label).
 */
#include <stdbool.h>

#include "check.h"
#include "../../yaml/names.h"

/* A string of n copies of c, for length limits. */
static const char *rep(char *buf, char c, int n)
{
	memset(buf, c, (size_t)n);
	buf[n] = '\0';
	return buf;
}

struct row {
	const char *s;
	bool ok;
};

static void run(bool (*fn)(const char *, const char **), const char *what,
		const struct row *rows, int n)
{
	for (int i = 0; i < n; i++) {
		const char *why = NULL;
		bool got = fn(rows[i].s, &why);
		CHECK_EQ(got, rows[i].ok);
		if (got != rows[i].ok)
			fprintf(stderr, "  %s('%s') (%s)\n", what, rows[i].s,
				why ? why : "valid");
		/* a failure always says why; success leaves why alone */
		CHECK(got ? why == NULL : why != NULL);
	}
}

static void test_label_keys(void)
{
	static const struct row rows[] = {
		{"app", true},
		{"App_1.x-y", true},
		{"a", true},
		{"9", true},
		{"example.com/app", true},
		{"kubernetes.io/hostname", true},
		{"topology.kubernetes.io/zone", true},
		{"node-role.kubernetes.io/control-plane", true},
		{"a..b", true},           /* '.' anywhere inside a name part */
		{"", false},              /* name part must be non-empty */
		{"a/b/c", false},         /* at most one '/' */
		{"/app", false},          /* empty prefix */
		{"example.com/", false},  /* empty name */
		{"-a", false},
		{"a-", false},
		{"_a", false},
		{"a.", false},
		{"app!", false},
		{"a b", false},
		{"\xc3\xa4", false},      /* non-ASCII */
		{"Example.com/app", false},  /* prefix is lower-case DNS */
		{"example..com/app", false},
		{"-example.com/app", false},
		{"example_com/app", false},
	};
	run(yaml_valid_label_key, "label_key", rows,
	    (int)(sizeof rows / sizeof rows[0]));

	char buf[300], key[600];
	CHECK(yaml_valid_label_key(rep(buf, 'a', 63), NULL));
	const char *why = NULL;
	CHECK(!yaml_valid_label_key(rep(buf, 'a', 64), &why));
	CHECK_STR(why, "name part must be no more than 63 characters");
	/* prefix 253 = 63 + '.' + 63 + '.' + 63 + '.' + 61 */
	snprintf(key, sizeof key, "%.63s.%.63s.%.63s.%.61s/x", rep(buf, 'p', 63),
		 buf, buf, buf);
	CHECK_EQ(strlen(key), 255);
	CHECK(yaml_valid_label_key(key, NULL));
	snprintf(key, sizeof key, "%.63s.%.63s.%.63s.%.62s/x", buf, buf, buf,
		 buf);
	CHECK(!yaml_valid_label_key(key, &why));
	CHECK_STR(why, "prefix part must be no more than 253 characters");
	CHECK(!yaml_valid_label_key("", &why));
	CHECK_STR(why, "name part must be non-empty");
	CHECK(!yaml_valid_label_key("/a", &why));
	CHECK_STR(why, "prefix part must be non-empty");
}

static void test_label_values(void)
{
	static const struct row rows[] = {
		{"", true},               /* empty value is valid */
		{"web", true},
		{"v1.2_3-x", true},
		{"Web", true},
		{"0", true},
		{"-a", false},
		{"a-", false},
		{"a b", false},
		{"a/b", false},
		{"a:b", false},
		{".a", false},
	};
	run(yaml_valid_label_value, "label_value", rows,
	    (int)(sizeof rows / sizeof rows[0]));
	char buf[80];
	CHECK(yaml_valid_label_value(rep(buf, 'v', 63), NULL));
	const char *why = NULL;
	CHECK(!yaml_valid_label_value(rep(buf, 'v', 64), &why));
	CHECK_STR(why, "must be no more than 63 characters");
}

static void test_dns_subdomain(void)
{
	static const struct row rows[] = {
		{"node1", true},
		{"a", true},
		{"1", true},
		{"a.b-c.d", true},
		{"ip-10-0-0-1.ec2.internal", true},
		{"Node1", false},         /* upper case */
		{"", false},
		{"a..b", false},
		{".a", false},
		{"a.", false},
		{"-a", false},
		{"a-", false},
		{"a-.b", false},
		{"a_b", false},
		{"a/b", false},
	};
	run(yaml_valid_dns_subdomain, "dns_subdomain", rows,
	    (int)(sizeof rows / sizeof rows[0]));
	char buf[300], name[300];
	snprintf(name, sizeof name, "%.63s.%.63s.%.63s.%.61s", rep(buf, 'n', 63),
		 buf, buf, buf);
	CHECK_EQ(strlen(name), 253);
	CHECK(yaml_valid_dns_subdomain(name, NULL));
	snprintf(name, sizeof name, "%.63s.%.63s.%.63s.%.62s", buf, buf, buf,
		 buf);
	const char *why = NULL;
	CHECK(!yaml_valid_dns_subdomain(name, &why));
	CHECK_STR(why, "must be no more than 253 characters");
	/* a single label of 64 is fine in a subdomain (only the total counts) */
	CHECK(yaml_valid_dns_subdomain(rep(buf, 'n', 64), NULL));
}

static void test_dns_label(void)
{
	static const struct row rows[] = {
		{"abc", true},
		{"1abc", true},
		{"a-b", true},
		{"a.b", false},
		{"", false},
		{"A", false},
		{"-a", false},
		{"a-", false},
	};
	run(yaml_valid_dns_label, "dns_label", rows,
	    (int)(sizeof rows / sizeof rows[0]));
	char buf[80];
	CHECK(yaml_valid_dns_label(rep(buf, 'l', 63), NULL));
	CHECK(!yaml_valid_dns_label(rep(buf, 'l', 64), NULL));
}

int main(void)
{
	test_label_keys();
	test_label_values();
	test_dns_subdomain();
	test_dns_label();
	return check_done("test_names");
}
