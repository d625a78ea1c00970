/*
 * batch_report: a student's row recorded and said: the row's file, its
 * gradebook line (the whole gradebook again when this process keeps it), a
 * line per student and, on a terminal, the progress bar.
 */
#include "grader/batch/batch_state.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grader/batch/batch_rows.h"
#include "lib/exit.h"
#include "lib/util.h"

#define BAR_WIDTH 30

const char *const batch_slot_names[BATCH_SLOTS] = { "pass", "compile", "run", "correctness", "performance",
							 "submission", "error" };

/* The summary's slot of a verdict and stage: a stage it does not know (the grader's "error") is the last. */
static int
stage_slot(const char *verdict, const char *stage)
{
	if (!strcmp(verdict, "pass"))
		return 0;
	for (int i = 1; i < BATCH_SLOTS - 1; i++)
		if (stage && !strcmp(stage, batch_slot_names[i]))
			return i;
	return BATCH_SLOTS - 1;
}

void
batch_remember_row(struct batch *b, struct submission *s, const cJSON *row)
{
	free(s->csv);
	/* late by this run's deadline, whatever the row was graded under (none: nobody is late) */
	cJSON *view = cJSON_Duplicate(row, true);
	if (!view)
		die(EXIT_ENVIRONMENT, "cannot copy the row of '%s'", s->student);
	if (b->o->deadline > 0 && s->submitted >= 0)
		batch_row_mark_time(view, s->submitted, s->submitted_from, s->submitted > b->o->deadline);
	else
		cJSON_DeleteItemFromObjectCaseSensitive(cJSON_GetObjectItemCaseSensitive(view, "batch"), "late");
	s->csv = batch_csv_row(b->e, s->student, view);
	cJSON_Delete(view);
	s->final = batch_row_final(row);
	s->attempts = batch_row_attempts(row);
	s->slot = stage_slot(batch_row_text(row, "verdict", "fail"), batch_row_text(row, "stage", NULL));
	s->resubmitted = s->resubmitted || batch_row_resubmitted(row);
}

int
batch_save_gradebook(const struct batch *b)
{
	/* the class as it is, then who has a row but is gone from the folder */
	char **lines = xcalloc((size_t)(b->count + b->nwithdrawn) + 1, sizeof(*lines));
	for (int i = 0; i < b->count; i++)
		lines[i] = b->subs[i].csv;
	for (int i = 0; i < b->nwithdrawn; i++)
		lines[b->count + i] = b->withdrawn[i];
	int status = batch_gradebook_save(b->o->out, lines, b->count + b->nwithdrawn);
	free(lines);
	return status;
}

int
batch_running(const struct batch *b)
{
	int n = 0;
	for (int i = 0; i < b->nlanes; i++)
		n += b->lanes[i].busy;
	return n;
}

void
batch_draw_bar(const struct batch *b)
{
	if (!b->tty)
		return;
	int done = b->graded + b->resumed, filled = b->count ? BAR_WIDTH * done / b->count : 0;
	fprintf(stdout, "\r\033[K[");
	for (int i = 0; i < BAR_WIDTH; i++)
		fputs(i < filled ? "#" : ".", stdout);
	int elapsed = (int)(now_seconds() - b->started);
	fprintf(stdout, "] %d/%d  %d grading  %d:%02d", done, b->count, batch_running(b), elapsed / 60, elapsed % 60);
	fflush(stdout);
}

/* Record a row, and say so: one line per student; on a terminal above the bar, drawn again. */
int
batch_record(struct batch *b, int index, cJSON *grade, bool final, double seconds)
{
	struct submission *s = &b->subs[index];
	struct row_stamp stamp = { .final = final, .seconds = seconds, .attempts = s->attempts + 1, .by = b->by,
				   .content_hash = s->path ? s->hash : NULL, .resubmitted = s->resubmitted,
				   .link = s->link, .submitted = s->submitted, .submitted_from = s->submitted_from,
				   .late = s->submitted >= 0 && b->o->deadline > 0 && s->submitted > b->o->deadline };
	if (batch_row_write(b->o->out, b->e, s->student, grade, &stamp))
		return 3;
	batch_remember_row(b, s, grade);
	b->graded++;
	if (b->gradebook && batch_save_gradebook(b))
		return 3;
	const char *verdict = batch_row_text(grade, "verdict", "fail"), *stage = batch_row_text(grade, "stage", NULL);
	if (b->tty)
		fputs("\r\033[K", stdout);
	char *message = xstrdup(batch_row_text(grade, "message", ""));
	message[strcspn(message, "\n")] = 0;
	if (strlen(message) > 100) {
		size_t cut = 97;
		while (cut > 0 && (message[cut] & 0xc0) == 0x80)
			cut--; /* never inside a character */
		strcpy(message + cut, "...");
	}
	char *outcome = strcmp(verdict, "pass") ? xasprintf("fail at %s", stage ? stage : "error") : xstrdup("pass");
	/* padded by characters, not bytes: "jérôme" lines up with "jerome" */
	size_t columns = utf8_columns(s->student);
	printf("[%d/%d] %s%*s %-22s %3.0f s  %s%s\n", b->graded + b->resumed, b->count, s->student,
	       columns < 20 ? (int)(20 - columns) : 0, "", outcome,
	       seconds < 0 ? 0 : seconds, message, final ? "" : " (not final: the next run grades it again)");
	free(outcome);
	free(message);
	batch_draw_bar(b);
	fflush(stdout);
	return 0;
}
