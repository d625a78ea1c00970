/*
 * The runner on the simulator only (harness/runner.h): what the simulator's
 * checks saw a case's launches do (findings, counts, the requests per line),
 * sent to the grader; a case run once more on fresh inputs, since the
 * simulator times nothing and has no timed rounds to catch a kernel that
 * remembers results; the reference's launches and both launchers' shapes at
 * the timed size, for the estimate of an H100's time; and host code that
 * touches device memory, told so. Built for the sim backend alone.
 */
#include <cuda_runtime.h>

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "harness/runner.h"
extern "C" {
#include "harness/rng.h"
}

static void
copy_where(char *to, const char *from)
{
	snprintf(to, 256, "%s", from);
}

static void
copy_dim(int32_t *to, uint3 from)
{
	to[0] = (int32_t)from.x;
	to[1] = (int32_t)from.y;
	to[2] = (int32_t)from.z;
}

/* The same requests per source line: the heat map of `cudalings grade --lines`. */
static void
send_lines(int index)
{
	static struct cudasimLine lines[PROTO_MAX_LINES];
	static struct proto_line out[PROTO_MAX_LINES];
	int n = cudasimTakeLines(lines, PROTO_MAX_LINES);
	for (int i = 0; i < n; i++) {
		memset(&out[i], 0, sizeof(out[i]));
		copy_where(out[i].where, lines[i].where);
		out[i].shared = (uint32_t)lines[i].shared;
		out[i].write = (uint32_t)lines[i].write;
		out[i].requests = lines[i].requests;
		out[i].units = lines[i].units;
		out[i].ideal = lines[i].ideal;
	}
	if (n > 0)
		proto_send(channel, MSG_LINES, (uint32_t)index, 0, out, sizeof(*out) * (size_t)n);
}

enum { ESTIMATE_SMS = 132 }; /* the SMs of the GPU the estimate is for (grader/engine/estimate.c's H100) */

/* The SMs the device reports: a launcher that fills the GPU sizes its grid by them. */
static int
device_sms(void)
{
	int sms = 0;
	return cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) == cudaSuccess ? sms : 0;
}

/* Each launch of the measured case, for the estimate of its time: aux 0 the student's, 1 the reference's. */
static void
send_launches(int index, uint32_t aux, const struct cudasimChecks *c, uint64_t case_bytes, int sms)
{
	for (int i = 0; index == cfg.measured && i < c->nlaunches && i < CUDASIM_LAUNCHES; i++) {
		const struct cudasimLaunchCounts *l = &c->launches[i];
		const struct cudasimStats *st = &l->stats;
		struct proto_launch p = { { l->grid[0], l->grid[1], l->grid[2] }, { l->block[0], l->block[1], l->block[2] },
					  l->smem, l->threads, l->global_loads, l->global_stores,
					  l->global_load_bytes, l->global_store_bytes, l->load_intervals, l->detail_blocks,
					  st->global_load_requests, st->global_load_sectors, st->global_load_ideal,
					  st->global_store_requests, st->global_store_sectors, st->global_store_ideal,
					  st->shared_requests, st->shared_wavefronts,
					  l->load_lines, l->store_lines, l->load_block_sectors, l->shared_broadcasts,
					  l->detail_load_bytes, l->detail_store_bytes, case_bytes, (uint64_t)sms };
		proto_send(channel, MSG_LAUNCH, (uint32_t)index, aux, &p, sizeof(p));
	}
}

/* What the simulator's checks saw the student's launches do (nothing on a GPU). */
void
send_checks(int index, uint64_t case_bytes)
{
	struct cudasimChecks c;
	if (cudasimTakeChecks(&c))
		return;
	send_launches(index, 0, &c, case_bytes, device_sms());
	for (int i = 0; i < c.nfindings; i++) {
		const struct cudasimFinding *f = &c.findings[i];
		struct proto_finding p;
		memset(&p, 0, sizeof(p));
		p.kind = (uint32_t)f->kind; /* the simulator's numbering is the protocol's */
		p.write = (uint32_t)f->write;
		p.other_write = (uint32_t)f->other_write;
		p.size = f->size;
		p.addr = f->shared ? (uint64_t)f->offset : (uint64_t)(uintptr_t)f->addr;
		p.count = f->count;
		p.extent = (uint64_t)f->extent;
		p.shared = f->shared;
		copy_dim(p.thread, f->thread);
		copy_dim(p.block, f->block);
		copy_dim(p.other_thread, f->other_thread);
		copy_where(p.where, f->where);
		copy_where(p.other_where, f->other_where);
		proto_send(channel, MSG_FINDING, (uint32_t)index, 0, &p, sizeof(p));
	}
	struct proto_counts n = { c.threads, c.global_loads, c.global_stores,
				  c.stats.global_load_requests, c.stats.global_load_sectors,
				  c.stats.global_store_requests, c.stats.global_store_sectors,
				  c.stats.shared_requests, c.stats.shared_wavefronts,
				  c.global_excess, c.shared_excess, "", "",
				  c.stats.global_load_ideal, c.stats.global_store_ideal, c.stats.shared_ideal,
				  c.global_load_bytes, 0 };
	copy_where(n.global_where, c.global_where);
	copy_where(n.shared_where, c.shared_where);
	proto_send(channel, MSG_COUNTS, (uint32_t)index, 0, &n, sizeof(n));
	send_lines(index);
}

/* Seconds of CPU time one simulated launch may take: less than the grader's limit per case
 * (grader/engine/grade.c), so that an endless kernel is named by the simulator, at its line. */
#define SIM_LAUNCH_CPU_LIMIT_S 20.0

/* That, or the lower limit the grader passed (--launch-cpu-limit). */
double
sim_launch_limit(void)
{
	return cfg.launch_cpu_limit > 0 && cfg.launch_cpu_limit < SIM_LAUNCH_CPU_LIMIT_S ? cfg.launch_cpu_limit
											   : SIM_LAUNCH_CPU_LIMIT_S;
}

/* Whether the simulator runs case `index` again: every case of the cheaper half (by the product of their sizes)
 * and one of the others, picked by the secret seed, so that no size a submission might remember is safe. */
bool
again_case(int index)
{
	int order[CASES_MAX], n = cfg.ncases;
	double work[CASES_MAX];
	for (int i = 0; i < n; i++) {
		work[i] = 1;
		for (int d = 0; d < PROTO_MAX_DIMS; d++)
			work[i] *= cfg.dims[i][d] > 0 ? cfg.dims[i][d] : 1;
		int j = i;
		for (; j > 0 && work[order[j - 1]] > work[i]; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
	int cheap = (n + 1) / 2, dear = n - cheap;
	for (int k = 0; k < cheap; k++)
		if (order[k] == index)
			return true;
	return dear > 0 && order[cheap + (int)(rng_mix(cases_seed(&cfg) ^ 0x616761696eull) % (uint64_t)dear)] == index;
}

/*
 * The reference solution on the measured case, its own outputs, with the
 * checks on: its launches, beside the student's, make the estimate's
 * ratio (the reference is compiled with the instrumentation on the
 * simulator). Its results are not looked at.
 */
static void
send_reference_launches(int index)
{
	struct case_buffers case_b, *b = &case_b;
	if (setup_case(index, b)) {
		free_case(b);
		return;
	}
	void *dev[PROTO_MAX_BUFFERS];
	bool ready = true;
	for (int k = 0; k < b->c.nbuffers; k++) {
		dev[k] = b->dev[k];
		if (ready && b->c.spec[k].role == BUFFER_OUT)
			ready = cudaMalloc(&dev[k], b->bytes[k]) == cudaSuccess;
		else if (b->c.spec[k].role == BUFFER_OUT)
			dev[k] = NULL;
	}
	static struct cudasimChecks seen;
	static struct cudasimLine lines[PROTO_MAX_LINES];
	if (ready && poison_outputs(b, dev) == cudaSuccess) {
		check_definition.launch(cudalings_reference_launcher, &b->c, dev);
		if (cudaDeviceSynchronize() == cudaSuccess && cudasimTakeChecks(&seen) == 0)
			send_launches(index, 1, &seen, case_bytes(b), device_sms());
	}
	cudaGetLastError();
	cudasimTakeChecks(&seen);
	cudasimTakeLines(lines, PROTO_MAX_LINES);
	for (int k = 0; k < b->c.nbuffers; k++)
		if (dev[k] && dev[k] != b->dev[k])
			cudaFree(dev[k]);
	free_case(b);
}

/*
 * The shapes a launcher picks at the timed size, too large to simulate: its
 * launches are checked and recorded but not run (cudasimDryLaunches), over
 * small buffers; sent as the measured case's launches with aux (2: the
 * student's, 3: the reference's). What the launcher's memsets of the small
 * buffers say is not looked at.
 */
static void
send_dry_launches(uint32_t aux, const void *launcher)
{
	struct check_case c;
	memset(&c, 0, sizeof(c));
	memcpy(c.dims, cfg.estimate_at, sizeof(c.dims));
	check_definition.buffers(&c);
	void *dev[PROTO_MAX_BUFFERS] = { 0 };
	bool ready = true;
	for (int k = 0; k < c.nbuffers && ready; k++)
		ready = cudaMalloc(&dev[k], 4096) == cudaSuccess;
	static struct cudasimChecks seen;
	cudasimTakeChecks(&seen);
	if (ready) {
		cudasimDryLaunches(ESTIMATE_SMS);
		if (launcher == student_launcher)
			before_student_code();
		check_definition.launch(launcher, &c, dev);
		cudaDeviceSynchronize();
		cudasimDryLaunches(0);
		cudaGetLastError();
		cudasimTakeChecks(&seen);
		send_launches(cfg.measured, aux, &seen, 0, ESTIMATE_SMS);
	}
	static struct cudasimLine lines[PROTO_MAX_LINES];
	cudasimTakeLines(lines, PROTO_MAX_LINES);
	for (int k = 0; k < c.nbuffers; k++)
		if (dev[k])
			cudaFree(dev[k]);
}

/*
 * The simulator times nothing, so it has no timed rounds to catch a kernel
 * that remembers results or computes only some launches: a case runs once
 * more (again_case says which) in its own buffers, with inputs drawn afresh from the secret seed,
 * and its outputs are compared with the reference solution's for them, as
 * the GPU's timed rounds are.
 */
void
run_again(int index, struct case_buffers *b)
{
	struct timing_state t;
	memset(&t, 0, sizeof(t));
	t.index = index;
	t.b = b;
	bool ready = harness_call(index, "allocating the round check", cudaMalloc(&t.check, sizeof(*t.check))) == 0;
	for (int k = 0; k < b->c.nbuffers; k++) {
		t.ref_dev[k] = b->dev[k];
		if (ready && b->c.spec[k].role == BUFFER_OUT)
			ready = harness_call(index, "cudaMalloc in the harness", cudaMalloc(&t.ref_dev[k], b->bytes[k])) == 0;
	}
	/* races and the figures were the case's to find: this launch only needs its result, once */
	cudasimConfigure(0, sim_launch_limit());
	cudasimCheck(0);
	if (ready && draw_round_inputs(&t) == 0 &&
	    harness_call(index, "poisoning the outputs", poison_outputs(b, b->dev)) == 0) {
		before_student_code();
		check_definition.launch(student_launcher, &b->c, b->dev);
		cudaError_t e = cudaGetLastError();
		if (e == cudaSuccess)
			e = cudaDeviceSynchronize();
		/* what the checks saw and the figures per line are the case's, sent with it already */
		static struct cudasimChecks seen;
		static struct cudasimLine lines[PROTO_MAX_LINES];
		cudasimTakeChecks(&seen);
		cudasimTakeLines(lines, PROTO_MAX_LINES);
		if (e != cudaSuccess)
			report_cuda_error(index, PROTO_STAGE_RUN, "running the case again", e);
		else if (reference_again(&t) == 0)
			check_round(&t, false);
	}
	cudasimConfigure(1, sim_launch_limit());
	cudasimCheck(1);
	for (int k = 0; k < b->c.nbuffers; k++)
		if (t.ref_dev[k] != b->dev[k])
			cudaFree(t.ref_dev[k]);
	cudaFree(t.check);
}

/*
 * After every case, and after the grader heard they are done: the reference
 * on the measured case, and both launchers' shapes at the timed size.
 */
void
send_estimate_launches(void)
{
	send_reference_launches(cfg.measured);
	send_dry_launches(2, student_launcher);
	send_dry_launches(3, cudalings_reference_launcher);
}

/*
 * The frames below this one are dead, and the submission's launcher, called next, will have its own there:
 * what the harness left in them (a value drawn from the seed, say) is wiped first. Not inlined, so that
 * the wiped stretch lies below the caller's frame.
 */
__attribute__((noinline)) void
before_student_code(void)
{
	unsigned char dead[1 << 16];
	explicit_bzero(dead, sizeof(dead));
	__asm__ volatile("" : : "r"(dead) : "memory");
}

/* Host code that reads or writes "device" memory, which on a GPU it cannot reach: said in those words. */
static void
on_host_fault(int sig, siginfo_t *si, void *ctx)
{
	(void)ctx;
	if (cudasimGuardedDeviceAddress(si->si_addr)) {
		static const char text[] = "host code touched device memory outside a kernel (a loop over a cudaMalloc'd "
					   "pointer in the launcher, say): on a GPU that memory is not the host's and this "
					   "is an illegal access; only kernels and cudaMemcpy/cudaMemset may touch it";
		struct proto_header h = { PROTO_MAGIC, MSG_ERROR, (uint32_t)current_case, PROTO_STAGE_RUN, sizeof(text) - 1 };
		if (write(channel, &h, sizeof(h)) == (ssize_t)sizeof(h))
			(void)!write(channel, text, sizeof(text) - 1);
		_exit(1);
	}
	signal(sig, SIG_DFL);
}

void
catch_host_faults(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_host_fault;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSEGV, &sa, NULL);
}
