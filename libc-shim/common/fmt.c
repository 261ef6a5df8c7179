/* SPDX-License-Identifier: MIT */
/* The bounded printf of fmt.h. One formatting loop (tp_vformat) writes through a callback;
 * tp_vsnprintf is the callback that fills a buffer. It knows only what tinyperf's format
 * strings use (fmt.h); any other conversion prints as text after a '%', never as a wrong
 * number. */
#include "libc-shim/fmt.h"
#include "libc-shim/str.h"

_Static_assert(sizeof(size_t) == sizeof(long), "z is read as l");

struct fmt {
	tp_emit_fn *emit;
	void *ctx;
	int total;
};

static void put(struct fmt *f, const char *s, size_t n)
{
	if (n) {
		f->emit(f->ctx, s, n);
		f->total += (int)n;
	}
}

static TP_NOINLINE void pad(struct fmt *f, char c, int n)
{
	while (n-- > 0)
		put(f, &c, 1);
}

/* The next integer argument: int, long (l, z) or long long (ll), widened to 64 bits. One
 * copy of the va_arg code (%c's int comes through here too). */
static TP_NOINLINE uint64_t int_arg(va_list *ap, int longs, bool is_signed)
{
	unsigned long v;

	if (sizeof(long) < 8 && longs > 1)
		return va_arg(*ap, unsigned long long);
	if (longs) {
		v = va_arg(*ap, unsigned long);
	} else {
		v = va_arg(*ap, unsigned);
		if (is_signed)
			v = (unsigned long)(long)(int)v;
	}
	return is_signed ? (uint64_t)(int64_t)(long)v : v;
}

/* *n /= d, returning the remainder. On 32-bit targets a 64-bit / or % is a helper call
 * (div64.c); with d <= 2^16, 32-bit divisions do: the high word, then the low word 16 bits at
 * a time, each step dividing the remainder so far and 16 new bits (< 2^32). With the
 * formatter and the recorder's closing summary on it, the 64-bit helpers leave the core
 * recorder. */
unsigned tp_divmod(uint64_t *n, unsigned d)
{
	uint32_t hi, lo, r;

	if (sizeof(long) == 8) {
		r = (unsigned)(*n % d);
		*n /= d;
		return r;
	}
	hi = (uint32_t)(*n >> 32);
	lo = (uint32_t)*n;
	r = hi % d;
	hi /= d;
	for (int i = 0; i < 2; i++) {
		uint32_t cur = r << 16 | lo >> 16;

		r = cur % d;
		lo = lo << 16 | cur / d;
	}
	*n = (uint64_t)hi << 32 | lo;
	return r;
}

int tp_vformat(tp_emit_fn *emit, void *ctx, const char *fmt, va_list ap)
{
	struct fmt f = { emit, ctx, 0 };
	va_list args;

	va_copy(args, ap);
	while (*fmt) {
		const char *p = fmt, *s;
		char digits[24], *end = digits + sizeof(digits), *d, sign = 0;
		bool left = false, zero = false;
		int width, prec = -1, longs = 0, n, zeros = 0, room;
		unsigned base = 10;
		uint64_t u;

		while (*p && *p != '%')
			p++;
		if (p != fmt) {
			put(&f, fmt, p - fmt);
			fmt = p;
			continue;
		}
		for (p++; *p == '-' || *p == '0'; p++) {
			left |= *p == '-';
			zero |= *p == '0';
		}
		/* the width, then the precision after a '.': digits or '*' (a negative '*'
		 * precision means "not given") */
		for (int i = 0;; i++, p++) {
			int v = 0;

			if (*p == '*') {
				v = va_arg(args, int);
				p++;
			}
			while (*p >= '0' && *p <= '9')
				v = v * 10 + *p++ - '0';
			if (i) {
				prec = v;
				break;
			}
			width = v;
			if (*p != '.')
				break;
		}
		if (width < 0) {
			left = true;
			width = -width;
		}
		for (; *p == 'l' || *p == 'z'; p++)
			longs++;
		fmt = *p ? p + 1 : p;
		switch (*p) {
		case 'x':
			base = 16;
			/* fall through */
		case 'd': case 'u':
			u = int_arg(&args, longs, *p == 'd');
			if (*p == 'd' && (int64_t)u < 0) {
				sign = '-';
				u = -u;
			}
			for (d = end; u || (d == end && prec);)	/* "%.0d" of 0 is "" */
				*--d = "0123456789abcdef"[tp_divmod(&u, base)];
			s = d;
			n = (int)(end - d);
			if (prec >= 0)
				zeros = prec - n;
			else if (zero && !left)
				zeros = width - n - !!sign;
			break;
		case 'c':
			digits[0] = (char)int_arg(&args, 0, false);
			s = digits;
			n = 1;
			break;
		case 's':
			s = va_arg(args, const char *);
			if (!s)
				s = "(null)";
			n = (int)strnlen(s, (size_t)prec);	/* no precision (-1): SIZE_MAX */
			break;
		default:	/* unknown or truncated: a '%', then the text from here on */
			fmt = p;
			/* fall through */
		case '%':
			put(&f, "%", 1);
			continue;
		}
		if (zeros < 0)
			zeros = 0;
		room = width - (!!sign + zeros + n);
		if (!left)
			pad(&f, ' ', room);
		put(&f, &sign, !!sign);
		pad(&f, '0', zeros);
		put(&f, s, (size_t)n);
		if (left)
			pad(&f, ' ', room);
	}
	va_end(args);
	return f.total;
}

struct bufsink {
	char *buf;
	size_t size, len;
};

static void buf_emit(void *ctx, const char *s, size_t n)
{
	struct bufsink *b = ctx;

	if (b->len + 1 < b->size)
		memcpy(b->buf + b->len, s, TP_MIN(n, b->size - 1 - b->len));
	b->len += n;
}

int tp_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct bufsink b = { buf, size, 0 };
	int n = tp_vformat(buf_emit, &b, fmt, ap);

	if (size)
		buf[TP_MIN(b.len, size - 1)] = '\0';
	return n;
}

ARCH_VARARGS_GPR int tp_snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = tp_vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}
