/*
 * The capture process (GPU only): the one process that runs the
 * submission's host code. It calls the launcher once per case, in the
 * order the measuring process first replays them, on stand-in buffers
 * (inputs zero, outputs poisoned), and records what the launcher asks of
 * the GPU as a plan (harness/plan.h): its launches, its own allocations,
 * memsets, copies to symbols, function attributes, synchronisations. It
 * sends the grader plans and nothing else that counts: no output, no
 * time. The launches run for real, so that the launcher sees errors,
 * occupancy and device properties as on any GPU.
 *
 * The recording is done by defining the CUDA runtime's entry points
 * (capture_runtime.cpp): the executable exports them
 * (harness/capture.dynlist), so the submission's shared object, loaded
 * later, binds to them; each records (capture_plan.cpp), then calls the
 * runtime's own, found with dlsym(RTLD_NEXT) before the sandbox. The
 * harness's own calls go to the runtime's directly. Plain C++ (not nvcc):
 * these definitions would clash with the device runtime's. This file is
 * the process: its cases, one plan each, and its main.
 */
#include "harness/capture.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

extern "C" {
#include "harness/cases.h"
#include "harness/gpu_open.h"
#include "harness/sandbox.h"
}

static struct run_config cfg;
static int channel;

/* ------------------------------------------------------------ the cases */

/* The launcher's calls for case `index`, on stand-in buffers; sends the plan. 0, or -1 when the GPU is lost. */
static int
capture_case(const void *launcher, int index)
{
	struct check_case c;
	void *dev[PROTO_MAX_BUFFERS] = { 0 };
	cases_describe(&cfg, index, &c);
	capture_rec.on = false;
	for (int k = 0; k < c.nbuffers; k++) {
		size_t bytes = check_bytes(&c.spec[k]);
		bool input = c.spec[k].role == BUFFER_IN;
		/* 512 bytes more, so that one array's end is never the next one's start */
		if (capture_real.malloc(&dev[k], bytes + 512) != cudaSuccess ||
		    capture_real.memset(dev[k], input ? 0 : dtype_poison_byte(c.spec[k].type), bytes) != cudaSuccess) {
			proto_sendf(channel, MSG_ERROR, (uint32_t)index, PROTO_STAGE_RUN,
				    "the capture of the launcher's calls could not allocate the case's %zu bytes", bytes);
			return -1;
		}
		capture_rec.regions[k] = { (unsigned char *)dev[k], bytes, { PLAN_CASE_BUFFER, (uint32_t)k, 0 }, true };
	}
	capture_rec.nbuffers = c.nbuffers;
	capture_rec.refused = false;
	/* the grader's deadline for a case starts here */
	proto_send(channel, MSG_CASE_BEGIN, (uint32_t)index, 0, NULL, 0);
	capture_rec.on = true;
	check_definition.launch(launcher, &c, dev);
	capture_rec.on = false;
	cudaError_t e = capture_real.device_sync();
	proto_send(channel, MSG_PLAN, (uint32_t)index, 0, capture_rec.plan.data(), capture_rec.plan.size());
	capture_rec.plan.clear();
	for (int k = 0; k < c.nbuffers; k++) {
		capture_rec.regions[k].live = false;
		capture_real.free(dev[k]);
	}
	if (e != cudaSuccess) {
		/* the measuring process replays the plan and says what failed; a lost context ends the capture */
		cudaGetLastError();
		if (capture_real.device_sync() != cudaSuccess)
			return -1;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	if (cases_parse(argc, argv, &cfg))
		return 2;
	channel = cfg.channel_fd;
	setenv("CUDA_CACHE_DISABLE", "1", 1);
	/* the case buffers' regions come first, by index */
	capture_rec.regions.resize(PROTO_MAX_BUFFERS);
	if (!capture_find_runtime()) {
		proto_sendf(channel, MSG_ERROR, 0, PROTO_STAGE_DEVICE,
			    "the CUDA runtime lacks an entry point the capture needs (CUDA 12.8 or later)");
		proto_send(channel, MSG_DONE, 0, 0, NULL, 0);
		return 1;
	}
	gpu_open_before_filter();
	if (sandbox_enter(channel, false, false)) {
		proto_sendf(channel, MSG_ERROR, 0, PROTO_STAGE_DEVICE, "the system-call filter could not be installed");
		proto_send(channel, MSG_DONE, 0, 0, NULL, 0);
		return 1;
	}
	char go;
	if (cfg.wait_go && read(0, &go, 1) != 1)
		return 0;
	char why[1024];
	/* from here on every call the submission makes is recorded, its constructors' too (into case 0's plan) */
	capture_rec.on = true;
	const void *launcher = cfg.student && cfg.launcher ? sandbox_load(cfg.student, cfg.launcher, why, sizeof(why)) : NULL;
	capture_rec.on = false;
	if (!launcher) {
		proto_sendf(channel, MSG_REFUSED, 0, SANDBOX_LOAD, "%s", cfg.student ? why : "no --student given");
		proto_send(channel, MSG_DONE, 0, 0, NULL, 0);
		return 1;
	}
	for (int i = 0; i < cfg.ncases; i++)
		if ((cfg.timed < 0 || i != cfg.timed + 1) && capture_case(launcher, i))
			break;
	/* what the launcher and its kernels printed, before "done": the grader does not wait for the exit */
	fflush(stdout);
	fflush(stderr);
	proto_send(channel, MSG_DONE, 0, 0, NULL, 0);
	return 0;
}
