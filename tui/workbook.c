/* workbook: finding the workbook and reading `cudalings list --json` (see workbook.h). */
#include "tui/workbook.h"

#include <cjson/cJSON.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/root.h"
#include "lib/util.h"

static char *
str_or_null(const cJSON *obj, const char *key)
{
	const char *s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(obj, key));

	return s && *s ? xstrdup(s) : NULL;
}

int
workbook_parse(const char *json, struct workbook *wb)
{
	cJSON *root = cJSON_Parse(json), *items, *e, *h;
	int i = 0;

	memset(wb, 0, sizeof(*wb));
	items = cJSON_GetObjectItemCaseSensitive(root, "items");
	if (!cJSON_IsArray(items)) {
		cJSON_Delete(root);
		return error("the workbook list is not the JSON expected (no items)");
	}
	wb->root = str_or_null(root, "workbook");
	wb->items = xcalloc((size_t)cJSON_GetArraySize(items), sizeof(*wb->items));
	cJSON_ArrayForEach(e, items) {
		struct item *it = &wb->items[i];
		const cJSON *order = cJSON_GetObjectItemCaseSensitive(e, "order");
		cJSON *hints = cJSON_GetObjectItemCaseSensitive(e, "hints");
		int k = 0;

		it->name = str_or_null(e, "name");
		if (!it->name)
			continue;	/* nothing to show or grade without a name */
		it->kind = str_or_null(e, "kind");
		if (!it->kind)
			it->kind = xstrdup("exercise");
		it->title = str_or_null(e, "title");
		if (!it->title)
			it->title = xstrdup(it->name);
		it->file = str_or_null(e, "file");
		it->solution = str_or_null(e, "solution");
		/* the student copy names the solutions it does not ship: the grader says which are here */
		if (cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(e, "has_solution"))) {
			free(it->solution);
			it->solution = NULL;
		}
		it->lesson = str_or_null(e, "lesson");
		it->order = cJSON_IsNumber(order) ? order->valueint : i + 1;
		it->hints = xcalloc((size_t)cJSON_GetArraySize(hints), sizeof(*it->hints));
		cJSON_ArrayForEach(h, hints) {
			char *text = cJSON_IsString(h) ? xstrdup(h->valuestring) : str_or_null(h, "text");

			if (!text)
				continue;
			it->hints[k].text = text;
			it->hints[k].when = cJSON_IsString(h) ? NULL : str_or_null(h, "when");
			if (!it->hints[k].when)
				it->hints[k].when = xstrdup("fail");
			k++;
		}
		it->nhints = k;
		i++;
	}
	wb->n = i;
	cJSON_Delete(root);
	return 0;
}

void
workbook_free(struct workbook *wb)
{
	for (int i = 0; i < wb->n; i++) {
		struct item *it = &wb->items[i];

		free(it->name);
		free(it->kind);
		free(it->title);
		free(it->file);
		free(it->solution);
		free(it->lesson);
		for (int k = 0; k < it->nhints; k++) {
			free(it->hints[k].when);
			free(it->hints[k].text);
		}
		free(it->hints);
	}
	free(wb->items);
	free(wb->root);
	memset(wb, 0, sizeof(*wb));
}

int
workbook_find(const struct workbook *wb, const char *name)
{
	for (int i = 0; name && i < wb->n; i++)
		if (!strcmp(wb->items[i].name, name))
			return i;
	return -1;
}
