/*
 * budget: the names of the budgets an exercise may set, with the diagnosis
 * each one's excess makes; declared in budget.h.
 */
#include "grader/exercise/budget.h"

#include <string.h>

#include "lib/util.h"

/*
 * Sectors and bank conflicts cost time wherever they occur. Repeated global reads do not: the L1
 * cache absorbs them (bench/budgets-vs-gpu.md: seven reads per output ran at 0.80x the tiled
 * reference on an H100), so the simulator, which stands in for the GPU's clock, only advises.
 */
static const struct budget_kind budget_kinds[] = {
	{ "sectors_per_request", "uncoalesced", false },
	{ "bank_conflicts_per_request", "bank_conflicts", false },
	{ "global_reads_per_thread", "global_reads", true },
	{ "global_reads_per_output", "global_reads", true },
};

const struct budget_kind *
budget_kind_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(budget_kinds); i++)
		if (!strcmp(budget_kinds[i].name, name))
			return &budget_kinds[i];
	return NULL;
}
