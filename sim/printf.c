/*
 * printf.c — device printf. During a launch the output is kept and printed
 * when the launch ends (CUDA prints it at the next synchronisation); the
 * second run of the order check prints nothing, so each line appears once.
 *
 * Layer 1: calls current_launch.c (the launch's order-check run, the runtime's flag).
 */
#include "sim.h"

#define PRINTF_MAX (8u << 20)

static char *buf;
static size_t len, cap;
static bool dropped;

int
cudasim_printf(const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!sim_cur.active) {
		va_start(ap, fmt);
		n = vprintf(fmt, ap);
		va_end(ap);
		return n;
	}
	if (sim_cur.quiet)
		return 0;
	sim_in_runtime++;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n > 0 && len + (size_t)n + 1 > cap) {
		size_t ncap = cap ? cap * 2 : 4096;
		char *nb;

		while (ncap < len + (size_t)n + 1)
			ncap *= 2;
		nb = ncap <= PRINTF_MAX ? realloc(buf, ncap) : NULL;
		if (nb) {
			buf = nb;
			cap = ncap;
		}
	}
	if (n > 0 && len + (size_t)n + 1 <= cap) {
		va_start(ap, fmt);
		vsnprintf(buf + len, cap - len, fmt, ap);
		va_end(ap);
		len += (size_t)n;
	} else if (n > 0) {
		dropped = true;
	}
	sim_in_runtime--;
	return n;
}

void
sim_printf_flush(void)
{
	if (len)
		fwrite(buf, 1, len, stdout);
	if (dropped)
		fprintf(stdout, "[cudasim: device printf output past %u MiB was dropped]\n",
			PRINTF_MAX >> 20);
	len = 0;
	dropped = false;
}

