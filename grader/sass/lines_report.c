/*
 * The heat map shown (grader/sass/lines.h): which lines are hot and what their
 * figures mean, the annotated source as text, and the map to and from the
 * grade's JSON. Collecting the figures is lines.c's.
 *
 * A line is hot when its requests of one kind take more sectors (or
 * wavefronts) than the bytes they ask for need, beyond the budgets'
 * tolerance (more than 1.25 × the fewest + 0.5 per request), and the excess
 * is at least a twentieth of all the kernel's sectors (or wavefronts): the
 * lines a student should fix first, not merely the busiest ones. Where
 * Nsight Compute sampled the warps, each line's share of the samples (where
 * the time went) is shown beside it, but it does not make a line hot: a
 * load's wait is sampled at the instruction that uses its value.
 */
#include "grader/sass/lines.h"

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "lib/color.h"
#include "lib/util.h"


static const char *const kind_names[LINE_KINDS] = {
	[LINE_GLOBAL_LOAD] = "global load", [LINE_GLOBAL_STORE] = "global store",
	[LINE_SHARED_LOAD] = "shared load", [LINE_SHARED_STORE] = "shared store",
	[LINE_LOCAL_LOAD] = "local load",   [LINE_LOCAL_STORE] = "local store",
};

static const char *const kind_keys[LINE_KINDS] = {
	[LINE_GLOBAL_LOAD] = "global_load", [LINE_GLOBAL_STORE] = "global_store",
	[LINE_SHARED_LOAD] = "shared_load", [LINE_SHARED_STORE] = "shared_store",
	[LINE_LOCAL_LOAD] = "local_load",   [LINE_LOCAL_STORE] = "local_store",
};

/* ------------------------------------------------------------------ what it means */

static uint64_t
kind_total(const struct line_map *m, int k)
{
	return lines_kind_is_shared(k) ? m->total_wavefronts : m->total_sectors;
}

/* More than the budgets' tolerance over the fewest: units/request > 1.25 ideal/request + 0.5. */
static bool
wasteful(const struct line_access *a)
{
	return a->requests && a->ideal && a->units * 4 > a->ideal * 5 + a->requests * 2;
}

static bool
hot_kind(const struct line_map *m, const struct line_access *a, int k)
{
	uint64_t total = kind_total(m, k);
	if (!a->requests || !total)
		return false;
	/* a spill costs wherever it is; the other kinds when they waste */
	if (lines_kind_is_local(k))
		return a->units * 20 >= total;
	return wasteful(a) && (a->units - a->ideal) * 20 >= total;
}

static int
by_place(const void *a, const void *b)
{
	const struct line_figures *x = a, *y = b;
	int c = strcmp(x->file, y->file);
	return c ? c : (x->line > y->line) - (x->line < y->line);
}

char *
lines_text_line(const char *text, int n)
{
	for (int i = 1; text && *text; i++) {
		const char *end = strchrnul(text, '\n');
		if (i == n)
			return xasprintf("%.*s", (int)(end - text), text);
		text = *end ? end + 1 : NULL;
	}
	return NULL;
}

void
lines_finish(struct line_map *m, const char *display, const char *path)
{
	free(m->file);
	m->file = display ? xstrdup(display) : NULL;
	free(m->text);
	m->text = path ? read_file(path, NULL) : NULL;
	m->total_sectors = m->total_wavefronts = 0;
	for (int i = 0; i < m->n; i++)
		for (int k = 0; k < LINE_KINDS; k++)
			*(lines_kind_is_shared(k) ? &m->total_wavefronts : &m->total_sectors) += m->lines[i].kind[k].units;
	for (int i = 0; i < m->n; i++) {
		struct line_figures *l = &m->lines[i];
		l->hot = false;
		for (int k = 0; k < LINE_KINDS; k++)
			l->hot |= hot_kind(m, &l->kind[k], k);
		free(l->source);
		l->source = display && !strcmp(l->file, display) ? lines_text_line(m->text, l->line) : NULL;
	}
	qsort(m->lines, (size_t)m->n, sizeof(*m->lines), by_place);
}

void
lines_not_measured(struct line_map *m, char *why)
{
	if (m->source || m->why) {
		free(why);
		return;
	}
	m->why = why;
}

const struct line_figures *
lines_find(const struct line_map *m, const char *file, int line)
{
	for (int i = 0; i < m->n; i++)
		if (m->lines[i].line == line && (!file || !strcmp(m->lines[i].file, file)))
			return &m->lines[i];
	return NULL;
}

static double
per_request(uint64_t units, uint64_t requests)
{
	return requests ? (double)units / (double)requests : 0;
}

static uint64_t
line_bytes(const struct line_figures *l)
{
	uint64_t sectors = 0;
	for (int k = 0; k < LINE_KINDS; k++)
		if (!lines_kind_is_shared(k))
			sectors += l->kind[k].units;
	return sectors * 32;
}

/* What the line's share is of: where the time went when the warps were sampled, else its bytes or wavefronts. */
static double
line_share(const struct line_figures *l, const struct line_map *m, const char **of)
{
	if (m->total_samples > 0) {
		*of = "time";
		return 100 * l->samples / m->total_samples;
	}
	uint64_t bytes = line_bytes(l), wavefronts = l->kind[LINE_SHARED_LOAD].units + l->kind[LINE_SHARED_STORE].units;
	if (bytes || !wavefronts) {
		*of = "bytes";
		return m->total_sectors ? 100.0 * (double)bytes / (32.0 * (double)m->total_sectors) : 0;
	}
	*of = "shared wavefronts";
	return m->total_wavefronts ? 100.0 * (double)wavefronts / (double)m->total_wavefronts : 0;
}

static char *
bytes_text(double bytes)
{
	if (bytes >= 10 * 1024 * 1024)
		return xasprintf("%.0f MiB", bytes / (1024 * 1024));
	if (bytes >= 10 * 1024)
		return xasprintf("%.0f KiB", bytes / 1024);
	return xasprintf("%.0f B", bytes);
}

static char *
count_text(uint64_t n)
{
	if (n >= 10000000)
		return xasprintf("%.0fM", (double)n / 1e6);
	if (n >= 100000)
		return xasprintf("%.0fk", (double)n / 1e3);
	return xasprintf("%llu", (unsigned long long)n);
}

/* One kind's figures, e.g. "4.0 sectors/req (4.0 needed)" or "31.0 bank conflicts/req". */
static char *
access_text(const struct line_access *a, int k)
{
	double got = per_request(a->units, a->requests), need = per_request(a->ideal, a->requests);
	if (lines_kind_is_shared(k) && a->ideal && a->units <= a->ideal)
		return xstrdup("no bank conflicts");
	if (lines_kind_is_shared(k))
		return a->ideal ? xasprintf("%.1f bank conflicts/req", got - need) : xasprintf("%.1f wavefronts/req", got);
	if (lines_kind_is_local(k))
		return xasprintf("%.1f sectors/req: spilled registers", got);
	return a->ideal ? xasprintf("%.1f sectors/req, %.1f needed", got, need) : xasprintf("%.1f sectors/req", got);
}

char *
lines_summary(const struct line_figures *l, const struct line_map *m)
{
	struct buf b = BUF_INIT;
	buf_addstr(&b, "");
	for (int k = 0; k < LINE_KINDS; k++) {
		if (!l->kind[k].requests)
			continue;
		char *t = access_text(&l->kind[k], k);
		buf_addf(&b, "%s%s %s", b.len ? "; " : "", kind_names[k], t);
		free(t);
	}
	const char *of;
	double share = line_share(l, m, &of);
	if (share >= 0.5)
		buf_addf(&b, "%s%.0f%% of the %s", b.len ? "; " : "", share, of);
	return buf_detach(&b);
}

/* ------------------------------------------------------------------ showing it */


/* The first line to show: the kernel's first line above the first measured one, when near. */
static int
span_start(const char *text, int first)
{
	for (int n = first; n > 0 && n > first - 40; n--) {
		char *t = lines_text_line(text, n);
		bool kernel = t && (strstr(t, "__global__") || strstr(t, "__device__"));
		free(t);
		if (kernel)
			return n;
	}
	return first > 3 ? first - 3 : 1;
}

/* The last line to show: the end of the function the last measured line is in, when near. */
static int
span_end(const char *text, int last)
{
	for (int n = last + 1; n <= last + 30; n++) {
		char *t = lines_text_line(text, n);
		if (!t)
			return n - 1;
		bool closing = t[0] == '}';
		free(t);
		if (closing)
			return n;
	}
	return last + 2;
}

static void
print_source_line(FILE *out, int number, const char *text, bool hot, bool color)
{
	/* tabs as spaces, so that 80 columns are 80 columns */
	char shown[96];
	size_t k = 0;
	for (const char *p = text ? text : ""; *p && k < 69; p++) {
		if (*p == '\t')
			for (int s = 0; s < 4 && k < 69; s++)
				shown[k++] = ' ';
		else
			shown[k++] = *p;
	}
	shown[k] = 0;
	bool cut = text && strlen(text) > 69;
	fprintf(out, "%s%2s %5d | %s%s%s\n", hot ? paint(color, COLOR_RED COLOR_BOLD) : "", hot ? "!!" : "", number, shown,
		cut ? "…" : "", hot ? paint(color, COLOR_RESET) : "");
}

static void
print_figures(FILE *out, const struct line_figures *l, const struct line_map *m, bool color)
{
	for (int k = 0; k < LINE_KINDS; k++) {
		const struct line_access *a = &l->kind[k];
		if (!a->requests)
			continue;
		char *what = access_text(a, k), *requests = count_text(a->requests), *bytes = NULL;
		double pct = 0;
		if (lines_kind_is_shared(k)) {
			pct = m->total_wavefronts ? 100.0 * (double)a->units / (double)m->total_wavefronts : 0;
		} else {
			bytes = bytes_text(32.0 * (double)a->units);
			pct = m->total_sectors ? 100.0 * (double)a->units / (double)m->total_sectors : 0;
		}
		bool hot = hot_kind(m, a, k);
		fprintf(out, "%s         |   %-12s %6s req  %-30s %7s %3.0f%%%s\n", paint(color, hot ? COLOR_RED : COLOR_DIM),
			kind_names[k], requests, what, bytes ? bytes : "", pct, paint(color, COLOR_RESET));
		free(what);
		free(requests);
		free(bytes);
	}
	if (m->total_samples > 0 && l->samples > 0)
		fprintf(out, "%s         |   %-12s %3.0f%% of the warp samples%s\n", paint(color, COLOR_DIM), "time",
			100 * l->samples / m->total_samples, paint(color, COLOR_RESET));
}

void
lines_print_text(FILE *out, const struct line_map *m, bool color)
{
	if (!m->source) {
		fprintf(out, "per line: not measured%s%s\n", m->why ? ": " : "", m->why ? m->why : "");
		return;
	}
	fprintf(out, "%sper line%s, from the %s%s%s%s\n", paint(color, COLOR_BOLD), paint(color, COLOR_RESET),
		!strcmp(m->source, "simulator") ? "simulator" : "GPU by Nsight Compute", m->note ? " (" : "",
		m->note ? m->note : "", m->note ? ")" : "");
	if (m->n == 0) {
		fprintf(out, "  no memory request of your kernels was seen\n");
		return;
	}
	int hot = 0;
	for (int i = 0; i < m->n; i++) {
		const struct line_figures *l = &m->lines[i];
		if (!l->hot)
			continue;
		for (int k = 0; k < LINE_KINDS; k++) {
			if (!hot_kind(m, &l->kind[k], k))
				continue;
			char *what = access_text(&l->kind[k], k);
			fprintf(out, "  %shot%s %s:%d: %s, %s (%.0f%% of the %s)\n", paint(color, COLOR_RED COLOR_BOLD), paint(color, COLOR_RESET),
				l->file, l->line, kind_names[k], what,
				100.0 * (double)l->kind[k].units / (double)kind_total(m, k),
				lines_kind_is_shared(k) ? "shared wavefronts" : "sectors");
			free(what);
		}
		hot++;
	}
	if (!hot)
		fprintf(out, "  no line asks for more sectors or wavefronts than its bytes need\n");
	fprintf(out, "  (req: warp requests; sectors of 32 bytes; %% of the kernel's sectors or shared wavefronts)\n");
	/* the student's file, from its kernel's first line to the end of the last measured function */
	int first = 0, last = 0;
	for (int i = 0; i < m->n; i++)
		if (m->file && !strcmp(m->lines[i].file, m->file)) {
			if (!first || m->lines[i].line < first)
				first = m->lines[i].line;
			if (m->lines[i].line > last)
				last = m->lines[i].line;
		}
	if (first && m->text) {
		fprintf(out, "\n%s\n", m->file);
		int end = span_end(m->text, last);
		for (int n = span_start(m->text, first); n <= end; n++) {
			char *t = lines_text_line(m->text, n);
			const struct line_figures *l = lines_find(m, m->file, n);
			print_source_line(out, n, t, l && l->hot, color);
			if (l)
				print_figures(out, l, m, color);
			free(t);
		}
	}
	/* lines of other files (a header beside it), and any line the file no longer has */
	for (int i = 0; i < m->n; i++) {
		const struct line_figures *l = &m->lines[i];
		if (m->text && m->file && !strcmp(l->file, m->file) && l->source)
			continue;
		fprintf(out, "\n%s:%d\n", l->file, l->line);
		print_figures(out, l, m, color);
	}
}

static void
add_number_or_null(cJSON *o, const char *name, bool known, double value)
{
	if (known)
		cJSON_AddNumberToObject(o, name, value);
	else
		cJSON_AddNullToObject(o, name);
}

cJSON *
lines_json(const struct line_map *m)
{
	cJSON *list = cJSON_CreateArray();
	for (int i = 0; i < m->n; i++) {
		const struct line_figures *l = &m->lines[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "file", l->file);
		cJSON_AddNumberToObject(o, "line", l->line);
		if (l->source)
			cJSON_AddStringToObject(o, "source", l->source);
		else
			cJSON_AddNullToObject(o, "source");
		uint64_t global = l->kind[LINE_GLOBAL_LOAD].requests + l->kind[LINE_GLOBAL_STORE].requests;
		uint64_t sectors = l->kind[LINE_GLOBAL_LOAD].units + l->kind[LINE_GLOBAL_STORE].units;
		uint64_t ideal = l->kind[LINE_GLOBAL_LOAD].ideal + l->kind[LINE_GLOBAL_STORE].ideal;
		uint64_t shared = l->kind[LINE_SHARED_LOAD].requests + l->kind[LINE_SHARED_STORE].requests;
		uint64_t wavefronts = l->kind[LINE_SHARED_LOAD].units + l->kind[LINE_SHARED_STORE].units;
		uint64_t shared_ideal = l->kind[LINE_SHARED_LOAD].ideal + l->kind[LINE_SHARED_STORE].ideal;
		uint64_t local = l->kind[LINE_LOCAL_LOAD].requests + l->kind[LINE_LOCAL_STORE].requests;
		cJSON_AddNumberToObject(o, "requests", (double)(global + shared + local));
		cJSON_AddNumberToObject(o, "global_requests", (double)global);
		add_number_or_null(o, "sectors_per_request", global, per_request(sectors, global));
		add_number_or_null(o, "ideal_sectors_per_request", global && ideal, per_request(ideal, global));
		cJSON_AddNumberToObject(o, "shared_requests", (double)shared);
		add_number_or_null(o, "bank_conflicts_per_request", shared && shared_ideal,
				   wavefronts > shared_ideal ? per_request(wavefronts - shared_ideal, shared) : 0);
		cJSON_AddNumberToObject(o, "local_requests", (double)local);
		cJSON_AddNumberToObject(o, "bytes", (double)line_bytes(l));
		const char *of;
		double share = line_share(l, m, &of);
		cJSON_AddNumberToObject(o, "share_pct", share);
		cJSON_AddStringToObject(o, "share_of", of);
		add_number_or_null(o, "bytes_pct", m->total_sectors,
				   m->total_sectors ? 100.0 * (double)line_bytes(l) / (32.0 * (double)m->total_sectors) : 0);
		add_number_or_null(o, "time_pct", m->total_samples > 0,
				   m->total_samples > 0 ? 100 * l->samples / m->total_samples : 0);
		cJSON_AddBoolToObject(o, "hot", l->hot);
		cJSON *accesses = cJSON_AddArrayToObject(o, "accesses");
		for (int k = 0; k < LINE_KINDS; k++) {
			const struct line_access *a = &l->kind[k];
			if (!a->requests)
				continue;
			cJSON *j = cJSON_CreateObject();
			cJSON_AddStringToObject(j, "kind", kind_keys[k]);
			cJSON_AddNumberToObject(j, "requests", (double)a->requests);
			cJSON_AddNumberToObject(j, lines_kind_is_shared(k) ? "wavefronts" : "sectors", (double)a->units);
			add_number_or_null(j, lines_kind_is_shared(k) ? "ideal_wavefronts" : "ideal_sectors", a->ideal, (double)a->ideal);
			cJSON_AddBoolToObject(j, "hot", hot_kind(m, a, k));
			cJSON_AddItemToArray(accesses, j);
		}
		cJSON_AddItemToArray(list, o);
	}
	return list;
}

void
lines_add_json(cJSON *o, const struct line_map *m)
{
	cJSON_AddItemToObject(o, "lines", lines_json(m));
	cJSON *j = cJSON_AddObjectToObject(o, "lines_measured");
	if (m->source)
		cJSON_AddStringToObject(j, "source", m->source);
	else
		cJSON_AddNullToObject(j, "source");
	if (m->note)
		cJSON_AddStringToObject(j, "note", m->note);
	else
		cJSON_AddNullToObject(j, "note");
	if (!m->source && m->why)
		cJSON_AddStringToObject(j, "why_not", m->why);
	else
		cJSON_AddNullToObject(j, "why_not");
}

/* The kind of an `accesses` entry by its key, or -1. */
static int
kind_of_key(const char *key)
{
	for (int k = 0; key && k < LINE_KINDS; k++)
		if (!strcmp(key, kind_keys[k]))
			return k;
	return -1;
}

static uint64_t
count_of(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsNumber(v) && v->valuedouble >= 0 && v->valuedouble < 9e15 ? (uint64_t)v->valuedouble : 0;
}

void
lines_from_json(struct line_map *m, const cJSON *report, const char *display)
{
	const char *graded = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(report, "file"));
	const cJSON *measured = cJSON_GetObjectItemCaseSensitive(report, "lines_measured");
	const char *source = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(measured, "source"));
	const char *note = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(measured, "note"));
	const cJSON *list = cJSON_GetObjectItemCaseSensitive(report, "lines"), *x;
	/* the source as this module names it, not as the file said */
	m->source = !source ? NULL : !strcmp(source, "simulator") ? "simulator" : "nsight compute";
	free(m->note);
	m->note = note ? xstrdup(note) : NULL;
	cJSON_ArrayForEach(x, list) {
		const char *file = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(x, "file"));
		const cJSON *line = cJSON_GetObjectItemCaseSensitive(x, "line"), *a;
		if (!file || !cJSON_IsNumber(line) || line->valuedouble < 1 || line->valuedouble > INT_MAX)
			continue;
		struct line_figures *l = lines_at(m, graded && !strcmp(file, graded) ? display : file, (int)line->valuedouble);
		if (!l)
			break;
		const cJSON *time = cJSON_GetObjectItemCaseSensitive(x, "time_pct");
		if (cJSON_IsNumber(time) && time->valuedouble > 0) {
			/* percentages stand for the samples: the shares come out the same */
			l->samples += time->valuedouble;
			m->total_samples += time->valuedouble;
		}
		cJSON_ArrayForEach(a, cJSON_GetObjectItemCaseSensitive(x, "accesses")) {
			int k = kind_of_key(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(a, "kind")));
			if (k >= 0)
				lines_add_access(l, k, count_of(a, "requests"), count_of(a, lines_kind_is_shared(k) ? "wavefronts" : "sectors"),
					   count_of(a, lines_kind_is_shared(k) ? "ideal_wavefronts" : "ideal_sectors"));
		}
	}
}
