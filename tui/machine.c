/*
 * machine: the exercise's kernels as PTX and SASS under their source lines
 * (`a` on the results), as `cudalings sass NAME` prints them (nvcc, no GPU
 * needed; the heat map's figures beside the lines when the file is the one
 * last graded). Built again when the file or the screen's width changes.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tui/app.h"
#include "tui/screen.h"
#include "lib/run.h"
#include "lib/util.h"
#include "tui/view.h"

static struct {
	int item, width;
	struct timespec mtime;
	off_t size;
	int status;
	char *text;
} built = { .item = -1 };

/* The listing of the item's file, made again only when the file changed. */
static void
build(struct app *a, int item, int width)
{
	const struct item *it = app_item(a, item);
	char *path = app_path(a, it->file);
	struct stat st;
	bool known = stat(path, &st) == 0;
	free(path);
	if (built.text && built.item == item && built.width == width && known && st.st_size == built.size &&
	    st.st_mtim.tv_sec == built.mtime.tv_sec && st.st_mtim.tv_nsec == built.mtime.tv_nsec)
		return;
	char columns[16];
	snprintf(columns, sizeof(columns), "%d", width < 60 ? 60 : width);
	char *argv[] = { a->grader, "sass", (char *)it->name, "--width", columns, NULL };
	struct spawn_options o = { .cwd = a->wb.root, .death_signal = SIGTERM, .timeout_s = 300,
				   .env = (const char *const[]){ "NO_COLOR=1", NULL } };
	struct buf out = BUF_INIT;
	free(built.text);
	built.status = run_capture(argv, &o, &out, NULL);
	built.text = buf_detach(&out);
	built.item = item;
	built.width = width;
	built.size = known ? st.st_size : -1;
	built.mtime = known ? st.st_mtim : (struct timespec){ 0, 0 };
}

/* A row of the listing, styled by what it is. */
static unsigned
style_of(const char *row)
{
	if (!strncmp(row, "!!", 2))
		return S_FAIL;
	if (!strncmp(row, "machine code of", 15))
		return S_H1;
	if (!strncmp(row, "kernel ", 7))
		return S_H2;
	if (strstr(row, "| heat"))
		return S_WARN;
	if (strstr(row, "| ptx"))
		return S_DIM;
	if (strstr(row, "| sass"))
		return S_CODE;
	if (strstr(row, " | "))
		return S_CODEBLOCK;
	return S_PLAIN;
}

static void
machine_open(struct view *v)
{
	struct app *a = v->app;
	const struct item *it = app_item(a, v->item);
	int width = pager_reset(v);

	if (!it->file) {
		doc_puts(&v->doc, S_PLAIN, "This item has no file of yours to build.");
		return;
	}
	build(a, v->item, width);
	if (built.status)
		doc_printf(&v->doc, S_FAIL, "cudalings sass %s did not make the listing (exit status %d):", it->name,
			   built.status);
	for (const char *p = built.text; p && *p;) {
		const char *end = strchrnul(p, '\n');
		char *row = xasprintf("%.*s", (int)(end - p), p);
		if (*row)
			doc_verbatim(&v->doc, built.status ? S_PLAIN : style_of(row), row, width, "");
		else
			doc_newline(&v->doc);
		free(row);
		p = *end ? end + 1 : NULL;
	}
}

const struct view_ops machine_ops = {
	.name = "machine code",
	.open = machine_open,
	.draw = pager_draw,
	.key = pager_key,
	.bar = "j/k=scroll m c e q",
	.per_item = true,
};
