/*
 * The runner: it draws the inputs from the seed the grader passes, runs the
 * student's launches, and ships the raw outputs and the timings to the
 * grader over the channel. It decides nothing: the grader compares the
 * outputs with the judge's reference.
 *
 * This file owns the process: its options and state, the GPU opened and the
 * sandbox entered before the submission is loaded, the cases in order, and
 * CUDA's errors said in plain words. A case is runner_case.cu's, the timing
 * runner_rounds.cu's and runner_timed.cu's, the simulator's own reports
 * runner_sim.cu's (harness/runner.h lists them).
 *
 * Built twice from these files. By nvcc for the GPU, where it is the
 * measuring process: it never loads the student's host code, only its
 * device code, and replays the plans the capture process recorded of the
 * launcher's calls (harness/capture.cpp, harness/replay.cpp), so nothing
 * the submission's host code does can reach this process's memory or its
 * channel. Through the CPU simulator's rewriter for the sim backend, where
 * it loads the student's shared object and calls the launcher itself.
 */
#include <cuda_runtime.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/runner.h"
extern "C" {
#include "harness/sandbox.h"
}
#ifndef __CUDASIM__
#include "harness/gpu_open.h"
#include "harness/replay.h"
#endif

/* the process's state (harness/runner.h says what each is) */
struct run_config cfg;
int channel;
volatile int current_case;
const void *student_launcher;

static const char *
plain_words(cudaError_t e)
{
	switch (e) {
	case cudaErrorIllegalAddress:
		return "an illegal memory address: a thread read or wrote outside an array";
	case cudaErrorMisalignedAddress:
		return "a misaligned address: a thread read a value at an address that is not a multiple of its size";
	case cudaErrorInvalidConfiguration:
		return "an invalid launch configuration: a grid or block with a zero size, more than 1024 threads "
		       "per block, or too much shared memory";
	case cudaErrorLaunchOutOfResources:
		return "too many resources asked for: fewer threads per block or fewer registers per thread";
	case cudaErrorLaunchFailure:
		return "the kernel failed while it ran";
	case cudaErrorAssert:
		return "an assert() in a kernel failed";
	case cudaErrorIllegalInstruction:
		return "the kernel executed an illegal instruction (a trap, or a bad function pointer)";
	case cudaErrorLaunchTimeout:
		return "the kernel ran too long and was stopped";
	case cudaErrorMemoryAllocation:
		return "out of GPU memory";
	case cudaErrorInvalidValue:
		return "an invalid argument to a CUDA call";
	case cudaErrorNoKernelImageForDevice:
	case cudaErrorInvalidDeviceFunction:
		return "the kernel was not built for this GPU";
	case cudaErrorNoDevice:
		return "no CUDA GPU is visible to this process";
	case cudaErrorInsufficientDriver:
		return "the NVIDIA driver is older than the CUDA toolkit that built the program";
	default:
		return "a CUDA error";
	}
}

static const char *
error_detail(void)
{
#ifdef __CUDASIM__
	return cudasimLastErrorDetail();
#else
	return "";
#endif
}

/*
 * Report a CUDA failure in `what` during case `index` and decide whether the
 * process can go on: a sticky error poisons the context, so stop there.
 */
void
report_cuda_error(int index, uint32_t stage, const char *what, cudaError_t e)
{
	const char *detail = error_detail();
	/* a race gives a wrong result, however the simulator noticed it */
	if (strstr(detail, "depends on the order in which")) {
		/* the launch "failed" only because the simulator compared two orders: say the race first */
		proto_sendf(channel, MSG_ERROR, (uint32_t)index, PROTO_STAGE_RACE, "%s", detail);
	} else {
		proto_sendf(channel, MSG_ERROR, (uint32_t)index, stage, "%s: %s (%s)%s%s", what,
			    plain_words(e), cudaGetErrorName(e), *detail ? "\n" : "", detail);
	}
	cudaGetLastError();
	if (cudaDeviceSynchronize() != cudaSuccess) {
		proto_send(channel, MSG_DONE, (uint32_t)index, 0, NULL, 0);
		exit(1);
	}
}

int
harness_call(int index, const char *what, cudaError_t e)
{
	if (e == cudaSuccess)
		return 0;
	report_cuda_error(index, PROTO_STAGE_RUN, what, e);
	return -1;
}

static bool
is_simulator(void)
{
#ifdef __CUDASIM__
	return true;
#else
	return false;
#endif
}

static void
send_device(void)
{
	struct proto_device d;
	cudaDeviceProp p;
	int device = 0;
	memset(&d, 0, sizeof(d));
	if (cudaGetDevice(&device) != cudaSuccess ||
	    cudaGetDeviceProperties(&p, device) != cudaSuccess) {
		cudaError_t e = cudaGetLastError();
		proto_sendf(channel, MSG_ERROR, 0, PROTO_STAGE_DEVICE, "no GPU could be opened: %s (%s)",
			    plain_words(e), cudaGetErrorName(e));
		proto_send(channel, MSG_DONE, 0, 0, NULL, 0);
		exit(1);
	}
	snprintf(d.name, sizeof(d.name), "%s", p.name);
	d.cc_major = p.major;
	d.cc_minor = p.minor;
	d.sm_count = p.multiProcessorCount;
	d.l2_bytes = p.l2CacheSize;
	cudaDeviceGetAttribute(&d.mem_clock_khz, cudaDevAttrMemoryClockRate, device);
	cudaDeviceGetAttribute(&d.bus_width_bits, cudaDevAttrGlobalMemoryBusWidth, device);
#ifdef __CUDASIM__
	d.is_simulator = 1;
#endif
	proto_send(channel, MSG_HELLO, 0, 0, &d, sizeof(d));
}

/*
 * Open the GPU, enter the sandbox, then load the submission: its code, its
 * constructors too, runs only under the filter. The grader hears HELLO
 * before the loading, so a constructor that never returns is found quickly.
 */
static void
load_student(void)
{
#ifndef __CUDASIM__
	/* the context, its threads and the files it opens lazily exist before the filter (not under a tool:
	   its figures are the student's; but for a tool's process started early, the point's: its tool,
	   Nsight Compute from cudaProfilerStart on, sees nothing of this, and the context, with what the
	   tool sets up in it, is made while the file compiles rather than after the graded run; with
	   --profile-warm-up that was done before HELLO) */
	if ((!cfg.under_tool || cfg.wait_go) && !cfg.profile_warm_up)
		gpu_open_before_filter();
	cudaGetLastError();
	if (!cfg.under_tool)
		clocks_open();
#endif
	/* the inputs' threads too: the simulator's filter refuses new ones */
	static volatile int threads;
	#pragma omp parallel
	{
		#pragma omp atomic
		threads++;
	}
	if (sandbox_enter(channel, is_simulator(), cfg.under_tool)) {
		proto_sendf(channel, MSG_ERROR, 0, PROTO_STAGE_DEVICE, "the system-call filter could not be installed");
		proto_send(channel, MSG_DONE, 0, 0, NULL, 0);
		exit(1);
	}
#ifdef __CUDASIM__
	/* HELLO once the filter is in, still before the loading: what the simulator's runner says of its
	   machine comes before it, so that the grader takes such a report after it for what it is, the
	   submission's own (its constructors and launcher run in this process) */
	send_device();
#endif
	/* started while the submission compiled: the GPU is open, the filter in place; the grader says
	   when the file is there, or closes our input when there is nothing to run */
	char go;
	if (cfg.wait_go && read(0, &go, 1) != 1)
		exit(0);
	char why[1024];
#ifdef __CUDASIM__
	/* its faults and checks name lines of the student's file */
	cudasimProgramObject(cfg.student);
	before_student_code(); /* its constructors */
	student_launcher = cfg.student ? sandbox_load(cfg.student, cudalings_launcher_name, why, sizeof(why)) : NULL;
	/* as on a GPU, host code cannot read or write device memory: only kernels and runtime calls can */
	catch_host_faults();
	cudasimGuardDeviceMemory(1);
	if (!student_launcher) {
		proto_sendf(channel, MSG_REFUSED, 0, SANDBOX_LOAD, "%s", cfg.student ? why : "no --student given");
		proto_send(channel, MSG_DONE, 0, 0, NULL, 0);
		exit(1);
	}
#else
	/* only the device code, as data, and the plans the grader checked: no host code of the student's */
	static const char plans_stand_in = 0;
	if (replay_open(&cfg, why, sizeof(why))) {
		proto_sendf(channel, MSG_REFUSED, 0, SANDBOX_RUN, "its launcher's calls could not be replayed: %s", why);
		proto_send(channel, MSG_DONE, 0, 0, NULL, 0);
		exit(1);
	}
	student_launcher = &plans_stand_in;
#endif
}

int
main(int argc, char **argv)
{
	if (cases_parse(argc, argv, &cfg))
		return 2;
	channel = cfg.channel_fd;
#ifdef __CUDASIM__
	/* the order check always, and a CPU-time limit per launch under the grader's per-case one */
	cudasimConfigure(1, sim_launch_limit());
#endif
	/* the driver's JIT cache is a file it writes: the sandbox writes none */
	setenv("CUDA_CACHE_DISABLE", "1", 1);
#ifndef __CUDASIM__
	/* the point's process, started while the file compiles: the GPU opened and Nsight Compute's first
	   profiled launch paid (harness/gpu_open.h) before HELLO, which tells the grader that this process
	   is quiet now and the graded run may time (a failed warm-up leaves the student's launch the first
	   ncu measures, which the grader then counts: it is always the student's) */
	if (cfg.profile_warm_up) {
		gpu_open_before_filter();
		gpu_open_profile_warm_up();
	}
#endif
#ifndef __CUDASIM__
	send_device();
#endif
	load_student();
	for (int i = 0; i < cfg.ncases; i++) {
		if (i == cfg.timed)
			run_timed_case(i);
		else if (i != cfg.timed + 1 || cfg.timed < 0)
			run_correctness_case(i);
	}

	proto_send(channel, MSG_DONE, 0, 0, NULL, 0);
#ifdef __CUDASIM__
	/* after every case, and after the grader heard they are done: what the reference's run or the
	   launchers' calls at the timed size do (an error, a crash) meets no case of the student's */
	if (cfg.measured >= 0 && cfg.estimate_at[0] > 0 && cudaPeekAtLastError() == cudaSuccess)
		send_estimate_launches();
#endif
	return 0;
}
