/*
 * cudalings grade: grade one exercise — the submission checked, the backend
 * chosen, grade_run, the report as text or JSON (with --lines and --sass
 * beside it), and the progress the workbook shows recorded.
 */
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "grader/cmd/command.h"
#include "lib/exit.h"
#include "common/json.h"
#include "common/state.h"
#include "lib/color.h"
#include "lib/util.h"
#include "grader/sass/lines.h"
#include "grader/engine/report.h"
#include "common/root.h"
#include "grader/sass/sass.h"
/* where builds go (harness/runner.mk) */
#include "grader/runner_mk.h"

static const struct option_spec options[] = {
	OPT_VALUE("file", "PATH", "grade this file instead of exercises/NAME.cu"),
	OPT_VALUE("backend", "gpu|sim", "where to run it (default: the GPU when there is one, else the CPU simulator)"),
	OPT_SWITCH("json", "the report as one JSON object"),
	OPT_SWITCH("progress", "JSON lines on stderr as it goes (the workbook reads them)"),
	OPT_VALUE("seed", "N", "draw the inputs from this seed (default: a fresh one)"),
	OPT_VALUE("case", "SIZES", "grade, time and profile at this one size, like 4096x4096"),
	OPT_SWITCH("no-timing", "correctness only"),
	OPT_SWITCH("sanitize", "gpu: also run the cases under compute-sanitizer"),
	OPT_SWITCH("profile", "gpu: also measure the timed case with Nsight Compute"),
	OPT_SWITCH("lines", "a heat map per source line"),
	OPT_SWITCH("sass", "the kernels as PTX and SASS under their source lines"),
	OPT_VALUE("arch", "SM", "with --sass: the architecture to compile for, like sm_90 (default: this GPU's, else sm_90)"),
	OPTIONS_END,
};

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
	if (n != e->ndims)
		return command_usage_error("--case takes %d sizes for %s, like 4096x4096, not '%s'", e->ndims, e->name, text);
	memcpy(e->cases[0], dims, sizeof(int) * (size_t)e->ndims);
	memcpy(e->timed, dims, sizeof(int) * (size_t)e->ndims);
	e->ncases = 1;
	return 0;
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
	state_set_status(&st, e->name, state_status_of(r->verdict == VERDICT_PASS, build_backend_name(r->backend)));
	state_set_graded(&st, e->name, graded, length);
	char *text = json_print(report, true);
	if (state_save(&st) == 0)
		state_save_report(&st, e->name, text);
	free(text);
	state_free(&st);
}

/*
 * Ctrl-C: said, then the default, so the shell (and make) see a program ended by SIGINT (status 130).
 * lib/run_watch.c's handler runs first once a child has started, and ends every process the grading started.
 */
static void
on_interrupt(int sig)
{
	progress_interrupted();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* The options read into the grading's own: 0, or the exit status after saying why. */
static int
read_options(const struct parsed_args *a, struct grade_options *o)
{
	o->file = options_value(a, "file");
	/* the workbook asks for JSON lines; a person at a terminal gets a line, a --json reader nothing */
	o->progress = options_given(a, "progress") ? PROGRESS_JSON
		    : options_given(a, "json") ? PROGRESS_NONE : progress_choose(false);
	o->skip_timing = options_given(a, "no-timing");
	o->sanitize = options_given(a, "sanitize"); /* on the simulator its checks always run */
	o->profile = options_given(a, "profile");
	o->lines = options_given(a, "lines");
	const char *seed = options_value(a, "seed");
	if (seed) {
		char *end;
		errno = 0;
		o->seed = strtoull(seed, &end, 0);
		/* strtoull reads "-1" as 2^64 - 1, saturates past it, and 0 means "a fresh seed" */
		if (*end || !*seed || !isalnum((unsigned char)*seed) || errno == ERANGE || !o->seed)
			return command_usage_error("--seed takes a number from 1 to 18446744073709551615, not '%s'", seed);
	}
	return 0;
}

/* The report printed, with the heat map and the machine code when asked; the JSON stays the caller's. */
static void
print_report(const struct parsed_args *a, struct grade_result *r, cJSON *j, struct sass_listing *listing,
	     const struct exercise *e, const char *file)
{
	bool json = options_given(a, "json"), sass = options_given(a, "sass");
	bool color = isatty(1) && !getenv("NO_COLOR");
	if (json && sass)
		sass_grade_end(listing, e, file, r->file, &r->lines, j, stdout, color, 80);
	if (json)
		report_print_json(stdout, j);
	else
		report_text(stdout, r, color);
	/* the verdict gives the first hint for the failure; the next ones come a tier at a time */
	if (!json && r->hint && e->nhints > 1)
		printf("%smore hints, one at a time: " BUILD_DIR "/cudalings hint %s%s\n", paint(color, COLOR_DIM), e->name,
		       paint(color, COLOR_RESET));
	cJSON_DeleteItemFromObject(j, "machine_code");
	if (!json && options_given(a, "lines")) {
		putchar('\n');
		lines_print_text(stdout, &r->lines, color);
	}
	if (!json && sass) {
		putchar('\n');
		sass_grade_end(listing, e, file, r->file, &r->lines, NULL, stdout, color, 80);
	}
}

static int
cmd_grade(const struct parsed_args *a)
{
	struct grade_options o = { 0 };
	struct sass_listing listing = { 0 };
	const char *name = a->operands[0], *only_case = options_value(a, "case");
	int status = read_options(a, &o);
	if (status)
		return status;
	if (o.progress != PROGRESS_JSON) {
		struct sigaction sa = { .sa_handler = on_interrupt }, old;
		sigemptyset(&sa.sa_mask);
		/* a Ctrl-C the caller chose to ignore stays ignored */
		if (sigaction(SIGINT, NULL, &old) == 0 && old.sa_handler != SIG_IGN)
			sigaction(SIGINT, &sa, NULL);
	}
	/* a file named relative to where the student stands, before we move to the workbook */
	char *absolute = NULL;
	if (o.file) {
		if (command_check_submission(o.file))
			return EXIT_USAGE;
		absolute = realpath(o.file, NULL);
		o.display = o.file;
		o.file = absolute;
	}
	struct exercise *e = command_find_exercise(name, true);
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
	if (command_check_submission(o.file ? o.file : default_file)) {
		/* the student's own file emptied or deleted: the starter can come back */
		if (!o.file && e->file)
			fprintf(stderr, "make reset EX=%s puts the starter back (what is there now goes to "
				".cudalings/backup/)\n", e->name);
		free(default_file);
		return EXIT_USAGE;
	}
	free(default_file);
	if ((status = command_choose_backend(&o, options_value(a, "backend"))))
		return status;
	/* said, not silently dropped: the simulator's own checks stand in for both */
	if (o.backend == BACKEND_SIM && (o.sanitize || o.profile)) {
		error("%s needs a GPU: on the simulator its own checks (bounds, races, sectors and bank conflicts "
		      "per request) run on every grading", o.sanitize ? "--sanitize" : "--profile");
		return EXIT_USAGE;
	}
	/* a check may share another exercise's code, and with it that one's header */
	if (build_headers(command_manifest()))
		return EXIT_ENVIRONMENT;
	if (options_given(a, "sass") && (status = sass_grade_begin(&listing, options_value(a, "arch"), "--sass")))
		return status;

	/* the text graded, as it was when the grading began: the student may save again meanwhile */
	char *own_file = e->file ? root_path(e->file) : NULL;
	size_t graded_length = 0;
	char *graded = own_file && command_is_own_file(o.file, own_file) ? read_file(own_file, &graded_length) : NULL;
	struct grade_result r;
	status = grade_run(e, &o, &r);
	progress_clear(o.progress);
	cJSON *j = report_json(&r);
	print_report(a, &r, j, &listing, e, o.file ? o.file : own_file);
	sass_release(&listing);
	if (graded && (status == EXIT_PASS || status == EXIT_FAIL))
		record_progress(e, &r, j, graded, graded_length);
	cJSON_Delete(j);
	free(graded);
	free(own_file);
	free(absolute);
	grade_release(&r);
	return status;
}

const struct command command_grade = {
	.name = "grade",
	.operands = "NAME",
	.min_operands = 1,
	.max_operands = 1,
	.missing = "say which exercise, e.g. 'cudalings grade col_sums'",
	.takes = "one exercise",
	.summary = "grade an exercise (gpu: --sanitize runs compute-sanitizer, --profile Nsight Compute)",
	.run = cmd_grade,
	.options = options,
};
