/*
 * report: the grader's verdict laid out for the student (compile errors with
 * their source lines, cases, the timing bar chart, diagnostics, hints), and
 * the live progress of a grading.  Pure: builds a doc, draws nothing.
 */
#ifndef TUI_REPORT_H
#define TUI_REPORT_H

#include "tui/doc.h"
#include "tui/grader_json.h"
#include "tui/workbook.h"

/* One line of progress: a stage the grader entered, or a case it finished. */
struct grade_step {
	bool is_case;
	char *stage, *message;	/* a stage */
	char *name;		/* a case */
	bool passed;
	int index, count;
};

/*
 * Append the report of r (not NULL) for item it to d at width columns: the first
 * hints_shown of its hints (hint_list), and for compile errors the lines of source
 * (the exercise's text, or NULL).
 */
void report_render(struct doc *d, const struct item *it, const struct result *r,
		   int hints_shown, const char *source, int width);

/*
 * Append what there is to say of an item not graded in this session: last,
 * the status it had (NULL when never graded), and the first hints_shown hints.
 */
void report_ungraded(struct doc *d, const struct item *it, const char *last, int hints_shown, int width);

/* Append the progress so far ("Grading …" or "Running …" as verb says). */
void report_progress(struct doc *d, const struct item *it, const char *verb,
		     const struct grade_step *steps, int nsteps, int width);

/*
 * Append what a demo run printed (output, NULL when it has not run yet) and
 * how it ended (exit status, -1 when killed).
 */
void report_demo(struct doc *d, const struct item *it, const char *output, int status, int width);

#endif
