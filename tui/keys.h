/*
 * keys: the workbook's keys as one table.  What a key does, the help page
 * (`?`) and the key hints in the status bar are all read from it, so they
 * cannot disagree, and a key that is not offered here (the solution, in a
 * student copy) is in none of them.  A new view is opened by an entry with
 * .opens set.
 */
#ifndef TUI_KEYS_H
#define TUI_KEYS_H

#include <stdbool.h>

#include "tui/app.h"

/*
 * Act on a key the top view left alone; false when no key of the table is
 * it (or it is not offered here).
 */
bool keys_run(struct app *a, int key);
/*
 * The status bar's key hints for view v, in at most width columns: the
 * entries its ops->bar names, in order, while they fit.  You own the string.
 */
char *keys_bar(struct app *a, const struct view *v, int width);

#endif
