#include "grader/exercise/manifest.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grader/exercise/budget.h"
#include "grader/mutants/mutants.h"
#include "grader/exercise/signature.h"
#include "lib/util.h"
#include "common/root.h"

static const char *
string_field(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static double
number_field(const cJSON *o, const char *key, double fallback)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsNumber(v) ? v->valuedouble : fallback;
}

#define MAX_SIZE (1 << 30)

/*
 * One case's sizes (`which`: "case 2", "timed"), each an exact whole number from 1 to 2^30: 31.5 is not
 * taken for 31, nor 3000000000 for a mistake of sign.
 */
static int
parse_dims(const cJSON *array, int *dims, int ndims, const char *item, const char *which)
{
	if (!cJSON_IsArray(array) || cJSON_GetArraySize(array) != ndims)
		return error("workbook.json: %s: %s needs %d size%s, one per name in \"dims\"", item, which, ndims,
			     ndims == 1 ? "" : "s");
	for (int i = 0; i < ndims; i++) {
		const cJSON *v = cJSON_GetArrayItem(array, i);
		if (!cJSON_IsNumber(v))
			return error("workbook.json: %s: %s: size %d is not a number", item, which, i + 1);
		double d = v->valuedouble;
		if (d != floor(d))
			return error("workbook.json: %s: %s: size %d, %.17g, is not a whole number", item, which, i + 1, d);
		if (d < 1 || d > MAX_SIZE)
			return error("workbook.json: %s: %s: size %d, %.0f, is out of range: sizes are 1 to %d", item, which,
				     i + 1, d, MAX_SIZE);
		dims[i] = (int)d;
	}
	return 0;
}

static bool
valid_name(const char *name)
{
	if (!*name)
		return false;
	for (const char *p = name; *p; p++)
		if (!islower((unsigned char)*p) && !isdigit((unsigned char)*p) && *p != '_')
			return false;
	return true;
}

/* The keys the format knows, by where they stand: one table, so an unknown key is a mistake, with its nearest. */
static const char *const root_keys[] = { "version", "title", "items", NULL };
static const char *const item_keys[] = { "name", "kind", "title", "lesson", "launcher", "dims", "cases", "timed",
					  "tolerance", "threshold_ratio", "absolute_us", "hints", "budgets", "budgets_on_gpu",
					  "allow", "timing_ways", "check", "equivalent_mutants", NULL };
static const char *const equivalent_keys[] = { "mutant", "why", NULL };
static const char *const tolerance_keys[] = { "rtol", "atol", NULL };
static const char *const hint_keys[] = { "when", "text", NULL };
/* what a hint may answer: a stage, or a diagnosis the grader makes */
static const char *const hint_whens[] = { "fail", "compile", "run", "correctness", "performance", "out_of_bounds",
					  "race", "uninitialized", "barrier_divergence", "warp_divergence",
					  "untransposed_tile", "uncoalesced", "bank_conflicts", "global_reads", "refused",
					  "timing", "slow", "nvcc", "host_memory", "cross_block_update",
					  "compile_time", NULL };
#define MANIFEST_VERSION 1

static const char *
nearest(const char *word, const char *const *known)
{
	const char *best = NULL;
	int best_distance = 4;
	for (const char *const *k = known; *k; k++) {
		int d = edit_distance(word, *k);
		if (d < best_distance) {
			best_distance = d;
			best = *k;
		}
	}
	return best;
}

static int
unknown_word(const char *where, const char *what, const char *word, const char *const *known)
{
	const char *close = nearest(word, known);
	struct buf list = BUF_INIT;
	for (const char *const *k = known; *k; k++)
		buf_addf(&list, "%s%s", k == known ? "" : ", ", *k);
	int status = close ? error("workbook.json: %s: unknown %s '%s': did you mean '%s'?", where, what, word, close)
			   : error("workbook.json: %s: unknown %s '%s' (known: %s)", where, what, word, list.data);
	buf_free(&list);
	return status;
}

/* Every key of object o is one the format knows; o must be an object. */
/*
 * The first key given twice in one object of the tree, with the item it is in; NULL when none. cJSON
 * keeps both and reads the first: a second "cases" would be silently ignored.
 */
static const char *
duplicate_key(const cJSON *o, const char **item)
{
	for (const cJSON *c = o ? o->child : NULL; c; c = c->next) {
		const char *name = string_field(c, "name");
		const char *inner = NULL, *dup = duplicate_key(c, &inner);
		if (dup) {
			*item = inner ? inner : name;
			return dup;
		}
		if (cJSON_IsObject(o))
			for (const cJSON *d = c->next; d; d = d->next)
				if (c->string && d->string && !strcmp(c->string, d->string)) {
					*item = string_field(o, "name");
					return c->string;
				}
	}
	return NULL;
}

static int
check_keys(const cJSON *o, const char *where, const char *const *known)
{
	if (!cJSON_IsObject(o))
		return error("workbook.json: %s must be an object { … }", where);
	const cJSON *k;
	cJSON_ArrayForEach(k, o) {
		bool found = false;
		for (const char *const *w = known; *w && !found; w++)
			found = !strcmp(k->string, *w);
		if (!found)
			return unknown_word(where, "key", k->string, known);
	}
	return 0;
}

/* The types of an item's keys, and its hints' keys and whens. */
static int
check_item(const cJSON *o, const char *name)
{
	if (check_keys(o, name, item_keys))
		return -1;
	static const struct { const char *key; int type; const char *what; } types[] = {
		{ "kind", cJSON_String, "a string" },   { "title", cJSON_String, "a string" },
		{ "lesson", cJSON_String, "a string" }, { "launcher", cJSON_String, "a string" },
		{ "dims", cJSON_Array, "a list" },      { "cases", cJSON_Array, "a list" },
		{ "timed", cJSON_Array, "a list" },     { "tolerance", cJSON_Object, "an object" },
		{ "threshold_ratio", cJSON_Number, "a number" }, { "absolute_us", cJSON_Object, "an object" },
		{ "hints", cJSON_Array, "a list" },     { "budgets", cJSON_Object, "an object" },
		{ "allow", cJSON_Array, "a list" },     { "check", cJSON_String, "a string" },
		{ "equivalent_mutants", cJSON_Array, "a list" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(types); i++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, types[i].key);
		if (v && (v->type & 0xff) != types[i].type)
			return error("workbook.json: %s: \"%s\" must be %s", name, types[i].key, types[i].what);
	}
	const cJSON *tol = cJSON_GetObjectItemCaseSensitive(o, "tolerance");
	char *where = xasprintf("%s: tolerance", name);
	int status = tol ? check_keys(tol, where, tolerance_keys) : 0;
	free(where);
	const cJSON *h;
	int i = 0;
	cJSON_ArrayForEach(h, cJSON_GetObjectItemCaseSensitive(o, "hints")) {
		where = xasprintf("%s: hint %d", name, ++i);
		const char *when = string_field(h, "when");
		if (!status)
			status = check_keys(h, where, hint_keys);
		if (!status && !string_field(h, "text"))
			status = error("workbook.json: %s needs a \"text\"", where);
		bool known = !when;
		for (const char *const *w = hint_whens; *w && when && !known; w++)
			known = !strcmp(when, *w);
		if (!status && !known)
			status = unknown_word(where, "\"when\"", when, hint_whens);
		free(where);
	}
	i = 0;
	cJSON_ArrayForEach(h, cJSON_GetObjectItemCaseSensitive(o, "equivalent_mutants")) {
		where = xasprintf("%s: equivalent_mutants %d", name, ++i);
		const char *mutant = string_field(h, "mutant"), *why = string_field(h, "why"), *problem, *near;
		if (!status)
			status = check_keys(h, where, equivalent_keys);
		if (!status && !mutant)
			status = error("workbook.json: %s needs a \"mutant\" (its id, as check --mutants prints it)", where);
		else if (!status && !mutants_id_valid(mutant, &problem, &near))
			status = near ? error("workbook.json: %s: '%s' %s: did you mean '%s'?", where, mutant, problem, near)
				      : error("workbook.json: %s: '%s' %s", where, mutant, problem);
		if (!status && (!why || !*why))
			status = error("workbook.json: %s needs a \"why\": what makes '%s' compute what the solution does, "
				       "or why only a GPU tells them apart", where, mutant);
		const cJSON *other;
		int j = 0;
		cJSON_ArrayForEach(other, cJSON_GetObjectItemCaseSensitive(o, "equivalent_mutants")) {
			const char *m = string_field(other, "mutant");
			if (++j < i && !status && m && mutant && !strcmp(m, mutant))
				status = error("workbook.json: %s: '%s' is listed twice", where, mutant);
		}
		free(where);
	}
	return status;
}

static int
parse_exercise(const cJSON *o, struct exercise *e)
{
	const char *name = cJSON_IsObject(o) ? string_field(o, "name") : NULL;
	if (!name || !valid_name(name))
		return error("workbook.json: every item needs a \"name\" of lower-case letters, digits and '_'");
	if (check_item(o, name))
		return -1;
	e->name = xstrdup(name);
	const char *kind = string_field(o, "kind");
	if (!kind || !strcmp(kind, "exercise"))
		e->kind = ITEM_EXERCISE;
	else if (!strcmp(kind, "demo"))
		e->kind = ITEM_DEMO;
	else if (!strcmp(kind, "lesson"))
		e->kind = ITEM_LESSON;
	else
		return error("workbook.json: %s: unknown kind '%s' (exercise, demo or lesson)", name, kind);
	const char *title = string_field(o, "title");
	e->title = xstrdup(title ? title : name);
	const char *lesson = string_field(o, "lesson");
	/* every file of an item is in the folder of its workbook.json */
	const char *dir = workbook_dir();
	e->dir = xstrdup(dir);
	e->lesson = lesson ? xasprintf("%s%s", dir, lesson) : xasprintf("%sslides/%s.md", dir, name);
	/* a lesson of the workbook's own folder (whether it is there is checked once every item is read) */
	if (lesson && (lesson[0] == '/' || !strncmp(lesson, "../", 3) || strstr(lesson, "/../")))
		return error("workbook.json: %s: \"lesson\" '%s' must be a path inside the workbook's folder, like "
			     "slides/%s.md", name, lesson, name);
	if (e->kind == ITEM_LESSON)
		return 0;

	/* a demo has nothing for the student to write: only its variants to run */
	e->file = e->kind == ITEM_EXERCISE ? xasprintf("%sexercises/%s.cu", dir, name) : NULL;
	e->solution = xasprintf("%ssolutions/%s.cu", dir, name);
	const char *launcher = string_field(o, "launcher");
	if (!launcher || !(e->launcher_name = signature_name(launcher)))
		return error("workbook.json: %s: \"launcher\" must be a C signature like "
			     "\"void %s_launch(const float *in, float *out, int n)\"", name, name);
	e->launcher = xstrdup(launcher);
	const char *check = string_field(o, "check");
	e->check = xstrdup(check ? check : name);
	if (signature_parse(launcher, e))
		return -1;

	const cJSON *dims = cJSON_GetObjectItemCaseSensitive(o, "dims");
	e->ndims = cJSON_GetArraySize(dims);
	if (!cJSON_IsArray(dims) || e->ndims < 1 || e->ndims > PROTO_MAX_DIMS)
		return error("workbook.json: %s: \"dims\" names 1 to %d sizes", name, PROTO_MAX_DIMS);
	for (int i = 0; i < e->ndims; i++) {
		const cJSON *d = cJSON_GetArrayItem(dims, i);
		e->dim_names[i] = xstrdup(cJSON_IsString(d) ? d->valuestring : "n");
	}
	const cJSON *cases = cJSON_GetObjectItemCaseSensitive(o, "cases");
	e->ncases = cJSON_GetArraySize(cases);
	if (!cJSON_IsArray(cases) || e->ncases < 1 || e->ncases > MANIFEST_MAX_CASES)
		return error("workbook.json: %s: \"cases\" lists 1 to %d cases", name, MANIFEST_MAX_CASES);
	for (int i = 0; i < e->ncases; i++) {
		char which[40];
		snprintf(which, sizeof(which), "case %d of \"cases\"", i + 1);
		if (parse_dims(cJSON_GetArrayItem(cases, i), e->cases[i], e->ndims, name, which))
			return -1;
	}
	const cJSON *timed = cJSON_GetObjectItemCaseSensitive(o, "timed");
	if (timed) {
		if (parse_dims(timed, e->timed, e->ndims, name, "\"timed\""))
			return -1;
		e->has_timed = true;
	}
	/* the "Measure it" demo: its first case is the kernel's first launch, timed at the timed size */
	const cJSON *ways = cJSON_GetObjectItemCaseSensitive(o, "timing_ways");
	if (ways && !cJSON_IsBool(ways))
		return error("workbook.json: %s: \"timing_ways\" must be true or false", name);
	e->timing_ways = cJSON_IsTrue(ways);
	if (e->timing_ways && (e->kind != ITEM_DEMO || !e->has_timed ||
			       memcmp(e->cases[0], e->timed, sizeof(int) * (size_t)e->ndims)))
		return error("workbook.json: %s: \"timing_ways\" is for a demo whose first case is its \"timed\" size "
			     "(the first launch is one of the ways)", name);
	const cJSON *tol = cJSON_GetObjectItemCaseSensitive(o, "tolerance");
	e->rtol = number_field(tol, "rtol", NAN);
	e->atol = number_field(tol, "atol", NAN);
	if (e->rtol < 0 || e->atol < 0)
		return error("workbook.json: %s: \"tolerance\" is never negative", name);
	e->threshold_ratio = number_field(o, "threshold_ratio", 1.25);
	if (e->threshold_ratio < 1)
		return error("workbook.json: %s: \"threshold_ratio\" below 1 would fail the reference itself", name);

	const cJSON *allow = cJSON_GetObjectItemCaseSensitive(o, "allow"), *call;
	e->allow = xcalloc((size_t)cJSON_GetArraySize(allow) + 1, sizeof(char *));
	cJSON_ArrayForEach(call, allow)
		if (cJSON_IsString(call))
			e->allow[e->nallow++] = xstrdup(call->valuestring);

	const cJSON *equivalents = cJSON_GetObjectItemCaseSensitive(o, "equivalent_mutants"), *eq;
	e->equivalents = xcalloc((size_t)cJSON_GetArraySize(equivalents) + 1, sizeof(*e->equivalents));
	cJSON_ArrayForEach(eq, equivalents)
		e->equivalents[e->nequivalents++] = (struct equivalent_mutant){ xstrdup(string_field(eq, "mutant")),
										 xstrdup(string_field(eq, "why")) };

	const cJSON *budgets = cJSON_GetObjectItemCaseSensitive(o, "budgets"), *limit;
	e->budgets = xcalloc((size_t)cJSON_GetArraySize(budgets) + 1, sizeof(*e->budgets));
	cJSON_ArrayForEach(limit, budgets) {
		if (!cJSON_IsNumber(limit) || limit->valuedouble < 0 || !budget_kind_find(limit->string))
			return error("workbook.json: %s: \"budgets\" maps sectors_per_request, bank_conflicts_per_request "
				     "global_reads_per_output or global_reads_per_thread to a number, not \"%s\"", name, limit->string);
		e->budgets[e->nbudgets].name = xstrdup(limit->string);
		e->budgets[e->nbudgets++].limit = limit->valuedouble;
	}

	/* the budgets are the exercise's point: on a GPU too they decide, measured by Nsight Compute */
	const cJSON *on_gpu = cJSON_GetObjectItemCaseSensitive(o, "budgets_on_gpu");
	if (on_gpu && !cJSON_IsBool(on_gpu))
		return error("workbook.json: %s: \"budgets_on_gpu\" must be true or false", name);
	e->budgets_on_gpu = cJSON_IsTrue(on_gpu);
	if (e->budgets_on_gpu && (!e->nbudgets || !e->has_timed))
		return error("workbook.json: %s: \"budgets_on_gpu\" needs \"budgets\" to judge and a \"timed\" size to "
			     "measure them at", name);

	const cJSON *absolute = cJSON_GetObjectItemCaseSensitive(o, "absolute_us"), *a;
	e->absolute = xcalloc((size_t)cJSON_GetArraySize(absolute) + 1, sizeof(*e->absolute));
	cJSON_ArrayForEach(a, absolute) {
		if (!cJSON_IsNumber(a) || a->valuedouble <= 0)
			return error("workbook.json: %s: \"absolute_us\" maps GPU names to microseconds", name);
		e->absolute[e->nabsolute].device = xstrdup(a->string);
		e->absolute[e->nabsolute++].us = a->valuedouble;
	}
	return 0;
}

static void
parse_hints(const cJSON *o, struct exercise *e)
{
	const cJSON *hints = cJSON_GetObjectItemCaseSensitive(o, "hints"), *h;
	e->hints = xcalloc((size_t)cJSON_GetArraySize(hints) + 1, sizeof(*e->hints));
	cJSON_ArrayForEach(h, hints) {
		const char *text = string_field(h, "text"), *when = string_field(h, "when");
		if (!text)
			continue;
		e->hints[e->nhints].when = xstrdup(when ? when : "fail");
		e->hints[e->nhints++].text = xstrdup(text);
	}
}

/* An item that uses an earlier item's check: the same launcher parameters, the same sizes. */
static int
check_shared(const struct manifest *m, const struct exercise *e)
{
	for (int i = 0; i < m->count; i++) {
		const struct exercise *o = &m->items[i];
		if (strcmp(o->name, e->check))
			continue;
		if (!o->launcher || strcmp(strchr(o->launcher, '('), strchr(e->launcher, '(')) || o->ndims != e->ndims)
			return error("workbook.json: %s: \"check\" '%s' needs the same launcher parameters and sizes as "
				     "'%s' has", e->name, e->check, o->name);
		return 0;
	}
	return error("workbook.json: %s: \"check\" names '%s', which is not an exercise or demo listed before it",
		     e->name, e->check);
}

int
manifest_load(struct manifest *m)
{
	char *path = xstrdup(workbook_file());
	size_t length;
	char *text = read_file(path, &length);
	memset(m, 0, sizeof(*m));
	if (!text) {
		error("cannot read '%s'", path);
		free(path);
		return -1;
	}
	cJSON *root = cJSON_ParseWithLength(text, length);
	if (!root) {
		const char *at = cJSON_GetErrorPtr();
		int line = 1;
		for (const char *p = text; at && p < at; p++)
			line += *p == '\n';
		error("%s:%d: not valid JSON", path, line);
		free(text);
		free(path);
		return -1;
	}
	int status = check_keys(root, "the top level", root_keys);
	const char *item = NULL, *twice = status ? NULL : duplicate_key(root, &item);
	if (twice)
		status = error("workbook.json: %s%s\"%s\" is given twice in one object: keep one", item ? item : "",
			       item ? ": " : "", twice);
	const cJSON *version = cJSON_GetObjectItemCaseSensitive(root, "version");
	const cJSON *items = cJSON_GetObjectItemCaseSensitive(root, "items"), *o;
	if (!status && version && (!cJSON_IsNumber(version) || version->valuedouble != MANIFEST_VERSION))
		status = error("workbook.json: \"version\" must be %d, the format this cudalings reads",
			       MANIFEST_VERSION);
	if (!status && (!cJSON_IsArray(items) || !cJSON_GetArraySize(items)))
		status = error("workbook.json: \"items\" must list the lessons and exercises, in order");
	const char *title = cJSON_IsObject(root) ? string_field(root, "title") : NULL;
	m->title = xstrdup(title ? title : "cudalings");
	m->items = xcalloc((size_t)cJSON_GetArraySize(items) + 1, sizeof(*m->items));
	const cJSON *listed = status ? NULL : items;
	cJSON_ArrayForEach(o, listed) {
		struct exercise *e = &m->items[m->count];
		if (parse_exercise(o, e)) {
			status = -1;
			break;
		}
		parse_hints(o, e);
		for (int i = 0; i < m->count; i++)
			if (!strcmp(m->items[i].name, e->name)) {
				status = error("workbook.json: '%s' is listed twice", e->name);
				break;
			}
		if (!status && e->check && strcmp(e->check, e->name))
			status = check_shared(m, e);
		if (!status && e->kind != ITEM_LESSON && e->launcher)
			status = signature_check_against_check(e);
		m->count++;
	}
	/* the files the workbook and make tui open by these paths, once the items themselves are right */
	for (int i = 0; i < m->count && !status; i++) {
		char *lesson = root_path(m->items[i].lesson);
		if (access(lesson, R_OK) || is_directory(lesson))
			status = error("workbook.json: %s: its lesson '%s' is not there", m->items[i].name,
				       m->items[i].lesson);
		free(lesson);
	}
	cJSON_Delete(root);
	free(text);
	free(path);
	return status;
}

struct exercise *
manifest_find(struct manifest *m, const char *name)
{
	for (int i = 0; i < m->count; i++)
		if (!strcmp(m->items[i].name, name))
			return &m->items[i];
	return NULL;
}

const char *
manifest_suggest(const struct manifest *m, const char *name)
{
	const char *best = NULL;
	int best_distance = 4;
	for (int i = 0; i < m->count; i++) {
		int d = edit_distance(name, m->items[i].name);
		if (strstr(m->items[i].name, name) && strlen(name) >= 3 && d > 2)
			d = 2;
		if (d < best_distance) {
			best_distance = d;
			best = m->items[i].name;
		}
	}
	return best;
}

const char *
manifest_item_kind_name(enum item_kind kind)
{
	return kind == ITEM_EXERCISE ? "exercise" : kind == ITEM_DEMO ? "demo" : "lesson";
}

bool
manifest_item_solution_present(const struct exercise *e)
{
	if (!e->solution)
		return false;
	char *path = root_path(e->solution);
	bool present = access(path, R_OK) == 0 && !is_directory(path);
	free(path);
	return present;
}

void
manifest_case_label(const int *dims, int ndims, char *out, size_t size)
{
	size_t used = 0;
	out[0] = 0;
	for (int i = 0; i < ndims && used < size; i++)
		used += (size_t)snprintf(out + used, size - used, "%s%d", i ? "x" : "", dims[i]);
}

/*
 * The check's buffers against the launcher's signature in workbook.json, in order and by type: a check
 * that says uint8 where the launcher takes `const int *` would read every element wrong. NULL when
 * they agree, else the sentence (you own it).
 */
char *
manifest_buffers_disagree(const struct exercise *e, const struct proto_case_info *info)
{
	if (!e || !e->nparams)
		return NULL;
	if (info->nbuffers != e->nparams)
		return xasprintf("the check of '%s' declares %d buffer%s, but its launcher takes %d pointer%s: %s",
				 e->name, info->nbuffers, info->nbuffers == 1 ? "" : "s", e->nparams,
				 e->nparams == 1 ? "" : "s", e->launcher);
	for (int k = 0; k < info->nbuffers; k++) {
		const struct proto_buffer *b = &info->buffers[k];
		if (b->dtype != e->params[k].dtype)
			return xasprintf("the check of '%s' declares buffer %d '%s' as %s, but the launcher's "
					 "parameter '%s' is %s: change the check's check_buffer_typed or the signature "
					 "in workbook.json", e->name, k + 1, b->name, dtype_name(b->dtype),
					 e->params[k].text, dtype_name(e->params[k].dtype));
	}
	return NULL;
}
