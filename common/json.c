/* json: cJSON whose allocations and edits cannot fail silently (see json.h). */
#include "common/json.h"

#include <stdlib.h>

#include "lib/exit.h"
#include "lib/util.h"

void
json_init(void)
{
	cJSON_InitHooks(&(cJSON_Hooks){ .malloc_fn = xmalloc, .free_fn = free });
}

bool
json_insert(cJSON *array, int at, cJSON *item)
{
	if (!cJSON_IsArray(array) || !item || at < 0)
		return false;
	int n = cJSON_GetArraySize(array);
	if (at > n)
		at = n;
	/* detach what follows `at`, add the item, add them back in order */
	cJSON *tail = cJSON_CreateArray();
	while (cJSON_GetArraySize(array) > at) {
		cJSON *moved = cJSON_DetachItemFromArray(array, at);
		if (!moved || !cJSON_AddItemToArray(tail, moved))
			die(EXIT_ENVIRONMENT, "cannot edit a JSON array: cJSON refused to move item %d", at);
	}
	bool added = cJSON_AddItemToArray(array, item);
	while (tail->child) {
		cJSON *moved = cJSON_DetachItemFromArray(tail, 0);
		if (!moved || !cJSON_AddItemToArray(array, moved))
			die(EXIT_ENVIRONMENT, "cannot edit a JSON array: cJSON refused to move an item back");
	}
	cJSON_Delete(tail);
	if (added && cJSON_GetArrayItem(array, at) != item) {
		cJSON_DetachItemViaPointer(array, item);
		added = false;
	}
	return added;
}

/* Every string and key of the tree made valid UTF-8. */
static void
make_utf8(cJSON *item)
{
	for (; item; item = item->next) {
		char *fixed;
		if (cJSON_IsString(item) && item->valuestring && (fixed = utf8_escape_invalid(item->valuestring))) {
			cJSON_free(item->valuestring);
			item->valuestring = fixed;
		}
		if (item->string && !(item->type & cJSON_StringIsConst) && (fixed = utf8_escape_invalid(item->string))) {
			cJSON_free(item->string);
			item->string = fixed;
		}
		make_utf8(item->child);
	}
}

char *
json_print(cJSON *item, bool formatted)
{
	if (item) {
		cJSON *next = item->next;
		item->next = NULL; /* this item and what it holds, not its siblings */
		make_utf8(item);
		item->next = next;
	}
	char *text = formatted ? cJSON_Print(item) : cJSON_PrintUnformatted(item);
	return text ? text : xstrdup("null");
}
