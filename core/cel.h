/*
 * cel.h - the Common Expression Language as DRA device selectors use it
 * (resource.k8s.io/v1 DeviceSelector.cel.expression): the part of kube's
 * device environment (k8s.io/dynamic-resource-allocation/cel, over the
 * Kubernetes base CEL environment) that kso evaluates exactly, with
 * cel-go's semantics.
 *
 * The subset: int, uint, double, bool and string literals (every string
 * form but bytes), list literals, `device.driver`, `device.attributes[DOMAIN].ID` (also
 * `device.attributes["DOMAIN"]["ID"]`), `device.capacity[DOMAIN].ID`,
 * field and index access, has(), == != < <= > >= (numbers also across
 * their kinds), in, + - * / on int, uint and double, % on int and uint, +
 * on strings, && || ! ?:, cel.bind (its init evaluated once, on the
 * body's first read of the variable), the macros all, exists, exists_one, filter
 * and map over list literals, maps and split() (cel-go's folds; over a
 * map, Go's random key order is unjudged where it shows), size, contains, startsWith, endsWith,
 * lowerAscii, upperAscii, quantity() / isQuantity() with sign() (global,
 * as kube declares it), isInteger, asInteger, add, sub, isGreaterThan,
 * isLessThan, compareTo, and semver() / isSemver() (also with the
 * normalize argument) with major, minor, patch, isGreaterThan, isLessThan,
 * compareTo, matches() with a literal pattern in the RE2 subset of
 * core/cel_regex.c, and cel-go's string extensions charAt, indexOf,
 * lastIndexOf, replace, split, substring, trim and join
 * (core/cel_strings.c), and int(), string(), bool() and dyn() of those
 * kinds and uint() and double() (core/cel_convert.c).  Anything else kube
 * would accept (bytes, null, map literals, the two-variable macros, a pattern
 * computed at run time, format, quote, the lists library but indexOf and
 * lastIndexOf, the IP and URL functions) is
 * refused by cel_compile naming the construct and its position: kso
 * never guesses what it does not model.
 *
 * cel_eval gives kube's DeviceMatches result: true, false, or a runtime
 * error with cel-go's message (which kube reports; never a false match),
 * or, for the few values kso's exact arithmetic cannot hold (a quantity
 * past int64 units), CEL_UNJUDGED.
 */
#ifndef KSO_CEL_H
#define KSO_CEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "objects.h"

/* resourceapi.CELSelectorExpressionMaxCost and ...MaxLength. */
#define CEL_MAX_COST 1000000
#define CEL_MAX_LENGTH (10 * 1024)

/* A quantity parser: resource.ParseQuantity of a non-negative value into
 * *out, or -1 with *why set to its error text (yaml_parse_quantity; core
 * cannot include yaml/, so the caller passes it).  A why of "value does not
 * fit in 64 bits" is kso's limit, not kube's error. */
typedef int (*cel_quantity_parser)(const char *s, struct quantity *out,
				   const char **why);

/* Where and why cel_compile refused an expression: line and column
 * (1-based, in code points) inside the expression text. */
struct cel_error {
	int line, col;
	char msg[256];
};

struct cel_program;

/* cel_compile: parses and type-checks expr as kube's device environment
 * does; the program lives in a.  0, or -1 with err set. */
int cel_compile(struct arena *a, const char *expr, cel_quantity_parser qp,
		const struct cel_program **out, struct cel_error *err);

/* A device attribute (resourceapi.DeviceAttribute), by its qualified
 * name ("ID" in the driver's domain, or "DOMAIN/ID"). */
enum cel_attr_kind {
	CEL_ATTR_INT,
	CEL_ATTR_BOOL,
	CEL_ATTR_STRING,
	CEL_ATTR_VERSION
};

struct cel_attr {
	const char *name;
	enum cel_attr_kind kind;
	int64_t i;           /* intValue */
	bool b;              /* boolValue */
	const char *s;       /* stringValue, versionValue */
};

struct cel_capacity {
	const char *name;    /* qualified name, as attributes */
	struct quantity value;
};

/* The device a selector is evaluated on (cel.Device). */
struct cel_device {
	const char *driver;
	const struct cel_attr *attrs;
	int n_attrs;
	const struct cel_capacity *caps;
	int n_caps;
};

/* cel_valid_semver: s is a semantic version as blang/semver parses it
 * (and as validateDeviceAttribute's semver.org 2.0.0 grammar accepts). */
bool cel_valid_semver(const char *s);

enum cel_result {
	CEL_FALSE,
	CEL_TRUE,
	CEL_ERROR,      /* kube's runtime error: msg holds its text */
	CEL_UNJUDGED    /* beyond kso's exact arithmetic: msg says what */
};

/* cel_eval: the program on device d; *msg is the whole error text (in
 * arena out) for CEL_ERROR / CEL_UNJUDGED, else NULL. */
enum cel_result cel_eval(const struct cel_program *p, const struct cel_device *d,
			 struct arena *out, const char **msg);

#endif
