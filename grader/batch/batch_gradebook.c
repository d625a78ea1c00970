/*
 * batch_gradebook: what a batch writes from a student's grading, on top of
 * the rows on disk (batch_rows.c): the row itself, the student's feedback
 * page, the gradebook (RFC 4180 CSV, no formula a spreadsheet would run)
 * and Gradescope's results.json. Declared in batch_rows.h.
 */
#include "grader/batch/batch_rows.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grader/batch/batch_late.h"
#include "common/json.h"
#include "lib/util.h"
#include "grader/engine/cmdline.h"

static int
write_json(const char *path, cJSON *j)
{
	char *text = json_print(j, true);
	struct buf b = BUF_INIT;
	buf_addf(&b, "%s\n", text);
	free(text);
	int status = batch_out_write(path, b.data, b.len);
	buf_free(&b);
	return status;
}

/* `text` as Markdown shows it verbatim: indented four spaces, a line at a time. */
static void
md_block(struct buf *md, const char *text, int max_lines)
{
	int lines = 0;
	for (const char *p = text; *p && lines < max_lines; lines++) {
		const char *end = strchrnul(p, '\n');
		buf_addf(md, "    %.*s\n", (int)(end - p), p);
		p = *end ? end + 1 : end;
		if (lines + 1 == max_lines && *p)
			buf_addstr(md, "    …\n");
	}
}

char *
batch_feedback(const struct exercise *e, const char *student, const cJSON *grade)
{
	struct buf md = BUF_INIT;
	const char *verdict = batch_row_text(grade, "verdict", "fail"), *stage = batch_row_text(grade, "stage", NULL);
	buf_addf(&md, "# %s: %s\n\n", e->name, student);
	if (!strcmp(verdict, "pass"))
		buf_addstr(&md, "**Verdict: pass**\n\n");
	else
		buf_addf(&md, "**Verdict: fail at %s**\n\n", stage ? stage : "error");
	md_block(&md, batch_row_text(grade, "message", ""), 20);
	const char *compile = batch_row_text(grade, "compile_output", "");
	if (*compile) {
		buf_addstr(&md, "\n## The compiler\n\n");
		md_block(&md, compile, 30);
	}
	const cJSON *c, *cases = cJSON_GetObjectItemCaseSensitive(grade, "cases");
	if (cJSON_GetArraySize(cases)) {
		buf_addstr(&md, "\n## Cases\n\n");
		cJSON_ArrayForEach(c, cases) {
			bool passed = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "passed"));
			const char *message = batch_row_text(c, "message", "");
			buf_addf(&md, "- %s: %s%s%.*s\n", batch_row_text(c, "name", "?"), passed ? "ok" : "wrong",
				 passed || !*message ? "" : ": ", (int)strcspn(message, "\n"), passed ? "" : message);
		}
	}
	const cJSON *d, *diagnostics = cJSON_GetObjectItemCaseSensitive(grade, "diagnostics");
	if (cJSON_GetArraySize(diagnostics)) {
		buf_addstr(&md, "\n## Diagnosis\n\n");
		cJSON_ArrayForEach(d, diagnostics) {
			const char *message = batch_row_text(d, "message", "");
			buf_addf(&md, "- %s: %.*s\n", batch_row_text(d, "kind", "?"), (int)strcspn(message, "\n"), message);
		}
	}
	const char *hint = batch_row_text(grade, "hint", NULL);
	if (hint && *hint)
		buf_addf(&md, "\n## A hint\n\n%s\n", hint);
	char *flags = batch_row_flags(grade);
	if (*flags)
		buf_addf(&md, "\n(flags: %s)\n", flags);
	free(flags);
	char *text = buf_detach(&md), *valid = utf8_escape_invalid(text);
	if (valid) {
		free(text);
		text = valid;
	}
	return text;
}

/* Gradescope's file first, the row last: a whole row means the student is done. */
int
batch_row_write(const char *out, const struct exercise *e, const char *student, cJSON *grade,
		const struct row_stamp *stamp)
{
	cJSON_DeleteItemFromObjectCaseSensitive(grade, "batch");
	cJSON *record = cJSON_AddObjectToObject(grade, "batch");
	/* the whole name, which the file's name may have had to shorten */
	cJSON_AddStringToObject(record, "student", student);
	cJSON_AddBoolToObject(record, "final", stamp->final);
	if (stamp->seconds >= 0)
		cJSON_AddNumberToObject(record, "seconds", round(stamp->seconds * 10) / 10);
	cJSON_AddNumberToObject(record, "attempts", stamp->attempts);
	cJSON_AddStringToObject(record, "by", stamp->by);
	if (stamp->content_hash)
		cJSON_AddStringToObject(record, "content_hash", stamp->content_hash);
	if (stamp->resubmitted)
		cJSON_AddTrueToObject(record, "resubmitted");
	if (stamp->link)
		cJSON_AddTrueToObject(record, "link");
	if (stamp->submitted >= 0)
		batch_row_mark_time(grade, stamp->submitted, stamp->submitted_from, stamp->late);
	char *dir = batch_row_path(out, "gradescope/%s", student), *gs_path = xasprintf("%s/results.json", dir);
	char *path = batch_row_path(out, "%s.json", student), *feedback_dir = xasprintf("%s/feedback", out);
	char *feedback_path = batch_row_path(out, "feedback/%s.md", student), *feedback = batch_feedback(e, student, grade);
	cJSON *gs = batch_gradescope(e, grade, stamp->seconds);
	int status = mkdir_p(dir) ? error("cannot create '%s': %s", dir, strerror(errno)) : write_json(gs_path, gs);
	if (!status)
		status = mkdir_p(feedback_dir) ? error("cannot create '%s': %s", feedback_dir, strerror(errno))
					       : batch_out_write(feedback_path, feedback, strlen(feedback));
	free(feedback_dir);
	free(feedback_path);
	free(feedback);
	if (!status)
		status = write_json(path, grade);
	cJSON_Delete(gs);
	free(path);
	free(gs_path);
	free(dir);
	return status;
}

int
batch_row_mark_withdrawn(const char *path, bool withdrawn)
{
	cJSON *row = batch_row_load_file(path), *record = cJSON_GetObjectItemCaseSensitive(row, "batch");
	int status = 0;
	if (record && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(record, "withdrawn")) != withdrawn) {
		cJSON_DeleteItemFromObjectCaseSensitive(record, "withdrawn");
		if (withdrawn && !cJSON_AddTrueToObject(record, "withdrawn"))
			status = error("cannot edit the row in '%s'", path);
		if (!status)
			status = write_json(path, row);
	}
	cJSON_Delete(row);
	return status;
}

int
batch_row_reopen(const char *out, const char *student)
{
	char *path = batch_row_path(out, "%s.json", student);
	cJSON *row = batch_row_load_file(path), *record = cJSON_GetObjectItemCaseSensitive(row, "batch");
	int status = 0;
	if (record) {
		cJSON_DeleteItemFromObjectCaseSensitive(record, "final");
		status = cJSON_AddFalseToObject(record, "final") ? write_json(path, row)
								 : error("cannot edit the row of '%s'", student);
	}
	cJSON_Delete(row);
	free(path);
	return status;
}

int
batch_row_restore_gradescope(const char *out, const struct exercise *e, const char *student, const cJSON *row)
{
	char *dir = batch_row_path(out, "gradescope/%s", student), *gs_path = xasprintf("%s/results.json", dir);
	int status = 0;
	if (!file_exists(gs_path)) {
		cJSON *gs = batch_gradescope(e, row, -1);
		status = mkdir_p(dir) ? error("cannot create '%s': %s", dir, strerror(errno)) : write_json(gs_path, gs);
		cJSON_Delete(gs);
	}
	free(gs_path);
	free(dir);
	return status;
}

/* ------------------------------------------------------------ the gradebook and Gradescope */

/* A plain decimal (the batch's own figures: "-3", "84.32"); not "inf", "1e9" or "0x10", which are texts. */
static bool
plain_number(const char *text)
{
	const char *p = text + (*text == '-');
	size_t digits = strspn(p, "0123456789");
	if (!digits)
		return false;
	p += digits;
	if (*p == '.' && (digits = strspn(p + 1, "0123456789")))
		p += 1 + digits;
	return !*p;
}

/*
 * Whether a spreadsheet would run the cell as a formula: it starts with
 * = + - @, a tab, a CR or LF (OWASP's list), or their full-width forms,
 * which some spreadsheets take for the ASCII ones.
 */
static bool
formula_like(const char *text)
{
	static const char *const fullwidth[] = { "\xef\xbc\x9d", "\xef\xbc\x8b", "\xef\xbc\x8d", "\xef\xbc\xa0" };
	if (*text && strchr("=+-@\t\r\n", *text))
		return true;
	for (size_t i = 0; i < ARRAY_SIZE(fullwidth); i++)
		if (!strncmp(text, fullwidth[i], 3))
			return true;
	return false;
}

/*
 * One field as RFC 4180 has it (quoted when it holds a comma, a quote, CR
 * or LF; a quote doubled), and never a formula: such a field gets a leading
 * apostrophe, as OWASP advises. A number the batch writes itself (a
 * negative one, say) is not a text from a student.
 */
static void
csv_field(struct buf *b, const char *text, bool last)
{
	char *guarded = NULL, *escaped = utf8_escape_invalid(text);
	if (escaped)
		text = escaped; /* a gradebook is UTF-8 whatever bytes a file's name held */
	if (formula_like(text) && !plain_number(text))
		text = guarded = xasprintf("'%s", text);
	if (strpbrk(text, ",\"\r\n")) {
		buf_addstr(b, "\"");
		for (const char *p = text; *p; p++)
			buf_addstr(b, *p == '"' ? "\"\"" : (char[]){ *p, 0 });
		buf_addstr(b, "\"");
	} else {
		buf_addstr(b, text);
	}
	buf_addstr(b, last ? "\r\n" : ",");
	free(guarded);
	free(escaped);
}

/*
 * The cases every student is counted on, as the grader counts them: each
 * correctness case of the manifest and the timed one, however many input
 * sets the grader judges it on (on the simulator, its measured copy).
 * Run or not, so every row has the same total.
 */
struct outcome {
	bool ran, passed;
	const char *message; /* the first failure's, owned by the grade JSON */
};

static bool
on_gpu(const cJSON *grade)
{
	return !strcmp(batch_row_text(grade, "backend", ""), "gpu");
}

static void
case_outcome(const cJSON *grade, const char *label, bool timed, struct outcome *out)
{
	const cJSON *c;
	memset(out, 0, sizeof(*out));
	cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(grade, "cases")) {
		bool is_timed = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "timed")) ||
				cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "measured"));
		if (is_timed != timed ||
		    (!timed && strcmp(batch_row_text(c, "name", ""), label)))
			continue;
		bool passed = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "passed"));
		out->passed = passed && (out->passed || !out->ran);
		out->ran = true;
		if (!passed && !out->message)
			out->message = batch_row_text(c, "message", "wrong");
	}
}

static void
count_cases(const struct exercise *e, const cJSON *grade, int *passed, int *total)
{
	struct outcome o;
	char label[80];
	*passed = 0;
	*total = e->ncases + e->has_timed;
	for (int i = 0; i < e->ncases; i++) {
		manifest_case_label(e->cases[i], e->ndims, label, sizeof(label));
		case_outcome(grade, label, false, &o);
		*passed += o.passed;
	}
	if (*total > e->ncases) {
		case_outcome(grade, NULL, true, &o);
		*passed += o.passed;
	}
}

static double
timing_number(const cJSON *grade, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(grade, "timing"), key);
	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

char *
batch_row_flags(const cJSON *grade)
{
	const cJSON *record = cJSON_GetObjectItemCaseSensitive(grade, "batch"), *d;
	bool refused = false;
	cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(grade, "diagnostics"))
		refused = refused || !strcmp(batch_row_text(d, "kind", ""), "refused");
	struct buf flags = BUF_INIT;
	const char *names[] = { "refused", "link", "late", "resubmitted" };
	bool set[] = { refused, cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(record, "link")),
		       cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(record, "late")),
		       cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(record, "resubmitted")) };
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (set[i])
			buf_addf(&flags, "%s%s", flags.len ? " " : "", names[i]);
	return buf_detach(&flags);
}

char *
batch_csv_row(const struct exercise *e, const char *student, const cJSON *grade)
{
	struct buf row = BUF_INIT;
	char number[64];
	csv_field(&row, student, false);
	csv_field(&row, batch_row_text(grade, "verdict", "fail"), false);
	csv_field(&row, batch_row_text(grade, "stage", ""), false);
	int passed, total;
	count_cases(e, grade, &passed, &total);
	snprintf(number, sizeof(number), "%d", passed);
	csv_field(&row, number, false);
	snprintf(number, sizeof(number), "%d", total);
	csv_field(&row, number, false);
	double median = timing_number(grade, "median_us"), ratio = timing_number(grade, "ratio");
	snprintf(number, sizeof(number), isnan(median) ? "" : "%.2f", median);
	csv_field(&row, number, false);
	snprintf(number, sizeof(number), isnan(ratio) ? "" : "%.3f", ratio);
	csv_field(&row, number, false);
	csv_field(&row, batch_row_text(grade, "message", ""), false);
	csv_field(&row, batch_row_final(grade) ? "yes" : "no", false);
	char *flags = batch_row_flags(grade);
	csv_field(&row, flags, true);
	free(flags);
	return buf_detach(&row);
}

static cJSON *
gradescope_test(cJSON *tests, const char *name, bool passed, const char *output)
{
	cJSON *t = cJSON_CreateObject();
	cJSON_AddStringToObject(t, "name", name);
	cJSON_AddNumberToObject(t, "score", passed ? 1 : 0);
	cJSON_AddNumberToObject(t, "max_score", 1);
	cJSON_AddStringToObject(t, "status", passed ? "passed" : "failed");
	cJSON_AddStringToObject(t, "output", output);
	cJSON_AddStringToObject(t, "visibility", "visible");
	cJSON_AddItemToArray(tests, t);
	return t;
}

/* A case's test; the timed one's says how it was judged: " (timed)" on a GPU, " (measured)" on the simulator. */
static void
add_case_test(cJSON *tests, const cJSON *grade, const char *label, const char *timed, double *score)
{
	struct outcome o;
	case_outcome(grade, timed ? NULL : label, timed, &o);
	char *name = xasprintf("case %s%s", label, timed ? timed : "");
	const char *stage = batch_row_text(grade, "stage", NULL);
	char *output = o.ran ? xstrdup(o.passed ? "correct" : o.message)
			     : xasprintf("not run: the grading stopped at %s", stage ? stage : "an earlier case");
	gradescope_test(tests, name, o.passed, output);
	*score += o.passed;
	free(output);
	free(name);
}

cJSON *
batch_gradescope(const struct exercise *e, const cJSON *grade, double seconds)
{
	cJSON *r = cJSON_CreateObject();
	const char *stage = batch_row_text(grade, "stage", NULL);
	const char *message = batch_row_text(grade, "message", "");
	bool gpu = on_gpu(grade);
	double score = 0;
	cJSON *score_item = cJSON_AddNumberToObject(r, "score", 0);
	if (seconds >= 0)
		cJSON_AddNumberToObject(r, "execution_time", round(seconds));
	struct buf output = BUF_INIT;
	if (!strcmp(batch_row_text(grade, "verdict", ""), "pass"))
		buf_addf(&output, "PASS: %s\n", message);
	else
		buf_addf(&output, "FAIL at %s: %s\n", stage ? stage : "an error", message);
	const char *hint = batch_row_text(grade, "hint", NULL), *note = batch_row_text(grade, "note", NULL);
	if (hint)
		buf_addf(&output, "hint: %s\n", hint);
	if (note)
		buf_addf(&output, "%s\n", note);
	cJSON_AddStringToObject(r, "output", output.data);
	buf_free(&output);

	cJSON *tests = cJSON_AddArrayToObject(r, "tests");
	bool compiled = stage == NULL || (strcmp(stage, "compile") && strcmp(stage, "submission") &&
					  strcmp(stage, "error"));
	char *compile_output = compiled ? xstrdup("compiled")
		: xasprintf("%s\n%.4000s", message, batch_row_text(grade, "compile_output", ""));
	gradescope_test(tests, "compile", compiled, compile_output);
	free(compile_output);
	score += compiled;
	char label[80];
	for (int i = 0; i < e->ncases; i++) {
		manifest_case_label(e->cases[i], e->ndims, label, sizeof(label));
		add_case_test(tests, grade, label, NULL, &score);
	}
	double median = timing_number(grade, "median_us");
	if (e->has_timed) {
		int measured[PROTO_MAX_DIMS];
		if (!gpu)
			cmdline_measured_dims(e, measured);
		manifest_case_label(gpu ? e->timed : measured, e->ndims, label, sizeof(label));
		add_case_test(tests, grade, label, gpu ? " (timed)" : " (measured)", &score);
	}
	if (gpu && e->has_timed) {
		bool fast = !strcmp(batch_row_text(grade, "performance", ""), "pass");
		char *text = isnan(median) ? xstrdup("not measured: the kernel must be correct first")
			: xasprintf("%.1f µs, %.2f× the reference solution's %.1f µs (limit %.2f×)", median,
				    timing_number(grade, "ratio"), timing_number(grade, "reference_us"),
				    timing_number(grade, "threshold_ratio"));
		gradescope_test(tests, "performance", fast, text);
		free(text);
		score += fast;
	}
	cJSON_SetNumberValue(score_item, score);

	cJSON *board = cJSON_AddArrayToObject(r, "leaderboard"), *entry;
	entry = cJSON_CreateObject();
	cJSON_AddStringToObject(entry, "name", "cases passed");
	int passed, total;
	count_cases(e, grade, &passed, &total);
	cJSON_AddNumberToObject(entry, "value", passed);
	cJSON_AddStringToObject(entry, "order", "desc");
	cJSON_AddItemToArray(board, entry);
	/* a time only where one was measured: a made-up number would rank a kernel that never ran */
	if (!isnan(median)) {
		entry = cJSON_CreateObject();
		cJSON_AddStringToObject(entry, "name", "time (µs)");
		cJSON_AddNumberToObject(entry, "value", median);
		cJSON_AddStringToObject(entry, "order", "asc");
		cJSON_AddItemToArray(board, entry);
	}
	return r;
}

int
batch_gradebook_save(const char *out, char *const *lines, int n)
{
	struct buf csv = BUF_INIT;
	buf_addstr(&csv, "student,verdict,stage,cases_passed,cases_total,median_us,ratio,message,final,flags\r\n");
	for (int i = 0; i < n; i++)
		if (lines[i])
			buf_addstr(&csv, lines[i]);
	char *path = xasprintf("%s/gradebook.csv", out);
	int status = batch_out_write(path, csv.data, csv.len);
	free(path);
	buf_free(&csv);
	return status;
}
