/*
 * names.c - Kubernetes name validation, as apimachinery's
 * pkg/util/validation does it (IsQualifiedName, IsValidLabelValue,
 * IsDNS1123Subdomain, IsDNS1123Label).  Lengths are in bytes and the
 * alphabets are ASCII, so any non-ASCII byte is simply not allowed.
 * When several rules fail, the first one apimachinery checks is reported.
 */
#include "names.h"

#include <assert.h>
#include <stddef.h>
#include <string.h>

#define QNAME_MAX 63
#define LABEL_VALUE_MAX 63
#define DNS_LABEL_MAX 63
#define DNS_SUBDOMAIN_MAX 253

#define QNAME_MSG "must consist of alphanumeric characters, '-', '_' or " \
	"'.', and must start and end with an alphanumeric character"
#define DNS_SUBDOMAIN_MSG "a lowercase RFC 1123 subdomain must consist of " \
	"lower case alphanumeric characters, '-' or '.', and must start and " \
	"end with an alphanumeric character"
#define DNS_LABEL_MSG "a lowercase RFC 1123 label must consist of lower " \
	"case alphanumeric characters or '-', and must start and end with an " \
	"alphanumeric character"

static bool fail(const char **why, const char *msg)
{
	if (why)
		*why = msg;
	return false;
}

static bool is_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

static bool is_lower_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

/* qualifiedName = ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9], on s[0..n). */
static bool match_qualified(const char *s, size_t n)
{
	if (n == 0 || !is_alnum(s[0]) || !is_alnum(s[n - 1]))
		return false;
	for (size_t i = 1; i + 1 < n; i++)
		if (!is_alnum(s[i]) && s[i] != '-' && s[i] != '_' &&
		    s[i] != '.')
			return false;
	return true;
}

/* dns1123Label = [a-z0-9]([-a-z0-9]*[a-z0-9])?, on s[0..n). */
static bool match_dns_label(const char *s, size_t n)
{
	if (n == 0 || !is_lower_alnum(s[0]) || !is_lower_alnum(s[n - 1]))
		return false;
	for (size_t i = 1; i + 1 < n; i++)
		if (!is_lower_alnum(s[i]) && s[i] != '-')
			return false;
	return true;
}

/* dns1123Subdomain = dns1123Label(\.dns1123Label)*, on s[0..n). */
static bool match_dns_subdomain(const char *s, size_t n)
{
	size_t start = 0;
	for (size_t i = 0; i <= n; i++) {
		if (i < n && s[i] != '.')
			continue;
		if (!match_dns_label(s + start, i - start))
			return false;
		start = i + 1;
	}
	return true;
}

/* IsQualifiedName: split on '/'; one part is the name, two parts are
 * prefix/name with a non-empty DNS-1123 subdomain prefix, more is an error;
 * the name is non-empty, at most 63 bytes and matches qualifiedName. */
bool yaml_valid_label_key(const char *s, const char **why)
{
	assert(s);
	const char *slash = strchr(s, '/');
	const char *name = s;
	if (slash) {
		if (strchr(slash + 1, '/'))
			return fail(why, "a qualified name " QNAME_MSG
				    " with an optional DNS subdomain prefix "
				    "and '/' (e.g. 'example.com/MyName')");
		size_t plen = (size_t)(slash - s);
		if (plen == 0)
			return fail(why, "prefix part must be non-empty");
		if (plen > DNS_SUBDOMAIN_MAX)
			return fail(why, "prefix part must be no more than 253 "
				    "characters");
		if (!match_dns_subdomain(s, plen))
			return fail(why, "prefix part " DNS_SUBDOMAIN_MSG);
		name = slash + 1;
	}
	size_t n = strlen(name);
	if (n == 0)
		return fail(why, "name part must be non-empty");
	if (n > QNAME_MAX)
		return fail(why, "name part must be no more than 63 characters");
	if (!match_qualified(name, n))
		return fail(why, "name part " QNAME_MSG);
	return true;
}

/* IsValidLabelValue: at most 63 bytes, and empty or a qualifiedName. */
bool yaml_valid_label_value(const char *s, const char **why)
{
	assert(s);
	size_t n = strlen(s);
	if (n > LABEL_VALUE_MAX)
		return fail(why, "must be no more than 63 characters");
	if (n > 0 && !match_qualified(s, n))
		return fail(why, "a valid label must be an empty string or "
			    QNAME_MSG);
	return true;
}

/* IsDNS1123Subdomain: at most 253 bytes matching dns1123Subdomain. */
bool yaml_valid_dns_subdomain(const char *s, const char **why)
{
	assert(s);
	size_t n = strlen(s);
	if (n > DNS_SUBDOMAIN_MAX)
		return fail(why, "must be no more than 253 characters");
	if (!match_dns_subdomain(s, n))
		return fail(why, DNS_SUBDOMAIN_MSG);
	return true;
}

/* IsDNS1123Label: at most 63 bytes matching dns1123Label. */
bool yaml_valid_dns_label(const char *s, const char **why)
{
	assert(s);
	size_t n = strlen(s);
	if (n > DNS_LABEL_MAX)
		return fail(why, "must be no more than 63 characters");
	if (!match_dns_label(s, n))
		return fail(why, DNS_LABEL_MSG);
	return true;
}
