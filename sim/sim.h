/*
 * sim.h — what the simulator's modules share; never included by user code
 * (that sees include/cudasim.h only).
 */
#ifndef SIM_H
#define SIM_H

#include "sim/include/cudasim.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#define SIM_MAX_THREADS 1024
#define SIM_SMEM_DEFAULT 49152		/* per block without the opt-in attribute */
#define SIM_WARP 32
#define SIM_WARP_GROUPS 4		/* warp functions with disjoint masks waiting at once */
#define SIM_DYN_ARENA (233472 + 4096)	/* the opt-in limit rounded to pages, and a guard page */

/* ---------------------------------------------------------------- error.c */
/* Record an error of the API; sticky errors (a fault) stay until cudaDeviceReset. */
cudaError_t sim_error(cudaError_t err, const char *fmt, ...) __attribute__((format(__printf__, 2, 3)));
cudaError_t sim_sticky(void);
void sim_error_reset(void);
/* The runtime's host API called from kernel code (launch.c): the launch ends, as a host function's call. */
void sim_host_api(const char *call);
/* Most calls fail with a sticky error, as every call does on a GPU after a fault (runtime.c, device.c);
   and none is kernel code's: cudaMemset(&out[i], b, 1) there was a store no check or figure saw. */
#define STICKY_AS(call) do { sim_host_api(call); if (sim_sticky()) return sim_sticky(); } while (0)
#define STICKY() STICKY_AS(__func__)
/* The detail text of the error being built, for appending. */
void sim_detail_append(const char *fmt, ...) __attribute__((format(__printf__, 1, 2)));
void sim_detail_prefix(const char *fmt, ...) __attribute__((format(__printf__, 1, 2)));

/* ---------------------------------------------------------------- current_launch.c */
/* The launch in progress, written by launch.c, read by every module. */
struct sim_launch {
	struct cudasim_site *site;
	dim3 grid, block;
	size_t smem;
	cudaStream_t stream;
	size_t smem_limit;
	size_t static_smem;
	bool active;			/* kernel code may be running */
	bool quiet;			/* printf is discarded (the second order) */
	int run;			/* 0: order A, 1: order B, 2: diagnosis */
	bool cooperative;		/* cudaLaunchCooperativeKernel: grid.sync() waits for every block */
	const char *params;		/* the launch's copy of the kernel's arguments, which its threads read */
	size_t params_size;
};
extern struct sim_launch sim_cur;
/* Abandon the launch (fault, limit, timeout): jumps back to cudasim_launch. */
void sim_abandon(cudaError_t err) __attribute__((noreturn));
extern sigjmp_buf sim_abandon_jmp;
extern cudaError_t sim_abandon_err;
/* The runtime itself is at work (printf.c): a fault there is not the kernel's. */
extern volatile int sim_in_runtime;

/* ---------------------------------------------------------------- symbols.c */
/* "file:line (in function)" of the first frame in the program's own source
 * among pcs (pcs[0] the program counter, the rest return addresses). */
bool sim_source_line(void *const *pcs, int n, char *out, size_t len);
/* Whether a loaded object (dl_iterate_phdr's name) is the program: the executable, or the student's object. */
bool sim_is_program_object(const char *name);
/* "file:line" of the instruction that called from return address pc; "an unknown line" when unknown. */
void sim_pc_line(uintptr_t pc, char *out, size_t n);
/* Where a section of the student's object lies once loaded: 1; 0 when it has none; -1 before it is loaded. */
int sim_program_section(const char *name, char **lo, size_t *size);
/* Whether [p, p + size) lies in the program's read-only data (literals, constant tables). */
bool sim_program_read_only(const void *p, size_t size);
/* The name of the global variable that holds p, and p's byte offset in it. */
bool sim_symbol_name(const void *p, char *out, size_t n, size_t *offset);

/* ---------------------------------------------------------------- fiber.c */
struct sim_stack {
	char *lo, *hi;			/* usable range; a guard page lies below lo */
	struct sim_stack *next;
	struct sim_stack *next_free;	/* in the pool (fiber.c) */
	bool in_use;
};
/* A stack for a thread that blocks, or NULL when memory runs out (the caller says so). */
struct sim_stack *sim_stack_get(void);
void sim_stack_put(struct sim_stack *s);
/* Return every stack to the pool after a launch was abandoned. */
void sim_stack_put_all(void);
/* The stack whose guard page holds addr, or NULL. */
struct sim_stack *sim_stack_guarding(const void *addr);
/* Prepare a context on s that calls fn (which must never return). */
void *sim_ctx_make(struct sim_stack *s, void (*fn)(void));
void cudasim_ctx_swap(void **save_sp, void *new_sp);
void cudasim_ctx_jump(void *new_sp) __attribute__((noreturn));

/* ---------------------------------------------------------------- printf.c */
void sim_printf_flush(void);

/* ---------------------------------------------------------------- sched.c */
enum sim_thread_state { T_NEW, T_READY, T_BAR, T_WARP, T_DONE, T_RUN };

struct sim_thread {
	void *sp;			/* saved context while blocked */
	struct sim_stack *stack;	/* the stack it runs on once it has blocked */
	uint3 idx;
	unsigned char state;
	const char *file;		/* where it waits */
	int line;
	const char *bar_file;		/* the last __syncthreads() it waited at, NULL if none */
	int bar_line;
	int pred;
	bool grid;			/* the barrier it waits at is a grid.sync() */
	int warp_arg, warp_width;
	unsigned long long warp_in, warp_out;
};

struct sim_warp_group {
	unsigned mask, arrived;
	int op;
	const char *file;
	int line;
};

struct sim_block {
	int n;				/* threads in the block */
	bool forward;			/* the order of this run */
	int k;				/* position in the current sweep */
	bool ran;
	int ndone, nbar;
	unsigned gen;			/* barriers the block has passed */
	unsigned warp_gen[SIM_MAX_THREADS / SIM_WARP]; /* __syncwarp()s (and other warp functions) each warp passed */
	int cur;			/* the running thread, or -1 */
	int bar_result, bar_and, bar_or;
	size_t static_smem;		/* of the __shared__ variables met so far */
	struct sim_thread th[SIM_MAX_THREADS];
	struct sim_warp_group wg[SIM_MAX_THREADS / SIM_WARP][SIM_WARP_GROUPS];
	void *sched_sp;			/* the scheduler, while a thread runs */
	struct sim_stack *sched_stack;
	void *launcher_sp;		/* the launch, while the block runs */
	void (*thunk)(void *);
	void *closure;
	bool failed;			/* a divergence or deadlock ended the block */
	bool parked;			/* every thread waits at a grid.sync(): the block waits for the others */
	void *park_sp;			/* the scheduler, while the block is parked */
};
extern struct sim_block sim_blk;

/* The bytes of the static __shared__ arena that slots took so far. */
size_t sim_static_smem_used(void);
/* The __shared__ variable's slot that starts highest at or below byte `at` of the arena. */
bool sim_static_slot(size_t at, size_t *start, size_t *size);
/* Hooks the layers above set, so that this one calls nothing above it: after a block's shared memory
 * is poisoned, before its threads run (measure.c); whether an exited thread used memory below the
 * barrier of file:line, having gone on past it (check.c); a barrier found divergent (check.c). */
extern void (*sim_block_started)(void);
extern bool (*sim_exited_past)(int thread, const char *file, int line);
extern void (*sim_barrier_diverged)(void);
/* a barrier releases its threads, before the interval it closes ends (check_shared.c) */
extern void (*sim_barrier_passing)(void);
/* Shared memory is protected (measure.c measures a block): the runtime's own writes unprotect first. */
extern bool sim_shared_protected;
/* Make the dynamic shared memory past what a launch asked for fault, and undo it. */
void sim_dyn_smem_fence(size_t bytes);
void sim_dyn_smem_unfence(void);
/* Run one block of the current launch in the given order; false on an error. With sim_grid_parks (a
 * cooperative launch's whole grid, launch.c), a block whose threads all reach a grid.sync() stops there
 * with sim_blk.parked set: sim_block_park keeps it (you own the result) and sim_block_resume goes on
 * (and frees it), both false on an error; elsewhere (one block alone) a grid.sync() is the block's barrier. */
bool sim_block_run(uint3 bid, bool forward);
struct sim_parked;
extern bool sim_grid_parks;
struct sim_parked *sim_block_park(void);
bool sim_block_resume(struct sim_parked *p);
void sim_parked_free(struct sim_parked *p);
/* Where a parked block waits: its grid.sync()'s file and line, and the block. */
const char *sim_parked_where(const struct sim_parked *p, int *line, uint3 *block);
/* Hooks for the shadow state of a parked block's shared memory (check.c): saved, and put back. */
extern void *(*sim_block_parking)(void);
extern void (*sim_block_resuming)(void *state);
/* The thread running now, for reports: "thread (x,y,z) of block (x,y,z)". */
const char *sim_where(void);
/* Thread t of the block, for reports, in buf. */
void sim_where_thread(char *buf, size_t n, int t);
/* Between sched.c and warp.c, one module: end the block with a launch failure (the detail already
 * written); block the running thread, whose state says what it waits for; a warp function's name;
 * complete the __activemask groups still waiting with the lanes that came (true if one did). */
void sim_block_fail(void) __attribute__((noreturn));
void sim_block_thread(struct sim_thread *th);
const char *sim_warp_op_name(int op);
bool sim_warp_complete_activemasks(void);
/* What kernel code reads of the simulator's, in a section of their own, which check.c lets it read. */
#define SIM_BUILTIN __attribute__((section("cudasim_builtins")))
/* smem.c: shared memory as a new block finds it, poisoned (fill.h) */
void sim_smem_fill_block(void);

/* ---------------------------------------------------------------- memory.c */
enum sim_alloc_kind { SIM_DEVICE, SIM_HOST_PINNED };
/* A global word's last plain writer and reader blocks (block epochs), for check.c's cross-block updates. */
struct sim_word_blocks {
	unsigned wepoch, repoch;
	unsigned wfence;	/* check.c's fence count when it was written */
	unsigned wblock;	/* the writer's linear block index */
};
#define SIM_WORD_BLOCKS_BYTES(size) (((size) + 3) / 4 * sizeof(struct sim_word_blocks))

struct sim_alloc {
	char *ptr;			/* what the user got */
	size_t size;
	char *map;			/* the mapping, guard pages included */
	size_t map_len;
	enum sim_alloc_kind kind;
	/* what its elements are (cudasimDescribeAllocation): 4-byte "float" unless the runner says otherwise */
	unsigned elem_size;
	char elem_name[16];
	bool integer;			/* integers differ exactly: no float rounding explains two orders apart */
	/* order check: snapshots of the pages a launch wrote */
	char *orig, *result;		/* shadows of [page_lo, page_hi) */
	unsigned char *dirty;		/* one byte per page: bit 0 run A, bit 1 run B */
	char *page_lo;
	size_t npages;
	/* check.c: per word, the blocks that last wrote and read it (made at the first store of a launch) */
	struct sim_word_blocks *blocks;
};
/* A new block, owned by the registry until sim_free (or sim_free_all) releases it. */
void *sim_alloc(size_t size, enum sim_alloc_kind kind);
/* 0, or -1 when ptr is no block of that kind. */
int sim_free(void *ptr, enum sim_alloc_kind kind);
struct sim_alloc *sim_alloc_find(const void *p);
/* The allocation whose mapping (guard pages too) holds p, or NULL. */
struct sim_alloc *sim_alloc_near(const void *p);
/* The allocation that starts highest at or below p, or NULL. */
struct sim_alloc *sim_alloc_below(const void *p);
void sim_free_all(void);
/* Every allocation's pages, for measure.c: protect them all; is p among them;
 * copy them all aside and back (the caller owns what snapshot returns). */
void sim_allocs_protect(int prot);
bool sim_in_alloc_pages(const void *p);
char *sim_allocs_snapshot(void);
void sim_allocs_restore(char *copy);
/* Between memory.c and kernel_memory.c, one module: where the __device__ variables lie (n: their bytes);
 * the first word of [mem, mem + len) that differs from exp and no atomic explains. */
char *sim_devvars(size_t *n);
bool sim_first_difference(const char *mem, const char *exp, size_t len, void **where, uint32_t *va,
			  uint32_t *vb, bool *atomic_word);
/* The first pointer argument of the coming launch that is not device memory (-1: none); clears it. */
int sim_bad_pointer_arg(const void **p);

/* Order check: watch writes to every allocation; see launch.c. */
/* Make the shadow copies; false when memory (the address space) runs short. */
bool sim_track_ready(void);
void sim_track_begin(int run);
bool sim_track_fault(void *addr);
/* The kernel wrote too many scattered pages to track: the first run's result stands. */
bool sim_track_overflowed(void);
void sim_track_end(void);
/* After run A: keep A's pages, put back the originals. */
void sim_track_swap_to_orig(void);
/* After run B: the first word that differs from run A and is not explained by atomics. */
bool sim_track_compare(void **where, uint32_t *a, uint32_t *b, bool *atomic_word);
void sim_track_restore_a(void);
/* Put the memory back as it was before the launch. */
void sim_track_restore_orig(void);
/* Atomic targets seen while tracking. */
void sim_atomic_reset(void);
bool sim_atomic_was(const void *p, int *kind, float *scale);
float sim_atomic_float_scale(void);
extern bool sim_atomics_used;

/* __device__ variables: the cudasim_device section, copied whole into slots
 * (0: before the launch, 1: order A's result, 2 and 3: the same for one block). */
#define SIM_DEVVAR_SLOTS 4
void sim_devvars_snapshot(int slot);
void sim_devvars_restore(int slot);
/* The first word that differs from the slot and is not explained by atomics. */
bool sim_devvars_compare(int slot, void **where, uint32_t *va, uint32_t *vb);
bool sim_is_devvar(const void *p);
struct sim_alloc *sim_devvars_alloc(void);
/* Whether [p, p + size) lies in a block that kernel code took with malloc (device-side malloc). */
bool sim_kernel_heap_holds(const void *p, size_t size);
/* "block_sums" and the offset in it, for an address among the __device__ variables. */
bool sim_devvar_name(const void *p, char *out, size_t n, size_t *offset);

/* Device memory open to host code for a launch or a runtime call, and closed again (nested). */
void sim_device_open(void);
void sim_device_close(void);

/* ---------------------------------------------------------------- fault.c */
void sim_fault_init(void);
void sim_watchdog_arm(void);
void sim_watchdog_disarm(void);
/* Describe the fault that ended the launch into the error detail. */
cudaError_t sim_fault_report(void);
/* Record the threads that write one word of device memory (the last one wins). */
void sim_watch_begin(void *word);
void sim_watch_end(void);
/* Report every access to the pages that traced() accepts, which the caller
 * protects (PROT_NONE); false where single-stepping is not supported. */
bool sim_trace_begin(bool (*traced)(const void *addr),
		     bool (*report)(int thread, uintptr_t pc, const void *addr, bool write));
void sim_trace_end(void);
/* "thread (x,y,z) of block (x,y,z) at file:line (in f)" of the last writer; false if none wrote. */
bool sim_watch_describe(char *out, size_t n, uint3 *block, uint3 *thread);
/* The CPU seconds a launch may take, fixed (CUDASIM_TIMEOUT is then not read); 0: no limit. */
void sim_watchdog_limit(double seconds);

/* ---------------------------------------------------------------- runtime.c */
bool sim_stream_valid(cudaStream_t s);

/* ---------------------------------------------------------------- device.c */
extern int sim_dyn_smem_optin;		/* from cudaFuncSetAttribute, 0 if never set (cudaDeviceReset) */
extern int sim_reported_sms;		/* the SMs the device reports (cudasimDryLaunches); 0: the CPU's cores */
/* The machine's memory, which the device reports as its own. */
size_t sim_total_memory(void);

/* ---------------------------------------------------------------- measure.c */
/* One access of one thread of a block, as measure.c and check.c see it. */
struct sim_access {
	int thread;			/* in the block */
	unsigned seq;			/* the k-th time this thread ran this instruction */
	uintptr_t pc, addr;
	bool write, shared;
	unsigned size;			/* bytes: 4 for a float, 16 for a float4 */
};
/* Add the requests of one block's accesses [a, a + n) to *into: a warp at one
 * instruction, the k-th time each lane got there, makes one (reorders a).
 * each, unless NULL, sees every request: its first access, its lanes, its
 * wavefronts (shared memory) or sectors (global), and the fewest it could
 * have for the bytes it asked for (a warp's float4 load of 512 contiguous
 * bytes: 16 sectors, 4 wavefronts). */
void sim_requests_count(struct sim_access *a, size_t n, struct cudasimStats *into,
			void (*each)(const struct sim_access *first, size_t lanes, unsigned units, unsigned ideal));
/* A block runs with shared memory protected: the runtime's own writes there unprotect first. */
extern bool sim_measuring;
/* Measure block (0,0,0) of the launch just run, when asked to. */
void sim_measure_launch(void);
/* The launch was abandoned: if a measurement ran, undo it. */
void sim_measure_abandon(void);

/* ---------------------------------------------------------------- lines.c */
/* A request counted by check.c: its first access, its sectors or wavefronts, and the fewest it could take. */
void sim_lines_request(const struct sim_access *first, unsigned units, unsigned ideal);

/* ---------------------------------------------------------------- check.c */
/* A launch begins (run 0; dry: it is only recorded, cudasimDryLaunches) and ends; a block of its first run has
 * finished. */
void sim_check_launch_begin(bool dry);
void sim_check_block_done(void);

/* Between check.c and its files, one module: whether this access is checked (kernel code of the first
 * run); the first finding of a kind, NULL if one was kept already (count them all); the other thread of a
 * race; an access kept for the request count; check one access (tsan.c's entry points). */
bool sim_checking(void);
void sim_check_shared_barrier(void);
struct cudasimFinding *sim_check_finding(int kind, const void *addr, unsigned size, bool write, uintptr_t pc);
void sim_check_other_access(struct cudasimFinding *f, int thread, bool write, uintptr_t pc);
void sim_check_keep(const char *p, unsigned size, bool write, bool shared, uintptr_t pc);
void sim_check_access(const void *addr, size_t size, bool write, uintptr_t pc);
/* check_shared.c: an access to the dynamic arena (dynamic) or the static one, at base; one past the dynamic
 * shared memory asked for (kind 1) or past a __shared__ variable (2); a parked block's shadow words kept
 * (the caller owns them; NULL when memory runs out) and put back (and freed). */
void sim_check_shared_access(bool dynamic, const char *base, const char *p, unsigned size, bool write, uintptr_t pc);
void sim_check_shared_out_of_bounds(const char *p, unsigned size, bool write, uintptr_t pc, int kind, size_t offset,
				    size_t extent);
void *sim_check_shared_park(void);
void sim_check_shared_resume(void *state);
/* check_global.c: a launch begins; it passed a grid.sync(); whether p is on the running thread's stack; memory
 * beyond the allocations that kernel code may reach; a global word's cross-block update; whether p is mapped;
 * host memory and an address far out of bounds, which end the launch. */
void sim_check_global_begin(void);
void sim_check_grid_synced(void);
bool sim_check_on_own_stack(const char *p);
bool sim_check_reachable_elsewhere(const char *p, size_t size, bool write);
void sim_check_cross_block(struct sim_alloc *a, const char *p, size_t size, bool write, uintptr_t pc);
bool sim_check_mapped(const char *p);
void sim_check_host_memory(const char *p, size_t size, bool write, uintptr_t pc) __attribute__((noreturn));
void sim_check_far_out_of_bounds(const char *p, size_t size, bool write, uintptr_t pc) __attribute__((noreturn));

/* ---------------------------------------------------------------- grid.c, order.c (under launch.c) */
/* Run every block of the current launch once in the given order; false once an error ended it. */
bool sim_grid_run(bool forward);
/* Free the blocks a cooperative launch parked (an abandoned launch's). */
void sim_grid_release(void);
/* The launch run by the order check, twice, from the same memory: the error it found, or cudaSuccess. */
cudaError_t sim_order_run(void);

#endif
