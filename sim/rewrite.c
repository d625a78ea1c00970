/*
 * cudasim-rewrite — turn a CUDA C .cu file into C++ that g++ compiles
 * against include/cudasim.h.
 *
 *   cudasim-rewrite IN.cu OUT.cpp
 *
 * Exit 0, or 1 with "IN.cu:LINE: message" on stderr for input it cannot
 * rewrite. What changes (everything else is copied byte for byte, and every
 * line stays on its own line, so with the leading #line every compiler error
 * and every fault points at the original file's line numbers):
 *
 *   k<<<g, b, s, st>>>(args)   ::cudasim::launch([&](auto &&...a) { k(a...); },
 *                               "k", __FILE__, __LINE__)(g, b, s, st)(args)
 *   extern __shared__ T x[];   T *const x = (T *)cudasim_dyn_smem;
 *   __shared__ T x[N];         T (&x)[N] = a slot of the static shared arena, which
 *                              the first thread of each block poisons
 *   __device__ T v;            (namespace scope) kept in the section that the
 *                              order check snapshots
 *   #include "h"               the path made absolute when h sits beside IN.cu,
 *                              since g++ looks beside OUT.cpp instead
 *
 * The input is tokenized (comments, strings, raw strings, character
 * literals and digit separators understood), so "<<<" in a string, a
 * comment or a shift like a<<b>>c is left alone.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/run.h"
#include "lib/util.h"

enum kind { K_IDENT, K_NUMBER, K_STRING, K_CHAR, K_PUNCT };

struct tok {
	enum kind kind;
	size_t start, end;	/* byte range in the source */
	int line;
	int seg;		/* 0: code; n: the n-th preprocessor directive */
};

struct edit {
	size_t start, end;
	char *text;		/* replaces [start, end) */
};

static const char *in_path;
static char *src;
static size_t src_len;
static struct tok *toks;
static int ntoks, cap_toks;
static struct edit *edits;
static int nedits, cap_edits;
static int counter;

static void __attribute__((noreturn, format(__printf__, 2, 3)))
fail(int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s:%d: ", in_path, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* ---------------------------------------------------------------- strings */

/* The source between two offsets. */
static void
buf_src(struct buf *b, size_t from, size_t to)
{
	if (to > from)
		buf_add(b, src + from, to - from);
}

static int
newlines(size_t from, size_t to)
{
	int n = 0;

	for (size_t i = from; i < to; i++)
		n += src[i] == '\n';
	return n;
}

/* ---------------------------------------------------------------- tokens */

static bool
tok_is(int i, const char *s)
{
	size_t n = strlen(s);

	return i >= 0 && i < ntoks && toks[i].end - toks[i].start == n &&
	       !memcmp(src + toks[i].start, s, n);
}

static bool
ident_is(int i, const char *s)
{
	return i >= 0 && i < ntoks && toks[i].kind == K_IDENT && tok_is(i, s);
}

static void
push_tok(enum kind kind, size_t start, size_t end, int line, int seg)
{
	if (ntoks == cap_toks) {
		cap_toks = cap_toks ? cap_toks * 2 : 4096;
		toks = xrealloc(toks, cap_toks * sizeof(*toks));
	}
	toks[ntoks++] = (struct tok){ kind, start, end, line, seg };
}

static bool
ident_char(int c)
{
	return isalnum(c) || c == '_' || c == '$' || c >= 0x80;
}

/*
 * A quoted literal from the opening quote; returns the offset after it, or
 * 0 when it does not end on its line (an apostrophe in "#error don't" or in
 * an #if 0 block): g++ judges those, so the quote is left as it is.
 */
static size_t
scan_quoted(size_t i, int *line)
{
	char q = src[i];
	int lines = 0;

	for (i++; i < src_len; i++) {
		if (src[i] == '\\' && i + 1 < src_len) {
			if (src[i + 1] == '\n')
				lines++;
			i++;
		} else if (src[i] == q) {
			*line += lines;
			return i + 1;
		} else if (src[i] == '\n') {
			return 0;
		}
	}
	return 0;
}

/* R"delim( ... )delim" from the opening quote. */
static size_t
scan_raw(size_t i, int *line)
{
	char delim[20], close[24];
	size_t d = 0, n;
	int start_line = *line;
	char *end;

	for (i++; i < src_len && src[i] != '(' && d < 16; i++)
		delim[d++] = src[i];
	if (i >= src_len || src[i] != '(')
		fail(start_line, "invalid raw string delimiter");
	delim[d] = '\0';
	n = (size_t)snprintf(close, sizeof(close), ")%s\"", delim);
	end = memmem(src + i, src_len - i, close, n);
	if (!end)
		fail(start_line, "unterminated raw string");
	*line += newlines(i, (size_t)(end - src));
	return (size_t)(end - src) + n;
}

static void
tokenize(void)
{
	size_t i = 0;
	int line = 1, seg = 0, ndirectives = 0;
	bool line_start = true;

	while (i < src_len) {
		char c = src[i];

		if (c == '\n') {
			line++;
			i++;
			line_start = true;
			seg = 0;
			continue;
		}
		if (c == '\\' && i + 1 < src_len && src[i + 1] == '\n') {
			line++;
			i += 2;
			continue;
		}
		if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
			i++;
			continue;
		}
		if (c == '/' && i + 1 < src_len && src[i + 1] == '/') {
			while (i < src_len && src[i] != '\n') {
				if (src[i] == '\\' && i + 1 < src_len && src[i + 1] == '\n')
					line++, i++;
				i++;
			}
			continue;
		}
		if (c == '/' && i + 1 < src_len && src[i + 1] == '*') {
			char *end = memmem(src + i + 2, src_len - i - 2, "*/", 2);

			if (!end)
				fail(line, "unterminated comment");
			line += newlines(i, (size_t)(end - src));
			i = (size_t)(end - src) + 2;
			continue;
		}
		if (c == '#' && line_start) {
			seg = ++ndirectives;
			push_tok(K_PUNCT, i, i + 1, line, seg);
			i++;
			line_start = false;
			continue;
		}
		line_start = false;
		if (isdigit((unsigned char)c) || (c == '.' && i + 1 < src_len && isdigit((unsigned char)src[i + 1]))) {
			size_t s = i++;

			while (i < src_len) {
				if ((src[i] == '+' || src[i] == '-') && strchr("eEpP", src[i - 1]))
					i++;
				else if (src[i] == '\'' && i + 1 < src_len && ident_char((unsigned char)src[i + 1]))
					i += 2;
				else if (ident_char((unsigned char)src[i]) || src[i] == '.')
					i++;
				else
					break;
			}
			push_tok(K_NUMBER, s, i, line, seg);
			continue;
		}
		if (ident_char((unsigned char)c)) {
			size_t s = i, e;
			int l = line;

			while (i < src_len && ident_char((unsigned char)src[i]))
				i++;
			if (i < src_len && src[i] == '"') {
				size_t n = i - s;

				if (src[i - 1] == 'R' && (n == 1 || (n == 2 && strchr("uUL", src[s])) ||
							  (n == 3 && !memcmp(src + s, "u8", 2)))) {
					i = scan_raw(i, &line);
					push_tok(K_STRING, s, i, l, seg);
					continue;
				}
				if (n <= 2 && (!memcmp(src + s, "u8", n) || strchr("uUL", src[s])) &&
				    (e = scan_quoted(i, &line))) {
					i = e;
					push_tok(K_STRING, s, i, l, seg);
					continue;
				}
			}
			if (i < src_len && src[i] == '\'' && i - s <= 2 &&
			    (!memcmp(src + s, "u8", i - s) || strchr("uUL", src[s])) &&
			    (e = scan_quoted(i, &line))) {
				i = e;
				push_tok(K_CHAR, s, i, l, seg);
				continue;
			}
			push_tok(K_IDENT, s, i, l, seg);
			continue;
		}
		if (c == '"' || c == '\'') {
			size_t s = i, e = scan_quoted(i, &line);

			if (e) {
				push_tok(c == '"' ? K_STRING : K_CHAR, s, e, line, seg);
				i = e;
				continue;
			}
		}
		if (c == '<' && seg && ntoks >= 2 && ident_is(ntoks - 1, "include") && tok_is(ntoks - 2, "#")) {
			size_t s = i;

			while (i < src_len && src[i] != '>' && src[i] != '\n')
				i++;
			push_tok(K_STRING, s, i + (i < src_len && src[i] == '>'), line, seg);
			i += i < src_len && src[i] == '>';
			continue;
		}
		if (c == ':' && i + 1 < src_len && src[i + 1] == ':') {
			push_tok(K_PUNCT, i, i + 2, line, seg);
			i += 2;
			continue;
		}
		if (c == '-' && i + 1 < src_len && src[i + 1] == '>') {
			push_tok(K_PUNCT, i, i + 2, line, seg);
			i += 2;
			continue;
		}
		push_tok(K_PUNCT, i, i + 1, line, seg);
		i++;
	}
}

/* ---------------------------------------------------------------- edits */

static void
add_edit(size_t start, size_t end, char *text)
{
	if (nedits == cap_edits) {
		cap_edits = cap_edits ? cap_edits * 2 : 64;
		edits = xrealloc(edits, cap_edits * sizeof(*edits));
	}
	edits[nedits++] = (struct edit){ start, end, text };
}

/* Pad a replacement with the newlines of the text it replaces, so lines stay put. */
static char *
keep_lines(struct buf *b, size_t start, size_t end)
{
	int n = newlines(start, end);
	int have = 0;

	for (size_t i = 0; i < b->len; i++)
		have += b->data[i] == '\n';
	for (; have < n; have++)
		buf_addstr(b, "\n");
	return b->data;
}

/* ---------------------------------------------------------------- scopes */

enum scope { S_NAMESPACE, S_CLASS, S_OTHER };

static enum scope *scopes;
static int nscopes, cap_scopes;

static enum scope
brace_kind(int i)
{
	int j = i - 1;

	if (j >= 0 && toks[j].kind == K_STRING && ident_is(j - 1, "extern"))
		return S_NAMESPACE;
	while (j >= 0 && (toks[j].kind == K_IDENT || tok_is(j, "::"))) {
		if (ident_is(j, "namespace"))
			return S_NAMESPACE;
		j--;
	}
	for (j = i - 1; j >= 0 && !tok_is(j, ";") && !tok_is(j, "{") && !tok_is(j, "}") &&
	     !tok_is(j, ")") && !tok_is(j, "="); j--)
		if (ident_is(j, "struct") || ident_is(j, "class") || ident_is(j, "union") ||
		    ident_is(j, "enum"))
			return S_CLASS;
	return S_OTHER;
}

static bool
at_namespace_scope(void)
{
	for (int i = 0; i < nscopes; i++)
		if (scopes[i] != S_NAMESPACE)
			return false;
	return true;
}

/* The index of the bracket that closes the one at i, or -1. */
static int
match_forward(int i)
{
	const char *open = "([{", *close = ")]}";
	int depth = 0;

	for (int j = i; j < ntoks && toks[j].seg == toks[i].seg; j++) {
		if (toks[j].kind != K_PUNCT || toks[j].end - toks[j].start != 1)
			continue;
		if (strchr(open, src[toks[j].start]))
			depth++;
		else if (strchr(close, src[toks[j].start]) && --depth == 0)
			return j;
	}
	return -1;
}

static int
match_backward(int i, char open, char close)
{
	int depth = 0;

	for (int j = i; j >= 0 && toks[j].seg == toks[i].seg; j--) {
		if (open == '<' && tok_is(j, "<") && tok_is(j - 1, "<") &&
		    toks[j - 1].end == toks[j].start) {
			j--;		/* a shift inside template arguments: 1 << 2 */
			continue;
		}
		if (tok_is(j, (char[]){ close, 0 }))
			depth++;
		else if (tok_is(j, (char[]){ open, 0 }) && --depth == 0)
			return j;
		else if (open == '<' && (tok_is(j, ";") || tok_is(j, "{") || tok_is(j, "}")))
			return -1;
	}
	return -1;
}

/* Three tokens c, c, c with nothing between them: "<<<" or ">>>". */
static bool
triple(int i, char c)
{
	char s[2] = { c, 0 };

	return i + 2 < ntoks && tok_is(i, s) && tok_is(i + 1, s) && tok_is(i + 2, s) &&
	       toks[i].end == toks[i + 1].start && toks[i + 1].end == toks[i + 2].start &&
	       toks[i].seg == toks[i + 2].seg;
}

/* ---------------------------------------------------------------- launches */

static void
add_name(struct buf *b, int from, int to)
{
	for (int j = from; j <= to; j++) {
		if (j > from && toks[j].kind == K_IDENT && toks[j - 1].kind == K_IDENT)
			buf_addstr(b, " ");
		for (size_t k = toks[j].start; k < toks[j].end; k++) {
			if (src[k] == '"' || src[k] == '\\')
				buf_addstr(b, "\\");
			buf_add(b, src + k, 1);
		}
	}
}

/* The first token of the kernel expression that ends at token end. */
static int
kernel_start(int end)
{
	int j = end, start = -1;

	if (tok_is(j, ")")) {
		int o = match_backward(j, '(', ')');

		return o;
	}
	for (;;) {
		if (tok_is(j, ">")) {
			int o = match_backward(j, '<', '>');

			if (o < 0)
				return -1;
			j = o - 1;
		}
		if (j < 0 || toks[j].kind != K_IDENT || toks[j].seg != toks[end].seg)
			return start;
		start = j--;
		if (ident_is(j, "template"))
			start = j--;
		if (!tok_is(j, "::"))
			return start;
		start = j--;
		if (j < 0 || (toks[j].kind != K_IDENT && !tok_is(j, ">")))
			return start;
	}
}

/*
 * The arguments from after ">>>" to the closing ')'. The launch stores them
 * by value, so a lone NULL or 0 would lose its meaning of a null pointer:
 * such an argument becomes a value that converts to any parameter type.
 */
static void
add_arguments(struct buf *b, int gt_last, int lp, int rp)
{
	size_t pos = toks[gt_last].end;
	int depth = 0, first = lp + 1;

	for (int j = lp + 1; j <= rp; j++) {
		if (j == rp || (depth == 0 && tok_is(j, ","))) {
			if (j == first + 1 && (ident_is(first, "NULL") || ident_is(first, "nullptr") ||
					       tok_is(first, "0"))) {
				buf_src(b, pos, toks[first].start);
				buf_addstr(b, "::cudasim::null_arg()");
				pos = toks[first].end;
			}
			first = j + 1;
			continue;
		}
		if (tok_is(j, "(") || tok_is(j, "[") || tok_is(j, "{"))
			depth++;
		else if (tok_is(j, ")") || tok_is(j, "]") || tok_is(j, "}"))
			depth--;
	}
	buf_src(b, pos, toks[rp].end);
}

/* k<<<config>>>(args) starting at the "<<<" at index lt; returns the index after it. */
static int
rewrite_launch(int lt)
{
	int gt = -1, lp, rp, start, nargs = 1, depth = 0;
	struct buf b = { 0 };

	for (int j = lt + 3; j < ntoks && toks[j].seg == toks[lt].seg; j++) {
		if (depth == 0 && triple(j, '>')) {
			gt = j;
			break;
		}
		if (tok_is(j, "(") || tok_is(j, "[") || tok_is(j, "{"))
			depth++;
		else if (tok_is(j, ")") || tok_is(j, "]") || tok_is(j, "}"))
			depth--;
		else if (depth == 0 && tok_is(j, ","))
			nargs++;
		else if (depth == 0 && tok_is(j, ";"))
			break;
		if (depth < 0)
			break;
	}
	if (gt < 0)
		fail(toks[lt].line, "kernel launch: '<<<' without its closing '>>>'");
	if (gt == lt + 3)
		fail(toks[lt].line, "kernel launch: nothing between '<<<' and '>>>' (give the grid and the block)");
	if (nargs < 2 || nargs > 4)
		fail(toks[lt].line, "kernel launch: %d argument%s between '<<<' and '>>>'; a launch takes "
		     "2 to 4 (grid, block, shared memory bytes, stream)", nargs, nargs == 1 ? "" : "s");
	lp = gt + 3;
	if (!tok_is(lp, "(") || toks[lp].seg != toks[lt].seg)
		fail(toks[gt].line, "kernel launch: '>>>' must be followed by the kernel's arguments in parentheses");
	rp = match_forward(lp);
	if (rp < 0)
		fail(toks[lp].line, "kernel launch: the argument list has no closing ')'");
	start = lt > 0 ? kernel_start(lt - 1) : -1;
	if (start < 0)
		fail(toks[lt].line, "kernel launch: no kernel name before '<<<'");

	/* by copy: a kernel reached through a pointer variable is then part of the launch's own copy,
	   the only memory of the launcher's that its threads may read (check.c) */
	buf_addf(&b, "::cudasim::launch([%s](auto &&...cudasim_a_) { ",
		at_namespace_scope() ? "" : "=");
	buf_src(&b, toks[start].start, toks[lt - 1].end);
	buf_addstr(&b, "(cudasim_a_...); }, \"");
	add_name(&b, start, lt - 1);
	buf_addstr(&b, "\", __FILE__, __LINE__)");
	buf_src(&b, toks[lt - 1].end, toks[lt].start);
	buf_addstr(&b, "(");
	buf_src(&b, toks[lt + 2].end, toks[gt].start);
	buf_addstr(&b, ")");
	add_arguments(&b, gt + 2, lp, rp);
	add_edit(toks[start].start, toks[rp].end, b.data);
	return rp + 1;
}

/* ---------------------------------------------------------------- __shared__ and __device__ */

static bool
is_decl_boundary(int j, int seg)
{
	return j < 0 || toks[j].seg != seg || tok_is(j, ";") || tok_is(j, "{") ||
	       tok_is(j, "}") || (tok_is(j, ":") && !tok_is(j - 1, ":"));
}

/* Skip "__align__(...)", "alignas(...)", "__attribute__((...))" at j; returns the next index. */
static int
skip_attribute(int j)
{
	if ((ident_is(j, "__align__") || ident_is(j, "alignas") || ident_is(j, "__attribute__") ||
	     ident_is(j, "__declspec")) && tok_is(j + 1, "(")) {
		int c = match_forward(j + 1);

		return c < 0 ? j + 1 : c + 1;
	}
	return j;
}

/* The statement's end: the ';' at depth 0 after i. */
static int
decl_end(int i)
{
	int depth = 0;

	for (int j = i; j < ntoks && toks[j].seg == toks[i].seg; j++) {
		if (tok_is(j, "(") || tok_is(j, "[") || tok_is(j, "{"))
			depth++;
		else if (tok_is(j, ")") || tok_is(j, "]") || tok_is(j, "}"))
			depth--;
		else if (depth == 0 && tok_is(j, ";"))
			return j;
		if (depth < 0)
			return -1;
	}
	return -1;
}

/* Names declared in tokens [from, to): the last identifier before the first
 * '[', '=', ',' of each declarator. */
static int
declarator_names(int from, int to, int *names, int max)
{
	int n = 0, last = -1, depth = 0;
	bool in_init = false;

	for (int j = from; j <= to && n < max; j++) {
		int k = skip_attribute(j);

		if (k != j) {
			j = k - 1;
			continue;
		}
		if (j == to || (depth == 0 && tok_is(j, ","))) {
			if (last >= 0)
				names[n++] = last;
			last = -1;
			in_init = false;
			continue;
		}
		if (tok_is(j, "(") || tok_is(j, "[") || tok_is(j, "{") || tok_is(j, "<"))
			depth++;
		else if (tok_is(j, ")") || tok_is(j, "]") || tok_is(j, "}") || tok_is(j, ">"))
			depth--;
		if (tok_is(j, "="))
			in_init = true;
		if (!in_init && depth == 0 && toks[j].kind == K_IDENT &&
		    !ident_is(j, "const") && !ident_is(j, "volatile") && !ident_is(j, "__restrict__"))
			last = j;
	}
	return n;
}

static int
rewrite_dynamic_shared(int first, int sh, int end, bool ns)
{
	int names[1], lb = -1, name;
	struct buf b = { 0 }, type = { 0 };

	if (declarator_names(sh + 1, end, names, 1) != 1)
		fail(toks[sh].line, "extern __shared__: cannot find the array's name");
	name = names[0];
	lb = name + 1;
	if (!tok_is(lb, "[") || !tok_is(lb + 1, "]"))
		fail(toks[sh].line, "extern __shared__ declares an array of unknown size, like "
		     "'extern __shared__ float s[];'");
	for (int j = first; j < name; j++) {
		int k = skip_attribute(j);

		if (k != j) {
			j = k - 1;
			continue;
		}
		if (ident_is(j, "extern") || ident_is(j, "__shared__") || ident_is(j, "static"))
			continue;
		if (type.len)
			buf_addstr(&type, " ");
		buf_src(&type, toks[j].start, toks[j].end);
	}
	if (!type.len)
		fail(toks[sh].line, "extern __shared__: the array has no element type");
	if (lb + 2 == end) {
		buf_addf(&b, "%s%s *const ", ns ? "static " : "", type.data);
		buf_src(&b, toks[name].start, toks[name].end);
		buf_addf(&b, " = (%s *)cudasim_dyn_smem;", type.data);
	} else {
		/* extern __shared__ T s[][N]: a pointer to rows of N */
		struct buf rest = { 0 };

		for (int j = lb + 2; j < end; j++)
			buf_src(&rest, toks[j].start, toks[j].end);
		buf_addf(&b, "%s%s (*const ", ns ? "static " : "", type.data);
		buf_src(&b, toks[name].start, toks[name].end);
		buf_addf(&b, ")%s = (%s (*)%s)cudasim_dyn_smem;", rest.data, type.data, rest.data);
		free(rest.data);
	}
	free(type.data);
	add_edit(toks[first].start, toks[end].end, keep_lines(&b, toks[first].start, toks[end].end));
	return end + 1;
}

/* The source of tokens [from, to), leaving out storage classes, __shared__
 * and attributes (slots are aligned anyway): one space where the source had
 * any between two tokens, none where it had none, so "<<" stays a shift. */
static void
add_tokens(struct buf *b, int from, int to)
{
	int last = -1;

	for (int j = from; j < to; j++) {
		int k = skip_attribute(j);

		if (k != j) {
			j = k - 1;
			continue;
		}
		if (ident_is(j, "__shared__") || ident_is(j, "static") || ident_is(j, "extern"))
			continue;
		if (b->len && b->data[b->len - 1] != ' ' && (last < 0 || toks[last].end != toks[j].start))
			buf_addstr(b, " ");
		buf_src(b, toks[j].start, toks[j].end);
		last = j;
	}
}

/*
 * __shared__ T x[N], *p; becomes, for each declarator, a reference bound to
 * the declaration's slot in the static shared arena:
 *   T (&x)[N] = *(T (*)[N])(cudasim_shared_at(sizeof(T [N]), ...));
 * (a C cast, not reinterpret_cast<>: N may hold a '>>') so x keeps its type (sizeof, decay, &x) and lives at a fixed address that
 * the first thread of each block poisons.
 */
static int
rewrite_shared(int sh)
{
	int first = sh, end = decl_end(sh), names[64], n, type_end, part = -1;
	bool ext = false, ns = at_namespace_scope();
	struct buf b = { 0 }, type = { 0 };

	if (toks[sh].seg)
		return sh + 1;		/* in a macro: the header's fallback (static) applies */
	while (!is_decl_boundary(first - 1, toks[sh].seg))
		first--;
	if (end < 0)
		fail(toks[sh].line, "__shared__ declaration without its ';'");
	for (int j = first; j < end; j++)
		ext |= ident_is(j, "extern");
	if (ext)
		return rewrite_dynamic_shared(first, sh, end, ns);

	n = declarator_names(first, end, names, 64);
	if (!n)
		fail(toks[sh].line, "__shared__: cannot find the variable's name");
	/* the type ends where the first declarator starts: at a '*' or '&', or its name */
	type_end = names[0];
	for (int j = first; j < names[0]; j++)
		if (tok_is(j, "*") || tok_is(j, "&")) {
			type_end = j;
			break;
		}
	add_tokens(&type, first, type_end);
	if (!type.len)
		fail(toks[sh].line, "__shared__: the variable has no type");
	for (int i = 0; i < n; i++) {
		struct buf pre = { 0 }, post = { 0 }, nm = { 0 };
		int from = i == 0 ? type_end : part + 1, to;
		int depth = 0;

		/* this declarator: [from, to), up to the next top-level ',' or the ';' */
		for (to = names[i]; to < end; to++) {
			if (tok_is(to, "(") || tok_is(to, "[") || tok_is(to, "{") || tok_is(to, "<"))
				depth++;
			else if (tok_is(to, ")") || tok_is(to, "]") || tok_is(to, "}") || tok_is(to, ">"))
				depth--;
			else if (depth == 0 && tok_is(to, ","))
				break;
		}
		part = to;
		add_tokens(&pre, from, names[i]);
		add_tokens(&post, names[i] + 1, to);
		/* (&x)[N] binds to an array; a plain &x needs no parentheses */
		if (post.data)
			buf_addf(&nm, "(&%.*s)", (int)(toks[names[i]].end - toks[names[i]].start),
				src + toks[names[i]].start);
		else
			buf_addf(&nm, "&%.*s", (int)(toks[names[i]].end - toks[names[i]].start),
				src + toks[names[i]].start);
		if (ns)
			/* the reference is what kernel code reads: in the section check.c lets it reach */
			buf_addf(&b, "static %s %s%s%s __attribute__((section(\"cudasim_device\"))) = *(%s %s(*)%s)("
				"cudasim_shared_global_at(sizeof(%s %s%s)));",
				type.data, pre.data ? pre.data : "", nm.data, post.data ? post.data : "",
				type.data, pre.data ? pre.data : "", post.data ? post.data : "",
				type.data, pre.data ? pre.data : "", post.data ? post.data : "");
		else
			buf_addf(&b, "static unsigned cudasim_slot%d_%d_, cudasim_ep%d_%d_; "
				"%s %s%s%s = *(%s %s(*)%s)(cudasim_shared_at("
				"sizeof(%s %s%s), &cudasim_slot%d_%d_, &cudasim_ep%d_%d_));",
				counter, i, counter, i,
				type.data, pre.data ? pre.data : "", nm.data, post.data ? post.data : "",
				type.data, pre.data ? pre.data : "", post.data ? post.data : "",
				type.data, pre.data ? pre.data : "", post.data ? post.data : "",
				counter, i, counter, i);
		if (i + 1 < n)
			buf_addstr(&b, " ");
		free(pre.data);
		free(post.data);
		free(nm.data);
	}
	counter++;
	free(type.data);
	add_edit(toks[first].start, toks[end].end, keep_lines(&b, toks[first].start, toks[end].end));
	return end + 1;
}

/*
 * A namespace-scope __device__ or __constant__ variable goes into the section
 * that the order check snapshots and that check.c lets kernel code reach
 * (the rest of the host's globals are out of a kernel's reach, as on a GPU);
 * functions are left alone, and so are const variables, which stay read-only
 * data (a section may not hold both).
 */
static void
rewrite_device_var(int i)
{
	int depth = 0;
	bool constant = ident_is(i, "__constant__");

	if (toks[i].seg || !at_namespace_scope())
		return;
	for (int j = i - 1; !is_decl_boundary(j, 0) && !tok_is(j, ")"); j--)
		if (ident_is(j, "extern") || ident_is(j, "const") || ident_is(j, "constexpr") ||
		    ident_is(j, "template") || tok_is(j, ">") || (!constant && ident_is(j, "__constant__")))
			return;
	for (int j = i + 1; j < ntoks && toks[j].seg == 0; j++) {
		int k = skip_attribute(j);

		if (k != j) {
			j = k - 1;
			continue;
		}
		/* "__device__ __constant__": the section goes with __constant__ */
		if (ident_is(j, "const") || ident_is(j, "constexpr") || (!constant && ident_is(j, "__constant__")))
			return;
		if (tok_is(j, "<"))
			depth++;
		else if (tok_is(j, ">"))
			depth--;
		else if (depth == 0 && tok_is(j, "("))
			return;		/* a function */
		else if (depth == 0 && (tok_is(j, ";") || tok_is(j, "=") || tok_is(j, "[") ||
					tok_is(j, ",") || tok_is(j, "{")))
			break;
	}
	add_edit(toks[i].start, toks[i].end, xstrdup("__attribute__((section(\"cudasim_device\")))"));
}

/*
 * CUDA's __noinline__, as an attribute of g++'s: not a macro, which would
 * break the C++ library's own __attribute__((__noinline__)).
 */
static void
rewrite_noinline(int i)
{
	if (i > 0 && (tok_is(i - 1, "(") || tok_is(i - 1, ",") || tok_is(i - 1, ":")))
		return;		/* the attribute's own name, inside __attribute__((...)) or [[gnu::...]] */
	add_edit(toks[i].start, toks[i].end, xstrdup("__attribute__((noinline))"));
}

/* ---------------------------------------------------------------- includes */

static char *in_dir, *out_path;
static int nheaders;

/* Whether a header holds what only the rewriter makes compile or behave. */
static bool
header_needs_rewrite(const char *path)
{
	size_t len;
	char *text = read_file(path, &len);
	bool needs;

	if (!text)
		return false;
	needs = strstr(text, "<<<") || strstr(text, "__shared__") || strstr(text, "__device__") ||
		strstr(text, "__managed__") || strstr(text, "__constant__") || strstr(text, "__noinline__");
	free(text);
	return needs;
}

/*
 * A header beside the .cu with launches or __shared__ in it is rewritten too,
 * by this program run again, into OUT.cpp.N.h (its #line names the header).
 * Returns the path to include instead, or NULL to include the header as is.
 */
static char *
rewrite_header(const char *path, int line)
{
	char hdr[PATH_MAX + 32], *abs_hdr;
	struct child c = { .label = "cudasim-rewrite" };
	struct spawn_options o = { .clean_on_exit = true };

	if (!header_needs_rewrite(path))
		return NULL;
	snprintf(hdr, sizeof(hdr), "%s.%d.h", out_path, ++nheaders);
	char *argv[] = { "/proc/self/exe", (char *)path, hdr, NULL };
	if (child_spawn(&c, argv, &o))
		fail(line, "cannot rewrite the header '%s'", path);
	int code = child_wait(&c);
	child_release(&c);
	if (code < 0 || code >= 128)
		fail(line, "cannot rewrite the header '%s'", path);
	if (code)
		exit(1);	/* the header's own "file:line: message" is out already */
	abs_hdr = realpath(hdr, NULL);
	return abs_hdr ? abs_hdr : xstrdup(hdr);
}

/* nvcc's "#pragma unroll [N]" is GCC's "#pragma GCC unroll N" (g++ -Wall
 * would warn about an unknown pragma). */
static void
rewrite_pragma(int hash)
{
	int u = hash + 2;
	struct buf b = { 0 };

	if (!ident_is(hash + 1, "pragma") || !ident_is(u, "unroll") || toks[u].seg != toks[hash].seg)
		return;
	if (u + 1 < ntoks && toks[u + 1].seg == toks[hash].seg && toks[u + 1].kind == K_NUMBER) {
		add_edit(toks[u].start, toks[u].end, xstrdup("GCC unroll"));
		return;
	}
	buf_addstr(&b, "GCC unroll 8");
	add_edit(toks[u].start, toks[u].end, b.data);
}

static void
rewrite_include(int hash)
{
	int s = hash + 2;
	char rel[PATH_MAX], full[PATH_MAX * 2], *rewritten;
	size_t n;
	struct buf b = { 0 };

	if (!ident_is(hash + 1, "include") || toks[s].kind != K_STRING || src[toks[s].start] != '"')
		return;
	n = toks[s].end - toks[s].start - 2;
	if (n == 0 || n >= sizeof(rel) || src[toks[s].start + 1] == '/')
		return;
	memcpy(rel, src + toks[s].start + 1, n);
	rel[n] = '\0';
	snprintf(full, sizeof(full), "%s/%s", in_dir, rel);
	if (access(full, R_OK))
		return;		/* not beside the .cu file: the -I paths find it, as before */
	rewritten = rewrite_header(full, toks[s].line);
	buf_addstr(&b, "\"");
	for (const char *p = rewritten ? rewritten : full; *p; p++) {
		if (*p == '"' || *p == '\\')
			buf_addstr(&b, "\\");
		buf_add(&b, p, 1);
	}
	buf_addstr(&b, "\"");
	add_edit(toks[s].start, toks[s].end, b.data);
}

/* ---------------------------------------------------------------- kernels called like functions */

static bool *is_kernel_decl;	/* per token: the name in a __global__ declaration */

/* The name a __global__ declaration at i declares: the identifier before its '('. */
static int
kernel_decl_name(int i)
{
	int depth = 0;

	for (int j = i + 1; j < ntoks && toks[j].seg == toks[i].seg; j++) {
		int k = skip_attribute(j);

		if (k != j || ident_is(j, "__launch_bounds__")) {
			j = (k != j ? k : (tok_is(j + 1, "(") ? match_forward(j + 1) + 1 : j + 1)) - 1;
			continue;
		}
		if (tok_is(j, "<"))
			depth++;
		else if (tok_is(j, ">"))
			depth--;
		else if (depth == 0 && tok_is(j, "("))
			return toks[j - 1].kind == K_IDENT ? j - 1 : -1;
		else if (tok_is(j, ";") || tok_is(j, "{"))
			return -1;
	}
	return -1;
}

static bool
same_text(int a, int b)
{
	return toks[a].end - toks[a].start == toks[b].end - toks[b].start &&
	       !memcmp(src + toks[a].start, src + toks[b].start, toks[a].end - toks[a].start);
}

/*
 * nvcc refuses a __global__ function called without <<<>>>: say so here too,
 * rather than let g++ run the kernel once on the host.
 */
static void
check_unconfigured_calls(void)
{
	int names[256], n = 0;

	is_kernel_decl = calloc((size_t)ntoks + 1, sizeof(*is_kernel_decl));
	if (!is_kernel_decl)
		return;
	for (int i = 0; i < ntoks && n < 256; i++)
		if (ident_is(i, "__global__") && !toks[i].seg) {
			int name = kernel_decl_name(i);

			if (name >= 0) {
				is_kernel_decl[name] = true;
				names[n++] = name;
			}
		}
	for (int i = 0; i < ntoks; i++) {
		int after = i + 1;

		if (toks[i].kind != K_IDENT || is_kernel_decl[i] || toks[i].seg)
			continue;
		if (tok_is(i - 1, ".") || tok_is(i - 1, "->") || tok_is(i - 1, "&") || triple(after, '<'))
			continue;
		if (tok_is(after, "<")) {
			int depth = 0;

			for (; after < ntoks && !tok_is(after, ";"); after++) {
				depth += tok_is(after, "<") - tok_is(after, ">");
				if (depth == 0)
					break;
			}
			if (triple(after + 1, '<'))
				continue;	/* k<T><<<...>>> */
			after++;
		}
		if (!tok_is(after, "("))
			continue;
		for (int k = 0; k < n; k++)
			if (same_text(i, names[k]))
				fail(toks[i].line, "'%.*s' is a __global__ function: call it with a launch "
				     "configuration, %.*s<<<grid, block>>>(...)",
				     (int)(toks[i].end - toks[i].start), src + toks[i].start,
				     (int)(toks[i].end - toks[i].start), src + toks[i].start);
	}
}

/*
 * Without nvcc's front end (no CUDA toolkit here), the two errors g++ would
 * let through because it does not know __host__ from __device__: a kernel or
 * __device__ function calling a function this file defines for the host
 * only, and <<<>>> on a function that is not __global__. Only names this file
 * defines are judged: a name from elsewhere, or overloaded for both sides,
 * is left to the compiler.
 */
enum side { SIDE_HOST, SIDE_DEVICE, SIDE_BOTH, SIDE_GLOBAL };

struct definition {
	int name;		/* token of the function's name */
	int body, end;		/* its braces */
	enum side side;
};

/* The definition whose name is at token i (an identifier before '('), or false. */
static bool
definition_at(int i, struct definition *d)
{
	int close = match_forward(i + 1), j;
	bool host = false, device = false, global = false;

	if (close < 0)
		return false;
	/* const, noexcept, attributes, a trailing return type: then the body */
	for (j = close + 1; j < ntoks && toks[j].seg == toks[i].seg; j++) {
		if (tok_is(j, "{"))
			break;
		if (tok_is(j, ";") || tok_is(j, "=") || tok_is(j, ",") || tok_is(j, ")") ||
		    (tok_is(j, ":") && !tok_is(j + 1, ":") && !tok_is(j - 1, ":")))
			return false;
		if (tok_is(j, "(")) {
			int c = match_forward(j);

			if (c < 0)
				return false;
			j = c;
		}
	}
	if (j >= ntoks || !tok_is(j, "{"))
		return false;
	for (int k = i - 1; k >= 0 && toks[k].seg == toks[i].seg && !tok_is(k, ";") && !tok_is(k, "}") &&
			    !tok_is(k, "{"); k--) {
		host |= ident_is(k, "__host__");
		device |= ident_is(k, "__device__");
		global |= ident_is(k, "__global__");
	}
	d->name = i;
	d->body = j;
	d->end = match_forward(j);
	d->side = global ? SIDE_GLOBAL : device && host ? SIDE_BOTH : device ? SIDE_DEVICE : SIDE_HOST;
	return d->end > j;
}

/* Whether the identifier at i names a function this file defines for the host only. */
static bool
host_only(int i, const struct definition *defs, int n)
{
	bool host = false;

	for (int k = 0; k < n; k++)
		if (same_text(i, defs[k].name)) {
			if (defs[k].side != SIDE_HOST)
				return false;	/* overloaded for the device too: the compiler picks */
			host = true;
		}
	return host;
}

/*
 * Whether the function named at token `name` is the host's beyond doubt: what
 * comes before its name is made only of words that cannot hide __device__ (a
 * macro such as "#define HD __host__ __device__" would be an identifier of
 * another kind), and it is not constexpr (which must stay constant).
 */
static bool
surely_host(int name)
{
	static const char *const words[] = {
		"static", "inline", "extern", "void", "bool", "char", "short", "int", "long", "unsigned",
		"signed", "float", "double", "size_t", "const", "volatile", "auto", "template", "typename",
		"class", "__host__", "noexcept",
	};
	for (int j = name - 1; j >= 0 && !toks[j].seg && !tok_is(j, ";") && !tok_is(j, "}") && !tok_is(j, "{"); j--) {
		bool known = false;

		if (toks[j].kind == K_STRING || tok_is(j, "*") || tok_is(j, "&") || tok_is(j, "<") || tok_is(j, ">") ||
		    tok_is(j, ",") || tok_is(j, ":") || tok_is(j, "="))
			continue;
		if (toks[j].kind != K_IDENT)
			return false;
		for (size_t w = 0; w < sizeof(words) / sizeof(*words) && !known; w++)
			known = ident_is(j, words[w]);
		if (!known && !tok_is(j + 1, ",") && !tok_is(j + 1, ">"))
			return false;	/* but a template's parameter names itself before ',' or '>' */
	}
	return true;
}

static void
check_host_device_calls(void)
{
	struct definition *defs = calloc((size_t)ntoks + 1, sizeof(*defs));
	int n = 0;

	if (!defs)
		return;
	/* the definitions, skipping over bodies (their lambdas and locals are no definitions) */
	for (int i = 0; i + 1 < ntoks; i++) {
		if (toks[i].seg || toks[i].kind != K_IDENT || !tok_is(i + 1, "(") || tok_is(i - 1, ".") ||
		    tok_is(i - 1, "->") || ident_is(i, "if") || ident_is(i, "for") || ident_is(i, "while") ||
		    ident_is(i, "switch") || ident_is(i, "return") || ident_is(i, "sizeof") ||
		    ident_is(i, "__launch_bounds__") || ident_is(i, "__attribute__") || ident_is(i, "alignas") ||
		    ident_is(i, "__align__") || ident_is(i, "decltype"))
			continue;
		if (definition_at(i, &defs[n]))
			i = defs[n++].end;
	}
	for (int k = 0; k < n; k++) {
		if (defs[k].side != SIDE_GLOBAL && defs[k].side != SIDE_DEVICE)
			continue;
		for (int i = defs[k].body + 1; i < defs[k].end; i++) {
			int after = i + 1;

			if (toks[i].seg || toks[i].kind != K_IDENT || tok_is(i - 1, ".") || tok_is(i - 1, "->") ||
			    tok_is(i - 1, ":"))
				continue;
			if (tok_is(after, "<") && !triple(after, '<')) {
				int depth = 0;

				for (; after < defs[k].end && !tok_is(after, ";"); after++) {
					depth += tok_is(after, "<") - tok_is(after, ">");
					if (depth == 0)
						break;
				}
				after++;
			}
			if (tok_is(after, "(") && host_only(i, defs, n))
				fail(toks[i].line, "calling a __host__ function ('%.*s') from a %s function is not "
				     "allowed: mark it __device__ (or __host__ __device__) to use it in device code",
				     (int)(toks[i].end - toks[i].start), src + toks[i].start,
				     defs[k].side == SIDE_GLOBAL ? "__global__" : "__device__");
		}
	}
	/*
	 * A host function's first statement tells the simulator that host code runs: kernel code that
	 * gets there (through a function pointer, which nvcc cannot see) has left the GPU, where a
	 * host function does not exist.
	 */
	for (int k = 0; k < n; k++)
		if (defs[k].side == SIDE_HOST && surely_host(defs[k].name))
			add_edit(toks[defs[k].body].end, toks[defs[k].body].end,
				 xstrdup(" ::cudasim_host_function(__func__);"));
	/*
	 * A kernel's __launch_bounds__(N): its first statement tells the simulator N, since a GPU refuses
	 * a launch of more threads per block than the kernel was compiled for.
	 */
	for (int k = 0; k < n; k++) {
		if (defs[k].side != SIDE_GLOBAL)
			continue;
		for (int j = defs[k].name - 1; j >= 0 && toks[j].seg == toks[defs[k].name].seg && !tok_is(j, ";") &&
						!tok_is(j, "}") && !tok_is(j, "{"); j--) {
			if (!ident_is(j, "__launch_bounds__") || !tok_is(j + 1, "("))
				continue;
			int close = match_forward(j + 1), last = j + 2, depth = 0;

			for (; close > 0 && last < close; last++) {
				if (tok_is(last, "(") || tok_is(last, "<") || tok_is(last, "["))
					depth++;
				else if (tok_is(last, ")") || tok_is(last, ">") || tok_is(last, "]"))
					depth--;
				else if (depth == 0 && tok_is(last, ","))
					break;
			}
			if (close > 0 && last > j + 2)
				add_edit(toks[defs[k].body].end, toks[defs[k].body].end,
					 xasprintf(" ::cudasim_launch_bounds((unsigned long long)(%.*s), __func__);",
						   (int)(toks[last - 1].end - toks[j + 2].start), src + toks[j + 2].start));
			break;
		}
	}
	/* <<<>>> on a name this file defines, but not as a kernel */
	for (int i = 1; i < ntoks; i++) {
		if (!triple(i, '<') || toks[i].seg)
			continue;
		int name = i - 1;

		if (tok_is(name, ">")) {
			int open = match_backward(name, '<', '>');

			name = open > 0 ? open - 1 : -1;
		}
		if (name >= 0 && toks[name].kind == K_IDENT && !tok_is(name - 1, ".") && !tok_is(name - 1, "->") &&
		    host_only(name, defs, n))
			fail(toks[name].line, "'%.*s' is a __host__ function, not a __global__ one: it cannot be "
			     "configured with <<<>>>; only a kernel is launched",
			     (int)(toks[name].end - toks[name].start), src + toks[name].start);
	}
	free(defs);
}

/* ---------------------------------------------------------------- driver */

/*
 * cudaLaunchCooperativeKernel((void *)k, grid, block, args, smem, stream):
 * the kernel's parameters unpack args, so the cast that hides its type goes,
 * and its name and line come along: ::cudasim::launch_cooperative("k",
 * __FILE__, __LINE__, k, grid, ...). Returns the token after the name.
 */
static int
rewrite_cooperative(int i)
{
	int j = i + 2, name = j, end;
	struct buf b = { 0 };

	if (tok_is(j, "(")) {
		int k = j + 1;
		bool is_void = false;

		while (ident_is(k, "const") || ident_is(k, "void") || ident_is(k, "volatile") || tok_is(k, "*")) {
			is_void |= ident_is(k, "void");
			k++;
		}
		if (is_void && tok_is(k, ")"))
			name = k + 1;
	}
	for (end = name; end < ntoks && !tok_is(end, ",") && !tok_is(end, ")") && !tok_is(end, ";"); end++)
		if ((tok_is(end, "(") || tok_is(end, "[")) && (end = match_forward(end)) < 0)
			return i + 1;
	if (end == name || end >= ntoks)
		return i + 1;
	buf_addstr(&b, "::cudasim::launch_cooperative(\"");
	for (size_t c = toks[name].start; c < toks[end - 1].end; c++)
		if (ident_char(src[c]) || src[c] == ':' || src[c] == '<' || src[c] == '>' || src[c] == ',')
			buf_addf(&b, "%c", src[c]);
	buf_addstr(&b, "\", __FILE__, __LINE__, ");
	add_edit(toks[i].start, toks[name].start, keep_lines(&b, toks[i].start, toks[name].start));
	return end;
}

static void
rewrite(void)
{
	int i = 0;

	while (i < ntoks) {
		if (toks[i].seg && tok_is(i, "#") && (i == 0 || toks[i - 1].seg != toks[i].seg)) {
			rewrite_include(i);
			rewrite_pragma(i);
			i++;
			continue;
		}
		if (tok_is(i, "{")) {
			if (nscopes == cap_scopes) {
				cap_scopes = cap_scopes ? cap_scopes * 2 : 64;
				scopes = xrealloc(scopes, cap_scopes * sizeof(*scopes));
			}
			scopes[nscopes++] = toks[i].seg ? S_OTHER : brace_kind(i);
			i++;
			continue;
		}
		if (tok_is(i, "}")) {
			if (nscopes > 0)
				nscopes--;
			i++;
			continue;
		}
		if (triple(i, '<') && !(i > 0 && ident_is(i - 1, "operator"))) {
			i = rewrite_launch(i);
			continue;
		}
		if (ident_is(i, "__shared__")) {
			i = rewrite_shared(i);
			continue;
		}
		if (ident_is(i, "cudaLaunchCooperativeKernel") && tok_is(i + 1, "(") && !tok_is(i - 1, "::")) {
			i = rewrite_cooperative(i);
			continue;
		}
		/* __managed__ is left to cudasim.h, which refuses it */
		if (ident_is(i, "__device__") || ident_is(i, "__constant__"))
			rewrite_device_var(i);
		else if (ident_is(i, "__noinline__"))
			rewrite_noinline(i);
		i++;
	}
}

static int
edit_cmp(const void *a, const void *b)
{
	const struct edit *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

int
main(int argc, char **argv)
{
	FILE *out;
	size_t at = 0;
	char dir[PATH_MAX], *slash;

	error_set_program("cudasim-rewrite");
	if (argc != 3) {
		fprintf(stderr, "usage: cudasim-rewrite IN.cu OUT.cpp\n");
		return 2;
	}
	in_path = argv[1];
	out_path = argv[2];
	src = read_file(in_path, &src_len);
	if (!src) {
		error("cannot read '%s': %s", in_path, strerror(errno));
		return 1;
	}
	/* a UTF-8 byte-order mark: nvcc skips it, g++ only where it opens the file, not after our #line */
	if (src_len >= 3 && !memcmp(src, "\xef\xbb\xbf", 3)) {
		src_len -= 3;
		memmove(src, src + 3, src_len + 1);
	}
	snprintf(dir, sizeof(dir), "%s", in_path);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	else
		snprintf(dir, sizeof(dir), ".");
	in_dir = realpath(dir, NULL);
	if (!in_dir)
		in_dir = xstrdup(dir);

	tokenize();
	check_unconfigured_calls();
	check_host_device_calls();
	rewrite();
	qsort(edits, nedits, sizeof(*edits), edit_cmp);

	out = fopen(argv[2], "w");
	if (!out) {
		error("cannot write '%s': %s", argv[2], strerror(errno));
		return 1;
	}
	fputs("#line 1 \"", out);
	for (const char *p = in_path; *p; p++) {
		if (*p == '"' || *p == '\\')
			fputc('\\', out);
		fputc(*p, out);
	}
	fputs("\"\n", out);
	for (int i = 0; i < nedits; i++) {
		if (edits[i].start < at)
			continue;	/* inside an edit already made */
		fwrite(src + at, 1, edits[i].start - at, out);
		fputs(edits[i].text, out);
		at = edits[i].end;
	}
	fwrite(src + at, 1, src_len - at, out);
	if (fclose(out)) {
		error("cannot write '%s': %s", argv[2], strerror(errno));
		return 1;
	}
	return 0;
}
