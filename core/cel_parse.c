/*
 * cel_parse.c - the CEL lexer and parser (the CEL language definition's
 * grammar: Expr, ConditionalOr, ConditionalAnd, Relation, Addition,
 * Multiplication, Unary, Member, Primary) into struct cel_node trees.
 *
 * The lexer reads every token CEL has; literals kso does not evaluate
 * (doubles, uints, bytes, null) and map literals are refused here with
 * their position, so no tree ever holds them.
 */
#include "cel_internal.h"

#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* CEL's maximum recursion of the parser (cel-go: 250 by default; kso
 * refuses earlier than that only beyond this depth). */
#define MAX_DEPTH 200

enum tok {
	T_EOF, T_IDENT, T_INT, T_UINT, T_DOUBLE, T_STRING,
	T_LPAREN, T_RPAREN, T_LBRACK, T_RBRACK, T_DOT, T_COMMA,
	T_QUESTION, T_COLON, T_NOT, T_AND, T_OR,
	T_EQ, T_NE, T_LT, T_LE, T_GT, T_GE, T_IN,
	T_PLUS, T_MINUS, T_STAR, T_SLASH, T_PERCENT
};

struct parser {
	struct arena *a;
	const char *src;
	size_t pos;                 /* next byte */
	int line;
	size_t line_start;          /* byte offset of the line's start */
	struct cel_error *err;
	int depth;
	/* the current token */
	enum tok t;
	int t_line, t_col;
	const char *t_text;         /* ident name, string value (arena) */
	size_t t_len;
	int64_t t_int;              /* T_INT: the magnitude, as uint64 bits */
	uint64_t t_uint;
	double t_double;            /* T_DOUBLE */
};

static int col_of(const struct parser *p, size_t at)
{
	/* 1-based, in code points as cel-go counts them */
	int col = 1;
	for (size_t i = p->line_start; i < at; i++)
		if (((unsigned char)p->src[i] & 0xC0) != 0x80)
			col++;
	return col;
}

static int fail_at(struct parser *p, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int fail_at(struct parser *p, int line, int col, const char *fmt, ...)
{
	if (p->err->msg[0])
		return -1;
	p->err->line = line;
	p->err->col = col;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(p->err->msg, sizeof p->err->msg, fmt, ap);
	va_end(ap);
	return -1;
}

#define FAIL_HERE(p, ...) fail_at((p), (p)->line, col_of((p), (p)->pos), __VA_ARGS__)
#define FAIL_TOK(p, ...) fail_at((p), (p)->t_line, (p)->t_col, __VA_ARGS__)

/* ------------------------------------------------------------ lexer */

static bool is_ident_start(int c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static int hex_val(int c)
{
	if (is_digit(c))
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static void newline(struct parser *p)
{
	p->line++;
	p->line_start = p->pos;
}

static void skip_space(struct parser *p)
{
	for (;;) {
		char c = p->src[p->pos];
		if (c == '\n') {
			p->pos++;
			newline(p);
		} else if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
			p->pos++;
		} else if (c == '/' && p->src[p->pos + 1] == '/') {
			while (p->src[p->pos] && p->src[p->pos] != '\n')
				p->pos++;
		} else {
			return;
		}
	}
}

static const char *const reserved[] = {
	"as", "break", "const", "continue", "else", "for", "function", "if",
	"import", "let", "loop", "package", "namespace", "return", "var",
	"void", "while",
};

/* Appends code point cp as UTF-8 to buf at *n (room for 4 bytes). */
static int put_utf8(char *buf, size_t *n, uint32_t cp)
{
	if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		return -1;
	if (cp < 0x80) {
		buf[(*n)++] = (char)cp;
	} else if (cp < 0x800) {
		buf[(*n)++] = (char)(0xC0 | (cp >> 6));
		buf[(*n)++] = (char)(0x80 | (cp & 0x3F));
	} else if (cp < 0x10000) {
		buf[(*n)++] = (char)(0xE0 | (cp >> 12));
		buf[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3F));
		buf[(*n)++] = (char)(0x80 | (cp & 0x3F));
	} else {
		buf[(*n)++] = (char)(0xF0 | (cp >> 18));
		buf[(*n)++] = (char)(0x80 | ((cp >> 12) & 0x3F));
		buf[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3F));
		buf[(*n)++] = (char)(0x80 | (cp & 0x3F));
	}
	return 0;
}

/* One escape sequence after the backslash at p->pos; appends its value. */
static int lex_escape(struct parser *p, char *buf, size_t *n)
{
	size_t at = p->pos - 1;
	char c = p->src[p->pos++];
	static const char simple_in[] = "abfnrtv\\?\"'`";
	static const char simple_out[] = "\a\b\f\n\r\t\v\\?\"'`";
	const char *s = c ? strchr(simple_in, c) : NULL;
	if (s) {
		buf[(*n)++] = simple_out[s - simple_in];
		return 0;
	}
	int digits = c == 'x' || c == 'X' ? 2 : c == 'u' ? 4 : c == 'U' ? 8 : 0;
	if (digits) {
		uint32_t v = 0;
		for (int i = 0; i < digits; i++) {
			int h = hex_val(p->src[p->pos]);
			if (h < 0)
				return fail_at(p, p->line, col_of(p, at), "invalid escape sequence");
			v = v * 16 + (uint32_t)h;
			p->pos++;
		}
		if (digits == 2) {
			/* \xHH in a string is the code point U+00HH */
			return put_utf8(buf, n, v);
		}
		if (put_utf8(buf, n, v) < 0)
			return fail_at(p, p->line, col_of(p, at), "invalid unicode code point");
		return 0;
	}
	if (c >= '0' && c <= '3' && p->src[p->pos] >= '0' && p->src[p->pos] <= '7' &&
	    p->src[p->pos + 1] >= '0' && p->src[p->pos + 1] <= '7') {
		uint32_t v = (uint32_t)(c - '0') * 64 + (uint32_t)(p->src[p->pos] - '0') * 8 +
			     (uint32_t)(p->src[p->pos + 1] - '0');
		p->pos += 2;
		return put_utf8(buf, n, v);
	}
	return fail_at(p, p->line, col_of(p, at), "invalid escape sequence");
}

/* A string literal starting at p->pos (after any r prefix). */
static int lex_string(struct parser *p, bool raw)
{
	char q = p->src[p->pos];
	bool triple = p->src[p->pos + 1] == q && p->src[p->pos + 2] == q;
	size_t start = p->pos;
	p->pos += triple ? 3 : 1;
	size_t cap = strlen(p->src + p->pos) * 2 + 8;
	char *buf = arena_alloc(p->a, cap);
	size_t n = 0;
	for (;;) {
		char c = p->src[p->pos];
		if (!c || (!triple && (c == '\n' || c == '\r')))
			return fail_at(p, p->t_line, p->t_col, "unterminated string literal");
		if (c == q && (!triple || (p->src[p->pos + 1] == q && p->src[p->pos + 2] == q))) {
			p->pos += triple ? 3 : 1;
			break;
		}
		p->pos++;
		if (c == '\n')
			newline(p);
		if (c == '\\' && !raw) {
			if (lex_escape(p, buf, &n) < 0)
				return -1;
			continue;
		}
		buf[n++] = c;
	}
	(void)start;
	buf[n] = '\0';
	p->t = T_STRING;
	p->t_text = buf;
	p->t_len = n;
	return 0;
}

/* CEL's NUM_INT, NUM_UINT and NUM_FLOAT: digits or 0x and hex digits,
 * with u for a uint; a double is DIGITS '.' DIGITS EXP?, DIGITS EXP or
 * '.' DIGITS EXP? (EXP: e, a sign, digits), its value Go's
 * strconv.ParseFloat - an overflow is cel-go's invalid literal, an
 * underflow the nearest double. */
static int lex_number(struct parser *p)
{
	size_t start = p->pos;
	const char *s = p->src;
	bool hex = s[p->pos] == '0' && (s[p->pos + 1] == 'x' || s[p->pos + 1] == 'X');
	uint64_t v = 0;
	bool overflow = false;
	if (hex) {
		p->pos += 2;
		if (hex_val(s[p->pos]) < 0)
			return FAIL_TOK(p, "invalid int literal");
		for (int h; (h = hex_val(s[p->pos])) >= 0; p->pos++) {
			overflow |= v > (UINT64_MAX >> 4);
			v = v * 16 + (uint64_t)h;
		}
	} else {
		for (; is_digit(s[p->pos]); p->pos++) {
			uint64_t d = (uint64_t)(s[p->pos] - '0');
			overflow |= v > (UINT64_MAX - d) / 10;
			v = v * 10 + d;
		}
		size_t q = p->pos;
		bool frac = s[q] == '.' && is_digit(s[q + 1]);
		if (frac)
			for (q++; is_digit(s[q]); q++)
				;
		size_t e = q;
		if (s[e] == 'e' || s[e] == 'E') {
			e++;
			if (s[e] == '+' || s[e] == '-')
				e++;
			if (is_digit(s[e])) {
				while (is_digit(s[e]))
					e++;
				q = e;
				frac = true;
			}
		}
		if (frac) {
			char *text = arena_strndup(p->a, s + start, q - start);
			double d = strtod(text, NULL);
			if (isinf(d))
				return FAIL_TOK(p, "invalid double literal");
			p->pos = q;
			p->t = T_DOUBLE;
			p->t_double = d;
			return 0;
		}
	}
	if (s[p->pos] == 'u' || s[p->pos] == 'U') {
		p->pos++;
		if (overflow)
			return FAIL_TOK(p, "invalid uint literal");
		p->t = T_UINT;
		p->t_uint = v;
		return 0;
	}
	p->t = T_INT;
	p->t_uint = overflow ? UINT64_MAX : v;
	return 0;
}

static int lex_ident(struct parser *p)
{
	size_t start = p->pos;
	while (is_ident_start(p->src[p->pos]) || is_digit(p->src[p->pos]))
		p->pos++;
	size_t n = p->pos - start;
	const char *s = p->src + start;
	char q = p->src[p->pos];
	if (n == 1 && (*s == 'r' || *s == 'R') && (q == '"' || q == '\''))
		return lex_string(p, true);
	if (n == 1 && (*s == 'b' || *s == 'B') && (q == '"' || q == '\''))
		return FAIL_TOK(p, "bytes literals are outside kso's CEL subset");
	if (n == 2 && (q == '"' || q == '\'') && strchr("rRbB", s[0]) && strchr("rRbB", s[1]))
		return FAIL_TOK(p, "bytes literals are outside kso's CEL subset");
	p->t_text = arena_strndup(p->a, s, n);
	p->t_len = n;
	if (!strcmp(p->t_text, "in")) {
		p->t = T_IN;
		return 0;
	}
	if (!strcmp(p->t_text, "null"))
		return FAIL_TOK(p, "null is outside kso's CEL subset");
	for (size_t i = 0; i < sizeof reserved / sizeof *reserved; i++)
		if (!strcmp(p->t_text, reserved[i]))
			return FAIL_TOK(p, "reserved identifier: %s", p->t_text);
	p->t = T_IDENT;
	return 0;
}

static int lex_op(struct parser *p)
{
	static const struct {
		const char *s;
		enum tok t;
	} ops[] = {
		{"==", T_EQ}, {"!=", T_NE}, {"<=", T_LE}, {">=", T_GE},
		{"&&", T_AND}, {"||", T_OR},
		{"<", T_LT}, {">", T_GT}, {"!", T_NOT}, {"(", T_LPAREN},
		{")", T_RPAREN}, {"[", T_LBRACK}, {"]", T_RBRACK}, {".", T_DOT},
		{",", T_COMMA}, {"?", T_QUESTION}, {":", T_COLON}, {"+", T_PLUS},
		{"-", T_MINUS}, {"*", T_STAR}, {"/", T_SLASH}, {"%", T_PERCENT},
	};
	for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) {
		size_t n = strlen(ops[i].s);
		if (!strncmp(p->src + p->pos, ops[i].s, n)) {
			p->pos += n;
			p->t = ops[i].t;
			return 0;
		}
	}
	char c = p->src[p->pos];
	if (c == '{' || c == '}')
		return FAIL_TOK(p, "map and message literals are outside kso's CEL subset");
	if ((unsigned char)c < 0x20 || (unsigned char)c >= 0x7F)
		return FAIL_TOK(p, "token recognition error at: '\\x%02x'", (unsigned char)c);
	return FAIL_TOK(p, "token recognition error at: '%c'", c);
}

static int next(struct parser *p)
{
	skip_space(p);
	p->t_line = p->line;
	p->t_col = col_of(p, p->pos);
	char c = p->src[p->pos];
	if (!c) {
		p->t = T_EOF;
		return 0;
	}
	if (c == '"' || c == '\'')
		return lex_string(p, false);
	if (is_digit(c) || (c == '.' && is_digit(p->src[p->pos + 1])))
		return lex_number(p);
	if (is_ident_start(c))
		return lex_ident(p);
	return lex_op(p);
}

/* ----------------------------------------------------------- parser */

static struct cel_node *node(struct parser *p, enum cel_node_kind k, int line, int col)
{
	struct cel_node *n = arena_alloc(p->a, sizeof *n);
	n->kind = k;
	n->line = line;
	n->col = col;
	return n;
}

static struct cel_node *parse_expr(struct parser *p);

static bool accept(struct parser *p, enum tok t, int *rc)
{
	if (p->t != t)
		return false;
	*rc = next(p);
	return true;
}

static int expect(struct parser *p, enum tok t, const char *what)
{
	if (p->t != t)
		return FAIL_TOK(p, "syntax error: expected %s", what);
	return next(p);
}

/* Arguments up to the closing token (after the opening one). */
static int parse_args(struct parser *p, enum tok close, struct cel_node ***out, int *n)
{
	struct cel_node **v = NULL;
	int count = 0, cap = 0, rc = 0;
	*out = NULL;
	*n = 0;
	while (p->t != close) {
		struct cel_node *e = parse_expr(p);
		if (!e)
			return -1;
		if (count == cap) {
			cap = cap ? cap * 2 : 4;
			struct cel_node **nv = arena_array(p->a, (size_t)cap, sizeof *nv);
			if (count)
				memcpy(nv, v, (size_t)count * sizeof *nv);
			v = nv;
		}
		v[count++] = e;
		if (!accept(p, T_COMMA, &rc))
			break;
		if (rc < 0)
			return -1;
	}
	if (rc < 0 || expect(p, close, close == T_RPAREN ? "')'" : "']'") < 0)
		return -1;
	*out = v;
	*n = count;
	return 0;
}

/* cel.bind(var, init, body) (cel-go's ext.Bindings, in kube's device
 * environment since v1.31): a comprehension over an empty range whose
 * accumulator var is init.  cel-go's folder evaluates that accumulator
 * on the body's first use of var, once, in the scope enclosing the bind
 * (an init that fails is no error when unused): CN_BIND keeps var, the
 * body (a) and init (b) apart, the checker gives var a slot, and the
 * evaluator keeps init pending in it. */
static struct cel_node *expand_bind(struct parser *p, struct cel_node *n)
{
	if (n->args[0]->kind != CN_IDENT) {
		fail_at(p, n->args[0]->line, n->args[0]->col,
			"cel.bind() variable names must be simple identifiers");
		return NULL;
	}
	struct cel_node *b = node(p, CN_BIND, n->line, n->col);
	b->name = n->args[0]->name;
	b->a = n->args[2];
	b->b = n->args[1];
	return b;
}

/* The one-variable macros of cel-go's parser (AllMacro, ExistsMacro,
 * ExistsOneMacro and ExistsOneMacroNew, MapMacro, MapFilterMacro,
 * FilterMacro): receiver-style
 * calls whose first argument names the variable; -1 if n is none. */
static int macro_of(const struct cel_node *n)
{
	static const struct {
		const char *name;
		int n_args;
		enum cel_comp comp;
	} macros[] = {
		{"all", 2, COMP_ALL}, {"exists", 2, COMP_EXISTS},
		{"exists_one", 2, COMP_EXISTS_ONE}, {"existsOne", 2, COMP_EXISTS_ONE},
		{"filter", 2, COMP_FILTER},
		{"map", 2, COMP_MAP}, {"map", 3, COMP_MAP},
	};
	if (!n->a)
		return -1;
	for (size_t i = 0; i < sizeof macros / sizeof *macros; i++)
		if (!strcmp(macros[i].name, n->name) && macros[i].n_args == n->n_args)
			return (int)macros[i].comp;
	return -1;
}

static struct cel_node *expand_macro(struct parser *p, struct cel_node *n, enum cel_comp comp)
{
	const struct cel_node *v = n->args[0];
	if (v->kind != CN_IDENT) {
		fail_at(p, v->line, v->col, comp == COMP_MAP || comp == COMP_FILTER ?
			"argument is not an identifier" : "argument must be a simple name");
		return NULL;
	}
	if (!strcmp(v->name, "__result__")) {
		fail_at(p, v->line, v->col, "iteration variable overwrites accumulator variable");
		return NULL;
	}
	struct cel_node *m = node(p, CN_COMP, n->line, n->col);
	m->comp = comp;
	m->name = n->args[0]->name;
	m->a = n->a;
	m->b = n->args[1];
	m->c = n->n_args == 3 ? n->args[2] : NULL;
	return m;
}

static struct cel_node *parse_call(struct parser *p, struct cel_node *recv,
				   const char *name, int line, int col)
{
	struct cel_node *n = node(p, CN_CALL, line, col);
	n->a = recv;
	n->name = name;
	if (parse_args(p, T_RPAREN, &n->args, &n->n_args) < 0)
		return NULL;
	if (recv && recv->kind == CN_IDENT && !strcmp(recv->name, "cel") &&
	    !strcmp(name, "bind") && n->n_args == 3)
		return expand_bind(p, n);
	int comp = macro_of(n);
	if (comp >= 0)
		return expand_macro(p, n, (enum cel_comp)comp);
	if (!recv && !strcmp(name, "has")) {
		if (n->n_args != 1 || n->args[0]->kind != CN_SELECT) {
			/* cel-go names the argument's place */
			fail_at(p, n->n_args ? n->args[0]->line : line,
				n->n_args ? n->args[0]->col : col, "invalid argument to has() macro");
			return NULL;
		}
		struct cel_node *h = n->args[0];
		h->kind = CN_HAS;
		return h;
	}
	return n;
}

static struct cel_node *parse_primary(struct parser *p)
{
	int line = p->t_line, col = p->t_col, rc = 0;
	switch (p->t) {
	case T_INT: {
		if (p->t_uint > (uint64_t)INT64_MAX) {
			FAIL_TOK(p, "invalid int literal");
			return NULL;
		}
		struct cel_node *n = node(p, CN_CONST, line, col);
		n->lit.kind = CV_INT;
		n->lit.u.i = (int64_t)p->t_uint;
		return next(p) < 0 ? NULL : n;
	}
	case T_UINT: case T_DOUBLE: {
		struct cel_node *n = node(p, CN_CONST, line, col);
		n->lit = p->t == T_UINT ? cel_vuint(p->t_uint) : cel_vdouble(p->t_double);
		return next(p) < 0 ? NULL : n;
	}
	case T_STRING: {
		struct cel_node *n = node(p, CN_CONST, line, col);
		n->lit.kind = CV_STRING;
		n->lit.u.str.s = p->t_text;
		n->lit.u.str.n = p->t_len;
		return next(p) < 0 ? NULL : n;
	}
	case T_IDENT: {
		const char *name = p->t_text;
		if (next(p) < 0)
			return NULL;
		if (!strcmp(name, "true") || !strcmp(name, "false")) {
			struct cel_node *n = node(p, CN_CONST, line, col);
			n->lit.kind = CV_BOOL;
			n->lit.u.b = name[0] == 't';
			return n;
		}
		/* a call at its '(', as cel-go places it */
		int pl = p->t_line, pc = p->t_col;
		if (accept(p, T_LPAREN, &rc))
			return rc < 0 ? NULL : parse_call(p, NULL, name, pl, pc);
		struct cel_node *n = node(p, CN_IDENT, line, col);
		n->name = name;
		return n;
	}
	case T_LPAREN: {
		if (next(p) < 0)
			return NULL;
		struct cel_node *e = parse_expr(p);
		if (!e || expect(p, T_RPAREN, "')'") < 0)
			return NULL;
		return e;
	}
	case T_LBRACK: {
		if (next(p) < 0)
			return NULL;
		struct cel_node *n = node(p, CN_LIST, line, col);
		return parse_args(p, T_RBRACK, &n->args, &n->n_args) < 0 ? NULL : n;
	}
	case T_DOT:
		FAIL_TOK(p, "leading-dot identifiers are outside kso's CEL subset");
		return NULL;
	case T_EOF:
		FAIL_TOK(p, "syntax error: unexpected end of expression");
		return NULL;
	default:
		FAIL_TOK(p, "syntax error: unexpected token");
		return NULL;
	}
}

static struct cel_node *parse_member(struct parser *p)
{
	struct cel_node *e = parse_primary(p);
	int rc = 0;
	while (e) {
		int line = p->t_line, col = p->t_col;
		if (accept(p, T_DOT, &rc)) {
			if (rc < 0)
				return NULL;
			if (p->t == T_QUESTION) {
				FAIL_TOK(p, "optional field selection is outside kso's CEL subset");
				return NULL;
			}
			/* true and false are tokens of their own in CEL's
			 * lexer (CEL_TRUE, CEL_FALSE), no IDENTIFIER: x.true
			 * does not parse */
			if (p->t != T_IDENT || !strcmp(p->t_text, "true") ||
			    !strcmp(p->t_text, "false")) {
				FAIL_TOK(p, "syntax error: expected a field name");
				return NULL;
			}
			const char *name = p->t_text;
			if (next(p) < 0)
				return NULL;
			/* cel-go places a member call at its '(' (a field
			 * selection at its '.') */
			int pl = p->t_line, pc = p->t_col;
			if (accept(p, T_LPAREN, &rc)) {
				if (rc < 0)
					return NULL;
				e = parse_call(p, e, name, pl, pc);
				continue;
			}
			struct cel_node *s = node(p, CN_SELECT, line, col);
			s->a = e;
			s->name = name;
			e = s;
		} else if (accept(p, T_LBRACK, &rc)) {
			if (rc < 0)
				return NULL;
			if (p->t == T_QUESTION) {
				FAIL_TOK(p, "optional index is outside kso's CEL subset");
				return NULL;
			}
			struct cel_node *ix = node(p, CN_INDEX, line, col);
			ix->a = e;
			ix->b = parse_expr(p);
			if (!ix->b || expect(p, T_RBRACK, "']'") < 0)
				return NULL;
			e = ix;
		} else {
			break;
		}
	}
	return e;
}

static struct cel_node *parse_unary(struct parser *p)
{
	int line = p->t_line, col = p->t_col, count = 0, rc = 0;
	enum tok op = p->t;
	if (op != T_NOT && op != T_MINUS)
		return parse_member(p);
	while (accept(p, op, &rc)) {
		if (rc < 0)
			return NULL;
		count++;
	}
	struct cel_node *e;
	if (op == T_MINUS && count == 1 && p->t == T_DOUBLE) {
		e = node(p, CN_CONST, p->t_line, p->t_col);
		e->lit = cel_vdouble(-p->t_double);
		return next(p) < 0 ? NULL : e;
	}
	if (op == T_MINUS && count == 1 && p->t == T_INT) {
		/* one minus before an int is the literal's sign (cel-go's
		 * grammar: -9223372036854775808); after two or more, every
		 * minus is an operator */
		if (p->t_uint > (uint64_t)INT64_MAX + 1) {
			FAIL_TOK(p, "invalid int literal");
			return NULL;
		}
		e = node(p, CN_CONST, p->t_line, p->t_col);
		e->lit.kind = CV_INT;
		e->lit.u.i = (int64_t)(0 - p->t_uint);
		if (next(p) < 0)
			return NULL;
		return e;
	}
	e = parse_member(p);
	/* cel-go's parser drops an even run of ! or - (VisitLogicalNot,
	 * VisitNegate): !!x is x, whatever x's type, and --x is never
	 * negated twice */
	if (!e || count % 2 == 0)
		return e;
	struct cel_node *u = node(p, op == T_NOT ? CN_NOT : CN_NEG, line, col);
	u->a = e;
	return u;
}

static enum cel_node_kind binop_kind(enum tok t)
{
	switch (t) {
	case T_STAR: return CN_MUL;
	case T_SLASH: return CN_DIV;
	case T_PERCENT: return CN_MOD;
	case T_PLUS: return CN_ADD;
	case T_MINUS: return CN_SUB;
	case T_EQ: return CN_EQ;
	case T_NE: return CN_NE;
	case T_LT: return CN_LT;
	case T_LE: return CN_LE;
	case T_GT: return CN_GT;
	case T_GE: return CN_GE;
	case T_IN: return CN_IN;
	case T_AND: return CN_AND;
	case T_OR: return CN_OR;
	default: return CN_CONST;
	}
}

/* Precedence levels, lowest first: || && relations + - * / %. */
static int level_of(enum tok t)
{
	switch (t) {
	case T_OR: return 1;
	case T_AND: return 2;
	case T_EQ: case T_NE: case T_LT: case T_LE: case T_GT: case T_GE:
	case T_IN: return 3;
	case T_PLUS: case T_MINUS: return 4;
	case T_STAR: case T_SLASH: case T_PERCENT: return 5;
	default: return 0;
	}
}

/* Left-associative binary operators of level >= min. */
static struct cel_node *parse_binary(struct parser *p, int min)
{
	if (min > 5)
		return parse_unary(p);
	struct cel_node *l = parse_binary(p, min + 1);
	while (l && level_of(p->t) == min) {
		struct cel_node *n = node(p, binop_kind(p->t), p->t_line, p->t_col);
		if (next(p) < 0)
			return NULL;
		n->a = l;
		n->b = parse_binary(p, min + 1);
		if (!n->b)
			return NULL;
		l = n;
	}
	return l;
}

static struct cel_node *parse_expr(struct parser *p)
{
	if (++p->depth > MAX_DEPTH) {
		FAIL_TOK(p, "expression recursion limit exceeded: %d", MAX_DEPTH);
		return NULL;
	}
	struct cel_node *c = parse_binary(p, 1);
	if (c && p->t == T_QUESTION) {
		struct cel_node *n = node(p, CN_COND, p->t_line, p->t_col);
		n->a = c;
		if (next(p) < 0 || !(n->b = parse_binary(p, 1)) ||
		    expect(p, T_COLON, "':'") < 0 || !(n->c = parse_expr(p)))
			return NULL;
		c = n;
	}
	p->depth--;
	return c;
}

struct cel_node *cel_parse(struct arena *a, const char *expr, struct cel_error *err)
{
	struct parser p = {.a = a, .src = expr, .line = 1, .err = err};
	err->msg[0] = '\0';
	if (next(&p) < 0)
		return NULL;
	struct cel_node *root = parse_expr(&p);
	if (!root)
		return NULL;
	if (p.t != T_EOF) {
		FAIL_TOK(&p, "syntax error: unexpected token after the expression");
		return NULL;
	}
	return root;
}
