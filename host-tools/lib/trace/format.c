/* SPDX-License-Identifier: MIT */
/* The TRACING_DATA blob perf.data carries (perf's trace-event-info layout) and the format
 * files in it: events by id, their fields, and the fields read out of a raw record. Every
 * length is checked against the blob; a format file that does not parse is skipped. */
#define _GNU_SOURCE		/* strnlen, strtok_r */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host-tools/lib/data/data.h"
#include "host-tools/lib/common/common.h"
#include "host-tools/lib/trace/internal.h"

static const uint8_t magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };

/* ---- output ---- */

void tp_obuf__put(struct tp_obuf *o, const char *s, size_t len)
{
	if (!len)
		return;
	if (o->len < o->n) {
		size_t room = o->n - o->len - 1, k = len < room ? len : room;

		memcpy(o->p + o->len, s, k);
		o->p[o->len + k] = '\0';
	}
	o->len += len;
}

void tp_obuf__putc(struct tp_obuf *o, char c)
{
	tp_obuf__put(o, &c, 1);
}

void tp_obuf__printf(struct tp_obuf *o, const char *fmt, ...)
{
	char tmp[256];
	va_list ap;
	int k;

	va_start(ap, fmt);
	k = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (k > 0)
		tp_obuf__put(o, tmp, (size_t)k < sizeof(tmp) ? (size_t)k : sizeof(tmp) - 1);
}

/* ---- the blob ---- */

struct blob {
	const uint8_t *p;
	size_t len, pos;
	bool swap, bad;
};

static const uint8_t *take(struct blob *b, uint64_t n)
{
	const uint8_t *p;

	if (b->bad || n > b->len - b->pos) {
		b->bad = true;
		return NULL;
	}
	p = b->p + b->pos;
	b->pos += (size_t)n;
	return p;
}

static uint64_t num(struct blob *b, unsigned size)
{
	const uint8_t *p = take(b, size);

	if (!p)
		return 0;
	return size == 4 ? tp_ld32(p, b->swap) : tp_ld64(p, b->swap);
}

static const char *cstr(struct blob *b)
{
	const uint8_t *p = b->bad ? NULL : memchr(b->p + b->pos, 0, b->len - b->pos);
	const char *s = (const char *)(b->p + b->pos);

	if (!p) {
		b->bad = true;
		return NULL;
	}
	b->pos = (size_t)(p - b->p) + 1;
	return s;
}

/* a "name\0" u64 size, data section (header_page, header_event) */
static void skip_header(struct blob *b, const char *name)
{
	const char *s = cstr(b);

	if (!s || strcmp(s, name)) {
		b->bad = true;
		return;
	}
	take(b, num(b, 8));
}

/* ---- format files ---- */

static bool is_ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/* "field:unsigned long args[6];\toffset:16;\tsize:48;\tsigned:0;" */
static bool parse_field(char *line, struct tp_tpfield *f)
{
	char *decl = line + strlen("field:"), *semi = strchr(decl, ';'), *end, *p;
	long long off = -1, size = -1, sign = 0;

	if (!semi)
		return false;
	*semi = '\0';
	p = strstr(semi + 1, "offset:");
	if (p)
		off = strtoll(p + 7, NULL, 10);
	p = strstr(semi + 1, "size:");
	if (p)
		size = strtoll(p + 5, NULL, 10);
	p = strstr(semi + 1, "signed:");
	if (p)
		sign = strtoll(p + 7, NULL, 10);
	if (off < 0 || size < 0 || off > UINT32_MAX || size > UINT32_MAX)
		return false;
	memset(f, 0, sizeof(*f));
	f->offset = (uint32_t)off;
	f->size = (uint32_t)size;
	f->is_signed = sign != 0;
	f->nr = 1;
	f->elem_size = f->size;
	f->dynamic = !strncmp(decl, "__data_loc ", 11) || !strncmp(decl, "__rel_loc ", 10);
	f->rel = !strncmp(decl, "__rel_loc ", 10);
	end = decl + strlen(decl);
	if (end > decl && end[-1] == ']') {	/* "name[16]" */
		char *open = strrchr(decl, '[');
		long long n;

		if (!open)
			return false;
		n = strtoll(open + 1, NULL, 10);
		*open = '\0';
		end = open;
		if (!f->dynamic && n > 0 && f->size % n == 0) {
			f->nr = (uint32_t)n;
			f->elem_size = f->size / (uint32_t)n;
		}
	}
	while (end > decl && end[-1] == ' ')
		*--end = '\0';
	p = end;
	while (p > decl && is_ident(p[-1]))
		p--;
	if (p == end)
		return false;
	f->name = p;
	while (p > decl && (p[-1] == ' ' || p[-1] == '*'))
		p--;
	*p = '\0';
	f->type = decl;
	if (f->dynamic) {
		f->nr = 0;
		f->elem_size = strstr(decl, "char") ? 1 : 0;
	}
	f->string = strstr(decl, "char") && (f->dynamic || f->nr > 1);
	return true;
}

static int add_event(struct tp_tracefmt *tf, const char *system, const uint8_t *data,
		     uint64_t size)
{
	struct tp_tpevent e = { .system = system };
	char *text = malloc(size + 1), *line, *save = NULL;
	bool have_id = false;

	if (!text || tp_grow((void **)&tf->texts, &tf->cap_texts, tf->nr_texts + 1,
			     sizeof(*tf->texts))) {
		free(text);
		return -TP_ERR_NOMEM;
	}
	memcpy(text, data, size);
	text[size] = '\0';
	tf->texts[tf->nr_texts++] = text;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		while (*line == ' ' || *line == '\t')
			line++;
		if (!strncmp(line, "name: ", 6)) {
			e.name = line + 6;
		} else if (!strncmp(line, "ID: ", 4)) {
			e.id = strtoull(line + 4, NULL, 10);
			have_id = true;
		} else if (!strncmp(line, "field:", 6)) {
			struct tp_tpfield f;
			void *v = e.fields;
			uint32_t cap = e.nr_fields;

			if (!parse_field(line, &f))
				continue;
			if (tp_grow(&v, &cap, e.nr_fields + 1, sizeof(f))) {
				free(e.fields);
				return -TP_ERR_NOMEM;
			}
			e.fields = v;
			e.fields[e.nr_fields++] = f;
		} else if (!strncmp(line, "print fmt: ", 11)) {
			e.print_fmt = line + 11;
		}
	}
	if (!e.name || !have_id) {
		free(e.fields);
		return 0;	/* not a format file: skipped */
	}
	if (tp_grow((void **)&tf->events, &tf->cap_events, tf->nr_events + 1, sizeof(e))) {
		free(e.fields);
		return -TP_ERR_NOMEM;
	}
	if (e.print_fmt)
		e.pfmt = tp_pfmt__parse(&e, e.print_fmt);
	tf->events[tf->nr_events++] = e;
	return 0;
}

static int cmp_event(const void *a, const void *b)
{
	uint64_t x = ((const struct tp_tpevent *)a)->id, y = ((const struct tp_tpevent *)b)->id;

	return x < y ? -1 : x > y;
}

int tp_tracefmt__parse(struct tp_tracefmt **out, const uint8_t *data, size_t size,
		       const struct tp_log *log)
{
	struct tp_tracefmt *tf = calloc(1, sizeof(*tf));
	struct blob b = { .p = data, .len = size };
	const uint8_t *p;
	uint32_t n;
	int err = 0;

	*out = NULL;
	if (!tf)
		return -TP_ERR_NOMEM;
	p = take(&b, sizeof(magic));
	if (!p || memcmp(p, magic, sizeof(magic)) || !cstr(&b)) {
		tp_log__warn(log, "tracing data does not start with its magic and version");
		tp_tracefmt__delete(tf);
		return -TP_ERR_BAD_FEATURE;
	}
	p = take(&b, 2);
	if (p) {
		uint16_t one = 1;
		bool host_big = *(uint8_t *)&one == 0;

		tf->swap = (p[0] != 0) != host_big;
		tf->long_size = p[1];
	}
	b.swap = tf->swap;
	num(&b, 4);			/* page size */
	skip_header(&b, "header_page");
	skip_header(&b, "header_event");
	n = (uint32_t)num(&b, 4);	/* ftrace's own events: not sampled */
	for (uint32_t i = 0; i < n && !b.bad; i++)
		take(&b, num(&b, 8));
	n = (uint32_t)num(&b, 4);
	for (uint32_t i = 0; i < n && !b.bad && !err; i++) {
		const char *system = cstr(&b);
		uint32_t k = (uint32_t)num(&b, 4);

		for (uint32_t j = 0; j < k && !b.bad && !err; j++) {
			uint64_t len = num(&b, 8);

			p = take(&b, len);
			if (p)
				err = add_event(tf, system, p, len);
		}
	}
	if (err) {
		tp_tracefmt__delete(tf);
		return err;
	}
	if (b.bad)
		tp_log__warn(log, "tracing data ends early at byte %zu of %zu: %u event formats "
			     "read", b.pos, size, tf->nr_events);
	if (tf->nr_events)	/* events is NULL then, and qsort's argument may not be */
		qsort(tf->events, tf->nr_events, sizeof(*tf->events), cmp_event);
	*out = tf;
	return 0;
}

void tp_tracefmt__delete(struct tp_tracefmt *tf)
{
	if (!tf)
		return;
	for (uint32_t i = 0; i < tf->nr_events; i++) {
		free(tf->events[i].fields);
		tp_pfmt__delete(tf->events[i].pfmt);
	}
	for (uint32_t i = 0; i < tf->nr_texts; i++)
		free(tf->texts[i]);
	free(tf->texts);
	free(tf->events);
	free(tf);
}

const struct tp_tpevent *tp_tracefmt__event(const struct tp_tracefmt *tf, uint64_t id)
{
	size_t lo = 0, hi = tf ? tf->nr_events : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (tf->events[mid].id == id)
			return &tf->events[mid];
		if (tf->events[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

size_t tp_tracefmt__nr_events(const struct tp_tracefmt *tf)
{
	return tf ? tf->nr_events : 0;
}

/* ---- fields ---- */

const struct tp_tpfield *tp_tpevent__field(const struct tp_tpevent *e, const char *name,
					   size_t len)
{
	for (uint32_t i = 0; i < e->nr_fields; i++)
		if (strlen(e->fields[i].name) == len && !strncmp(e->fields[i].name, name, len))
			return &e->fields[i];
	return NULL;
}

bool tp_tpfield__int(const struct tp_tracefmt *tf, const struct tp_tpfield *f,
		     const uint8_t *raw, size_t size, uint32_t idx, uint64_t *v)
{
	uint64_t off = f->offset + (uint64_t)idx * f->elem_size;
	const uint8_t *p = raw + off;
	unsigned es = f->elem_size;

	if (f->dynamic || idx >= f->nr || off > size || es > size - off)
		return false;
	switch (es) {
	case 1: *v = f->is_signed ? (uint64_t)(int8_t)p[0] : p[0]; break;
	case 2: *v = f->is_signed ? (uint64_t)(int16_t)tp_ld16(p, tf->swap) : tp_ld16(p, tf->swap);
		break;
	case 4: *v = f->is_signed ? (uint64_t)(int32_t)tp_ld32(p, tf->swap) : tp_ld32(p, tf->swap);
		break;
	case 8: *v = tp_ld64(p, tf->swap); break;
	default: return false;
	}
	return true;
}

const uint8_t *tp_tpfield__bytes(const struct tp_tracefmt *tf, const struct tp_tpfield *f,
				 const uint8_t *raw, size_t size, uint32_t *len)
{
	uint64_t off = f->offset, n = f->size;

	if (f->dynamic) {
		uint32_t loc;

		if (f->offset > size || size - f->offset < 4)
			return NULL;
		loc = tp_ld32(raw + f->offset, tf->swap);
		off = (loc & 0xffff) + (f->rel ? (uint64_t)f->offset + f->size : 0);
		n = loc >> 16;
	}
	if (off > size || n > size - off)
		return NULL;
	*len = (uint32_t)n;
	return raw + off;
}

/* ---- printing ---- */

/* "name=value" for each field but the common ones: when the print fmt cannot be used */
static void print_fields(const struct tp_tracefmt *tf, const struct tp_tpevent *e,
			 const uint8_t *raw, size_t size, struct tp_obuf *o)
{
	bool first = true;

	for (uint32_t i = 0; i < e->nr_fields; i++) {
		const struct tp_tpfield *f = &e->fields[i];
		const uint8_t *p;
		uint32_t len;
		uint64_t v;

		if (!strncmp(f->name, "common_", 7))
			continue;
		tp_obuf__printf(o, "%s%s=", first ? "" : " ", f->name);
		first = false;
		if (f->string && (p = tp_tpfield__bytes(tf, f, raw, size, &len))) {
			tp_obuf__put(o, (const char *)p, strnlen((const char *)p, len));
		} else if (f->nr == 1 && tp_tpfield__int(tf, f, raw, size, 0, &v)) {
			tp_obuf__printf(o, f->is_signed ? "%lld" : "%llu", (long long)v);
		} else if (f->nr > 1) {
			for (uint32_t k = 0; k < f->nr && tp_tpfield__int(tf, f, raw, size, k, &v); k++)
				tp_obuf__printf(o, "%s0x%llx", k ? "," : "{", (unsigned long long)v);
			tp_obuf__putc(o, '}');
		} else {
			tp_obuf__put(o, "?", 1);
		}
	}
}

size_t tp_tpevent__format(const struct tp_tracefmt *tf, const struct tp_tpevent *e,
			  const uint8_t *raw, size_t size, char *buf, size_t n)
{
	struct tp_obuf o = { buf, n, 0 };

	if (n)
		buf[0] = '\0';
	if (!e)
		return 0;
	if (!e->pfmt || !tp_pfmt__print(tf, e->pfmt, raw, size, &o)) {
		o.len = 0;
		if (n)
			buf[0] = '\0';
		print_fields(tf, e, raw, size, &o);
	}
	return o.len;
}
