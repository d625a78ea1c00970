/*
 * Counter-based random inputs: element i of buffer b of case c under seed s
 * is a pure function of (s, c, b, i), so the judge and the runner draw the
 * same inputs independently, in any order and in parallel.
 */
#ifndef CUDALINGS_RNG_H
#define CUDALINGS_RNG_H

#include <math.h>
#include <stdint.h>
#include "harness/dtype.h"

/* The runner draws the timed rounds' inputs on the device, bit for bit as the judge does on the host. */
#if defined(__CUDACC__) || defined(__CUDASIM__)
#define RNG_FN static inline __host__ __device__
#else
#define RNG_FN static inline
#endif

RNG_FN uint64_t
rng_mix(uint64_t x)
{
	/* splitmix64's finaliser */
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

RNG_FN uint64_t
rng_stream(uint64_t seed, uint32_t case_index, uint32_t buffer)
{
	return rng_mix(seed ^ rng_mix(((uint64_t)case_index << 32) | buffer));
}

/*
 * Element i of a buffer of type `t` drawn from [lo, hi], written to `at`
 * (the element's place, dtype_size(t) bytes): a float32 with 24
 * random bits, a float64 with 53 (never patterns as regular as an arange),
 * an integer uniform in lo..hi. The float's one rounding is fma's, which
 * the host's C library and the GPU both round correctly: the judge and the
 * runner draw the same bits.
 */
RNG_FN void
rng_draw(uint32_t t, double lo, double hi, uint64_t stream, uint64_t i, void *at)
{
	uint64_t x = rng_mix(stream + i * 0xd1b54a32d192ed03ull);
	if (t == DTYPE_FLOAT32) {
		float v = (float)fma((double)(x >> 40) * (1.0 / 16777216.0), hi - lo, lo);
		memcpy(at, &v, 4);
	} else if (t == DTYPE_FLOAT64) {
		double v = fma((double)(x >> 11) * (1.0 / 9007199254740992.0), hi - lo, lo);
		memcpy(at, &v, 8);
	} else {
		uint64_t span = (uint64_t)((int64_t)hi - (int64_t)lo) + 1;
		int64_t v = (int64_t)lo + (int64_t)(x % span);
		if (t == DTYPE_UINT8) {
			*(unsigned char *)at = (unsigned char)v;
		} else {
			uint32_t w = (uint32_t)v;
			memcpy(at, &w, 4);
		}
	}
}

#endif
