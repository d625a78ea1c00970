#include "diagnose.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

/* A figure within budget × BUDGET_SLACK + BUDGET_MARGIN passes: edge tiles,
 * part-filled warps and rows that do not start on a sector boundary cost a
 * little more than the interior of a big matrix. */
#define BUDGET_SLACK 1.25
#define BUDGET_MARGIN 0.5

struct diagnostic *
diagnose_add(struct grade_result *r, const char *kind, char *message)
{
	if (r->ndiagnostics == (int)(sizeof(r->diagnostics) / sizeof(*r->diagnostics))) {
		free(message);
		return NULL;
	}
	struct diagnostic *d = &r->diagnostics[r->ndiagnostics++];
	memset(d, 0, sizeof(*d));
	d->kind = xstrdup(kind);
	d->message = message;
	return d;
}

bool
diagnose_has(const struct grade_result *r, const char *kind)
{
	for (int i = 0; i < r->ndiagnostics; i++)
		if (!strcmp(r->diagnostics[i].kind, kind))
			return true;
	return false;
}

/* "exercises/x.cu:27" into its file and line; false when it names no line. */
static bool
split_where(const char *where, char **file, int *line)
{
	const char *colon = strrchr(where, ':');
	if (!colon || colon == where || !isdigit((unsigned char)colon[1]))
		return false;
	*file = xasprintf("%.*s", (int)(colon - where), where);
	*line = atoi(colon + 1);
	return true;
}

static void
thread_text(char *out, size_t n, const int32_t *t)
{
	snprintf(out, n, "(%d,%d,%d)", t[0], t[1], t[2]);
}

/* The array nearest addr (within 1 MiB) and addr's byte offset in it; NULL when none is. */
static const struct proto_buffer *
buffer_of(uint64_t addr, const struct case_arrays *cases, int ncases, int64_t *offset)
{
	const struct proto_buffer *best = NULL;
	uint64_t best_distance = (uint64_t)1 << 20;
	for (int c = 0; c < ncases; c++)
		for (int k = 0; cases[c].info && cases[c].addrs && k < cases[c].info->nbuffers && k < PROTO_MAX_BUFFERS;
		     k++) {
			const struct proto_buffer *b = &cases[c].info->buffers[k];
			uint64_t base = cases[c].addrs[k], bytes = b->rows * b->cols * sizeof(float);
			uint64_t distance = addr < base ? base - addr : addr >= base + bytes ? addr - (base + bytes) + 1 : 0;
			if (base && distance < best_distance) {
				best_distance = distance;
				best = b;
				*offset = (int64_t)(addr - base);
			}
		}
	return best;
}

static char *
out_of_bounds_text(const struct proto_finding *f, const char *who, const struct case_arrays *cases, int ncases)
{
	const char *verb = f->write ? "wrote" : "read";
	if (f->shared == 2 && f->addr % 4 == 0 && f->extent % 4 == 0)
		return xasprintf("%s %s element %" PRIu64 " of a __shared__ array of %" PRIu64 " floats, %s", who, verb,
				 f->addr / 4, f->extent / 4,
				 f->addr / 4 == f->extent / 4 ? "one past its end" : "past its end");
	if (f->shared == 2)
		return xasprintf("%s %s byte %" PRIu64 " of a __shared__ variable of %" PRIu64 " bytes, past its end", who,
				 verb, f->addr, f->extent);
	if (f->shared)
		return xasprintf("%s %s byte %" PRIu64 " of the dynamic shared memory, past the %" PRIu64 " bytes the "
				 "launch asked for (the third <<<>>> argument)", who, verb, f->addr, f->extent);
	int64_t offset = 0;
	const struct proto_buffer *b = buffer_of(f->addr, cases, ncases, &offset);
	if (!b)
		return xasprintf("%s %s %u bytes at 0x%" PRIx64 ", outside every array", who, verb, f->size, f->addr);
	long long n = (long long)(b->rows * b->cols);
	long long index = offset >= 0 ? offset / 4 : -((-offset + 3) / 4);
	char where[96];
	if (index == n)
		snprintf(where, sizeof(where), "one past the end");
	else if (index > n)
		snprintf(where, sizeof(where), "%lld elements past the end", index - n + 1);
	else if (index == -1)
		snprintf(where, sizeof(where), "one before the start");
	else
		snprintf(where, sizeof(where), "%lld elements before the start", -index);
	return xasprintf("%s %s %s[%lld], %s of %s (%lld element%s)", who, verb, b->name, index, where, b->name, n,
			 n == 1 ? "" : "s");
}

char *
diagnose_finding(struct grade_result *r, const struct proto_finding *f, const struct case_arrays *cases, int ncases)
{
	char who[96], other[32], many[64] = "";
	const char *kind = "out_of_bounds";
	struct buf text = { 0 };
	char t[32];
	thread_text(t, sizeof(t), f->thread);
	snprintf(who, sizeof(who), "thread %s of block (%d,%d,%d)", t, f->block[0], f->block[1], f->block[2]);
	thread_text(other, sizeof(other), f->other_thread);
	if (f->count > 1)
		snprintf(many, sizeof(many), " (%" PRIu64 " such accesses)", f->count);
	bool threads_known = f->thread[0] >= 0;
	switch (f->kind) {
	case FINDING_OUT_OF_BOUNDS: {
		char *s = out_of_bounds_text(f, threads_known ? who : "a thread", cases, ncases);
		buf_addstr(&text, s);
		free(s);
		break;
	}
	case FINDING_RACE:
		kind = "race";
		if (threads_known)
			buf_addf(&text, "threads %s and %s of block (%d,%d,%d) use one shared-memory word between two "
				 "barriers: %s %s it at %s, %s %s it at %s", t, other, f->block[0], f->block[1],
				 f->block[2], t, f->write ? "writes" : "reads", f->where, other,
				 f->other_write ? "writes" : "reads", f->other_where);
		else
			buf_addf(&text, "two threads of a block use one shared-memory word between two barriers: one "
				 "%s it at %s, another %s it at %s", f->write ? "writes" : "reads", f->where,
				 f->other_write ? "writes" : "reads", f->other_where);
		buf_addf(&text, "%s; a __syncthreads() between the two makes one wait for the other", many);
		break;
	case FINDING_UNINITIALIZED:
		kind = "uninitialized";
		buf_addf(&text, "%s reads shared memory that no thread of its block wrote, at %s%s: is every element "
			 "of the tile that is read loaded first?", threads_known ? who : "a thread",
			 f->where[0] ? f->where : "an unknown line", many);
		break;
	case FINDING_BARRIER:
		kind = "barrier_divergence";
		buf_addf(&text, "%s waits at the __syncthreads() of %s, which other threads of its block do not "
			 "reach: every thread of a block must reach the same barrier (is it inside an if, or after "
			 "a return?)", threads_known ? who : "a thread", f->where[0] ? f->where : "an unknown line");
		break;
	default:
		buf_addstr(&text, "an access the checks could not classify");
		break;
	}
	if (f->kind == FINDING_OUT_OF_BOUNDS && f->where[0])
		buf_addf(&text, ", at %s%s", f->where, many);
	char *message = buf_detach(&text);
	/* every case may meet the same mistake: the first explains it */
	struct diagnostic *d = diagnose_has(r, kind) ? NULL : diagnose_add(r, kind, xstrdup(message));
	if (d) {
		if (!split_where(f->where, &d->file, &d->line))
			d->file = NULL;
		if (f->kind == FINDING_RACE && !split_where(f->other_where, &d->other_file, &d->other_line))
			d->other_file = NULL;
	}
	return message;
}

/* Whether a is b within float rounding of a copy. */
static bool
same_value(float a, double b)
{
	return fabs((double)a - b) <= 1e-6 * fabs(b) + 1e-30;
}

bool
diagnose_layout(struct grade_result *r, const char *name, const float *actual, const struct proto_expect *expected,
		size_t rows, size_t cols)
{
	static const size_t tiles[] = { 32, 16 };
	for (size_t t = 0; t < sizeof(tiles) / sizeof(*tiles); t++) {
		size_t tile = tiles[t], wrong = 0, moved = 0;
		/* only whole tiles: an edge tile's transposed place may lie outside the matrix */
		for (size_t i = 0; i < rows / tile * tile; i++)
			for (size_t j = 0; j < cols / tile * tile; j++) {
				size_t at = i * cols + j;
				if (same_value(actual[at], expected[at].value))
					continue;
				wrong++;
				size_t ti = i / tile * tile + j % tile, tj = j / tile * tile + i % tile;
				moved += same_value(actual[at], expected[ti * cols + tj].value);
			}
		if (wrong >= tile && moved * 10 >= wrong * 9) {
			diagnose_add(r, "untransposed_tile",
				     xasprintf("each %zu×%zu tile of %s holds the right values, each one transposed: the "
					       "tile is written back as it was read (on the way out, read the tile with "
					       "the thread indices swapped)", tile, tile, name));
			return true;
		}
	}
	return false;
}

void
diagnose_error(struct grade_result *r, const char *text, size_t length)
{
	static const struct {
		const char *phrase; /* sim/README.md's stable phrases */
		const char *kind;
		const char *message;
	} known[] = {
		{ "barrier divergence", "barrier_divergence",
		  "threads of one block wait at different __syncthreads(), or some have returned while others wait: "
		  "every thread of a block must reach every barrier (is one inside an if, or after a return?)" },
		{ "warp divergence", "warp_divergence",
		  "the lanes named in a warp function's mask did not all call it: a warp function inside an if, or "
		  "after a return?" },
	};
	for (size_t i = 0; i < sizeof(known) / sizeof(*known); i++)
		if (memmem(text, length, known[i].phrase, strlen(known[i].phrase)) && !diagnose_has(r, known[i].kind))
			diagnose_add(r, known[i].kind, xstrdup(known[i].message));
}

void
diagnose_order(struct grade_result *r)
{
	struct diagnostic last[sizeof(r->diagnostics) / sizeof(*r->diagnostics)];
	int n = 0, kept = 0;
	for (int i = 0; i < r->ndiagnostics; i++)
		if (!strcmp(r->diagnostics[i].kind, "uninitialized"))
			last[n++] = r->diagnostics[i];
		else
			r->diagnostics[kept++] = r->diagnostics[i];
	memcpy(&r->diagnostics[kept], last, sizeof(*last) * (size_t)n);
}

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
	memcpy(out->global_where, c->global_where, sizeof(out->global_where));
	memcpy(out->shared_where, c->shared_where, sizeof(out->shared_where));
}

/* ------------------------------------------------------------------ budgets */

struct budget_kind {
	const char *name; /* in workbook.json */
	const char *kind; /* the diagnostic's */
	bool advice;      /* said, never failed on: the figure does not predict the time */
};

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

bool
diagnose_budget_known(const char *name)
{
	for (size_t i = 0; i < sizeof(budget_kinds) / sizeof(*budget_kinds); i++)
		if (!strcmp(budget_kinds[i].name, name))
			return true;
	return false;
}

/* The message for a figure over its budget. */
static char *
over_budget(const struct budget_kind *k, const struct memory_figures *f, double limit, double *value)
{
	const char *from = !strcmp(f->source, "simulator") ? "the simulator, over the correctness cases"
		: "Nsight Compute, on the timed case";
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
	for (int i = 0; i < e->nbudgets; i++)
		for (size_t j = 0; j < sizeof(budget_kinds) / sizeof(*budget_kinds); j++) {
			const struct budget_kind *k = &budget_kinds[j];
			double limit = e->budgets[i].limit, value = figure_of(k, &r->figures);
			if (strcmp(k->name, e->budgets[i].name) || value < 0 ||
			    value <= limit * BUDGET_SLACK + BUDGET_MARGIN)
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
			if (*where && !split_where(where, &d->file, &d->line))
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

/* ------------------------------------------------------------------ compute-sanitizer */

/* The "FILE.cu:LINE" in a line ("at k(float *)+0x70 in x.cu:27", or "at 0x70 in x.cu:27:k(float*)"). */
static void
where_in(const char *line, char *where, size_t n)
{
	for (const char *p = strstr(line, ".cu"); p; p = strstr(p + 1, ".cu")) {
		const char *colon = strchr(p, ':');
		if (!colon || !isdigit((unsigned char)colon[1]) || memchr(p, ' ', (size_t)(colon - p)))
			continue;
		const char *start = p;
		while (start > line && start[-1] != ' ' && start[-1] != '(')
			start--;
		const char *end = colon + 1;
		while (isdigit((unsigned char)*end))
			end++;
		snprintf(where, n, "%.*s", (int)(end - start), start);
		return;
	}
}

static void
thread_in(const char *line, const char *label, int32_t *t)
{
	const char *p = strstr(line, label);
	if (p)
		sscanf(p + strlen(label), " (%d,%d,%d)", &t[0], &t[1], &t[2]);
}

int
diagnose_parse_sanitizer(const char *text, struct proto_finding *out, int max)
{
	int n = 0;
	struct proto_finding *f = NULL;
	bool other = false; /* the next "at … in" line is the race's other access */
	for (const char *line = text; line && *line;) {
		const char *end = strchrnul(line, '\n');
		char buf[1024];
		snprintf(buf, sizeof(buf), "%.*s", (int)(end - line), line);
		line = *end ? end + 1 : NULL;
		const char *s = buf;
		while (*s == '=' || *s == ' ')
			s++;
		uint32_t kind = !strncmp(s, "Invalid __global__ ", 19) || !strncmp(s, "Invalid __shared__ ", 19)
			? FINDING_OUT_OF_BOUNDS
			: strstr(s, "Race reported between") || strstr(s, "hazard detected") ? FINDING_RACE
			: strstr(s, "Barrier error") ? FINDING_BARRIER : 0;
		if (kind) {
			f = NULL;
			for (int i = 0; i < n; i++)
				if (out[i].kind == kind) {
					out[i].count++;
					kind = 0;
				}
			if (!kind || n == max)
				continue;
			f = &out[n++];
			memset(f, 0, sizeof(*f));
			f->kind = kind;
			f->count = 1;
			f->thread[0] = f->other_thread[0] = -1;
			f->shared = strstr(s, "__shared__") != NULL;
			const char *between = strstr(s, "between ");
			f->write = between ? !strncmp(between + 8, "Write", 5) : strstr(s, " write ") != NULL;
			sscanf(s, "Invalid %*s %*s of size %u", &f->size);
			other = false;
			if (kind == FINDING_RACE && strstr(s, " in ")) {
				where_in(s, f->where, sizeof(f->where));
				other = true;
			}
			continue;
		}
		if (!f)
			continue;
		if (!strncmp(s, "and ", 4) && other) {
			f->other_write = !strncmp(s + 4, "Write", 5);
			where_in(s, f->other_where, sizeof(f->other_where));
			unsigned long long hazards;
			const char *h = strchr(s, '[');
			if (h && sscanf(h, "[%llu hazards", &hazards) == 1)
				f->count = hazards;
			f = NULL;
		} else if (!strncmp(s, "at ", 3) && !f->where[0]) {
			where_in(s, f->where, sizeof(f->where));
		} else if (!strncmp(s, "by thread", 9)) {
			thread_in(s, "by thread", f->thread);
			thread_in(s, "in block", f->block);
		} else if (strstr(s, "is out of bounds") || strstr(s, "is misaligned")) {
			const char *hex = strstr(s, "0x");
			if (hex)
				f->addr = strtoull(hex, NULL, 16);
		} else if ((!strncmp(s, "Write Thread", 12) || !strncmp(s, "Read Thread", 11)) && f->kind == FINDING_RACE) {
			bool write = s[0] == 'W';
			if (!f->where[0]) {
				f->write = write;
				thread_in(s, "Thread", f->thread);
				where_in(s, f->where, sizeof(f->where));
			} else {
				f->other_write = write;
				thread_in(s, "Thread", f->other_thread);
				where_in(s, f->other_where, sizeof(f->other_where));
			}
		}
	}
	return n;
}

/* ------------------------------------------------------------------ Nsight Compute */

const char diagnose_ncu_metrics[] =
	"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,"
	"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,"
	"smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum,"
	"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,"
	"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,"
	"launch__thread_count,dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,"
	/* how much of each sector a request used: the like-with-like figure (a float4 load uses all of 16) */
	"smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct,"
	"smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct";
const char diagnose_ncu_core_metrics[] =
	"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,"
	"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,"
	"smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum,"
	"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,"
	"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";

/* The next field of a CSV line ("a","1,024",…) into out; NULL after the last. */
static const char *
csv_field(const char *p, char *out, size_t n)
{
	size_t used = 0;
	bool quoted = *p == '"';
	if (quoted)
		p++;
	for (; *p && (quoted ? *p != '"' : *p != ','); p++)
		if (used + 1 < n)
			out[used++] = *p;
	out[used] = 0;
	if (quoted && *p == '"')
		p++;
	return *p == ',' ? p + 1 : NULL;
}

int
diagnose_parse_ncu(const char *text, struct proto_counts *c, double *dram_gbps)
{
	int name_col = -1, value_col = -1, rows = 0;
	double read = 0, written = 0, ns = 0, conflicts = 0;
	/* a kernel's sectors come before its use of them (the metrics are sorted by name) */
	double load_sectors = 0, store_sectors = 0, load_ideal = 0, store_ideal = 0;
	memset(c, 0, sizeof(*c));
	for (const char *line = text; line && *line;) {
		const char *end = strchrnul(line, '\n');
		char row[4096], field[512];
		snprintf(row, sizeof(row), "%.*s", (int)(end - line), line);
		line = *end ? end + 1 : NULL;
		if (row[0] != '"')
			continue; /* ==PROF== lines and the program's own output */
		int col = 0;
		char name[256] = "";
		double value = -1;
		for (const char *p = row; p; col++) {
			p = csv_field(p, field, sizeof(field));
			if (name_col < 0 && !strcmp(field, "Metric Name"))
				name_col = col;
			else if (value_col < 0 && !strcmp(field, "Metric Value"))
				value_col = col;
			else if (col == name_col)
				snprintf(name, sizeof(name), "%s", field);
			else if (col == value_col) {
				char digits[512];
				size_t k = 0;
				for (const char *q = field; *q; q++)
					if (*q != ',')
						digits[k++] = *q; /* "16,777,216" */
				digits[k] = 0;
				char *stop;
				value = strtod(digits, &stop);
				if (stop == digits)
					value = -1;
			}
		}
		if (!name[0] || value < 0)
			continue;
		rows++;
		uint64_t v = (uint64_t)(value + 0.5);
		if (!strcmp(name, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"))
			c->load_requests += v;
		else if (!strcmp(name, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"))
			c->load_sectors += v, load_sectors = value;
		else if (!strcmp(name, "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"))
			c->store_requests += v;
		else if (!strcmp(name, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"))
			c->store_sectors += v, store_sectors = value;
		else if (!strcmp(name, "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct"))
			load_ideal += load_sectors * value / 100;
		else if (!strcmp(name, "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct"))
			store_ideal += store_sectors * value / 100;
		else if (!strncmp(name, "smsp__inst_executed_op_shared_", 30))
			c->shared_requests += v;
		else if (!strncmp(name, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_", 47))
			conflicts += value;
		else if (!strcmp(name, "launch__thread_count"))
			c->threads += v;
		else if (!strcmp(name, "dram__bytes_read.sum"))
			read += value;
		else if (!strcmp(name, "dram__bytes_write.sum"))
			written += value;
		else if (!strcmp(name, "gpu__time_duration.sum"))
			ns += value;
	}
	/* a wavefront per request, and one more per conflict */
	c->shared_wavefronts = c->shared_requests + (uint64_t)(conflicts + 0.5);
	/* Nsight counts warp requests, not threads' loads: a full warp per request */
	c->global_loads = c->load_requests * 32;
	/* the fewest sectors the bytes used would fill: known when Nsight gave the sectors' use */
	c->load_ideal = (uint64_t)(load_ideal + 0.5);
	c->store_ideal = (uint64_t)(store_ideal + 0.5);
	*dram_gbps = ns > 0 ? (read + written) / ns : -1;
	return rows ? 0 : -1;
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
	struct buf figures = { 0 };
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
			       "the reference makes", f->source, figures.data ? figures.data : "no figures", share));
	free(share);
	buf_free(&figures);
}
