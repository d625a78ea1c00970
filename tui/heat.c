/*
 * heat: where the memory time goes, line by line (`m` on the results): the
 * exercise's file with, under each line that touched memory, what its
 * requests did, from the `lines` of its last grading kept in the progress
 * (the simulator measures them on every grading; on a GPU, `cudalings grade
 * NAME --lines` does). The figures are the grader's; this only lays them out.
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/app.h"
#include "tui/highlight.h"
#include "tui/screen.h"
#include "lib/util.h"
#include "tui/view.h"

static const char *const kinds[][2] = {
	{ "global_load", "global load" }, { "global_store", "global store" }, { "shared_load", "shared load" },
	{ "shared_store", "shared store" }, { "local_load", "local load" }, { "local_store", "local store" },
};

static const char *
kind_name(const char *key)
{
	for (size_t i = 0; key && i < ARRAY_SIZE(kinds); i++)
		if (!strcmp(key, kinds[i][0]))
			return kinds[i][1];
	return key ? key : "?";
}

static double
num(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static const char *
str(const cJSON *o, const char *key)
{
	const char *s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, key));
	return s ? s : "";
}

static bool
is_shared(const char *kind)
{
	return !strncmp(kind, "shared", 6);
}

/* The kernel's sectors and shared wavefronts over every line: what an access's share is of. */
static void
totals(const cJSON *lines, double *sectors, double *wavefronts)
{
	const cJSON *l, *a;
	*sectors = *wavefronts = 0;
	cJSON_ArrayForEach(l, lines)
		cJSON_ArrayForEach(a, cJSON_GetObjectItemCaseSensitive(l, "accesses")) {
			bool shared = is_shared(str(a, "kind"));
			double units = num(a, shared ? "wavefronts" : "sectors");
			if (!isnan(units))
				*(shared ? wavefronts : sectors) += units;
		}
}

/* An access's figures, e.g. "32.0 sectors/req, 4.0 needed"; false when it has none. */
static bool
access_text(const cJSON *a, char *what, size_t n)
{
	bool shared = is_shared(str(a, "kind"));
	double requests = num(a, "requests"), units = num(a, shared ? "wavefronts" : "sectors");
	double ideal = num(a, shared ? "ideal_wavefronts" : "ideal_sectors");
	if (!(requests > 0) || isnan(units))
		return false;
	if (shared && !isnan(ideal))
		snprintf(what, n, units <= ideal ? "no bank conflicts" : "%.1f bank conflicts/req", (units - ideal) / requests);
	else if (shared)
		snprintf(what, n, "%.1f wavefronts/req", units / requests);
	else if (!isnan(ideal))
		snprintf(what, n, "%.1f sectors/req, %.1f needed", units / requests, ideal / requests);
	else
		snprintf(what, n, "%.1f sectors/req", units / requests);
	return true;
}

/* One access under its line: its figures and a bar of its share. */
static void
access_row(struct doc *d, const cJSON *a, double sectors, double wavefronts, int width)
{
	const char *kind = str(a, "kind");
	bool shared = is_shared(kind), hot = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(a, "hot"));
	double units = num(a, shared ? "wavefronts" : "sectors");
	char what[96];
	if (!access_text(a, what, sizeof(what)))
		return;
	double total = shared ? wavefronts : sectors, share = total > 0 ? units / total : 0;
	/* 11 + 13 + 30 columns of figures, the bar, 5 of percentage */
	int barw = width - 59 < 4 ? 4 : width - 59 > 30 ? 30 : width - 59, n = (int)lround(share * barw);
	doc_newline(d);
	doc_printf(d, S_DIM, "%9s  ", "");
	doc_printf(d, hot ? S_FAIL : S_PLAIN, "%-13s%-30s", kind_name(kind), what);
	doc_repeat(d, hot ? S_BAR_BAD : S_BAR_GOOD, "█", n);
	doc_repeat(d, S_PLAIN, " ", barw - n);
	doc_printf(d, S_DIM, " %3.0f%%", 100 * share);
}

static void
source_line(struct doc *d, int number, const char *text, size_t len, bool hot, bool *in_comment, int width)
{
	char first[32];
	snprintf(first, sizeof(first), "%2s %5d ", hot ? "!!" : "", number);
	highlight_put(d, text, len, true, in_comment, width, first, "         ", hot ? S_FAIL | F_STRONG : S_DIM);
}

static const cJSON *
line_figures(const cJSON *lines, const char *file, int number)
{
	const cJSON *l;
	cJSON_ArrayForEach(l, lines)
		if (num(l, "line") == number && !strcmp(str(l, "file"), file))
			return l;
	return NULL;
}

/* The report's heat map over the file's text, into d at width columns. */
static void
render(struct doc *d, const struct item *it, const cJSON *report, const char *text, bool changed, int width)
{
	const cJSON *measured = cJSON_GetObjectItemCaseSensitive(report, "lines_measured");
	const cJSON *lines = cJSON_GetObjectItemCaseSensitive(report, "lines"), *l;
	const char *source = str(measured, "source"), *file = str(report, "file");
	double sectors, wavefronts;
	doc_puts(d, S_H1, "Where the memory time goes, line by line");
	doc_newline(d);
	if (!*source) {
		const char *why = str(measured, "why_not");
		doc_newline(d);
		doc_wrap_text(d, S_PLAIN, *why ? why : "the last grading measured no line", width, "Not measured: ", "");
		doc_newline(d);
		doc_wrap_text(d, S_DIM, "On the simulator every grading measures them (c grades). On a GPU they come "
			      "from Nsight Compute: run `cudalings grade NAME --lines` in a terminal, and this view "
			      "shows what it measured.", width, "", "");
		return;
	}
	char *said = xasprintf("%s, from the %s (%s)", *file ? file : it->file,
			       !strcmp(source, "simulator") ? "simulator" : "GPU by Nsight Compute", str(measured, "note"));
	doc_wrap_text(d, S_DIM, said, width, "", "");
	free(said);
	if (changed) {
		doc_newline(d);
		doc_puts(d, S_WARN, "The file changed since this grading: c grades it again.");
	}
	totals(lines, &sectors, &wavefronts);
	int hot = 0;
	cJSON_ArrayForEach(l, lines) {
		const cJSON *a;
		cJSON_ArrayForEach(a, cJSON_GetObjectItemCaseSensitive(l, "accesses")) {
			char what[96];
			if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(a, "hot")) || !access_text(a, what, sizeof(what)))
				continue;
			doc_newline(d);
			doc_printf(d, S_FAIL, "!! line %d", (int)num(l, "line"));
			doc_printf(d, S_PLAIN, ": %s, %s", kind_name(str(a, "kind")), what);
			hot++;
		}
	}
	doc_newline(d);
	if (!hot)
		doc_puts(d, S_PASS, "No line asks for more sectors or wavefronts than its bytes need.");
	doc_newline(d);
	doc_wrap_text(d, S_DIM, "Under each line: its warp requests of each kind, sectors of 32 bytes per request "
		      "against the fewest its bytes need, bank conflicts per shared-memory request, and its share of "
		      "the kernel's sectors or wavefronts.", width, "", "");
	doc_newline(d);
	bool in_comment = false;
	int number = 1;
	for (const char *p = text; p && *p; number++) {
		const char *end = strchrnul(p, '\n');
		const cJSON *f = line_figures(lines, *file ? file : it->file, number), *a;
		source_line(d, number, p, (size_t)(end - p), f && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(f, "hot")),
			    &in_comment, width);
		cJSON_ArrayForEach(a, cJSON_GetObjectItemCaseSensitive(f, "accesses"))
			access_row(d, a, sectors, wavefronts, width);
		if (f && num(f, "time_pct") > 0) {
			doc_newline(d);
			doc_printf(d, S_DIM, "%9s  %-13s%.0f%% of the warp samples", "", "time", num(f, "time_pct"));
		}
		p = *end ? end + 1 : NULL;
	}
}

static void
heat_open(struct view *v)
{
	struct app *a = v->app;
	const struct item *it = app_item(a, v->item);
	int width = pager_reset(v);
	char *json = NULL, *text = NULL;
	cJSON *report = NULL;

	if (!it->file) {
		doc_puts(&v->doc, S_PLAIN, "This item has no file of yours to measure.");
		return;
	}
	json = state_load_report(&a->state, it->name);
	report = json ? cJSON_Parse(json) : NULL;
	text = app_read(a, it->file);
	if (!report) {
		doc_puts(&v->doc, S_H1, "Where the memory time goes, line by line");
		doc_newline(&v->doc);
		doc_newline(&v->doc);
		doc_wrap_text(&v->doc, S_PLAIN, "Not graded yet: press c to grade the exercise; every grading on the "
			      "simulator measures the memory requests of each line.", width, "", "");
	} else {
		char *path = app_path(a, it->file);
		bool changed = state_changed_since_graded(&a->state, it->name, path);
		free(path);
		render(&v->doc, it, report, text ? text : "", changed, width);
	}
	cJSON_Delete(report);
	free(json);
	free(text);
}

const struct view_ops heat_ops = {
	.name = "heat map",
	.open = heat_open,
	.draw = pager_draw,
	.key = pager_key,
	.bar = "j/k=scroll a c e q",
	.per_item = true,
};
