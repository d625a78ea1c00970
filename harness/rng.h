/*
 * Counter-based random inputs: element i of buffer b of case c under seed s
 * is a pure function of (s, c, b, i), so the judge and the runner draw the
 * same inputs independently, in any order and in parallel.
 */
#ifndef CUDALINGS_RNG_H
#define CUDALINGS_RNG_H

#include <stdint.h>

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

/* Uniform in [-1, 1) with 24 random bits; never exactly representable patterns like arange. */
RNG_FN float
rng_float(uint64_t stream, uint64_t i)
{
	uint64_t x = rng_mix(stream + i * 0xd1b54a32d192ed03ull);
	return (float)((double)(x >> 40) * (1.0 / 8388608.0) - 1.0);
}

#endif
