/*
 * app: the workbook session that the loop, the actions and the views share:
 * the workbook and its progress, the last verdicts, the grading under way,
 * the watch, the stack of views and the message for the status bar.  The
 * one interface the actions and the views are given; it calls none of them,
 * so the files of tui/ depend on each other in one direction:
 *	main -> keys -> actions -> app <- views
 */
#ifndef TUI_APP_H
#define TUI_APP_H

#include <stdbool.h>

#include "tui/grade.h"
#include "tui/grader_json.h"
#include "common/state.h"
#include "tui/view.h"
#include "tui/watch.h"
#include "tui/workbook.h"

#define MAX_VIEWS 8

struct app {
	struct workbook wb;
	struct state state;
	char *grader;		/* the cudalings program */
	int cur;		/* the item the student is on */
	struct result **results;	/* per item, the last verdict, or NULL: use app_result() */
	bool *looked;		/* per item, whether a kept report was looked for */
	struct demo_run {
		char *output;	/* what it printed; NULL when not run this session */
		int status;
	} *runs;		/* per item, for demos */
	bool solutions;		/* some exercise's solution is here to show (not in a student copy) */
	struct grading grading;
	int grading_item;	/* -1 when none runs */
	struct watch watch;
	int watch_item;
	long long watch_due;	/* when to grade after a save, or 0 */
	struct view views[MAX_VIEWS];
	int nviews;
	char message[512];	/* for the status bar until the next key */
	unsigned message_style;
	bool quit;
	long long started;	/* when this session began (ms since the epoch): older reports are an earlier one's */
};

/*
 * Start the session for the workbook wb (taken over) graded by grader (copied):
 * its progress loaded, the list open on the first item not done.
 */
void app_init(struct app *a, struct workbook *wb, const char *grader, const struct view_ops *list);
/* Stop what runs (a grading, the watch) and free everything. */
void app_free(struct app *a);

struct view *app_view(struct app *a);
/* Show a view of ops for the current item: reuse it if it is open, else push it. */
void app_show(struct app *a, const struct view_ops *ops);
/* Close the top view; the list is never closed. */
void app_close(struct app *a);
/* Re-lay out the views that show item (or every view when item is -1). */
void app_refresh(struct app *a, int item);
void app_message(struct app *a, unsigned style, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
const struct item *app_item(const struct app *a, int i);
/* Whether item i is an exercise with a file to edit and grade. */
bool app_is_exercise(const struct app *a, int i);
/* The last verdict on item i: this session's, or one kept from an earlier one; or NULL. */
struct result *app_result(struct app *a, int i);
/* Replace the verdict on item i by r (taken over; NULL forgets it). */
void app_set_result(struct app *a, int i, struct result *r);
/* Another process saved the progress: the reports kept are read again when next shown. */
void app_forget_results(struct app *a);
/* The status of item i as the list shows it; short: in a dozen columns. */
const char *app_status_label(struct app *a, int i, bool short_form);
/* Whether item i's file differs from the text last graded (false while it is being graded). */
bool app_changed_since_graded(struct app *a, int i);
/* A workbook path (relative to the root) made absolute; you own it. */
char *app_path(const struct app *a, const char *rel);
/* The text of a workbook file (rel to the root), or NULL with errno set; you own it. */
char *app_read(const struct app *a, const char *rel);

#endif
