/*
 * quantity.c - resource.Quantity parsing (reference §4), exact.
 *
 * apimachinery scans "[+-]? digits [. digits] suffix" by hand (the regular
 * expression in its error message is looser than the scanner), keeps the
 * number as an exact decimal, multiplies in the suffix (10^k or 2^k), and
 * rounds any non-zero value up in magnitude to a multiple of 10^-9.  We do
 * the same on a buffer of decimal digits: no floating point anywhere.
 */
#include "quantity.h"
#include "../core/go_int.h"

#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char ERR_FORMAT[] =
	"quantities must match the regular expression "
	"'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
static const char ERR_SUFFIX[] = "unable to parse quantity's suffix";
static const char ERR_NEGATIVE[] = "must be greater than or equal to 0";
static const char ERR_RANGE[] = "value does not fit in 64 bits";

#define NANO 1000000000

/* The pieces of a quantity string, as parseQuantityString splits it. */
struct qparts {
	bool negative;
	const char *num;       /* integer digits, leading zeros stripped */
	size_t num_len;
	const char *denom;     /* fraction digits after '.' */
	size_t denom_len;
	const char *suffix;
	size_t suffix_len;
	bool zero_only;        /* nothing but a sign and zeros: the value 0 */
};

/* How the suffix scales the number: value * base^exponent. */
struct qscale {
	int base;              /* 10 or 2 */
	int64_t exponent;
};

static int qfail(const char **why, const char *msg)
{
	if (why)
		*why = msg;
	return -1;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static size_t span_digits(const char *s)
{
	size_t n = 0;
	while (is_digit(s[n]))
		n++;
	return n;
}

/* parseQuantityString: a sign, leading zeros (a string that ends there,
 * such as "-00" or even "+", is the value 0), the numerator digits, an
 * optional '.' and denominator digits, then the suffix: letters from
 * "eEinumkKMGTP", an optional sign and digits up to the end. */
static int split_quantity(const char *s, struct qparts *p)
{
	memset(p, 0, sizeof *p);
	if (*s == '-' || *s == '+')
		p->negative = *s++ == '-';
	while (*s == '0')
		s++;
	if (*s == '\0') {
		p->zero_only = true;
		return 0;
	}
	p->num = s;
	p->num_len = span_digits(s);
	s += p->num_len;
	if (*s == '.') {
		s++;
		p->denom = s;
		p->denom_len = span_digits(s);
		s += p->denom_len;
	}
	p->suffix = s;
	while (*s && strchr("eEinumkKMGTP", *s))
		s++;
	if (*s == '-' || *s == '+')
		s++;
	s += span_digits(s);
	if (*s != '\0')
		return -1;
	p->suffix_len = (size_t)(s - p->suffix);
	return 0;
}

/* Go's int32(x): keep the low 32 bits, two's complement. */
static int64_t wrap_int32(int64_t x)
{
	uint32_t u = (uint32_t)((uint64_t)x & 0xffffffffu);
	return u >= 0x80000000u ? (int64_t)u - 0x100000000LL : (int64_t)u;
}

/* suffixHandler.interpret: the decimal and binary tables, else "e<int>" or
 * "E<int>" (the exponent parsed as int64, then truncated to int32). */
static int interpret_suffix(const char *s, size_t n, struct qscale *sc)
{
	static const struct {
		const char *name;
		int base;
		int exponent;
	} table[] = {
		{"", 10, 0},   {"n", 10, -9}, {"u", 10, -6}, {"m", 10, -3},
		{"k", 10, 3},  {"M", 10, 6},  {"G", 10, 9},  {"T", 10, 12},
		{"P", 10, 15}, {"E", 10, 18},
		{"Ki", 2, 10}, {"Mi", 2, 20}, {"Gi", 2, 30}, {"Ti", 2, 40},
		{"Pi", 2, 50}, {"Ei", 2, 60},
	};
	for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
		if (strlen(table[i].name) == n &&
		    memcmp(table[i].name, s, n) == 0) {
			sc->base = table[i].base;
			sc->exponent = table[i].exponent;
			return 0;
		}
	}
	int64_t e;
	if (n > 1 && (s[0] == 'e' || s[0] == 'E') &&
	    go_parse_int64(s + 1, n - 1, &e)) {
		sc->base = 10;
		sc->exponent = wrap_int32(e);
		return 0;
	}
	return -1;
}

/* A decimal number digits[0..len) * 10^scale, digits as values 0..9 with
 * digits[0] != 0. */
struct decimal {
	unsigned char *digits;
	size_t len;
	int64_t scale;
};

/* Multiplies the digit string by 2^bits in place; buf has room for 20
 * more digits in front of d->digits. */
static void decimal_shift_left(struct decimal *d, unsigned bits)
{
	while (bits > 0) {
		unsigned step = bits > 20 ? 20 : bits;
		uint64_t mult = (uint64_t)1 << step, carry = 0;
		for (size_t i = d->len; i-- > 0;) {
			uint64_t v = d->digits[i] * mult + carry;
			d->digits[i] = (unsigned char)(v % 10);
			carry = v / 10;
		}
		while (carry) {
			*--d->digits = (unsigned char)(carry % 10);
			d->len++;
			carry /= 10;
		}
		bits -= step;
	}
}

/* The digit at position i counted from the most significant one, zeros
 * outside the string (the scale's trailing zeros). */
static unsigned decimal_digit(const struct decimal *d, int64_t i)
{
	return i >= 0 && (uint64_t)i < d->len ? d->digits[i] : 0;
}

/* Rounds d up to a multiple of 10^-9 and splits it into units and nanos.
 * Returns -1 when the units do not fit in int64. */
static int decimal_to_quantity(const struct decimal *d, struct quantity *q)
{
	int64_t int_len = (int64_t)d->len + d->scale;
	if (int_len > 19)
		return -1;
	uint64_t units = 0;
	for (int64_t i = 0; i < int_len; i++)
		units = units * 10 + decimal_digit(d, i);
	uint32_t nanos = 0;
	for (int64_t j = 0; j < 9; j++)
		nanos = nanos * 10 + decimal_digit(d, int_len + j);
	/* inf.RoundUp: any non-zero digit below 10^-9 lifts the value to the
	 * next nano. */
	int64_t rest = int_len + 9 > 0 ? int_len + 9 : 0;
	bool round_up = false;
	for (int64_t i = rest; (uint64_t)i < d->len && !round_up; i++)
		round_up = d->digits[i] != 0;
	if (round_up && ++nanos == NANO) {
		nanos = 0;
		units++;
	}
	if (units > (uint64_t)INT64_MAX)
		return -1;
	q->units = (int64_t)units;
	q->nanos = (int32_t)nanos;
	return 0;
}

/* The representation ParseQuantity picks (core/go_quantity.h): an
 * int64Amount {digits, scale} when its "precision" estimate leaves room
 * (18 digits for decimal suffixes; 15 - digits - exponent*3/10 - 1 for a
 * binary suffix without a fraction), the scale is at least nano and the
 * binary product fits; an inf.Dec otherwise.  Go's num is "0" when no
 * digit is left after the leading zeros. */
static uint8_t parse_form(const struct qparts *p, const struct qscale *sc)
{
	int64_t num_len = p->num_len ? (int64_t)p->num_len : 1;
	int64_t denom_len = (int64_t)p->denom_len, precision, scale;
	if (sc->base == 10) {
		scale = sc->exponent;
		precision = 18 - (num_len + denom_len);
	} else if (denom_len == 0) {
		scale = 0;
		precision = 15 - num_len - sc->exponent * 3 / 10 - 1;
	} else {
		return QUANTITY_FORM_DEC;
	}
	scale -= denom_len;
	if (precision < 0 || scale < -9)
		return QUANTITY_FORM_DEC;
	uint64_t value = 0;   /* at most 18 digits: fits */
	for (size_t i = 0; i < p->num_len; i++)
		value = value * 10 + (uint64_t)(p->num[i] - '0');
	for (size_t i = 0; i < p->denom_len; i++)
		value = value * 10 + (uint64_t)(p->denom[i] - '0');
	/* a zero keeps its scale: int64Amount {0, -1} for "0.0", which
	 * AsInt64 refuses (CEL's isInteger); sums ignore a zero's scale */
	if (value == 0)
		return (uint8_t)(scale + QUANTITY_FORM_SCALE_BIAS);
	if (sc->base == 2 && value > (uint64_t)INT64_MAX >> sc->exponent)
		return QUANTITY_FORM_DEC;          /* int64Multiply overflows */
	return (uint8_t)(scale + QUANTITY_FORM_SCALE_BIAS);
}

/* Exact value of the parts under the suffix's scale, non-negative. */
static int quantity_from_parts(const struct qparts *p,
			       const struct qscale *sc, struct quantity *out,
			       const char **why)
{
	size_t n = p->num_len + p->denom_len;
	unsigned char *buf = malloc(n + 24);
	if (!buf) {
		fprintf(stderr, "kso: out of memory parsing a quantity\n");
		abort();
	}
	struct decimal d = {buf + 24, 0, 0};
	for (size_t i = 0; i < p->num_len; i++)
		d.digits[d.len++] = (unsigned char)(p->num[i] - '0');
	for (size_t i = 0; i < p->denom_len; i++)
		d.digits[d.len++] = (unsigned char)(p->denom[i] - '0');
	while (d.len > 0 && d.digits[0] == 0) {
		d.digits++;
		d.len--;
	}
	int rc = 0;
	if (d.len == 0) {
		*out = (struct quantity){0, 0, QUANTITY_FORM_SCALE_BIAS};
	} else if (p->negative) {
		rc = qfail(why, ERR_NEGATIVE);
	} else if (sc->base == 10) {
		d.scale = sc->exponent - (int64_t)p->denom_len;
		if (decimal_to_quantity(&d, out) != 0)
			rc = qfail(why, ERR_RANGE);
	} else {
		/* BinarySI: the value times 2^exponent; above 2^63-1 kube caps
		 * it at maxAllowed (2^63-1) instead of failing. */
		decimal_shift_left(&d, (unsigned)sc->exponent);
		d.scale = -(int64_t)p->denom_len;
		if (decimal_to_quantity(&d, out) != 0 ||
		    (out->units == INT64_MAX && out->nanos > 0))
			*out = (struct quantity){INT64_MAX, 0, QUANTITY_FORM_DEC};
	}
	free(buf);
	return rc;
}

int yaml_parse_quantity(const char *s, struct quantity *out, const char **why)
{
	assert(s && out);
	struct qparts p;
	struct qscale sc;
	if (*s == '\0' || split_quantity(s, &p) != 0)
		return qfail(why, ERR_FORMAT);
	if (p.zero_only) {   /* int64Amount{0, 0} */
		*out = (struct quantity){0, 0, QUANTITY_FORM_SCALE_BIAS};
		return 0;
	}
	if (interpret_suffix(p.suffix, p.suffix_len, &sc) != 0)
		return qfail(why, ERR_SUFFIX);
	int rc = quantity_from_parts(&p, &sc, out, why);
	if (rc == 0)
		out->go_form = parse_form(&p, &sc);
	return rc;
}
