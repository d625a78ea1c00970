/*
 * The toolchain a grading needs (toolchain.c): nvcc and the CUDA toolkit
 * beside it, the GPU's architecture, the simulator's tools.
 */
#ifndef CUDALINGS_TOOLCHAIN_H
#define CUDALINGS_TOOLCHAIN_H

#include <stdbool.h>

/* Whether this machine has an NVIDIA GPU the driver exposes. */
bool toolchain_gpu_present(void);
/* The nvcc to use, or NULL when there is none. */
const char *toolchain_nvcc(void);
/* A program of the CUDA toolkit beside nvcc (compute-sanitizer, ncu), or NULL; you own it. */
char *toolchain_cuda_tool(const char *name);
/* The -arch nvcc builds for: $CUDALINGS_ARCH, else "native". */
const char *toolchain_arch(void);
/* Whether the simulator's tools are built. */
bool toolchain_sim_ready(void);
/* -I for the CUDA toolkit's headers, beside nvcc: for host C++ that calls the runtime or the driver. You own it. */
char *toolchain_cuda_include(void);

#endif
