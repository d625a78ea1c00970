/*
 * sass_loads: global loads in flight per thread, from the SASS listing (see
 * sass_loads.h). A walk in address order: each LDG's destination registers
 * are pending until an instruction reads one of them; the loads issued
 * while others are pending are in flight together. A load whose address
 * needs a pending one (a chain) starts a new group.
 */
#include "grader/sass/sass_loads.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "common/root.h"
#include "lib/util.h"

struct placed {
	unsigned address;
	int line;
	const char *text;
};

static int
by_address(const void *a, const void *b)
{
	const struct placed *x = a, *y = b;
	return x->address < y->address ? -1 : x->address > y->address;
}

/* The opcode (after a predicate such as "@!P0 "), as its length at *op. */
static size_t
opcode(const char *text, const char **op)
{
	const char *p = text;
	if (*p == '@')
		p += strcspn(p, " ");
	while (*p == ' ')
		p++;
	*op = p;
	return strcspn(p, " ;");
}

/* How many 32-bit registers an access of this width takes: LDG.E.128 four, .64 two, else one. */
static int
width_of(const char *op, size_t n)
{
	for (size_t i = 0; i + 3 < n; i++)
		if (op[i] == '.' && !strncmp(op + i + 1, "128", 3))
			return 4;
	for (size_t i = 0; i + 2 < n; i++)
		if (op[i] == '.' && !strncmp(op + i + 1, "64", 2))
			return 2;
	return 1;
}

typedef unsigned char regset[256];

/* Each register operand from `from` on: "R12", "R4.64" (a pair); not UR4, RZ or SR_TID.X. */
static void
registers(const char *from, regset set)
{
	for (const char *p = from; *p; p++) {
		if (*p != 'R' || !isdigit((unsigned char)p[1]) || (p > from && (isalnum((unsigned char)p[-1]) || p[-1] == '_')))
			continue;
		char *end;
		long r = strtol(p + 1, &end, 10);
		int n = !strncmp(end, ".64", 3) ? 2 : !strncmp(end, ".128", 4) ? 4 : 1;
		for (long k = r; k < r + n && k < 255; k++)
			set[k] = 1;
		p = end - 1;
	}
}

static bool
reads_any(const regset read, const regset pending)
{
	for (int i = 0; i < 255; i++)
		if (read[i] && pending[i])
			return true;
	return false;
}

/* One kernel: its instructions in address order, walked. */
static void
kernel_loads(const struct sass_kernel *k, struct loads_in_flight *out)
{
	int n = 0;
	for (int i = 0; i < k->nlines; i++)
		n += k->lines[i].nsass;
	struct placed *all = xcalloc((size_t)n + 1, sizeof(*all));
	n = 0;
	for (int i = 0; i < k->nlines; i++)
		for (int j = 0; j < k->lines[i].nsass; j++)
			all[n++] = (struct placed){ k->lines[i].sass[j].address, k->lines[i].line, k->lines[i].sass[j].text };
	qsort(all, (size_t)n, sizeof(*all), by_address);
	/* the loops: from a branch's target back up to the branch */
	unsigned (*loops)[2] = xcalloc((size_t)n + 1, sizeof(*loops));
	int nloops = 0;
	for (int i = 0; i < n; i++) {
		const char *op, *target = strstr(all[i].text, "`(");
		size_t oplen = opcode(all[i].text, &op);
		if (oplen < 3 || strncmp(op, "BRA", 3) || !target)
			continue;
		target += 2;
		size_t length = strcspn(target, ")");
		for (int j = 0; j < k->nlabels; j++)
			if (strlen(k->labels[j].name) == length && !strncmp(k->labels[j].name, target, length) &&
			    k->labels[j].address <= all[i].address) {
				loops[nloops][0] = k->labels[j].address;
				loops[nloops++][1] = all[i].address;
			}
	}
	regset pending = { 0 };
	int group = 0, group_line = 0;
	unsigned group_start = 0;
	for (int i = 0; i < n; i++) {
		const char *op;
		size_t oplen = opcode(all[i].text, &op);
		const char *operands = op + oplen;
		bool load = oplen >= 3 && !strncmp(op, "LDG", 3) && strncmp(op, "LDGSTS", 6) && strncmp(op, "LDGDEPBAR", 9);
		bool store = (oplen >= 2 && !strncmp(op, "ST", 2)) || (oplen >= 3 && !strncmp(op, "RED", 3));
		/* what it reads: every register of a store, the rest after the destination for others */
		const char *sources = store ? operands : operands + strcspn(operands, ",");
		regset read = { 0 };
		registers(sources, read);
		if (group && reads_any(read, pending)) {
			memset(pending, 0, sizeof(pending));
			group = 0;
		}
		if (!load)
			continue;
		out->loads++;
		if (!group)
			group_line = all[i].line;
		group++;
		if (group == 1)
			group_start = all[i].address;
		if (group > out->together) {
			out->together = group;
			out->line = group_line;
			out->in_loop = false;
			for (int j = 0; j < nloops; j++)
				out->in_loop |= loops[j][0] <= group_start && group_start <= loops[j][1];
		}
		/* the destination: the first register operand, as wide as the access */
		const char *dest = operands + strspn(operands, " ");
		if (*dest == 'R' && isdigit((unsigned char)dest[1])) {
			long r = strtol(dest + 1, NULL, 10);
			for (long k2 = r; k2 < r + width_of(op, oplen) && k2 < 255; k2++)
				pending[k2] = 1;
		}
	}
	free(loops);
	free(all);
}

void
sass_loads_in_flight(const struct sass_listing *l, struct loads_in_flight *out)
{
	memset(out, 0, sizeof(*out));
	for (int i = 0; i < l->nkernels; i++) {
		struct loads_in_flight k = { 0 };
		kernel_loads(&l->kernels[i], &k);
		out->loads += k.loads;
		if (k.together > out->together) {
			out->together = k.together;
			out->line = k.line;
			out->in_loop = k.in_loop;
		}
	}
}

bool
sass_loads_measure(const struct exercise *e, const char *path, struct loads_in_flight *out)
{
	struct sass_listing l = { 0 };
	struct buf err = BUF_INIT;
	bool ok = sass_choose_arch(&l, NULL, &err) == 0 && sass_build(&l, e, path, path, &err) == 0 && !l.no_sass &&
		  l.nkernels > 0;
	if (ok)
		sass_loads_in_flight(&l, out);
	sass_release(&l);
	buf_free(&err);
	return ok && out->loads > 0;
}
