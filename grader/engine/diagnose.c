#include "grader/engine/diagnose.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"


struct diagnostic *
diagnose_add(struct grade_result *r, const char *kind, char *message)
{
	if (r->ndiagnostics == (int)(ARRAY_SIZE(r->diagnostics))) {
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

bool
diagnose_split_where(const char *where, char **file, int *line)
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
			uint64_t base = cases[c].addrs[k], bytes = b->rows * b->cols * dtype_size(b->dtype);
			uint64_t distance = addr < base ? base - addr : addr >= base + bytes ? addr - (base + bytes) + 1 : 0;
			if (base && distance < best_distance) {
				best_distance = distance;
				best = b;
				*offset = (int64_t)(addr - base);
			}
		}
	return best;
}

/*
 * The simulator names a word of device memory by its allocation ("the word at byte 12 of the 4000-byte
 * allocation at 0x7f... (float element 3)"): where that allocation is one of the case's arrays, say
 * sums[3] instead, as every other message does. A text it cannot read stays as it is.
 */
char *
diagnose_name_words(const char *text, size_t length, const struct case_arrays *cases, int ncases)
{
	static const char lead[] = "the word at byte ";
	struct buf out = BUF_INIT;
	const char *p = text, *end = text + length;
	for (const char *hit; (hit = memmem(p, (size_t)(end - p), lead, sizeof(lead) - 1));) {
		buf_add(&out, p, (size_t)(hit - p));
		p = hit;
		char *q;
		unsigned long long bytes = 0, addr = 0, element = 0;
		strtoull(hit + sizeof(lead) - 1, &q, 10);
		bool parsed = q < end && !strncmp(q, " of the ", 8);
		if (parsed) {
			bytes = strtoull(q + 8, &q, 10);
			parsed = !strncmp(q, "-byte allocation at 0x", 22);
		}
		if (parsed) {
			/* from the "0x", which strtoull takes */
			addr = strtoull(q + strlen("-byte allocation at "), &q, 16);
			parsed = !strncmp(q, " (", 2);
		}
		const char *close = parsed ? memchr(q, ')', (size_t)(end - q)) : NULL, *at = NULL;
		if (close)
			at = memmem(q, (size_t)(close - q), " element ", 9);
		int64_t offset = 0;
		const struct proto_buffer *b = at ? buffer_of(addr, cases, ncases, &offset) : NULL;
		if (b && offset == 0 && bytes == b->rows * b->cols * dtype_size(b->dtype)) {
			element = strtoull(at + 9, NULL, 10);
			/* a word is an element only where elements are 4 bytes */
			buf_addf(&out, "%s%s[%llu]", dtype_size(b->dtype) != 4 ? "the 4-byte word at " : "", b->name, element);
			p = close + 1;
		} else {
			buf_add(&out, lead, sizeof(lead) - 1);
			p = hit + sizeof(lead) - 1;
		}
	}
	buf_add(&out, p, (size_t)(end - p));
	return buf_detach(&out);
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
	long long n = (long long)(b->rows * b->cols), size = (long long)dtype_size(b->dtype);
	long long index = offset >= 0 ? offset / size : -((-offset + size - 1) / size);
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
	struct buf text = BUF_INIT;
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
		if (!diagnose_split_where(f->where, &d->file, &d->line))
			d->file = NULL;
		if (f->kind == FINDING_RACE && !diagnose_split_where(f->other_where, &d->other_file, &d->other_line))
			d->other_file = NULL;
	}
	return message;
}

/* Whether a is b within float rounding of a copy (an integer's copy is exact, and so within it). */
static bool
same_value(double a, double b)
{
	return fabs(a - b) <= 1e-6 * fabs(b) + 1e-30;
}

bool
diagnose_layout(struct grade_result *r, const char *name, const void *actual, uint32_t dtype,
		const struct proto_expect *expected, size_t rows, size_t cols)
{
	static const size_t tiles[] = { 32, 16 };
	for (size_t t = 0; t < ARRAY_SIZE(tiles); t++) {
		size_t tile = tiles[t], wrong = 0, moved = 0;
		/* only whole tiles: an edge tile's transposed place may lie outside the matrix */
		for (size_t i = 0; i < rows / tile * tile; i++)
			for (size_t j = 0; j < cols / tile * tile; j++) {
				size_t at = i * cols + j;
				double a = dtype_load(actual, dtype, at);
				if (same_value(a, expected[at].value))
					continue;
				wrong++;
				size_t ti = i / tile * tile + j % tile, tj = j / tile * tile + i % tile;
				moved += same_value(a, expected[ti * cols + tj].value);
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
		{ "grid barrier divergence", "barrier_divergence",
		  "blocks of a cooperative launch did not all reach the same grid.sync(): every block must reach every "
		  "grid-wide sync (is one inside an if, or after a return, that not every block takes?)" },
		{ "barrier divergence", "barrier_divergence",
		  "threads of one block wait at different __syncthreads(), or some went on past the one the others "
		  "wait at: every thread of a block that has not returned must reach every barrier (is one inside an "
		  "if, or a loop, that not every thread takes?)" },
		{ "host memory at", "host_memory",
		  "a kernel reached host memory (a malloc'd block, a host variable, a host function): on a GPU that is "
		  "an illegal address; a kernel may use only memory from cudaMalloc, __device__ and __constant__ "
		  "variables, shared memory and its own local variables" },
		{ "far out of bounds", "out_of_bounds",
		  "a kernel read or wrote far outside every array: on a GPU that is an illegal address (an index "
		  "below zero, or past the end)" },
		{ "called the host function", "host_memory",
		  "a kernel called a host function through a pointer: on a GPU that is an illegal address; a kernel "
		  "may call only __device__ functions" },
		{ "warp divergence", "warp_divergence",
		  "the lanes named in a warp function's mask did not all call it: a warp function inside an if, or "
		  "after a return?" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(known); i++)
		if (memmem(text, length, known[i].phrase, strlen(known[i].phrase)) && !diagnose_has(r, known[i].kind))
			diagnose_add(r, known[i].kind, xstrdup(known[i].message));
}

void
diagnose_order(struct grade_result *r)
{
	struct diagnostic last[ARRAY_SIZE(r->diagnostics)];
	int n = 0, kept = 0;
	for (int i = 0; i < r->ndiagnostics; i++)
		if (!strcmp(r->diagnostics[i].kind, "uninitialized"))
			last[n++] = r->diagnostics[i];
		else
			r->diagnostics[kept++] = r->diagnostics[i];
	memcpy(&r->diagnostics[kept], last, sizeof(*last) * (size_t)n);
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
	"smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct,"
	"smsp__sass_average_data_bytes_per_sector_mem_global.pct";
const char diagnose_ncu_core_metrics[] =
	"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,"
	"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,"
	"smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum,"
	"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,"
	"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";
/* what the budgets judge and no more: every metric costs the profiled launch its replays */
const char diagnose_ncu_budget_metrics[] =
	"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,"
	"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,"
	"smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum,"
	"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,"
	"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,launch__thread_count,"
	"smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct,"
	"smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct,"
	"smsp__sass_average_data_bytes_per_sector_mem_global.pct";

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

/* One kernel's sectors and how much of them its instructions used, as Nsight Compute gave them. */
struct ncu_kernel {
	double load_sectors, store_sectors;
	double load_pct, store_pct, global_pct; /* < 0: not given */
};

static void
ncu_kernel_ideal(const struct ncu_kernel *k, double *load_ideal, double *store_ideal)
{
	double load = k->load_pct >= 0 ? k->load_sectors * k->load_pct / 100 : 0;
	double store = k->store_pct >= 0 ? k->store_sectors * k->store_pct / 100 : 0;
	/* the L1's global loads count cp.async's (LDGSTS) too, the loads' figure only LDG's: every global
	   instruction's use of its sectors, less the stores', is what the loads needed */
	double all = k->global_pct >= 0 ? (k->load_sectors + k->store_sectors) * k->global_pct / 100 : 0;
	if (all > load + store)
		load = all - store;
	*load_ideal += load;
	*store_ideal += store;
}

int
diagnose_parse_ncu(const char *text, const char *skip_first, struct proto_counts *c, double *dram_gbps)
{
	int id_col = -1, name_col = -1, value_col = -1, kernel_col = -1, kernels = 0;
	double read = 0, written = 0, ns = 0, conflicts = 0, load_ideal = 0, store_ideal = 0;
	char kernel_id[64] = "", skipped[64] = "";
	size_t skip_n = skip_first ? strlen(skip_first) : 0;
	struct ncu_kernel k = { 0, 0, -1, -1, -1 };
	memset(c, 0, sizeof(*c));
	for (const char *line = text; line && *line;) {
		const char *end = strchrnul(line, '\n');
		char row[4096], field[512];
		snprintf(row, sizeof(row), "%.*s", (int)(end - line), line);
		line = *end ? end + 1 : NULL;
		if (row[0] != '"')
			continue; /* ==PROF== lines and the program's own output */
		int col = 0;
		char name[256] = "", id[64] = "", kernel[256] = "";
		double value = -1;
		for (const char *p = row; p; col++) {
			p = csv_field(p, field, sizeof(field));
			if (id_col < 0 && !strcmp(field, "ID"))
				id_col = col;
			else if (name_col < 0 && !strcmp(field, "Metric Name"))
				name_col = col;
			else if (value_col < 0 && !strcmp(field, "Metric Value"))
				value_col = col;
			else if (kernel_col < 0 && !strcmp(field, "Kernel Name"))
				kernel_col = col;
			else if (col == kernel_col)
				snprintf(kernel, sizeof(kernel), "%s", field);
			else if (col == id_col)
				snprintf(id, sizeof(id), "%s", field);
			else if (col == name_col)
				snprintf(name, sizeof(name), "%s", field);
			else if (col == value_col) {
				char digits[512];
				size_t n = 0;
				for (const char *q = field; *q; q++)
					if (*q != ',')
						digits[n++] = *q; /* "16,777,216" */
				digits[n] = 0;
				char *stop;
				value = strtod(digits, &stop);
				if (stop == digits)
					value = -1;
			}
		}
		if (!name[0] || value < 0)
			continue;
		/* the first kernel measured, named skip_first then nothing or "(" (strchr finds both), counts for nothing */
		if (!kernels && !skipped[0] && skip_n && !strncmp(kernel, skip_first, skip_n) && strchr("(", kernel[skip_n]))
			snprintf(skipped, sizeof(skipped), "%s", id);
		if (skipped[0] && !strcmp(id, skipped))
			continue;
		/* a kernel's rows come together, under its ID */
		if (!kernels || strcmp(id, kernel_id)) {
			if (kernels)
				ncu_kernel_ideal(&k, &load_ideal, &store_ideal);
			k = (struct ncu_kernel){ 0, 0, -1, -1, -1 };
			snprintf(kernel_id, sizeof(kernel_id), "%s", id);
			kernels++;
		}
		uint64_t v = (uint64_t)(value + 0.5);
		if (!strcmp(name, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"))
			c->load_requests += v;
		else if (!strcmp(name, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"))
			c->load_sectors += v, k.load_sectors = value;
		else if (!strcmp(name, "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"))
			c->store_requests += v;
		else if (!strcmp(name, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"))
			c->store_sectors += v, k.store_sectors = value;
		else if (!strcmp(name, "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct"))
			k.load_pct = value;
		else if (!strcmp(name, "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct"))
			k.store_pct = value;
		else if (!strcmp(name, "smsp__sass_average_data_bytes_per_sector_mem_global.pct"))
			k.global_pct = value;
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
	if (kernels)
		ncu_kernel_ideal(&k, &load_ideal, &store_ideal);
	/* a wavefront per request, and one more per conflict */
	c->shared_wavefronts = c->shared_requests + (uint64_t)(conflicts + 0.5);
	/* Nsight counts warp requests, not threads' loads: a full warp per request */
	c->global_loads = c->load_requests * 32;
	/* the fewest sectors the bytes used would fill: known when Nsight gave the sectors' use */
	c->load_ideal = (uint64_t)(load_ideal + 0.5);
	c->store_ideal = (uint64_t)(store_ideal + 0.5);
	*dram_gbps = ns > 0 ? (read + written) / ns : -1;
	return kernels ? kernels : -1;
}

void
diagnose_race(struct grade_result *r, const char *case_name, const char *text, size_t n)
{
	if (memmem(text, n, "plain read-modify-write", 23)) {
		/* its own id, for hints: no barrier and no second order would help */
		diagnose_add(r, "cross_block_update",
			     xasprintf("in case %s two blocks update the same element with a plain "
				       "read-modify-write: on a GPU they run at once and one update is lost "
				       "(atomicAdd, or one block per element)", case_name));
		return;
	}
	const char *why = memmem(text, n, "two blocks write", 16)
				  ? "two blocks write the same element: on a GPU whichever runs last wins (one block "
				    "per element, or atomicAdd)"
			  : memmem(text, n, "blocks run", 10)
				  ? "the result depends on the order in which blocks run: blocks cannot wait for each "
				    "other within a launch (an atomic, or a second launch?)"
			  : memmem(text, n, "two threads of block", 20)
				  ? "two threads of a block write the same element: whichever writes last wins (is an "
				    "index or a bound wrong?)"
				  : "the result depends on the order in which the threads of a block run: a missing "
				    "__syncthreads()?";
	diagnose_add(r, "race", xasprintf("in case %s %s", case_name, why));
}
