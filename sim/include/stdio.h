/*
 * stdio.h for the simulator: the C library's, then device printf. printf
 * becomes cudasim_printf, which buffers what a kernel prints until its
 * launch ends (a GPU prints it at the next synchronisation). Here rather
 * than in cudasim.h so that a file that does not include <stdio.h> or
 * <cstdio> has no printf, as under nvcc.
 */
#include_next <stdio.h>

#ifndef CUDASIM_STDIO_H
#define CUDASIM_STDIO_H
#ifdef __cplusplus
extern "C" int cudasim_printf(const char *fmt, ...) __attribute__((format(__printf__, 1, 2)));
namespace std { using ::cudasim_printf; }
#else
extern int cudasim_printf(const char *fmt, ...) __attribute__((format(__printf__, 1, 2)));
#endif
#define printf(...) cudasim_printf(__VA_ARGS__)
#endif
