/* cudalings list: the lessons and exercises in order, as text or JSON (the workbook reads the JSON). */
#include <stdio.h>

#include <cjson/cJSON.h>

#include "grader/cmd/command.h"
#include "lib/exit.h"
#include "grader/engine/report.h"
#include "common/root.h"

static const struct option_spec options[] = {
	OPT_SWITCH("json", "one JSON object: the workbook's title and every item with its files and hints"),
	OPTIONS_END,
};

static int
list_json(const struct manifest *m)
{
	cJSON *o = cJSON_CreateObject(), *items;
	cJSON_AddStringToObject(o, "workbook", workbook_root());
	cJSON_AddStringToObject(o, "title", m->title);
	items = cJSON_AddArrayToObject(o, "items");
	for (int i = 0; i < m->count; i++) {
		const struct exercise *e = &m->items[i];
		cJSON *j = cJSON_CreateObject();
		cJSON_AddStringToObject(j, "name", e->name);
		cJSON_AddStringToObject(j, "kind", manifest_item_kind_name(e->kind));
		cJSON_AddStringToObject(j, "title", e->title);
		cJSON_AddNumberToObject(j, "order", i + 1);
		cJSON_AddItemToObject(j, "file", e->file ? cJSON_CreateString(e->file) : cJSON_CreateNull());
		cJSON_AddItemToObject(j, "solution", e->solution ? cJSON_CreateString(e->solution) : cJSON_CreateNull());
		cJSON_AddBoolToObject(j, "has_solution", manifest_item_solution_present(e));
		cJSON_AddStringToObject(j, "lesson", e->lesson);
		cJSON *hints = cJSON_AddArrayToObject(j, "hints");
		for (int h = 0; h < e->nhints; h++) {
			cJSON *hint = cJSON_CreateObject();
			cJSON_AddStringToObject(hint, "when", e->hints[h].when);
			cJSON_AddStringToObject(hint, "text", e->hints[h].text);
			cJSON_AddItemToArray(hints, hint);
		}
		cJSON_AddItemToArray(items, j);
	}
	report_print_json(stdout, o);
	cJSON_Delete(o);
	return EXIT_PASS;
}

static int
cmd_list(const struct parsed_args *a)
{
	struct manifest *m = command_manifest();
	if (options_given(a, "json"))
		return list_json(m);
	for (int i = 0; i < m->count; i++) {
		const struct exercise *e = &m->items[i];
		printf("%2d  %-16s %-9s %s\n", i + 1, e->name, manifest_item_kind_name(e->kind), e->title);
	}
	return EXIT_PASS;
}

const struct command command_list = {
	.name = "list",
	.summary = "the lessons and exercises in order",
	.run = cmd_list,
	.options = options,
};
