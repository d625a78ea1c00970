/*
 * launch.c — a kernel launch: the limits a real sm_90 GPU enforces, then its
 * blocks run (grid.c), once, or twice by the order check (order.c), which
 * catches a missing __syncthreads(): the launch runs twice,
 * first with blocks and threads in forward order (thread 0 first at every
 * barrier interval), then with both reversed, from the same memory. The
 * pages the first run wrote are kept and the originals put back (memory.c);
 * a word that comes out different is an error of the launch. Words written
 * by atomics may differ within rounding (float sums in another order), and
 * atomicExch/CAS/Inc/Dec results may differ at all. The first run's result
 * is what the program sees, so every run is deterministic.
 *
 * Layer 7, the top: calls every module below it, grid.c and order.c too.
 */
#include "sim.h"

#include <stdint.h>

/* in the section of the variables kernel code may read (check.c) */
int cudasim_tracking __attribute__((section("cudasim_builtins")));

static int order_check = -1;

void
cudasimConfigure(int check_order, double launch_cpu_seconds)
{
	order_check = check_order != 0;
	sim_watchdog_limit(launch_cpu_seconds);
}

static bool
order_check_on(void)
{
	if (order_check < 0) {
		const char *e = getenv("CUDASIM_ORDER_CHECK");

		order_check = !(e && !strcmp(e, "0"));
	}
	return order_check;
}

/* A host function was entered (the rewriter's call): from kernel code, that is the GPU running host code. */
void
cudasim_host_function(const char *name)
{
	if (!sim_cur.active || sim_blk.cur < 0)
		return;
	sim_error(cudaErrorIllegalAddress,
		  "%s called the host function '%s' (through a pointer, which the compiler cannot check): a "
		  "kernel runs on the GPU, where the host's functions do not exist, so on a GPU this is an "
		  "illegal address; a kernel may call only __device__ functions", sim_where(), name);
	sim_abandon(cudaErrorIllegalAddress);
}

/*
 * The CUDA runtime's host API, called from kernel code (behind #ifdef __CUDASIM__, where nvcc, which
 * refuses it without a device runtime, does not look): what it reads and writes would pass unseen by the
 * checks and the figures, so the launch ends, as a host function's call does.
 */
void
sim_host_api(const char *call)
{
	if (!sim_cur.active || sim_blk.cur < 0)
		return;
	sim_error(cudaErrorIllegalAddress,
		  "%s called the CUDA runtime's host function '%s': a kernel cannot call it on a GPU (nvcc refuses "
		  "it), and on the simulator what it reads or writes would pass unseen by the checks and the "
		  "figures", sim_where(), call);
	sim_abandon(cudaErrorIllegalAddress);
}

/* Whether cudaFuncGetAttributes or the occupancy API answered about a kernel whose bound was not known. */
static bool answered_unknowing;

/*
 * A kernel compiled for at most max_threads per block: a GPU refuses a launch of more. But a kernel the
 * rewriter could not name (a template's parameter of no name) had no bound registered: where a query was
 * answered without one, the launcher may have sized its block by that answer, which a GPU would have
 * made the bound, so the launch runs, as it would have with the right answer.
 */
void
cudasim_launch_bounds(unsigned long long max_threads, const char *kernel, int registered)
{
	unsigned long long threads = (unsigned long long)blockDim.x * blockDim.y * blockDim.z;

	if (!sim_cur.active || sim_blk.cur < 0 || threads <= max_threads || (!registered && answered_unknowing))
		return;
	sim_error(cudaErrorLaunchOutOfResources,
		  "%llu threads per block, but '%s' declares __launch_bounds__(%llu): it is compiled for at "
		  "most %llu threads per block, and a GPU refuses the launch (too many resources requested for "
		  "launch). Launch at most %llu threads per block, or raise the bound", threads, kernel,
		  max_threads, max_threads, max_threads);
	sim_abandon(cudaErrorLaunchOutOfResources);
}

/* The kernels whose bound the rewriter registered as the program loaded (each instance of a template). */
static struct { const void *kernel; unsigned bound; } bounds[256];
static int nbounds;

int
cudasim_register_bounds(const void *kernel, unsigned long long max_threads)
{
	if (nbounds < (int)(sizeof(bounds) / sizeof(*bounds)))
		bounds[nbounds++] = (typeof(bounds[0])){ kernel, max_threads < 1024 ? (unsigned)max_threads : 1024 };
	return 0;
}

unsigned
cudasim_kernel_bound(const void *kernel)
{
	for (int i = 0; i < nbounds; i++)
		if (bounds[i].kernel == kernel)
			return bounds[i].bound;
	answered_unknowing = true;
	return 0;
}

/* The phrase the grader knows this by ("the simulator cannot launch"): a GPU's limit, not the student's. */
cudaError_t
cudasim_untyped_launch(const char *kernel, const char *file, int line)
{
	return sim_error(cudaErrorNotSupported,
			 "kernel '%s' (launched at %s:%d): the simulator cannot launch a kernel given by a pointer of "
			 "no type (void *), whose parameters it cannot know; give the launch the kernel itself (its "
			 "name, or a pointer of its type), or grade this on a GPU", kernel, file, line);
}

static cudaError_t
config_error(cudaError_t err, const char *fmt, ...) __attribute__((format(__printf__, 2, 3)));

static cudaError_t
config_error(cudaError_t err, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return sim_error(err, "kernel '%s' launched at %s:%d with grid (%u,%u,%u) and block "
			 "(%u,%u,%u): %s", sim_cur.site->kernel, sim_cur.site->file,
			 sim_cur.site->line, sim_cur.grid.x, sim_cur.grid.y, sim_cur.grid.z,
			 sim_cur.block.x, sim_cur.block.y, sim_cur.block.z, msg);
}

static cudaError_t
check_config(void)
{
	dim3 g = sim_cur.grid, b = sim_cur.block;
	unsigned long long threads = (unsigned long long)b.x * b.y * b.z;
	size_t dyn_limit = sim_dyn_smem_optin ? (size_t)sim_dyn_smem_optin : SIM_SMEM_DEFAULT;

	if (!threads)
		return config_error(cudaErrorInvalidConfiguration,
				    "a block needs at least one thread in each dimension");
	if (!g.x || !g.y || !g.z)
		return config_error(cudaErrorInvalidConfiguration,
				    "a grid needs at least one block in each dimension");
	if (b.x > 1024 || b.y > 1024 || b.z > 64)
		return config_error(cudaErrorInvalidConfiguration,
				    "a block may be at most 1024 x 1024 x 64 threads");
	if (threads > 1024)
		return config_error(cudaErrorInvalidConfiguration,
				    "%llu threads per block; a block may have at most 1024", threads);
	if (g.x > 2147483647u || g.y > 65535 || g.z > 65535)
		return config_error(cudaErrorInvalidConfiguration,
				    "a grid may be at most 2147483647 x 65535 x 65535 blocks");
	if (sim_cur.smem > dyn_limit)
		return config_error(cudaErrorInvalidValue,
				    "%zu bytes of dynamic shared memory, over the %zu bytes a block "
				    "may have%s", sim_cur.smem, dyn_limit,
				    sim_dyn_smem_optin ? " (the value given to cudaFuncSetAttribute)" :
				    " without opting in (cudaFuncSetAttribute(kernel, "
				    "cudaFuncAttributeMaxDynamicSharedMemorySize, bytes) allows up to 232448)");
	if (sim_cur.smem + sim_cur.site->static_smem > sim_cur.smem_limit)
		return config_error(cudaErrorInvalidValue,
				    "%zu bytes of static and %zu bytes of dynamic shared memory, over "
				    "the %zu bytes a block may have", sim_cur.site->static_smem,
				    sim_cur.smem, sim_cur.smem_limit);
	if (!sim_stream_valid(sim_cur.stream))
		return config_error(cudaErrorInvalidResourceHandle,
				    "the stream is not one that cudaStreamCreate made (destroyed already?)");
	if (sim_cur.cooperative) {
		/* every block must be on the GPU at once, or a grid.sync() waits for blocks that cannot start */
		int sms = 1, per_sm = 1;
		unsigned long long blocks = (unsigned long long)g.x * g.y * g.z;

		cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
		cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, (const void *)check_config, (int)threads,
							      sim_cur.smem + sim_cur.site->static_smem);
		if (blocks > (unsigned long long)sms * (unsigned long long)per_sm)
			return config_error(cudaErrorCooperativeLaunchTooLarge,
					    "a cooperative launch of %llu blocks, more than this GPU holds at once "
					    "(%d SMs x %d blocks of %llu threads): grid.sync() would wait for blocks "
					    "that cannot start; size the grid with cudaOccupancyMaxActiveBlocksPerMultiprocessor "
					    "and cudaDevAttrMultiProcessorCount", blocks, sms, per_sm, threads);
	}
	return cudaSuccess;
}

static bool dry_launches, cooperative_next;

void
cudasim_cooperative_next(void)
{
	cooperative_next = true;
}

void
cudasimDryLaunches(int sms)
{
	dry_launches = sms > 0;
	sim_reported_sms = sms > 0 ? sms : 0;
}

void
cudasim_launch(struct cudasim_site *site, dim3 grid, dim3 block, size_t smem,
	       cudaStream_t stream, void (*thunk)(void *), void *closure, size_t closure_size)
{
	unsigned threads;
	cudaError_t err;
	bool check;
	const void *host_ptr;
	int bad;

	if (sim_sticky()) {
		sim_bad_pointer_arg(&host_ptr);
		return;
	}
	if (sim_cur.active) {
		sim_error(cudaErrorNotSupported, "kernel '%s' launched at %s:%d from inside a "
			  "kernel: the simulator does not run dynamic parallelism",
			  site->kernel, site->file, site->line);
		sim_abandon(cudaErrorNotSupported);
	}
	sim_cur.site = site;
	sim_cur.grid = grid;
	sim_cur.block = block;
	sim_cur.smem = smem;
	sim_cur.stream = stream;
	sim_cur.smem_limit = sim_dyn_smem_optin ? CUDASIM_SMEM_OPTIN : SIM_SMEM_DEFAULT;
	sim_cur.quiet = false;
	sim_cur.run = 0;
	sim_cur.cooperative = cooperative_next;
	cooperative_next = false;
	if (check_config()) {
		sim_bad_pointer_arg(&host_ptr);
		return;
	}
	bad = sim_bad_pointer_arg(&host_ptr);
	if (bad >= 0) {
		config_error(cudaErrorIllegalAddress,
			     "argument %d is %p, a host pointer, not device memory from cudaMalloc; "
			     "a kernel cannot read or write host memory (was the host array passed "
			     "instead of its device copy?)", bad + 1, host_ptr);
		return;
	}
	site->launches++;
	if (dry_launches) {
		sim_check_launch_begin(true);
		return;
	}
	threads = block.x * block.y * block.z;
	/* Without room for the shadow copies, the launch runs once, unchecked. */
	check = order_check_on() &&
		(threads > 1 || (unsigned long long)grid.x * grid.y * grid.z > 1) &&
		sim_track_ready();

	gridDim = grid;
	blockDim = block;
	sim_blk.n = (int)threads;
	sim_blk.thunk = thunk;
	sim_blk.closure = closure;
	sim_cur.params = closure;
	sim_cur.params_size = closure_size;
	sim_fault_init();
	sim_device_open();

	if (sigsetjmp(sim_abandon_jmp, 1)) {
		/* A fault, a timeout or a limit ended the launch. */
		bool tracked = cudasim_tracking;

		sim_device_close();
		sim_cur.active = false;
		cudasim_tracking = 0;
		sim_watchdog_disarm();
		sim_watch_end();
		sim_measure_abandon();
		sim_dyn_smem_unfence();
		if (tracked) {
			sim_track_end();
			if (sim_cur.run == 1) {
				sim_track_restore_a();
				sim_devvars_restore(1);
			}
		}
		sim_stack_put_all();
		sim_grid_release();
		sim_blk.cur = -1;
		err = sim_abandon_err ? sim_abandon_err : sim_fault_report();
		sim_abandon_err = cudaSuccess;
		sim_detail_prefix("kernel '%s' (launched at %s:%d): ", site->kernel,
				  site->file, site->line);
		if (sim_cur.run == 1)
			sim_detail_append(" (this happened only when the threads ran in "
					  "the reverse order)");
		sim_printf_flush();
		(void)err;
		return;
	}
	sim_check_launch_begin(false);
	sim_cur.active = true;
	sim_dyn_smem_fence(smem);
	sim_watchdog_arm();
	if (check) {
		err = sim_order_run();
	} else {
		sim_grid_run(true);
		err = sim_sticky();
	}
	if (!err) {
		sim_cur.quiet = true;
		sim_measure_launch();
	}
	sim_watchdog_disarm();
	sim_dyn_smem_unfence();
	cudasim_tracking = 0;
	sim_cur.active = false;
	if (sim_blk.static_smem > site->static_smem)
		site->static_smem = sim_blk.static_smem;
	if (err)
		sim_detail_prefix("kernel '%s' (launched at %s:%d): ", site->kernel,
				  site->file, site->line);
	sim_printf_flush();
	sim_device_close();
}
