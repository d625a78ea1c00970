/*
 * cudalings run: a demo's reference and variants graded one after another
 * and shown side by side — their times on a GPU, on the simulator how their
 * warps use memory (sectors and bank conflicts per request, reads per output).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "common/exit.h"
#include "lib/util.h"
#include "report.h"
#include "common/root.h"

static const struct option_spec options[] = {
	OPT_VALUE("backend", "gpu|sim", "where to run them (default: the GPU when there is one, else the CPU simulator)"),
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
print_row(const struct grade_result *r, int width, const char *file, bool correct, bool sim, const char *description)
{
	if (r->timing.measured) {
		printf("  %-*s %-8s %10.1f %9.0f %8.2f  %s\n", width, file, correct ? "correct" : "WRONG",
		       r->timing.median_us, r->timing.gbps, r->timing.ratio, description);
	} else if (sim) {
		/* sectors per warp request of loads and of stores: a demo is often about one of them */
		char loads[16], stores[16], sectors[40], conflicts[16], reads[16];
		figure_text(r->figures.measured, r->figures.load_sectors_per_request, loads);
		figure_text(r->figures.measured, r->figures.store_sectors_per_request, stores);
		snprintf(sectors, sizeof(sectors), "%s/%s", loads, stores);
		figure_text(r->figures.measured, r->figures.bank_conflicts_per_request, conflicts);
		figure_text(r->figures.measured, r->figures.global_reads_per_output, reads);
		printf("  %-*s %-8s %13s %13s %9s  %s\n", width, file, correct ? "correct" : "WRONG", sectors,
		       conflicts, reads, description);
	} else {
		printf("  %-*s %-8s %10s %9s %8s  %s\n", width, file, correct ? "correct" : "WRONG", "-", "-", "-",
		       description);
	}
	if (!correct)
		printf("    %s\n", r->message ? r->message : "");
	if (r->program_output && *r->program_output) {
		printf("    it printed:\n");
		fputs(r->program_output, stdout);
	}
}

static int
cmd_run(const struct parsed_args *a)
{
	struct grade_options o = { 0 };
	struct exercise *e = find_exercise(a->operands[0], true);
	if (!e)
		return EXIT_USAGE;
	int status = choose_backend(&o, option_value(a, "backend"));
	if (status)
		return status;
	if (build_headers(workbook_manifest()))
		return EXIT_ENVIRONMENT;
	char **variants;
	int count = demo_variants(e, &variants);
	printf("%s: %s, on the %s\n\n", e->name, e->title,
	       o.backend == BACKEND_GPU ? "GPU" : "CPU simulator (correctness only; timing needs a GPU)");
	int width = (int)strlen(e->solution);
	for (int i = 0; i < count; i++)
		if ((int)strlen(variants[i]) > width)
			width = (int)strlen(variants[i]);
	/* no clock on the simulator, but what the demos are about: how each variant's warps use memory */
	bool sim = o.backend == BACKEND_SIM;
	if (sim)
		printf("  %-*s %-8s %13s %13s %9s  %s\n", width, "variant", "result", "sectors ld/st", "conflicts/req",
		       "reads/out", "what it shows");
	else
		printf("  %-*s %-8s %10s %9s %8s  %s\n", width, "variant", "result", "µs", "GB/s", "× ref",
		       "what it shows");
	for (int i = -1; i < count && status != EXIT_ENVIRONMENT; i++) {
		const char *file = i < 0 ? e->solution : variants[i];
		char *description = i < 0 ? xstrdup("the reference") : variant_description(file);
		struct grade_result r;
		o.file = file;
		int one = grade_run(e, &o, &r);
		bool correct = one == EXIT_PASS || r.stage == STAGE_PERFORMANCE;
		print_row(&r, width, file, correct, sim, description);
		/* the "Measure it" demo: its kernel timed the right way and the wrong ways (on the simulator, which) */
		if (r.nways || (i < 0 && sim))
			report_timing_ways(stdout, e, &r);
		if (one == EXIT_ENVIRONMENT)
			status = EXIT_ENVIRONMENT;
		else if (!correct)
			status = EXIT_FAIL;
		grade_release(&r);
		free(description);
	}
	for (int i = 0; i < count; i++)
		free(variants[i]);
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
