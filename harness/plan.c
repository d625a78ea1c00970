/*
 * Checking a launch plan (harness/plan.h) before it is replayed: the
 * grader's check of what the capture process sent, which the measuring
 * process repeats before it trusts a byte of it. Plain C, no CUDA: the
 * grader links it too.
 */
#include "harness/plan.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static int
refuse(char *why, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int
refuse(char *why, size_t size, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, size, fmt, ap);
	va_end(ap);
	return -1;
}

/* A name the record carries: NUL-terminated inside its field, and not empty. */
static bool
name_ok(const char *name)
{
	return name[0] && memchr(name, 0, PLAN_NAME_MAX) != NULL;
}

/* The bytes of region `r` (0 when it names nothing the plan may reach). */
static uint64_t
region_bytes(const struct plan_state *st, const struct plan_ref *r)
{
	if (r->region == PLAN_CASE_BUFFER && r->index < (uint32_t)st->nbuffers)
		return st->buffer_bytes[r->index];
	if (r->region == PLAN_OWN && r->index < (uint32_t)st->nown && st->live[r->index])
		return st->own_bytes[r->index];
	if (r->region == PLAN_DEVICE_VARIABLE && r->index < (uint32_t)st->nvariables)
		return st->variable_bytes[r->index];
	return 0;
}

/* Whether [offset, offset + bytes) lies inside the region; an address one past the end counts, with no bytes. */
static bool
inside(const struct plan_state *st, const struct plan_ref *r, uint64_t bytes)
{
	uint64_t size = region_bytes(st, r);
	return size && r->offset <= size && bytes <= size - r->offset;
}

static int
check_launch(const struct plan_launch *l, uint32_t length, const struct plan_state *st, char *why, size_t size)
{
	const char *name = l->name;
	if (l->grid[0] < 1 || l->grid[0] > 0x7fffffffu || l->grid[1] < 1 || l->grid[1] > 65535 || l->grid[2] < 1 ||
	    l->grid[2] > 65535)
		return refuse(why, size, "a launch of %.200s with a grid of %u x %u x %u blocks, outside a GPU's limits "
			      "(2147483647 x 65535 x 65535 at most: such a launch fails with 'invalid configuration "
			      "argument')", name, l->grid[0], l->grid[1], l->grid[2]);
	uint64_t threads = (uint64_t)l->block[0] * l->block[1] * l->block[2];
	if (!l->block[0] || !l->block[1] || !l->block[2] || threads > 1024 || l->block[2] > 64)
		return refuse(why, size, "a launch of %.200s with blocks of %u x %u x %u threads, outside a GPU's limits "
			      "(1024 threads, 64 in z, at most: such a launch fails with 'invalid configuration argument')",
			      name, l->block[0], l->block[1], l->block[2]);
	if (l->shared_bytes > (256u << 10) || l->cooperative > 1)
		return refuse(why, size, "a launch of %.200s asking for %u bytes of shared memory", name, l->shared_bytes);
	if (l->nparams > PLAN_MAX_PARAMS || l->args_bytes > PLAN_MAX_ARGS || l->nrelocs > l->args_bytes / 8 ||
	    length != sizeof(*l) + l->nparams * sizeof(struct plan_param) + l->nrelocs * sizeof(struct plan_reloc) +
			      ((l->args_bytes + 7u) & ~7u))
		return refuse(why, size, "a launch of %.200s whose arguments are not laid out as a kernel's", name);
	const struct plan_param *params = (const struct plan_param *)(l + 1);
	const struct plan_reloc *relocs = (const struct plan_reloc *)(params + l->nparams);
	for (uint32_t i = 0; i < l->nparams; i++)
		if (params[i].offset > l->args_bytes || params[i].size > l->args_bytes - params[i].offset)
			return refuse(why, size, "a launch of %.200s whose argument %u lies outside its arguments", name, i + 1);
	for (uint32_t i = 0; i < l->nrelocs; i++) {
		uint32_t at = relocs[i].at;
		bool in_param = false;
		for (uint32_t p = 0; p < l->nparams && !in_param; p++)
			in_param = at >= params[p].offset && at + 8 <= params[p].offset + params[p].size;
		if (at % 8 || !in_param || (i && at <= relocs[i - 1].at))
			return refuse(why, size, "a launch of %.200s with a device address outside its arguments", name);
		if (!inside(st, &relocs[i].to, 0))
			return refuse(why, size, "a launch of %.200s with a pointer to memory that is neither the case's "
				      "arrays nor one of the launcher's own allocations", name);
	}
	return 0;
}

int
plan_check(const void *plan, size_t n, struct plan_state *st, char *why, size_t size)
{
	const unsigned char *p = plan;
	size_t at = 0;
	int records = 0;
	if (n > PLAN_MAX_BYTES || n % 8)
		return refuse(why, size, "the launcher asked for more than a plan may hold (%zu bytes)", n);
	while (at < n) {
		struct plan_record r;
		memcpy(&r, p + at, sizeof(r));
		if (++records > PLAN_MAX_RECORDS)
			return refuse(why, size, "the launcher made more than %d calls to the GPU in one case",
				      PLAN_MAX_RECORDS);
		if (r.length % 8 || r.length > n - at - sizeof(r))
			return refuse(why, size, "a plan whose records are torn");
		const void *body = p + at + sizeof(r);
		switch (r.kind) {
		case PLAN_ALLOC: {
			const struct plan_alloc *a = body;
			if (r.length != sizeof(*a) || a->id != (uint32_t)st->nown || st->nown >= PLAN_MAX_ALLOCATIONS)
				return refuse(why, size, "more than %d allocations of the launcher's own",
					      PLAN_MAX_ALLOCATIONS);
			if (!a->bytes || a->bytes > ((uint64_t)64 << 30))
				return refuse(why, size, "an allocation of %llu bytes", (unsigned long long)a->bytes);
			st->own_bytes[st->nown] = a->bytes;
			st->live[st->nown++] = 1;
			break;
		}
		case PLAN_VARIABLE: {
			const struct plan_variable *v = body;
			if (r.length != sizeof(*v) || v->id != (uint32_t)st->nvariables ||
			    st->nvariables >= PLAN_MAX_VARIABLES || !name_ok(v->name) || !v->bytes ||
			    v->bytes > ((uint64_t)1 << 32))
				return refuse(why, size, "a __device__ variable that is not laid out as one");
			st->variable_bytes[st->nvariables++] = v->bytes;
			break;
		}
		case PLAN_FREE: {
			const struct plan_free *f = body;
			if (r.length != sizeof(*f) || f->id >= (uint32_t)st->nown || !st->live[f->id])
				return refuse(why, size, "a cudaFree of memory that is not one of the launcher's allocations");
			st->live[f->id] = 0;
			break;
		}
		case PLAN_MEMSET: {
			const struct plan_memset *m = body;
			if (r.length != sizeof(*m) || !inside(st, &m->to, m->bytes))
				return refuse(why, size, "a cudaMemset outside the case's arrays and the launcher's allocations");
			break;
		}
		case PLAN_SYMBOL: {
			const struct plan_symbol *y = body;
			if (r.length < sizeof(*y) || !name_ok(y->name) || y->bytes > (64u << 10) ||
			    r.length != sizeof(*y) + ((y->bytes + 7) & ~(uint64_t)7))
				return refuse(why, size, "a copy to a __device__ or __constant__ variable that is not laid "
					      "out as one");
			break;
		}
		case PLAN_ATTRIBUTE: {
			const struct plan_attribute *t = body;
			if (r.length != sizeof(*t) || !name_ok(t->name))
				return refuse(why, size, "a cudaFuncSetAttribute that is not laid out as one");
			bool known = (t->attribute == PLAN_ATTR_MAX_DYNAMIC_SHARED && t->value >= 0 &&
				      t->value <= (256 << 10)) ||
				     (t->attribute == PLAN_ATTR_SHARED_CARVEOUT && t->value >= -1 && t->value <= 100);
			if (!known)
				return refuse(why, size, "cudaFuncSetAttribute(%.200s, %d, %d): only the dynamic shared "
					      "memory size and the shared memory carveout may be set", t->name,
					      t->attribute, t->value);
			break;
		}
		case PLAN_LAUNCH: {
			const struct plan_launch *l = body;
			if (r.length < sizeof(*l) || !name_ok(l->name))
				return refuse(why, size, "a launch that is not laid out as one");
			if (check_launch(l, r.length, st, why, size))
				return -1;
			break;
		}
		case PLAN_FAILED: {
			const struct plan_failed *e = body;
			if (r.length != sizeof(*e) || e->error <= 0 || e->error >= 10000)
				return refuse(why, size, "a failed call that is not laid out as one");
			break;
		}
		case PLAN_SYNC:
			if (r.length)
				return refuse(why, size, "a plan whose records are torn");
			break;
		case PLAN_REFUSED: {
			/* the capture's own words, printable characters only */
			char text[256];
			size_t k = 0;
			for (const char *c = body; c < (const char *)body + r.length && k + 1 < sizeof(text); c++)
				if (*c >= 0x20 && *c < 0x7f)
					text[k++] = *c;
			text[k] = 0;
			return refuse(why, size, "the launcher %s", text);
		}
		default:
			return refuse(why, size, "a plan record of an unknown kind (%u)", r.kind);
		}
		at += sizeof(r) + r.length;
	}
	return 0;
}

const struct plan_record *
plan_next(const void *plan, size_t n, const struct plan_record *at)
{
	const unsigned char *p = plan;
	size_t next = at ? (size_t)((const unsigned char *)at - p) + sizeof(*at) + at->length : 0;
	return next + sizeof(*at) <= n ? (const struct plan_record *)(p + next) : NULL;
}
