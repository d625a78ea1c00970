#include "batch.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "grade.h"
#include "lib/run.h"
#include "lib/util.h"
#include "root.h"

#define MAX_LANES 16
#define BAR_WIDTH 30

struct submission {
	char *student;   /* the file's name less .cu, or the folder's name */
	char *path;      /* the .cu to grade; NULL when the folder holds none or several */
	char *problem;   /* why it cannot be graded, when path is NULL */
	bool done;
};

struct lane {
	char *device;    /* CUDA_VISIBLE_DEVICES for its gradings; NULL to leave it as it is */
	pid_t pid;       /* the grading in progress, 0 when idle */
	int index;       /* which submission */
	double started;
};

struct batch {
	const struct exercise *e;
	const struct batch_options *o;
	struct submission *subs;
	int count, graded, resumed, retried, next;
	int lock; /* the out folder's lock, held for the whole batch */
	struct lane lanes[MAX_LANES];
	int nlanes;
	char self[PATH_MAX];
	bool tty;
	bool warm;       /* a grading has built what all share: the lanes may run side by side */
	double started;
	int stages[8];   /* pass, compile, run, correctness, performance, submission, other */
};

static volatile sig_atomic_t interrupted;

static void
on_signal(int sig)
{
	interrupted = sig;
}

/* ------------------------------------------------------------ finding the submissions */

/* A .cu file, whatever the case of its extension (BOB.CU is Bob's submission too). */
static bool
ends_with_cu(const char *name)
{
	size_t n = strlen(name);
	return n > 3 && !strcasecmp(name + n - 3, ".cu");
}

static int
compare_submissions(const void *a, const void *b)
{
	return strcmp(((const struct submission *)a)->student, ((const struct submission *)b)->student);
}

/* The .cu in a student's folder: the only one, or the one named after the exercise. */
static void
find_in_folder(struct submission *s, const char *folder, const char *exercise)
{
	DIR *d = opendir(folder);
	int found = 0;
	char *only = NULL, *named = NULL, *want = xasprintf("%s.cu", exercise);
	for (struct dirent *entry; d && (entry = readdir(d));) {
		if (entry->d_name[0] == '.' || !ends_with_cu(entry->d_name))
			continue;
		found++;
		char *path = xasprintf("%s/%s", folder, entry->d_name);
		if (!strcmp(entry->d_name, want)) {
			free(named);
			named = xstrdup(path);
		}
		free(only);
		only = path;
	}
	if (d)
		closedir(d);
	if (named) {
		s->path = named;
		named = NULL;
	} else if (found == 1) {
		s->path = only;
		only = NULL;
	} else if (!d) {
		s->problem = xasprintf("cannot read the folder %s: %s", folder, strerror(errno));
	} else {
		s->problem = found ? xasprintf("the folder holds %d .cu files and none is named %s", found, want)
				   : xstrdup("the folder holds no .cu file");
	}
	free(only);
	free(named);
	free(want);
}

static int
find_submissions(struct batch *b)
{
	char dir[PATH_MAX], out[PATH_MAX];
	DIR *d = realpath(b->o->dir, dir) ? opendir(dir) : NULL;
	if (!realpath(b->o->out, out))
		out[0] = 0;
	if (!d)
		return error("cannot read the folder of submissions '%s': %s", b->o->dir, strerror(errno));
	int cap = 0;
	struct buf skipped = { 0 };
	for (struct dirent *entry; (entry = readdir(d));) {
		if (!strcmp(entry->d_name, ".") || !strcmp(entry->d_name, ".."))
			continue;
		/* absolute: the gradings run in the workbook's folder */
		char *path = xasprintf("%s/%s", dir, entry->d_name);
		bool folder = is_directory(path);
		/* results kept beside the submissions are not a student's folder */
		if (!strcmp(path, out)) {
			free(path);
			continue;
		}
		/* what is not graded is said, not passed over */
		const char *why = entry->d_name[0] == '.' ? "hidden" : !folder && !ends_with_cu(entry->d_name)
			? "not a .cu file" : NULL;
		if (why) {
			buf_addf(&skipped, "%s  %s (%s)", skipped.len ? "\n" : "", entry->d_name, why);
			free(path);
			continue;
		}
		if (b->count == cap) {
			cap = cap ? 2 * cap : 32;
			b->subs = xrealloc(b->subs, sizeof(*b->subs) * (size_t)cap);
		}
		struct submission *s = &b->subs[b->count++];
		memset(s, 0, sizeof(*s));
		if (folder) {
			s->student = xstrdup(entry->d_name);
			find_in_folder(s, path, b->e->name);
			free(path);
		} else {
			s->student = xasprintf("%.*s", (int)strlen(entry->d_name) - 3, entry->d_name);
			struct stat st;
			/* a FIFO or a device would block or never end the grading that opens it */
			if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
				s->problem = xasprintf("%s is not a regular file", entry->d_name);
				free(path);
			} else {
				s->path = path;
			}
		}
	}
	closedir(d);
	if (skipped.len)
		printf("not graded:\n%s\n", skipped.data);
	buf_free(&skipped);
	if (b->count)
		qsort(b->subs, (size_t)b->count, sizeof(*b->subs), compare_submissions);
	for (int i = 1; i < b->count; i++)
		if (!strcmp(b->subs[i].student, b->subs[i - 1].student))
			return error("two submissions are named '%s' (a file and a folder?): the results would "
				     "overwrite each other", b->subs[i].student);
	if (!b->count)
		return error("'%s' holds no submissions (a .cu file, or a folder per student holding one)",
			     b->o->dir);
	return 0;
}

/* ------------------------------------------------------------ results on disk */

/*
 * A student's name as a file name: itself, or when too long for one (a name near 255 bytes, plus
 * ".json" or ".stdout") its start and a hash of the whole. The gradebook keeps the whole name.
 */
static char *
file_key(const char *student)
{
	size_t n = strlen(student);
	if (n <= 200)
		return xstrdup(student);
	return xasprintf("%.180s-%016llx", student, (unsigned long long)hash_bytes(student, n, 0));
}

static char *
out_path(const struct batch *b, const char *fmt, const char *student)
{
	char *key = file_key(student), *rel = xasprintf(fmt, key);
	free(key);
	char *path = xasprintf("%s/%s", b->o->out, rel);
	free(rel);
	return path;
}

/* The grade JSON in `path` when it is whole (an earlier run finished it), else NULL. */
static cJSON *
load_result(const char *path)
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

static const char *
json_string(const cJSON *o, const char *key, const char *fallback)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsString(v) ? v->valuestring : fallback;
}

/* A grade JSON for a submission the grader gave no verdict on, in the CLI's shape. */
static cJSON *
made_up_result(const struct batch *b, const struct submission *s, const char *stage, const char *message)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "exercise", b->e->name);
	cJSON_AddStringToObject(o, "file", s->path ? s->path : b->o->dir);
	cJSON_AddStringToObject(o, "backend", backend_name(b->o->backend));
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

/* ------------------------------------------------------------ the gradebook and Gradescope */

/*
 * One field as RFC 4180 has it, and never a formula: a spreadsheet runs a
 * cell that starts with = + - @ (or a tab or CR before one), so such a
 * field gets a leading apostrophe, as OWASP advises. Numbers the batch
 * writes itself (a negative one, say) are not texts from a student.
 */
static void
csv_field(struct buf *b, const char *text, bool last)
{
	char *guarded = NULL;
	bool number = false;
	if (*text) {
		char *end;
		strtod(text, &end);
		number = !*end;
	}
	if (!number && strchr("=+-@\t\r", text[0]) && text[0])
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
}

/*
 * The cases every student is counted on: each correctness case of the
 * manifest and, on a GPU, the timed one, however many input sets the
 * grader judges it on. Run or not, so every row has the same total.
 */
struct outcome {
	bool ran, passed;
	const char *message; /* the first failure's, owned by the grade JSON */
};

static bool
on_gpu(const cJSON *grade)
{
	return !strcmp(json_string(grade, "backend", ""), "gpu");
}

static void
case_outcome(const cJSON *grade, const char *label, bool timed, struct outcome *out)
{
	const cJSON *c;
	memset(out, 0, sizeof(*out));
	cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(grade, "cases")) {
		if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "timed")) != timed ||
		    (!timed && strcmp(json_string(c, "name", ""), label)))
			continue;
		bool passed = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "passed"));
		out->passed = passed && (out->passed || !out->ran);
		out->ran = true;
		if (!passed && !out->message)
			out->message = json_string(c, "message", "wrong");
	}
}

static void
count_cases(const struct exercise *e, const cJSON *grade, int *passed, int *total)
{
	struct outcome o;
	char label[80];
	*passed = 0;
	*total = e->ncases + (on_gpu(grade) && e->has_timed);
	for (int i = 0; i < e->ncases; i++) {
		case_label(e->cases[i], e->ndims, label, sizeof(label));
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
batch_csv_row(const struct exercise *e, const char *student, const cJSON *grade)
{
	struct buf row = { 0 };
	char number[64];
	csv_field(&row, student, false);
	csv_field(&row, json_string(grade, "verdict", "fail"), false);
	csv_field(&row, json_string(grade, "stage", ""), false);
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
	csv_field(&row, json_string(grade, "message", ""), true);
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

static void
add_case_test(cJSON *tests, const cJSON *grade, const char *label, bool timed, double *score)
{
	struct outcome o;
	case_outcome(grade, timed ? NULL : label, timed, &o);
	char *name = xasprintf("case %s%s", label, timed ? " (timed)" : "");
	const char *stage = json_string(grade, "stage", NULL);
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
	const char *stage = json_string(grade, "stage", NULL);
	const char *message = json_string(grade, "message", "");
	bool gpu = on_gpu(grade);
	double score = 0;
	cJSON *score_item = cJSON_AddNumberToObject(r, "score", 0);
	if (seconds >= 0)
		cJSON_AddNumberToObject(r, "execution_time", round(seconds));
	struct buf output = { 0 };
	if (!strcmp(json_string(grade, "verdict", ""), "pass"))
		buf_addf(&output, "PASS: %s\n", message);
	else
		buf_addf(&output, "FAIL at %s: %s\n", stage ? stage : "an error", message);
	const char *hint = json_string(grade, "hint", NULL), *note = json_string(grade, "note", NULL);
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
		: xasprintf("%s\n%.4000s", message, json_string(grade, "compile_output", ""));
	gradescope_test(tests, "compile", compiled, compile_output);
	free(compile_output);
	score += compiled;
	char label[80];
	for (int i = 0; i < e->ncases; i++) {
		case_label(e->cases[i], e->ndims, label, sizeof(label));
		add_case_test(tests, grade, label, false, &score);
	}
	double median = timing_number(grade, "median_us");
	if (gpu && e->has_timed) {
		case_label(e->timed, e->ndims, label, sizeof(label));
		add_case_test(tests, grade, label, true, &score);
		bool fast = !strcmp(json_string(grade, "performance", ""), "pass");
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

static int
write_json(const char *path, const cJSON *j)
{
	char *text = cJSON_Print(j);
	struct buf b = { 0 };
	buf_addf(&b, "%s\n", text);
	free(text);
	int status = write_file_atomic(path, b.data, b.len);
	if (status)
		error("cannot write '%s': %s", path, strerror(errno));
	buf_free(&b);
	return status;
}

static int
write_gradebook(const struct batch *b)
{
	struct buf csv = { 0 };
	buf_addstr(&csv, "student,verdict,stage,cases_passed,cases_total,median_us,ratio,message\r\n");
	for (int i = 0; i < b->count; i++) {
		if (!b->subs[i].done)
			continue;
		char *path = out_path(b, "%s.json", b->subs[i].student);
		cJSON *grade = load_result(path);
		free(path);
		if (!grade)
			continue;
		char *row = batch_csv_row(b->e, b->subs[i].student, grade);
		buf_addstr(&csv, row);
		free(row);
		cJSON_Delete(grade);
	}
	char *path = xasprintf("%s/gradebook.csv", b->o->out);
	int status = write_file_atomic(path, csv.data, csv.len);
	if (status)
		error("cannot write '%s': %s", path, strerror(errno));
	free(path);
	buf_free(&csv);
	return status;
}

/* Gradescope's file first, the grade JSON last: a whole grade JSON means the student is done. */
static int
record(struct batch *b, int index, const cJSON *grade, const char *grade_text, double seconds)
{
	struct submission *s = &b->subs[index];
	char *dir = out_path(b, "gradescope/%s", s->student);
	char *gs_path = xasprintf("%s/results.json", dir);
	char *path = out_path(b, "%s.json", s->student);
	cJSON *gs = batch_gradescope(b->e, grade, seconds);
	int status = mkdir_p(dir) ? error("cannot create '%s': %s", dir, strerror(errno)) : write_json(gs_path, gs);
	if (!status && grade_text && write_file_atomic(path, grade_text, strlen(grade_text)))
		status = error("cannot write '%s': %s", path, strerror(errno));
	else if (!status && !grade_text)
		status = write_json(path, grade);
	cJSON_Delete(gs);
	free(path);
	free(gs_path);
	free(dir);
	if (!status) {
		s->done = true;
		status = write_gradebook(b);
	}
	return status;
}

/* ------------------------------------------------------------ progress */

static int
stage_slot(const char *verdict, const char *stage)
{
	static const char *const names[] = { "compile", "run", "correctness", "performance", "submission" };
	if (!strcmp(verdict, "pass"))
		return 0;
	for (int i = 0; i < 5; i++)
		if (stage && !strcmp(stage, names[i]))
			return i + 1;
	return 6;
}

static int
running_count(const struct batch *b)
{
	int n = 0;
	for (int i = 0; i < b->nlanes; i++)
		n += b->lanes[i].pid != 0;
	return n;
}

static void
draw_bar(const struct batch *b)
{
	if (!b->tty)
		return;
	int done = b->graded + b->resumed, filled = b->count ? BAR_WIDTH * done / b->count : 0;
	fprintf(stdout, "\r\033[K[");
	for (int i = 0; i < BAR_WIDTH; i++)
		fputs(i < filled ? "#" : ".", stdout);
	int elapsed = (int)(now_seconds() - b->started);
	fprintf(stdout, "] %d/%d  %d grading  %d:%02d", done, b->count, running_count(b), elapsed / 60, elapsed % 60);
	fflush(stdout);
}

/* One line per finished submission; on a terminal above the bar, which is drawn again. */
static void
announce(struct batch *b, const struct submission *s, const cJSON *grade, double seconds)
{
	const char *verdict = json_string(grade, "verdict", "fail"), *stage = json_string(grade, "stage", NULL);
	b->stages[stage_slot(verdict, stage)]++;
	if (b->tty)
		fputs("\r\033[K", stdout);
	char *message = xstrdup(json_string(grade, "message", ""));
	message[strcspn(message, "\n")] = 0;
	if (strlen(message) > 100)
		strcpy(message + 97, "...");
	char *outcome = strcmp(verdict, "pass") ? xasprintf("fail at %s", stage ? stage : "an error") : xstrdup("pass");
	printf("[%d/%d] %-20s %-22s %3.0f s  %s\n", b->graded + b->resumed, b->count, s->student, outcome,
	       seconds, message);
	free(outcome);
	free(message);
	draw_bar(b);
	fflush(stdout);
}

/* ------------------------------------------------------------ lanes */

/* The GPUs `nvidia-smi -L` lists, or those CUDA_VISIBLE_DEVICES already names. */
static int
find_gpus(char **devices, int max)
{
	const char *visible = getenv("CUDA_VISIBLE_DEVICES");
	int n = 0;
	if (visible && *visible) {
		char *copy = xstrdup(visible);
		for (char *tok = strtok(copy, ","); tok && n < max; tok = strtok(NULL, ","))
			devices[n++] = xstrdup(tok);
		free(copy);
		return n;
	}
	char *argv[] = { "nvidia-smi", "-L", NULL };
	struct buf out = { 0 };
	if (run_command(argv, NULL, 30, &out))
		for (char *line = out.data; line && *line && n < max;) {
			char *end = strchrnul(line, '\n');
			if (!strncmp(line, "GPU ", 4))
				devices[n] = xasprintf("%d", n), n++;
			line = *end ? end + 1 : end;
		}
	buf_free(&out);
	return n;
}

static void
set_up_lanes(struct batch *b)
{
	if (b->o->backend == BACKEND_GPU) {
		char *devices[MAX_LANES];
		int n = find_gpus(devices, MAX_LANES);
		if (!n) {
			/* the grader found a GPU but nvidia-smi could not list it: one lane, as the driver sees it */
			b->lanes[0].device = NULL;
			b->nlanes = 1;
			return;
		}
		int want = b->o->jobs > 0 && b->o->jobs < n ? b->o->jobs : n;
		if (b->o->jobs > n)
			fprintf(stderr, "cudalings: --jobs %d: %d GPU%s here, and timings need a GPU each: %d lane%s\n",
				b->o->jobs, n, n == 1 ? "" : "s", n, n == 1 ? "" : "s");
		for (int i = 0; i < n; i++) {
			if (i < want)
				b->lanes[b->nlanes++].device = devices[i];
			else
				free(devices[i]);
		}
		return;
	}
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	int want = b->o->jobs > 0 ? b->o->jobs : (int)(cores / 2);
	b->nlanes = want < 1 ? 1 : want > MAX_LANES ? MAX_LANES : want;
}

/* The children of `pid`, from /proc; how many. */
static int
children(pid_t pid, pid_t *out, int max)
{
	char *path = xasprintf("/proc/%d/task/%d/children", (int)pid, (int)pid);
	char *text = read_file(path, NULL);
	int n = 0;
	free(path);
	for (char *p = text; p && *p && n < max;) {
		char *end;
		long child = strtol(p, &end, 10);
		if (end == p)
			break;
		out[n++] = (pid_t)child;
		p = end;
	}
	free(text);
	return n;
}

/* Every process under `pid`, so a stopped grading leaves no runner behind. */
static int
descendants(pid_t pid, pid_t *out, int max, int n)
{
	pid_t kids[256];
	int count = children(pid, kids, 256);
	for (int i = 0; i < count && n < max; i++) {
		out[n++] = kids[i];
		n = descendants(kids[i], out, max, n);
	}
	return n;
}

/* Stop a grading and everything it started: each child of the grader runs in its own group. */
static void
stop_grading(pid_t pid)
{
	pid_t below[256];
	int n = descendants(pid, below, 256, 0);
	kill(-pid, SIGKILL);
	for (int i = 0; i < n; i++)
		kill(-below[i], SIGKILL), kill(below[i], SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

/*
 * A grader that died leaves its runner behind, adopted by the batch (a
 * child subreaper): stop every child that is not a lane's grading.
 */
static void
stop_strays(const struct batch *b)
{
	pid_t kids[256];
	int n = children(getpid(), kids, 256);
	for (int i = 0; i < n; i++) {
		bool lane = false;
		for (int l = 0; l < b->nlanes; l++)
			lane |= b->lanes[l].pid == kids[i];
		if (!lane) {
			kill(-kids[i], SIGKILL);
			kill(kids[i], SIGKILL);
		}
	}
}

static char *
work_path(const struct batch *b, const char *student, const char *what)
{
	char *key = file_key(student), *path = xasprintf("%s/.work/%s.%s", b->o->out, key, what);
	free(key);
	return path;
}

static int
start_grading(struct batch *b, struct lane *lane, int index)
{
	struct submission *s = &b->subs[index];
	char *out = work_path(b, s->student, "stdout"), *err = work_path(b, s->student, "stderr");
	int out_fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int err_fd = open(err, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int status = 0;
	if (out_fd < 0 || err_fd < 0)
		status = error("cannot write '%s': %s", out_fd < 0 ? out : err, strerror(errno));
	char *device = lane->device ? xasprintf("CUDA_VISIBLE_DEVICES=%s", lane->device) : NULL;
	const char *env[] = { device, NULL };
	/* its own group (the spawner's way): the terminal's Ctrl-C reaches the batch, which stops the
	   gradings itself; the grader's build cache names its files from the workbook's folder */
	struct spawn_options o = { .cwd = workbook_root(), .env = env, .out = SPAWN_TO_FD, .out_fd = out_fd,
				   .err = SPAWN_TO_FD, .err_fd = err_fd };
	char *argv[] = { b->self, "grade", (char *)b->e->name, "--file", s->path, "--json", "--backend",
			 (char *)backend_name(b->o->backend), NULL };
	/* the batch reaps its lanes itself (waitpid), so only the start is the spawner's */
	struct child c = { .label = "grader" };
	if (!status && child_spawn(&c, argv, &o))
		status = -1;
	if (out_fd >= 0)
		close(out_fd);
	if (err_fd >= 0)
		close(err_fd);
	free(device);
	free(out);
	free(err);
	if (status)
		return status;
	lane->pid = c.pid;
	lane->index = index;
	lane->started = now_seconds();
	return 0;
}

/* The first line the grader printed on stderr, less its "cudalings: " prefix. */
static char *
grader_complaint(const char *path)
{
	char *text = read_file(path, NULL);
	if (!text || !*text) {
		free(text);
		return xstrdup("the grader said nothing");
	}
	char *line = text;
	if (!strncmp(line, "cudalings: ", 11))
		line += 11;
	char *why = xasprintf("%.*s", (int)strcspn(line, "\n"), line);
	free(text);
	return why;
}

/*
 * A grading ended: record what it found. Returns 0 to go on, 3 when the
 * environment failed (no result written: a later run grades it again).
 */
static int
finish_grading(struct batch *b, struct lane *lane, int wait_status, bool timed_out)
{
	struct submission *s = &b->subs[lane->index];
	double seconds = now_seconds() - lane->started;
	char *out = work_path(b, s->student, "stdout"), *err = work_path(b, s->student, "stderr");
	char *text = read_file(out, NULL);
	cJSON *grade = NULL;
	const char *keep_text = NULL;
	int status = 0;
	int code = WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : -1;
	lane->pid = 0;
	if (timed_out) {
		char *why = xasprintf("the grading took longer than %.0f s and was stopped: a kernel or a loop "
				      "that never ends?", b->o->timeout_s);
		grade = made_up_result(b, s, "run", why);
		free(why);
	} else if ((code == 0 || code == 1) && text && (grade = cJSON_Parse(text)) &&
		   cJSON_IsString(cJSON_GetObjectItemCaseSensitive(grade, "verdict"))) {
		keep_text = text;
		b->warm = true;
	} else if (code == 2) {
		/* the grader refused the file itself: empty, binary, too large */
		char *why = grader_complaint(err);
		cJSON_Delete(grade);
		grade = made_up_result(b, s, "submission", why);
		free(why);
	} else if (code == 3) {
		/* the environment: every grading after it would fail the same way, and a later run retries */
		const char *said = json_string(grade, "message", NULL);
		char *why = said && *said ? xstrdup(said) : grader_complaint(err);
		error("stopped: grading %s: %s", s->student, why);
		cJSON_Delete(grade);
		grade = NULL;
		status = 3;
		free(why);
	} else {
		/* the grader itself failed on this file: a row that says so, and the batch goes on */
		stop_strays(b);
		char *complaint = grader_complaint(err);
		char *why = WIFSIGNALED(wait_status)
			? xasprintf("the grader was killed by signal %d grading this file; please report it",
				    WTERMSIG(wait_status))
			: xasprintf("the grader gave no verdict (exit status %d): %s", code, complaint);
		cJSON_Delete(grade);
		grade = made_up_result(b, s, "error", why);
		free(complaint);
		free(why);
	}
	if (grade) {
		b->graded++;
		if (record(b, lane->index, grade, keep_text, seconds))
			status = 3;
		else
			announce(b, s, grade, seconds);
		unlink(out);
		unlink(err);
	}
	cJSON_Delete(grade);
	free(text);
	free(out);
	free(err);
	return status;
}

/* The next submission not yet graded; a submission with nothing to grade is recorded on the way. */
static int
next_submission(struct batch *b)
{
	while (b->next < b->count) {
		struct submission *s = &b->subs[b->next++];
		if (s->done)
			continue;
		if (s->path)
			return b->next - 1;
		cJSON *grade = made_up_result(b, s, "submission", s->problem);
		b->graded++;
		if (!record(b, b->next - 1, grade, NULL, 0))
			announce(b, s, grade, 0);
		cJSON_Delete(grade);
	}
	return -1;
}

static int
run_lanes(struct batch *b)
{
	int status = 0;
	for (;;) {
		/*
		 * The first grading builds the judge, the check and the reference in
		 * the shared cache; two at once would write them under each other.
		 */
		for (int i = 0; i < b->nlanes && !status && !interrupted; i++) {
			if (b->lanes[i].pid || (!b->warm && running_count(b)))
				continue;
			int index = next_submission(b);
			if (index < 0)
				break;
			if (start_grading(b, &b->lanes[i], index))
				status = 3;
		}
		if (!running_count(b))
			break;
		if (interrupted || status) {
			for (int i = 0; i < b->nlanes; i++)
				if (b->lanes[i].pid) {
					stop_grading(b->lanes[i].pid);
					b->lanes[i].pid = 0;
				}
			break;
		}
		int wait_status;
		pid_t pid = waitpid(-1, &wait_status, WNOHANG);
		double now = now_seconds();
		for (int i = 0; i < b->nlanes; i++) {
			struct lane *lane = &b->lanes[i];
			if (!lane->pid)
				continue;
			if (pid == lane->pid) {
				status = finish_grading(b, lane, wait_status, false);
			} else if (b->o->timeout_s > 0 && now - lane->started > b->o->timeout_s) {
				stop_grading(lane->pid);
				status = finish_grading(b, lane, 0, true);
			}
		}
		if (pid <= 0) {
			struct timespec pause = { 0, 100 * 1000 * 1000 };
			nanosleep(&pause, NULL);
			draw_bar(b);
		}
	}
	return interrupted ? 130 : status;
}

/* ------------------------------------------------------------ the batch */

static void
summarize(const struct batch *b, int status)
{
	static const char *const names[] = { "pass", "compile", "run", "correctness", "performance",
					     "submission", "other" };
	if (b->tty)
		fputs("\r\033[K", stdout);
	printf("%d submission%s: %d graded now, %d from an earlier run", b->count, b->count == 1 ? "" : "s",
	       b->graded, b->resumed);
	if (b->graded) {
		printf(" (");
		for (int i = 0, first = 1; i < 7; i++)
			if (b->stages[i]) {
				printf("%s%d %s%s", first ? "" : ", ", b->stages[i], i ? "fail at " : "", names[i]);
				first = 0;
			}
		printf(")");
	}
	printf("\ngradebook: %s/gradebook.csv; Gradescope: %s/gradescope/STUDENT/results.json\n", b->o->out,
	       b->o->out);
	if (status == 130)
		printf("interrupted: what was graded is kept; the same command goes on from there\n");
	else if (status)
		printf("stopped before the end: what was graded is kept; the same command goes on from there\n");
}

/*
 * One batch at a time writes an out folder: two would interleave their rows and take each other's
 * half-written results for final. The lock dies with the process; graders do not inherit it.
 */
static int
lock_out(const char *out)
{
	char *path = xasprintf("%s/.lock", out);
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		error("cannot create '%s': %s", path, strerror(errno));
	} else if (flock(fd, LOCK_EX | LOCK_NB)) {
		char holder[32] = "";
		ssize_t n = pread(fd, holder, sizeof(holder) - 1, 0);
		holder[n > 0 ? n : 0] = 0;
		holder[strcspn(holder, "\n")] = 0;
		error("another batch is writing to '%s'%s%s%s: wait for it to finish, or give this one another --out",
		      out, *holder ? " (process " : "", holder, *holder ? ")" : "");
		close(fd);
		fd = -1;
	} else {
		char pid[32];
		int len = snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
		/* the pid only makes the other batch's message better */
		if (ftruncate(fd, 0) == 0)
			(void)!pwrite(fd, pid, (size_t)len, 0);
	}
	free(path);
	return fd;
}

int
batch_run(const struct exercise *e, const struct batch_options *o)
{
	struct batch b = { .e = e, .o = o, .tty = isatty(1) && !getenv("NO_COLOR"), .started = now_seconds(),
			   .lock = -1 };
	int status = 0;
	ssize_t n = readlink("/proc/self/exe", b.self, sizeof(b.self) - 1);
	if (n <= 0)
		return error("cannot find where cudalings is installed"), 3;
	b.self[n] = 0;
	if (find_submissions(&b)) {
		status = 2;
		goto out;
	}
	char *work = xasprintf("%s/.work", o->out), *gs = xasprintf("%s/gradescope", o->out);
	if (mkdir_p(work) || mkdir_p(gs))
		status = error("cannot create '%s': %s", o->out, strerror(errno)) ? 3 : 0;
	free(work);
	free(gs);
	if (status)
		goto out;
	if ((b.lock = lock_out(o->out)) < 0) {
		status = 3;
		goto out;
	}
	for (int i = 0; i < b.count; i++) {
		char *path = out_path(&b, "%s.json", b.subs[i].student);
		cJSON *earlier = load_result(path);
		/* the grader itself failed on it last time (a crash, a fault since mended): graded again */
		if (earlier && !strcmp(json_string(earlier, "stage", ""), "error")) {
			b.retried++;
			cJSON_Delete(earlier);
			earlier = NULL;
		}
		if (earlier) {
			b.subs[i].done = true;
			b.resumed++;
			/* a results.json lost since is made again, without the time it took */
			char *gs_path = out_path(&b, "gradescope/%s/results.json", b.subs[i].student);
			if (!file_exists(gs_path))
				record(&b, i, earlier, NULL, -1);
			free(gs_path);
		}
		cJSON_Delete(earlier);
		free(path);
	}
	set_up_lanes(&b);
	printf("grading %d submission%s of %s on the %s backend, %d at a time%s\n", b.count - b.resumed,
	       b.count - b.resumed == 1 ? "" : "s", e->name, backend_name(o->backend), b.nlanes,
	       b.resumed ? " (the others were graded by an earlier run)" : "");
	if (b.retried)
		printf("%d of them again: the grader failed on %s last time\n", b.retried,
		       b.retried == 1 ? "it" : "them");
	/* orphans of a grader that dies come to us, to be stopped (stop_strays) and reaped */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	struct sigaction sa = { .sa_handler = on_signal }, old_int, old_term;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	status = write_gradebook(&b) ? 3 : run_lanes(&b);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	summarize(&b, status);
out:
	if (b.lock >= 0)
		close(b.lock);
	for (int i = 0; i < b.count; i++) {
		free(b.subs[i].student);
		free(b.subs[i].path);
		free(b.subs[i].problem);
	}
	free(b.subs);
	for (int i = 0; i < b.nlanes; i++)
		free(b.lanes[i].device);
	return status;
}

/* The absolute, resolved form of a path that may not exist yet: its deepest existing folder resolved. */
static char *
resolved_path(const char *path)
{
	char buf[PATH_MAX], *copy = xstrdup(path), *rest = NULL;
	for (;;) {
		if (realpath(copy, buf)) {
			char *r = rest ? xasprintf("%s/%s", buf, rest) : xstrdup(buf);
			free(copy);
			free(rest);
			return r;
		}
		char *slash = strrchr(copy, '/');
		char *tail = xstrdup(slash ? slash + 1 : copy);
		char *joined = rest ? xasprintf("%s/%s", tail, rest) : xstrdup(tail);
		free(tail);
		free(rest);
		rest = joined;
		if (!slash) {
			free(copy);
			copy = xstrdup(".");
		} else if (slash == copy) {
			copy[1] = 0;
		} else {
			*slash = 0;
		}
	}
}

int
batch_check_out(const char *out, const char *dir)
{
	if (!*out)
		return error("batch: --out is empty: name a folder for the results, e.g. --out results/");
	char *o = resolved_path(out), *d = resolved_path(dir);
	size_t n = strlen(d);
	int status = 0;
	if (!strcmp(o, "/"))
		status = error("batch: --out '%s' is the root folder: name a folder of its own for the results", out);
	else if (!strncmp(o, d, n) && (o[n] == '/' || o[n] == 0))
		status = error("batch: --out '%s' is inside the submissions folder '%s': its files would be taken "
			       "for submissions", out, dir);
	else if (mkdir_p(o) || access(o, W_OK))
		status = error("batch: cannot write the results to '%s': %s", out, strerror(errno ? errno : EACCES));
	free(o);
	free(d);
	return status;
}
