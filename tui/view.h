/*
 * view: a screen of the TUI.  Each plugs in through a table of operations
 * (one file per view, and a key in keys.c that opens it: adding a view is an
 * entry, not a branch); app.c keeps a stack of them and main.c draws the one
 * on top between the title and status bars.
 */
#ifndef TUI_VIEW_H
#define TUI_VIEW_H

#include <stdbool.h>

#include "tui/doc.h"

struct app;
struct view;

struct view_ops {
	const char *name;	/* shown in the title bar */
	/* (Re)build the content for v->item at the current width. */
	void (*open)(struct view *v);
	/* Draw in rows top..top+height-1. */
	void (*draw)(struct view *v, int top, int height);
	/* Act on a key; false leaves it to the global keys. */
	bool (*key)(struct view *v, int key);
	/* The keys the status bar offers here, by name in keys.c's table, most wanted first. */
	const char *bar;
	/* Whether it shows one item (its title goes in the title bar). */
	bool per_item;
};

struct view {
	const struct view_ops *ops;
	struct app *app;	/* what it shows is the app's */
	int item;		/* the workbook item it shows */
	struct doc doc;		/* pagers: the laid-out content */
	int top;		/* pagers: first line shown (or past the end: the last page); the list: first row */
	double keep;		/* pagers, after a resize: top as a fraction of the lines */
	bool keeping;
	int width;		/* the width doc was laid out at; 0 to re-open */
	int height;		/* rows it had when last drawn */
	int rows;		/* the list: rows of items it showed */
	char where[32];		/* pagers: how far down, "42%", for the status bar */
};

extern const struct view_ops list_ops, lesson_ops, results_ops, solution_ops, help_ops;
/* heat.c, machine.c: where the memory time goes, and the machine code, line by line */
extern const struct view_ops heat_ops, machine_ops;

/* Pagers: draw doc from v->top; scroll keys (j/k, arrows, PgUp/PgDn, space, g/G, Home/End). */
void pager_draw(struct view *v, int top, int height);
bool pager_key(struct view *v, int key);
/* Lay out Markdown in v at the screen's width, replacing what it held. */
void pager_markdown(struct view *v, const char *md);
/* Start v's doc afresh at the screen's width; returns the width to lay out at. */
int pager_reset(struct view *v);

#endif
