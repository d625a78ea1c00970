#include "highlight.h"

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

	return in_list(langs, sizeof(langs) / sizeof(langs[0]), lang, strlen(lang));
}

static void
add(struct doc_span **spans, int *n, int *alloc, unsigned style, const char *s, size_t len)
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
			add(spans, &n, &alloc, S_COMMENT, s + i, j - i);
		} else if (s[i] == '/' && i + 1 < len && s[i + 1] == '/') {
			add(spans, &n, &alloc, S_COMMENT, s + i, len - i);
			j = len;
		} else if (s[i] == '/' && i + 1 < len && s[i + 1] == '*') {
			*in_comment = true;
			add(spans, &n, &alloc, S_COMMENT, s + i, 2);
			j = i + 2;
		} else if (s[i] == '"' || s[i] == '\'') {
			for (j = i + 1; j < len && s[j] != s[i]; j++)
				if (s[j] == '\\' && j + 1 < len)
					j++;
			j = j < len ? j + 1 : len;
			add(spans, &n, &alloc, S_STRING, s + i, j - i);
		} else if (isalpha((unsigned char)s[i]) || s[i] == '_' || s[i] == '#') {
			unsigned st = S_CODEBLOCK;

			for (j = i + 1; j < len && (isalnum((unsigned char)s[j]) || s[j] == '_'); j++)
				;
			if (s[i] == '#' || in_list(c_words, sizeof(c_words) / sizeof(c_words[0]), s + i, j - i))
				st = S_KEYWORD;
			else if (in_list(cuda_words, sizeof(cuda_words) / sizeof(cuda_words[0]), s + i, j - i))
				st = S_CUDA;
			add(spans, &n, &alloc, st, s + i, j - i);
		} else if (isdigit((unsigned char)s[i]) ||
			   (s[i] == '.' && i + 1 < len && isdigit((unsigned char)s[i + 1]))) {
			for (j = i + 1; j < len && (isalnum((unsigned char)s[j]) || s[j] == '.'); j++)
				;
			add(spans, &n, &alloc, S_NUMBER, s + i, j - i);
		} else if (len - i >= 3 && (!memcmp(s + i, "<<<", 3) || !memcmp(s + i, ">>>", 3))) {
			j = i + 3;
			add(spans, &n, &alloc, S_CUDA, s + i, 3);
		} else {
			j = i + 1;
			add(spans, &n, &alloc, S_CODEBLOCK, s + i, 1);
		}
		i = j;
	}
	return n;
}

void
highlight_free(struct doc_span *spans, int n)
{
	for (int i = 0; i < n; i++)
		free(spans[i].text);
	free(spans);
}
