/*
 * cudalings run: a demo's reference and variants graded one after another
 * and shown side by side — their times on a GPU, on the simulator how their
 * warps use memory (sectors and bank conflicts per request, reads per output).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "grader/cmd/command.h"
#include "lib/exit.h"
#include "lib/util.h"
#include "grader/engine/report.h"
#include "common/root.h"

static const struct option_spec options[] = {
	OPT_VALUE("backend", "gpu|sim", "where to run them (default: the GPU when there is one, else the CPU simulator)"),
	OPT_VALUE("width", "COLUMNS", "the table's width, 40 to 1000 (default: the terminal's; none when not one)"),
	OPTIONS_END,
};

/* What a variant shows, from its "// variant: …" line. You own it. */
static char *
variant_description(const char *rel)
{
	char *path = root_path(rel), *text = read_file(path, NULL), *description = NULL;
	char *at = text ? strstr(text, "// variant: ") : NULL;
	if (at) {
		at += strlen("// variant: ");
		description = xasprintf("%.*s", (int)strcspn(at, "\n"), at);
	}
	free(text);
	free(path);
	return description ? description : xstrdup("");
}

/*
 * The table's figure columns on each backend, in the order they print. A --width too narrow for
 * them all leaves some out, in the order `drop` says, what the demos teach least first: reads per
 * output, then bank conflicts, then sectors on the simulator; GB/s, then the ratio, then µs on a GPU.
 */
struct column {
	const char *heading;
	int width;
	int drop;		/* 1 goes first */
};
#define NFIGURES 3
static const struct column sim_columns[NFIGURES] = {
	{ "sectors ld/st", 13, 3 }, { "conflicts/req", 13, 2 }, { "reads/out", 9, 1 } };
static const struct column gpu_columns[NFIGURES] = { { "µs", 10, 3 }, { "GB/s", 9, 1 }, { "× ref", 8, 2 } };

/* How the table is laid out at a width: see table_layout. */
struct layout {
	const struct column *columns;
	bool shown[NFIGURES];
	int name_width;		/* the variant column */
	bool short_names;	/* each file by its name alone, without its folder */
	bool under;		/* what a variant shows on lines of its own under its row */
	int width;		/* 0: no limit */
};

/* Columns on a terminal (UTF-8 characters, none of them wide). */
static int
text_columns(const char *s)
{
	int n = 0;
	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* s, right-aligned in a cell of `width` columns behind one space */
static void
print_cell(const char *s, int width)
{
	printf(" %*s%s", width - text_columns(s) > 0 ? width - text_columns(s) : 0, "", s);
}

static const char *
shown_name(const struct layout *l, const char *file)
{
	const char *slash = strrchr(file, '/');
	return l->short_names && slash ? slash + 1 : file;
}

/*
 * The layout of the demo's table at `width` columns (0: no limit, one line a variant as wide as it
 * takes). Where the rows with what each variant shows are wider: the files by their names alone, then
 * what each shows on lines of its own, folded under its row; then figure columns left out, in their
 * `drop` order, until the rest fits.
 */
static struct layout
table_layout(const struct column *columns, const char *const *files, const char *const *descriptions, int n,
	     int width)
{
	struct layout l = { .columns = columns, .width = width };
	int described = 0, figures = 0;
	for (int k = 0; k < NFIGURES; k++) {
		l.shown[k] = true;
		figures += 1 + columns[k].width;
	}
	for (int pass = 0; pass < 2; pass++) {
		l.short_names = pass == 1;
		l.name_width = (int)strlen("variant");
		described = 0;
		for (int i = 0; i < n; i++) {
			if (text_columns(shown_name(&l, files[i])) > l.name_width)
				l.name_width = text_columns(shown_name(&l, files[i]));
			if (text_columns(descriptions[i]) > described)
				described = text_columns(descriptions[i]);
		}
		if (!width || 2 + l.name_width + 9 + figures + 2 + described <= width)
			return l;
	}
	l.under = true;
	for (int rank = 1; rank <= NFIGURES && 2 + l.name_width + 9 + figures > width; rank++)
		for (int k = 0; k < NFIGURES; k++)
			if (columns[k].drop == rank) {
				l.shown[k] = false;
				figures -= 1 + columns[k].width;
			}
	return l;
}

static bool
figures_shown(const struct layout *l)
{
	for (int k = 0; k < NFIGURES; k++)
		if (l->shown[k])
			return true;
	return false;
}

/* text folded at the layout's width (none: one line), each line behind prefix */
static void
print_text(const struct layout *l, const char *text, const char *prefix)
{
	if (l->width)
		report_folded(stdout, text, prefix, l->width);
	else
		printf("%s%s\n", prefix, text);
}

static void
print_header(const struct layout *l)
{
	printf("  %-*s %-*s", l->name_width, "variant", figures_shown(l) ? 8 : 0, "result");
	for (int k = 0; k < NFIGURES; k++)
		if (l->shown[k])
			print_cell(l->columns[k].heading, l->columns[k].width);
	printf("%s\n", l->under ? "" : "  what it shows");
	if (l->under) {
		char left[128] = "";
		for (int rank = 1; rank <= NFIGURES; rank++)
			for (int k = 0; k < NFIGURES; k++)
				if (l->columns[k].drop == rank && !l->shown[k])
					snprintf(left + strlen(left), sizeof(left) - strlen(left), "%s%s",
						 *left ? ", " : "", l->columns[k].heading);
		if (*left) {
			char *note = xasprintf("(left out at %d columns: %s)", l->width, left);
			print_text(l, note, "  ");
			free(note);
		}
	}
}

/* A simulator figure for the demo table: "-" where it was not measured (no shared memory, say). */
static void
figure_text(bool measured, double value, char out[16])
{
	if (measured && value >= 0)
		snprintf(out, 16, "%.1f", value);
	else
		snprintf(out, 16, "-");
}

/* One row of the table: the variant's figures, what it shows, and what went wrong if anything did. */
static void
print_row(const struct layout *l, const struct grade_result *r, const char *file, bool correct, bool sim,
	  const char *description)
{
	char cells[NFIGURES][40];
	if (r->timing.measured) {
		snprintf(cells[0], sizeof(cells[0]), "%.1f", r->timing.median_us);
		snprintf(cells[1], sizeof(cells[1]), "%.0f", r->timing.gbps);
		snprintf(cells[2], sizeof(cells[2]), "%.2f", r->timing.ratio);
	} else if (sim) {
		/* sectors per warp request of loads and of stores: a demo is often about one of them */
		char loads[16], stores[16];
		figure_text(r->figures.measured, r->figures.load_sectors_per_request, loads);
		figure_text(r->figures.measured, r->figures.store_sectors_per_request, stores);
		snprintf(cells[0], sizeof(cells[0]), "%s/%s", loads, stores);
		figure_text(r->figures.measured, r->figures.bank_conflicts_per_request, cells[1]);
		figure_text(r->figures.measured, r->figures.global_reads_per_output, cells[2]);
	} else {
		for (int k = 0; k < NFIGURES; k++)
			snprintf(cells[k], sizeof(cells[k]), "-");
	}
	printf("  %-*s %-*s", l->name_width, shown_name(l, file), figures_shown(l) ? 8 : 0, correct ? "correct" : "WRONG");
	for (int k = 0; k < NFIGURES; k++)
		if (l->shown[k])
			print_cell(cells[k], l->columns[k].width);
	if (l->under) {
		printf("\n");
		print_text(l, description, "      ");
	} else {
		printf("  %s\n", description);
	}
	if (!correct)
		print_text(l, r->message ? r->message : "", "    ");
	if (r->program_output && *r->program_output) {
		printf("    it printed:\n");
		fputs(r->program_output, stdout);
	}
}

/* The table's width: --width, else the terminal's where the output is one, else none. */
static int
table_width(const char *columns, int *width)
{
	struct winsize ws;
	*width = 0;
	if (columns) {
		char *end;
		long w = strtol(columns, &end, 10);
		if (*end || !*columns || w < 40 || w > 1000)
			return command_usage_error("--width takes the columns of the table, 40 to 1000, not '%s'", columns);
		*width = (int)w;
	} else if (isatty(1) && ioctl(1, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40) {
		*width = ws.ws_col;
	}
	return 0;
}

static int
cmd_run(const struct parsed_args *a)
{
	struct grade_options o = { 0 };
	struct exercise *e = command_find_exercise(a->operands[0], true);
	int width;
	if (!e)
		return EXIT_USAGE;
	int status = table_width(options_value(a, "width"), &width);
	if (status)
		return status;
	status = command_choose_backend(&o, options_value(a, "backend"));
	if (status)
		return status;
	if (build_headers(command_manifest()))
		return EXIT_ENVIRONMENT;
	char **variants;
	int count = command_demo_variants(e, &variants);
	/* no clock on the simulator, but what the demos are about: how each variant's warps use memory */
	bool sim = o.backend == BACKEND_SIM;
	const char **files = xcalloc((size_t)count + 1, sizeof(*files));
	char **descriptions = xcalloc((size_t)count + 1, sizeof(*descriptions));
	for (int i = -1; i < count; i++) {
		files[i + 1] = i < 0 ? e->solution : variants[i];
		descriptions[i + 1] = i < 0 ? xstrdup("the reference") : variant_description(variants[i]);
	}
	struct layout l = table_layout(sim ? sim_columns : gpu_columns, files, (const char *const *)descriptions,
				       count + 1, width);
	char *title = xasprintf("%s: %s, on the %s", e->name, e->title,
				o.backend == BACKEND_GPU ? "GPU" : "CPU simulator (correctness only; timing needs a GPU)");
	print_text(&l, title, "");
	free(title);
	printf("\n");
	print_header(&l);
	for (int i = -1; i < count && status != EXIT_ENVIRONMENT; i++) {
		struct grade_result r;
		o.file = files[i + 1];
		int one = grade_run(e, &o, &r);
		bool correct = one == EXIT_PASS || r.stage == STAGE_PERFORMANCE;
		print_row(&l, &r, files[i + 1], correct, sim, descriptions[i + 1]);
		/* the "Measure it" demo: its kernel timed the right way and the wrong ways (on the simulator, which) */
		if (r.nways || (i < 0 && sim))
			report_timing_ways(stdout, e, &r);
		if (one == EXIT_ENVIRONMENT)
			status = EXIT_ENVIRONMENT;
		else if (!correct)
			status = EXIT_FAIL;
		grade_release(&r);
	}
	for (int i = 0; i <= count; i++)
		free(descriptions[i]);
	for (int i = 0; i < count; i++)
		free(variants[i]);
	free(descriptions);
	free(files);
	free(variants);
	return status;
}

const struct command command_run = {
	.name = "run",
	.operands = "NAME",
	.min_operands = 1,
	.max_operands = 1,
	.missing = "say which demo, e.g. 'cudalings run coalescing'",
	.takes = "one demo",
	.summary = "run a demo's variants side by side",
	.run = cmd_run,
	.options = options,
};
