/*
 * The simulator's stand-ins for the toolkit's header libraries a student's
 * kernel may build on (sim/include/cub/): their values, as CUB gives them on
 * a GPU.
 */
#include <criterion/criterion.h>
#include "cudasim.h"
#include "tests/sim/kernels/kernels.h"

Test(cub, block_and_warp_reductions, .timeout = 20)
{
	int out[SIM_CUB_OUT] = { 0 };

	cr_assert_eq(sim_cub(out), cudaSuccess, "%s", cudasimLastErrorDetail());
	cr_expect_eq(out[0], 96 * 97 / 2, "BlockReduce::Sum over a 16 x 6 block: %d", out[0]);
	cr_expect_eq(out[1], 50 * 51 / 2, "BlockReduce::Sum of the first 50: %d", out[1]);
	cr_expect_eq(out[2], 96, "BlockReduce::Reduce(Max) with its own storage: %d", out[2]);
	for (int w = 0; w < 6; w++)
		cr_expect_eq(out[3 + w], 10 * (16 * w) + 55, "WarpReduce<int, 16>::Sum(v, 10), logical warp %d: %d", w,
			     out[3 + w]);
}
