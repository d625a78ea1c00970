/* doc: styled lines laid out at a width: word wrap, verbatim text, UTF-8 widths, ASCII (see doc.h). */
#include "tui/doc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

void
doc_init(struct doc *d, bool ascii)
{
	memset(d, 0, sizeof(*d));
	d->ascii = ascii;
}

void
doc_free(struct doc *d)
{
	for (int i = 0; i < d->n; i++) {
		for (int j = 0; j < d->lines[i].n; j++)
			free(d->lines[i].spans[j].text);
		free(d->lines[i].spans);
	}
	free(d->lines);
	d->lines = NULL;
	d->n = d->alloc = 0;
}

void
doc_newline(struct doc *d)
{
	ALLOC_GROW(d->lines, d->n + 1, d->alloc);
	memset(&d->lines[d->n++], 0, sizeof(struct doc_line));
}

void
doc_put(struct doc *d, unsigned style, const char *text, size_t len)
{
	struct doc_line *l;
	struct doc_span *last;
	char *t;

	if (!len)
		return;
	if (!d->n)
		doc_newline(d);
	l = &d->lines[d->n - 1];
	t = d->ascii ? translit_ascii(text, len) : xstrndup(text, len);
	last = l->n ? &l->spans[l->n - 1] : NULL;
	if (last && last->style == style) {
		/* one span per run of a style keeps drawing and tests simple */
		char *joined = xasprintf("%s%s", last->text, t);

		free(last->text);
		free(t);
		last->text = joined;
		return;
	}
	ALLOC_GROW(l->spans, l->n + 1, l->alloc);
	l->spans[l->n].text = t;
	l->spans[l->n].style = style;
	l->n++;
}

void
spans_add(struct doc_span **spans, int *n, int *alloc, unsigned style, const char *s, size_t len)
{
	if (!len)
		return;
	if (*n && (*spans)[*n - 1].style == style) {
		struct doc_span *last = &(*spans)[*n - 1];
		size_t old = strlen(last->text);

		last->text = xrealloc(last->text, old + len + 1);
		memcpy(last->text + old, s, len);
		last->text[old + len] = '\0';
		return;
	}
	ALLOC_GROW(*spans, *n + 1, *alloc);
	(*spans)[*n].text = xstrndup(s, len);
	(*spans)[*n].style = style;
	(*n)++;
}

void
spans_free(struct doc_span *spans, int n)
{
	for (int i = 0; i < n; i++)
		free(spans[i].text);
	free(spans);
}

void
doc_puts(struct doc *d, unsigned style, const char *text)
{
	doc_put(d, style, text, strlen(text));
}

void
doc_printf(struct doc *d, unsigned style, const char *fmt, ...)
{
	va_list ap;
	char buf[1024];
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	doc_put(d, style, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

void
doc_repeat(struct doc *d, unsigned style, const char *s, int n)
{
	struct buf sb = BUF_INIT;

	for (int i = 0; i < n; i++)
		buf_addstr(&sb, s);
	if (sb.len)
		doc_put(d, style, sb.data, sb.len);
	buf_free(&sb);
}

void
doc_append(struct doc *d, const struct doc *src, const char *indent)
{
	for (int i = 0; i < src->n; i++) {
		doc_newline(d);
		if (src->lines[i].n)
			doc_puts(d, S_PLAIN, indent);
		for (int j = 0; j < src->lines[i].n; j++)
			doc_puts(d, src->lines[i].spans[j].style, src->lines[i].spans[j].text);
	}
}

char *
doc_line_text(const struct doc_line *l)
{
	struct buf sb = BUF_INIT;

	for (int i = 0; i < l->n; i++)
		buf_addstr(&sb, l->spans[i].text);
	return buf_detach(&sb);
}

int
doc_line_width(const struct doc_line *l)
{
	int w = 0;

	for (int i = 0; i < l->n; i++)
		w += utf8_width(l->spans[i].text, strlen(l->spans[i].text));
	return w;
}

/* Decode one UTF-8 character at s; *n gets its length.  Bad bytes read as U+FFFD. */
static unsigned
utf8_decode(const unsigned char *s, size_t len, size_t *n)
{
	unsigned c = s[0];
	size_t need;

	if (c < 0x80) {
		*n = 1;
		return c;
	}
	need = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 0;
	if (!need || need > len) {
		*n = 1;
		return 0xfffd;
	}
	c &= 0x3f >> (need - 1);
	for (size_t i = 1; i < need; i++) {
		if ((s[i] & 0xc0) != 0x80) {
			*n = i;
			return 0xfffd;
		}
		c = c << 6 | (s[i] & 0x3f);
	}
	*n = need;
	return c;
}

/* Columns of one code point: combining marks take none, East Asian wide two. */
static int
cp_width(unsigned c)
{
	if ((c >= 0x300 && c <= 0x36f) || c == 0x200b || (c >= 0xfe00 && c <= 0xfe0f))
		return 0;
	if ((c >= 0x1100 && c <= 0x115f) || (c >= 0x2e80 && c <= 0xa4cf) ||
	    (c >= 0xac00 && c <= 0xd7a3) || (c >= 0xf900 && c <= 0xfaff) ||
	    (c >= 0xff00 && c <= 0xff60) || (c >= 0x1f300 && c <= 0x1faff))
		return 2;
	return 1;
}

int
utf8_width(const char *s, size_t len)
{
	int w = 0;
	size_t n;

	for (size_t i = 0; i < len; i += n)
		w += cp_width(utf8_decode((const unsigned char *)s + i, len - i, &n));
	return w;
}

size_t
utf8_fit(const char *s, size_t len, int cols)
{
	size_t i = 0, n;
	int w = 0;

	while (i < len) {
		int cw = cp_width(utf8_decode((const unsigned char *)s + i, len - i, &n));

		if (w + cw > cols)
			break;
		w += cw;
		i += n;
	}
	return i;
}

static const struct {
	unsigned cp;
	const char *ascii;
} translit[] = {
	{ 0x00a0, " " }, { 0x00a9, "(c)" }, { 0x00b0, "deg" }, { 0x00b1, "+-" },
	{ 0x00b2, "^2" }, { 0x00b3, "^3" }, { 0x00b5, "u" }, { 0x00b7, "." },
	{ 0x00d7, "x" }, { 0x00f7, "/" }, { 0x03bc, "u" }, { 0x03c0, "pi" },
	{ 0x2010, "-" }, { 0x2011, "-" }, { 0x2013, "-" }, { 0x2014, "--" },
	{ 0x2018, "'" }, { 0x2019, "'" }, { 0x201c, "\"" }, { 0x201d, "\"" },
	{ 0x2022, "*" }, { 0x2026, "..." }, { 0x2190, "<-" }, { 0x2192, "->" },
	{ 0x21d2, "=>" }, { 0x2211, "sum" }, { 0x2248, "~" }, { 0x2260, "!=" },
	{ 0x2264, "<=" }, { 0x2265, ">=" }, { 0x2500, "-" }, { 0x2501, "=" },
	{ 0x2502, "|" }, { 0x2503, "|" }, { 0x250c, "+" }, { 0x2510, "+" }, { 0x2514, "+" },
	{ 0x2518, "+" }, { 0x251c, "+" }, { 0x2524, "+" }, { 0x252c, "+" },
	{ 0x2534, "+" }, { 0x253c, "+" }, { 0x2550, "=" }, { 0x2588, "#" },
	{ 0x258c, "#" }, { 0x2591, "." }, { 0x25b8, ">" }, { 0x25cb, "o" },
	{ 0x25c6, "G" }, { 0x25cf, "*" }, { 0x25d0, "~" }, { 0x25e6, "-" }, { 0x2713, "+" }, { 0x2714, "+" },
	{ 0x2717, "x" }, { 0x2718, "x" }, { 0xfffd, "?" },
};

char *
translit_ascii(const char *s, size_t len)
{
	struct buf sb = BUF_INIT;
	size_t n;

	for (size_t i = 0; i < len; i += n) {
		unsigned c = utf8_decode((const unsigned char *)s + i, len - i, &n);
		const char *a = "?";

		if (c < 0x80) {
			buf_add(&sb, s + i, 1);
			continue;
		}
		if (cp_width(c) == 0)
			continue;
		for (size_t k = 0; k < ARRAY_SIZE(translit); k++)
			if (translit[k].cp == c)
				a = translit[k].ascii;
		buf_addstr(&sb, a);
	}
	return buf_detach(&sb);
}

void
doc_verbatim(struct doc *d, unsigned style, const char *text, int width, const char *indent)
{
	int iw = utf8_width(indent, strlen(indent));

	while (*text) {
		size_t len = strcspn(text, "\n"), lead, fit;
		struct buf line = BUF_INIT;
		const char *s;
		int hang, room;

		for (size_t i = 0; i < len; i++) {
			if (text[i] == '\t')
				do buf_add(&line, " ", 1); while (line.len % 8);
			else if (text[i] != '\r')
				buf_add(&line, text + i, 1);
		}
		s = line.data;
		lead = strspn(s, " ");
		/* continuations hang under the line's own indentation, two further in */
		hang = (int)lead + 2 < (width - iw) / 2 ? (int)lead + 2 : 2;
		room = width - iw > 8 ? width - iw : 8;
		for (bool first = true; first || *s; first = false) {
			fit = utf8_fit(s, strlen(s), room);
			if (s[fit]) {
				/* at a space, if there is one past the indentation */
				size_t sp = fit;

				while (sp > lead && s[sp] != ' ')
					sp--;
				if (sp > lead)
					fit = sp;
			}
			if (!fit && *s)
				fit = 1;
			doc_newline(d);
			doc_puts(d, S_PLAIN, indent);
			if (!first)
				doc_repeat(d, S_PLAIN, " ", hang);
			doc_put(d, style, s, fit);
			s += fit;
			s += strspn(s, " ");
			if (first) {
				room -= hang;
				lead = 0;
			}
		}
		buf_free(&line);
		text += len + (text[len] == '\n');
	}
}

/* ---- word wrapping ---- */

struct piece {
	const char *s;
	size_t len;
	unsigned style;
};

struct wrapper {
	struct doc *d;
	int width;
	const char *first, *rest;
	unsigned prefix_style;
	int lines;		/* lines started so far */
	int col;		/* columns used on the current line, prefix included */
	bool empty;		/* nothing but the prefix on the current line */
	int breaks;		/* '\n' seen since the last word */
	bool space;		/* a space came before the word being collected */
	unsigned last_style;
	struct piece *word;
	int nword, aword, wordw;
};

static void
wrap_line(struct wrapper *w)
{
	const char *p = w->lines ? w->rest : w->first;

	doc_newline(w->d);
	doc_puts(w->d, w->prefix_style, p);
	w->col = utf8_width(p, strlen(p));
	w->empty = true;
	w->lines++;
}

static void
wrap_flush_word(struct wrapper *w)
{
	if (!w->nword)
		return;
	if (!w->lines)
		wrap_line(w);
	for (; w->breaks > 0; w->breaks--)
		wrap_line(w);
	if (!w->empty && w->col + 1 + w->wordw > w->width)
		wrap_line(w);
	if (!w->empty && w->space) {
		unsigned st = w->last_style == w->word[0].style ? w->last_style : S_PLAIN;

		doc_put(w->d, st, " ", 1);
		w->col++;
	}
	for (int i = 0; i < w->nword; i++) {
		struct piece p = w->word[i];

		while (p.len) {
			int pw = utf8_width(p.s, p.len);
			size_t n;

			if (w->col + pw <= w->width) {
				doc_put(w->d, p.style, p.s, p.len);
				w->col += pw;
				w->empty = false;
				break;
			}
			/* too wide for any line: cut it where the line ends */
			n = utf8_fit(p.s, p.len, w->width - w->col);
			if (!n && !w->empty) {
				wrap_line(w);
				continue;
			}
			if (!n)
				n = utf8_fit(p.s, p.len, 2) ? utf8_fit(p.s, p.len, 2) : 1;
			doc_put(w->d, p.style, p.s, n);
			p.s += n;
			p.len -= n;
			wrap_line(w);
		}
		w->last_style = p.style;
	}
	w->nword = 0;
	w->wordw = 0;
	w->space = false;
}

void
doc_wrap(struct doc *d, const struct doc_span *runs, int nruns, int width,
	 const char *first, const char *rest, unsigned prefix_style)
{
	struct wrapper w = {
		.d = d, .width = width, .first = first ? first : "",
		.rest = rest ? rest : "", .prefix_style = prefix_style,
	};
	char **ascii = NULL;

	if (d->ascii) {
		/* measure what will be shown: "—" becomes "--" */
		ascii = xcalloc((size_t)nruns, sizeof(*ascii));
		for (int r = 0; r < nruns; r++)
			ascii[r] = translit_ascii(runs[r].text, strlen(runs[r].text));
	}
	for (int r = 0; r < nruns; r++) {
		const char *s = ascii ? ascii[r] : runs[r].text;
		int sw = utf8_width(s, strlen(s));

		if ((runs[r].style & F_KEEP) && sw <= width - utf8_width(w.rest, strlen(w.rest)) && !strchr(s, '\n')) {
			ALLOC_GROW(w.word, w.nword + 1, w.aword);
			w.word[w.nword++] = (struct piece){ s, strlen(s), runs[r].style & ~F_KEEP };
			w.wordw += sw;
			continue;
		}
		for (size_t i = 0; s[i];) {
			size_t j = i;

			if (s[i] == ' ' || s[i] == '\t' || s[i] == '\n') {
				wrap_flush_word(&w);
				if (s[i] == '\n')
					w.breaks++;
				else
					w.space = true;
				i++;
				continue;
			}
			while (s[j] && s[j] != ' ' && s[j] != '\t' && s[j] != '\n')
				j++;
			ALLOC_GROW(w.word, w.nword + 1, w.aword);
			w.word[w.nword++] = (struct piece){ s + i, j - i, runs[r].style & ~F_KEEP };
			w.wordw += utf8_width(s + i, j - i);
			i = j;
		}
	}
	w.breaks = 0;
	wrap_flush_word(&w);
	free(w.word);
	for (int r = 0; ascii && r < nruns; r++)
		free(ascii[r]);
	free(ascii);
}

void
doc_wrap_text(struct doc *d, unsigned style, const char *text, int width,
	      const char *first, const char *rest)
{
	struct doc_span run = { (char *)text, style };

	doc_wrap(d, &run, 1, width, first, rest, style);
}
