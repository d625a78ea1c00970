/*
 * app: what the whole TUI shares: the workbook, the progress, the grading
 * under way, the watch, the views; and the actions the keys start.
 */
#ifndef TUI_APP_H
#define TUI_APP_H

#include <stdbool.h>

#include "grade.h"
#include "result.h"
#include "common/state.h"
#include "view.h"
#include "watch.h"
#include "workbook.h"

#define MAX_VIEWS 8

struct app {
	struct workbook wb;
	struct state state;
	char *grader;		/* the cudalings program */
	int cur;		/* the item the student is on */
	struct grade_result **results;	/* per item, the last verdict, or NULL: use app_result() */
	bool *looked;		/* per item, whether a kept report was looked for */
	struct demo_run {
		char *output;	/* what it printed; NULL when not run this session */
		int status;
	} *runs;		/* per item, for demos */
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
};

extern struct app app;

struct view *app_view(void);
/* Show a view of ops for the current item: reuse it if it is open, else push it. */
void app_show(const struct view_ops *ops);
/* Close the top view; the list is never closed. */
void app_close(void);
/* Re-lay out the views that show item (or every view when item is -1). */
void app_refresh(int item);
void app_message(unsigned style, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const struct item *app_item(int i);
/* The last verdict on item i: this session's, or one kept from an earlier one; or NULL. */
struct grade_result *app_result(int i);
/* The status of item i as the list shows it. */
const char *app_status_label(int i);
char *app_path(const char *rel);
/* The text of a workbook file (rel to the root), or NULL with errno set; you own it. */
char *app_read(const char *rel);

/* actions.c: what the keys do */
void action_edit(void);
void action_grade(void);
void action_cancel(void);
void action_grade_pump(void);
void action_watch_toggle(void);
void action_watch_event(void);
void action_hint(void);
void action_solution(void);
void action_reset(void);
void action_move(int delta);

#endif
