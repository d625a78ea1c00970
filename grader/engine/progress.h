/*
 * progress: what a grading says while it runs, before its verdict. For the
 * workbook (--progress), JSON lines on stderr; on a terminal, one line of
 * stderr rewritten in place (the stage, then each case as it ends), cleared
 * before the report; anywhere else, nothing, so a log holds no control codes.
 */
#ifndef CUDALINGS_PROGRESS_H
#define CUDALINGS_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>

enum progress_mode {
	PROGRESS_NONE,
	PROGRESS_JSON, /* --progress: one event a line, for the workbook */
	PROGRESS_LINE, /* stderr is a terminal: one line, rewritten */
};

/* The mode a grading uses: JSON when asked for, the line on a terminal (not TERM=dumb), else none. */
enum progress_mode progress_choose(bool json_asked);

/* A stage begins: compile, link, run, timing; message is plain text. */
void progress_stage(enum progress_mode m, const char *stage, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A stage's message as sent by the measuring process: length bytes, not NUL-terminated. */
void progress_stage_text(enum progress_mode m, const char *stage, const char *text, size_t length);
/* Case index (from 1) of count begins (said on a terminal only: the workbook shows cases as they end). */
void progress_case_begin(enum progress_mode m, int index, int count, const char *name);
/* Case index (from 1) of count ended. */
void progress_case(enum progress_mode m, int index, int count, const char *name, bool passed);
/* The grading is over: the line is cleared, for the report (or a message) to take its place. */
void progress_clear(enum progress_mode m);
/* Ctrl-C: the line cleared and "interrupted" said; safe in a signal handler. */
void progress_interrupted(void);

#endif
