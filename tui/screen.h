/*
 * screen: the curses side.  Starts and ends curses, maps doc styles to colours
 * and attributes, draws text clipped to a width, asks questions on the
 * bottom line, and makes sure a fatal error or a signal leaves the terminal
 * as it found it.
 */
#ifndef TUI_SCREEN_H
#define TUI_SCREEN_H

#include <stdbool.h>
#include <stddef.h>

#include "tui/doc.h"

/* Whether the text is shown in ASCII (no UTF-8 locale) and in colour (NO_COLOR unset). */
extern bool screen_ascii, screen_color;
/* The signal that asked us to stop (SIGINT, SIGTERM), or 0. */
extern volatile int screen_stop_signal;

void screen_init(void);
/* Leave curses mode; safe to call twice. */
void screen_exit(void);
/* Leave curses for a program that wants the terminal, and come back. */
void screen_suspend(void);
void screen_resume(void);

int screen_attr(unsigned style);
/* Draw text at (y, x) in at most maxw columns; returns the columns used. */
int screen_text(int y, int x, int maxw, const char *text, int attr);
/* The same, ending in "…" where the text is wider than maxw. */
int screen_text_cut(int y, int x, int maxw, const char *text, int attr);
/* Draw one doc line from column x; returns the columns used. */
int screen_doc_line(int y, int x, int maxw, const struct doc_line *l);
/* Fill row y with attr and put left and right on it. */
void screen_bar(int y, const char *left, const char *right, int attr);

/* Ask on the bottom line; true for y (false, too, when the terminal is gone or a signal stops us). */
bool screen_confirm(const char *question);
/* Read a line on the bottom line into buf; false when cancelled with Esc, the terminal gone or a signal. */
bool screen_prompt(const char *prompt, char *buf, size_t size);

#endif
