/*
 * The element types a buffer of an exercise may have, and what every layer
 * needs to know of each: its size, its name, how its elements are drawn
 * (harness/rng.h), the poison an output is filled with before a launch, and
 * how an element reads as a double, the one type the judge's reference, the
 * grader's comparison and the runner's check of timed rounds share.
 * Integers up to 32 bits are exact in a double.
 */
#ifndef CUDALINGS_DTYPE_H
#define CUDALINGS_DTYPE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* the runner's kernels read elements on the device, the grader on the host */
#if defined(__CUDACC__) || defined(__CUDASIM__)
#define DTYPE_FN static inline __host__ __device__
#else
#define DTYPE_FN static inline
#endif

/* The protocol carries these numbers: append, never renumber. float32 is 0, the default. */
enum dtype {
	DTYPE_FLOAT32,
	DTYPE_FLOAT64,
	DTYPE_INT32,
	DTYPE_UINT32,
	DTYPE_UINT8,
	DTYPE_COUNT
};

/*
 * Before every launch the harness fills an output with a poison byte. A
 * float's is 0xff (a NaN); an integer's is 0xa5 (int32 -1515870811, uint32
 * 2779096485, uint8 165), a value a kernel is unlikely to write by accident.
 * Where an output may still hold it, the harness launches again over the
 * second poison (0x01 bytes: a tiny float, int 16843009, uint8 1): an
 * element that holds each poison in turn was never written; one that is
 * the same distance from each was updated (+=, an atomic) before it was set.
 */
#define DTYPE_FLOAT_POISON_BYTE 0xff
#define DTYPE_INT_POISON_BYTE 0xa5
#define DTYPE_SECOND_POISON_BYTE 0x01

DTYPE_FN size_t
dtype_size(uint32_t t)
{
	return t == DTYPE_FLOAT64 ? 8 : t == DTYPE_UINT8 ? 1 : 4;
}

DTYPE_FN int
dtype_is_float(uint32_t t)
{
	return t == DTYPE_FLOAT32 || t == DTYPE_FLOAT64;
}

DTYPE_FN int
dtype_is_signed(uint32_t t)
{
	return t != DTYPE_UINT32 && t != DTYPE_UINT8;
}

DTYPE_FN unsigned char
dtype_poison_byte(uint32_t t)
{
	return dtype_is_float(t) ? DTYPE_FLOAT_POISON_BYTE : DTYPE_INT_POISON_BYTE;
}

/* The smallest and largest value of an integer type (floats: the default range of drawn inputs). */
DTYPE_FN double
dtype_min(uint32_t t)
{
	return t == DTYPE_INT32 ? -2147483648.0 : dtype_is_float(t) ? -1.0 : 0.0;
}

DTYPE_FN double
dtype_max(uint32_t t)
{
	return t == DTYPE_INT32 ? 2147483647.0 : t == DTYPE_UINT32 ? 4294967295.0 : t == DTYPE_UINT8 ? 255.0 : 1.0;
}

/*
 * The tolerance a float output gets when workbook.json gives none (per
 * element: rtol × the magnitude the check reports, + atol). float32: about
 * 170 units in the last place. float64: 1e-10, far above what summing in
 * another order costs in double precision (about 1e-16 × the number of
 * terms), far below float32's rounding, so a kernel that computes in float
 * fails it.
 */
DTYPE_FN double
dtype_default_rtol(uint32_t t)
{
	return t == DTYPE_FLOAT64 ? 1e-10 : 1e-5;
}

/* The raw bits of element i, zero-extended: what poisons and exact comparisons look at. */
DTYPE_FN uint64_t
dtype_bits(const void *p, uint32_t t, size_t i)
{
	const unsigned char *at = (const unsigned char *)p + i * dtype_size(t);
	uint64_t v = 0;
	if (t == DTYPE_UINT8) {
		v = *at;
	} else if (t == DTYPE_FLOAT64) {
		memcpy(&v, at, 8);
	} else {
		uint32_t w;
		memcpy(&w, at, 4);
		v = w;
	}
	return v;
}

/* Element i as a double: exact for every integer type and for both float types. */
DTYPE_FN double
dtype_load(const void *p, uint32_t t, size_t i)
{
	const unsigned char *at = (const unsigned char *)p + i * dtype_size(t);
	switch (t) {
	case DTYPE_FLOAT64: {
		double v;
		memcpy(&v, at, 8);
		return v;
	}
	case DTYPE_INT32: {
		int32_t v;
		memcpy(&v, at, 4);
		return v;
	}
	case DTYPE_UINT32: {
		uint32_t v;
		memcpy(&v, at, 4);
		return v;
	}
	case DTYPE_UINT8:
		return *at;
	default: {
		float v;
		memcpy(&v, at, 4);
		return v;
	}
	}
}

/* The element made of `byte` repeated: a poison as the type reads it. */
DTYPE_FN uint64_t
dtype_repeated(uint32_t t, unsigned char byte)
{
	uint64_t v = 0;
	for (size_t i = 0; i < dtype_size(t); i++)
		v = v << 8 | byte;
	return v;
}

#ifndef __CUDA_ARCH__
/* "float32", "uint8": as workbook.json, messages and the README name them. */
static inline const char *
dtype_name(uint32_t t)
{
	static const char *const names[] = { "float32", "float64", "int32", "uint32", "uint8" };
	return t < DTYPE_COUNT ? names[t] : "unknown";
}
#endif

#endif
