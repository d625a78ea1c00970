/*
 * cudalings sass: the machine code of an exercise's file under its source
 * lines, without grading it (what the workbook's `a` shows), with the heat
 * map of the last grading when that graded the text the file holds now.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "grader/cmd/command.h"
#include "lib/exit.h"
#include "common/state.h"
#include "lib/util.h"
#include "grader/sass/lines.h"
#include "grader/engine/report.h"
#include "common/root.h"
#include "grader/sass/sass.h"

static const struct option_spec options[] = {
	OPT_VALUE("file", "PATH", "this file instead of exercises/NAME.cu"),
	OPT_VALUE("arch", "SM", "the architecture to compile for, like sm_90 (default: this GPU's, else sm_90)"),
	OPT_VALUE("width", "COLUMNS", "the listing's width, 60 to 1000 (default 80)"),
	OPT_SWITCH("json", "the listing as JSON"),
	OPTIONS_END,
};

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

/* The listing of `path` (shown as `display`): built, with the figures kept for it, and printed. */
static int
list(const struct parsed_args *a, const struct exercise *e, const char *path, const char *display,
     const char *absolute, int width)
{
	struct sass_listing listing = { 0 };
	struct line_map figures = { 0 };
	int status = command_check_submission(path) ? EXIT_USAGE
						     : sass_grade_begin(&listing, options_value(a, "arch"), "sass");
	if (!status && build_headers(command_manifest()))
		status = EXIT_ENVIRONMENT;
	if (!status) {
		/* the figures of its last grading, when that graded this very text */
		char *own = e->file ? root_path(e->file) : NULL;
		bool is_own = own && command_is_own_file(absolute, own);
		if (is_own)
			kept_figures(e, path, display, &figures);
		if (!figures.source)
			listing.no_figures = xstrdup(is_own
				? "no heat map beside the lines: grade this text of the file to measure them"
				: "no heat map beside the lines: cudalings grade --sass measures them as it grades");
		free(own);
		cJSON *j = options_given(a, "json") ? cJSON_CreateObject() : NULL;
		status = sass_grade_end(&listing, e, path, display, &figures, j, stdout, isatty(1) && !getenv("NO_COLOR"),
					width);
		if (j)
			report_print_json(stdout, j);
		cJSON_Delete(j);
	}
	lines_release(&figures);
	sass_release(&listing);
	return status;
}

static int
cmd_sass(const struct parsed_args *a)
{
	const char *name = a->operands[0], *file = options_value(a, "file"), *columns = options_value(a, "width");
	int width = 80;
	if (columns) {
		char *end;
		long w = strtol(columns, &end, 10);
		if (*end || !*columns || w < SASS_MIN_WIDTH || w > 1000)
			return command_usage_error("--width takes the columns of the listing, 60 to 1000, not '%s'", columns);
		width = (int)w;
	}
	if (file && command_check_submission(file))
		return EXIT_USAGE;
	char *absolute = file ? realpath(file, NULL) : NULL;
	struct exercise *e = command_find_exercise(name, true);
	if (!e || (!e->file && !file)) {
		if (e)
			error("'%s' is a demo: its variants are in its lesson, and there is no file of yours to build", name);
		free(absolute);
		return EXIT_USAGE;
	}
	char *path = absolute ? xstrdup(absolute) : root_path(e->file);
	int status = list(a, e, path, file ? file : e->file, absolute, width);
	free(path);
	free(absolute);
	return status;
}

const struct command command_sass = {
	.name = "sass",
	.operands = "NAME",
	.min_operands = 1,
	.max_operands = 1,
	.missing = "say which exercise, e.g. 'cudalings sass transpose'",
	.takes = "one exercise",
	.summary = "the machine code of an exercise's file, under its lines (nvcc, no GPU needed)",
	.run = cmd_sass,
	.options = options,
};
