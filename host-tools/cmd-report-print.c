/* SPDX-License-Identifier: MIT */
/* tinyperf report's output: the header (symbol sources, lost samples), then per event the
 * perf report --stdio table and, under each entry, its call graph drawn as perf draws it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host-tools/cmd-report.h"
#include "host-tools/lib/common/common.h"

static const char *key_head(enum tp_hkey k)
{
	static const char *const heads[TP_HKEY_MAX] = {
		[TP_HKEY_COMM] = "Command", [TP_HKEY_DSO] = "Shared Object",
		[TP_HKEY_SYM] = "Symbol", [TP_HKEY_PID] = "Pid", [TP_HKEY_TID] = "Tid",
		[TP_HKEY_CPU] = "CPU", [TP_HKEY_SRCLINE] = "Source:Line",
	};

	return heads[k];
}

/* the text of key k of e: the name itself, or composed in buf (n > 32); *len its length */
static const char *key_text(const struct report *rp, const struct tp_hentry *e, enum tp_hkey k,
			    char *buf, size_t n, size_t *len)
{
	const struct tp_csym *sym;
	const char *t;
	size_t l;

	switch (k) {
	case TP_HKEY_COMM:
		t = tp_symcache__comm_str(rp->cs.c, e->comm);
		break;
	case TP_HKEY_DSO:
		t = tp_symcache__dso(rp->cs.c, e->frame.dso)->short_name;
		break;
	case TP_HKEY_SYM:
		sym = tp_symcache__sym(rp->cs.c, e->frame.sym);
		if (!sym->name) {
			/* as perf's "%#.16llx": no 0x for a zero */
			*len = (size_t)snprintf(buf, n, "[%c] %s%016llx", e->frame.level,
						sym->addr ? "0x" : "", (unsigned long long)sym->addr);
			return buf;
		}
		l = strlen(sym->name);
		if (l > n - 5)
			l = n - 5;
		buf[0] = '[';
		buf[1] = e->frame.level;
		buf[2] = ']';
		buf[3] = ' ';
		memcpy(buf + 4, sym->name, l);
		buf[l + 4] = '\0';
		*len = l + 4;
		return buf;
	case TP_HKEY_PID:
	case TP_HKEY_TID:
		*len = (size_t)snprintf(buf, n, "%d", k == TP_HKEY_PID ? e->pid : e->tid);
		return buf;
	case TP_HKEY_CPU:
		*len = (size_t)snprintf(buf, n, "%03u", e->cpu);
		return buf;
	case TP_HKEY_SRCLINE:
		t = report__line_text(rp, e->frame.line);
		break;
	default:
		t = "?";
		break;
	}
	*len = strlen(t);
	return t;
}

static const char *frame_name(const struct report *rp, struct tp_frame f, char *buf, size_t n)
{
	const struct tp_csym *sym = tp_symcache__sym(rp->cs.c, f.sym);
	/* -g srcline, --lines: "func file:line", as perf's callchain entries ("func" alone
	 * without line info) */
	const char *line = rp->graph_lines && f.line && !(f.line & TP_LINE_NOSRC) ?
			   report__line_text(rp, f.line) : NULL;

	if (sym->name && sym->inlined)		/* --inline, as perf's callchain entries */
		snprintf(buf, n, "%s%s%s (inlined)", sym->name, line ? " " : "", line ? line : "");
	else if (sym->name && !line)
		return sym->name;
	else if (sym->name)
		snprintf(buf, n, "%s %s", sym->name, line);
	else
		snprintf(buf, n, "%#llx%s%s", (unsigned long long)sym->addr, line ? " " : "",
			 line ? line : "");
	return buf;
}

/* "  %7.2f%%" of a percentage, the digits printf would print, without printf (one or two
 * per entry, and there are 100k entries in a big -g report): p rounded to hundredths
 * exactly as printf rounds the double (to nearest, ties to even); fma gives the exact sign
 * of p * 100 - n. Returns the length. */
static size_t put_pct(char *buf, double p)
{
	char tmp[32];
	uint64_t n;
	double t;
	size_t k = 0, len;

	if (!(p >= 0 && p < 1e15))		/* never for a share of a total */
		return (size_t)snprintf(buf, 32, "  %7.2f%%", p);
	n = (uint64_t)(p * 100.0);
	while (fma(p, 100.0, -(double)(n + 1)) >= 0)
		n++;
	while (n && fma(p, 100.0, -(double)n) < 0)
		n--;
	t = fma(p, 200.0, -(double)(2 * n + 1));	/* against the midpoint n + 1/2 */
	if (t > 0 || (t == 0 && (n & 1)))
		n++;
	tmp[k++] = '%';
	tmp[k++] = (char)('0' + n % 10);
	tmp[k++] = (char)('0' + n / 10 % 10);
	tmp[k++] = '.';
	n /= 100;
	do {
		tmp[k++] = (char)('0' + n % 10);
		n /= 10;
	} while (n);
	len = 0;
	buf[len++] = ' ';
	buf[len++] = ' ';
	for (size_t w = k; w < 8; w++)		/* %7.2f: at least 7 before the '%' */
		buf[len++] = ' ';
	while (k)
		buf[len++] = tmp[--k];
	return len;
}

/* the drawing prefix, one 11-character piece per level ("|          ") */
static char *prefix_at(struct report *rp, size_t len, size_t more)
{
	if (TP_GROW(rp->prefix, rp->prefix_cap, len + more + 1, 256))
		return NULL;
	return rp->prefix + len;
}

/* perf's graph: a separator line, then each child's run, the first frame with its percent */
static void print_children(struct report *rp, const struct tp_cgnode *node, size_t plen,
			   int margin, uint64_t total)
{
	static char name[1024];	/* used before the recursion: one for all levels */

	for (uint32_t k = 0; k < node->nr_children; k++) {
		const struct tp_cgnode *c = &node->children[k];
		bool last = k + 1 == node->nr_children;
		char *p = prefix_at(rp, plen, 11);

		if (!p)
			return;
		printf("%12s%*s%.*s|          \n", "", margin, "", (int)plen, rp->prefix);
		for (uint32_t j = 0; j < c->nr_frames; j++) {
			printf("%12s%*s%.*s%c", "", margin, "", (int)plen, rp->prefix,
			       last ? ' ' : '|');
			if (!j)
				printf("--%.2f%%--", tp_hist_pct(c->total, total));
			else
				printf("          ");
			printf("%s\n", frame_name(rp, c->frames[j], name, sizeof(name)));
		}
		memcpy(rp->prefix + plen, last ? "           " : "|          ", 11);
		print_children(rp, c, plen + 11, margin, total);
	}
}

static void print_graph(struct report *rp, struct tp_hist *h, const struct tp_hentry *e,
			bool children, uint64_t total)
{
	uint64_t min = (uint64_t)((double)total * (rp->min_pct / 100.0));
	const struct tp_cgnode *top;
	struct tp_cgraph *g;
	int margin = 0;
	char name[1024];

	if ((children ? e->children : e->self) < min || !(children ? e->children : e->self))
		return;		/* every node would be under the minimum */
	if (tp_hist__callgraph(h, e, rp->order, children, min, &g)) {
		rp->err = -TP_ERR_NOMEM;
		return;
	}
	top = &g->root;
	if (top->nr_children == 1 && top->children[0].total == (children ? e->children : e->self)) {
		/* one root with all the entry's weight: its run without a percent, after "---" */
		const struct tp_cgnode *r = &top->children[0];
		bool printed = false;

		for (uint32_t j = 0; j < r->nr_frames; j++) {
			if (!j && rp->keys.keys[0] == TP_HKEY_SYM)
				continue;	/* the entry's own symbol, as perf */
			if (!printed) {
				printf("%12s|\n%12s---", "", "");
				margin = 3;
				printed = true;
			} else {
				printf("%12s%*s", "", margin, "");
			}
			printf("%s\n", frame_name(rp, r->frames[j], name, sizeof(name)));
		}
		top = r;
	}
	if (top != &g->root || top->nr_children) {
		print_children(rp, top, 0, margin, total);
		printf("\n");
	}
	tp_cgraph__delete(g);
}

static bool entry_visible(struct report *rp, const struct tp_hentry *e, bool children,
			  uint64_t total)
{
	double pct = tp_hist_pct(children ? e->children : e->self, total);

	if (!children && !e->self)	/* only on the way to where samples hit */
		return false;
	if (rp->percent_limit > 0 && pct < rp->percent_limit)
		return false;
	if ((rp->has_key[TP_HKEY_DSO] || rp->has_key[TP_HKEY_SYM]) &&
	    !cmd_sym__dso_ok(&rp->cs, e->frame))
		return false;
	if (rp->has_key[TP_HKEY_SYM] && !cmd_sym__sym_ok(&rp->cs, e->frame))
		return false;
	return true;
}

static void print_dots(int n)
{
	while (n-- > 0)
		putchar('.');
}

/* the filter list a key's column shows */
static int key_list(enum tp_hkey k)
{
	return k == TP_HKEY_COMM ? TP_HFILTER_COMM : k == TP_HKEY_DSO ? TP_HFILTER_DSO :
	       k == TP_HKEY_SYM ? TP_HFILTER_SYM : -1;
}

/* as perf: a column a filter pins to one value is left out, and said in the header */
static bool elided(const struct report *rp, enum tp_hkey k)
{
	int l = key_list(k);

	return l >= 0 && rp->cs.filter.lists[l].n == 1;
}

/* the columns shown: all the keys but the elided ones (all of them if none would stay) */
static unsigned visible(const struct report *rp, unsigned *vis)
{
	unsigned n = 0;

	for (unsigned k = 0; k < rp->keys.nr_keys; k++)
		if (!elided(rp, rp->keys.keys[k]))
			vis[n++] = k;
	if (!n)
		for (unsigned k = 0; k < rp->keys.nr_keys; k++)
			vis[n++] = k;
	return n;
}

static void put_pad(FILE *f, const char *t, size_t len, size_t width)
{
	static const char spaces[] = "                                                                ";

	fwrite(t, 1, len, f);
	while (width > len) {
		size_t n = width - len < sizeof(spaces) - 1 ? width - len : sizeof(spaces) - 1;

		fwrite(spaces, 1, n, f);
		len += n;
	}
}

static void print_section(struct report *rp, uint32_t idx)
{
	struct tp_hist *h = rp->hists[idx];
	const struct tp_attr *a = tp_reader__attr(rp->ci.r, idx);
	bool children = rp->hist_paths[idx] && !rp->no_children;
	size_t width[TP_HKEY_MAX] = { 0 }, len;
	unsigned vis[TP_HKEY_MAX], nvis = visible(rp, vis);
	uint64_t total = tp_hist__total(h);
	char buf[4096], evbuf[64], pct[64];
	const char *t;
	size_t n;

	if (tp_hist__finish(h, children)) {
		rp->err = -TP_ERR_NOMEM;
		return;
	}
	n = tp_hist__nr_entries(h);
	for (unsigned v = 0; v < nvis; v++)
		width[vis[v]] = strlen(key_head(rp->keys.keys[vis[v]]));
	for (size_t i = 0; i < n; i++) {
		const struct tp_hentry *e = tp_hist__entry(h, i);

		if (!entry_visible(rp, e, children, total))
			continue;
		for (unsigned v = 0; v < nvis; v++) {
			key_text(rp, e, rp->keys.keys[vis[v]], buf, sizeof(buf), &len);
			if (len > width[vis[v]])
				width[vis[v]] = len;
		}
	}
	if (!rp->quiet) {
		printf("#\n# Samples: %llu  of event '%s'\n# Event count (approx.): %llu\n#\n",
		       (unsigned long long)tp_hist__nr_samples(h),
		       cmd_sym__event_name(a, evbuf, sizeof(evbuf)), (unsigned long long)total);
		printf(children ? "# Children      Self" : "# Overhead");
		if (rp->show_nr)
			printf("       Samples");
		for (unsigned v = 0; v < nvis; v++)
			printf("  %-*s", v + 1 < nvis ? (int)width[vis[v]] : 0,
			       key_head(rp->keys.keys[vis[v]]));
		printf(children ? "\n# ........  ........" : "\n# ........");
		if (rp->show_nr)
			printf("  ............");
		for (unsigned v = 0; v < nvis; v++) {
			printf("  ");
			print_dots((int)width[vis[v]]);
		}
		printf("\n#\n");
	}
	for (size_t i = 0; i < n && !rp->err; i++) {
		const struct tp_hentry *e = tp_hist__entry(h, i);

		if (!entry_visible(rp, e, children, total))
			continue;
		if (children) {
			len = put_pct(pct, tp_hist_pct(e->children, total));
			len += put_pct(pct + len, tp_hist_pct(e->self, total));
		} else
			len = put_pct(pct, tp_hist_pct(e->self, total));
		fwrite(pct, 1, len, stdout);
		if (rp->show_nr)
			printf("  %12llu", (unsigned long long)e->nr_samples);
		for (unsigned v = 0; v < nvis; v++) {
			t = key_text(rp, e, rp->keys.keys[vis[v]], buf, sizeof(buf), &len);
			fwrite("  ", 1, 2, stdout);
			put_pad(stdout, t, len, v + 1 < nvis ? width[vis[v]] : 0);
		}
		putchar('\n');
		if (rp->graph && rp->hist_paths[idx])
			print_graph(rp, h, e, children, total);
	}
	if (!rp->quiet)
		printf("\n");
}

void report__print(struct report *rp)
{
	if (!rp->quiet) {
		printf("# To display the perf.data header info, please use tinyperf header.\n#\n");
		for (unsigned k = 0; k < rp->keys.nr_keys; k++)
			if (elided(rp, rp->keys.keys[k]))
				printf("# %s: %s\n#\n", rp->keys.keys[k] == TP_HKEY_SYM ? "symbol" :
				       tp_hkey_name(rp->keys.keys[k]),
				       rp->cs.filter.lists[key_list(rp->keys.keys[k])].v[0]);
		printf("# Symbols of the DSOs samples landed in:\n");
		cmd_sym__print_dsos(&rp->cs, stdout, "#   ");
		cmd_sym__print_embedded(&rp->cs, stdout,
					"# symbols from the recording (embedded): ");
		printf("#\n# Total Lost Samples: %llu\n", (unsigned long long)rp->lost_samples);
		if (rp->nr_corrupt_chains)
			printf("# Samples in no entry for a corrupt callchain (as perf): %llu\n",
			       (unsigned long long)rp->nr_corrupt_chains);
		if (rp->nr_lost)
			printf("# Lost events: %llu in %llu LOST records (the ring buffer overflowed)\n",
			       (unsigned long long)rp->lost_events, (unsigned long long)rp->nr_lost);
	}
	for (uint32_t i = 0; i < rp->nr_hists && !rp->err; i++)
		if (rp->hists[i] && tp_hist__nr_samples(rp->hists[i]))
			print_section(rp, i);
}

