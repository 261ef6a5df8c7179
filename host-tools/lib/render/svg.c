/* SPDX-License-Identifier: MIT */
/* The flame tree as one self-contained SVG: frames laid out from the sorted children, left
 * out under the minimum width, coloured by kind (or by the change from the baseline), names
 * escaped for XML; the script and style of svg-js.c inline. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "host-tools/lib/render/internal.h"

#define FRAME_H 16
#define PAD 10
#define TOP 66			/* title, subtitle, the buttons' line */
#define BOTTOM 26		/* the hovered frame's details */
#define CHAR_W 7.1		/* Verdana 12px, about */

struct svg {
	const struct tp_flame *fl;
	const struct tp_svgconf *conf;
	FILE *f;
	uint32_t *first, *kids;
	double scale;		/* pixels per unit of weight */
	uint32_t max_depth;
	uint64_t total, old_total;
	double max_change;	/* diff: the largest |change| of a drawn frame's share */
	uint32_t nr_drawn;
};

size_t render_utf8_char(const char *s, size_t n)
{
	const uint8_t *p = (const uint8_t *)s;
	uint8_t c = p[0];
	size_t len = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 :
		     c >= 0xf0 && c <= 0xf4 ? 4 : 0;

	if (!len || len > n || (len == 1 && (c < 0x20 || c == 0x7f)))
		return 0;
	for (size_t k = 1; k < len; k++)
		if ((p[k] & 0xc0) != 0x80)
			return 0;
	/* overlong forms, surrogates and code points past U+10FFFF */
	if ((c == 0xe0 && p[1] < 0xa0) || (c == 0xed && p[1] > 0x9f) ||
	    (c == 0xf0 && p[1] < 0x90) || (c == 0xf4 && p[1] > 0x8f))
		return 0;
	return len;
}

/* Bytes as XML text: the markup characters as entities, valid UTF-8 as is, anything else
 * (control characters, bytes that are no UTF-8) as the text "\xNN". */
static void put_text(FILE *f, const char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		size_t len = render_utf8_char(s + i, n - i);

		if (!len) {
			fprintf(f, "\\x%02x", (uint8_t)s[i]);
			i++;
			continue;
		}
		switch (s[i]) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default: fwrite(s + i, 1, len, f); break;
		}
		i += len;
	}
}

static void put_str(FILE *f, const char *s)
{
	put_text(f, s, strlen(s));
}

/* a name cut to what fits in w pixels, "..": empty under three characters */
static void put_label(FILE *f, const char *name, double w)
{
	double fit = floor((w - 6) / CHAR_W);
	size_t n = strlen(name), keep;

	if (fit < 3)
		return;
	if ((double)n <= fit) {
		put_text(f, name, n);
		return;
	}
	keep = (size_t)fit - 2;
	while (keep && ((uint8_t)name[keep] & 0xc0) == 0x80)	/* not inside a character */
		keep--;
	put_text(f, name, keep);
	fputs("..", f);
}

static uint32_t name_hash(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 16777619u;
	return h;
}

static void hsl(double h, double s, double l, unsigned rgb[3])
{
	double c = (1 - fabs(2 * l - 1)) * s, hp = fmod(h, 360) / 60;
	double x = c * (1 - fabs(fmod(hp, 2) - 1)), m = l - c / 2;
	double v[3] = { 0, 0, 0 };
	int k = (int)hp;

	/* per sixth of the hue circle: which of r, g, b gets the chroma, which the second */
	static const uint8_t ci[6] = { 0, 1, 1, 2, 2, 0 }, xi[6] = { 1, 0, 2, 1, 0, 2 };

	k = k < 0 ? 0 : k > 5 ? 5 : k;
	v[ci[k]] = c;
	v[xi[k]] = x;
	for (int i = 0; i < 3; i++)
		rgb[i] = (unsigned)lround((v[i] + m) * 255);
}

/* a frame's share of its recording's total, now minus before (diff) */
static double change(const struct svg *g, const struct fnode *n)
{
	double now = g->total ? (double)n->weight / (double)g->total : 0;
	double then = g->old_total ? (double)n->old / (double)g->old_total : 0;

	return now - then;
}

/* user code warm, kernel teal, threads and the root grey; a diff: red for a frame that
 * takes a bigger share than before (slower), blue for a smaller one, white for the same */
static void colour(const struct svg *g, const struct fnode *n, unsigned rgb[3])
{
	uint32_t h = name_hash(flame__name(g->fl, n));
	double v = (double)(h & 0xffff) / 65535.0, w = (double)(h >> 16) / 65535.0;

	if (g->conf->diff) {
		double d = change(g, n), a = g->max_change > 0 ? fabs(d) / g->max_change : 0;
		unsigned fade = (unsigned)lround(255 - 200 * a);

		rgb[0] = d > 0 ? 255 : fade;
		rgb[1] = fade;
		rgb[2] = d < 0 ? 255 : fade;
		if (d == 0)
			rgb[0] = rgb[1] = rgb[2] = 250;
		return;
	}
	switch (n->kind) {
	case TP_FK_KERNEL: hsl(165 + 25 * v, 0.55, 0.55 + 0.1 * w, rgb); break;
	case TP_FK_COMM: hsl(250, 0.15, 0.75, rgb); break;
	case TP_FK_ROOT: hsl(0, 0, 0.8, rgb); break;
	default: hsl(5 + 50 * v, 0.85, 0.55 + 0.1 * w, rgb); break;
	}
}

static bool drawn(const struct svg *g, uint32_t i)
{
	return g->fl->nodes[i].weight && (double)g->fl->nodes[i].weight * g->scale >=
	       g->conf->minwidth;
}

/* the depth of the deepest drawn frame, and the largest change among the drawn */
static void measure(struct svg *g, uint32_t i, uint32_t depth)
{
	double d = fabs(change(g, &g->fl->nodes[i]));

	g->nr_drawn++;
	if (depth > g->max_depth)
		g->max_depth = depth;
	if (d > g->max_change)
		g->max_change = d;
	for (uint32_t k = g->first[i]; k < g->first[i + 1]; k++)
		if (drawn(g, g->kids[k]))
			measure(g, g->kids[k], depth + 1);
}

static double frame_y(const struct svg *g, uint32_t depth)
{
	if (g->conf->inverted)
		return TOP + (double)depth * FRAME_H;
	return TOP + (double)(g->max_depth - depth) * FRAME_H;
}

static void draw(struct svg *g, uint32_t i, uint32_t depth, uint64_t start)
{
	const struct fnode *n = &g->fl->nodes[i];
	const char *name = flame__name(g->fl, n);
	double x = PAD + (double)start * g->scale, w = (double)n->weight * g->scale;
	double y = frame_y(g, depth);
	unsigned rgb[3];
	uint64_t at = start;

	colour(g, n, rgb);
	fprintf(g->f, "<g data-s=\"%" PRIu64 "\" data-n=\"%" PRIu64 "\" data-d=\"%" PRIu32
		"\"><title>", start, n->weight, depth);
	put_str(g->f, name);
	fprintf(g->f, " (%" PRIu64 " samples, %.2f%%", n->weight,
		tp_hist_pct(n->weight, g->total));
	if (g->conf->diff)
		fprintf(g->f, "; before %" PRIu64 ", %+.2f points", n->old, 100 * change(g, n));
	fprintf(g->f, ")</title><rect x=\"%.1f\" y=\"%.0f\" width=\"%.1f\" height=\"%d\" "
		"fill=\"rgb(%u,%u,%u)\" rx=\"2\"/><text x=\"%.1f\" y=\"%.0f\">", x, y, w,
		FRAME_H - 1, rgb[0], rgb[1], rgb[2], x + 3, y + 11.5);
	put_label(g->f, name, w);
	fputs("</text></g>\n", g->f);
	for (uint32_t k = g->first[i]; k < g->first[i + 1]; k++) {
		uint32_t c = g->kids[k];

		if (drawn(g, c))
			draw(g, c, depth + 1, at);
		at += g->fl->nodes[c].weight;
	}
}

static void header(struct svg *g, double width, double height)
{
	const struct tp_svgconf *c = g->conf;

	fprintf(g->f, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
		"height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" data-pad=\"%d\" data-total=\"%" PRIu64
		"\" data-unit=\"samples\">\n<style>\n%s</style>\n<script><![CDATA[\n%s]]></script>\n",
		width, height, width, height, PAD, g->total, flame_svg_css, flame_svg_js);
	fprintf(g->f, "<rect x=\"0\" y=\"0\" width=\"100%%\" height=\"100%%\" fill=\"#f8f8f4\"/>\n"
		"<text id=\"title\" x=\"%.0f\" y=\"24\">", width / 2);
	put_str(g->f, c->title ? c->title : c->diff ? "Differential Flame Graph" : "Flame Graph");
	fprintf(g->f, "</text>\n<text id=\"subtitle\" x=\"%.0f\" y=\"42\">", width / 2);
	put_str(g->f, c->subtitle ? c->subtitle : "");
	fprintf(g->f, "</text>\n<text id=\"unzoom\" class=\"hide\" x=\"%d\" y=\"58\">Reset Zoom"
		"</text>\n<text id=\"search\" x=\"%.0f\" y=\"58\" text-anchor=\"end\">Search</text>\n"
		"<text id=\"matched\" x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\"> </text>\n"
		"<text id=\"details\" x=\"%d\" y=\"%.0f\"> </text>\n",
		PAD, width - PAD, width - PAD, height - 8, PAD, height - 8);
}

int tp_flame__write_svg(const struct tp_flame *fl, const struct tp_svgconf *conf, FILE *f)
{
	struct svg g = { .fl = fl, .conf = conf, .f = f, .total = fl->nodes[0].weight,
			 .old_total = fl->nodes[0].old };
	double width = conf->width > 0 ? conf->width : 1200, height;
	int err = flame__children(fl, &g.first, &g.kids);

	if (err)
		return err;
	g.scale = g.total ? (width - 2 * PAD) / (double)g.total : 0;
	if (g.total)
		measure(&g, 0, 0);
	height = TOP + (double)(g.max_depth + 1) * FRAME_H + BOTTOM + (g.total ? 0 : 40);
	header(&g, width, height);
	fputs("<g id=\"frames\">\n", f);
	if (g.total)
		draw(&g, 0, 0, 0);
	fputs("</g>\n", f);
	if (!g.total)
		fprintf(f, "<text id=\"empty\" x=\"%.0f\" y=\"%d\" text-anchor=\"middle\">"
			"No samples to draw</text>\n", width / 2, TOP + 30);
	fputs("</svg>\n", f);
	free(g.first);
	free(g.kids);
	return fflush(f) || ferror(f) ? -TP_ERR_IO : 0;
}
