/*
 * report: a verdict laid out as a doc (compile errors with their lines,
 * cases, timing and the hardware's limit, diagnostics, hints), and a grading's
 * live progress.  Pure.
 */
#include "tui/report.h"

#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/exit.h"
#include "tui/hint.h"
#include "lib/util.h"

static void
heading(struct doc *d, const char *title)
{
	doc_newline(d);
	doc_newline(d);
	doc_puts(d, S_H2, title);
}

/* The text of line n (1-based) of source, or NULL; you own it. */
static char *
source_line(const char *source, long n)
{
	const char *p = source, *end;

	for (long i = 1; p && i < n; i++) {
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	if (!p || !*p)
		return NULL;
	end = strchr(p, '\n');
	return xstrndup(p, end ? (size_t)(end - p) : strlen(p));
}

/*
 * Compiler messages.  A message line is wrapped at words; the compiler's
 * pictures (source lines, carets) are kept as they are.  nvcc shows no
 * source with its errors, so then we show the line an error names.
 */
static void
render_compile(struct doc *d, const struct result *r, const char *source, int width)
{
	regex_t re, context;
	char *out = xstrdup(r->compile_output), *line, *save = NULL;
	bool has_context;
	int shown = 0;

	heading(d, "Compiler");
	if (regcomp(&re, ":([0-9]+)(:[0-9]+)?: (fatal error|error|warning|note)", REG_EXTENDED) ||
	    regcomp(&context, "^ *[0-9]+ \\| ", REG_EXTENDED | REG_NEWLINE))
		die(EXIT_FATAL, "cannot compile a regular expression");
	has_context = regexec(&context, out, 0, NULL, 0) == 0;
	for (line = strtok_r(out, "\n", &save); line && shown < 400; line = strtok_r(NULL, "\n", &save), shown++) {
		regmatch_t m[4];
		unsigned style;
		char *src;

		if (regexec(&re, line, 4, m, 0) != 0) {
			doc_verbatim(d, S_DIM, line, width, "  ");
			continue;
		}
		style = line[m[3].rm_so] == 'w' ? S_WARN : line[m[3].rm_so] == 'n' ? S_DIM : S_ERROR;
		doc_wrap_text(d, style, line, width, "  ", "    ");
		src = style == S_ERROR && !has_context && source ?
			source_line(source, strtol(line + m[1].rm_so, NULL, 10)) : NULL;
		if (src) {
			doc_newline(d);
			doc_printf(d, S_DIM, "  %5ld │ ", strtol(line + m[1].rm_so, NULL, 10));
			doc_puts(d, S_CODEBLOCK, src);
			free(src);
		}
	}
	regfree(&re);
	regfree(&context);
	free(out);
}

static void
render_cases(struct doc *d, const struct result *r, int width)
{
	int failed = 0;

	for (int i = 0; i < r->ncases; i++)
		failed += !r->cases[i].passed;
	heading(d, "Cases");
	doc_printf(d, S_DIM, "  (%d of %d passed)", r->ncases - failed, r->ncases);
	for (int i = 0; i < r->ncases; i++) {
		const struct grade_case *c = &r->cases[i];
		struct buf sb = BUF_INIT;

		doc_newline(d);
		doc_puts(d, c->passed ? S_PASS : S_FAIL, c->passed ? "  ✓ " : "  ✗ ");
		doc_puts(d, S_PLAIN, c->name);
		/* the grader's message says how many were wrong; else we say it */
		if (*c->message)
			buf_addstr(&sb, c->message);
		else if (c->mismatches)
			buf_addf(&sb, "%ld wrong", c->mismatches);
		if (sb.len) {
			struct doc_span run = { sb.data, c->passed ? S_DIM : S_PLAIN };

			doc_wrap(d, &run, 1, width, "      ", "      ", S_PLAIN);
		}
		buf_free(&sb);
	}
}

static void
bar(struct doc *d, const char *label, double us, double max, int barw, unsigned style, const char *what)
{
	int n = max > 0 ? (int)lround(us / max * barw) : 0;

	doc_newline(d);
	doc_printf(d, S_PLAIN, "  %-10s ", label);
	doc_repeat(d, style, "█", n < 1 ? 1 : n);
	doc_repeat(d, S_PLAIN, " ", barw - (n < 1 ? 1 : n));
	doc_printf(d, S_PLAIN, " %9.1f µs", us);
	if (what)
		doc_printf(d, S_DIM, "  %s", what);
}

static void
render_timing(struct doc *d, const struct result *r, int width)
{
	const struct grade_timing *t = &r->timing;
	double vals[] = { t->median_us, t->threshold_us, t->reference_us, t->copy_us }, max = 0;
	/* "  reference  " ████ " 2123.7 µs" "  fast enough" */
	int barw = width - 13 - 13 - 13;
	bool slow = !strcmp(r->performance, "fail"), words = barw >= 10;
	struct buf sb = BUF_INIT;

	heading(d, "Timing");
	if (*r->device)
		doc_printf(d, S_DIM, "  on %s, median", r->device);
	for (size_t i = 0; i < ARRAY_SIZE(vals); i++)
		if (!isnan(vals[i]) && vals[i] > max)
			max = vals[i];
	/* a narrow screen keeps the figures and drops the words */
	if (!words)
		barw = width - 13 - 13 < 4 ? 4 : width - 13 - 13;
	if (!isnan(t->median_us))
		bar(d, "yours", t->median_us, max, barw, slow ? S_BAR_BAD : S_BAR_GOOD,
		    !words ? NULL : slow ? "too slow" : "fast enough");
	if (!isnan(t->threshold_us))
		bar(d, "threshold", t->threshold_us, max, barw, S_BAR_LIMIT, NULL);
	if (!isnan(t->reference_us))
		bar(d, "reference", t->reference_us, max, barw, S_BAR_REF, NULL);
	if (!isnan(t->copy_us))
		bar(d, "copy", t->copy_us, max, barw, S_BAR_REF, words ? "the floor" : NULL);
	if (!isnan(t->ratio))
		buf_addf(&sb, "%.2f× the reference", t->ratio);
	if (!isnan(t->threshold_ratio))
		buf_addf(&sb, " (the threshold is %.2f×)", t->threshold_ratio);
	if (!isnan(t->gbps)) {
		buf_addf(&sb, "%s%.0f GB/s", sb.len ? "; " : "", t->gbps);
		if (!isnan(t->copy_gbps) && t->copy_gbps > 0)
			buf_addf(&sb, ", %.0f%% of a copy", 100 * t->gbps / t->copy_gbps);
		if (!isnan(t->peak_gbps) && t->peak_gbps > 0)
			buf_addf(&sb, ", %.0f%% of the peak %.0f GB/s", 100 * t->gbps / t->peak_gbps, t->peak_gbps);
	}
	if (sb.len) {
		doc_wrap_text(d, S_PLAIN, sb.data, width, "  ", "  ");
	}
	buf_free(&sb);
}

/* Where a mark goes on a bar of w cells that runs from lo to hi percent. */
static int
cell(double pct, double lo, double hi, int w)
{
	int c = hi > lo ? (int)lround((pct - lo) / (hi - lo) * (w - 1)) : 0;

	return c < 0 ? 0 : c >= w ? w - 1 : c;
}

/*
 * Put label on row (a line of w + 1 spaces) starting at column at, or ending
 * there when it would run off; false when it would touch another label.
 */
static bool
place(char *row, int w, int at, const char *label)
{
	int n = (int)strlen(label), from = at + n <= w ? at : at - n + 1;

	if (from < 0)
		from = 0;
	for (int i = from - 1; i <= from + n; i++)
		if (i >= 0 && i < w && row[i] != ' ')
			return false;
	memcpy(row + from, label, (size_t)n);
	return true;
}

static const char *
tier_words(const char *tier)
{
	if (!strcmp(tier, "gold"))
		return "as fast as gold, the top tier";
	if (!strcmp(tier, "near_gold"))
		return "within 1.1× of gold";
	if (!strcmp(tier, "pass"))
		return "pass";
	return NULL;
}

/*
 * The hardware's limit: a bar from the reference (or yours, when slower) to
 * the physical reference, the limit, with your mark and gold's on it.
 */
static void
render_limit(struct doc *d, const struct result *r, int width)
{
	const struct grade_timing *t = &r->timing;
	double you = t->limit_pct, ref = 100 * t->physical_us / t->reference_us;
	double gold = t->gold_us > 0 ? 100 * t->physical_us / t->gold_us : NAN;
	double lo = fmin(ref, you), hi = fmax(100, fmax(you, isnan(gold) ? 0 : gold));
	int w = width - 2 - 10 - 6, at_you, at_gold = -1, at_ref, at_limit;
	bool slow = !strcmp(r->performance, "fail");
	char *rows[2], label[64];
	const char *what = *r->physical ? r->physical : "device-to-device copy", *tier = tier_words(r->tier);
	struct buf sb = BUF_INIT;

	if (isnan(you) || !(t->physical_us > 0) || !(t->reference_us > 0))
		return;
	w = w < 20 ? 20 : w;
	at_you = cell(you, lo, hi, w);
	at_ref = cell(ref, lo, hi, w);
	at_limit = cell(100, lo, hi, w);
	if (!isnan(gold))
		at_gold = cell(gold, lo, hi, w);
	heading(d, "The hardware's limit");
	doc_newline(d);
	doc_puts(d, S_PLAIN, "  reference ");
	for (int c = 0; c < w; c++) {
		if (c == at_you)
			doc_puts(d, (slow ? S_FAIL : S_PASS) | F_STRONG, "●");
		else if (c == at_gold)
			doc_puts(d, S_BAR_LIMIT | F_STRONG, "◆");
		else if (c == at_limit && at_limit < w - 1)
			doc_puts(d, S_BAR_REF, "┃");
		else if (c == at_ref && at_ref > 0)
			doc_puts(d, S_BAR_REF, "┃");
		else if (c < at_you)
			doc_puts(d, slow ? S_BAR_BAD : S_BAR_GOOD, "█");
		else
			doc_puts(d, S_DIM, "░");
	}
	doc_puts(d, S_PLAIN, " limit");
	/* the figures under their marks, on a second line where they would touch */
	for (int i = 0; i < 2; i++) {
		rows[i] = xmalloc((size_t)w + 1);
		memset(rows[i], ' ', (size_t)w);
		rows[i][w] = '\0';
	}
	snprintf(label, sizeof(label), "%.0f%% yours", you);
	place(rows[0], w, at_you, label);
	snprintf(label, sizeof(label), "%.0f%%", ref);
	if (at_ref != at_you && !place(rows[0], w, at_ref, label))
		place(rows[1], w, at_ref, label);
	snprintf(label, sizeof(label), "%.0f%% gold", gold);
	if (at_gold >= 0 && !place(rows[0], w, at_gold, label))
		place(rows[1], w, at_gold, label);
	if (at_limit != at_you && at_limit != at_gold && !place(rows[0], w, at_limit, "100%"))
		place(rows[1], w, at_limit, "100%");
	for (int i = 0; i < 2; i++) {
		size_t n = strlen(rows[i]);

		while (n && rows[i][n - 1] == ' ')
			n--;
		if (n) {
			doc_newline(d);
			doc_repeat(d, S_PLAIN, " ", 12);
			doc_put(d, S_DIM, rows[i], n);
		}
		free(rows[i]);
	}
	buf_addf(&sb, "Yours is %.0f%% of the limit here, a %s of the same %s in %.1f µs; the reference %.0f%%",
		you, what, strstr(what, "SGEMM") ? "product" : "bytes", t->physical_us, ref);
	if (!isnan(gold))
		buf_addf(&sb, ", the gold solution %.0f%% (%.1f µs)", gold, t->gold_us);
	buf_addstr(&sb, ".");
	if (tier)
		buf_addf(&sb, " Tier: %s.", tier);
	if (tier && !isnan(gold) && strcmp(r->tier, "gold"))
		buf_addf(&sb, " The next: %s %.1f µs.", strcmp(r->tier, "near_gold") ? "within 1.1× of gold," : "gold's",
			strcmp(r->tier, "near_gold") ? 1.1 * t->gold_us : t->gold_us);
	doc_wrap_text(d, S_PLAIN, sb.data, width, "  ", "  ");
	buf_free(&sb);
}

/* One hint, its formulas as code, each kept on one line where it fits. */
static void
render_hint(struct doc *d, const char *text, int number, int width)
{
	struct doc_span *runs;
	int n = hint_runs(text, &runs);
	char num[16];

	for (int i = 0; i < n; i++)
		if (runs[i].style == S_CODE)
			runs[i].style |= F_KEEP;
	snprintf(num, sizeof(num), "  %d. ", number);
	doc_wrap(d, runs, n, width, num, "     ", S_BULLET);
	spans_free(runs, n);
}

static void
render_hints(struct doc *d, const struct item *it, const struct result *r, int shown, int width)
{
	const struct hint **hints;
	const char *key;
	int n = hint_list(it, r, &hints, &key);

	if (!n) {
		free(hints);
		return;
	}
	shown = shown > n ? n : shown;
	heading(d, "Hints");
	if (!shown) {
		doc_newline(d);
		doc_printf(d, S_DIM, "  %d hint%s, from a question to the line to write: press h for the first.",
			   n, n == 1 ? "" : "s");
		free(hints);
		return;
	}
	doc_printf(d, S_DIM, "  (%d of %d)", shown, n);
	for (int i = 0; i < shown; i++) {
		if (i)
			doc_newline(d);
		render_hint(d, hints[i]->text, i + 1, width);
	}
	doc_newline(d);
	doc_newline(d);
	doc_puts(d, S_DIM, shown < n ? "  Press h for the next hint." : "  That was the last hint.");
	free(hints);
}

static void
render_headline(struct doc *d, const struct item *it, const struct result *r, int width)
{
	bool sim = !strcmp(r->backend, "sim");
	unsigned style = r->pass ? S_PASS : S_FAIL;
	char *text;

	if (r->pass)
		text = xasprintf("%s %s", it->title, sim ? "is correct on the simulator" : "passed on the GPU");
	else if (r->exit_status >= 2)
		text = xasprintf("the grader could not grade %s (exit %d%s)", it->name, r->exit_status,
				 r->exit_status == 3 ? ": environment error" : r->exit_status == 2 ? ": usage error" : "");
	else
		text = xasprintf("%s fails%s%s", it->title, *r->stage ? " at " : "", r->stage);
	/* the verdict whole, on as many lines as it takes: a headline cut at the edge says something else */
	doc_wrap(d, &(struct doc_span){ text, style | F_STRONG }, 1, width, r->pass ? "✓ " : "✗ ", "  ", style);
	free(text);
	if (*r->message) {
		doc_wrap_text(d, S_PLAIN, r->message, width, "  ", "  ");
	}
	if (*r->note) {
		doc_wrap_text(d, S_DIM, r->note, width, "  ", "  ");
	}
	if (*r->estimate && (r->pass || !strcmp(r->stage, "performance"))) {
		doc_wrap_text(d, S_DIM, r->estimate, width, "  ", "  ");
	}
	if (*r->backend || *r->device) {
		doc_newline(d);
		doc_printf(d, S_DIM, "  backend %s%s%s", r->backend, *r->device ? ", " : "", r->device);
	}
	if (r->elapsed_ms >= 0) {
		if (!*r->backend && !*r->device)
			doc_newline(d);
		doc_printf(d, S_DIM, "%sgraded in %.1f s", *r->backend || *r->device ? "; " : "  ",
			   r->elapsed_ms / 1000.0);
	}
	/* whether this verdict still speaks of the file: the one line that says when it may not */
	if (r->changed) {
		doc_newline(d);
		doc_puts(d, S_WARN, "  changed since graded: c grades it again");
	} else if (r->earlier) {
		doc_newline(d);
		doc_puts(d, S_DIM, "  graded in an earlier session: c grades it again");
	} else if (r->saved) {
		time_t saved = (time_t)(r->saved / 1000);
		char when[16];

		strftime(when, sizeof(when), "%H:%M:%S", localtime(&saved));
		doc_newline(d);
		doc_printf(d, S_DIM, "  graded at %s", when);
	}
}

void
report_render(struct doc *d, const struct item *it, const struct result *r,
	      int hints_shown, const char *source, int width)
{
	render_headline(d, it, r, width);
	if (*r->compile_output)
		render_compile(d, r, source, width);
	if (r->ncases)
		render_cases(d, r, width);
	if (r->has_timing) {
		render_timing(d, r, width);
		render_limit(d, r, width);
	}
	else if (!strcmp(r->performance, "not_measured") && !*r->note && r->pass) {
		doc_newline(d);
		doc_puts(d, S_DIM, "  timing: not measured");
	}
	if (*r->program_output) {
		/* the student's own printf()s: often how they debug */
		heading(d, "Your program printed");
		doc_verbatim(d, S_CODEBLOCK, r->program_output, width, "  ");
	}
	if (r->ndiags) {
		heading(d, "Diagnostics");
		for (int i = 0; i < r->ndiags; i++) {
			struct doc_span runs[] = {
				{ r->diags[i].kind, S_WARN }, { ": ", S_PLAIN }, { r->diags[i].message, S_PLAIN },
			};

			doc_wrap(d, runs, 3, width, "  • ", "    ", S_BULLET);
		}
	}
	if (*r->stderr_text && (r->exit_status >= 2 || r->exit_status < 0 || !*r->verdict)) {
		heading(d, "The grader said");
		doc_verbatim(d, S_PLAIN, r->stderr_text, width, "  ");
	}
	if (!r->pass)
		render_hints(d, it, r, hints_shown, width);
}

void
report_ungraded(struct doc *d, const struct item *it, const char *last, int hints_shown, int width)
{
	char *text = last ? xasprintf("%s: %s, when last graded (before this session).", it->title, last)
			  : xasprintf("%s has not been graded yet.", it->title);

	doc_wrap_text(d, S_PLAIN, text, width, "", "");
	free(text);
	doc_newline(d);
	doc_newline(d);
	doc_puts(d, S_DIM, "Press e to edit the exercise, c to grade it, w to grade on every save.");
	render_hints(d, it, NULL, hints_shown, width);
}

void
report_progress(struct doc *d, const struct item *it, const char *verb,
		const struct grade_step *steps, int nsteps, int width)
{
	int last_stage = -1;
	char *heading = xasprintf("%s %s", verb, it->title);

	for (int i = 0; i < nsteps; i++)
		if (!steps[i].is_case)
			last_stage = i;
	doc_wrap_text(d, S_H3, heading, width, "", "");
	free(heading);
	doc_newline(d);
	for (int i = 0; i < nsteps; i++) {
		const struct grade_step *s = &steps[i];

		doc_newline(d);
		if (s->is_case) {
			doc_puts(d, s->passed ? S_PASS : S_FAIL, s->passed ? "      ✓ " : "      ✗ ");
			doc_printf(d, S_PLAIN, "case %d of %d: %s", s->index, s->count, s->name);
			continue;
		}
		if (i == last_stage)
			doc_puts(d, S_WARN, "  ▸ ");
		else
			doc_puts(d, S_PASS, "  ✓ ");
		if (*s->message)
			doc_printf(d, S_PLAIN | F_STRONG, "%-8s", s->stage);
		else
			doc_puts(d, S_PLAIN | F_STRONG, s->stage);
		if (*s->message)
			doc_printf(d, S_PLAIN, " %s", s->message);
	}
	if (!nsteps) {
		doc_newline(d);
		doc_puts(d, S_WARN, "  ▸ under way");
	}
}

void
report_demo(struct doc *d, const struct item *it, const char *output, int status, int width)
{
	doc_wrap_text(d, S_H3, it->title, width, "", "");
	doc_newline(d);
	doc_newline(d);
	if (!output) {
		doc_wrap_text(d, S_PLAIN, "A demo: variants of one kernel run side by side, so that you can "
			      "compare what they do. Press c to run them.", width, "", "");
		return;
	}
	if (status)
		doc_printf(d, S_FAIL, status < 0 ? "The run was stopped." : "The run failed (exit %d).", status);
	else
		doc_puts(d, S_PASS, "The run finished.");
	doc_newline(d);
	doc_verbatim(d, S_CODEBLOCK, output, width, "");
}
