/*
 * diagnose_memory: how the student's kernels used memory, in the lessons'
 * terms — the simulator's or Nsight Compute's counts made into figures
 * (sectors per request, bank conflicts, global reads per thread and per
 * output), judged against the exercise's budgets, and the "slow" diagnosis
 * of a kernel that meets them all. Declared in diagnose.h.
 */
#include "grader/engine/diagnose.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "grader/exercise/budget.h"
#include "grader/exercise/manifest.h"

/* A figure within budget × BUDGET_SLACK + BUDGET_MARGIN passes: edge tiles,
 * part-filled warps and rows that do not start on a sector boundary cost a
 * little more than the interior of a big matrix. */
#define BUDGET_SLACK 1.25
#define BUDGET_MARGIN 0.5

void
diagnose_counts_add(struct proto_counts *sum, const struct proto_counts *c)
{
	sum->threads += c->threads;
	sum->global_loads += c->global_loads;
	sum->global_stores += c->global_stores;
	sum->load_requests += c->load_requests;
	sum->load_sectors += c->load_sectors;
	sum->store_requests += c->store_requests;
	sum->store_sectors += c->store_sectors;
	sum->shared_requests += c->shared_requests;
	sum->shared_wavefronts += c->shared_wavefronts;
	sum->load_ideal += c->load_ideal;
	sum->store_ideal += c->store_ideal;
	sum->shared_ideal += c->shared_ideal;
	sum->load_bytes += c->load_bytes;
	sum->outputs += c->outputs;
	if (c->global_excess > sum->global_excess) {
		sum->global_excess = c->global_excess;
		memcpy(sum->global_where, c->global_where, sizeof(sum->global_where));
	}
	if (c->shared_excess > sum->shared_excess) {
		sum->shared_excess = c->shared_excess;
		memcpy(sum->shared_where, c->shared_where, sizeof(sum->shared_where));
	}
	sum->global_where[sizeof(sum->global_where) - 1] = sum->shared_where[sizeof(sum->shared_where) - 1] = 0;
}

static double
ratio(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : -1;
}

void
diagnose_figures(const struct proto_counts *c, const char *source, struct memory_figures *out)
{
	out->measured = true;
	out->source = source;
	/* like with like: sectors against the fewest the bytes asked for need, as for a warp's 128 bytes
	   (4); a coalesced float4 load, 16 sectors for 512 bytes, reads as 4 too */
	out->load_sectors_per_request = c->load_ideal ? 4 * ratio(c->load_sectors, c->load_ideal)
						      : ratio(c->load_sectors, c->load_requests);
	out->store_sectors_per_request = c->store_ideal ? 4 * ratio(c->store_sectors, c->store_ideal)
							: ratio(c->store_sectors, c->store_requests);
	/* what a budget judges: every request by the bytes it asked for, so a thread's one strided store of
	   its results weighs little beside the loads of its inner loop */
	out->sectors_per_request = c->load_ideal + c->store_ideal
		? 4 * ratio(c->load_sectors + c->store_sectors, c->load_ideal + c->store_ideal) : -1;
	uint64_t ideal = c->shared_ideal ? c->shared_ideal : c->shared_requests;
	out->bank_conflicts_per_request = c->shared_requests && c->shared_wavefronts >= ideal
		? ratio(c->shared_wavefronts - ideal, c->shared_requests) : -1;
	out->global_reads_per_thread = ratio(c->global_loads, c->threads);
	out->global_reads_per_output = c->outputs && c->load_bytes ? ratio(c->load_bytes / 4, c->outputs) : -1;
	/* Nsight Compute counts warp requests, not each thread's stores */
	out->global_writes_per_thread = c->global_stores ? ratio(c->global_stores, c->threads) : -1;
	out->dram_gbps = -1;
	out->over[0] = 0;
	memcpy(out->global_where, c->global_where, sizeof(out->global_where));
	memcpy(out->shared_where, c->shared_where, sizeof(out->shared_where));
}

/* ------------------------------------------------------------------ budgets */

/* The message for a figure over its budget. */
static char *
over_budget(const struct budget_kind *k, const struct memory_figures *f, double limit, double *value)
{
	char from[128];
	if (strcmp(f->source, "simulator"))
		snprintf(from, sizeof(from), "Nsight Compute, on the timed case");
	else
		snprintf(from, sizeof(from), "the simulator, %s %s", *f->over ? "on" : "over",
			 *f->over ? f->over : "every case");
	if (!strcmp(k->name, "sectors_per_request")) {
		bool stores = f->store_sectors_per_request > f->load_sectors_per_request;
		*value = f->sectors_per_request >= 0 ? f->sectors_per_request
			: stores ? f->store_sectors_per_request : f->load_sectors_per_request;
		return xasprintf("global %s touch %.1f sectors of 32 bytes per request (%s), where this exercise allows "
				 "%g: when the 32 threads of a warp %s 32 neighbouring floats, one request touches 4 "
				 "sectors; uncoalesced, up to 32", stores ? "stores" : "loads", *value, from, limit,
				 stores ? "write" : "read");
	}
	if (!strcmp(k->name, "bank_conflicts_per_request")) {
		*value = f->bank_conflicts_per_request;
		return xasprintf("shared memory: %.1f bank conflicts per request (%s), where this exercise allows %g: "
				 "the threads of a warp hit the same bank at different words, and the hardware serves "
				 "them one after another (%.1f passes per request instead of 1)", *value, from, limit,
				 *value + 1);
	}
	if (!strcmp(k->name, "global_reads_per_output")) {
		*value = f->global_reads_per_output;
		return xasprintf("each output element reads global memory %.1f times on average (%s), where this "
				 "exercise allows %g: load each element once into shared memory and let the threads "
				 "read it there", *value, from, limit);
	}
	*value = f->global_reads_per_thread;
	return xasprintf("each thread reads global memory %.1f times on average (%s), where this exercise allows %g: "
			 "load each element once into shared memory and let the threads read it there", *value, from,
			 limit);
}

static double
figure_of(const struct budget_kind *k, const struct memory_figures *f)
{
	if (!strcmp(k->name, "sectors_per_request") && f->sectors_per_request >= 0)
		return f->sectors_per_request;
	if (!strcmp(k->name, "sectors_per_request"))
		return f->load_sectors_per_request > f->store_sectors_per_request ? f->load_sectors_per_request
										  : f->store_sectors_per_request;
	if (!strcmp(k->name, "bank_conflicts_per_request"))
		return f->bank_conflicts_per_request;
	if (!strcmp(k->name, "global_reads_per_output"))
		return f->global_reads_per_output;
	return f->global_reads_per_thread;
}

const char *
diagnose_budgets(const struct exercise *e, struct grade_result *r)
{
	const char *first = NULL;
	if (!r->figures.measured)
		return NULL;
	for (int i = 0; i < e->nbudgets; i++) {
		const struct budget_kind *k = budget_kind_find(e->budgets[i].name);
		if (!k)
			continue;
		double limit = e->budgets[i].limit, value = figure_of(k, &r->figures);
		if (value < 0 || value <= limit * BUDGET_SLACK + BUDGET_MARGIN)
			continue;
		/* the line that cost most, where the simulator saw it */
		const char *where = !strcmp(k->name, "sectors_per_request") ? r->figures.global_where
			: !strcmp(k->name, "bank_conflicts_per_request") ? r->figures.shared_where : "";
		char *message = over_budget(k, &r->figures, limit, &value);
		if (*where) {
			char *longer = xasprintf("%s; the costliest line is %s", message, where);
			free(message);
			message = longer;
		}
		if (k->advice) {
			char *advice = xasprintf("%s (advice: the GPU's caches may absorb the repeats, and only "
						 "the time decides)", message);
			free(message);
			message = advice;
		}
		struct diagnostic *d = diagnose_add(r, k->kind, message);
		if (!d)
			continue;
		if (*where && !diagnose_split_where(where, &d->file, &d->line))
			d->file = NULL;
		d->figures[d->nfigures].name = k->name;
		d->figures[d->nfigures++].value = value;
		d->figures[d->nfigures].name = "budget";
		d->figures[d->nfigures++].value = limit;
		if (!first && !k->advice)
			first = d->message;
	}
	return first;
}

/* ------------------------------------------------------------------ slow, but not for a budget */

static void
add_figure(struct buf *b, const char *label, double value, const char *unit)
{
	if (value >= 0)
		buf_addf(b, "%s%s %.1f%s", b->len ? ", " : "", label, value, unit);
}

void
diagnose_slow(struct grade_result *r)
{
	const struct memory_figures *f = &r->figures;
	if (!f->measured)
		return;
	struct buf figures = BUF_INIT;
	add_figure(&figures, "sectors per load request", f->load_sectors_per_request, "");
	add_figure(&figures, "per store request", f->store_sectors_per_request, "");
	add_figure(&figures, "bank conflicts per shared request", f->bank_conflicts_per_request, "");
	add_figure(&figures, "DRAM", f->dram_gbps, " GB/s");
	double copy = r->timing.copy_gbps;
	char *share = f->dram_gbps > 0 && copy > 0 ? xasprintf(" (%.0f%% of a device-to-device copy's %.0f GB/s)",
							       100 * f->dram_gbps / copy, copy) : xstrdup("");
	diagnose_add(r, "slow",
		     xasprintf("%s measured %s%s: the accesses are coalesced and free of bank conflicts, so the "
			       "time goes elsewhere: too few threads in flight for the GPU (blocks × threads against "
			       "its multiprocessors), long serial work per thread, or more passes over memory than "
			       "the reference makes", f->source, figures.len ? figures.data : "no figures", share));
	free(share);
	buf_free(&figures);
}
