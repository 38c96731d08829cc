/*
 * cel_regex.c - the regular expressions of CEL's matches() (cel-go calls
 * Go's regexp.MatchString: RE2 syntax with Go's default Perl flags - `.`
 * stops at a newline, ^ and $ only at the text's ends, case-sensitive)
 * for device selectors whose pattern is a string literal.  kso answers
 * only whether the pattern matches somewhere in the subject, which every
 * RE2 semantics agrees on (leftmost-first or -longest, greedy or lazy
 * only change which match is reported), with a Pike VM over code points:
 * linear, like RE2.
 *
 * The subset: literals (UTF-8), `.`, classes `[...]` (ranges, negation,
 * `[:alpha:]` and the other ASCII classes, Perl classes inside), `\d \D
 * \s \S \w \W`, escapes `\t \n \r \f \v \a \x41 \x{263a}` and escaped
 * punctuation, `^ $ \A \z \b \B`, groups `( )`, `(?: )`, `(?P<n> )` and
 * `(?<n> )`, `|`, and `* + ? {n} {n,} {n,m}` (each with or without a lazy
 * `?`).  Flags, Unicode classes (\p, \pL), \Q...\E, octal escapes and
 * \C are refused, as is any pattern Go would not compile (both refuse the
 * expression; the text is kso's).
 */
#include "cel_internal.h"

#include <stdio.h>
#include <string.h>

#define MAX_REPEAT 1000         /* Go's regexp/syntax maximum repeat count */
#define MAX_PROG 20000          /* kso's bound on the compiled program */
#define MAX_RUNE 0x10FFFF

struct range {
	uint32_t lo, hi;
};

/* A character class: sorted ranges, possibly negated. */
struct cclass {
	struct range *r;
	int n, cap;
	bool neg;
};

enum op { I_CLASS, I_SPLIT, I_JMP, I_BOT, I_EOT, I_WORDB, I_NWORDB, I_MATCH };

struct inst {
	enum op op;
	int x, y;                   /* I_SPLIT: both; I_JMP: x */
	const struct cclass *cls;   /* I_CLASS */
};

struct cel_regex {
	const struct inst *prog;
	int n;
};

/* ------------------------------------------------------------ syntax */

enum rkind { R_EMPTY, R_CLASS, R_BOT, R_EOT, R_WORDB, R_NWORDB, R_CAT, R_ALT, R_REPEAT };

struct rnode {
	enum rkind kind;
	const struct cclass *cls;
	struct rnode **sub;
	int n_sub;
	int min, max;               /* R_REPEAT: max -1 unbounded */
};

struct rparser {
	struct arena *a;
	const char *s;
	size_t n, pos;
	int depth;
	const char *why;
};

static struct rnode *refuse(struct rparser *p, const char *why)
{
	if (!p->why)
		p->why = why;
	return NULL;
}

static void add_range(struct arena *a, struct cclass *c, uint32_t lo, uint32_t hi)
{
	if (c->n == c->cap) {
		int cap = c->cap ? c->cap * 2 : 8;
		struct range *r = arena_array(a, (size_t)cap, sizeof *r);
		if (c->n)
			memcpy(r, c->r, sizeof *r * (size_t)c->n);
		c->r = r;
		c->cap = cap;
	}
	c->r[c->n++] = (struct range){lo, hi};
}

/* The ranges of c, complemented, added to out. */
static void add_negated(struct arena *a, struct cclass *out, const struct range *r, int n)
{
	uint32_t next = 0;
	for (int i = 0; i < n; i++) {
		if (r[i].lo > next)
			add_range(a, out, next, r[i].lo - 1);
		next = r[i].hi + 1;
	}
	if (next <= MAX_RUNE)
		add_range(a, out, next, MAX_RUNE);
}

static const struct range DIGIT[] = {{'0', '9'}};
static const struct range SPACE[] = {{'\t', '\n'}, {'\f', '\r'}, {' ', ' '}};
static const struct range WORD[] = {{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}};

/* A Perl class \d \s \w (upper case: negated) into c; false if x is none. */
static bool perl_class(struct arena *a, struct cclass *c, char x)
{
	const struct range *r;
	int n;
	switch (x | 0x20) {
	case 'd': r = DIGIT; n = 1; break;
	case 's': r = SPACE; n = 3; break;
	case 'w': r = WORD; n = 4; break;
	default: return false;
	}
	if (x >= 'a') {
		for (int i = 0; i < n; i++)
			add_range(a, c, r[i].lo, r[i].hi);
	} else {
		add_negated(a, c, r, n);
	}
	return true;
}

struct posix {
	const char *name;
	struct range r[4];
	int n;
};

static const struct posix POSIX[] = {
	{"alnum", {{'0', '9'}, {'A', 'Z'}, {'a', 'z'}}, 3},
	{"alpha", {{'A', 'Z'}, {'a', 'z'}}, 2},
	{"ascii", {{0, 0x7F}}, 1},
	{"blank", {{'\t', '\t'}, {' ', ' '}}, 2},
	{"cntrl", {{0, 0x1F}, {0x7F, 0x7F}}, 2},
	{"digit", {{'0', '9'}}, 1},
	{"graph", {{'!', '~'}}, 1},
	{"lower", {{'a', 'z'}}, 1},
	{"print", {{' ', '~'}}, 1},
	{"punct", {{'!', '/'}, {':', '@'}, {'[', '`'}, {'{', '~'}}, 4},
	{"space", {{'\t', '\r'}, {' ', ' '}}, 2},
	{"upper", {{'A', 'Z'}}, 1},
	{"word", {{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}}, 4},
	{"xdigit", {{'0', '9'}, {'A', 'F'}, {'a', 'f'}}, 3},
};

/* [:name:] or [:^name:] at p->pos (just past '['): added to c. */
static bool posix_class(struct rparser *p, struct cclass *c)
{
	const char *s = p->s + p->pos;
	size_t left = p->n - p->pos;
	if (left < 4 || s[0] != ':')
		return false;
	bool neg = s[1] == '^';
	const char *name = s + 1 + neg;
	const char *end = memchr(name, ':', left - 1 - (size_t)neg);
	if (!end || (size_t)(end - s) + 1 >= left || end[1] != ']')
		return false;
	for (size_t i = 0; i < sizeof POSIX / sizeof *POSIX; i++) {
		if (strlen(POSIX[i].name) != (size_t)(end - name) ||
		    strncmp(POSIX[i].name, name, (size_t)(end - name)))
			continue;
		if (neg)
			add_negated(p->a, c, POSIX[i].r, POSIX[i].n);
		else
			for (int k = 0; k < POSIX[i].n; k++)
				add_range(p->a, c, POSIX[i].r[k].lo, POSIX[i].r[k].hi);
		p->pos += (size_t)(end - s) + 2;
		return true;
	}
	refuse(p, "invalid character class range");
	return true;
}

static int hex(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : (c | 0x20) >= 'a' && (c | 0x20) <= 'f' ?
	       (c | 0x20) - 'a' + 10 : -1;
}

/* An escape after '\' at p->pos: a code point into *cp (1), a Perl
 * class into c (2, when c is given), an assertion (3: *cp its kind), or
 * 0 (refused). */
static int escape(struct rparser *p, uint32_t *cp, struct cclass *c)
{
	if (p->pos >= p->n) {
		refuse(p, "trailing backslash at end of expression");
		return 0;
	}
	char x = p->s[p->pos++];
	if (c && perl_class(p->a, c, x))
		return 2;
	switch (x) {
	case 't': *cp = '\t'; return 1;
	case 'n': *cp = '\n'; return 1;
	case 'r': *cp = '\r'; return 1;
	case 'f': *cp = '\f'; return 1;
	case 'v': *cp = '\v'; return 1;
	case 'a': *cp = 7; return 1;
	case 'A': *cp = R_BOT; return 3;
	case 'z': *cp = R_EOT; return 3;
	case 'b': *cp = R_WORDB; return 3;
	case 'B': *cp = R_NWORDB; return 3;
	case 'x': {
		uint32_t v = 0;
		if (p->pos < p->n && p->s[p->pos] == '{') {
			size_t i = p->pos + 1;
			int digits = 0;
			for (; i < p->n && hex(p->s[i]) >= 0 && v <= MAX_RUNE; i++, digits++)
				v = v * 16 + (uint32_t)hex(p->s[i]);
			if (!digits || i >= p->n || p->s[i] != '}' || v > MAX_RUNE) {
				refuse(p, "invalid escape sequence");
				return 0;
			}
			p->pos = i + 1;
		} else {
			if (p->pos + 2 > p->n || hex(p->s[p->pos]) < 0 || hex(p->s[p->pos + 1]) < 0) {
				refuse(p, "invalid escape sequence");
				return 0;
			}
			v = (uint32_t)(hex(p->s[p->pos]) * 16 + hex(p->s[p->pos + 1]));
			p->pos += 2;
		}
		*cp = v;
		return 1;
	}
	default:
		break;
	}
	/* Go: an escaped ASCII character that is no letter or digit is
	 * itself */
	if ((unsigned char)x < 0x80 && !(x >= '0' && x <= '9') && !((x | 0x20) >= 'a' &&
	    (x | 0x20) <= 'z')) {
		*cp = (uint32_t)x;
		return 1;
	}
	refuse(p, "an escape sequence outside kso's regular expressions (\\p, \\Q, octal, ...)");
	return 0;
}

static struct cclass *new_class(struct arena *a)
{
	return arena_alloc(a, sizeof(struct cclass));
}

static struct rnode *rnode(struct arena *a, enum rkind k)
{
	struct rnode *r = arena_alloc(a, sizeof *r);
	r->kind = k;
	return r;
}

static struct rnode *class_node(struct arena *a, struct cclass *c)
{
	struct rnode *r = rnode(a, R_CLASS);
	r->cls = c;
	return r;
}

/* [...] with p->pos just past '['. */
static struct rnode *bracket(struct rparser *p)
{
	struct cclass *c = new_class(p->a);
	if (p->pos < p->n && p->s[p->pos] == '^') {
		c->neg = true;
		p->pos++;
	}
	bool first = true;
	for (;;) {
		if (p->pos >= p->n)
			return refuse(p, "missing closing ]");
		char ch = p->s[p->pos];
		if (ch == ']' && !first) {
			p->pos++;
			break;
		}
		first = false;
		if (ch == '[' && p->pos + 1 < p->n && p->s[p->pos + 1] == ':') {
			p->pos++;
			if (posix_class(p, c)) {
				if (p->why)
					return NULL;
				continue;
			}
			p->pos--;
		}
		uint32_t lo;
		if (ch == '\\') {
			p->pos++;
			int k = escape(p, &lo, c);
			if (k == 0)
				return NULL;
			if (k == 2)
				continue;
			if (k == 3)
				return refuse(p, "invalid escape sequence");
		} else {
			size_t w;
			lo = cel_utf8_decode(p->s + p->pos, p->n - p->pos, &w);
			p->pos += w;
		}
		uint32_t hi = lo;
		if (p->pos + 1 < p->n && p->s[p->pos] == '-' && p->s[p->pos + 1] != ']') {
			p->pos++;
			if (p->s[p->pos] == '\\') {
				p->pos++;
				if (escape(p, &hi, NULL) != 1)
					return refuse(p, "invalid character class range");
			} else {
				size_t w;
				hi = cel_utf8_decode(p->s + p->pos, p->n - p->pos, &w);
				p->pos += w;
			}
			if (hi < lo)
				return refuse(p, "invalid character class range");
		}
		add_range(p->a, c, lo, hi);
	}
	return class_node(p->a, c);
}

static struct rnode *parse_alt(struct rparser *p);
static bool braces(struct rparser *p, int *min, int *max);

/* A group with p->pos just past '('. */
static struct rnode *group(struct rparser *p)
{
	if (p->pos < p->n && p->s[p->pos] == '?') {
		const char *s = p->s + p->pos;
		size_t left = p->n - p->pos;
		if (left >= 2 && s[1] == ':') {
			p->pos += 2;
		} else if ((left >= 3 && s[1] == 'P' && s[2] == '<') || (left >= 2 && s[1] == '<')) {
			size_t i = p->pos + (s[1] == 'P' ? 3 : 2), start = i;
			for (; i < p->n && (p->s[i] == '_' || (p->s[i] >= '0' && p->s[i] <= '9') ||
					    ((p->s[i] | 0x20) >= 'a' && (p->s[i] | 0x20) <= 'z')); i++)
				;
			if (i == start || i >= p->n || p->s[i] != '>')
				return refuse(p, "invalid named capture");
			p->pos = i + 1;
		} else {
			return refuse(p, "regular expression flags (?i) and the like are outside "
				      "kso's regular expressions");
		}
	}
	struct rnode *r = parse_alt(p);
	if (!r)
		return NULL;
	if (p->pos >= p->n || p->s[p->pos] != ')')
		return refuse(p, "missing closing )");
	p->pos++;
	return r;
}

static struct rnode *atom(struct rparser *p)
{
	char ch = p->s[p->pos];
	switch (ch) {
	case '(':
		if (++p->depth > 1000)
			return refuse(p, "expression nests too deeply");
		p->pos++;
		struct rnode *g = group(p);
		p->depth--;
		return g;
	case '[':
		p->pos++;
		return bracket(p);
	case '.': {
		p->pos++;
		struct cclass *c = new_class(p->a);
		add_range(p->a, c, 0, '\n' - 1);
		add_range(p->a, c, '\n' + 1, MAX_RUNE);
		return class_node(p->a, c);
	}
	case '^':
		p->pos++;
		return rnode(p->a, R_BOT);
	case '$':
		p->pos++;
		return rnode(p->a, R_EOT);
	case '\\': {
		p->pos++;
		struct cclass *c = new_class(p->a);
		uint32_t cp;
		int k = escape(p, &cp, c);
		if (k == 0)
			return NULL;
		if (k == 2)
			return class_node(p->a, c);
		if (k == 3)
			return rnode(p->a, (enum rkind)cp);
		add_range(p->a, c, cp, cp);
		return class_node(p->a, c);
	}
	case '*': case '+': case '?':
		return refuse(p, "missing argument to repetition operator");
	case '{': {
		/* a brace that reads as a repeat count repeats nothing: Go
		 * refuses it; any other brace is a literal */
		size_t at = p->pos;
		int min, max;
		if (braces(p, &min, &max))
			return refuse(p, "missing argument to repetition operator");
		p->pos = at + 1;
		struct cclass *c = new_class(p->a);
		add_range(p->a, c, '{', '{');
		return class_node(p->a, c);
	}
	default: {
		size_t w;
		uint32_t cp = cel_utf8_decode(p->s + p->pos, p->n - p->pos, &w);
		p->pos += w;
		struct cclass *c = new_class(p->a);
		add_range(p->a, c, cp, cp);
		return class_node(p->a, c);
	}
	}
}

/* {n}, {n,} or {n,m} at p->pos: true with the counts (and p->pos past
 * it); false when the brace is a literal, as Go reads it. */
static bool braces(struct rparser *p, int *min, int *max)
{
	size_t i = p->pos + 1;
	long lo = 0, hi;
	int digits = 0;
	for (; i < p->n && p->s[i] >= '0' && p->s[i] <= '9'; i++, digits++)
		if (lo <= 100000)
			lo = lo * 10 + (p->s[i] - '0');
	if (!digits || i >= p->n)
		return false;
	if (p->s[i] == '}') {
		hi = lo;
	} else if (p->s[i] == ',') {
		i++;
		if (i < p->n && p->s[i] == '}') {
			hi = -1;
		} else {
			hi = 0;
			digits = 0;
			for (; i < p->n && p->s[i] >= '0' && p->s[i] <= '9'; i++, digits++)
				if (hi <= 100000)
					hi = hi * 10 + (p->s[i] - '0');
			if (!digits || i >= p->n || p->s[i] != '}')
				return false;
		}
	} else {
		return false;
	}
	p->pos = i + 1;
	*min = (int)(lo > MAX_REPEAT + 1 ? MAX_REPEAT + 1 : lo);
	*max = hi < 0 ? -1 : (int)(hi > MAX_REPEAT + 1 ? MAX_REPEAT + 1 : hi);
	return true;
}

static struct rnode *repeat(struct rparser *p, struct rnode *x)
{
	while (p->pos < p->n) {
		char ch = p->s[p->pos];
		int min, max;
		if (ch == '*' || ch == '+' || ch == '?') {
			min = ch == '+';
			max = ch == '?' ? 1 : -1;
			p->pos++;
		} else if (ch == '{' && braces(p, &min, &max)) {
			if (min > MAX_REPEAT || max > MAX_REPEAT || (max >= 0 && max < min))
				return refuse(p, "invalid repeat count");
		} else {
			break;
		}
		if (p->pos < p->n && p->s[p->pos] == '?')
			p->pos++;   /* lazy: the same answer to "is there a match" */
		/* Go refuses a repetition of a repetition (a**, a{2}*) */
		if (x->kind == R_REPEAT)
			return refuse(p, "invalid nested repetition operator");
		struct rnode *r = rnode(p->a, R_REPEAT);
		r->sub = arena_alloc(p->a, sizeof *r->sub);
		r->sub[0] = x;
		r->n_sub = 1;
		r->min = min;
		r->max = max;
		x = r;
	}
	return x;
}

static struct rnode *parse_cat(struct rparser *p)
{
	struct rnode *cat = rnode(p->a, R_CAT);
	int cap = 0;
	while (p->pos < p->n && p->s[p->pos] != '|' && p->s[p->pos] != ')') {
		struct rnode *x = atom(p);
		if (!x || !(x = repeat(p, x)))
			return NULL;
		if (cat->n_sub == cap) {
			cap = cap ? cap * 2 : 4;
			struct rnode **v = arena_array(p->a, (size_t)cap, sizeof *v);
			if (cat->n_sub)
				memcpy(v, cat->sub, sizeof *v * (size_t)cat->n_sub);
			cat->sub = v;
		}
		cat->sub[cat->n_sub++] = x;
	}
	return cat;
}

static struct rnode *parse_alt(struct rparser *p)
{
	struct rnode *alt = rnode(p->a, R_ALT);
	int cap = 0;
	for (;;) {
		struct rnode *x = parse_cat(p);
		if (!x)
			return NULL;
		if (alt->n_sub == cap) {
			cap = cap ? cap * 2 : 4;
			struct rnode **v = arena_array(p->a, (size_t)cap, sizeof *v);
			if (alt->n_sub)
				memcpy(v, alt->sub, sizeof *v * (size_t)alt->n_sub);
			alt->sub = v;
		}
		alt->sub[alt->n_sub++] = x;
		if (p->pos >= p->n || p->s[p->pos] != '|')
			return alt;
		p->pos++;
	}
}

/* ----------------------------------------------------------- program */

struct compiler {
	struct arena *a;
	struct inst *prog;
	int n, cap;
	bool too_big;
};

static int emit(struct compiler *k, enum op op)
{
	if (k->n == MAX_PROG) {
		k->too_big = true;
		return k->n - 1;
	}
	if (k->n == k->cap) {
		int cap = k->cap ? k->cap * 2 : 32;
		struct inst *v = arena_array(k->a, (size_t)cap, sizeof *v);
		if (k->n)
			memcpy(v, k->prog, sizeof *v * (size_t)k->n);
		k->prog = v;
		k->cap = cap;
	}
	k->prog[k->n] = (struct inst){op, 0, 0, NULL};
	return k->n++;
}

static void gen(struct compiler *k, const struct rnode *r);

/* x? : split(x, next) */
static void gen_optional(struct compiler *k, const struct rnode *x)
{
	int s = emit(k, I_SPLIT);
	k->prog[s].x = k->n;
	gen(k, x);
	k->prog[s].y = k->n;
}

/* x* : L: split(x then jmp L, next) */
static void gen_star(struct compiler *k, const struct rnode *x)
{
	int s = emit(k, I_SPLIT);
	k->prog[s].x = k->n;
	gen(k, x);
	int j = emit(k, I_JMP);
	k->prog[j].x = s;
	k->prog[s].y = k->n;
}

static void gen(struct compiler *k, const struct rnode *r)
{
	if (k->too_big)
		return;
	switch (r->kind) {
	case R_EMPTY:
		return;
	case R_CLASS: {
		int i = emit(k, I_CLASS);   /* emit may move k->prog */
		k->prog[i].cls = r->cls;
		return;
	}
	case R_BOT: emit(k, I_BOT); return;
	case R_EOT: emit(k, I_EOT); return;
	case R_WORDB: emit(k, I_WORDB); return;
	case R_NWORDB: emit(k, I_NWORDB); return;
	case R_CAT:
		for (int i = 0; i < r->n_sub; i++)
			gen(k, r->sub[i]);
		return;
	case R_ALT: {
		if (r->n_sub == 1) {
			gen(k, r->sub[0]);
			return;
		}
		/* split(a, split(b, ...)), each branch jumping to the end */
		int jumps[64], nj = 0;
		int *jv = r->n_sub <= 64 ? jumps : arena_array(k->a, (size_t)r->n_sub, sizeof *jv);
		for (int i = 0; i < r->n_sub; i++) {
			int s = -1;
			if (i + 1 < r->n_sub) {
				s = emit(k, I_SPLIT);
				k->prog[s].x = k->n;
			}
			gen(k, r->sub[i]);
			if (i + 1 < r->n_sub) {
				jv[nj++] = emit(k, I_JMP);
				k->prog[s].y = k->n;
			}
		}
		for (int i = 0; i < nj; i++)
			k->prog[jv[i]].x = k->n;
		return;
	}
	case R_REPEAT: {
		const struct rnode *x = r->sub[0];
		for (int i = 0; i < r->min && !k->too_big; i++)
			gen(k, x);
		if (r->max < 0) {
			gen_star(k, x);
			return;
		}
		for (int i = r->min; i < r->max && !k->too_big; i++)
			gen_optional(k, x);
		return;
	}
	}
}

const struct cel_regex *cel_regex_compile(struct arena *a, const char *pat, size_t n,
					  const char **why)
{
	struct rparser p = {a, pat, n, 0, 0, NULL};
	struct rnode *r = parse_alt(&p);
	if (r && p.pos < p.n)
		r = refuse(&p, "unexpected )");
	if (!r) {
		*why = p.why;
		return NULL;
	}
	struct compiler k = {a, NULL, 0, 0, false};
	gen(&k, r);
	emit(&k, I_MATCH);
	if (k.too_big) {
		*why = "the regular expression is too large for kso";
		return NULL;
	}
	struct cel_regex *re = arena_alloc(a, sizeof *re);
	re->prog = k.prog;
	re->n = k.n;
	return re;
}

/* ----------------------------------------------------------- matching */

static bool in_class(const struct cclass *c, uint32_t cp)
{
	bool in = false;
	for (int i = 0; i < c->n && !in; i++)
		in = cp >= c->r[i].lo && cp <= c->r[i].hi;
	return in != c->neg;
}

static bool is_word(int32_t cp)
{
	return cp == '_' || (cp >= '0' && cp <= '9') || (cp >= 'a' && cp <= 'z') ||
	       (cp >= 'A' && cp <= 'Z');
}

struct thread_set {
	int *list;
	unsigned char *on;
	int n;
};

/* Adds pc and what it reaches without reading a code point at the
 * position between prev and next (-1 at the text's ends). */
static bool add_thread(const struct cel_regex *re, struct thread_set *s, int *stack, int pc,
		       int32_t prev, int32_t next)
{
	int sp = 0;
	stack[sp++] = pc;
	while (sp) {
		pc = stack[--sp];
		if (s->on[pc])
			continue;
		s->on[pc] = 1;
		const struct inst *in = &re->prog[pc];
		switch (in->op) {
		case I_MATCH:
			return true;
		case I_CLASS:
			s->list[s->n++] = pc;
			break;
		case I_JMP:
			stack[sp++] = in->x;
			break;
		case I_SPLIT:
			stack[sp++] = in->y;
			stack[sp++] = in->x;
			break;
		case I_BOT:
			if (prev < 0)
				stack[sp++] = pc + 1;
			break;
		case I_EOT:
			if (next < 0)
				stack[sp++] = pc + 1;
			break;
		case I_WORDB: case I_NWORDB: {
			bool b = is_word(prev) != is_word(next);
			if (b == (in->op == I_WORDB))
				stack[sp++] = pc + 1;
			break;
		}
		}
	}
	return false;
}

bool cel_regex_search(struct arena *a, const struct cel_regex *re, const char *s, size_t n)
{
	struct thread_set cur = {arena_array(a, (size_t)re->n, sizeof(int)),
				 arena_array(a, (size_t)re->n, 1), 0};
	struct thread_set nxt = {arena_array(a, (size_t)re->n, sizeof(int)),
				 arena_array(a, (size_t)re->n, 1), 0};
	/* a split pushes two: the stack never holds more than 2n */
	int *stack = arena_array(a, (size_t)re->n * 2 + 2, sizeof(int));
	int32_t prev = -1;
	size_t pos = 0;
	for (;;) {
		size_t w = 0;
		int32_t cp = pos < n ? (int32_t)cel_utf8_decode(s + pos, n - pos, &w) : -1;
		/* unanchored: a new thread at every position */
		if (add_thread(re, &cur, stack, 0, prev, cp))
			return true;
		if (cp < 0)
			return false;
		size_t after = pos + w;
		int32_t cp2 = -1;
		if (after < n) {
			size_t w2;
			cp2 = (int32_t)cel_utf8_decode(s + after, n - after, &w2);
		}
		memset(nxt.on, 0, (size_t)re->n);
		nxt.n = 0;
		for (int i = 0; i < cur.n; i++) {
			const struct inst *in = &re->prog[cur.list[i]];
			if (in_class(in->cls, (uint32_t)cp) &&
			    add_thread(re, &nxt, stack, cur.list[i] + 1, cp, cp2))
				return true;
		}
		struct thread_set t = cur;
		cur = nxt;
		nxt = t;
		prev = cp;
		pos = after;
	}
}
