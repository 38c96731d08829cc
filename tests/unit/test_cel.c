/*
 * test_cel.c - the CEL subset of DRA device selectors (core/cel.h).
 * Every expected value is worked out by hand from the CEL language
 * definition (operators, heterogeneous equality, error absorption by && and
 * ||), cel-go's error texts and kube's device environment (a missing
 * attribute domain is an empty map; an unqualified attribute name is in the
 * driver's domain).
 */
#include <string.h>

#include "check.h"
#include "../../core/cel.h"
#include "../../yaml/quantity.h"

/* The device every case reads: driver gpu.example.com with model "a100",
 * cores 40, dra.example.com/flag true, version 1.2.3-rc.1, and capacity
 * memory 40Gi and huge 1Ei. */
static const struct cel_attr ATTRS[] = {
	{"model", CEL_ATTR_STRING, 0, false, "a100"},
	{"cores", CEL_ATTR_INT, 40, false, NULL},
	{"dra.example.com/flag", CEL_ATTR_BOOL, 0, true, NULL},
	{"version", CEL_ATTR_VERSION, 0, false, "1.2.3-rc.1"},
};
static const struct cel_capacity CAPS[] = {
	/* "40Gi": ParseQuantity's int64Amount {42949672960, 0} */
	{"memory", {42949672960LL, 0, QUANTITY_FORM_SCALE_BIAS}},
	/* "1Ei": past the binary fast path's precision, an inf.Dec */
	{"huge", {1152921504606846976LL, 0, QUANTITY_FORM_DEC}},
};
static const struct cel_device DEV = {"gpu.example.com", ATTRS, 4, CAPS, 2};

#define GPU "device.attributes[\"gpu.example.com\"]"

static void expect(const char *expr, enum cel_result want, const char *msg)
{
	struct arena a;
	arena_init(&a);
	const struct cel_program *p;
	struct cel_error err;
	int rc = cel_compile(&a, expr, yaml_parse_quantity, &p, &err);
	CHECK_EQ(rc, 0);
	if (rc) {
		fprintf(stderr, "  compiling '%s': %d:%d: %s\n", expr, err.line, err.col, err.msg);
		arena_release(&a);
		return;
	}
	const char *got;
	enum cel_result r = cel_eval(p, &DEV, &a, &got);
	if (!got)
		got = "";
	CHECK_EQ(r, want);
	if (msg)
		CHECK_STR(got, msg);
	if (r != want || (msg && strcmp(got, msg)))
		fprintf(stderr, "  for '%s' (got %d: %s)\n", expr, r, got);
	arena_release(&a);
}

static void refuse(const char *expr, int col, const char *msg)
{
	struct arena a;
	arena_init(&a);
	const struct cel_program *p;
	struct cel_error err;
	CHECK_EQ(cel_compile(&a, expr, yaml_parse_quantity, &p, &err), -1);
	CHECK_EQ(err.col, col);
	CHECK_STR(err.msg, msg);
	if (strcmp(err.msg, msg) || err.col != col)
		fprintf(stderr, "  for '%s' (got %d: %s)\n", expr, err.col, err.msg);
	arena_release(&a);
}

static void test_literals_and_operators(void)
{
	expect("true", CEL_TRUE, NULL);
	expect("1 + 2 * 3 == 7", CEL_TRUE, NULL);
	expect("7 / 2 == 3 && 7 % 2 == 1 && -7 / 2 == -3 && -7 % 2 == -1", CEL_TRUE, NULL);
	expect("'a' + \"b\" == r'ab'", CEL_TRUE, NULL);
	expect("'\\x41\\u00e9\\101' == 'A\xc3\xa9" "A'", CEL_TRUE, NULL);
	expect("\"\"\"x\"y\"\"\" == 'x\"y'", CEL_TRUE, NULL);
	expect("'abc' < 'abd' && 'b' > 'abc' && false < true", CEL_TRUE, NULL);
	expect("1 in [1, 2] && !('c' in ['a', 'b'])", CEL_TRUE, NULL);
	expect("[1, 2] == [1, 2] && [1] != [1, 2]", CEL_TRUE, NULL);
	expect(GPU ".cores", CEL_ERROR, "CEL result of type int could not be converted "
	       "to bool: unsupported type conversion from 'int' to bool");
	/* a dyn result of another type: its ConvertToNative(bool) error
	 * (apiserver's Semver and Quantity, cel-go's list) */
	expect(GPU ".version", CEL_ERROR, "CEL result of type kubernetes.Semver could not be "
	       "converted to bool: type conversion error from 'Semver' to 'bool'");
	expect("true ? device.capacity['gpu.example.com'].memory : " GPU ".cores", CEL_ERROR,
	       "CEL result of type kubernetes.Quantity could not be converted to bool: type "
	       "conversion error from 'Quantity' to 'bool'");
	expect("true ? [1] : " GPU ".cores", CEL_ERROR, "CEL result of type list could not be "
	       "converted to bool: type conversion error from list to 'bool'");
	expect("-9223372036854775808 < 0", CEL_TRUE, NULL);
	expect("0x10 == 16", CEL_TRUE, NULL);
	expect("9223372036854775807 + 1 == 0", CEL_ERROR, "integer overflow");
	expect("-(-9223372036854775808) == 0", CEL_ERROR, "integer overflow");
	expect("1 / 0 == 0", CEL_ERROR, "division by zero");
	expect("1 % 0 == 0", CEL_ERROR, "modulus by zero");
	expect("[1, 2][2] == 1", CEL_ERROR, "index out of bounds: 2");
	expect("size('h\xc3\xa9llo') == 5 && 'abc'.size() == 3 && size([1]) == 1", CEL_TRUE, NULL);
	expect("'Hello'.lowerAscii() == 'hello' && 'Hello'.upperAscii() == 'HELLO'", CEL_TRUE, NULL);
	expect("'hello'.startsWith('he') && 'hello'.endsWith('lo') && 'hello'.contains('ll')",
	       CEL_TRUE, NULL);
}

static void test_device(void)
{
	expect("device.driver == 'gpu.example.com'", CEL_TRUE, NULL);
	expect(GPU ".model == 'a100'", CEL_TRUE, NULL);
	expect(GPU "[\"cores\"] >= 32", CEL_TRUE, NULL);
	expect("device.attributes['dra.example.com'].flag", CEL_TRUE, NULL);
	/* an unknown domain is an empty map: has() false... */
	expect("has(device.attributes['x.example.com'].model)", CEL_FALSE, NULL);
	/* ...has() of the domain itself true, `in` false (real keys) */
	expect("has(device.attributes.nodomain)", CEL_TRUE, NULL);
	expect("'nodomain' in device.attributes", CEL_FALSE, NULL);
	expect("'gpu.example.com' in device.attributes", CEL_TRUE, NULL);
	/* a missing attribute is a runtime error, not a non-match */
	expect(GPU ".memory > 1", CEL_ERROR, "no such key: memory");
	expect("device.attributes['x.example.com'].model == 'a'", CEL_ERROR,
	       "no such key: model");
	/* heterogeneous equality: a string attribute equals no int */
	expect(GPU ".model == 1", CEL_FALSE, NULL);
	expect(GPU ".model != 1", CEL_TRUE, NULL);
	/* ordering across types is an error */
	expect(GPU ".model < 1", CEL_ERROR, "no such overload");
	expect(GPU ".cores.startsWith('4')", CEL_ERROR, "no such overload");
	expect(GPU ".cores.lowerAscii() == 'x'", CEL_ERROR,
	       "no such overload: lowerAscii(int)");
	/* && and || absorb errors when another term decides */
	expect(GPU ".memory > 1 && false", CEL_FALSE, NULL);
	expect("false && " GPU ".memory > 1", CEL_FALSE, NULL);
	expect(GPU ".memory > 1 || true", CEL_TRUE, NULL);
	expect(GPU ".memory > 1 && true", CEL_ERROR, "no such key: memory");
	expect(GPU ".memory > 1 || " GPU ".speed > 1", CEL_ERROR, "no such key: memory");
	expect(GPU ".cores || true", CEL_TRUE, NULL);
	expect(GPU ".cores || false", CEL_ERROR, "no such overload");
	/* the conditional is strict in its condition only */
	expect("true ? true : " GPU ".memory > 1", CEL_TRUE, NULL);
	expect(GPU ".memory > 1 ? true : true", CEL_ERROR, "no such key: memory");
}

static void test_quantity_and_semver(void)
{
	expect("device.capacity['gpu.example.com'].memory.isGreaterThan(quantity('32Gi'))",
	       CEL_TRUE, NULL);
	expect("device.capacity['gpu.example.com'].memory.compareTo(quantity('40Gi')) == 0",
	       CEL_TRUE, NULL);
	expect("device.capacity['gpu.example.com'].memory == quantity('40Gi')", CEL_TRUE, NULL);
	expect("quantity('1.5').isInteger() || quantity('-2').asInteger() == -2", CEL_TRUE, NULL);
	/* sign is declared global (cel.Overload quantity_sign) */
	expect("sign(quantity('1').sub(quantity('3'))) == -1 && sign(quantity('0')) == 0",
	       CEL_TRUE, NULL);
	expect("quantity('500m').add(quantity('500m')) == quantity('1')", CEL_TRUE, NULL);
	expect("quantity('1').add(2).isLessThan(quantity('3001m'))", CEL_TRUE, NULL);
	expect("quantity('1.5').asInteger() == 1", CEL_ERROR, "cannot convert value to integer");
	/* isInteger / asInteger are Quantity.AsInt64, which reads the
	 * representation ParseQuantity chose: int64Amount {1000, -3} for
	 * "1000m" and {10, -1} for "1.0" have a negative scale, so no; "1k" is
	 * {1, 3}, 1000; "1Ti" the binary fast path {2^40, 0}; "1Ei" and
	 * "1024Ti" leave its precision (15 - digits - exponent*3/10 - 1 < 0)
	 * for an inf.Dec, never an integer; "0.0" is {0, -1} */
	expect("quantity('1000m').isInteger() || quantity('1.0').isInteger() || "
	       "quantity('1Ei').isInteger() || quantity('1024Ti').isInteger() || "
	       "quantity('0.0').isInteger()", CEL_FALSE, NULL);
	expect("quantity('1k').asInteger() == 1000 && quantity('1Ti').asInteger() == "
	       "1099511627776 && quantity('0').isInteger() && quantity('-2k').asInteger() == -2000",
	       CEL_TRUE, NULL);
	expect("quantity('1000m').asInteger() == 1", CEL_ERROR, "cannot convert value to integer");
	/* int64Amount.Add keeps the smaller scale: {15, -1} + {5, -1} is
	 * {20, -1}, value 2 yet no integer; {1, 3} + {1, 0} is {1001, 0} */
	expect("quantity('1.5').add(quantity('0.5')).isInteger()", CEL_FALSE, NULL);
	expect("quantity('1k').add(quantity('1')).asInteger() == 1001 && "
	       "quantity('1k').sub(1).asInteger() == 999", CEL_TRUE, NULL);
	expect("device.capacity['gpu.example.com'].memory.add(1).asInteger() == 42949672961",
	       CEL_TRUE, NULL);
	/* add on a capacity held as inf.Dec changes the informer's copy */
	expect("device.capacity['gpu.example.com'].huge.add(1) == quantity('1')", CEL_UNJUDGED,
	       NULL);
	expect("device.capacity['gpu.example.com'].huge.add(0) == "
	       "device.capacity['gpu.example.com'].huge", CEL_TRUE, NULL);
	expect("quantity('x') == quantity('1')", CEL_ERROR,
	       "quantities must match the regular expression "
	       "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
	expect("isQuantity('1Ki') && !isQuantity('1KB')", CEL_TRUE, NULL);
	/* ParseQuantity accepts any size once the suffix parses (an
	 * exponent within int64): isQuantity('1e1000') is true, an exponent
	 * past int64 is ErrSuffix */
	expect("isQuantity('1e1000') && !isQuantity('1e99999999999999999999') && "
	       "isQuantity('-') && isQuantity('.') && !isQuantity('1e')", CEL_TRUE, NULL);
	/* Quantity.Equal with another type is an error; != of it is true */
	expect(GPU ".cores == quantity('40')", CEL_FALSE, NULL);
	expect("quantity('40') == " GPU ".cores", CEL_ERROR, "no such overload");
	expect("quantity('40') != " GPU ".cores", CEL_TRUE, NULL);
	/* baseList.Equal stops only at an element Equal that is False: the
	 * quantity's error beside an int passes as equal (the other way
	 * round Int.Equal is plainly false); != negates Equal == True */
	expect("[quantity('40')] == [" GPU ".cores]", CEL_TRUE, NULL);
	expect("[[quantity('1')]] == [[" GPU ".cores]]", CEL_TRUE, NULL);
	expect("[" GPU ".cores] == [quantity('40')]", CEL_FALSE, NULL);
	expect("[" GPU ".version] != ['x']", CEL_FALSE, NULL);
	/* add() and sub() give a *Quantity, which apiserver's Quantity.Equal
	 * does not take as its argument ("no such overload"), though it may
	 * be the receiver: the list's first pair passes as equal, 5 == 5 */
	expect("[quantity('1'), quantity('5')] == [quantity('7').sub(1), quantity('5')]",
	       CEL_TRUE, NULL);
	expect("quantity('1') == quantity('2').sub(1)", CEL_ERROR, "no such overload");
	expect("quantity('2').sub(1) == quantity('1')", CEL_TRUE, NULL);
	expect("quantity('1') in [quantity('2').sub(1)]", CEL_FALSE, NULL);
	expect("quantity('2').sub(1) in [quantity('1')]", CEL_TRUE, NULL);
	/* Contains keeps only a True: the error is no match */
	expect("quantity('40') in [" GPU ".cores]", CEL_FALSE, NULL);
	expect(GPU ".version.isLessThan(semver('1.2.3'))", CEL_TRUE, NULL);
	expect(GPU ".version == semver('1.2.3-rc.1+build')", CEL_TRUE, NULL);
	expect("semver('1.2.3-rc.2').isGreaterThan(semver('1.2.3-rc.10'))", CEL_FALSE, NULL);
	expect("semver('1.0.0-alpha').isLessThan(semver('1.0.0-1'))", CEL_FALSE, NULL);
	expect("semver('1.0.0-alpha').compareTo(semver('1.0.0-alpha.1')) == -1", CEL_TRUE, NULL);
	expect("semver('2.10.3').major() == 2 && semver('2.10.3').minor() == 10", CEL_TRUE, NULL);
	expect("semver('01.2.3').major() == 1", CEL_ERROR,
	       "Major number must not contain leading zeroes \"01\"");
	expect("semver('1.2') == semver('1.2.0')", CEL_ERROR,
	       "No Major.Minor.Patch elements found");
	expect("isSemver('1.2.3') && !isSemver('v1.2.3')", CEL_TRUE, NULL);
	/* the semver library v1 (kube v1.33+): normalizeAndParse drops one
	 * leading v, trims leading zeros of each of the (at most three)
	 * dot-separated parts, fills a short version with .0 */
	expect("semver('v1.2', true) == semver('1.2.0') && isSemver('v1', true) && "
	       "!isSemver('v1', false)", CEL_TRUE, NULL);
	expect("semver('01.002.03-rc.1', true) == semver('1.2.3-rc.1')", CEL_TRUE, NULL);
	expect("semver('1.2-rc', true) == semver('1.2.0')", CEL_ERROR,
	       "short version cannot contain PreRelease/Build meta data");
	/* "vv1" keeps one v: the part becomes "0v1" */
	expect("semver('vv1.2.3', true) == semver('1.2.3')", CEL_ERROR,
	       "Invalid character(s) found in major number \"0v1\"");
	expect(GPU ".version == '1.2.3-rc.1'", CEL_ERROR, "no such overload");
	expect(GPU ".model.isGreaterThan(semver('1.0.0'))", CEL_ERROR,
	       "no such overload: isGreaterThan(string, kubernetes.Semver)");
}

/* cel.bind (cel-go's ext.Bindings, kube's device environment since
 * v1.31): the body with the variable standing for its init, evaluated
 * lazily - an init that fails is an error only where the body reads it. */
static void test_bind(void)
{
	expect("cel.bind(dra, " GPU ", dra.model == 'a100' && dra.cores > 32)", CEL_TRUE, NULL);
	expect("cel.bind(dra, " GPU ", dra.model == 't4')", CEL_FALSE, NULL);
	expect("cel.bind(m, device.capacity['gpu.example.com'].memory, "
	       "m.isGreaterThan(quantity('32Gi')) && m.isLessThan(quantity('64Gi')))",
	       CEL_TRUE, NULL);
	expect("cel.bind(x, " GPU ".nope, true)", CEL_TRUE, NULL);
	expect("cel.bind(x, " GPU ".nope, x == 1)", CEL_ERROR, "no such key: nope");
	/* || absorbs the error of the bound value as of any operand */
	expect("cel.bind(x, " GPU ".nope, x == 1 || true)", CEL_TRUE, NULL);
	/* an inner variable shadows an outer one of its name; an inner init
	 * reads the outer */
	expect("cel.bind(x, 1, cel.bind(x, 2, x) == 2 && x == 1)", CEL_TRUE, NULL);
	expect("cel.bind(x, 1, cel.bind(y, x + 1, y * 10) == 20)", CEL_TRUE, NULL);
	expect("cel.bind(d, " GPU ", has(d.model) && !has(d.memory))", CEL_TRUE, NULL);
	/* an inner init shared by its two uses, rewritten once by an outer
	 * bind whose init reads the outer variable of the same name: a = 2
	 * outside, 3 inside, b = 6, b + b = 12 (kso crashed: the shared node
	 * was rewritten again through the init put in it) */
	expect("[2].all(a, cel.bind(a, a + 1, cel.bind(b, a * 2, b + b)) == 12)", CEL_TRUE, NULL);
	expect("cel.bind(device, device.driver, cel.bind(d, device + '', d == d))", CEL_TRUE, NULL);
	expect("[1].all(x, cel.bind(x, x + 1, cel.bind(y, x + 0, y == y)))", CEL_TRUE, NULL);
	/* the init is type-checked even where the body ignores it */
	refuse("cel.bind(x, y, true)", 13, "undeclared reference to 'y' (in container '')");
	refuse("cel.bind(x, 'a', x + 1 == 2)", 20, "found no matching overload for '_+_' "
	       "applied to '(string, int)'");
	refuse("cel.bind(x.y, 1, true)", 11, "cel.bind() variable names must be simple "
	       "identifiers");
	/* the init is read in the scope enclosing the bind: y is the outer
	 * x (1, then 2), never the inner comprehension's x (5): 1 < 3 and
	 * 2 < 3 */
	expect("[1, 2].all(x, cel.bind(y, x, [5].all(x, y < 3)))", CEL_TRUE, NULL);
	/* first read inside a comprehension of the body: the init's own
	 * map() runs apart from it, y = [2, 4], x = 7 */
	expect("cel.bind(y, [1, 2].map(x, x * 2), [7].exists(x, y == [2, 4] && x == 7))",
	       CEL_TRUE, NULL);
	/* thirteen binds, each doubling the last: 'x' doubled twelve times
	 * is 2^12 = 4096 bytes (each init read once, as cel-go's folder
	 * caches the accumulator) */
	expect("cel.bind(a, 'x', cel.bind(b, a + a, cel.bind(c, b + b, cel.bind(d, c + c, "
	       "cel.bind(e, d + d, cel.bind(f, e + e, cel.bind(g, f + f, cel.bind(h, g + g, "
	       "cel.bind(i, h + h, cel.bind(j, i + i, cel.bind(k, j + j, cel.bind(l, k + k, "
	       "cel.bind(m, l + l, m.size() == 4096)))))))))))))", CEL_TRUE, NULL);
}

/* matches() with a literal pattern: Go's regexp.MatchString (RE2, Perl
 * flags: `.` stops at a newline, ^ $ only at the ends), a match anywhere
 * in the subject; cel-go compiles the literal when it plans the program
 * (MatchesRegexOptimization), so a bad pattern refuses the expression. */
static void test_matches(void)
{
	expect(GPU ".model.matches('^a[0-9]+$')", CEL_TRUE, NULL);
	expect(GPU ".model.matches('^[0-9]')", CEL_FALSE, NULL);
	expect("matches(" GPU ".model, '10')", CEL_TRUE, NULL);      /* unanchored */
	expect("device.driver.matches(r'^gpu\\.example\\.com$')", CEL_TRUE, NULL);
	expect("device.driver.matches('^gpu.example$')", CEL_FALSE, NULL);
	expect("device.driver.matches(r'^(gpu|nic)\\.(example|test)\\.(com|org)$')", CEL_TRUE,
	       NULL);
	expect("device.driver.matches(r'^[[:alpha:]]+[.][a-z]+\\.com$') && "
	       "!device.driver.matches(r'\\d') && device.driver.matches(r'\\w\\W\\w')",
	       CEL_TRUE, NULL);
	expect("'a100'.matches(r'^a\\d{2,3}$') && !'a10000'.matches(r'^a\\d{2,3}$') && "
	       "'a1'.matches(r'^a\\d{0,1}$')", CEL_TRUE, NULL);
	/* braces that are no repeat count are literals */
	expect("'x{2'.matches('x{2') && 'x{,2}'.matches('^x{,2}$')", CEL_TRUE, NULL);
	expect("'gpu.example'.matches(r'\\bexample\\b') && !'gpuexample'.matches(r'\\bexample')",
	       CEL_TRUE, NULL);
	expect("'a\\nb'.matches('a.b')", CEL_FALSE, NULL);     /* . stops at a newline */
	expect("'a\\nb'.matches('a[^x]b') && 'a\\nb'.matches(r'a\\sb')", CEL_TRUE, NULL);
	expect("'ab'.matches('^a$')", CEL_FALSE, NULL);        /* $ only at the end */
	expect("'h\\u00e9llo'.matches('^h.llo$')", CEL_TRUE, NULL);   /* . is a code point */
	expect("''.matches('') && ''.matches('^$') && 'x'.matches('y*')", CEL_TRUE, NULL);
	expect("'aaa'.matches('^(a|aa)*?$') && 'abab'.matches('^(?:ab)+$') && "
	       "'ab'.matches('^(?P<x>a)(?<y>b)$')", CEL_TRUE, NULL);
	expect("'a_b'.matches(r'a\\_b') && 'a-b'.matches(r'a[\\-]b')", CEL_TRUE, NULL);
	/* a subject that is no string: the optimized call's NoSuchOverloadErr */
	expect(GPU ".cores.matches('4')", CEL_ERROR, "no such overload");
	expect(GPU ".nope.matches('4')", CEL_ERROR, "no such key: nope");
	refuse("device.driver.matches('(')", 23, "invalid matches() pattern: missing closing )");
	refuse("device.driver.matches('a**')", 23, "invalid matches() pattern: invalid nested "
	       "repetition operator");
	refuse("device.driver.matches('a{1001}')", 23, "invalid matches() pattern: invalid "
	       "repeat count");
	refuse("device.driver.matches('{2}')", 23, "invalid matches() pattern: missing argument "
	       "to repetition operator");
	refuse("device.driver.matches('[b-a]')", 23, "invalid matches() pattern: invalid character "
	       "class range");
	refuse("device.driver.matches('(?i)GPU')", 23, "invalid matches() pattern: regular "
	       "expression flags (?i) and the like are outside kso's regular expressions");
	refuse("device.driver.matches(" GPU ".model)", 59, "matches() with a pattern that is not "
	       "a string literal is outside kso's CEL subset");
}

/* cel-go's string extensions at version 2 (kube's base environment since
 * v1.29): positions in code points, replace and split as Go's
 * strings.Replace / SplitN, trim as strings.TrimSpace, ext/strings.go's
 * error texts. */
static void test_string_extensions(void)
{
	expect(GPU ".model.charAt(0) == 'a' && " GPU ".model.charAt(4) == ''", CEL_TRUE, NULL);
	expect(GPU ".model.charAt(5) == ''", CEL_ERROR, "index out of range: 5");
	expect("'h\u00e9llo'.charAt(1) == '\u00e9' && 'h\u00e9llo'.indexOf('l') == 2",
	       CEL_TRUE, NULL);
	expect("'abcabc'.indexOf('bc') == 1 && 'abcabc'.indexOf('bc', 2) == 4 && "
	       "'abc'.indexOf('') == 0 && 'abc'.indexOf('', 7) == 7 && 'abc'.indexOf('x') == -1 && "
	       "'abc'.indexOf('a', 3) == -1", CEL_TRUE, NULL);
	expect("'abc'.indexOf('a', -1) == 0", CEL_ERROR, "index out of range: -1");
	expect("'abcabc'.lastIndexOf('bc') == 4 && 'abcabc'.lastIndexOf('bc', 3) == 1 && "
	       "'abc'.lastIndexOf('') == 3 && 'a'.lastIndexOf('abc') == -1 && "
	       "'abc'.lastIndexOf('c', 9) == -1", CEL_TRUE, NULL);
	expect("'abc'.lastIndexOf('c', -2) == 0", CEL_ERROR, "index out of range: -2");
	expect("device.driver.replace('.', '-') == 'gpu-example-com' && "
	       "device.driver.replace('.', '', 1) == 'gpuexample.com' && "
	       "'ab'.replace('', '-') == '-a-b-' && 'ab'.replace('', '-', 2) == '-a-b' && "
	       "'aaa'.replace('a', 'b', 0) == 'aaa'", CEL_TRUE, NULL);
	expect("device.driver.split('.') == ['gpu', 'example', 'com'] && "
	       "device.driver.split('.', 2) == ['gpu', 'example.com'] && "
	       "device.driver.split('.', 0) == [] && 'ab'.split('') == ['a', 'b'] && "
	       "''.split(',') == [''] && 'a,'.split(',') == ['a', '']", CEL_TRUE, NULL);
	expect("device.driver.substring(4) == 'example.com' && "
	       "device.driver.substring(4, 11) == 'example' && 'abc'.substring(3) == ''",
	       CEL_TRUE, NULL);
	expect("'abc'.substring(4) == ''", CEL_ERROR, "index out of range: 4");
	expect("'abc'.substring(2, 1) == ''", CEL_ERROR,
	       "invalid substring range. start: 2, end: 1");
	expect("'abc'.substring(1, 5) == ''", CEL_ERROR, "index out of range: 5");
	expect("' \\t a b \\n'.trim() == 'a b' && '\u00a0x\u3000'.trim() == 'x'", CEL_TRUE, NULL);
	expect("['a', 'b'].join() == 'ab' && ['a', 'b'].join('/') == 'a/b' && [].join('-') == ''",
	       CEL_TRUE, NULL);
	expect("[" GPU ".model, " GPU ".cores].join() == ''", CEL_ERROR,
	       "join: invalid input: 40");
	/* a receiver that is no string: MaybeNoSuchOverload with the types */
	expect(GPU ".cores.charAt(0) == 'a'", CEL_ERROR, "no such overload: charAt(int, int)");
	expect(GPU ".cores.split(',') == []", CEL_ERROR, "no such overload: split(int, string)");
	refuse("[1].join() == ''", 9, "found no matching overload for 'join' applied to "
	       "'list(int).()'");
	refuse("'a'.substring('b') == ''", 14, "found no matching overload for 'substring' "
	       "applied to 'string.(string)'");
}

/* The one-variable macros, as cel-go's parser expands them into folds:
 * all (accu && p while accu is not false), exists (accu || p while accu
 * is not true), exists_one (p ? accu + 1 : accu over every element, then
 * accu == 1), filter and map (accu + [x or t]); && and || absorb errors
 * as the operators do.  A map's range is its keys, in Go's random order. */
static void test_macros(void)
{
	expect("['a100', 'h100'].exists(m, " GPU ".model == m)", CEL_TRUE, NULL);
	expect("['t4', 'h100'].exists(m, " GPU ".model == m)", CEL_FALSE, NULL);
	expect("[1, 2, 3].all(x, x > 0) && ![1, 2, 3].all(x, x > 1) && [].all(x, false)",
	       CEL_TRUE, NULL);
	expect("[1, 2, 3].exists_one(x, x > 2) && ![1, 2, 3].exists_one(x, x > 1) && "
	       "![].exists_one(x, true)", CEL_TRUE, NULL);
	expect("[1, 2, 3].filter(x, x > 1) == [2, 3] && [1, 2].map(x, x * 2) == [2, 4] && "
	       "[1, 2, 3].map(x, x > 1, x * 10) == [20, 30]", CEL_TRUE, NULL);
	/* all: a false decides past an error; else the first error */
	expect("[0, 1].all(x, 1 / x > 5)", CEL_FALSE, NULL);
	expect("[0, 1].all(x, 1 / x > 0)", CEL_ERROR, "division by zero");
	expect("[1, 0].all(x, x % x == 0)", CEL_ERROR, "modulus by zero");
	/* exists: stops at the first true; 1 / 2 is 0 */
	expect("[1, 0].exists(x, 1 / x > 0)", CEL_TRUE, NULL);
	expect("[0, 2].exists(x, 1 / x > 0)", CEL_ERROR, "division by zero");
	/* exists_one sees every element: an error is final */
	expect("[2, 0].exists_one(x, 1 / x > 0)", CEL_ERROR, "division by zero");
	/* map: the first error; filter: an error then a false keeps it */
	expect("[0, 1].map(x, 1 / x) == []", CEL_ERROR, "division by zero");
	expect("[0, 1].filter(x, 1 / x > 5) == []", CEL_ERROR, "division by zero");
	/* over a map: its keys; a result that order cannot change */
	expect(GPU ".exists(k, k == 'cores') && " GPU ".all(k, k.size() > 4) && "
	       GPU ".filter(k, k == 'model') == ['model']", CEL_TRUE, NULL);
	expect(GPU ".exists_one(k, k.startsWith('m'))", CEL_TRUE, NULL);
	expect("device.attributes.all(d, d.size() > 10)", CEL_TRUE, NULL);
	/* two keys in a list: Go's map order decides theirs */
	expect(GPU ".filter(k, k.size() == 5) == ['model', 'cores']", CEL_UNJUDGED, NULL);
	/* variables: nested, shadowing device and cel.bind's */
	expect("[1, 2].all(x, [3, 4].all(y, x < y))", CEL_TRUE, NULL);
	expect("[1].all(device, device == 1)", CEL_TRUE, NULL);
	expect("cel.bind(x, 5, [1, 2].all(x, x < 3) && [1].all(y, x == 5))", CEL_TRUE, NULL);
	expect("device.driver.split('.').exists(p, p == 'example')", CEL_TRUE, NULL);
	refuse("[1].all(x, x)", 12, "found no matching overload for '_&&_' applied to "
	       "'(bool, int)'");
	refuse("1.all(x, true)", 1, "expression of type 'int' cannot be range of a "
	       "comprehension (must be list, map, or dynamic)");
	refuse("[1].all(1, true)", 9, "argument must be a simple name");
	refuse("[1].map(1, true)", 9, "argument is not an identifier");
	refuse("[1].all(__result__, true)", 9, "iteration variable overwrites accumulator "
	       "variable");
	expect("[1, 2].existsOne(x, x == 2)", CEL_TRUE, NULL);
	refuse("[[1]].all(l, l.all(x, x > 0))", 14, "a comprehension over this range is "
	       "outside kso's CEL subset (kso bounds the cost of list literals, maps and "
	       "split())");
}

/* Positions as cel-go's checker gives them: an operator at its symbol, a
 * call at its '(' (a member call too), has()'s error at its argument. */
static void test_refused(void)
{
	refuse("device.driver == 1", 15, "found no matching overload for '_==_' applied to "
	       "'(string, int)'");
	refuse("device.foo", 7, "undefined field 'foo'");
	refuse("x == 1", 1, "undeclared reference to 'x' (in container '')");
	refuse("true ? 1 : 2", 6, "must evaluate to bool or the unknown type, not int");
	refuse("device.capacity['a'].memory == 1", 29, "found no matching overload for "
	       "'_==_' applied to '(kubernetes.Quantity, int)'");
	refuse("1 + 1", 3, "must evaluate to bool or the unknown type, not int");
	refuse("b'x' == b'x'", 1, "bytes literals are outside kso's CEL subset");
	refuse("{'a': 1}.a == 1", 1, "map and message literals are outside kso's CEL subset");
	refuse("device.driver.format([]) == 'g'", 21, "function 'format' is outside kso's CEL "
	       "subset");
	/* the two-variable forms (ext.TwoVarComprehensions) */
	refuse("[1].all(i, x, x > 0)", 8, "function 'all' is outside kso's CEL subset");
	refuse("has(device)", 5, "invalid argument to has() macro");
	refuse("quantity('1') < quantity('2')", 15, "found no matching overload for '_<_' "
	       "applied to '(kubernetes.Quantity, kubernetes.Quantity)'");
	refuse("true ? 1 : 'a'", 6, "found no matching overload for '_?_:_' applied to "
	       "'(bool, int, string)'");
	/* cel-go writes a member call's arguments as TARGET.(ARGS) */
	refuse("quantity('1').sign() == 1", 19, "found no matching overload for 'sign' applied "
	       "to 'kubernetes.Quantity.()'");
	refuse("quantity('1').isGreaterThan(1)", 28, "found no matching overload for "
	       "'isGreaterThan' applied to 'kubernetes.Quantity.(int)'");
	refuse("'a' ==", 7, "syntax error: unexpected end of expression");
	refuse("if == 1", 1, "reserved identifier: if");
	/* CEL's lexer makes true a token of its own, never a field name */
	refuse(GPU ".true == 'a'", 38, "syntax error: expected a field name");
	refuse("'abc", 1, "unterminated string literal");
	refuse("9223372036854775808 > 0", 1, "invalid int literal");
	/* one minus is the literal's sign; after two, every minus is an
	 * operator and the literal has none */
	refuse("--9223372036854775808 > 0", 3, "invalid int literal");
	/* the result must be bool or google.protobuf.Any (an attribute's
	 * type); dyn is neither: -x has the int and double overloads, x + x
	 * the int, string, list... ones, so both are dyn */
	refuse("-" GPU ".cores", 1, "must evaluate to bool or the unknown type, not dyn");
	refuse(GPU ".model + " GPU ".model", 44,
	       "must evaluate to bool or the unknown type, not dyn");
	refuse(GPU, 18, "must evaluate to bool or the unknown type, not "
	       "map(string, google.protobuf.Any)");
	/* cel.HomogeneousAggregateLiterals: any and string differ */
	refuse("[" GPU ".model, 'b'].size() == 2", 46,
	       "expected type 'any' but found 'string'");
	refuse("[[1], [" GPU ".cores]].size() == 2", 7,
	       "expected type 'list(int)' but found 'list(any)'");
	/* no ordering overload takes a semver */
	refuse(GPU ".version < semver('1.0.0')", 46,
	       "found no matching overload for '_<_' applied to '(any, kubernetes.Semver)'");
}

/* int(), string(), bool() and dyn() on kso's kinds (cel-go's
 * ConvertToType: int of a string is Go's strconv.ParseInt(s, 10, 64), bool
 * of a string strconv.ParseBool).  A conversion of a constant is done when
 * kube's planner plans the program: its failure fails the compilation
 * ("program instantiation failed: ..."; kso names the call's '('), and
 * its value is a constant, also to `in`. */
static void test_conversions(void)
{
	expect("int('42') == 42 && int('+7') == 7 && int('-0') == 0 && "
	       "int('-9223372036854775808') == -9223372036854775808", CEL_TRUE, NULL);
	expect("string(40) == '40' && string(-5) == '-5' && string(true) == 'true' && "
	       "string('x') == 'x'", CEL_TRUE, NULL);
	expect("bool('t') && !bool('F') && bool('1') && !bool('0') && bool('TRUE') && "
	       "bool('True') && !bool(false)", CEL_TRUE, NULL);
	expect("dyn(1) + 1 == 2", CEL_TRUE, NULL);
	/* '1' + '2' is no constant: converted at run time */
	expect("int('1' + '2') == 12", CEL_TRUE, NULL);
	expect("int(" GPU ".cores) == 40 && string(" GPU ".cores) == '40'", CEL_TRUE, NULL);
	expect("int(" GPU ".model) == 1", CEL_ERROR, "type conversion error from 'string' to 'int'");
	/* a value of no overload's kind: the function and its type named */
	expect("bool(" GPU ".cores)", CEL_ERROR, "no such overload: bool(int)");
	expect("int(" GPU ".version) == 1", CEL_ERROR, "no such overload: int(kubernetes.Semver)");
	refuse("int('abc') == 1", 4, "program instantiation failed: type conversion error from "
	       "'string' to 'int'");
	refuse("int('') == 0", 4, "program instantiation failed: type conversion error from "
	       "'string' to 'int'");
	refuse("int(' 1') == 1", 4, "program instantiation failed: type conversion error from "
	       "'string' to 'int'");
	refuse("int('9223372036854775808') == 1", 4, "program instantiation failed: type "
	       "conversion error from 'string' to 'int'");
	refuse("bool('tRUE')", 5, "program instantiation failed: type conversion error from "
	       "'string' to 'bool'");
	/* dyn('x') is folded first, then int() of it */
	refuse("int(dyn('x')) == 5", 4, "program instantiation failed: type conversion error "
	       "from 'string' to 'int'");
	refuse("int(true) == 1", 4, "found no matching overload for 'int' applied to '(bool)'");
	/* a list of constants is a constant too: int() of it is planned, and
	 * no overload takes a list */
	refuse("int(dyn([1, 2])) == 1", 4, "program instantiation failed: no such overload: "
	       "int(list)");
	refuse("int(dyn(false)) == 0", 4, "program instantiation failed: no such overload: "
	       "int(bool)");
	refuse("string(device.capacity['a'].memory) == '1'", 7, "found no matching overload "
	       "for 'string' applied to '(kubernetes.Quantity)'");
	/* [int('40')] is a literal of constants: the set lookup, which a
	 * semver cannot enter (Go's panic, cel-go's internal error) */
	expect(GPU ".cores in [int('40')]", CEL_TRUE, NULL);
	expect(GPU ".version in [int('1')]", CEL_ERROR,
	       "internal error: runtime error: hash of unhashable type cel.Semver");
}

/* kube's lists library: list.indexOf(x), list.lastIndexOf(x), by
 * element.Equal(x) == True (the *Quantity of sub() no argument of a
 * Quantity's Equal: no match). */
static void test_list_index(void)
{
	expect("[1, 2].indexOf(2) == 1 && [1, 2, 1].lastIndexOf(1) == 2 && "
	       "[1, 2].indexOf(3) == -1 && [[1]].indexOf([1]) == 0", CEL_TRUE, NULL);
	expect(GPU ".model.split('').indexOf('1') == 1", CEL_TRUE, NULL);
	expect("[quantity('1')].indexOf(quantity('2').sub(1)) == -1", CEL_TRUE, NULL);
	expect("[quantity('2').sub(1)].indexOf(quantity('1')) == 0", CEL_TRUE, NULL);
	refuse("[1, 2].indexOf('a') == 1", 15, "found no matching overload for 'indexOf' "
	       "applied to 'list(int).(string)'");
}

/* uint and double as cel-go has them: uint arithmetic never wraps
 * ("unsigned integer overflow"), doubles are IEEE (a division by zero is
 * an infinity), numbers of different kinds are ordered and, as dyn
 * values, equal across kinds as compareDoubleInt & co. compare them (an
 * int is converted to float64 first: INT64_MAX is 2^63 there), a NaN is
 * ordered with nothing ("NaN values cannot be ordered") and equal to
 * nothing; conversions as ConvertToType does them and %g writes them. */
static void test_numbers(void)
{
	expect("1.5 > 1.0 && .5 == 0.5 && 1e2 == 100.0 && 0x10u == 16u && -2.5 < -2.0",
	       CEL_TRUE, NULL);
	refuse("1e400 > 1.0", 1, "invalid double literal");
	refuse("18446744073709551616u > 1u", 1, "invalid uint literal");
	expect("1u - 2u == 1u", CEL_ERROR, "unsigned integer overflow");
	expect("18446744073709551615u + 1u == 0u", CEL_ERROR, "unsigned integer overflow");
	expect("1u / 0u == 1u", CEL_ERROR, "division by zero");
	expect("1u % 0u == 1u", CEL_ERROR, "modulus by zero");
	expect("7u / 2u == 3u && 7u % 2u == 1u", CEL_TRUE, NULL);
	expect("1.0 / 0.0 > 1.0 && -0.0 == 0.0", CEL_TRUE, NULL);
	/* 0.1 + 0.2 is 0.30000000000000004 in binary */
	expect("0.1 + 0.2 == 0.3", CEL_FALSE, NULL);
	expect("1.0 < 0.0 / 0.0", CEL_ERROR, "NaN values cannot be ordered");
	expect("0.0 / 0.0 == 0.0 / 0.0", CEL_FALSE, NULL);
	expect("2 > 1.5 && 1u < 1.5 && 2 >= 2u && -1 < 0u", CEL_TRUE, NULL);
	expect("9223372036854775807 < 9223372036854775808.0", CEL_FALSE, NULL);
	expect("9223372036854775807 == dyn(9223372036854775808.0)", CEL_TRUE, NULL);
	expect("dyn(1u) == dyn(1) && dyn(2) in [2.0, 3.0] && 1.5 in [1.5, 2.5]", CEL_TRUE, NULL);
	refuse("1 == 1.0", 3, "found no matching overload for '_==_' applied to '(int, double)'");
	refuse("5.0 % 2.0 == 1.0", 5, "found no matching overload for '_%_' applied to "
	       "'(double, double)'");
	refuse("-1u == 1u", 1, "found no matching overload for '-_' applied to '(uint)'");
	/* doubleToInt64Checked refuses -2^63 itself (-9223372036854775807.0
	 * is that double); a negative double is no uint, even -0.5 */
	expect("int(-1.5) == -1 && uint(1.5) == 1u && int(3u) == 3 && double(2u) == 2.0",
	       CEL_TRUE, NULL);
	refuse("int(-9223372036854775807.0) < 0", 4, "program instantiation failed: integer "
	       "overflow");
	refuse("uint(-0.5) == 0u", 5, "program instantiation failed: unsigned integer overflow");
	refuse("uint(-1) == 1u", 5, "program instantiation failed: unsigned integer overflow");
	expect("int(" GPU ".cores == 1 ? 1.5 : 1e19) == 1", CEL_ERROR, "integer overflow");
	/* strconv.ParseFloat: underscores between digits, hex with its p,
	 * inf and nan in any case, an underflow to 0; no space */
	expect("double('1_000') == 1000.0 && double('0x1p-2') == 0.25 && "
	       "double('Infinity') > 0.0 && double('.5') == 0.5 && double('5.') == 5.0 && "
	       "double('1e-400') == 0.0 && double('nAn') != double('nan')", CEL_TRUE, NULL);
	refuse("double('0x1') == 1.0", 7, "program instantiation failed: type conversion error "
	       "from 'string' to 'double'");
	refuse("double(' 1') == 1.0", 7, "program instantiation failed: type conversion error "
	       "from 'string' to 'double'");
	refuse("uint('+1') == 1u", 5, "program instantiation failed: type conversion error "
	       "from 'string' to 'uint'");
	/* %g: the shortest digits, %e from an exponent of 6 up or below -4 */
	expect("string(1.0) == '1' && string(-0.0) == '-0' && string(1234567.0) == "
	       "'1.234567e+06' && string(123456.0) == '123456' && string(0.0001) == '0.0001' && "
	       "string(0.00001) == '1e-05' && string(5e-324) == '5e-324' && "
	       "string(1.0 / 0.0) == '+Inf' && string(0.1) == '0.1' && "
	       "string(18446744073709551615u) == '18446744073709551615'", CEL_TRUE, NULL);
	expect("(true ? 1.5 : " GPU ".cores)", CEL_ERROR, "CEL result of type double could not be "
	       "converted to bool: type conversion error from Double to 'bool'");
	expect("(true ? 1u : " GPU ".cores)", CEL_ERROR, "CEL result of type uint could not be "
	       "converted to bool: unsupported type conversion from 'uint' to bool");
	/* join's runtime type guard reads the list's first element only */
	expect("[" GPU ".cores, " GPU ".model].join() == ''", CEL_ERROR,
	       "no such overload: join(list)");
	expect("[" GPU ".model, " GPU ".cores].join() == ''", CEL_ERROR, "join: invalid input: 40");
}

/* What cel-go's parser and planner change before evaluation. */
static void test_parse_and_plan(void)
{
	/* an even run of ! or - is dropped (VisitLogicalNot, VisitNegate):
	 * !!'a' is 'a', and --m is m even where -m overflows */
	expect("!!'a' == 'a'", CEL_TRUE, NULL);
	expect("--1 == 1 && ---1 == -1", CEL_TRUE, NULL);
	expect("cel.bind(m, -9223372036854775808, --m == m)", CEL_TRUE, NULL);
	expect("cel.bind(m, -9223372036854775808, -m == m)", CEL_ERROR, "integer overflow");
	/* `in` over a literal of constants: an empty one is the constant
	 * false, its left side never evaluated; otherwise a lookup in a Go
	 * map of the constants, where a value of another kind is absent -
	 * but a Semver (a struct holding slices) cannot be hashed: Go
	 * panics, and cel-go's Eval recovers it as the evaluation's error,
	 * which no || absorbs */
	expect(GPU ".nope in []", CEL_FALSE, NULL);
	expect("1 / 0 in []", CEL_FALSE, NULL);
	expect("1 / 0 in [1, 2]", CEL_ERROR, "division by zero");
	expect(GPU ".model in ['t4', 'a100']", CEL_TRUE, NULL);
	expect(GPU ".cores in ['40']", CEL_FALSE, NULL);
	expect("(" GPU ".version in [1, 2]) || true", CEL_ERROR,
	       "internal error: runtime error: hash of unhashable type cel.Semver");
	expect("true || (" GPU ".version in [1, 2])", CEL_TRUE, NULL);
	/* a list element is no constant of the set: Contains, no panic */
	expect(GPU ".version in [[1]]", CEL_FALSE, NULL);
	/* an operand without the operator's trait: a string is asked to
	 * Receive the call (plain "no such overload"), others name it */
	expect(GPU ".model - 1 == 1", CEL_ERROR, "no such overload");
	expect("-" GPU ".model == 1", CEL_ERROR, "no such overload");
	expect(GPU ".version - 1 == 1", CEL_ERROR, "no such overload: _-_");
	/* || with an error and a value kso cannot judge: that value may be
	 * true, which would absorb the error */
	expect("1 / 0 == 1 || device.capacity['gpu.example.com'].huge.add(1) == quantity('1')",
	       CEL_UNJUDGED, NULL);
}

int main(void)
{
	test_literals_and_operators();
	test_device();
	test_quantity_and_semver();
	test_bind();
	test_parse_and_plan();
	test_conversions();
	test_numbers();
	test_list_index();
	test_matches();
	test_string_extensions();
	test_macros();
	test_refused();
	return check_done("test_cel");
}
