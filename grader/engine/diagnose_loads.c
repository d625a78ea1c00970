/*
 * diagnose_loads: the "slow" diagnosis of a kernel whose memory figures
 * are clean on a GPU, from the machine code (grader/sass/sass_loads.c):
 * fewer global loads in flight than the reference's, or one at a time in a
 * loop the compiler did not unroll. Declared in diagnose.h.
 */
#include "grader/engine/diagnose.h"

#include <stdlib.h>
#include <string.h>

#include "grader/engine/verdict.h"
#include "grader/exercise/manifest.h"
#include "grader/sass/sass_loads.h"
#include "common/root.h"
#include "lib/util.h"

void
diagnose_slow_loads(struct grade_result *r, const struct exercise *e, const char *path)
{
	if (!e->solution || !manifest_item_solution_present(e))
		return;
	struct loads_in_flight mine, reference;
	char *solution = root_path(e->solution);
	bool known = sass_loads_measure(e, path, &mine) && sass_loads_measure(e, solution, &reference);
	free(solution);
	/* fewer loads in flight than the reference's, or one at a time in a loop the reference unrolls (its
	   guarded loads may still wait each for its own branch, but its code holds more of them) */
	bool serial_loop = mine.together == 1 && mine.in_loop && reference.loads > mine.loads;
	if (!known || (mine.together >= reference.together && !serial_loop))
		return;
	int at = -1;
	for (int i = 0; i < r->ndiagnostics && at < 0; i++)
		if (!strcmp(r->diagnostics[i].kind, "slow"))
			at = i;
	if (at < 0 && !diagnose_add(r, "slow", xstrdup("")))
		return;
	if (at < 0)
		at = r->ndiagnostics - 1;
	struct diagnostic *d = &r->diagnostics[at];
	/* the figures Nsight Compute measured stay; the causes it could not tell apart give way to this one */
	char *figures = *d->message ? xasprintf("%.*s: the accesses are coalesced and free of bank conflicts; ",
						 (int)strcspn(d->message, ":"), d->message) : xstrdup("");
	char *where = mine.line > 0 ? xasprintf(" (line %d)", mine.line) : xstrdup("");
	/* Nsight Compute counted the load instructions each thread executed, where it measured */
	double executed = r->figures.measured ? r->figures.global_reads_per_thread : -1;
	char *count = executed > mine.loads + 0.5 ? xasprintf("%.0f global loads, ", executed) : xstrdup("its global loads ");
	free(d->message);
	if (mine.together == 1 && mine.in_loop)
		d->message = xasprintf(
			"%sthe machine code shows where the time goes: each thread issues %sone at a time%s: the "
			"loop around them is not unrolled (%d load instruction%s in your kernel, %d in the reference's, "
			"which has up to %d in flight together), and each load is used before the next is issued. A loop "
			"whose step the compiler cannot know (blockDim.y, say) is not unrolled; with a constant step it "
			"is, and its loads go out together",
			figures, count, where, mine.loads, mine.loads == 1 ? "" : "s", reference.loads, reference.together);
	else
		d->message = xasprintf(
			"%sthe machine code shows where the time goes: each thread has at most %d global load%s in "
			"flight%s, where the reference's threads have %d together: a thread that issues several loads "
			"before it uses the first hides their latency",
			figures, mine.together, mine.together == 1 ? "" : "s", where, reference.together);
	d->line = mine.line;
	if (!d->file && mine.line > 0)
		d->file = xstrdup(r->file);
	/* a loop not unrolled is the cause: first, with its hint, not the stage's about threads; fewer loads
	   without a loop (one element a thread) is what the stage's hints are about, and they stay */
	if (mine.together == 1 && mine.in_loop) {
		struct diagnostic slow = *d;
		memmove(&r->diagnostics[1], &r->diagnostics[0], sizeof(*d) * (size_t)at);
		r->diagnostics[0] = slow;
		const char *hint = verdict_hint(e, "slow");
		if (hint)
			r->hint = hint;
	}
	free(count);
	free(where);
	free(figures);
}
