/* markdown: a lesson through md4c into a doc: paragraphs, lists, quotes, tables, code (see markdown.h). */
#include "tui/markdown.h"

#include <md4c.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/entity.h"
#include "tui/highlight.h"
#include "lib/util.h"

#define MAX_DEPTH 32

/* A block that prefixes its lines: a quote ("│ ") or a list item ("• " then "  "). */
struct box {
	bool item;
	bool used;		/* the item's bullet was shown already */
	char first[32], rest[32];
};

struct list {
	bool ordered;
	unsigned next;
};

struct cell {
	struct doc_span *runs;
	int n;
	MD_ALIGN align;
};

struct row {
	struct cell *cells;
	int n, alloc;
	bool head;
};

struct md {
	struct doc *d;
	int width;
	int start;		/* lines d had before we began */
	struct box box[MAX_DEPTH];
	int nbox;
	struct list list[MAX_DEPTH];
	int nlist;
	int quotes;
	/* the inline text of the current leaf block, not laid out yet */
	struct doc_span *runs;
	int nruns, aruns;
	unsigned base;		/* class of the current block's text */
	int hlevel;
	int em, strong, link, strike, code;
	bool in_code, in_html;
	struct buf code_text;
	char lang[32];
	struct row *rows;	/* the table being read */
	int nrows, arows;
	MD_ALIGN align;
	bool need_blank;
};

static void
add_run(struct md *m, const char *s, size_t len)
{
	unsigned st = m->code ? S_CODE : m->base;

	if (!len)
		return;
	st |= (m->em ? F_EM : 0) | (m->strong ? F_STRONG : 0) |
	      (m->link ? F_LINK : 0) | (m->strike ? F_STRIKE : 0);
	ALLOC_GROW(m->runs, m->nruns + 1, m->aruns);
	m->runs[m->nruns].text = m->d->ascii ? translit_ascii(s, len) : xstrndup(s, len);
	m->runs[m->nruns].style = st;
	m->nruns++;
}

static void
free_runs(struct doc_span *runs, int n)
{
	for (int i = 0; i < n; i++)
		free(runs[i].text);
}

/* The prefixes of the next line: with the bullets not shown yet, and without. */
static void
prefixes(struct md *m, char *first, char *rest, size_t size)
{
	first[0] = rest[0] = '\0';
	for (int i = 0; i < m->nbox; i++) {
		const struct box *b = &m->box[i];

		strncat(first, b->item && !b->used ? b->first : b->rest, size - strlen(first) - 1);
		strncat(rest, b->rest, size - strlen(rest) - 1);
	}
}

static void
use_bullets(struct md *m)
{
	for (int i = 0; i < m->nbox; i++)
		m->box[i].used = true;
}

/* Start a line with the prefix of the boxes we are in; returns its width. */
static int
start_line(struct md *m)
{
	char first[256], rest[256];

	prefixes(m, first, rest, sizeof(first));
	doc_newline(m->d);
	doc_puts(m->d, S_BULLET, first);
	use_bullets(m);
	return utf8_width(first, strlen(first));
}

/* A blank line between blocks, unless this is the first. */
static void
begin_block(struct md *m)
{
	char first[256], rest[256];
	size_t n;

	if (m->need_blank && m->d->n > m->start) {
		prefixes(m, first, rest, sizeof(first));
		n = strlen(rest);
		while (n && rest[n - 1] == ' ')
			n--;
		doc_newline(m->d);
		doc_put(m->d, S_BULLET, rest, n);
	}
	m->need_blank = false;
}

static bool
blank_runs(const struct md *m)
{
	for (int i = 0; i < m->nruns; i++)
		if (m->runs[i].text[strspn(m->runs[i].text, " \n")])
			return false;
	return true;
}

/* Lay out the pending inline text as a paragraph or a heading. */
static void
flush(struct md *m)
{
	char first[256], rest[256];
	int before = m->d->n, pw, w = 0;

	if (blank_runs(m))
		goto out;
	begin_block(m);
	prefixes(m, first, rest, sizeof(first));
	doc_wrap(m->d, m->runs, m->nruns, m->width, first, rest, S_BULLET);
	use_bullets(m);
	if (m->hlevel == 1 || m->hlevel == 2) {
		pw = utf8_width(rest, strlen(rest));
		for (int i = before; i < m->d->n; i++) {
			int lw = doc_line_width(&m->d->lines[i]) - pw;

			w = lw > w ? lw : w;
		}
		start_line(m);
		doc_repeat(m->d, m->base, m->hlevel == 1 ? "═" : "─", w);
	}
out:
	free_runs(m->runs, m->nruns);
	m->nruns = 0;
}

static void
push_box(struct md *m, bool item, const char *first)
{
	struct box *b;
	int w = utf8_width(first, strlen(first));

	if (m->nbox == MAX_DEPTH)
		return;
	b = &m->box[m->nbox++];
	memset(b, 0, sizeof(*b));
	b->item = item;
	snprintf(b->first, sizeof(b->first), "%s", first);
	if (item)
		snprintf(b->rest, sizeof(b->rest), "%*s", w, "");
	else
		snprintf(b->rest, sizeof(b->rest), "%s", first);
}

static void
enter_item(struct md *m, const MD_BLOCK_LI_DETAIL *li)
{
	char bullet[32];
	struct list *l = m->nlist ? &m->list[m->nlist - 1] : NULL;

	if (l && l->ordered)
		snprintf(bullet, sizeof(bullet), "%u. ", l->next++);
	else
		snprintf(bullet, sizeof(bullet), "%s ", m->nlist > 1 ? "◦" : "•");
	if (li->is_task)
		strncat(bullet, li->task_mark == ' ' ? "[ ] " : "[x] ", sizeof(bullet) - strlen(bullet) - 1);
	push_box(m, true, bullet);
}

static void
render_code(struct md *m)
{
	bool colour = highlight_lang(m->lang), in_comment = false;
	const char *line = m->code_text.data;

	begin_block(m);
	while (*line) {
		const char *nl = strchr(line, '\n');
		char first[256], rest[256];

		prefixes(m, first, rest, sizeof(first) - 2);
		strcat(first, "  ");
		strcat(rest, "  ");
		use_bullets(m);
		highlight_put(m->d, line, nl ? (size_t)(nl - line) : strlen(line), colour, &in_comment,
			      m->width, first, rest, S_BULLET);
		if (!nl)
			break;
		line = nl + 1;
	}
	buf_reset(&m->code_text);
}

static void
free_table(struct md *m)
{
	for (int r = 0; r < m->nrows; r++) {
		for (int c = 0; c < m->rows[r].n; c++) {
			free_runs(m->rows[r].cells[c].runs, m->rows[r].cells[c].n);
			free(m->rows[r].cells[c].runs);
		}
		free(m->rows[r].cells);
	}
	free(m->rows);
	m->rows = NULL;
	m->nrows = m->arows = 0;
}

static int
cell_width(const struct cell *c)
{
	int w = 0;

	for (int i = 0; i < c->n; i++)
		w += utf8_width(c->runs[i].text, strlen(c->runs[i].text));
	return w;
}

/* One line of a wrapped cell, padded to w columns as the column is aligned. */
static void
put_cell_line(struct md *m, const struct doc *cd, int line, int w, MD_ALIGN align, bool last)
{
	const struct doc_line *l = line < cd->n ? &cd->lines[line] : NULL;
	int lw = l ? doc_line_width(l) : 0, pad = w - lw, left = 0;

	if (align == MD_ALIGN_RIGHT)
		left = pad;
	else if (align == MD_ALIGN_CENTER)
		left = pad / 2;
	doc_repeat(m->d, S_PLAIN, " ", left);
	for (int i = 0; l && i < l->n; i++)
		doc_puts(m->d, l->spans[i].style, l->spans[i].text);
	if (!last)
		doc_repeat(m->d, S_PLAIN, " ", pad - left);
}

static void
render_table(struct md *m)
{
	char first[256], rest[256];
	int ncols = 0, avail, total;
	int *w;

	for (int r = 0; r < m->nrows; r++)
		ncols = m->rows[r].n > ncols ? m->rows[r].n : ncols;
	if (!ncols)
		return;
	w = xcalloc((size_t)ncols, sizeof(*w));
	for (int r = 0; r < m->nrows; r++)
		for (int c = 0; c < m->rows[r].n; c++) {
			int cw = cell_width(&m->rows[r].cells[c]);

			w[c] = cw > w[c] ? cw : w[c];
		}
	prefixes(m, first, rest, sizeof(first));
	avail = m->width - utf8_width(rest, strlen(rest));
	total = 3 * (ncols - 1);
	for (int c = 0; c < ncols; c++)
		total += w[c];
	/* too wide: narrow the widest column, one column at a time */
	while (total > avail) {
		int widest = 0;

		for (int c = 1; c < ncols; c++)
			widest = w[c] > w[widest] ? c : widest;
		if (w[widest] <= 4)
			break;
		w[widest]--;
		total--;
	}
	begin_block(m);
	for (int r = 0; r < m->nrows; r++) {
		struct row *row = &m->rows[r];
		struct doc *cells = xcalloc((size_t)ncols, sizeof(*cells));
		int height = 1;

		for (int c = 0; c < ncols; c++) {
			doc_init(&cells[c], m->d->ascii);
			if (c < row->n)
				doc_wrap(&cells[c], row->cells[c].runs, row->cells[c].n, w[c], "", "", S_PLAIN);
			height = cells[c].n > height ? cells[c].n : height;
		}
		for (int i = 0; i < height; i++) {
			start_line(m);
			for (int c = 0; c < ncols; c++) {
				MD_ALIGN a = c < row->n ? row->cells[c].align : MD_ALIGN_DEFAULT;

				if (c)
					doc_puts(m->d, S_TABLE_BORDER, " │ ");
				put_cell_line(m, &cells[c], i, w[c], a, c == ncols - 1);
			}
		}
		for (int c = 0; c < ncols; c++)
			doc_free(&cells[c]);
		free(cells);
		if (row->head && (r + 1 == m->nrows || !m->rows[r + 1].head)) {
			start_line(m);
			for (int c = 0; c < ncols; c++) {
				if (c)
					doc_puts(m->d, S_TABLE_BORDER, "─┼─");
				doc_repeat(m->d, S_TABLE_BORDER, "─", w[c]);
			}
		}
	}
	free(w);
}

static int
enter_block(MD_BLOCKTYPE type, void *detail, void *data)
{
	struct md *m = data;

	if (type != MD_BLOCK_TH && type != MD_BLOCK_TD)
		flush(m);
	switch (type) {
	case MD_BLOCK_QUOTE:
		begin_block(m);	/* the blank line goes outside the quote */
		m->quotes++;
		push_box(m, false, "│ ");
		break;
	case MD_BLOCK_UL:
	case MD_BLOCK_OL:
		begin_block(m);
		if (m->nlist < MAX_DEPTH) {
			m->list[m->nlist].ordered = type == MD_BLOCK_OL;
			m->list[m->nlist].next = type == MD_BLOCK_OL ? ((MD_BLOCK_OL_DETAIL *)detail)->start : 0;
		}
		m->nlist++;
		break;
	case MD_BLOCK_LI:
		begin_block(m);	/* before the bullet, in a loose list */
		enter_item(m, detail);
		m->base = m->quotes ? S_QUOTE : S_PLAIN;
		break;
	case MD_BLOCK_HR:
		begin_block(m);
		doc_repeat(m->d, S_RULE, "─", m->width - start_line(m));
		m->need_blank = true;
		break;
	case MD_BLOCK_H:
		m->hlevel = (int)((MD_BLOCK_H_DETAIL *)detail)->level;
		m->base = m->hlevel == 1 ? S_H1 : m->hlevel == 2 ? S_H2 : S_H3;
		break;
	case MD_BLOCK_CODE: {
		MD_ATTRIBUTE *lang = &((MD_BLOCK_CODE_DETAIL *)detail)->lang;
		size_t n = lang->size < sizeof(m->lang) - 1 ? lang->size : sizeof(m->lang) - 1;

		memcpy(m->lang, lang->text ? lang->text : "", lang->text ? n : 0);
		m->lang[lang->text ? n : 0] = '\0';
		m->in_code = true;
		break;
	}
	case MD_BLOCK_HTML:
		m->in_html = true;
		break;
	case MD_BLOCK_P:
		m->base = m->quotes ? S_QUOTE : S_PLAIN;
		break;
	case MD_BLOCK_TABLE:
		free_table(m);
		break;
	case MD_BLOCK_TR:
		ALLOC_GROW(m->rows, m->nrows + 1, m->arows);
		memset(&m->rows[m->nrows++], 0, sizeof(struct row));
		break;
	case MD_BLOCK_TH:
	case MD_BLOCK_TD:
		m->base = type == MD_BLOCK_TH ? S_TABLE_HEAD : S_PLAIN;
		m->align = ((MD_BLOCK_TD_DETAIL *)detail)->align;
		if (m->nrows)
			m->rows[m->nrows - 1].head |= type == MD_BLOCK_TH;
		break;
	default:
		break;
	}
	return 0;
}

static int
leave_block(MD_BLOCKTYPE type, void *detail, void *data)
{
	struct md *m = data;
	struct row *row;

	switch (type) {
	case MD_BLOCK_TH:
	case MD_BLOCK_TD:
		if (!m->nrows)
			break;
		/* the cell takes the runs; the table is laid out when it ends */
		row = &m->rows[m->nrows - 1];
		ALLOC_GROW(row->cells, row->n + 1, row->alloc);
		row->cells[row->n].runs = m->runs;
		row->cells[row->n].n = m->nruns;
		row->cells[row->n].align = m->align;
		row->n++;
		m->runs = NULL;
		m->nruns = m->aruns = 0;
		return 0;
	case MD_BLOCK_TABLE:
		render_table(m);
		free_table(m);
		m->need_blank = true;
		return 0;
	case MD_BLOCK_CODE:
		render_code(m);
		m->in_code = false;
		m->need_blank = true;
		return 0;
	case MD_BLOCK_HTML:
		m->in_html = false;
		return 0;
	default:
		break;
	}
	flush(m);
	switch (type) {
	case MD_BLOCK_P:
	case MD_BLOCK_H:
		m->need_blank = true;
		m->hlevel = 0;
		m->base = m->quotes ? S_QUOTE : S_PLAIN;
		break;
	case MD_BLOCK_LI:
		if (m->nbox)
			m->nbox--;
		break;
	case MD_BLOCK_UL:
	case MD_BLOCK_OL:
		if (m->nlist)
			m->nlist--;
		if (!m->nlist)
			m->need_blank = true;
		break;
	case MD_BLOCK_QUOTE:
		if (m->nbox)
			m->nbox--;
		m->quotes--;
		m->need_blank = true;
		break;
	default:
		break;
	}
	return 0;
}

static int
enter_span(MD_SPANTYPE type, void *detail, void *data)
{
	struct md *m = data;

	switch (type) {
	case MD_SPAN_EM: m->em++; break;
	case MD_SPAN_STRONG: m->strong++; break;
	case MD_SPAN_A: m->link++; break;
	case MD_SPAN_CODE: m->code++; break;
	case MD_SPAN_DEL: m->strike++; break;
	case MD_SPAN_IMG: add_run(m, "[image: ", 8); break;
	default: break;
	}
	return 0;
}

static int
leave_span(MD_SPANTYPE type, void *detail, void *data)
{
	struct md *m = data;

	switch (type) {
	case MD_SPAN_EM: m->em--; break;
	case MD_SPAN_STRONG: m->strong--; break;
	case MD_SPAN_A: m->link--; break;
	case MD_SPAN_CODE: m->code--; break;
	case MD_SPAN_DEL: m->strike--; break;
	case MD_SPAN_IMG: add_run(m, "]", 1); break;
	default: break;
	}
	return 0;
}

/* An HTML entity as UTF-8 where it is one a lesson uses or a numeric one; as written otherwise. */
static void
add_entity(struct md *m, const char *s, size_t len)
{
	char utf8[ENTITY_UTF8_MAX];
	size_t n = entity_utf8(s, len, utf8);

	if (n)
		add_run(m, utf8, n);
	else
		add_run(m, s, len);
}

static int
text(MD_TEXTTYPE type, const MD_CHAR *s, MD_SIZE len, void *data)
{
	struct md *m = data;

	if (m->in_code) {
		buf_add(&m->code_text, s, len);
		return 0;
	}
	if (m->in_html)
		return 0;
	switch (type) {
	case MD_TEXT_NULLCHAR: add_run(m, "\xef\xbf\xbd", 3); break;
	case MD_TEXT_BR: add_run(m, "\n", 1); break;
	case MD_TEXT_SOFTBR: add_run(m, " ", 1); break;
	case MD_TEXT_HTML: break;
	case MD_TEXT_ENTITY: add_entity(m, s, len); break;
	default: add_run(m, s, len); break;
	}
	return 0;
}

int
md_render(struct doc *d, const char *src, size_t len, int width)
{
	struct md m = { .d = d, .width = width < 20 ? 20 : width, .start = d->n, .code_text = BUF_INIT };
	MD_PARSER parser = {
		.flags = MD_DIALECT_GITHUB | MD_FLAG_NOHTML,
		.enter_block = enter_block,
		.leave_block = leave_block,
		.enter_span = enter_span,
		.leave_span = leave_span,
		.text = text,
	};
	int ret = md_parse(src, (MD_SIZE)len, &parser, &m);

	flush(&m);
	free_runs(m.runs, m.nruns);
	free(m.runs);
	free_table(&m);
	buf_free(&m.code_text);
	if (ret)
		return error("cannot parse the Markdown (md4c returned %d)", ret);
	return 0;
}
