/*
 * The command lines of a grading's children (the judge, the runner, the
 * GPU's tools over the runner) and the GPU's tools themselves:
 * compute-sanitizer and Nsight Compute, read in the lessons' terms.
 */
#include "grader/engine/cmdline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "grader/engine/diagnose.h"
#include "grader/sass/lines.h"
#include "lib/util.h"
#include "common/root.h"
#include "grader/compile/toolchain.h"

static char *
dims_text(const int *dims, int ndims)
{
	struct buf b = BUF_INIT;
	for (int d = 0; d < ndims; d++)
		buf_addf(&b, "%s%d", d ? "," : "", dims[d]);
	return buf_detach(&b);
}

/*
 * The measured case's lengths. Its grid must have at least two blocks in every dimension it spans, or a
 * mapping that deals columns out across blocks (col = threadIdx.x * gridDim.x + blockIdx.x) is the
 * coalesced one: with one block, gridDim.x is 1.
 * - 1D: 2^16 elements, 64 blocks of 1024 threads;
 * - 2D, the contiguous (last) dimension: two blocks of the widest block, 1024 threads, need a warp more
 *   than 1024; the rows: two 64-row tiles (a block 32 threads wide has at most 32 rows);
 * - a product (three or more), the output's dimensions: two blocks of 32 × 32 each way, the most the
 *   simulator's time allows (it grows with m · n · k); the loop dimension (matmul's k, the smallest)
 *   keeps the timed length, for the loop over it is the kernel and its loads outweigh the one store
 *   of each result as they do at the timed size.
 */
#define MEASURED_1D (1 << 16)
#define MEASURED_CONTIGUOUS (1024 + 32)
#define MEASURED_ROWS 128
#define MEASURED_PRODUCT 64

void
cmdline_measured_dims(const struct exercise *e, int *dims)
{
	int loop = -1;
	for (int d = 0; e->ndims >= 3 && d < e->ndims; d++)
		if (loop < 0 || e->timed[d] < e->timed[loop])
			loop = d;
	for (int d = 0; d < e->ndims; d++) {
		int length = e->ndims == 1 ? MEASURED_1D
			: loop >= 0 ? (d == loop ? e->timed[d] : MEASURED_PRODUCT)
			: d == e->ndims - 1 ? MEASURED_CONTIGUOUS : MEASURED_ROWS;
		dims[d] = e->timed[d] < length ? e->timed[d] : length;
		/* whole warps and tiles, as the timed sizes have */
		if (d != loop && dims[d] > 32)
			dims[d] -= dims[d] % 32;
	}
}

void
cmdline_add_cases(struct args *argv, const struct exercise *e, enum argv_cases which, int check_round,
		  const int *measured)
{
	/* a run under the GPU's tools: the sandbox lets them talk to their host */
	if (which == ARGV_TOOL_CASES || which == ARGV_TOOL_TIMED_SIZE)
		ARGS_ADD(argv, "--under-tool", "1");
	for (int i = 0; i < e->ncases; i++) {
		args_add(argv, "--case");
		args_add_owned(argv, dims_text(e->cases[i], e->ndims));
	}
	if (which == ARGV_TOOL_TIMED_SIZE) {
		/* after the correctness cases, in the graded run's order: on a GPU their plans, and the launcher's
		   state from one call to the next, are that run's; the runner profiles this last case alone, for
		   the tool's figures: its outputs are nobody's to judge, and the runner sends none */
		ARGS_ADD(argv, "--figures-only", "1", "--case");
		args_add_owned(argv, dims_text(e->timed, e->ndims));
		return;
	}
	if (measured) {
		args_add(argv, "--measured");
		args_add_owned(argv, dims_text(measured, e->ndims));
		/* the launchers' shapes at the timed size, for the estimate of its time */
		args_add(argv, "--estimate-at");
		args_add_owned(argv, dims_text(e->timed, e->ndims));
	}
	if (which == ARGV_GRADED_TIMED) {
		/* the harness adds the judged round (case timed + 1) itself */
		args_add(argv, "--timed");
		args_add_owned(argv, dims_text(e->timed, e->ndims));
		args_add(argv, "--check-round");
		args_addf(argv, "%d", check_round);
	}
}

/* The runner's options, then e's cases as `which` says (no measured case), for a GPU tool. */
static void
tool_cases(struct args *argv, const struct exercise *e, const struct runner_command *cmd, enum argv_cases which)
{
	args_add_all(argv, cmd->options.v);
	cmdline_add_cases(argv, e, which, -1, NULL);
}

static void
tool_channel(struct child *c, const char *data, size_t n)
{
	session_feed(c->ctx, FROM_TOOL, data, n);
}

/* The profiled run's outputs are not judged: its one case is the timed size. */
static void
discard_channel(struct child *c, const char *data, size_t n)
{
	(void)c, (void)data, (void)n;
}

/* Run `tool` (argv, NULL-terminated) on the runner with runner_args; you own its output. */
static char *
run_tool(struct session *s, char *const *tool, const struct args *runner_args, int channel_fd, channel_fn *on_channel)
{
	struct args argv = ARGS_INIT;
	args_add_all(&argv, tool);
	args_add_all(&argv, runner_args->v);
	struct child c = { .label = tool[0], .on_channel = on_channel, .ctx = s };
	s->in[FROM_TOOL].broken = false;
	/* the tools start the runner as their child: no seccomp filter against new processes here */
	struct spawn_options options = { .cwd = workbook_root(), .channel = true, .channel_child_fd = channel_fd,
					 .timeout_s = 600, .output_cap = 4 << 20, .out = SPAWN_CAPTURE,
					 .err = SPAWN_TO_STDOUT, .clean_on_exit = true };
	char *output = NULL;
	if (child_spawn(&c, argv.v, &options) == 0) {
		child_wait(&c);
		output = xstrdup(c.output.data);
		child_release(&c);
	}
	buf_free(&s->in[FROM_TOOL].pending);
	args_free(&argv);
	return output;
}

/* compute-sanitizer's memcheck, racecheck and synccheck over the correctness cases, in the lessons' terms. */
void
cmdline_sanitize(struct session *s, const struct runner_command *cmd)
{
	char *program = toolchain_cuda_tool("compute-sanitizer");
	if (!program) {
		diagnose_add(s->r, "tools", xstrdup("--sanitize: compute-sanitizer is not beside nvcc"));
		return;
	}
	/* the cases only: the sanitizer slows kernels down far too much to time them */
	int timed = s->timed, ncases = s->ncases;
	s->timed = -1;
	s->ncases = s->e->ncases;
	struct args args = ARGS_INIT;
	tool_cases(&args, s->e, cmd, ARGV_TOOL_CASES);
	static const char *const tools[] = { "memcheck", "racecheck", "synccheck" };
	for (size_t t = 0; t < ARRAY_SIZE(tools); t++) {
		char *log = xasprintf("%s.sanitizer.log", cmd->options.v[0]);
		char *tool[] = { program, "--tool", (char *)tools[t], "--log-file", log, "--print-limit", "100", NULL };
		free(run_tool(s, tool, &args, cmd->channel_fd, tool_channel));
		char *text = read_file(log, NULL);
		struct proto_finding found[4];
		int n = text ? diagnose_parse_sanitizer(text, found, 4) : 0;
		struct case_arrays *arrays = session_arrays(s);
		for (int i = 0; i < n; i++) {
			char *message = diagnose_finding(s->r, &found[i], arrays, s->ncases);
			if (s->tool_message) {
				free(message);
				continue;
			}
			s->tool_stage = found[i].kind == FINDING_RACE ? STAGE_CORRECTNESS : STAGE_RUN;
			s->tool_message = xasprintf("compute-sanitizer --tool %s: %s", tools[t], message);
			free(message);
		}
		free(arrays);
		free(text);
		unlink(log);
		free(log);
	}
	args_free(&args);
	s->timed = timed;
	s->ncases = ncases;
	free(program);
}

bool
cmdline_profile_available(void)
{
	char *program = toolchain_cuda_tool("ncu");
	bool found = program != NULL;
	free(program);
	return found;
}

/* Nsight Compute's figures for the student's kernels at the timed size. */
void
cmdline_profile(struct session *s, const struct runner_command *cmd)
{
	char *program = toolchain_cuda_tool("ncu");
	if (!program) {
		diagnose_add(s->r, "tools", xstrdup("--profile: Nsight Compute (ncu) is not beside nvcc"));
		return;
	}
	/* the timed size, as a plain case */
	struct args args = ARGS_INIT;
	tool_cases(&args, s->e, cmd, ARGV_TOOL_TIMED_SIZE);
	/* clocks as they are: METHOD.md, and the timing, leave them alone; the student's launch alone, which
	   the runner brackets with cudaProfilerStart/Stop (the harness's own kernels would dilute the figures) */
	enum { METRICS = 9 };
	char *tool[] = { program, "--csv", "--print-units", "base", "--clock-control", "none",
			 "--profile-from-start", "off", "--metrics", [METRICS] = (char *)diagnose_ncu_metrics, NULL };
	char *output = run_tool(s, tool, &args, cmd->channel_fd, discard_channel);
	struct proto_counts counts;
	double gbps;
	if (output && diagnose_parse_ncu(output, NULL, &counts, &gbps) < 0 && strstr(output, "metric")) {
		free(output);
		tool[METRICS] = (char *)diagnose_ncu_core_metrics;
		output = run_tool(s, tool, &args, cmd->channel_fd, discard_channel);
	}
	if (output && diagnose_parse_ncu(output, NULL, &counts, &gbps) > 0) {
		diagnose_figures(&counts, "nsight compute", &s->r->figures);
		s->r->figures.dram_gbps = gbps;
	} else {
		diagnose_add(s->r, "tools", xasprintf("--profile: Nsight Compute measured no kernel: %.300s",
						      output ? output : "it did not start"));
	}
	free(output);
	args_free(&args);
	free(program);
}

/*
 * Nsight Compute's source counters for the student's kernels at the timed size (the student's file is
 * built with -lineinfo): a report of the SourceCounters section, then its source page as CSV, read per
 * line of `paths` (the file as compiled) into s->r->lines.
 */
void
cmdline_lines(struct session *s, const struct runner_command *cmd, const char *const *paths)
{
	struct line_map *m = &s->r->lines;
	char *program = toolchain_cuda_tool("ncu");
	if (!program) {
		lines_not_measured(m, xstrdup("on a GPU the figures per line come from Nsight Compute, and ncu is not "
					      "beside nvcc"));
		return;
	}
	char dir[] = "/tmp/cudalings-lines-XXXXXX";
	if (!mkdtemp(dir)) {
		lines_not_measured(m, xstrdup("no folder for Nsight Compute's report could be made in /tmp"));
		free(program);
		return;
	}
	char *base = xasprintf("%s/report", dir), *report = xasprintf("%s.ncu-rep", base);
	struct args args = ARGS_INIT;
	tool_cases(&args, s->e, cmd, ARGV_TOOL_TIMED_SIZE);
	/* clocks as they are, and the student's launch at the timed size alone, as in cmdline_profile */
	char *profile[] = { program, "--section", "SourceCounters", "--import-source", "yes", "--clock-control", "none",
			    "--profile-from-start", "off", "--force-overwrite", "--export", base, NULL };
	char *output = run_tool(s, profile, &args, cmd->channel_fd, discard_channel);
	char *csv = NULL;
	struct args none = ARGS_INIT;
	if (file_exists(report)) {
		char *page[] = { program, "--import", report, "--page", "source", "--print-source", "cuda,sass", "--csv",
				 NULL };
		csv = run_tool(s, page, &none, cmd->channel_fd, discard_channel);
	}
	int taken = csv ? lines_parse_ncu(m, csv, paths, s->r->file) : -1;
	if (taken < 0)
		lines_not_measured(m, xasprintf("Nsight Compute gave no source page: %.300s",
						csv && *csv ? csv : output && *output ? output : "it did not start"));
	else if (taken == 0)
		lines_not_measured(m, xstrdup("Nsight Compute's source page names no line of your file (was it built "
					      "with -lineinfo?)"));
	else {
		char label[64];
		manifest_case_label(s->e->timed, s->e->ndims, label, sizeof(label));
		m->note = xasprintf("case %s, the timed size", label);
	}
	unlink(report);
	rmdir(dir);
	free(csv);
	free(output);
	free(report);
	free(base);
	args_free(&args);
	free(program);
}
