/*
 * cudalings hint NAME [N]: an exercise's hints for where its last grading
 * failed, one at a time as the workbook's `h` gives them (common/hints.h:
 * a question, then the idea, then the line), counted in the one progress
 * state, so a hint seen here is seen there too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "grader/cmd/command.h"
#include "lib/exit.h"
#include "common/hints.h"
#include "common/root.h"
#include "common/state.h"
#include "lib/util.h"

/* The last grading's verdict, from the report the state keeps; *report stays the caller's to free. */
static struct hint_verdict
last_verdict(const struct state *st, const char *name, cJSON **report, const char ***kinds)
{
	struct hint_verdict v = { 0 };
	char *text = state_load_report(st, name);
	*report = text ? cJSON_Parse(text) : NULL;
	free(text);
	*kinds = NULL;
	if (!*report)
		return v;
	const cJSON *verdict = cJSON_GetObjectItemCaseSensitive(*report, "verdict");
	const cJSON *stage = cJSON_GetObjectItemCaseSensitive(*report, "stage");
	const cJSON *diagnostics = cJSON_GetObjectItemCaseSensitive(*report, "diagnostics"), *d;
	v.graded = cJSON_IsString(verdict);
	v.pass = v.graded && !strcmp(verdict->valuestring, "pass");
	v.stage = cJSON_IsString(stage) ? stage->valuestring : NULL;
	*kinds = xcalloc((size_t)cJSON_GetArraySize(diagnostics) + 1, sizeof(**kinds));
	cJSON_ArrayForEach(d, diagnostics) {
		const cJSON *kind = cJSON_GetObjectItemCaseSensitive(d, "kind");
		if (cJSON_IsString(kind))
			(*kinds)[v.nkinds++] = kind->valuestring;
	}
	v.kinds = *kinds;
	return v;
}

static int
cmd_hint(const struct parsed_args *a)
{
	const char *name = a->operands[0];
	struct exercise *e = command_find_exercise(name, true);
	if (!e)
		return EXIT_USAGE;
	if (!e->file) {
		error("'%s' is a demo: there is nothing to write, so nothing to hint at (cudalings run %s runs it)",
		      name, name);
		return EXIT_USAGE;
	}
	int wanted = 0;
	if (a->noperands > 1) {
		char *end;
		long n = strtol(a->operands[1], &end, 10);
		if (*end || end == a->operands[1] || n < 1 || n > 100)
			return command_usage_error("the hint's number is 1, 2, 3…, not '%s'", a->operands[1]);
		wanted = (int)n;
	}
	struct state st;
	state_load(&st, workbook_root());
	cJSON *report;
	const char **kinds;
	struct hint_verdict v = last_verdict(&st, name, &report, &kinds);
	const char **whens = xcalloc((size_t)e->nhints + 1, sizeof(*whens));
	int *order = xcalloc((size_t)e->nhints + 1, sizeof(*order));
	for (int i = 0; i < e->nhints; i++)
		whens[i] = e->hints[i].when;
	const char *key;
	int n = hints_order(whens, e->nhints, &v, order, &key);
	int shown = state_hints(&st, name, key), status = EXIT_PASS;
	char *path = root_path(e->file);

	if (v.graded && v.pass) {
		printf("%s passes: nothing to hint at\n", name);
	} else if (!n) {
		printf("%s has no hints for this\n", name);
	} else if (wanted > n) {
		status = command_usage_error("%s has %d hint%s for where it fails, not %d", name, n, n == 1 ? "" : "s", wanted);
	} else if (wanted > shown + 1) {
		/* the workbook's rule: a hint at a time, the question before the idea, the idea before the line */
		status = command_usage_error("hints come one at a time: you have seen %d of %d; 'cudalings hint %s' shows hint %d",
				     shown, n, name, shown + 1);
	} else {
		if (!v.graded)
			printf("%s has not been graded yet: these are for a first try (make grade EX=%s)\n", name, name);
		else if (state_changed_since_graded(&st, name, path))
			printf("%s changed since it was graded: grade it again for the hints that fit it now\n", e->file);
		/* without N: every hint seen so far and the next one; with N: that one */
		int next = wanted ? wanted : shown < n ? shown + 1 : n;
		for (int i = wanted ? wanted - 1 : 0; i < next; i++)
			printf("hint %d of %d: %s\n", i + 1, n, e->hints[order[i]].text);
		if (next > shown) {
			state_set_hints(&st, name, key, next);
			if (state_save(&st))
				status = EXIT_ENVIRONMENT;
		} else if (!wanted && shown >= n) {
			printf("that was the last hint for %s\n", name);
		}
	}
	free(path);
	free(order);
	free(whens);
	free(kinds);
	cJSON_Delete(report);
	state_free(&st);
	return status;
}

const struct command command_hint = {
	.name = "hint",
	.operands = "NAME [N]",
	.min_operands = 1,
	.max_operands = 2,
	.missing = "say which exercise, e.g. 'cudalings hint col_sums'",
	.takes = "an exercise and a hint's number",
	.summary = "the next hint for where the last grading failed (a question, the idea, then the line), or hint N",
	.run = cmd_hint,
};
