/*
 * The simulator's stand-ins for the toolkit's header libraries a student's
 * kernel may build on (sim/include/cub/, sim/include/cuda/: libcu++'s
 * atomics, barrier and pipeline too), for compute capability 9's vector
 * atomics and for the toolkit's small headers (math_constants.h): their
 * values, as a GPU gives them.
 */
#include <criterion/criterion.h>
#include <math.h>
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

Test(cub, block_loads_and_stores_arrange_items_as_cub_does, .timeout = 20)
{
	static int in[256], out[7 * 256];
	static const char *const what[] = { "DIRECT", "VECTORIZE", "TRANSPOSE", "WARP_TRANSPOSE" };

	for (int i = 0; i < 256; i++)
		in[i] = 1000 + i;
	cr_assert_eq(sim_cub_loads(in, out), cudaSuccess, "%s", cudasimLastErrorDetail());
	for (int t = 0; t < 64; t++)
		for (int i = 0; i < 4; i++) {
			int blocked = t * 4 + i;
			for (int a = 0; a < 4; a++)
				cr_expect_eq(out[a * 256 + blocked], in[blocked], "BLOCK_LOAD_%s: thread %d item %d is %d",
					     what[a], t, i, out[a * 256 + blocked]);
			cr_expect_eq(out[1024 + blocked], in[i * 64 + t], "BLOCK_LOAD_STRIPED: thread %d item %d", t, i);
			cr_expect_eq(out[1280 + blocked], in[blocked], "BLOCK_STORE_TRANSPOSE: element %d", blocked);
			cr_expect_eq(out[1536 + blocked], blocked < 100 ? in[blocked] : -1,
				     "a partial TRANSPOSE load with a default: element %d is %d", blocked, out[1536 + blocked]);
		}
}

Test(libcudacxx, ceil_div, .timeout = 10)
{
	cr_expect_eq(sim_ceil_div(0, 256), 0);
	cr_expect_eq(sim_ceil_div(1, 256), 1);
	cr_expect_eq(sim_ceil_div(256, 256), 1);
	cr_expect_eq(sim_ceil_div(257, 256), 2);
	cr_expect_eq(sim_ceil_div(1LL << 40, 3), ((1LL << 40) + 2) / 3);
}

Test(atomics, float4_and_float2_add_element_by_element, .timeout = 20)
{
	float four[4] = { 0 }, two[2] = { 0 };

	cr_assert_eq(sim_vector_atomics(four, two), cudaSuccess, "%s", cudasimLastErrorDetail());
	for (int i = 0; i < 4; i++)
		cr_expect_float_eq(four[i], 96.0f * (float)(i + 1), 1e-6, "float4 element %d: %g", i, four[i]);
	cr_expect_float_eq(two[0], 48.0f, 1e-6, "%g", two[0]);
	cr_expect_float_eq(two[1], -96.0f, 1e-6, "%g", two[1]);
}

Test(intrinsics, byte_perm_funnel_shifts_brevll, .timeout = 20)
{
	/* as CUDA's documentation defines them, worked out by hand */
	static const unsigned want[8] = { 0x33221100u, 0x77665544u, 0x55114400u, 0x23456789u,
					  0x23456789u, 0x89abcdefu, 0x6789abcdu, 0x01234567u };
	unsigned out[8] = { 0 };
	unsigned long long wide = 0;

	cr_assert_eq(sim_bit_intrinsics(out, &wide), cudaSuccess, "%s", cudasimLastErrorDetail());
	for (int i = 0; i < 8; i++)
		cr_expect_eq(out[i], want[i], "result %d: %#x, expected %#x", i, out[i], want[i]);
	cr_expect_eq(wide, 0x8000000000000000ull, "__brevll(1): %#llx", wide);
}

Test(headers, math_constants_by_name, .timeout = 20)
{
	float f[4] = { 0 };
	double d[3] = { 0 };

	cr_assert_eq(sim_math_constants(f, d), cudaSuccess, "%s", cudasimLastErrorDetail());
	cr_expect_float_eq(f[0], 3.14159265f, 1e-6, "CUDART_PI_F: %g", f[0]);
	cr_expect(isinf(f[1]) && f[1] > 0, "CUDART_INF_F: %g", f[1]);
	cr_expect(isnan(f[2]), "CUDART_NAN_F: %g", f[2]);
	cr_expect_float_eq(f[3], 0.70710678f, 1e-6, "CUDART_SQRT_HALF_F: %g", f[3]);
	cr_expect_float_eq(d[0], 3.14159265358979, 1e-13, "CUDART_PI: %g", d[0]);
	cr_expect(isinf(d[1]) && d[1] > 0, "CUDART_INF: %g", d[1]);
	cr_expect_float_eq(d[2], 0.69314718055994, 1e-13, "CUDART_LN2: %g", d[2]);
}

Test(libcudacxx, atomic_ref_and_atomic, .timeout = 20)
{
	int ints[4] = { 0 };
	float f = 0;

	cr_assert_eq(sim_libcu_atomics(ints, &f), cudaSuccess, "%s", cudasimLastErrorDetail());
	cr_expect_eq(ints[0], 192, "the blocks' counts: %d", ints[0]);
	cr_expect_eq(ints[1], 191, "fetch_max: %d", ints[1]);
	cr_expect_eq(ints[2], -63, "fetch_min: %d", ints[2]);
	cr_expect_eq(ints[3], 7, "compare_exchange_strong: %d", ints[3]);
	cr_expect_float_eq(f, 96.0f, 1e-6, "cuda::std::atomic_ref<float>::fetch_add: %g", f);
}

Test(libcudacxx, memcpy_async_into_a_barrier_and_a_pipeline, .timeout = 20)
{
	int in[64], out[128] = { 0 };

	for (int i = 0; i < 64; i++)
		in[i] = 1000 + i;
	cr_assert_eq(sim_libcu_copies(in, out), cudaSuccess, "%s", cudasimLastErrorDetail());
	for (int t = 0; t < 64; t++) {
		cr_expect_eq(out[t], in[63 - t], "the barrier's copy, thread %d: %d", t, out[t]);
		cr_expect_eq(out[64 + t], in[(t + 1) % 64], "the pipeline's copy, thread %d: %d", t, out[64 + t]);
	}
}

Test(libcudacxx, span_as_a_kernels_parameter, .timeout = 20)
{
	int in[10], out[6] = { 0 };

	for (int i = 0; i < 10; i++)
		in[i] = i + 1;
	cr_assert_eq(sim_spans(in, 10, out), cudaSuccess, "%s", cudasimLastErrorDetail());
	cr_expect_eq(out[0], 10);
	cr_expect_eq(out[1] + out[2], 11, "front and back: %d, %d", out[1], out[2]);
	cr_expect_eq(out[3], 3 + 4 + 5, "subspan(2, 3): %d", out[3]);
	cr_expect_eq(out[4], 9 + 10, "last(2): %d", out[4]);
	cr_expect_eq(out[5], 4, "first<4>(): %d", out[5]);
}

Test(intrinsics, fns_as_ptx_defines_it, .timeout = 10)
{
	static const unsigned want[7] = { 3, 3, 3, 1, 0xffffffffu, 0xffffffffu, 31 };
	unsigned out[7];

	sim_fns(out);
	for (int i = 0; i < 7; i++)
		cr_expect_eq(out[i], want[i], "value %d: %#x, expected %#x", i, out[i], want[i]);
}

Test(intrinsics, math_functions_c_lacks, .timeout = 10)
{
	/* the functions' values to 8 digits (Abramowitz and Stegun's tables, and arithmetic) */
	static const double want[10] = { 0.47693627620, 1.9599639845, 0.97500210485, 0.42758357616, 0.018795888861,
					  1.2660658778, -0.56515910400, 1.0 / 13, 13, 0.2 };
	float out[10];

	sim_more_math(out);
	for (int i = 0; i < 10; i++)
		cr_expect_float_eq(out[i], want[i], 2e-6 * fabs(want[i]), "value %d: %.9g, expected %.9g", i, out[i],
				   want[i]);
}
