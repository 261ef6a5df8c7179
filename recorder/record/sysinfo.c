/* SPDX-License-Identifier: MIT */
/* Machine facts for the feature sections, from /sys and /proc (sysinfo.h). */
#include "libc-shim/shim.h"
#include "recorder/record/sysinfo.h"

int cpulist__parse(const char *s, uint64_t *mask, unsigned nbits, unsigned *top)
{
	uint64_t a, b;
	unsigned lo, hi, t = 0;
	int n = 0;

	if (mask)
		memset(mask, 0, (nbits + 63) / 64 * sizeof(*mask));
	while (*s && *s != '\n') {
		if (tp_parse_u64_prefix(&s, 10, &a))
			return -TP_EINVAL;
		b = a;
		if (*s == '-' && (s++, tp_parse_u64_prefix(&s, 10, &b) || b < a))
			return -TP_EINVAL;
		if (*s == ',' && s[1] && s[1] != '\n')
			s++;
		else if (*s && *s != '\n')
			return -TP_EINVAL;
		if (b >= (mask ? nbits : 1u << 20))
			return -TP_ERANGE;
		/* a <= b < 2^32 from here: 32-bit arithmetic */
		lo = (unsigned)a;
		hi = (unsigned)b;
		if (hi >= t)
			t = hi + 1;
		if (!mask) {
			n += (int)(hi - lo + 1);
			continue;
		}
		for (unsigned c = lo; c <= hi; c++) {
			uint8_t *m = tp_bit_byte(mask, c), bit = TP_BIT_MASK(c);

			n += !(*m & bit);
			*m |= bit;
		}
	}
	if (top)
		*top = t;
	return n;
}

/* the number of cpus in the list at path (and one past the highest in *top), or -errno */
static int read_list(const char *path, unsigned *top)
{
	char buf[512];
	long n = tp_read_file(path, buf, sizeof(buf));

	return n < 0 ? (int)n : cpulist__parse(buf, NULL, 0, top);
}

int sysinfo__nrcpus(uint32_t *avail, uint32_t *online)
{
	unsigned top;
	int n = read_list("/sys/devices/system/cpu/present", &top);

	if (n < 0)
		n = read_list("/sys/devices/system/cpu/possible", &top);
	if (n >= 0)
		n = read_list("/sys/devices/system/cpu/online", NULL);
	if (n < 0)
		return n;
	*avail = top;
	*online = (uint32_t)n;
	return 0;
}

static bool blank(char c)
{
	return c == ' ' || c == '\t';
}

int sysinfo__cpudesc(char *buf, size_t cap)
{
	static const char *const keys[] = { "model name", "cpu model", "Processor",
					     "CPU implementer" };
	unsigned best = TP_ARRAY_SIZE(keys), i;
	char line[256], *p, *v;
	struct tp_lines l;
	size_t n;
	int err = tp_lines__open(&l, "/proc/cpuinfo", line, sizeof(line));

	if (err)
		return err;
	while (best && (p = tp_lines__next(&l))) {
		v = strchr(p, ':');
		if (!v)
			continue;
		for (n = v - p; n && blank(p[n - 1]); n--)
			;
		p[n] = '\0';	/* the key ends at or before the ':' that v still points to */
		for (i = 0; i < best && strcmp(keys[i], p); i++)
			;
		if (i == best)
			continue;
		best = i;
		/* the value, blank runs squashed to one space (buf gets no tab), no blank at either
		 * end */
		for (n = 0, v++; *v && n + 1 < cap; v++)
			if (!blank(*v))
				buf[n++] = *v;
			else if (n && buf[n - 1] != ' ' && n + 2 < cap)
				buf[n++] = ' ';
		while (n && buf[n - 1] == ' ')
			n--;
		if (cap)
			buf[n] = '\0';
	}
	tp_lines__close(&l);
	return best < TP_ARRAY_SIZE(keys) ? 0 : -TP_ENOENT;
}

int sysinfo__mem_total_kb(uint64_t *kb)
{
	char buf[128];
	const char *p = buf;
	long n = tp_read_file("/proc/meminfo", buf, sizeof(buf));

	if (n < 0)
		return (int)n;
	if (!tp_startswith(p, "MemTotal:"))
		return -TP_ENOENT;
	for (p += 9; blank(*p); p++)
		;
	return tp_parse_u64_prefix(&p, 10, kb);
}
