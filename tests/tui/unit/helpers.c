#include "tests/tui/unit/helpers.h"

#include <criterion/criterion.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/util.h"

/* As in the workbook, errors are kept for the screen (last_error()), not printed. */
static void __attribute__((constructor))
quiet_errors(void)
{
	error_set_print(false);
}

static char *made[32];
static int nmade;

static int
remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	remove(path);
	return 0;
}

/* Each test runs in its own process: its directories go when it exits. */
static void
remove_made(void)
{
	for (int i = 0; i < nmade; i++)
		nftw(made[i], remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

char *
temp_dir(void)
{
	char *d = xstrdup("/tmp/cudalings-tui-test-XXXXXX");

	cr_assert_not_null(mkdtemp(d));
	if (!nmade)
		atexit(remove_made);
	if (nmade < 32)
		made[nmade++] = xstrdup(d);
	return d;
}

void
make_dir(const char *dir, const char *name)
{
	char *path = path_join(dir, name);

	cr_assert_eq(mkdir(path, 0777), 0, "cannot make %s", path);
	free(path);
}

void
write_text(const char *dir, const char *name, const char *text)
{
	char *path = path_join(dir, name);
	FILE *f = fopen(path, "w");

	cr_assert_not_null(f, "cannot write %s", path);
	fputs(text, f);
	fclose(f);
	free(path);
}

const char *
line_text(const struct doc *d, int i)
{
	static char buf[4096];
	char *t;

	cr_assert(i >= 0 && i < d->n, "no line %d (of %d)", i, d->n);
	t = doc_line_text(&d->lines[i]);
	snprintf(buf, sizeof(buf), "%s", t);
	free(t);
	return buf;
}

int
find_line(const struct doc *d, const char *s)
{
	for (int i = 0; i < d->n; i++)
		if (strstr(line_text(d, i), s))
			return i;
	return -1;
}

unsigned
style_of(const struct doc *d, int i, const char *s)
{
	for (int k = 0; k < d->lines[i].n; k++)
		if (strstr(d->lines[i].spans[k].text, s))
			return d->lines[i].spans[k].style;
	return ~0u;
}
