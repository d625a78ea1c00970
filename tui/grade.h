/*
 * grade: one grading by `cudalings grade NAME --json --progress`, run as a
 * job: the progress it reports as it goes, and its verdict at the end.
 * Pure: no curses.
 */
#ifndef TUI_GRADE_H
#define TUI_GRADE_H

#include <stdbool.h>

#include "tui/proc.h"
#include "tui/report.h"
#include "tui/grader_json.h"

struct grading {
	struct job job;
	bool demo;		/* `cudalings run` of a demo: output, no verdict */
	char *name;		/* the exercise being graded, or the demo run */
	struct grade_step *steps;	/* its progress so far */
	int nsteps, asteps;
	struct buf text;	/* stderr lines that are not progress events */
};

/* Start grading name with the grader program in the workbook root. */
int grade_start(struct grading *g, const char *grader, const char *root, const char *name);
/* Start running the demo name's variants side by side (`cudalings run NAME`), its table laid out at width. */
int grade_start_demo(struct grading *g, const char *grader, const char *root, const char *name, int width);
/* What a finished demo run printed, stdout then stderr; you own it. */
char *grade_demo_output(const struct grading *g);
/* Take in the progress; true once the grader has finished. */
bool grade_pump(struct grading *g);
/*
 * The verdict of a finished grading, into r.  When the grader's stdout is not
 * its JSON (it crashed, or a usage error) r says so, with what it wrote.
 */
void grade_result(struct grading *g, struct result *r);
/* Kill a grading under way (Esc); its result is lost. */
void grade_cancel(struct grading *g);
void grade_free(struct grading *g);
bool grade_running(const struct grading *g);

/* Add one stderr line of the grader to the progress (exposed for tests). */
void grade_take_line(struct grading *g, const char *line);

#endif
