/*
 * json: cJSON as the project uses it, with no silent failure. json_init()
 * makes every cJSON allocation go through xmalloc (running out of memory
 * is then an environment error, exit 3, never a missing key), and the
 * edits cJSON can refuse for other reasons are wrapped here and checked.
 */
#ifndef COMMON_JSON_H
#define COMMON_JSON_H

#include <stdbool.h>
#include <cjson/cJSON.h>

/* Call once, first thing in main(), before any cJSON call. */
void json_init(void);

/*
 * Put `item` at position `at` of `array` (0: first; past the end: last).
 * Debian's cJSON 1.7.15 refuses cJSON_InsertItemInArray in the middle of
 * an array, so the tail is detached and added back. On success `array`
 * owns `item`; on failure (false) nothing changed and you still own it.
 */
bool json_insert(cJSON *array, int at, cJSON *item);

/*
 * The text of `item` (formatted, or on one line), valid UTF-8 whatever
 * bytes its strings held: cJSON copies them as they are, and a file name in
 * Latin-1 made JSON that parsers reject. Invalid bytes become \xNN in the
 * tree itself (utf8_escape_invalid). You own the result.
 */
char *json_print(cJSON *item, bool formatted);

#endif
