#include "harness/stats.h"

#include <math.h>
#include <stdlib.h>
#include <time.h>

static int
compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double
stats_median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), compare_doubles);
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double
stats_median_ci(double *v, size_t n, double *lo, double *hi)
{
	double median = stats_median(v, n);
	double half = 0.98 * sqrt((double)n);
	long l = (long)floor(n / 2.0 - half), h = (long)ceil(n / 2.0 + half);
	if (l < 0)
		l = 0;
	if (h > (long)n - 1)
		h = (long)n - 1;
	*lo = v[l];
	*hi = v[h];
	return median;
}

double
stats_now_us(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}
