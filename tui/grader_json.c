/* grader_json: the grader's JSON read into a verdict and progress events (see grader_json.h). */
#include "tui/grader_json.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

/* A string member, or "" (never NULL), copied. */
static char *
str(const cJSON *obj, const char *key)
{
	const char *s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(obj, key));

	return xstrdup(s ? s : "");
}

static double
num(const cJSON *obj, const char *key)
{
	const cJSON *n = cJSON_GetObjectItemCaseSensitive(obj, key);

	return cJSON_IsNumber(n) ? n->valuedouble : NAN;
}

int
result_parse(const char *json, struct result *r)
{
	cJSON *root = cJSON_Parse(json), *arr, *e;
	const cJSON *t;
	int i;

	memset(r, 0, sizeof(*r));
	if (!cJSON_IsObject(root) || !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(root, "verdict"))) {
		cJSON_Delete(root);
		return error("the grader's report is not the JSON expected (no verdict)");
	}
	r->exercise = str(root, "exercise");
	r->file = str(root, "file");
	r->backend = str(root, "backend");
	r->device = str(root, "device");
	r->verdict = str(root, "verdict");
	r->stage = str(root, "stage");
	r->message = str(root, "message");
	r->note = str(root, "note");
	r->estimate = str(cJSON_GetObjectItemCaseSensitive(root, "estimate"), "text");
	r->compile_output = str(root, "compile_output");
	r->program_output = str(root, "program_output");
	r->performance = str(root, "performance");
	r->tier = str(root, "tier");
	r->pass = !strcmp(r->verdict, "pass");

	arr = cJSON_GetObjectItemCaseSensitive(root, "cases");
	r->cases = xcalloc((size_t)cJSON_GetArraySize(arr), sizeof(*r->cases));
	i = 0;
	cJSON_ArrayForEach(e, arr) {
		struct grade_case *c = &r->cases[i++];
		double mm = num(e, "mismatches");

		c->name = str(e, "name");
		c->passed = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "passed"));
		c->mismatches = isnan(mm) ? 0 : (long)mm;
		c->message = str(e, "message");
	}
	r->ncases = i;

	arr = cJSON_GetObjectItemCaseSensitive(root, "diagnostics");
	r->diags = xcalloc((size_t)cJSON_GetArraySize(arr), sizeof(*r->diags));
	i = 0;
	cJSON_ArrayForEach(e, arr) {
		r->diags[i].kind = str(e, "kind");
		r->diags[i].message = str(e, "message");
		i++;
	}
	r->ndiags = i;

	t = cJSON_GetObjectItemCaseSensitive(root, "timing");
	r->has_timing = cJSON_IsObject(t);
	r->timing = (struct grade_timing){
		num(t, "median_us"), num(t, "threshold_us"), num(t, "reference_us"),
		num(t, "copy_us"), num(t, "gbps"), num(t, "copy_gbps"),
		num(t, "peak_gbps"), num(t, "ratio"), num(t, "threshold_ratio"),
		num(t, "limit_pct"), num(t, "physical_us"), num(t, "gold_us"),
	};
	r->physical = str(t, "physical");
	r->stderr_text = xstrdup("");
	r->elapsed_ms = -1;
	cJSON_Delete(root);
	return 0;
}

void
result_free(struct result *r)
{
	char **strs[] = {
		&r->exercise, &r->file, &r->backend, &r->device, &r->verdict, &r->stage,
		&r->message, &r->note, &r->compile_output, &r->program_output, &r->performance,
		&r->tier, &r->physical, &r->estimate, &r->stderr_text,
	};

	for (size_t i = 0; i < ARRAY_SIZE(strs); i++)
		free(*strs[i]);
	for (int i = 0; i < r->ncases; i++) {
		free(r->cases[i].name);
		free(r->cases[i].message);
	}
	free(r->cases);
	for (int i = 0; i < r->ndiags; i++) {
		free(r->diags[i].kind);
		free(r->diags[i].message);
	}
	free(r->diags);
	memset(r, 0, sizeof(*r));
}

int
event_parse(const char *line, struct grade_event *ev)
{
	cJSON *root;
	const char *type;
	double idx, count;

	memset(ev, 0, sizeof(*ev));
	if (line[strspn(line, " \t")] != '{')
		return -1;
	root = cJSON_Parse(line);
	type = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(root, "event"));
	if (type && !strcmp(type, "stage")) {
		ev->type = EVENT_STAGE;
		ev->stage = str(root, "stage");
		ev->message = str(root, "message");
	} else if (type && !strcmp(type, "case")) {
		ev->type = EVENT_CASE;
		idx = num(root, "index");
		count = num(root, "count");
		ev->index = isnan(idx) ? 0 : (int)idx;
		ev->count = isnan(count) ? 0 : (int)count;
		ev->name = str(root, "name");
		ev->passed = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root, "passed"));
	} else {
		cJSON_Delete(root);
		return -1;
	}
	cJSON_Delete(root);
	return 0;
}

void
event_free(struct grade_event *ev)
{
	free(ev->stage);
	free(ev->message);
	free(ev->name);
	memset(ev, 0, sizeof(*ev));
}
