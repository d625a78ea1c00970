/*
 * actions: what the workbook's keys start, on the session they are given:
 * edit, grade (and its end), watch, hints, the solution, reset, moving
 * through the course, going back.  They reach the rest of the program only
 * through app.h (and the views' ops, to show one).
 */
#ifndef TUI_ACTIONS_H
#define TUI_ACTIONS_H

#include <stdbool.h>

#include "tui/app.h"

void action_edit(struct app *a);
/* Grade the current exercise (or run the demo) and show the results. */
void action_grade(struct app *a);
/* Stop a grading under way (Esc, or the workbook quitting): nothing of it is left running. */
void action_cancel(struct app *a);
/* Take in the grading's progress; at its end, record and show the verdict. */
void action_grade_pump(struct app *a);
void action_watch_toggle(struct app *a);
/* A save in watch mode: grade once the editor has been quiet for a moment. */
void action_watch_event(struct app *a);
void action_hint(struct app *a);
void action_solution(struct app *a);
void action_reset(struct app *a);
/* To the next (delta 1) or previous (-1) item; from a page, to its lesson. */
void action_move(struct app *a, int delta);
/* Between the lesson and the results of the item (Tab). */
void action_switch(struct app *a);
/* Close the top view; on the list, quit when quit is set. */
void action_back(struct app *a, bool quit);
/* Cancel the grading under way, else close the top view. */
void action_escape(struct app *a);

#endif
