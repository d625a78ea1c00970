/* Order statistics and the clock for the timing protocol; plain C so unit tests need no GPU. */
#ifndef CUDALINGS_STATS_H
#define CUDALINGS_STATS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The median of v[0..n); sorts v in place. n must be > 0. */
double stats_median(double *v, size_t n);

/*
 * The median of v[0..n) and a distribution-free 95% confidence interval for
 * it from order statistics (the ranks n/2 ± 0.98·√n). Sorts v in place.
 */
double stats_median_ci(double *v, size_t n, double *lo, double *hi);

/* Microseconds on the host's monotonic clock. */
double stats_now_us(void);

#ifdef __cplusplus
}
#endif
#endif
