/* Telling the student: the text report, and the JSON one for the TUI and scripts. */
#ifndef CUDALINGS_REPORT_H
#define CUDALINGS_REPORT_H

#include <stdio.h>
#include <cjson/cJSON.h>
#include "grader/result.h"

void report_text(FILE *out, const struct grade_result *r, bool color);
/* A demo with timing_ways: its kernel timed each way, the right figure first (on the simulator, the ways
 * it would time and why, without figures). */
void report_timing_ways(FILE *out, const struct exercise *e, const struct grade_result *r);
/* text folded at a space to `width` columns (UTF-8 counted as characters), each line behind prefix */
void report_folded(FILE *out, const char *text, const char *prefix, int width);
/* The grade as DESIGN.md's output contract describes it; you own the object. */
cJSON *report_json(const struct grade_result *r);
void report_print_json(FILE *out, cJSON *json);

#endif
