/* highlight: C and CUDA source lines coloured and laid out in a doc (see highlight.h). */
#include "tui/highlight.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

/* What CUDA adds to C: these are what a student must notice in a listing. */
static const char *const cuda_words[] = {
	"__global__", "__device__", "__host__", "__shared__", "__constant__",
	"__managed__", "__restrict__", "__syncthreads", "__syncwarp",
	"__launch_bounds__", "__forceinline__", "__ldg", "__shfl_sync",
	"__shfl_down_sync", "__shfl_up_sync", "__shfl_xor_sync", "__ballot_sync",
	"__threadfence", "threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize",
	"atomicAdd", "atomicSub", "atomicMax", "atomicMin", "atomicCAS", "atomicExch",
	"dim3", "cudaMalloc", "cudaMallocManaged", "cudaFree", "cudaMemcpy",
	"cudaMemset", "cudaDeviceSynchronize", "cudaGetLastError", "cudaError_t",
	"cudaSuccess", "cudaGetErrorString", "cudaMemcpyHostToDevice",
	"cudaMemcpyDeviceToHost", "cudaMemcpyDeviceToDevice", "cudaEvent_t",
	"cudaEventCreate", "cudaEventRecord", "cudaEventSynchronize",
	"cudaEventElapsedTime", "cudaStream_t", "cudaStreamCreate",
};

static const char *const c_words[] = {
	"auto", "bool", "break", "case", "char", "class", "const", "constexpr",
	"continue", "default", "do", "double", "else", "enum", "extern", "false",
	"float", "for", "goto", "if", "inline", "int", "long", "namespace",
	"nullptr", "return", "short", "signed", "size_t", "sizeof", "static",
	"struct", "switch", "template", "true", "typedef", "typename", "union",
	"unsigned", "using", "void", "volatile", "while", "int32_t", "int64_t",
	"uint32_t", "uint64_t", "NULL",
};

static bool
in_list(const char *const *list, size_t n, const char *s, size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (strlen(list[i]) == len && !memcmp(list[i], s, len))
			return true;
	return false;
}

bool
highlight_lang(const char *lang)
{
	static const char *const langs[] = {
		"", "c", "cu", "cuda", "cpp", "c++", "cuh", "h", "hpp", "cxx",
	};

	return in_list(langs, ARRAY_SIZE(langs), lang, strlen(lang));
}

int
highlight_line(const char *s, size_t len, bool *in_comment, struct doc_span **spans)
{
	int n = 0, alloc = 0;
	size_t i = 0, j;

	*spans = NULL;
	while (i < len) {
		if (*in_comment) {
			for (j = i; j + 1 < len && !(s[j] == '*' && s[j + 1] == '/'); j++)
				;
			if (j + 1 < len) {
				j += 2;
				*in_comment = false;
			} else {
				j = len;
			}
			spans_add(spans, &n, &alloc, S_COMMENT, s + i, j - i);
		} else if (s[i] == '/' && i + 1 < len && s[i + 1] == '/') {
			spans_add(spans, &n, &alloc, S_COMMENT, s + i, len - i);
			j = len;
		} else if (s[i] == '/' && i + 1 < len && s[i + 1] == '*') {
			*in_comment = true;
			spans_add(spans, &n, &alloc, S_COMMENT, s + i, 2);
			j = i + 2;
		} else if (s[i] == '"' || s[i] == '\'') {
			for (j = i + 1; j < len && s[j] != s[i]; j++)
				if (s[j] == '\\' && j + 1 < len)
					j++;
			j = j < len ? j + 1 : len;
			spans_add(spans, &n, &alloc, S_STRING, s + i, j - i);
		} else if (isalpha((unsigned char)s[i]) || s[i] == '_' || s[i] == '#') {
			unsigned st = S_CODEBLOCK;

			for (j = i + 1; j < len && (isalnum((unsigned char)s[j]) || s[j] == '_'); j++)
				;
			if (s[i] == '#' || in_list(c_words, ARRAY_SIZE(c_words), s + i, j - i))
				st = S_KEYWORD;
			else if (in_list(cuda_words, ARRAY_SIZE(cuda_words), s + i, j - i))
				st = S_CUDA;
			spans_add(spans, &n, &alloc, st, s + i, j - i);
		} else if (isdigit((unsigned char)s[i]) ||
			   (s[i] == '.' && i + 1 < len && isdigit((unsigned char)s[i + 1]))) {
			for (j = i + 1; j < len && (isalnum((unsigned char)s[j]) || s[j] == '.'); j++)
				;
			spans_add(spans, &n, &alloc, S_NUMBER, s + i, j - i);
		} else if (len - i >= 3 && (!memcmp(s + i, "<<<", 3) || !memcmp(s + i, ">>>", 3))) {
			j = i + 3;
			spans_add(spans, &n, &alloc, S_CUDA, s + i, 3);
		} else {
			j = i + 1;
			spans_add(spans, &n, &alloc, S_CODEBLOCK, s + i, 1);
		}
		i = j;
	}
	return n;
}

/* Put bytes [from, to) of text on the doc's last line, in the style each byte has. */
static void
put_styled(struct doc *d, const char *text, const unsigned *style, size_t from, size_t to)
{
	while (from < to) {
		size_t end = from;

		while (end < to && style[end] == style[from])
			end++;
		doc_put(d, style[from], text + from, end - from);
		from = end;
	}
}

void
highlight_put(struct doc *d, const char *line, size_t len, bool colour, bool *in_comment,
	      int width, const char *first, const char *rest, unsigned prefix_style)
{
	struct buf text = BUF_INIT;
	char *shown = d->ascii ? translit_ascii(line, len) : xstrndup(line, len);
	unsigned *style;
	struct doc_span *spans;
	size_t at = 0, lead;
	int n, room, hang;

	/* tabs to 4 columns, so the screen and the layout agree */
	for (const char *p = shown; *p; p++) {
		if (*p == '\t')
			do buf_add(&text, " ", 1); while (text.len % 4);
		else
			buf_add(&text, p, 1);
	}
	style = xcalloc(text.len + 1, sizeof(*style));
	for (size_t i = 0; i < text.len; i++)
		style[i] = S_CODEBLOCK;
	if (colour) {
		n = highlight_line(text.data, text.len, in_comment, &spans);
		for (int i = 0, k; i < n; i++)
			for (k = 0; spans[i].text[k]; k++)
				style[at++] = spans[i].style;
		spans_free(spans, n);
	}
	lead = strspn(text.data, " ");
	room = width - utf8_width(first, strlen(first));
	hang = (int)lead + 4 < room / 2 ? (int)lead + 4 : 4;
	doc_newline(d);
	doc_puts(d, prefix_style, first);
	/* too long for the width: the rest goes on the next lines, hanging under the code, cut at a space */
	for (at = 0;;) {
		size_t left = text.len - at, fit = utf8_fit(text.data + at, left, room > 1 ? room : 1), brk;

		if (fit >= left) {
			put_styled(d, text.data, style, at, text.len);
			break;
		}
		for (brk = at + fit; brk > at + (at ? 0 : lead) && text.data[brk] != ' '; brk--)
			;
		if (brk <= at + (at ? 0 : lead))
			brk = at + (fit ? fit : 1);
		put_styled(d, text.data, style, at, brk);
		at = brk + strspn(text.data + brk, " ");
		if (at >= text.len)
			break;
		doc_newline(d);
		doc_puts(d, prefix_style, rest);
		doc_repeat(d, prefix_style, " ", hang);
		room = width - utf8_width(rest, strlen(rest)) - hang;
	}
	free(style);
	buf_free(&text);
	free(shown);
}
