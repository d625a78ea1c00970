/*
 * state: the student's progress, kept in WORKBOOK/.cudalings/state.json and
 * written atomically.  A missing file is a fresh start; a corrupt one is
 * renamed aside and reported in state->note, never fatal.  Pure.
 *
 * One state for the workbook and the command line: the grader records every
 * grading of an exercise's own file (`make grade` too), the workbook its
 * lessons read and hints seen. Each save takes .cudalings/state.lock, reads
 * the file again and writes back only the items this process changed, so
 * neither loses the other's; state_reload picks up the other's saves.
 *
 * The file is one object; keys this version does not know are kept:
 *	{"version": 1, "items": {"col_sums": {"status": "failing", "hints": {"correctness": 1},
 *	 "graded": "9f0c…"}}}   (graded: a hash of the file as it was graded)
 */
#ifndef TUI_STATE_H
#define TUI_STATE_H

#include <stdbool.h>
#include <stddef.h>

enum status {
	STATUS_NOT_STARTED,
	STATUS_FAILING,
	STATUS_SIM,		/* correct on the simulator */
	STATUS_GPU,		/* passed on the GPU */
	STATUS_READ,		/* a lesson or demo that was opened */
};

struct state {
	char *path;		/* .../.cudalings/state.json */
	struct cJSON *root;
	struct cJSON *changed;	/* names of the items changed since the last save */
	char *note;		/* what recovery did, for the status line; or NULL */
	long long seen;		/* the file's change time when last read or written, in ns */
};

/* Load the state of the workbook at root. Always succeeds; see state->note. */
void state_load(struct state *st, const char *root);
/* Write the items changed since the last save into the file as it is now, under the lock: temp
 * file, fsync, rename. -1 with error() set on failure. */
int state_save(struct state *st);
/* Read the file again if another process saved it since; true if it did. Unsaved changes are kept. */
bool state_reload(struct state *st);
void state_free(struct state *st);
/*
 * Keep the grader's last report of name (its JSON) in
 * .cudalings/reports/NAME.json, so a later session can show it again.
 * -1 with error() set on failure.
 */
int state_save_report(struct state *st, const char *name, const char *json);
/* The report kept for name, or NULL; you own it. */
char *state_load_report(const struct state *st, const char *name);
/* When the report kept for name was saved (milliseconds since the epoch), or 0 when none is. */
long long state_report_saved(const struct state *st, const char *name);
/* Drop the report kept for name (after a reset it tells of a file gone). */
void state_forget_report(struct state *st, const char *name);

enum status state_status(const struct state *st, const char *name);
void state_set_status(struct state *st, const char *name, enum status s);
/*
 * How many hints of the item the student has seen for a failure at stage
 * ("compile", "correctness", …; "any" with no failure): a hint for one
 * stage is not spent on another.
 */
int state_hints(const struct state *st, const char *name, const char *stage);
void state_set_hints(struct state *st, const char *name, const char *stage, int n);

/* What a grading says of an item: failing, correct on the simulator, passed on the GPU. */
enum status state_status_of(bool pass, const char *backend);
/* Record that `file` (its text, `length` bytes) was graded. */
void state_set_graded(struct state *st, const char *name, const char *text, size_t length);
/* Whether the file at `path` differs from the text last graded for name (false if none was). */
bool state_changed_since_graded(const struct state *st, const char *name, const char *path);

/* "not started", "failing", … as the list shows it. */
const char *status_label(enum status s);
/* Whether the item counts as done for the progress bar. */
bool status_done(enum status s);

#endif
