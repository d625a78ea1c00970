/*
 * rewrite.h — what the rewriter's files share (cudasim-rewrite, a program of
 * its own; main.c says what it does): the source, its tokens, the edits the
 * passes make, and the passes themselves. Nothing outside sim/rewrite/
 * includes it.
 */
#ifndef CUDASIM_REWRITE_H
#define CUDASIM_REWRITE_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/lex.h"
#include "lib/util.h"

struct edit {
	size_t start, end;
	char *text;		/* replaces [start, end) */
};

/* main.c: the input, its folder (absolute where it can be), the output */
extern const char *in_path;
extern char *in_dir, *out_path;
extern char *src;
extern size_t src_len;
/* tokens.c fills them */
extern struct lex_token *toks;
extern int ntoks;

/* "IN.cu:LINE: message" on stderr, and exit 1 (main.c) */
void fail(int line, const char *fmt, ...) __attribute__((noreturn, format(__printf__, 2, 3)));
/* Replace [start, end) of the source with text, which the edit then owns (main.c). */
void add_edit(size_t start, size_t end, char *text);
/* Pad a replacement with the newlines of the text it replaces, so lines stay put; returns the text
 * (you own it: add_edit takes it), and b is empty again. */
char *keep_lines(struct buf *b, size_t start, size_t end);
/* Whether the walk is at namespace scope: no function, class or other braces around it (main.c). */
bool at_namespace_scope(void);

/* tokens.c */
void tokenize(void);
void buf_src(struct buf *b, size_t from, size_t to);
int newlines(size_t from, size_t to);
bool tok_is(int i, const char *s);
bool ident_is(int i, const char *s);
/* Tokens a and b are the same text. */
bool same_text(int a, int b);
/* The index of the bracket that closes the one at i, or -1. */
int match_forward(int i);
/* The index of the bracket open that the close at i closes, or -1. */
int match_backward(int i, char open, char close);
/* Three tokens c, c, c with nothing between them: "<<<" or ">>>". */
bool triple(int i, char c);
/* Skip "__align__(...)", "alignas(...)", "__attribute__((...))" at j; returns the next index. */
int skip_attribute(int j);

/* The passes: each returns the index of the token after what it rewrote. */
int rewrite_launch(int lt);			/* launch.c */
int rewrite_launch_call(int i);			/* launch.c */
int rewrite_shared(int sh);			/* decls.c */
void rewrite_device_var(int i);			/* decls.c */
void rewrite_noinline(int i);			/* decls.c */
void rewrite_include(int hash);			/* include.c */
void rewrite_pragma(int hash);			/* include.c */
void check_unconfigured_calls(void);		/* calls.c */
void check_uninstrumented(void);		/* calls.c */
void check_host_device_calls(void);		/* calls.c */
void rewrite_launch_bounds(int name, int body, bool overloaded);	/* bounds.c */

#endif
