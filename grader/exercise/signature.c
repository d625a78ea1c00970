/* signature: the launcher's signature in workbook.json, parsed into the exercise's buffers and checked against
   the buffers its check's source declares (see signature.h). */
#include "grader/exercise/signature.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "common/root.h"
#include "grader/exercise/manifest.h"

/* A C identifier. */
static bool
valid_name_chars(const char *w)
{
	if (!*w || isdigit((unsigned char)*w))
		return false;
	for (; *w; w++)
		if (!isalnum((unsigned char)*w) && *w != '_')
			return false;
	return true;
}

char *
signature_name(const char *signature)
{
	const char *paren = strchr(signature, '(');
	if (!paren)
		return NULL;
	const char *end = paren;
	while (end > signature && isspace((unsigned char)end[-1]))
		end--;
	const char *start = end;
	while (start > signature && (isalnum((unsigned char)start[-1]) || start[-1] == '_'))
		start--;
	if (start == end)
		return NULL;
	char *name = xmalloc((size_t)(end - start) + 1);
	memcpy(name, start, (size_t)(end - start));
	name[end - start] = 0;
	return name;
}

/* The buffer type a pointer parameter's element type names ("const unsigned int" → uint32), or -1. */
static int
param_dtype(const char *type, bool *is_const)
{
	static const struct { const char *words; uint32_t dtype; } known[] = {
		{ "float", DTYPE_FLOAT32 },       { "double", DTYPE_FLOAT64 },       { "int", DTYPE_INT32 },
		{ "signed", DTYPE_INT32 },        { "signed int", DTYPE_INT32 },     { "int32_t", DTYPE_INT32 },
		{ "unsigned", DTYPE_UINT32 },     { "unsigned int", DTYPE_UINT32 },  { "uint32_t", DTYPE_UINT32 },
		{ "unsigned char", DTYPE_UINT8 }, { "uint8_t", DTYPE_UINT8 },
	};
	struct buf words = BUF_INIT;
	*is_const = false;
	char *copy = xstrdup(type);
	for (char *w = strtok(copy, " \t\n"); w; w = strtok(NULL, " \t\n")) {
		if (!strcmp(w, "const"))
			*is_const = true;
		else if (strcmp(w, "volatile") && strcmp(w, "__restrict__") && strcmp(w, "__restrict") &&
			 strcmp(w, "restrict"))
			buf_addf(&words, "%s%s", words.len ? " " : "", w);
	}
	int dtype = -1;
	for (size_t i = 0; i < ARRAY_SIZE(known) && words.len; i++)
		if (!strcmp(words.data, known[i].words))
			dtype = (int)known[i].dtype;
	buf_free(&words);
	free(copy);
	return dtype;
}

/* Whether `p` ("int rows", "const size_t n") is a size passed by value: a scalar type the check can pass, and a name. */
static bool
scalar_param(const char *p)
{
	static const char *const types[] = { "int", "unsigned", "unsigned int", "long", "long long", "unsigned long",
					     "size_t", "int32_t", "uint32_t", "int64_t", "uint64_t", "float", "double" };
	char *copy = xstrdup(p), *words[8];
	int n = 0;
	for (char *w = strtok(copy, " \t\n"); w && n < 8; w = strtok(NULL, " \t\n"))
		if (strcmp(w, "const"))
			words[n++] = w;
	bool ok = n >= 2 && valid_name_chars(words[n - 1]);
	struct buf type = BUF_INIT;
	for (int i = 0; ok && i < n - 1; i++)
		buf_addf(&type, "%s%s", i ? " " : "", words[i]);
	bool known = false;
	for (size_t i = 0; ok && i < ARRAY_SIZE(types) && !known; i++)
		known = !strcmp(type.data, types[i]);
	buf_free(&type);
	free(copy);
	return ok && known;
}

/* The launcher's pointer parameters, each a buffer of one of the types the harness knows. */
int
signature_parse(const char *signature, struct exercise *e)
{
	const char *open = strchr(signature, '('), *close = strrchr(signature, ')');
	if (!open || !close || close < open)
		return error("workbook.json: %s: \"launcher\" has no parameter list: %s", e->name, signature);
	if (close[strspn(close + 1, " \t\n") + 1])
		return error("workbook.json: %s: \"launcher\" has words after its parameter list: %s", e->name, signature);
	char *list = xasprintf("%.*s", (int)(close - open - 1), open + 1);
	int status = 0;
	for (char *save = NULL, *p = strtok_r(list, ",", &save); p && !status; p = strtok_r(NULL, ",", &save)) {
		while (isspace((unsigned char)*p))
			p++;
		char *star = strchr(p, '*');
		if (!star && !scalar_param(p))
			status = error("workbook.json: %s: the launcher's parameter '%s' is neither a buffer (a pointer) nor a "
				       "size with a name (int n, size_t n, …): %s", e->name, p, signature);
		if (!star)
			continue; /* a size, passed by value */
		char *type = xasprintf("%.*s", (int)(star - p), p);
		bool is_const;
		int dtype = strchr(star + 1, '*') ? -1 : param_dtype(type, &is_const);
		if (dtype < 0)
			status = error("workbook.json: %s: the launcher's parameter '%s' is not a buffer the harness "
				       "knows: a pointer to float, double, int, unsigned int or unsigned char (or "
				       "int32_t, uint32_t, uint8_t)", e->name, p);
		else if (e->nparams == PROTO_MAX_BUFFERS)
			status = error("workbook.json: %s: the launcher takes more than %d buffers", e->name,
				       PROTO_MAX_BUFFERS);
		else
			e->params[e->nparams++] = (struct buffer_param){ xstrdup(p), (uint32_t)dtype, is_const };
		free(type);
	}
	free(list);
	return status;
}

/* `text` with its C comments blanked (string literals kept): what the compiler reads of it. */
static void
blank_comments(char *text)
{
	for (char *p = text; p && *p; p++) {
		if (*p == '"' || *p == '\'') {
			char quote = *p;
			for (p++; *p && *p != quote && *p != '\n'; p++)
				if (*p == '\\' && p[1])
					p++;
			if (!*p)
				break;
		} else if (p[0] == '/' && p[1] == '/') {
			while (*p && *p != '\n')
				*p++ = ' ';
			if (!*p)
				break;
		} else if (p[0] == '/' && p[1] == '*') {
			char *end = strstr(p + 2, "*/");
			char *stop = end ? end + 2 : p + strlen(p);
			for (; p < stop; p++)
				if (*p != '\n')
					*p = ' ';
			p--;
		}
	}
}

/*
 * The launcher in workbook.json against the buffers its check declares, read from the check's source
 * (check_buffer: float32; check_buffer_typed(…, DTYPE_X, …): X), in order: a signature the check
 * contradicts would otherwise compile the generated header into raw compiler errors at the first
 * grading. A check that declares its buffers some other way (none found) is left to the judge's own
 * comparison (manifest_buffers_disagree).
 */
int
signature_check_against_check(const struct exercise *e)
{
	static const char *const dtypes[] = { "DTYPE_FLOAT32", "DTYPE_FLOAT64", "DTYPE_INT32", "DTYPE_UINT32",
					      "DTYPE_UINT8" };
	char *rel = xasprintf("%sharness/checks/%s.cpp", e->dir, e->check), *path = root_path(rel);
	char *text = read_file(path, NULL);
	free(path);
	blank_comments(text);
	int found = 0, status = 0;
	for (const char *p = text; p && !status && (p = strstr(p, "check_buffer")); found++) {
		bool typed = !strncmp(p, "check_buffer_typed(", 19);
		if (!typed && strncmp(p, "check_buffer(", 13)) {
			p += 12;
			found--;
			continue;
		}
		const char *close = strchr(p, ';'), *name = strchr(p, '"');
		int dtype = DTYPE_FLOAT32;
		if (typed) {
			dtype = -1;
			for (int t = 0; t < (int)(ARRAY_SIZE(dtypes)); t++) {
				const char *at = strstr(p, dtypes[t]);
				size_t n = strlen(dtypes[t]);
				if (at && (!close || at < close) && !isalnum((unsigned char)at[n]) && at[n] != '_')
					dtype = t;
			}
		}
		char label[64];
		int len = name && (!close || name < close) ? (int)strcspn(name + 1, "\"") : 0;
		snprintf(label, sizeof(label), "%.*s", len < 40 ? len : 40, name ? name + 1 : "");
		if (dtype < 0)
			; /* a type the scan cannot read: the judge compares it */
		else if (found >= e->nparams)
			status = error("workbook.json: %s: the launcher takes %d buffer%s, but %s declares more (buffer %d, "
				       "'%s', %s): %s", e->name, e->nparams, e->nparams == 1 ? "" : "s", rel, found + 1, label,
				       dtype_name((uint32_t)dtype), e->launcher);
		else if ((uint32_t)dtype != e->params[found].dtype)
			status = error("workbook.json: %s: the launcher's parameter %d, '%s', is %s, but %s declares "
				       "buffer %d, '%s', as %s: change the signature or the check", e->name, found + 1,
				       e->params[found].text, dtype_name(e->params[found].dtype), rel, found + 1, label,
				       dtype_name((uint32_t)dtype));
		p += typed ? 19 : 13;
	}
	if (!status && text && found && found < e->nparams)
		status = error("workbook.json: %s: the launcher takes %d buffers, but %s declares %d: %s", e->name,
			       e->nparams, rel, found, e->launcher);
	free(text);
	free(rel);
	return status;
}
