/* SPDX-License-Identifier: MIT */
/* Library-internal to render/: the flame tree as flame.c builds it (and svg.c, html.c read
 * it), and what the writers share: frame names, UTF-8 checks, JSON strings, the page. */
#ifndef TINYPERF_HOST_TOOLS_LIB_RENDER_INTERNAL_H
#define TINYPERF_HOST_TOOLS_LIB_RENDER_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "host-tools/lib/common/common.h"
#include "host-tools/lib/render/render.h"

struct fnode {
	uint32_t name;		/* offset of its name in text */
	uint32_t parent;	/* node 0 is the root, its own parent */
	uint64_t weight;	/* of the samples through here */
	uint64_t old;		/* the same in the baseline */
	uint8_t kind;		/* enum tp_fkind */
};

struct tp_flame {
	struct fnode *nodes;
	size_t nr_nodes, cap_nodes;
	struct tp_htab node_idx;	/* (parent, name) -> node */
	uint32_t want_parent;		/* the node looked up in node_idx */
	const char *want_name;
	char *text;			/* the nodes' names, each ending in a NUL */
	size_t len_text, cap_text;
	char *buf;			/* tp_flame__add_hist's names, one stack's worth */
	size_t cap_buf;
};

static inline const char *flame__name(const struct tp_flame *fl, const struct fnode *n)
{
	return fl->text + n->name;
}

/* tp_flame__add() that also says which node the stack ended on */
int flame__add_leaf(struct tp_flame *fl, const char *const *names, const uint8_t *kinds,
		    uint32_t nr, uint64_t weight, bool old, uint32_t *leaf);

/* s as a JSON string, quoted; bytes that are no UTF-8 as the text \xNN */
void render_json_str(FILE *f, const char *s);

/* the HTML report's page around its data (html-page.c): the head, style, the elements,
 * and the opening of the data's script element; then its end and the page's script */
void html__page_start(FILE *f, const char *title);
void html__page_end(FILE *f);

/* The children of every node, sorted by name (a stable layout run after run): node i's are
 * kids[first[i]] ... kids[first[i + 1] - 1]. 0 or -TP_ERR_NOMEM; free both. */
int flame__children(const struct tp_flame *fl, uint32_t **first, uint32_t **kids);

/* frame f's name as script --folded has it (before its tidying of ';' and spaces): the
 * symbol's, else "[dso basename]" (in buf), else "[unknown]" */
const char *render_frame_name(const struct tp_symcache *c, struct tp_frame f, char *buf,
			      size_t size);

/* the length of the UTF-8 character at s (of n bytes), 0 if it is none or a control
 * character: what the writers pass as is; other bytes they write as the text \xNN */
size_t render_utf8_char(const char *s, size_t n);

/* the SVG's style sheet and script (svg-js.c) */
extern const char flame_svg_css[];
extern const char flame_svg_js[];

#endif
