/*
 * The heat map of `cudalings grade --lines`: per source line of the
 * student's file, the memory requests its instructions made (sectors per
 * request against the fewest the bytes need, bank conflicts per request,
 * bytes moved) and which lines waste the most. The figures come from the
 * simulator's instrumentation (sim/lines.c) or from Nsight Compute's
 * source counters; this module holds them, decides which lines are hot,
 * and shows them as annotated source and as JSON.
 */
#ifndef CUDALINGS_LINES_H
#define CUDALINGS_LINES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <cjson/cJSON.h>

#include "grader/result.h"

/* The simulator's figures of one case (sim/lines.c through the runner); a malformed entry is skipped. */
void lines_add_proto(struct line_map *m, const void *payload, size_t length);

/*
 * Nsight Compute's source page (`ncu --import R --page source --print-source
 * cuda,sass --csv`): every SASS row under a CUDA line of a file that is one
 * of `paths` (NULL-terminated; matched as the same file, or by its path's
 * end) goes to that line, named `display`. Returns the SASS rows taken, or
 * -1 when the text holds no source page.
 */
int lines_parse_ncu(struct line_map *m, const char *csv, const char *const *paths, const char *display);
/* Whether a tool's name for a file is one of `paths` (the same file, or the same path's end). */
bool lines_same_file(const char *reported, const char *const *paths);

/*
 * After the figures are in: read `path` (the student's file, as graded;
 * named `display`) for the lines' text, work out shares and the hot lines,
 * and put the lines in order.
 */
void lines_finish(struct line_map *m, const char *display, const char *path);

/* Say why nothing was measured (takes `why`), unless something was. */
void lines_not_measured(struct line_map *m, char *why);

/* The annotated source, hot lines marked, at most 80 columns wide. */
void lines_print_text(FILE *out, const struct line_map *m, bool color);
/* The `lines` list of the JSON report (an empty list when nothing was measured); you own it. */
cJSON *lines_json(const struct line_map *m);
/* The figures of a kept report (its `lines` and `lines_measured`), the graded file's lines named `display`;
 * lines_finish comes after. */
void lines_from_json(struct line_map *m, const cJSON *report, const char *display);
/* Add `lines` and `lines_measured` (what was measured, or why not) to the report o. */
void lines_add_json(cJSON *o, const struct line_map *m);
/* The figures of line `line` of `file`, or NULL (for the machine code listing beside the lines). */
const struct line_figures *lines_find(const struct line_map *m, const char *file, int line);
/* One short phrase of a line's figures, e.g. "global load 4.0 sectors/req (4.0 needed), 50% of bytes". */
char *lines_summary(const struct line_figures *l, const struct line_map *m);
void lines_release(struct line_map *m);

/* For lines.c and lines_report.c, which share the map: the entry of file:line, made when new (NULL past
   the most lines kept), and an access added to a line's figures. */
struct line_figures *lines_at(struct line_map *m, const char *file, int line);
void lines_add_access(struct line_figures *l, int kind, uint64_t requests, uint64_t units, uint64_t ideal);
static inline bool
lines_kind_is_shared(int k)
{
	return k == LINE_SHARED_LOAD || k == LINE_SHARED_STORE;
}
static inline bool
lines_kind_is_local(int k)
{
	return k == LINE_LOCAL_LOAD || k == LINE_LOCAL_STORE;
}
/* Line `n` (from 1) of `text`, as a new string you own; NULL past the end. */
char *lines_text_line(const char *text, int n);

#endif
