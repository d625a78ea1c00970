/*
 * fiber.c — stacks for the simulator's fibers.
 *
 * Each stack is an mmap with a PROT_NONE guard page below it, so a kernel
 * that overflows its stack faults (and is reported) instead of writing over
 * another thread's frames. Stacks are pooled: a launch takes them as threads
 * block at barriers and every later block and launch reuses them.
 *
 * Layer 1: calls nothing of the simulator's; sched.c, its only user, says when
 * the pool runs out.
 */
#include "sim.h"

#include <sys/mman.h>
#include <unistd.h>

#define STACK_SIZE (256 * 1024)

static struct sim_stack *all_stacks;	/* every stack ever made, via next */
/* the pool, via next_free, the last put first: a list through the stacks themselves, which has no
   bound to overflow (a cooperative launch's parked blocks hold a stack per thread) and allocates
   nothing (sim_stack_put_all runs after a fault, which may have struck inside malloc) */
static struct sim_stack *free_list;
static size_t page;

static struct sim_stack *
stack_new(void)
{
	static unsigned colour;
	struct sim_stack *s;
	char *map;

	if (!page)
		page = (size_t)sysconf(_SC_PAGESIZE);
	map = mmap(NULL, STACK_SIZE + page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (map == MAP_FAILED)
		return NULL;
	if (mprotect(map, page, PROT_NONE)) {
		munmap(map, STACK_SIZE + page);
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		munmap(map, STACK_SIZE + page);
		return NULL;
	}
	s->lo = map + page;
	/* Stagger the tops so that the stacks' hot frames do not all fall in
	 * the same cache sets. */
	s->hi = map + page + STACK_SIZE - 64 * (colour++ % 48);
	s->next = all_stacks;
	all_stacks = s;
	return s;
}

struct sim_stack *
sim_stack_get(void)
{
	struct sim_stack *s = free_list;

	if (s)
		free_list = s->next_free;
	else
		s = stack_new();
	if (s)
		s->in_use = true;
	return s;
}

void
sim_stack_put(struct sim_stack *s)
{
	if (!s || !s->in_use)
		return;
	s->in_use = false;
	s->next_free = free_list;
	free_list = s;
}

void
sim_stack_put_all(void)
{
	for (struct sim_stack *s = all_stacks; s; s = s->next)
		sim_stack_put(s);
}

struct sim_stack *
sim_stack_guarding(const void *addr)
{
	const char *a = addr;

	for (struct sim_stack *s = all_stacks; s; s = s->next)
		if (a >= s->lo - page && a < s->lo)
			return s;
	return NULL;
}

void *
sim_ctx_make(struct sim_stack *s, void (*fn)(void))
{
	uintptr_t top = (uintptr_t)s->hi & ~(uintptr_t)15;
	void **sp = (void **)top;

#if defined(__x86_64__)
	/* What cudasim_ctx_swap pops: six registers, then the return address.
	 * fn starts as if called: its own return address (0) at rsp = 8 mod 16. */
	*--sp = NULL;
	*--sp = (void *)fn;
	for (int i = 0; i < 6; i++)
		*--sp = NULL;
#elif defined(__aarch64__)
	/* x19..x28, x29 (fp) = 0, x30 (lr) = fn, d8..d15 */
	sp -= 20;
	for (int i = 0; i < 20; i++)
		sp[i] = NULL;
	sp[11] = (void *)fn;
#endif
	return sp;
}
