/*
 * cudalings check: the workbook is consistent — every lesson there, every
 * solution (and gold solution) passes, every starter fails, every variant in
 * solutions/wrong/ fails at the stage it declares, demos compute the right
 * result; or, with --compile-only, everything compiles with nvcc; with
 * --mutants, also every mutant of each solution fails (grader/mutants/mutant_check.c).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grader/cmd/command.h"
#include "lib/exit.h"
#include "grader/mutants/mutant_check.h"
#include "lib/util.h"
#include "common/root.h"
/* where builds go (harness/runner.mk) */
#include "grader/runner_mk.h"

static const struct option_spec options[] = {
	OPT_SWITCH("compile-only", "only compile every file with nvcc (for sm_90 where no GPU says otherwise)"),
	OPT_SWITCH("mutants", "also grade wrong kernels made from each solution: one that passes is a weak check"),
	OPTIONS_END,
};

/* One file compiled with nvcc, its messages printed when it does not; false then. */
static bool
check_compiles(const struct exercise *e, const char *file)
{
	struct buf log = BUF_INIT;
	bool ok = build_compile_only(e, file, &log) == 0;
	printf("  %-4s %s compiles with nvcc -arch=%s\n", ok ? "ok" : "BAD", file, toolchain_arch());
	if (!ok)
		printf("%s", log.data);
	buf_free(&log);
	return ok;
}

static int
compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The text after the first `marker` in text, up to a blank, or NULL. */
static char *
marked_word(const char *text, const char *marker)
{
	const char *at = strstr(text, marker);
	if (!at)
		return NULL;
	at += strlen(marker);
	return xasprintf("%.*s", (int)strcspn(at, " \n\r\t"), at);
}

/*
 * The stage a wrong/ file declares for backend b: "// expect: STAGE", or on
 * a GPU its "// gpu-expect: STAGE" where it has one (a write past a row's
 * end lands in the next row there); "// sim-only" limits it to the simulator.
 */
static char *
declared_stage(const char *path, enum backend b, bool *sim_only)
{
	char *text = read_file(path, NULL);
	if (!text)
		return NULL;
	/* a race a GPU's timing may hide is checked where it is certain to show */
	*sim_only = strstr(text, "// sim-only") != NULL;
	char *stage = b == BACKEND_GPU ? marked_word(text, "// gpu-expect: ") : NULL;
	if (!stage)
		stage = marked_word(text, "// expect: ");
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
 * Every .cu in solutions/wrong/NAME/ (the workbook's known-wrong variants, beside the solutions and
 * written in the lines tests/submissions.sh reads) must fail at the stage its "// expect: STAGE" names.
 */
static int
check_wrong_files(const struct exercise *e, enum backend b, int *failures)
{
	char *rel_dir = xasprintf("%ssolutions/wrong/%s", e->dir, e->name), *dir = root_path(rel_dir);
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
		char *stage = declared_stage(full, b, &sim_only);
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
	int count = command_demo_variants(e, &variants), status = 0;
	for (int i = -1; i < count; i++) {
		const char *file = i < 0 ? e->solution : variants[i];
		if (compile_only) {
			if (!check_compiles(e, file))
				(*failures)++;
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

/*
 * The starter as the solution makes it, written to build/check/NAME.cu: what must fail is that one,
 * for exercises/ is the student's to edit. Returns its path (yours), or NULL after saying why.
 */
static char *
starter_to_check(const struct exercise *e)
{
	char *starter = command_make_starter(e);
	char *path = root_path(e->file);
	char *current = read_file(path, NULL);
	char *starter_file = xasprintf(BUILD_DIR "/check/%s.cu", e->name), *starter_abs = root_path(starter_file);
	char *check_dir = root_path(BUILD_DIR "/check");
	bool made = mkdir_p(check_dir) == 0;
	if (!starter || !made || write_file_if_changed(starter_abs, starter, strlen(starter))) {
		printf("  BAD  cannot make the starter of %s\n", e->name);
		free(starter_file);
		starter_file = NULL;
	}
	if (current && starter && strcmp(starter, current))
		printf("  --   %s differs from its starter (your work, or run 'make starters' after editing the "
		       "solution): the starter is checked\n", e->file);
	free(check_dir);
	free(starter);
	free(current);
	free(path);
	free(starter_abs);
	return starter_file;
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
		       build_backend_name(b), e->name);
		(*failures)++;
	}
	bool found = shipped != NULL;
	free(shipped);
	return found;
}

/*
 * An exercise: its starter, solution and gold solution, then its wrong variants, then (asked) the mutants
 * of its solution. -1 on an environment error.
 */
static int
check_exercise(const struct exercise *e, enum backend b, bool compile_only, bool mutants, int *failures)
{
	check_block_edges(e);
	char *starter_file = starter_to_check(e);
	if (!starter_file)
		(*failures)++;
	bool solution = manifest_item_solution_present(e);
	if (!solution && !check_shipped_reference(e, compile_only ? BACKEND_GPU : b, failures)) {
		free(starter_file);
		return 0;
	}
	/* the gold solution, where there is one, is a submission like any other: it must pass */
	char *gold = xasprintf("%ssolutions/gold/%s.cu", e->dir, e->name), *gold_abs = root_path(gold);
	bool has_gold = file_exists(gold_abs);
	free(gold_abs);
	int status = 0;
	if (compile_only) {
		const char *files[] = { starter_file, solution ? e->solution : NULL, has_gold ? gold : NULL };
		for (int f = 0; f < 3; f++)
			if (files[f] && !check_compiles(e, files[f]))
				(*failures)++;
	} else {
		int before = *failures;
		status = (solution && check_grade(e, e->solution, b, "pass", failures)) ? -1 : 0;
		bool solution_passes = solution && *failures == before;
		status = status || (starter_file && check_grade(e, starter_file, b, "fail", failures)) ||
				 (has_gold && check_grade(e, gold, b, "pass", failures)) ||
				 check_wrong_files(e, b, failures) ? -1 : 0;
		/* wrong kernels made from the solution: each one the checks let pass is a weak check */
		if (!status && mutants && !solution_passes)
			printf("  --   no mutants: the solution %s\n", solution ? "itself does not pass" : "is not here");
		long cores = sysconf(_SC_NPROCESSORS_ONLN);
		int weak = !status && mutants && solution_passes ? mutant_check(e, cores > 0 ? (int)cores : 1) : 0;
		if (weak < 0)
			status = -1;
		else
			*failures += weak;
	}
	free(starter_file);
	free(gold);
	return status;
}

#define UNWRITTEN "TODO(instructor)"

/* Each line of `text` that still holds the scaffold's mark, said as FILE:LINE (a file) or WHERE; how many. */
static int
unwritten_lines(const char *text, const char *file, bool numbered)
{
	int found = 0, line = 1;
	for (const char *p = text; p && *p; line++) {
		const char *end = strchrnul(p, '\n');
		const char *at = memmem(p, (size_t)(end - p), UNWRITTEN, strlen(UNWRITTEN));
		if (at && found++ < 3)
			printf("  BAD  %s%s%.0d still says %.*s\n", file, numbered ? ":" : "", numbered ? line : 0,
			       (int)(end - at) > 100 ? 100 : (int)(end - at), at);
		p = *end ? end + 1 : end;
	}
	return found;
}

/*
 * What the scaffold left for the instructor to write, in what students get: the lesson, the starter
 * made from the solution, the check, the title and hints. 1 when any is left (said), else 0.
 */
static int
check_unwritten(const struct exercise *e)
{
	int found = 0;
	char *lesson_path = root_path(e->lesson), *lesson = read_file(lesson_path, NULL);
	found += unwritten_lines(lesson, e->lesson, true);
	if (e->kind == ITEM_EXERCISE) {
		char *starter = command_make_starter(e);
		found += unwritten_lines(starter, e->file, true);
		free(starter);
	}
	if (e->kind != ITEM_LESSON) {
		char *rel = xasprintf("%sharness/checks/%s.cpp", e->dir, e->check), *path = root_path(rel);
		char *check = read_file(path, NULL);
		found += unwritten_lines(check, rel, true);
		free(check);
		free(path);
		free(rel);
	}
	found += unwritten_lines(e->title, "workbook.json (its title)", false);
	for (int i = 0; i < e->nhints; i++)
		found += unwritten_lines(e->hints[i].text, "workbook.json (a hint)", false);
	free(lesson);
	free(lesson_path);
	return found > 0;
}

static int
cmd_check(const struct parsed_args *a)
{
	bool compile_only = options_given(a, "compile-only"), mutants = options_given(a, "mutants");
	if (compile_only && mutants)
		return command_usage_error("check: --compile-only grades nothing, and --mutants grades mutants: one or the other");
	char **names = a->operands;
	int nnames = a->noperands;
	struct manifest *m = command_manifest();
	for (int i = 0; i < nnames; i++)
		if (!command_find_exercise(names[i], false))
			return EXIT_USAGE;
	if (build_headers(m))
		return EXIT_ENVIRONMENT;
	enum backend b = toolchain_gpu_present() && toolchain_nvcc() ? BACKEND_GPU : BACKEND_SIM;
	if (compile_only && !getenv("CUDALINGS_ARCH") && !toolchain_gpu_present())
		setenv("CUDALINGS_ARCH", "sm_90", 1);
	if (compile_only && !toolchain_nvcc())
		return error("check --compile-only needs nvcc"), EXIT_ENVIRONMENT;
	if (!compile_only && b == BACKEND_SIM && !toolchain_sim_ready())
		return error("no GPU here and the CPU simulator is not built: run 'make sim'"), EXIT_ENVIRONMENT;
	if (mutants && !toolchain_sim_ready())
		return error("mutants are graded on the CPU simulator, which is not built: run 'make sim'"),
		       EXIT_ENVIRONMENT;
	int failures = 0;
	if (compile_only) {
		/* the runner's own kernels (fresh inputs, the check of every timed round) are GPU code too */
		struct buf log = BUF_INIT;
		bool ok = build_compile_runner_only(&log) == 0;
		printf("harness\n  %-4s harness/runner*.cu and timing_ways.cu compile with nvcc -arch=%s, capture*.cpp and "
		       "replay.cpp with the CUDA headers\n", ok ? "ok" : "BAD", toolchain_arch());
		if (!ok) {
			printf("%s", log.data);
			failures++;
		}
		buf_free(&log);
	}
	for (int i = 0; i < m->count; i++) {
		const struct exercise *e = &m->items[i];
		if (!check_selected(e, names, nnames))
			continue;
		printf("%s\n", e->name);
		char *lesson = root_path(e->lesson);
		if (!file_exists(lesson)) {
			printf("  BAD  the lesson %s is missing\n", e->lesson);
			failures++;
		}
		free(lesson);
		/* a scaffold's mark left in a file that ships: the students would read it */
		failures += check_unwritten(e);
		int broken = 0;
		if (e->kind == ITEM_DEMO)
			broken = check_demo(e, b, compile_only, &failures);
		else if (e->kind != ITEM_LESSON)
			broken = check_exercise(e, b, compile_only, mutants, &failures);
		if (broken)
			return EXIT_ENVIRONMENT;
	}
	printf("%s\n", failures ? "the workbook has problems (BAD or WEAK above)" : "the workbook is consistent");
	return failures ? EXIT_FAIL : EXIT_PASS;
}

const struct command command_check = {
	.name = "check",
	.operands = "[NAME...]",
	.min_operands = 0,
	.max_operands = -1,
	.summary = "check the workbook, or the exercises named (--mutants: and that their checks catch wrong kernels)",
	.run = cmd_check,
	.options = options,
};
