/* The bounded printf of fmt.h. One formatting loop (tp_vformat) writes through a callback;
 * tp_vsnprintf is the callback that fills a buffer. No floating point, no tables. */
#include "libc-shim/fmt.h"
#include "libc-shim/str.h"

/* flag characters, in the order of their bits */
static const char flag_chars[] = "-0+ #";
enum { F_LEFT = 1, F_ZERO = 2, F_PLUS = 4, F_SPACE = 8, F_ALT = 16 };

_Static_assert(sizeof(size_t) == sizeof(long) && sizeof(ptrdiff_t) == sizeof(long) &&
	       sizeof(void *) == sizeof(long) && sizeof(intmax_t) == sizeof(long long),
	       "z, t and p are read as l, j as ll");

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

static void pad(struct fmt *f, char c, int n)
{
	while (n-- > 0)
		put(f, &c, 1);
}

/* width, precision or its '*': a negative result means "not given" */
static int field(const char **p, va_list *ap)
{
	int n = 0;

	if (**p == '*') {
		(*p)++;
		return va_arg(*ap, int);
	}
	while (**p >= '0' && **p <= '9')
		n = n * 10 + *(*p)++ - '0';
	return n;
}

/* The next integer argument for length modifier len ('H' = hh, 'L' = ll), widened to 64 bits.
 * z, t and p were folded into l, j into ll: the same sizes on every Linux ABI (asserted). */
static uint64_t int_arg(va_list *ap, char len, bool is_signed)
{
	unsigned long v;	/* shifted as a long: no libgcc 64-bit shifts on 32-bit targets */
	unsigned drop;

	if (sizeof(long) < 8 && len == 'L')
		return va_arg(*ap, unsigned long long);
	if (len == 'L') {
		v = (unsigned long)va_arg(*ap, unsigned long long);
		drop = 0;
	} else if (len == 'l') {
		v = va_arg(*ap, unsigned long);
		drop = 0;
	} else {
		v = va_arg(*ap, unsigned);
		drop = 8 * sizeof(long) - (len == 'H' ? 8 : len == 'h' ? 16 : 8 * sizeof(int));
	}
	v <<= drop;
	return is_signed ? (uint64_t)(int64_t)((long)v >> drop) : v >> drop;
}

/* *n /= base, returning the remainder. On 32-bit targets the 64-bit division is
 * libc-shim/common/div64.c's small shift-subtract loop, which other callers need too. */
static unsigned divmod(uint64_t *n, unsigned base)
{
	uint64_t u = *n;

	*n = u / base;
	return (unsigned)(u % base);
}

/* what a conversion prints inside its width: a sign or 0x, leading zeros, then n bytes at s */
struct piece {
	const char *s;
	size_t n;
	int npre, zeros;
	char prefix[2], digits[24];
};

static void number(struct piece *o, uint64_t u, char conv, int flags, int width, int prec)
{
	char *d = o->digits + sizeof(o->digits), *end = d;
	unsigned base = conv == 'o' ? 8 : conv == 'x' || conv == 'X' || conv == 'p' ? 16 : 10;
	char lower = conv == 'X' ? 0 : 0x20;	/* '0'-'9' already have this bit */
	int npre = 0, ndig, zeros, len;

	if ((conv == 'd' || conv == 'i') && (int64_t)u < 0) {
		o->prefix[npre++] = '-';
		u = -u;
	} else if (conv == 'd' || conv == 'i') {
		if (flags & (F_PLUS | F_SPACE))
			o->prefix[npre++] = flags & F_PLUS ? '+' : ' ';
	}
	if (conv == 'p' || (flags & F_ALT && base == 16 && u)) {
		o->prefix[npre++] = '0';
		o->prefix[npre++] = 'x' ^ (lower ^ 0x20);
	}
	while (u || (prec < 0 && d == end)) {	/* "%.0d" of 0 is "" */
		*--d = "0123456789ABCDEF"[divmod(&u, base)] | lower;
	}
	if (flags & F_ALT && base == 8 && (d == end || *d != '0'))
		*--d = '0';
	ndig = (int)(end - d);
	zeros = prec > ndig ? prec - ndig : 0;
	len = npre + zeros + ndig;
	if ((flags & (F_ZERO | F_LEFT)) == F_ZERO && prec < 0 && width > len)
		zeros += width - len;
	o->s = d;
	o->n = (size_t)ndig;
	o->npre = npre;
	o->zeros = zeros;
}

int tp_vformat(tp_emit_fn *emit, void *ctx, const char *fmt, va_list ap)
{
	struct fmt f = { emit, ctx, 0 };
	va_list args;

	va_copy(args, ap);
	while (*fmt) {
		const char *p = fmt;
		int flags = 0, width, prec = -1, room;
		char len = 0, conv, c;
		struct piece o;

		while (*p && *p != '%')
			p++;
		if (p != fmt) {
			put(&f, fmt, p - fmt);
			fmt = p;
			continue;
		}
		for (p++; *p && strchr(flag_chars, *p); p++)
			flags |= 1 << (strchr(flag_chars, *p) - flag_chars);
		width = field(&p, &args);
		if (width < 0) {
			flags |= F_LEFT;
			width = -width;
		}
		if (*p == '.') {
			p++;
			prec = field(&p, &args);
		}
		for (; *p && strchr("hlztj", *p); p++) {
			char m = *p == 'j' ? 'L' : *p == 'z' || *p == 't' ? 'l' : *p;

			len = len == m ? m & ~0x20 : m;	/* hh -> 'H', ll -> 'L' */
		}
		conv = *p;
		fmt = conv ? p + 1 : p;
		switch (conv) {
		case 'p':
			len = 'l';
			/* fall through */
		case 'd': case 'i': case 'u': case 'x': case 'X': case 'o':
			number(&o, int_arg(&args, len, conv == 'd' || conv == 'i'), conv, flags, width,
			       prec);
			break;
		case 'c':
			c = (char)int_arg(&args, 0, false);
			o.s = &c;
			o.n = 1;
			o.npre = o.zeros = 0;
			break;
		case 's':
			o.s = va_arg(args, const char *);
			if (!o.s)
				o.s = "(null)";
			o.n = prec >= 0 ? strnlen(o.s, prec) : strlen(o.s);
			o.npre = o.zeros = 0;
			break;
		case '%':
			put(&f, "%", 1);
			continue;
		default:	/* unknown or truncated: a '%', then the text from here on */
			put(&f, "%", 1);
			fmt = p;
			continue;
		}
		room = width - (o.npre + o.zeros + (int)o.n);
		if (!(flags & F_LEFT))
			pad(&f, ' ', room);
		put(&f, o.prefix, o.npre);
		pad(&f, '0', o.zeros);
		put(&f, o.s, o.n);
		if (flags & F_LEFT)
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

int tp_snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = tp_vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}
