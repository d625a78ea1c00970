/*
 * batch_rows: the rows a batch keeps, one file per student: where they
 * lie, what they say, loading them and the file's content hash. What is
 * written from a grading (the row, the feedback page, the gradebook,
 * Gradescope's results) is batch_gradebook.c's. See batch_rows.h.
 */
#include "grader/batch/batch_rows.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grader/batch/batch_late.h"
#include "lib/util.h"
#include "grader/engine/cmdline.h"

/* ------------------------------------------------------------ rows on disk */

char *
batch_row_key(const char *student)
{
	size_t n = strlen(student);
	if (n <= 200)
		return xstrdup(student);
	return xasprintf("%.180s-%016llx", student, (unsigned long long)hash_bytes(student, n, 0));
}

char *
batch_row_path(const char *out, const char *fmt, const char *student)
{
	char *key = batch_row_key(student), *rel = xasprintf(fmt, key);
	char *path = xasprintf("%s/%s", out, rel);
	free(key);
	free(rel);
	return path;
}

const char *
batch_row_text(const cJSON *o, const char *key, const char *fallback)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsString(v) ? v->valuestring : fallback;
}

cJSON *
batch_row_load_file(const char *path)
{
	char *text = read_file(path, NULL);
	cJSON *j = text ? cJSON_Parse(text) : NULL;
	free(text);
	if (j && !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(j, "verdict"))) {
		cJSON_Delete(j);
		j = NULL;
	}
	return j;
}

cJSON *
batch_row_load(const char *out, const char *student)
{
	char *path = batch_row_path(out, "%s.json", student);
	cJSON *j = batch_row_load_file(path);
	free(path);
	return j;
}

bool
batch_row_final(const cJSON *row)
{
	const cJSON *final = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(row, "batch"), "final");
	if (cJSON_IsBool(final))
		return cJSON_IsTrue(final);
	return strcmp(batch_row_text(row, "stage", ""), "error") != 0;
}

int
batch_row_attempts(const cJSON *row)
{
	const cJSON *n = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(row, "batch"), "attempts");
	return cJSON_IsNumber(n) && n->valueint > 0 ? n->valueint : 1;
}

const char *
batch_row_recorded_hash(const cJSON *row)
{
	return batch_row_text(cJSON_GetObjectItemCaseSensitive(row, "batch"), "content_hash", NULL);
}

bool
batch_row_resubmitted(const cJSON *row)
{
	return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(row, "batch"),
								  "resubmitted"));
}

char *
batch_row_content_hash(const char *path)
{
	size_t n;
	char *text = read_file(path, &n);
	if (!text)
		return NULL;
	/* two hashes of 64 bits: a file changed by chance never keeps its old row */
	char *hash = xasprintf("%016llx%016llx", (unsigned long long)hash_bytes(text, n, 0),
			       (unsigned long long)hash_bytes(text, n, 0x9e3779b97f4a7c15ull));
	free(text);
	return hash;
}

int
batch_row_all(const char *out, struct cJSON ***rows, char ***paths)
{
	DIR *d = opendir(out);
	int n = 0, cap = 0;
	*rows = NULL;
	*paths = NULL;
	for (struct dirent *entry; d && (entry = readdir(d));) {
		size_t len = strlen(entry->d_name);
		if (entry->d_name[0] == '.' || len <= 5 || strcmp(entry->d_name + len - 5, ".json"))
			continue;
		char *path = xasprintf("%s/%s", out, entry->d_name);
		cJSON *row = batch_row_load_file(path);
		if (batch_row_text(cJSON_GetObjectItemCaseSensitive(row, "batch"), "student", NULL)) {
			ALLOC_GROW(*rows, n + 1, cap);
			*paths = xrealloc(*paths, sizeof(**paths) * (size_t)cap);
			(*paths)[n] = path;
			(*rows)[n++] = row;
		} else {
			cJSON_Delete(row);
			free(path);
		}
	}
	if (d)
		closedir(d);
	return n;
}

cJSON *
batch_row_made_up(const struct exercise *e, enum backend b, const char *file, const char *stage, const char *message)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "exercise", e->name);
	cJSON_AddStringToObject(o, "file", file);
	cJSON_AddStringToObject(o, "backend", build_backend_name(b));
	cJSON_AddStringToObject(o, "device", "");
	cJSON_AddStringToObject(o, "arch", "");
	cJSON_AddStringToObject(o, "verdict", "fail");
	cJSON_AddStringToObject(o, "stage", stage);
	cJSON_AddStringToObject(o, "message", message);
	cJSON_AddNullToObject(o, "note");
	cJSON_AddStringToObject(o, "compile_output", "");
	cJSON_AddStringToObject(o, "program_output", "");
	cJSON_AddArrayToObject(o, "cases");
	cJSON_AddStringToObject(o, "performance", "not_measured");
	cJSON_AddNullToObject(o, "timing");
	cJSON_AddArrayToObject(o, "diagnostics");
	cJSON_AddNullToObject(o, "hint");
	return o;
}

int
batch_out_write(const char *path, const char *data, size_t length)
{
	int status = write_file_atomic(path, data, length);
	if (status)
		error("cannot write '%s': %s", path, strerror(errno));
	return status;
}

void
batch_row_mark_time(cJSON *grade, long long submitted, const char *from, bool late)
{
	cJSON *record = cJSON_GetObjectItemCaseSensitive(grade, "batch");
	if (!record && !(record = cJSON_AddObjectToObject(grade, "batch")))
		return;
	char when[40];
	batch_late_format_time((time_t)submitted, when, sizeof(when));
	cJSON_DeleteItemFromObjectCaseSensitive(record, "submitted");
	cJSON_DeleteItemFromObjectCaseSensitive(record, "submitted_from");
	cJSON_DeleteItemFromObjectCaseSensitive(record, "late");
	cJSON_AddStringToObject(record, "submitted", when);
	cJSON_AddStringToObject(record, "submitted_from", from);
	cJSON_AddBoolToObject(record, "late", late);
}
