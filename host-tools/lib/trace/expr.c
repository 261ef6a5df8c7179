/* SPDX-License-Identifier: MIT */
/* A tracepoint's "print fmt" parsed once into a tree: the format string and its arguments,
 * C expressions over the record's fields (REC->x). What is supported is listed in
 * trace/trace.h; anything else makes the parse fail and the caller list the fields.
 * trace/print.c evaluates the tree per record. */
#define _GNU_SOURCE		/* strnlen */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host-tools/lib/trace/internal.h"

struct parser {
	const struct tp_tpevent *e;
	struct tp_pfmt *pf;
	const char *p;
	bool bad;
};

static void *alloc(struct parser *ps, size_t n)
{
	void *v;

	if (ps->bad)
		return NULL;
	v = calloc(1, n);
	if (v && TP_GROW(ps->pf->allocs, ps->pf->cap_allocs, ps->pf->nr_allocs + 1, 16)) {
		free(v);
		v = NULL;
	}
	if (!v) {
		ps->bad = true;
		return NULL;
	}
	ps->pf->allocs[ps->pf->nr_allocs++] = v;
	return v;
}

static void skip_ws(struct parser *ps)
{
	while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n')
		ps->p++;
}

static bool accept(struct parser *ps, const char *tok)
{
	size_t n = strlen(tok);

	skip_ws(ps);
	if (strncmp(ps->p, tok, n))
		return false;
	/* "<" is not "<<" or "<=", "&" not "&&", "|" not "||" */
	if (n == 1 && strchr("<>&|=!", tok[0]) && (ps->p[1] == tok[0] || ps->p[1] == '=') &&
	    !(tok[0] == '!' && ps->p[1] == '!'))
		return false;
	ps->p += n;
	return true;
}

static void expect(struct parser *ps, const char *tok)
{
	if (!accept(ps, tok))
		ps->bad = true;
}

static bool ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

static size_t ident(struct parser *ps)
{
	size_t n = 0;

	skip_ws(ps);
	while (ident_char(ps->p[n]))
		n++;
	return (ps->p[0] >= '0' && ps->p[0] <= '9') ? 0 : n;
}

static struct tp_pnode *new_node(struct parser *ps, enum tp_pkind k)
{
	struct tp_pnode *n = alloc(ps, sizeof(*n));

	if (n)
		n->kind = k;
	return n;
}

/* a C string literal (adjacent ones joined), escapes decoded */
static struct tp_pnode *string(struct parser *ps)
{
	const char *s = ps->p;
	size_t cap = strlen(s) + 1, len = 0;
	char *out = alloc(ps, cap);
	struct tp_pnode *n;

	if (!out)
		return NULL;
	while (*ps->p == '"') {
		for (ps->p++; *ps->p && *ps->p != '"'; ps->p++) {
			char c = *ps->p;

			if (c == '\\' && ps->p[1]) {
				c = *++ps->p;
				c = c == 'n' ? '\n' : c == 't' ? '\t' : c;
			}
			out[len++] = c;
		}
		if (*ps->p != '"') {
			ps->bad = true;
			return NULL;
		}
		ps->p++;
		skip_ws(ps);
	}
	n = new_node(ps, N_STR);
	if (n) {
		n->str = out;
		n->len = len;
	}
	return n;
}

static struct tp_pnode *expr(struct parser *ps);
static struct tp_pnode *unary(struct parser *ps);

/* "(unsigned long)x": integer types become a truncation, pointers nothing */
static bool cast(struct parser *ps, struct tp_pnode **out)
{
	static const struct { const char *name; unsigned bits; bool sign; } types[] = {
		{ "u8", 8, false }, { "s8", 8, true }, { "u16", 16, false }, { "s16", 16, true },
		{ "u32", 32, false }, { "s32", 32, true }, { "u64", 64, false }, { "s64", 64, true },
		{ "bool", 8, false }, { "char", 8, true }, { "short", 16, true }, { "int", 32, true },
		{ "long", 64, true }, { "size_t", 64, false }, { "pid_t", 32, true },
		{ "gfp_t", 32, false }, { "uint", 32, false }, { "loff_t", 64, true },
	};
	const char *save = ps->p, *q;
	unsigned bits = 32;		/* "(unsigned)x" alone is an unsigned int */
	bool sign = true, any = false, ptr = false;

	ps->p++;		/* '(' */
	for (;;) {
		size_t n = ident(ps);

		if (!n)
			break;
		q = ps->p;
		if (!strncmp(q, "unsigned", n) && n == 8) {
			sign = false;
		} else if (!(n == 6 && !strncmp(q, "signed", 6)) &&
			   !(n == 5 && !strncmp(q, "const", 5)) && !(n == 4 && !strncmp(q, "void", 4)) &&
			   !(n == 7 && !strncmp(q, "__force", 7))) {
			size_t i;

			for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
				if (strlen(types[i].name) == n && !strncmp(q, types[i].name, n))
					break;
			if (i < sizeof(types) / sizeof(types[0])) {
				bits = types[i].bits;
				sign = sign && types[i].sign;
			} else if (n > 2 && !strncmp(q + n - 2, "_t", 2)) {
				bits = 64;	/* some typedef: no truncation */
			} else {
				ps->p = save;
				return false;
			}
		}
		any = true;
		ps->p += n;
	}
	while (accept(ps, "*"))
		ptr = true;
	if (!any || !accept(ps, ")")) {
		ps->p = save;
		return false;
	}
	*out = new_node(ps, N_CAST);
	if (*out) {
		(*out)->bits = ptr ? 64 : bits;
		(*out)->is_signed = !ptr && sign;
		(*out)->a = unary(ps);
	}
	return true;
}

static struct tp_pnode *call(struct parser *ps, const char *name, size_t n)
{
	static const struct { const char *name; enum tp_pcall c; } calls[] = {
		{ "__get_str", C_GET_STR }, { "__get_dynamic_array", C_DYN_ARRAY },
		{ "__print_flags", C_FLAGS }, { "__print_symbolic", C_SYMBOLIC },
		{ "__print_hex", C_HEX }, { "__print_hex_str", C_HEX },
	};
	struct tp_pnode *c = new_node(ps, N_CALL), **args = NULL;
	size_t i;

	for (i = 0; i < sizeof(calls) / sizeof(calls[0]); i++)
		if (strlen(calls[i].name) == n && !strncmp(name, calls[i].name, n))
			break;
	if (!c || i == sizeof(calls) / sizeof(calls[0])) {
		ps->bad = true;
		return NULL;
	}
	c->op = (int)calls[i].c;
	if (c->op == C_GET_STR || c->op == C_DYN_ARRAY) {
		/* __get_str(field): a field name, not an expression */
		size_t k = ident(ps);

		c->field = tp_tpevent__field(ps->e, ps->p, k);
		ps->p += k;
		expect(ps, ")");
		if (!c->field)
			ps->bad = true;
		return c;
	}
	while (!ps->bad && !accept(ps, ")")) {
		if (c->nr_args && !accept(ps, ",")) {
			ps->bad = true;
			break;
		}
		args = alloc(ps, (c->nr_args + 1) * sizeof(*args));
		if (!args)
			break;
		if (c->nr_args)
			memcpy(args, c->args, c->nr_args * sizeof(*args));
		args[c->nr_args] = expr(ps);
		c->args = args;
		c->nr_args++;
	}
	return c;
}

static struct tp_pnode *primary(struct parser *ps)
{
	struct tp_pnode *n = NULL;
	size_t k;

	skip_ws(ps);
	if (*ps->p == '"')
		return string(ps);
	if (*ps->p >= '0' && *ps->p <= '9') {
		char *end;

		n = new_node(ps, N_NUM);
		if (n)
			n->num = strtoull(ps->p, &end, 0);
		ps->p = n ? end : ps->p;
		while (*ps->p == 'u' || *ps->p == 'U' || *ps->p == 'l' || *ps->p == 'L')
			ps->p++;
		return n;
	}
	if (*ps->p == '\'' && ps->p[1] && ps->p[2] == '\'') {
		n = new_node(ps, N_NUM);
		if (n)
			n->num = (uint8_t)ps->p[1];
		ps->p += 3;
		return n;
	}
	if (accept(ps, "(")) {
		n = expr(ps);
		expect(ps, ")");
		return n;
	}
	if (accept(ps, "{")) {		/* { value, "name" } of __print_flags/symbolic */
		n = new_node(ps, N_PAIR);
		if (n) {
			n->a = expr(ps);
			expect(ps, ",");
			n->b = expr(ps);
		}
		expect(ps, "}");
		return n;
	}
	k = ident(ps);
	if (k == 3 && !strncmp(ps->p, "REC", 3)) {
		ps->p += 3;
		expect(ps, "->");
		k = ident(ps);
		n = new_node(ps, N_FIELD);
		if (n)
			n->field = tp_tpevent__field(ps->e, ps->p, k);
		if (!n || !n->field)
			ps->bad = true;
		ps->p += k;
		return n;
	}
	if (k) {
		const char *name = ps->p;

		ps->p += k;
		if (accept(ps, "("))
			return call(ps, name, k);
		k = 1;
	}
	if (k) {		/* an enum or macro name we cannot know */
		n = new_node(ps, N_UNKNOWN);
		return n;
	}
	ps->bad = true;
	return NULL;
}

static struct tp_pnode *postfix(struct parser *ps)
{
	struct tp_pnode *n = primary(ps);

	while (!ps->bad && accept(ps, "[")) {
		struct tp_pnode *i = new_node(ps, N_INDEX);

		if (!i)
			break;
		i->a = n;
		i->b = expr(ps);
		expect(ps, "]");
		n = i;
	}
	return n;
}

static struct tp_pnode *unary(struct parser *ps)
{
	static const char ops[] = "-!~+";
	struct tp_pnode *n;

	skip_ws(ps);
	if (ps->bad)
		return NULL;
	if (*ps->p == '(' && cast(ps, &n))
		return n;
	if (strchr(ops, *ps->p) && *ps->p && ps->p[1] != '=') {
		n = new_node(ps, N_UNARY);
		if (n) {
			n->op = *ps->p++;
			n->a = unary(ps);
		}
		return n;
	}
	return postfix(ps);
}

/* binary operators by precedence level, loosest first */
static const char *const levels[][4] = {
	{ "||" }, { "&&" }, { "|" }, { "^" }, { "&" }, { "==", "!=" },
	{ "<=", ">=", "<", ">" }, { "<<", ">>" }, { "+", "-" }, { "*", "/", "%" },
};

static struct tp_pnode *binary(struct parser *ps, unsigned level)
{
	struct tp_pnode *l;

	if (level == sizeof(levels) / sizeof(levels[0]))
		return unary(ps);
	l = binary(ps, level + 1);
	for (;;) {
		const char *op = NULL;
		struct tp_pnode *n;

		for (unsigned i = 0; i < 4 && levels[level][i] && !op; i++)
			if (accept(ps, levels[level][i]))
				op = levels[level][i];
		if (!op || ps->bad)
			return l;
		n = new_node(ps, N_BINARY);
		if (!n)
			return NULL;
		n->op = op[1] ? OP2(op[0], op[1]) : op[0];
		n->a = l;
		n->b = binary(ps, level + 1);
		l = n;
	}
}

static struct tp_pnode *expr(struct parser *ps)
{
	struct tp_pnode *c = binary(ps, 0), *n;

	if (ps->bad || !accept(ps, "?"))
		return c;
	n = new_node(ps, N_COND);
	if (n) {
		n->a = c;
		n->b = expr(ps);
		expect(ps, ":");
		n->c = expr(ps);
	}
	return n;
}

struct tp_pfmt *tp_pfmt__parse(const struct tp_tpevent *e, const char *text)
{
	struct tp_pfmt *pf = calloc(1, sizeof(*pf));
	struct parser ps = { e, pf, text, false };
	struct tp_pnode *f;

	if (!pf)
		return NULL;
	skip_ws(&ps);
	f = *ps.p == '"' ? string(&ps) : NULL;
	if (!f)
		ps.bad = true;
	while (!ps.bad && accept(&ps, ",")) {
		struct tp_pnode **a = alloc(&ps, (pf->nr_args + 1) * sizeof(*a));

		if (!a)
			break;
		if (pf->nr_args)
			memcpy(a, pf->args, pf->nr_args * sizeof(*a));
		a[pf->nr_args] = expr(&ps);
		pf->args = a;
		pf->nr_args++;
	}
	skip_ws(&ps);
	if (ps.bad || *ps.p) {
		tp_pfmt__delete(pf);
		return NULL;
	}
	pf->fmt = f->str;
	pf->fmt_len = f->len;
	return pf;
}

void tp_pfmt__delete(struct tp_pfmt *pf)
{
	if (!pf)
		return;
	for (size_t i = 0; i < pf->nr_allocs; i++)
		free(pf->allocs[i]);
	free(pf->allocs);
	free(pf);
}

