/* SPDX-License-Identifier: MIT */
/* Printing a tracepoint record with its parsed print fmt: the argument expressions
 * evaluated over the record's fields, the format string applied as the kernel's vsnprintf
 * would (the length modifiers sized for the recording machine). */
#define _GNU_SOURCE		/* strnlen */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host-tools/lib/trace/internal.h"

struct val {
	bool is_str;
	uint64_t i;
	const char *s;
	size_t len;
};

struct eval {
	const struct tp_tracefmt *tf;
	const uint8_t *raw;
	size_t size;
	char scratch[4096];		/* strings made while evaluating (__print_flags ...) */
	size_t used;
	bool bad;
};

static struct val num_val(uint64_t i)
{
	return (struct val){ false, i, NULL, 0 };
}

static struct val str_val(const char *s, size_t len)
{
	return (struct val){ true, 0, s, len };
}

static bool truth(struct val v)
{
	return v.is_str ? v.len > 0 : v.i != 0;
}

static struct val eval(struct eval *ev, const struct tp_pnode *n);

static struct val field_val(struct eval *ev, const struct tp_tpfield *f)
{
	const uint8_t *p;
	uint32_t len;
	uint64_t v;

	if (f->string || f->dynamic || f->nr > 1) {
		p = tp_tpfield__bytes(ev->tf, f, ev->raw, ev->size, &len);
		if (!p) {
			ev->bad = true;
			return str_val("", 0);
		}
		return str_val((const char *)p, f->string ? strnlen((const char *)p, len) : (size_t)len);
	}
	if (!tp_tpfield__int(ev->tf, f, ev->raw, ev->size, 0, &v))
		ev->bad = true;
	return num_val(v);
}

/* __print_flags(value, delim, { mask, "name" }...) and __print_symbolic(value, ...) */
static struct val flags(struct eval *ev, const struct tp_pnode *n, bool symbolic)
{
	struct tp_obuf o = { ev->scratch + ev->used, sizeof(ev->scratch) - ev->used, 0 };
	unsigned first = symbolic ? 1 : 2;
	uint64_t v = n->nr_args ? eval(ev, n->args[0]).i : 0;
	struct val delim = !symbolic && n->nr_args > 1 ? eval(ev, n->args[1]) : str_val("", 0);
	bool printed = false;

	for (unsigned i = first; i < n->nr_args && n->args[i] && n->args[i]->kind == N_PAIR; i++) {
		bool was_bad = ev->bad;
		uint64_t fv = eval(ev, n->args[i]->a).i;
		struct val name;

		if (ev->bad && !was_bad) {	/* a name we cannot know: never matches */
			ev->bad = false;
			continue;
		}
		name = eval(ev, n->args[i]->b);

		if (symbolic) {
			if (v == fv) {
				tp_obuf__put(&o, name.s, name.len);
				printed = true;
				break;
			}
			continue;
		}
		if (!v && !fv) {
			tp_obuf__put(&o, name.s, name.len);
			break;
		}
		if (fv && (v & fv) == fv) {
			if (printed)
				tp_obuf__put(&o, delim.s, delim.len);
			tp_obuf__put(&o, name.s, name.len);
			printed = true;
			v &= ~fv;
		}
	}
	if (symbolic ? !printed : v != 0) {
		if (!symbolic && printed)
			tp_obuf__put(&o, delim.s, delim.len);
		tp_obuf__printf(&o, "0x%llx", (unsigned long long)v);
	}
	if (o.len >= o.n) {
		ev->bad = true;
		return str_val("", 0);
	}
	ev->used += o.len + 1;
	return str_val(o.p, o.len);
}

static struct val hex(struct eval *ev, const struct tp_pnode *n)
{
	struct tp_obuf o = { ev->scratch + ev->used, sizeof(ev->scratch) - ev->used, 0 };
	struct val buf = n->nr_args > 1 ? eval(ev, n->args[0]) : str_val("", 0);
	uint64_t len = n->nr_args > 1 ? eval(ev, n->args[1]).i : 0;

	if (!buf.is_str || len > buf.len)
		len = buf.is_str ? buf.len : 0;
	for (uint64_t i = 0; i < len; i++)
		tp_obuf__printf(&o, i ? " %02x" : "%02x", (uint8_t)buf.s[i]);
	if (o.len >= o.n) {
		ev->bad = true;
		return str_val("", 0);
	}
	ev->used += o.len + 1;
	return str_val(o.p, o.len);
}

static uint64_t binop(struct eval *ev, int op, uint64_t a, uint64_t b)
{
	switch (op) {
	case '*': return a * b;
	case '/': return b ? (uint64_t)((int64_t)a / (int64_t)b) : (ev->bad = true, 0);
	case '%': return b ? (uint64_t)((int64_t)a % (int64_t)b) : (ev->bad = true, 0);
	case '+': return a + b;
	case '-': return a - b;
	case OP2('<', '<'): return b < 64 ? a << b : 0;
	case OP2('>', '>'): return b < 64 ? a >> b : 0;
	case '<': return (int64_t)a < (int64_t)b;
	case '>': return (int64_t)a > (int64_t)b;
	case OP2('<', '='): return (int64_t)a <= (int64_t)b;
	case OP2('>', '='): return (int64_t)a >= (int64_t)b;
	case OP2('=', '='): return a == b;
	case OP2('!', '='): return a != b;
	case '&': return a & b;
	case '^': return a ^ b;
	case '|': return a | b;
	default: ev->bad = true; return 0;
	}
}

static struct val eval(struct eval *ev, const struct tp_pnode *n)
{
	struct val a;
	uint64_t v;

	if (!n || ev->bad) {
		ev->bad = true;
		return num_val(0);
	}
	switch (n->kind) {
	case N_NUM:
		return num_val(n->num);
	case N_STR:
		return str_val(n->str, n->len);
	case N_FIELD:
		return field_val(ev, n->field);
	case N_INDEX:
		v = eval(ev, n->b).i;
		if (n->a->kind != N_FIELD || v > UINT32_MAX ||
		    !tp_tpfield__int(ev->tf, n->a->field, ev->raw, ev->size, (uint32_t)v, &v))
			ev->bad = true;
		return num_val(v);
	case N_UNARY:
		a = eval(ev, n->a);
		switch (n->op) {
		case '-': return num_val(-a.i);
		case '!': return num_val(!truth(a));
		case '~': return num_val(~a.i);
		default: return a;
		}
	case N_BINARY:
		if (n->op == OP2('&', '&'))
			return num_val(truth(eval(ev, n->a)) && truth(eval(ev, n->b)));
		if (n->op == OP2('|', '|'))
			return num_val(truth(eval(ev, n->a)) || truth(eval(ev, n->b)));
		a = eval(ev, n->a);
		return num_val(binop(ev, n->op, a.i, eval(ev, n->b).i));
	case N_COND:
		return truth(eval(ev, n->a)) ? eval(ev, n->b) : eval(ev, n->c);
	case N_CAST:
		a = eval(ev, n->a);
		if (a.is_str || n->bits >= 64)
			return a;
		v = a.i & ((1ULL << n->bits) - 1);
		if (n->is_signed && (v >> (n->bits - 1)) & 1)
			v |= ~((1ULL << n->bits) - 1);
		return num_val(v);
	case N_CALL:
		switch ((enum tp_pcall)n->op) {
		case C_GET_STR:
		case C_DYN_ARRAY:
			return field_val(ev, n->field);
		case C_FLAGS:
			return flags(ev, n, false);
		case C_SYMBOLIC:
			return flags(ev, n, true);
		case C_HEX:
			return hex(ev, n);
		}
		break;
	case N_PAIR:
	case N_UNKNOWN:
		break;
	}
	ev->bad = true;
	return num_val(0);
}

/* ---- the format string ---- */

static void pad(struct tp_obuf *o, const char *s, size_t len, long width, bool left)
{
	if (!left)
		for (long k = (long)len; k < width; k++)
			tp_obuf__putc(o, ' ');
	tp_obuf__put(o, s, len);
	if (left)
		for (long k = (long)len; k < width; k++)
			tp_obuf__putc(o, ' ');
}

/* one integer conversion: the value cut to the size its length modifier says */
static void print_int(struct tp_obuf *o, const char *flags, long width, long prec, char conv,
		      unsigned bits, uint64_t v)
{
	char fmt[48];
	bool sign = conv == 'd' || conv == 'i';

	if (bits < 64) {
		v &= (1ULL << bits) - 1;
		if (sign && (v >> (bits - 1)) & 1)
			v |= ~((1ULL << bits) - 1);
	}
	if (prec >= 0)
		snprintf(fmt, sizeof(fmt), "%%%s%ld.%ldll%c", flags, width, prec, conv);
	else
		snprintf(fmt, sizeof(fmt), "%%%s%ldll%c", flags, width, conv);
	if (sign)
		tp_obuf__printf(o, fmt, (long long)v);
	else
		tp_obuf__printf(o, fmt, (unsigned long long)v);
}

/* a number or '*' (the next argument) in a conversion spec; -1 if absent */
static long spec_num(struct eval *ev, const struct tp_pfmt *pf, const char **f,
		     const char *end, unsigned *arg)
{
	long n = -1;

	if (*f < end && **f == '*') {
		(*f)++;
		return *arg < pf->nr_args ? (long)eval(ev, pf->args[(*arg)++]).i : -1;
	}
	while (*f < end && **f >= '0' && **f <= '9') {
		n = (n < 0 ? 0 : n * 10) + (**f - '0');
		if (n > 4096)
			n = 4096;
		(*f)++;
	}
	return n;
}

bool tp_pfmt__print(const struct tp_tracefmt *tf, const struct tp_pfmt *pf,
		    const uint8_t *raw, size_t size, struct tp_obuf *o)
{
	struct eval *ev = malloc(sizeof(*ev));
	const char *f = pf->fmt, *end = pf->fmt + pf->fmt_len;
	unsigned arg = 0;
	bool ok = true;

	if (!ev)
		return false;
	ev->tf = tf;
	ev->raw = raw;
	ev->size = size;
	ev->used = 0;
	ev->bad = false;
	while (f < end && ok) {
		char flags[8] = "", conv;
		unsigned bits = 32, nf = 0;
		long width, prec = -1;
		struct val v;

		if (*f != '%' || f + 1 == end) {
			tp_obuf__putc(o, *f++);
			continue;
		}
		if (f[1] == '%') {
			tp_obuf__putc(o, '%');
			f += 2;
			continue;
		}
		for (f++; f < end && strchr("-+ #0", *f) && *f; f++)
			if (nf < sizeof(flags) - 1 && !strchr(flags, *f))
				flags[nf++] = *f;
		width = spec_num(ev, pf, &f, end, &arg);
		if (f < end && *f == '.') {
			f++;
			prec = spec_num(ev, pf, &f, end, &arg);
			if (prec < 0)
				prec = 0;
		}
		if (width < 0)
			width = 0;
		if (f < end && *f == 'h') {
			bits = f + 1 < end && f[1] == 'h' ? 8 : 16;
			f += bits == 8 ? 2 : 1;
		} else if (f < end && strchr("lzjtLq", *f) && *f) {
			bool ll = *f == 'l' && f + 1 < end && f[1] == 'l';

			bits = ll || *f == 'L' || *f == 'q' || *f == 'j' ? 64 : tf->long_size * 8u;
			f += ll ? 2 : 1;
		}
		if (f == end || arg >= pf->nr_args) {
			ok = false;
			break;
		}
		conv = *f++;
		v = eval(ev, pf->args[arg++]);
		switch (conv) {
		case 'd': case 'i': case 'u': case 'x': case 'X': case 'o':
			if (v.is_str)
				pad(o, v.s, v.len, width, strchr(flags, '-'));
			else
				print_int(o, flags, width, prec, conv, bits ? bits : 64, v.i);
			break;
		case 'c':
			tp_obuf__putc(o, (char)v.i);
			break;
		case 's':
			if (!v.is_str)
				tp_obuf__printf(o, "%llu", (unsigned long long)v.i);
			else
				pad(o, v.s, prec >= 0 && (size_t)prec < v.len ? (size_t)prec : v.len,
				    width, strchr(flags, '-'));
			break;
		case 'p':	/* %pS, %pK ...: the address */
			while (f < end && ((*f >= 'a' && *f <= 'z') || (*f >= 'A' && *f <= 'Z')))
				f++;
			tp_obuf__printf(o, "0x%llx", (unsigned long long)v.i);
			break;
		default:
			ok = false;
			break;
		}
		ok = ok && !ev->bad;
	}
	free(ev);
	return ok;
}
