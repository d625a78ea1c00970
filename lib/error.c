/* error: error(), warn() and die() (see error.h). */
#include "lib/error.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *program;
static bool quiet;
static char last[1024];
void (*die_hook)(void);
void (*error_print_hook)(void);

void
error_set_program(const char *name)
{
	program = name;
}

void
error_set_print(bool print)
{
	quiet = !print;
}

const char *
last_error(void)
{
	return last;
}

/* Keep the message for last_error() and, unless quiet (or `always`), print it. */
static void
report(const char *kind, bool always, const char *fmt, va_list ap)
{
	char message[sizeof(last)];
	/* formatted aside first: die("%s", last_error()) reads the very buffer it replaces */
	vsnprintf(message, sizeof(message), fmt, ap);
	memcpy(last, message, sizeof(last));
	if (quiet && !always)
		return;
	if (error_print_hook)
		error_print_hook();
	fprintf(stderr, "%s: %s%s\n", program ? program : program_invocation_short_name, kind, message);
}

int
error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	report("", false, fmt, ap);
	va_end(ap);
	return -1;
}

void
warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	report("warning: ", false, fmt, ap);
	va_end(ap);
}

void
die(int status, const char *fmt, ...)
{
	va_list ap;
	if (die_hook) {
		void (*hook)(void) = die_hook;
		die_hook = NULL; /* a hook that dies itself must not loop */
		hook();
	}
	va_start(ap, fmt);
	report("fatal: ", true, fmt, ap);
	va_end(ap);
	exit(status);
}
