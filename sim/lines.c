/*
 * lines.c — where in the source the memory requests go: every request that
 * check.c counts (a warp at one instruction: its sectors or wavefronts, and
 * the fewest the same bytes could take), summed per instruction, then per
 * source line when the runner takes them, for the grader's heat map
 * (`cudalings grade --lines`). Costs a look-up in a small table per request.
 *
 * Layer 5: calls symbols.c.
 */
#include "sim.h"

#define LINE_PCS 512	/* instructions followed; a kernel has far fewer memory instructions */

static struct pc_sum {
	uintptr_t pc;
	bool shared, write;
	unsigned long long requests, units, ideal;
} pcs[LINE_PCS];
static int npcs, last;

void
sim_lines_request(const struct sim_access *first, unsigned units, unsigned ideal)
{
	int i = last < npcs && pcs[last].pc == first->pc && pcs[last].write == first->write ? last : 0;

	for (; i < npcs && (pcs[i].pc != first->pc || pcs[i].write != first->write); i++)
		;
	if (i == LINE_PCS)
		return;
	if (i == npcs)
		pcs[npcs++] = (struct pc_sum){ first->pc, first->shared, first->write, 0, 0, 0 };
	pcs[i].requests++;
	pcs[i].units += units;
	pcs[i].ideal += ideal;
	last = i;
}

static int
by_units(const void *a, const void *b)
{
	const struct cudasimLine *x = a, *y = b;

	return (x->units < y->units) - (x->units > y->units);
}

int
cudasimTakeLines(struct cudasimLine *out, int max)
{
	int n = 0;

	for (int i = 0; i < npcs; i++) {
		char where[sizeof(out->where)];
		int k;

		sim_pc_line(pcs[i].pc, where, sizeof(where));
		/* the instructions of one line, or of one kind on it, make one entry */
		for (k = 0; k < n && (strcmp(out[k].where, where) || out[k].shared != pcs[i].shared ||
				      out[k].write != pcs[i].write); k++)
			;
		if (k == n) {
			if (n == max)
				continue;
			memset(&out[n], 0, sizeof(out[n]));
			memcpy(out[n].where, where, sizeof(where));
			out[n].shared = pcs[i].shared;
			out[n].write = pcs[i].write;
			n++;
		}
		out[k].requests += pcs[i].requests;
		out[k].units += pcs[i].units;
		out[k].ideal += pcs[i].ideal;
	}
	qsort(out, (size_t)n, sizeof(*out), by_units);
	npcs = last = 0;
	return n;
}
