/*
 * doc: a document as the screen shows it, lines of styled spans, already laid
 * out at a width.  The lesson, the results and the help are built as a doc by
 * pure code (no curses), so tests can check the layout without a terminal;
 * screen.c maps each style to colours and attributes.
 */
#ifndef TUI_DOC_H
#define TUI_DOC_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

/* What a span is (the low bits of its style); screen.c decides how it looks. */
enum doc_class {
	S_PLAIN, S_CODE, S_H1, S_H2, S_H3, S_RULE, S_QUOTE, S_BULLET,
	S_CODEBLOCK, S_KEYWORD, S_CUDA, S_COMMENT, S_STRING, S_NUMBER,
	S_TABLE_HEAD, S_TABLE_BORDER,
	S_PASS, S_FAIL, S_WARN, S_DIM, S_ERROR, S_TITLE,
	S_BAR_GOOD, S_BAR_BAD, S_BAR_REF, S_BAR_LIMIT, S_SELECTED,
	S_NCLASSES
};
#define S_CLASS(style) ((style) & 0xff)
/* Inline emphasis, or'ed onto a class. */
#define F_EM     0x100u
#define F_STRONG 0x200u
#define F_LINK   0x400u
#define F_STRIKE 0x800u
/* For doc_wrap: keep the run on one line where it fits (a formula); not drawn. */
#define F_KEEP   0x1000u

struct doc_span {
	char *text;		/* UTF-8, owned by the line */
	unsigned style;
};

struct doc_line {
	struct doc_span *spans;
	int n, alloc;
};

struct doc {
	struct doc_line *lines;
	int n, alloc;
	bool ascii;		/* transliterate everything put to ASCII */
};

/*
 * Append len bytes of s to the array of spans *spans (*n used, *alloc
 * allocated), joined to the last span when it has the same style.  The
 * array and the texts are yours: spans_free.
 */
void spans_add(struct doc_span **spans, int *n, int *alloc, unsigned style, const char *s, size_t len);
void spans_free(struct doc_span *spans, int n);

void doc_init(struct doc *d, bool ascii);
void doc_free(struct doc *d);

/* Start a new, empty line at the end. */
void doc_newline(struct doc *d);
/* Append text (copied) to the last line, starting one if there is none. */
void doc_put(struct doc *d, unsigned style, const char *text, size_t len);
void doc_puts(struct doc *d, unsigned style, const char *text);
void doc_printf(struct doc *d, unsigned style, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Append n copies of the glyph s. */
void doc_repeat(struct doc *d, unsigned style, const char *s, int n);
/* Append every line of src to d, each behind indent. */
void doc_append(struct doc *d, const struct doc *src, const char *indent);

/*
 * Append runs to d word-wrapped at width columns (prefix included).  The first
 * line starts with first, the others with rest (both styled prefix_style).
 * A '\n' in a run ends the line; a word wider than the line is cut; a run
 * styled F_KEEP is one word, spaces and all, where it fits on a line.
 */
void doc_wrap(struct doc *d, const struct doc_span *runs, int nruns, int width,
	      const char *first, const char *rest, unsigned prefix_style);
/* The same for one plain string. */
void doc_wrap_text(struct doc *d, unsigned style, const char *text, int width,
		   const char *first, const char *rest);

/*
 * Append text as it is, line by line, spaces kept (compiler messages, program
 * output): each line behind indent, cut at width onto continuation lines
 * indented two more.  Tabs go to 8 columns.
 */
void doc_verbatim(struct doc *d, unsigned style, const char *text, int width, const char *indent);

/* The text of a line without styles; you own the string. */
char *doc_line_text(const struct doc_line *l);
int doc_line_width(const struct doc_line *l);

/* Columns taken by len bytes of UTF-8. */
int utf8_width(const char *s, size_t len);
/* How many bytes of s (len bytes) fit in cols columns, cut at a character. */
size_t utf8_fit(const char *s, size_t len, int cols);
/* s with every non-ASCII character spelled in ASCII ("×" → "x"); you own it. */
char *translit_ascii(const char *s, size_t len);

#endif
