/*
 * progress: what a grading says while it runs (see progress.h). The JSON
 * lines are the workbook's; the terminal's line says the same in words:
 * "  compiling exercises/col_sums.cu…", then "  running 8 cases: case 4 of
 * 8, 1000x1… (2 ok, 1 failed)". A file name or a measuring process's text is printed
 * with its control characters replaced, and cut to the terminal's width so
 * that one \r always goes back to the line's start.
 */
#include "grader/engine/progress.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "common/json.h"
#include "lib/util.h"

/* the line's stage message, kept to say beside each case; and whether a line is on the screen */
static char stage_line[256];
static volatile sig_atomic_t line_shown;
static int cases_ok, cases_failed;

enum progress_mode
progress_choose(bool json_asked)
{
	if (json_asked)
		return PROGRESS_JSON;
	const char *term = getenv("TERM");
	if (!isatty(2) || (term && !strcmp(term, "dumb")))
		return PROGRESS_NONE;
	return PROGRESS_LINE;
}

static int
terminal_width(void)
{
	struct winsize w;
	return ioctl(2, TIOCGWINSZ, &w) == 0 && w.ws_col >= 20 ? w.ws_col : 80;
}

/* Before an error's message: the line goes, the message takes its place. */
static void
clear_line(void)
{
	progress_clear(PROGRESS_LINE);
}

/* The line rewritten: control characters replaced, cut to the width (counted in UTF-8 characters). */
static void
show_line(const char *text)
{
	int room = terminal_width() - 1, used = 0;
	struct buf b = BUF_INIT;
	buf_addstr(&b, "\r\033[K");
	for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
		bool starts = (*p & 0xC0) != 0x80;
		if (starts && used == room - 1 && p[1]) {
			buf_addstr(&b, "…");
			break;
		}
		used += starts;
		char c = *p < 0x20 || *p == 0x7f ? '?' : (char)*p;
		buf_add(&b, &c, 1);
	}
	fputs(b.data, stderr);
	fflush(stderr);
	line_shown = 1;
	error_print_hook = clear_line;
	buf_free(&b);
}

/* One event a line; takes o. */
static void
emit(cJSON *o)
{
	char *text = json_print(o, false);
	fprintf(stderr, "%s\n", text);
	fflush(stderr);
	free(text);
	cJSON_Delete(o);
}

static void
stage_said(enum progress_mode m, const char *stage, const char *message)
{
	if (m == PROGRESS_JSON) {
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "event", "stage");
		cJSON_AddStringToObject(o, "stage", stage);
		cJSON_AddStringToObject(o, "message", message);
		emit(o);
	} else if (m == PROGRESS_LINE) {
		if (!strcmp(stage, "run"))
			cases_ok = cases_failed = 0;
		snprintf(stage_line, sizeof(stage_line), "  %s…", message);
		show_line(stage_line);
	}
}

void
progress_stage(enum progress_mode m, const char *stage, const char *fmt, ...)
{
	if (m == PROGRESS_NONE)
		return;
	va_list ap;
	va_start(ap, fmt);
	char *message = xvasprintf(fmt, ap);
	va_end(ap);
	stage_said(m, stage, message);
	free(message);
}

void
progress_stage_text(enum progress_mode m, const char *stage, const char *text, size_t length)
{
	if (m == PROGRESS_NONE)
		return;
	char *message = xstrndup(text, length);
	stage_said(m, stage, message);
	free(message);
}

/* The cases so far, said after the run stage's message: " (3 ok, 1 failed)", nothing before the first. */
static char *
tally(void)
{
	if (!cases_ok && !cases_failed)
		return xstrdup("");
	return cases_failed ? xasprintf(" (%d ok, %d failed)", cases_ok, cases_failed) : xasprintf(" (%d ok)", cases_ok);
}

void
progress_case_begin(enum progress_mode m, int index, int count, const char *name)
{
	if (m != PROGRESS_LINE)
		return;
	char *so_far = tally();
	char *line = xasprintf("%.*s: case %d of %d, %s…%s", (int)strcspn(stage_line, "…"), stage_line, index, count,
			       name, so_far);
	show_line(line);
	free(line);
	free(so_far);
}

void
progress_case(enum progress_mode m, int index, int count, const char *name, bool passed)
{
	if (m == PROGRESS_JSON) {
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "event", "case");
		cJSON_AddNumberToObject(o, "index", index);
		cJSON_AddNumberToObject(o, "count", count);
		cJSON_AddStringToObject(o, "name", name);
		cJSON_AddBoolToObject(o, "passed", passed);
		emit(o);
	} else if (m == PROGRESS_LINE) {
		cases_ok += passed;
		cases_failed += !passed;
		char *so_far = tally();
		char *line = xasprintf("%.*s: %d of %d done%s", (int)strcspn(stage_line, "…"), stage_line, index, count,
				       so_far);
		show_line(line);
		free(line);
		free(so_far);
	}
}

void
progress_clear(enum progress_mode m)
{
	if (m == PROGRESS_LINE && line_shown) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		line_shown = 0;
	}
}

void
progress_interrupted(void)
{
	static const char clear[] = "\r\033[K", said[] = "interrupted\n";
	if (line_shown && write(2, clear, sizeof(clear) - 1) < 0)
		return;
	if (write(2, said, sizeof(said) - 1) < 0)
		return;
}
