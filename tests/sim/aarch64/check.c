/*
 * The simulator on aarch64 (its own context switch), run under qemu-user by
 * tests/sim/aarch64/run.sh: the kernels of tests/sim/kernels end to end.
 * Criterion has no arm64 build here, so this is a plain program; it prints
 * what failed and exits 1.
 */
#include <stdio.h>
#include <string.h>

#include "cudasim.h"
#include "../kernels/kernels.h"

static int failures;

static void
check(int ok, const char *what)
{
	printf("%s %s\n", ok ? "ok  " : "FAIL", what);
	if (!ok) {
		printf("     %s\n", cudasimLastErrorDetail());
		failures++;
	}
}

int
main(void)
{
	static float in[256 * 3], out[256 * 3];
	static int rot[96 * 2], sh_in[64], sh_out[8 * 64];
	int bad = 0, sum = 0;

	for (int i = 0; i < 768; i++)
		in[i] = (float)i;
	check(sim_reverse(in, out, 256, 3) == cudaSuccess, "reverse through shared memory runs");
	for (int b = 0; b < 3; b++)
		for (int t = 0; t < 256; t++)
			bad += out[b * 256 + t] != in[b * 256 + 255 - t];
	check(!bad, "reverse through shared memory is right");
	check(sim_rotate(rot, 96, 2, 37) == cudaSuccess, "37 rounds of barriers run");
	bad = 0;
	for (int i = 0; i < 192; i++)
		bad += rot[i] != (i % 96 + 37) % 96;
	check(!bad, "37 rounds of barriers are right");
	for (int i = 0; i < 64; i++)
		sh_in[i] = (i * 5 + 3) % 17;
	for (int i = 0; i < 32; i++)
		sum += sh_in[i];
	check(sim_shuffle(sh_in, sh_out, 64) == cudaSuccess && sh_out[0] == sum, "warp shuffles");
	check(sim_missing_barrier(0) == cudaErrorLaunchFailure &&
	      strstr(cudasimLastErrorDetail(), "__syncthreads() missing"), "a missing barrier is reported");
	cudaDeviceReset();
	check(sim_missing_barrier(1) == cudaSuccess, "the barrier present passes");
	check(sim_out_of_bounds(8) == cudaErrorIllegalAddress &&
	      strstr(cudasimLastErrorDetail(), "thread (5,0,0) of block (3,0,0)"), "a fault is reported");
	cudaDeviceReset();
	check(sim_deep_stack() == cudaErrorIllegalAddress &&
	      strstr(cudasimLastErrorDetail(), "overflowed its stack"), "a stack overflow is reported");
	cudaDeviceReset();
	check(sim_divergent_sites() == cudaErrorLaunchFailure, "a barrier divergence is reported");
	return failures ? 1 : 0;
}
