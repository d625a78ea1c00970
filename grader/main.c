/*
 * cudalings — the command line: list the workbook, grade an exercise, reset
 * one to its starter, check the whole workbook. With no arguments it opens
 * the workbook screen (cudalings-tui, beside this program).
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "build.h"
#include "grade.h"
#include "lines.h"
#include "sass.h"
#include "manifest.h"
#include "report.h"
#include "scaffold.h"
#include "batch.h"
#include "board.h"
#include "starter.h"
#include "lib/util.h"
#include "root.h"
#include "common/exit.h"
#include "common/state.h"

#define MAX_SUBMISSION_BYTES (1024 * 1024)

/* The usage line and the exit statuses: the commands come from the table at the end of this file. */
static void print_usage(FILE *out);

static struct manifest manifest;

/* Load the manifest and work from the workbook's folder: every path the build uses is relative to it. */
static void
load_manifest(void)
{
	if (manifest_load(&manifest))
		exit(EXIT_USAGE);
	if (chdir(workbook_root()))
		die(EXIT_ENVIRONMENT, "cannot enter the workbook '%s': %s", workbook_root(), strerror(errno));
}

static int
usage_error(const char *fmt, const char *arg)
{
	fputs("cudalings: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\n(cudalings --help shows the usage)\n", stderr);
	return EXIT_USAGE;
}

/* The exercise called `name`, or NULL after saying which ones there are. */
static struct exercise *
find_exercise(const char *name, bool need_file)
{
	if (strchr(name, '/') || strstr(name, "..") || !*name) {
		error("'%s' is not an exercise name: give a name from 'cudalings list', not a path "
		      "(use --file PATH for a file)", name);
		return NULL;
	}
	struct exercise *e = manifest_find(&manifest, name);
	if (e && need_file && e->kind == ITEM_LESSON) {
		error("'%s' is a lesson to read, not an exercise to grade", name);
		return NULL;
	}
	if (e)
		return e;
	const char *guess = manifest_suggest(&manifest, name);
	if (guess)
		error("there is no exercise '%s'; did you mean '%s'?", name, guess);
	else
		error("there is no exercise '%s'", name);
	fputs("the exercises are:", stderr);
	for (int i = 0; i < manifest.count; i++)
		if (manifest.items[i].kind != ITEM_LESSON)
			fprintf(stderr, " %s", manifest.items[i].name);
	fputc('\n', stderr);
	return NULL;
}

static int
compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* ------------------------------------------------------------ list */

static int
cmd_list(int argc, char **argv)
{
	bool json = false;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = true;
		else
			return usage_error("list: unknown option '%s'", argv[i]);
	}
	load_manifest();
	if (!json) {
		for (int i = 0; i < manifest.count; i++) {
			const struct exercise *e = &manifest.items[i];
			printf("%2d  %-16s %-9s %s\n", i + 1, e->name, item_kind_name(e->kind), e->title);
		}
		return EXIT_PASS;
	}
	cJSON *o = cJSON_CreateObject(), *items;
	cJSON_AddStringToObject(o, "workbook", workbook_root());
	cJSON_AddStringToObject(o, "title", manifest.title);
	items = cJSON_AddArrayToObject(o, "items");
	for (int i = 0; i < manifest.count; i++) {
		const struct exercise *e = &manifest.items[i];
		cJSON *j = cJSON_CreateObject();
		cJSON_AddStringToObject(j, "name", e->name);
		cJSON_AddStringToObject(j, "kind", item_kind_name(e->kind));
		cJSON_AddStringToObject(j, "title", e->title);
		cJSON_AddNumberToObject(j, "order", i + 1);
		cJSON_AddItemToObject(j, "file", e->file ? cJSON_CreateString(e->file) : cJSON_CreateNull());
		cJSON_AddItemToObject(j, "solution", e->solution ? cJSON_CreateString(e->solution) : cJSON_CreateNull());
		cJSON_AddBoolToObject(j, "has_solution", item_solution_present(e));
		cJSON_AddStringToObject(j, "lesson", e->lesson);
		cJSON *hints = cJSON_AddArrayToObject(j, "hints");
		for (int h = 0; h < e->nhints; h++) {
			cJSON *hint = cJSON_CreateObject();
			cJSON_AddStringToObject(hint, "when", e->hints[h].when);
			cJSON_AddStringToObject(hint, "text", e->hints[h].text);
			cJSON_AddItemToArray(hints, hint);
		}
		cJSON_AddItemToArray(items, j);
	}
	report_print_json(stdout, o);
	cJSON_Delete(o);
	return EXIT_PASS;
}

/* ------------------------------------------------------------ grade */

/* A submission the grader will read: a regular, readable, text file of sane size. */
static int
check_submission(const char *path)
{
	if (is_directory(path))
		return error("'%s' is a directory: give the .cu file", path);
	struct stat st;
	/* a FIFO or a device would block the read below, or never end it */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return error("'%s' is not a regular file (a FIFO, a device…): give the .cu file", path);
	size_t length;
	char *text = read_file(path, &length);
	if (!text)
		return error("cannot read '%s': %s", path, strerror(errno));
	int status = 0;
	if (length == 0)
		status = error("'%s' is empty", path);
	else if (length > MAX_SUBMISSION_BYTES)
		status = error("'%s' is %zu bytes; a submission may be at most 1 MB", path, length);
	else if (memchr(text, 0, length))
		status = error("'%s' is not a text file (it holds NUL bytes)", path);
	free(text);
	return status;
}

static int
choose_backend(struct grade_options *o, const char *requested)
{
	if (requested) {
		o->backend_given = true;
		if (!strcmp(requested, "gpu"))
			o->backend = BACKEND_GPU;
		else if (!strcmp(requested, "sim"))
			o->backend = BACKEND_SIM;
		else
			return usage_error("--backend is 'gpu' or 'sim', not '%s'", requested);
		if (o->backend == BACKEND_GPU && !gpu_present())
			return error("--backend gpu: no NVIDIA GPU found on this machine "
				     "(leave --backend out to use the CPU simulator)"), EXIT_ENVIRONMENT;
		if (o->backend == BACKEND_GPU && !build_nvcc())
			return error("--backend gpu: no CUDA compiler (nvcc is not on PATH; install the CUDA "
				     "toolkit or set CUDALINGS_NVCC)"), EXIT_ENVIRONMENT;
	} else {
		o->backend = gpu_present() && build_nvcc() ? BACKEND_GPU : BACKEND_SIM;
		if (gpu_present() && !build_nvcc())
			fprintf(stderr, "cudalings: a GPU is here but nvcc is not on PATH: using the CPU simulator\n");
	}
	if (o->backend == BACKEND_SIM && !build_sim_ready())
		return error("the CPU simulator is not built: run 'make sim' (or 'make grade', which builds it)"),
		       EXIT_ENVIRONMENT;
	return 0;
}

/* --case 4096x4096: grade, time and profile at this one size instead of the exercise's. */
static int
set_only_case(struct exercise *e, const char *text)
{
	int dims[PROTO_MAX_DIMS], n = 0;
	for (const char *p = text; n < PROTO_MAX_DIMS; p++) {
		char *end;
		long v = strtol(p, &end, 10);
		if (end == p || v < 1 || v > 1L << 30 || (*end && *end != 'x' && *end != ',')) {
			n = -1;
			break;
		}
		dims[n++] = (int)v;
		if (!*end)
			break;
		p = end;
	}
	if (n != e->ndims) {
		char *message = xasprintf("--case takes %d sizes for %s, like 4096x4096, not '%s'", e->ndims, e->name, text);
		usage_error("%s", message);
		free(message);
		return -1;
	}
	memcpy(e->cases[0], dims, sizeof(int) * (size_t)e->ndims);
	memcpy(e->timed, dims, sizeof(int) * (size_t)e->ndims);
	e->ncases = 1;
	return 0;
}

/* Whether the file graded (`file`, NULL for the default) is the exercise's own in the workbook. */
static bool
is_own_file(const char *file, const char *own)
{
	if (!file)
		return true;
	char *a = realpath(file, NULL), *b = realpath(own, NULL);
	bool same = a && b && !strcmp(a, b);
	free(a);
	free(b);
	return same;
}

/*
 * A grading of the exercise's own file goes into the progress the workbook shows (one state for
 * `make grade` and the workbook): its status, what was graded, and the report to show again.
 */
static void
record_progress(const struct exercise *e, const struct grade_result *r, cJSON *report, const char *graded,
		size_t length)
{
	struct state st;
	state_load(&st, workbook_root());
	state_set_status(&st, e->name, state_status_of(r->verdict == VERDICT_PASS, backend_name(r->backend)));
	state_set_graded(&st, e->name, graded, length);
	char *text = cJSON_Print(report);
	if (state_save(&st) == 0 && text)
		state_save_report(&st, e->name, text);
	free(text);
	state_free(&st);
}

static int
cmd_grade(int argc, char **argv)
{
	struct grade_options o = { 0 };
	const char *name = NULL, *backend = NULL, *only_case = NULL, *arch = NULL;
	bool json = false, sass = false;
	struct sass_listing listing = { 0 };
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		bool has_value = i + 1 < argc;
		if (!strcmp(a, "--json"))
			json = true;
		else if (!strcmp(a, "--progress"))
			o.progress = true;
		else if (!strcmp(a, "--no-timing"))
			o.skip_timing = true;
		else if (!strcmp(a, "--sanitize"))
			o.sanitize = true; /* on the simulator its checks always run */
		else if (!strcmp(a, "--profile"))
			o.profile = true;
		else if (!strcmp(a, "--lines"))
			o.lines = true;
		else if (!strcmp(a, "--sass"))
			sass = true;
		else if (!strcmp(a, "--case") && has_value)
			only_case = argv[++i];
		else if (!strcmp(a, "--file") || !strcmp(a, "--backend") || !strcmp(a, "--seed") || !strcmp(a, "--arch")) {
			if (!has_value)
				return usage_error("'%s' needs a value", a);
			const char *v = argv[++i];
			if (a[2] == 'f')
				o.file = v;
			else if (a[2] == 'b')
				backend = v;
			else if (a[2] == 'a')
				arch = v;
			else {
				char *end;
				o.seed = strtoull(v, &end, 0);
				if (*end || !*v)
					return usage_error("--seed takes a number, not '%s'", v);
			}
		} else if (a[0] == '-') {
			return usage_error("grade: unknown option '%s'", a);
		} else if (!name) {
			name = a;
		} else {
			return usage_error("grade takes one exercise; '%s' is one too many", a);
		}
	}
	if (!name)
		return usage_error("%s", "grade: say which exercise, e.g. 'cudalings grade col_sums'");
	/* a file named relative to where the student stands, before we move to the workbook */
	char *absolute = NULL;
	if (o.file) {
		if (check_submission(o.file))
			return EXIT_USAGE;
		absolute = realpath(o.file, NULL);
		o.display = o.file;
		o.file = absolute;
	}
	load_manifest();
	struct exercise *e = find_exercise(name, true);
	if (!e)
		return EXIT_USAGE;
	if (only_case && set_only_case(e, only_case))
		return EXIT_USAGE;
	if (!e->file && !o.file) {
		error("'%s' is a demo: there is nothing to write, only variants to compare: "
		      "cudalings run %s", name, name);
		return EXIT_USAGE;
	}
	char *default_file = root_path(e->file ? e->file : e->solution);
	if (check_submission(o.file ? o.file : default_file)) {
		free(default_file);
		return EXIT_USAGE;
	}
	free(default_file);
	int status = choose_backend(&o, backend);
	if (status)
		return status;
	/* said, not silently dropped: the simulator's own checks stand in for both */
	if (o.backend == BACKEND_SIM && (o.sanitize || o.profile)) {
		error("%s needs a GPU: on the simulator its own checks (bounds, races, sectors and bank conflicts "
		      "per request) run on every grading", o.sanitize ? "--sanitize" : "--profile");
		return EXIT_USAGE;
	}
	/* a check may share another exercise's code, and with it that one's header */
	if (build_headers(&manifest))
		return EXIT_ENVIRONMENT;
	if (sass && (status = sass_grade_begin(&listing, arch)))
		return status;

	/* the text graded, as it was when the grading began: the student may save again meanwhile */
	char *own_file = e->file ? root_path(e->file) : NULL;
	size_t graded_length = 0;
	char *graded = own_file && is_own_file(o.file, own_file) ? read_file(own_file, &graded_length) : NULL;
	struct grade_result r;
	status = grade_run(e, &o, &r);
	cJSON *j = report_json(&r);
	bool color = isatty(1) && !getenv("NO_COLOR");
	if (json && sass)
		sass_grade_end(&listing, e, o.file ? o.file : own_file, r.file, &r.lines, j, stdout, color, 80);
	if (json)
		report_print_json(stdout, j);
	else
		report_text(stdout, &r, color);
	cJSON_DeleteItemFromObject(j, "machine_code");
	if (!json && o.lines) {
		putchar('\n');
		lines_print_text(stdout, &r.lines, color);
	}
	if (!json && sass) {
		putchar('\n');
		sass_grade_end(&listing, e, o.file ? o.file : own_file, r.file, &r.lines, NULL, stdout, color, 80);
	}
	sass_release(&listing);
	if (graded && (status == 0 || status == 1))
		record_progress(e, &r, j, graded, graded_length);
	cJSON_Delete(j);
	free(graded);
	free(own_file);
	grade_release(&r);
	return status;
}

/* ------------------------------------------------------------ sass */

/* The heat map of the exercise's last grading, when it graded the text `path` holds now; else nothing. */
static void
kept_figures(const struct exercise *e, const char *path, const char *display, struct line_map *m)
{
	struct state st;
	state_load(&st, workbook_root());
	char *text = state_load_report(&st, e->name);
	cJSON *report = text && !state_changed_since_graded(&st, e->name, path) ? cJSON_Parse(text) : NULL;
	if (report) {
		lines_from_json(m, report, display);
		lines_finish(m, display, path);
	}
	cJSON_Delete(report);
	free(text);
	state_free(&st);
}

/* The machine code of an exercise's file without grading it: what the workbook's `a` shows. */
static int
cmd_sass(int argc, char **argv)
{
	const char *name = NULL, *file = NULL, *arch = NULL;
	bool json = false;
	int width = 80;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--json")) {
			json = true;
		} else if (!strcmp(a, "--file") || !strcmp(a, "--arch")) {
			if (i + 1 >= argc)
				return usage_error("'%s' needs a value", a);
			*(a[2] == 'f' ? &file : &arch) = argv[++i];
		} else if (!strcmp(a, "--width")) {
			char *end = NULL;
			long w = i + 1 < argc ? strtol(argv[i + 1], &end, 10) : 0;
			if (!end || *end || w < SASS_MIN_WIDTH || w > 1000)
				return usage_error("--width takes the columns of the listing, 60 to 1000, not '%s'",
						   i + 1 < argc ? argv[i + 1] : "");
			width = (int)w;
			i++;
		} else if (a[0] == '-') {
			return usage_error("sass: unknown option '%s'", a);
		} else if (!name) {
			name = a;
		} else {
			return usage_error("sass takes one exercise; '%s' is one too many", a);
		}
	}
	if (!name)
		return usage_error("%s", "sass: say which exercise, e.g. 'cudalings sass transpose'");
	if (file && check_submission(file))
		return EXIT_USAGE;
	char *absolute = file ? realpath(file, NULL) : NULL;
	load_manifest();
	struct exercise *e = find_exercise(name, true);
	if (!e || (!e->file && !file)) {
		if (e)
			error("'%s' is a demo: its variants are in its lesson, and there is no file of yours to build", name);
		free(absolute);
		return EXIT_USAGE;
	}
	char *path = absolute ? xstrdup(absolute) : root_path(e->file);
	struct sass_listing listing = { 0 };
	struct line_map figures = { 0 };
	int status = check_submission(path) ? EXIT_USAGE : sass_grade_begin(&listing, arch);
	if (!status && build_headers(&manifest))
		status = EXIT_ENVIRONMENT;
	if (!status) {
		/* the figures of its last grading, when that graded this very text */
		char *own = e->file ? root_path(e->file) : NULL;
		if (own && is_own_file(absolute, own))
			kept_figures(e, path, file ? file : e->file, &figures);
		if (!figures.source)
			listing.no_figures = xstrdup(own && is_own_file(absolute, own)
				? "no heat map beside the lines: grade this text of the file to measure them"
				: "no heat map beside the lines: cudalings grade --sass measures them as it grades");
		free(own);
		cJSON *j = json ? cJSON_CreateObject() : NULL;
		status = sass_grade_end(&listing, e, path, file ? file : e->file, &figures, j, stdout,
					isatty(1) && !getenv("NO_COLOR"), width);
		if (j)
			report_print_json(stdout, j);
		cJSON_Delete(j);
	}
	lines_release(&figures);
	sass_release(&listing);
	free(path);
	free(absolute);
	return status;
}

/* ------------------------------------------------------------ starters */

static char *
make_starter(const struct exercise *e)
{
	char *path = root_path(e->solution);
	char *solution = read_file(path, NULL);
	char *starter = NULL;
	if (!solution && errno == ENOENT) {
		/* a student copy (make dist) ships the starters made from the solutions it leaves out */
		char *shipped = xasprintf("%s/shipped/starters/%s.cu", workbook_root(), e->name);
		starter = read_file(shipped, NULL);
		free(shipped);
		if (starter) {
			free(path);
			return starter;
		}
		errno = ENOENT;
	}
	if (!solution) {
		error("cannot read '%s': %s", e->solution, strerror(errno));
	} else {
		struct buf err = { 0 };
		starter = starter_from_solution(solution, e->solution, &err);
		if (!starter)
			error("%s", err.data);
		buf_free(&err);
	}
	free(solution);
	free(path);
	return starter;
}

/* The exercise the one argument names, and its starter (yours to free); 0, or the exit status. */
static int
exercise_with_starter(int argc, char **argv, struct exercise **e, char **starter)
{
	if (argc != 2)
		return usage_error("%s: give one exercise name", argv[0]);
	load_manifest();
	*e = find_exercise(argv[1], true);
	if (!*e)
		return EXIT_USAGE;
	if (!(*e)->file) {
		error("'%s' is a demo: it has no starter (cudalings run %s runs it)", argv[1], argv[1]);
		return EXIT_USAGE;
	}
	*starter = make_starter(*e);
	return *starter ? 0 : EXIT_ENVIRONMENT;
}

static int
cmd_starter(int argc, char **argv)
{
	struct exercise *e;
	char *starter;
	int status = exercise_with_starter(argc, argv, &e, &starter);
	if (status)
		return status;
	fputs(starter, stdout);
	free(starter);
	return EXIT_PASS;
}

/* Copy the student's file aside before anything replaces it; returns the backup's path. */
static char *
backup_file(const struct exercise *e, const char *path)
{
	size_t length;
	char *text = read_file(path, &length);
	if (!text)
		return NULL;
	char stamp[32];
	time_t now = time(NULL);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", localtime(&now));
	char *dir = root_path(".cudalings/backup");
	char *backup = NULL;
	if (mkdir_p(dir) == 0)
		for (int n = 0; n < 100 && !backup; n++) {
			char *candidate = n ? xasprintf("%s/%s-%s-%d.cu", dir, e->name, stamp, n)
					    : xasprintf("%s/%s-%s.cu", dir, e->name, stamp);
			if (!file_exists(candidate) && write_file_atomic(candidate, text, length) == 0)
				backup = candidate;
			else
				free(candidate);
		}
	free(dir);
	free(text);
	return backup;
}

static int
cmd_reset(int argc, char **argv)
{
	struct exercise *e;
	char *starter;
	int status = exercise_with_starter(argc, argv, &e, &starter);
	if (status)
		return status;
	char *path = root_path(e->file);
	char *backup = NULL;
	if (file_exists(path) && !(backup = backup_file(e, path))) {
		status = error("cannot back up '%s', so it was left as it is", e->file) ? EXIT_ENVIRONMENT : 0;
	} else if (write_file_atomic(path, starter, strlen(starter))) {
		status = error("cannot write '%s': %s", e->file, strerror(errno)) ? EXIT_ENVIRONMENT : 0;
	} else if (backup) {
		printf("%s is the starter again; your version is in %s\n", e->file, backup + strlen(workbook_root()) + 1);
	} else {
		printf("%s is the starter\n", e->file);
	}
	free(backup);
	free(path);
	free(starter);
	return status;
}

/* The .cu files in demos/NAME/, sorted; each begins with "// variant: what it shows". */
static int
demo_variants(const struct exercise *e, char ***out)
{
	char *rel_dir = xasprintf("demos/%s", e->name), *dir = root_path(rel_dir);
	DIR *d = opendir(dir);
	int count = 0, cap = 8;
	char **names = xmalloc(sizeof(char *) * (size_t)cap);
	for (struct dirent *entry; d && (entry = readdir(d));) {
		size_t n = strlen(entry->d_name);
		if (n <= 3 || strcmp(entry->d_name + n - 3, ".cu"))
			continue;
		if (count == cap)
			names = xrealloc(names, sizeof(char *) * (size_t)(cap *= 2));
		names[count++] = xasprintf("%s/%s", rel_dir, entry->d_name);
	}
	if (d)
		closedir(d);
	qsort(names, (size_t)count, sizeof(*names), compare_names);
	free(dir);
	free(rel_dir);
	*out = names;
	return count;
}

static char *
variant_description(const char *rel)
{
	char *path = root_path(rel), *text = read_file(path, NULL), *description = NULL;
	char *at = text ? strstr(text, "// variant: ") : NULL;
	if (at) {
		at += strlen("// variant: ");
		description = xasprintf("%.*s", (int)strcspn(at, "\n"), at);
	}
	free(text);
	free(path);
	return description ? description : xstrdup("");
}

/* A simulator figure for the demo table: "-" where it was not measured (no shared memory, say). */
static void
figure_text(bool measured, double value, char out[16])
{
	if (measured && value >= 0)
		snprintf(out, 16, "%.1f", value);
	else
		snprintf(out, 16, "-");
}

static int
cmd_run(int argc, char **argv)
{
	struct grade_options o = { 0 };
	const char *name = NULL, *backend = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--backend") && i + 1 < argc)
			backend = argv[++i];
		else if (argv[i][0] == '-')
			return usage_error("run: unknown option '%s'", argv[i]);
		else if (!name)
			name = argv[i];
		else
			return usage_error("run takes one demo; '%s' is one too many", argv[i]);
	}
	if (!name)
		return usage_error("%s", "run: say which demo, e.g. 'cudalings run coalescing'");
	load_manifest();
	struct exercise *e = find_exercise(name, true);
	if (!e)
		return EXIT_USAGE;
	int status = choose_backend(&o, backend);
	if (status)
		return status;
	if (build_headers(&manifest))
		return EXIT_ENVIRONMENT;
	char **variants;
	int count = demo_variants(e, &variants);
	printf("%s: %s, on the %s\n\n", e->name, e->title,
	       o.backend == BACKEND_GPU ? "GPU" : "CPU simulator (correctness only; timing needs a GPU)");
	int width = (int)strlen(e->solution);
	for (int i = 0; i < count; i++)
		if ((int)strlen(variants[i]) > width)
			width = (int)strlen(variants[i]);
	/* no clock on the simulator, but what the demos are about: how each variant's warps use memory */
	bool sim = o.backend == BACKEND_SIM;
	if (sim)
		printf("  %-*s %-8s %13s %13s %9s  %s\n", width, "variant", "result", "sectors ld/st", "conflicts/req",
		       "reads/out", "what it shows");
	else
		printf("  %-*s %-8s %10s %9s %8s  %s\n", width, "variant", "result", "µs", "GB/s", "× ref",
		       "what it shows");
	for (int i = -1; i < count && status != EXIT_ENVIRONMENT; i++) {
		const char *file = i < 0 ? e->solution : variants[i];
		char *description = i < 0 ? xstrdup("the reference") : variant_description(file);
		struct grade_result r;
		o.file = file;
		int one = grade_run(e, &o, &r);
		bool correct = one == 0 || r.stage == STAGE_PERFORMANCE;
		if (r.timing.measured) {
			printf("  %-*s %-8s %10.1f %9.0f %8.2f  %s\n", width, file, correct ? "correct" : "WRONG",
			       r.timing.median_us, r.timing.gbps, r.timing.ratio, description);
		} else if (sim) {
			/* sectors per warp request of loads and of stores: a demo is often about one of them */
			char loads[16], stores[16], sectors[40], conflicts[16], reads[16];
			figure_text(r.figures.measured, r.figures.load_sectors_per_request, loads);
			figure_text(r.figures.measured, r.figures.store_sectors_per_request, stores);
			snprintf(sectors, sizeof(sectors), "%s/%s", loads, stores);
			figure_text(r.figures.measured, r.figures.bank_conflicts_per_request, conflicts);
			figure_text(r.figures.measured, r.figures.global_reads_per_output, reads);
			printf("  %-*s %-8s %13s %13s %9s  %s\n", width, file, correct ? "correct" : "WRONG", sectors,
			       conflicts, reads, description);
		} else
			printf("  %-*s %-8s %10s %9s %8s  %s\n", width, file, correct ? "correct" : "WRONG", "-", "-", "-",
			       description);
		if (!correct)
			printf("    %s\n", r.message ? r.message : "");
		if (r.program_output && *r.program_output) {
			printf("    it printed:\n");
			fputs(r.program_output, stdout);
		}
		if (one == EXIT_ENVIRONMENT)
			status = EXIT_ENVIRONMENT;
		else if (!correct)
			status = EXIT_FAIL;
		grade_release(&r);
		free(description);
		if (i >= 0)
			free(variants[i]);
	}
	free(variants);
	return status;
}

static int
cmd_starters(int argc, char **argv)
{
	bool check = argc > 1 && !strcmp(argv[1], "--check");
	if (argc > 2 || (argc == 2 && !check))
		return usage_error("%s", "starters: the only option is --check");
	load_manifest();
	int status = EXIT_PASS;
	for (int i = 0; i < manifest.count; i++) {
		const struct exercise *e = &manifest.items[i];
		if (!e->file)
			continue;
		char *starter = make_starter(e);
		if (!starter) {
			status = EXIT_FAIL;
			continue;
		}
		char *path = root_path(e->file);
		char *current = read_file(path, NULL);
		if (current && !strcmp(current, starter)) {
			/* in sync */
		} else if (check) {
			error("%s is out of date with %s: run 'cudalings starters' (or 'make starters')", e->file,
			      e->solution);
			status = EXIT_FAIL;
		} else if (current) {
			printf("kept %s: it differs from the starter (edited?); 'cudalings reset %s' replaces it "
			       "and keeps a backup\n", e->file, e->name);
		} else if (write_file_atomic(path, starter, strlen(starter))) {
			status = error("cannot write '%s': %s", e->file, strerror(errno)) ? EXIT_ENVIRONMENT : 0;
		} else {
			printf("wrote %s\n", e->file);
		}
		free(current);
		free(path);
		free(starter);
	}
	return status;
}

/* ------------------------------------------------------------ check */

/* The stage a wrong/ file declares in a line "// expect: STAGE"; "// sim-only" limits it to the simulator. */
static char *
declared_stage(const char *path, bool *sim_only)
{
	char *text = read_file(path, NULL);
	if (!text)
		return NULL;
	/* a race a GPU's timing may hide is checked where it is certain to show */
	*sim_only = strstr(text, "// sim-only") != NULL;
	char *at = strstr(text, "// expect: "), *stage = NULL;
	if (at) {
		at += strlen("// expect: ");
		size_t n = strcspn(at, " \n\r\t");
		stage = xasprintf("%.*s", (int)n, at);
	}
	free(text);
	return stage;
}

/*
 * Grade `file` and compare the stage with `want`. On the simulator a slow
 * variant can only fail at performance through a memory budget; one that
 * passes there is waiting for a GPU, not wrong.
 */
static int
check_grade(const struct exercise *e, const char *file, enum backend b, const char *want, int *failures)
{
	struct grade_options o = { .file = file, .backend = b, .backend_given = true };
	struct grade_result r;
	int status = grade_run(e, &o, &r);
	const char *got = status == 0 ? "pass" : r.stage != STAGE_NONE ? stage_name(r.stage) : "error";
	bool ok = !strcmp(got, want) || (!strcmp(want, "fail") && status == 1);
	bool waits_for_gpu = !ok && b == BACKEND_SIM && !strcmp(want, "performance") && status == 0;
	if (waits_for_gpu)
		printf("  --   %-44s expected %-12s (passes the simulator's budgets: needs a GPU)\n", file, want);
	else
		printf("  %-4s %-44s expected %-12s got %s\n", ok ? "ok" : "BAD", file, want, got);
	if (!ok && !waits_for_gpu) {
		printf("       %s\n", r.message ? r.message : "");
		(*failures)++;
	}
	grade_release(&r);
	return status == EXIT_ENVIRONMENT ? -1 : 0;
}

/*
 * The student copy ships the reference compiled, not its source: what stands in for it is said, and
 * the starter is what it can check. False when nothing does (nothing to grade the starter against).
 */
static bool
check_shipped_reference(const struct exercise *e, enum backend b, int *failures)
{
	char *shipped = build_shipped_reference(e, b);
	if (shipped) {
		printf("  --   %-44s not in the student copy: %s stands in for it\n", e->solution, shipped);
	} else {
		printf("  BAD  %s is missing, and no shipped/%s/%s.o stands in for it\n", e->solution,
		       backend_name(b), e->name);
		(*failures)++;
	}
	bool found = shipped != NULL;
	free(shipped);
	return found;
}

/* Every .cu in tests/wrong/NAME/ must fail at the stage its "// expect: STAGE" line names. */
static int
check_wrong_files(const struct exercise *e, enum backend b, int *failures)
{
	char *rel_dir = xasprintf("tests/wrong/%s", e->name), *dir = root_path(rel_dir);
	DIR *d = opendir(dir);
	char *names[128];
	int count = 0, status = 0;
	for (struct dirent *entry; d && (entry = readdir(d)) && count < 128;) {
		size_t n = strlen(entry->d_name);
		if (n > 3 && !strcmp(entry->d_name + n - 3, ".cu"))
			names[count++] = xasprintf("%s/%s", rel_dir, entry->d_name);
	}
	if (d)
		closedir(d);
	qsort(names, (size_t)count, sizeof(*names), compare_names);
	for (int i = 0; i < count; i++) {
		char *full = root_path(names[i]);
		bool sim_only = false;
		char *stage = declared_stage(full, &sim_only);
		if (!stage) {
			printf("  BAD  %s has no '// expect: STAGE' line\n", names[i]);
			(*failures)++;
		} else if (b == BACKEND_GPU && sim_only) {
			printf("  --   %-44s expected %-12s (a GPU may hide it: simulator only)\n", names[i], stage);
		} else if (!status && check_grade(e, names[i], b, stage, failures)) {
			status = -1;
		}
		free(stage);
		free(full);
		free(names[i]);
	}
	free(dir);
	free(rel_dir);
	return status;
}

/* A demo's reference and variants all compute the right result; their speed is the lesson, not a verdict. */
static int
check_demo(const struct exercise *e, enum backend b, bool compile_only, int *failures)
{
	char **variants;
	int count = demo_variants(e, &variants), status = 0;
	for (int i = -1; i < count; i++) {
		const char *file = i < 0 ? e->solution : variants[i];
		if (compile_only) {
			struct buf log = { 0 };
			bool ok = build_compile_only(e, file, &log) == 0;
			printf("  %-4s %s compiles with nvcc -arch=%s\n", ok ? "ok" : "BAD", file, build_arch());
			if (!ok) {
				printf("%s", log.data);
				(*failures)++;
			}
			buf_free(&log);
		} else if (!status) {
			struct grade_options o = { .file = file, .backend = b, .backend_given = true, .skip_timing = true };
			struct grade_result r;
			int one = grade_run(e, &o, &r);
			printf("  %-4s %-44s expected %-12s got %s\n", one == 0 ? "ok" : "BAD", file, "correct",
			       one == 0 ? "correct" : r.stage != STAGE_NONE ? stage_name(r.stage) : "error");
			if (one == EXIT_ENVIRONMENT)
				status = -1;
			else if (one)
				(*failures)++;
			grade_release(&r);
		}
		if (i >= 0)
			free(variants[i]);
	}
	free(variants);
	return status;
}

/* Sizes a kernel without a bounds check gets wrong: one past a block edge, or less than a warp. */
static void
check_block_edges(const struct exercise *e)
{
	for (int d = 0; d < e->ndims; d++) {
		bool off_edge = false;
		for (int c = 0; c < e->ncases; c++)
			off_edge |= e->cases[c][d] < 32 || e->cases[c][d] % 32 == 1;
		if (!off_edge)
			printf("  warn no case has a '%s' below 32 or one past a multiple of 32 (33, 257): a missing "
			       "bounds check would pass\n", e->dim_names[d]);
	}
}

/* Whether `cudalings check NAME…` named the exercise; all are when none was. */
static bool
check_selected(const struct exercise *e, char **names, int count)
{
	for (int i = 0; i < count; i++)
		if (!strcmp(names[i], e->name))
			return true;
	return count == 0;
}

static int
cmd_check(int argc, char **argv)
{
	bool compile_only = false;
	char *names[argc];
	int nnames = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--compile-only"))
			compile_only = true;
		else if (argv[i][0] == '-')
			return usage_error("check: unknown option '%s' (check [NAME...] [--compile-only])", argv[i]);
		else
			names[nnames++] = argv[i];
	}
	load_manifest();
	for (int i = 0; i < nnames; i++)
		if (!find_exercise(names[i], false))
			return EXIT_USAGE;
	if (build_headers(&manifest))
		return EXIT_ENVIRONMENT;
	enum backend b = gpu_present() && build_nvcc() ? BACKEND_GPU : BACKEND_SIM;
	if (compile_only && !getenv("CUDALINGS_ARCH") && !gpu_present())
		setenv("CUDALINGS_ARCH", "sm_90", 1);
	if (compile_only && !build_nvcc())
		return error("check --compile-only needs nvcc"), EXIT_ENVIRONMENT;
	if (!compile_only && b == BACKEND_SIM && !build_sim_ready())
		return error("no GPU here and the CPU simulator is not built: run 'make sim'"), EXIT_ENVIRONMENT;
	int failures = 0;
	for (int i = 0; i < manifest.count; i++) {
		const struct exercise *e = &manifest.items[i];
		if (!check_selected(e, names, nnames))
			continue;
		printf("%s\n", e->name);
		char *lesson = root_path(e->lesson);
		if (!file_exists(lesson)) {
			printf("  BAD  the lesson %s is missing\n", e->lesson);
			failures++;
		}
		free(lesson);
		if (e->kind == ITEM_LESSON)
			continue;
		if (e->kind == ITEM_DEMO) {
			if (check_demo(e, b, compile_only, &failures))
				return EXIT_ENVIRONMENT;
			continue;
		}
		check_block_edges(e);
		/* the starter as the solution makes it is what must fail: exercises/ is the student's to edit */
		char *starter = make_starter(e);
		char *path = root_path(e->file);
		char *current = read_file(path, NULL);
		char *starter_file = xasprintf("build/check/%s.cu", e->name), *starter_abs = root_path(starter_file);
		char *check_dir = root_path("build/check");
		bool made = mkdir_p(check_dir) == 0;
		free(check_dir);
		if (!starter || !made ||
		    write_file_if_changed(starter_abs, starter, strlen(starter))) {
			printf("  BAD  cannot make the starter of %s\n", e->name);
			failures++;
		}
		if (current && starter && strcmp(starter, current))
			printf("  --   %s differs from its starter (your work, or run 'make starters' after editing the "
			       "solution): the starter is checked\n", e->file);
		free(starter);
		free(current);
		free(path);
		free(starter_abs);
		bool solution = item_solution_present(e);
		if (!solution && !check_shipped_reference(e, compile_only ? BACKEND_GPU : b, &failures)) {
			free(starter_file);
			continue;
		}
		/* the gold solution, where there is one, is a submission like any other: it must pass */
		char *gold = xasprintf("solutions/gold/%s.cu", e->name), *gold_abs = root_path(gold);
		bool has_gold = file_exists(gold_abs);
		free(gold_abs);
		if (compile_only) {
			const char *files[3] = { starter_file };
			int nfiles = 1;
			if (solution)
				files[nfiles++] = e->solution;
			if (has_gold)
				files[nfiles++] = gold;
			for (int f = 0; f < nfiles; f++) {
				struct buf log = { 0 };
				bool ok = build_compile_only(e, files[f], &log) == 0;
				printf("  %-4s %s compiles with nvcc -arch=%s\n", ok ? "ok" : "BAD", files[f], build_arch());
				if (!ok) {
					printf("%s", log.data);
					failures++;
				}
				buf_free(&log);
			}
			free(starter_file);
			free(gold);
			continue;
		}
		int broken = (solution && check_grade(e, e->solution, b, "pass", &failures)) ||
			     check_grade(e, starter_file, b, "fail", &failures) ||
			     (has_gold && check_grade(e, gold, b, "pass", &failures));
		free(starter_file);
		free(gold);
		if (broken)
			return EXIT_ENVIRONMENT;
		if (check_wrong_files(e, b, &failures))
			return EXIT_ENVIRONMENT;
	}
	printf("%s\n", failures ? "the workbook has problems (BAD above)" : "the workbook is consistent");
	return failures ? EXIT_FAIL : EXIT_PASS;
}

/* ------------------------------------------------------------ new */

static int
cmd_new(int argc, char **argv)
{
	const char *name = NULL, *after = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--after") && i + 1 < argc)
			after = argv[++i];
		else if (argv[i][0] == '-')
			return usage_error("new: unknown option '%s' (new NAME [--after ITEM])", argv[i]);
		else if (!name)
			name = argv[i];
		else
			return usage_error("new takes one name; '%s' is one too many", argv[i]);
	}
	if (!name)
		return usage_error("%s", "new: name the exercise, e.g. 'cudalings new reverse'");
	/* the workbook must load before and after: a broken manifest is fixed first */
	load_manifest();
	struct buf written = { 0 };
	int status = scaffold_new(name, after, &written);
	if (status == -2) {
		buf_free(&written);
		return EXIT_USAGE;
	}
	if (status) {
		buf_free(&written);
		return EXIT_ENVIRONMENT;
	}
	printf("wrote\n");
	for (char *line = written.data; *line;) {
		char *end = strchrnul(line, '\n');
		printf("  %.*s\n", (int)(end - line), line);
		line = *end ? end + 1 : end;
	}
	printf("next: write the check's reference (harness/checks/%s.cpp) and the solution "
	       "(solutions/%s.cu),\n      then 'cudalings reset %s' for a fresh starter and "
	       "'cudalings check %s' until it is consistent\n", name, name, name, name);
	buf_free(&written);
	return EXIT_PASS;
}

/* ------------------------------------------------------------ batch */

static int
cmd_batch(int argc, char **argv)
{
	const char *name = NULL, *dir = NULL, *backend = NULL;
	struct batch_options bo = { .timeout_s = 900 };
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--out") || !strcmp(a, "--backend") || !strcmp(a, "--jobs") || !strcmp(a, "--timeout")) {
			if (i + 1 >= argc)
				return usage_error("'%s' needs a value", a);
			const char *v = argv[++i];
			char *end;
			if (!strcmp(a, "--out"))
				bo.out = v;
			else if (!strcmp(a, "--backend"))
				backend = v;
			else if (!strcmp(a, "--jobs") && ((bo.jobs = (int)strtol(v, &end, 10)) < 1 || *end))
				return usage_error("--jobs takes a number of lanes ≥ 1, not '%s'", v);
			else if (!strcmp(a, "--timeout") && ((bo.timeout_s = strtod(v, &end)), *end || !isfinite(bo.timeout_s) ||
								    bo.timeout_s <= 0 || bo.timeout_s > 86400))
				return usage_error("--timeout takes seconds, more than 0 and at most a day, not '%s'", v);
		} else if (a[0] == '-') {
			return usage_error("batch: unknown option '%s'", a);
		} else if (!name) {
			name = a;
		} else if (!dir) {
			dir = a;
		} else {
			return usage_error("batch takes an exercise and a folder; '%s' is one too many", a);
		}
	}
	if (!name || !dir || !bo.out)
		return usage_error("%s", "batch: say what to grade and where the results go, e.g. "
			"'cudalings batch transpose submissions/ --out results/'");
	if (!is_directory(dir))
		return usage_error("batch: '%s' is not a folder of submissions", dir);
	if (batch_check_out(bo.out, dir))
		return EXIT_USAGE;
	load_manifest();
	struct exercise *e = find_exercise(name, true);
	if (!e)
		return EXIT_USAGE;
	struct grade_options o = { 0 };
	int status = choose_backend(&o, backend);
	if (status)
		return status;
	if (build_headers(&manifest))
		return EXIT_ENVIRONMENT;
	bo.dir = dir;
	bo.backend = o.backend;
	return batch_run(e, &bo);
}

/* ------------------------------------------------------------ board */

static int
cmd_board(int argc, char **argv)
{
	struct board_options bo = { 0 };
	char **outs = xcalloc((size_t)argc, sizeof(char *));
	int status = 0;
	for (int i = 1; i < argc && !status; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--pseudonyms")) {
			bo.pseudonyms = true;
		} else if (!strcmp(a, "--html") || !strcmp(a, "--salt")) {
			if (i + 1 >= argc || !*argv[i + 1])
				status = usage_error("'%s' needs a value", a);
			else if (a[2] == 'h')
				bo.html = argv[++i];
			else
				bo.salt = argv[++i];
		} else if (a[0] == '-' && a[1]) {
			status = usage_error("board: unknown option '%s'", a);
		} else {
			outs[bo.nouts++] = argv[i];
		}
	}
	if (!status && !bo.nouts)
		status = usage_error("%s", "board: say which batch results to rank, e.g. 'cudalings board results/'");
	if (!status && bo.salt && !bo.pseudonyms)
		status = usage_error("%s", "board: --salt goes with --pseudonyms");
	if (!status) {
		bo.outs = outs;
		bo.color = isatty(1) && !getenv("NO_COLOR");
		status = board_run(&bo, stdout);
	}
	free(outs);
	return status;
}

/* ------------------------------------------------------------ the TUI */

static int
open_tui(char **argv)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return error("cannot find where cudalings is installed"), EXIT_ENVIRONMENT;
	self[n] = 0;
	char *slash = strrchr(self, '/');
	*slash = 0;
	char *tui = xasprintf("%s/cudalings-tui", self);
	execv(tui, argv);
	error("cannot open the workbook screen '%s': %s (run 'make tui' to build it)", tui, strerror(errno));
	free(tui);
	return EXIT_ENVIRONMENT;
}

/* A command: its name, the words after it, what it does, and its function (argv[0] is the name). */
struct command {
	const char *name, *args, *summary;
	int (*run)(int argc, char **argv);
};

static int cmd_help(int argc, char **argv);
static int cmd_tui(int argc, char **argv);

static const struct command commands[] = {
	{ "list", "[--json]", "the lessons and exercises in order", cmd_list },
	{ "grade", "NAME [--file PATH] [--backend gpu|sim] [--json] [--progress] [--seed N]\n"
		   "             [--case SIZES] [--sanitize] [--profile] [--lines] [--sass [--arch SM]]",
	  "grade an exercise (gpu: --sanitize runs compute-sanitizer, --profile Nsight Compute)", cmd_grade },
	{ "run", "NAME [--backend gpu|sim]", "run a demo's variants side by side", cmd_run },
	{ "reset", "NAME", "put the starter back (your file is kept as a backup)", cmd_reset },
	{ "starter", "NAME", "print the starter of an exercise", cmd_starter },
	{ "starters", "[--check]", "write missing starters from the solutions, or check they match", cmd_starters },
	{ "check", "[NAME...] [--compile-only]", "check the workbook, or the exercises named", cmd_check },
	{ "new", "NAME [--after ITEM]", "scaffold a new exercise (instructors)", cmd_new },
	{ "batch", "NAME DIR --out OUT [--backend gpu|sim] [--jobs N] [--timeout S]", "grade a class", cmd_batch },
	{ "sass", "NAME [--file PATH] [--arch SM] [--width COLUMNS] [--json]",
	  "the machine code of an exercise's file, under its lines (nvcc, no GPU needed)", cmd_sass },
	{ "board", "OUT... [--html FILE] [--pseudonyms [--salt TEXT]]",
	  "rank a class's batch results per exercise, as a table and a static page", cmd_board },
	{ "tui", "", "open the workbook (the same as no command)", cmd_tui },
	{ "help", "", "this text", cmd_help },
};

static void
print_usage(FILE *out)
{
	fprintf(out, "usage: cudalings               open the workbook (the TUI)\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(*commands); i++) {
		const struct command *c = &commands[i];
		fprintf(out, "       cudalings %s%s%s\n", c->name, *c->args ? " " : "", c->args);
		fprintf(out, "           %s\n", c->summary);
	}
	fprintf(out, "\nexit status: 0 pass, 1 fail, 2 usage error, 3 environment error (no toolkit, no GPU)\n");
}

static int
cmd_help(int argc, char **argv)
{
	(void)argc, (void)argv;
	print_usage(stdout);
	return EXIT_PASS;
}

static int
cmd_tui(int argc, char **argv)
{
	(void)argc;
	return open_tui(argv);
}

int
main(int argc, char **argv)
{
	error_set_program("cudalings");
	if (argc < 2)
		return open_tui(argv);
	const char *name = argv[1];
	if (!strcmp(name, "--help") || !strcmp(name, "-h"))
		return cmd_help(argc - 1, argv + 1);
	const char *closest = NULL;
	int best = 3;
	for (size_t i = 0; i < sizeof(commands) / sizeof(*commands); i++) {
		if (!strcmp(name, commands[i].name))
			return commands[i].run(argc - 1, argv + 1);
		int d = edit_distance(name, commands[i].name);
		if (d < best) {
			best = d;
			closest = commands[i].name;
		}
	}
	if (closest)
		error("'%s' is not a cudalings command: did you mean '%s'?", name, closest);
	else
		error("'%s' is not a cudalings command", name);
	print_usage(stderr);
	return EXIT_USAGE;
}
