/*
 * The children of a grading that run the submission: the runner (on a GPU,
 * the measuring process) and, on a GPU, the capture process — their
 * command lines, their start beside the compile, and the capture's stage
 * before the runner may go. The stages themselves are grader/engine/grade.c's.
 */
#include "grader/engine/grade_state.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grader/engine/capture.h"
#include "grader/engine/timelimit.h"
#include "grader/batch/memlimit.h"
#include "lib/util.h"
#include "common/root.h"

/* A descriptor number for the channel that the student's code cannot count on. */
static int
random_channel_fd(uint64_t seed)
{
	return 100 + (int)(hash_bytes(&seed, sizeof(seed), 7) % 800);
}

static void
runner_channel(struct child *c, const char *data, size_t n)
{
	struct grade_state *g = c->ctx;
	session_feed(&g->s, FROM_RUNNER, data, n);
	if (g->s.stop_runner)
		child_kill(c);
	else
		timelimit_runner_deadline(&g->s, g->o->backend, !g->go_sent, c, &g->last_case);
}

void
runner_options(struct grade_state *g, struct runner_command *cmd, char *channel_text, char *threshold_text)
{
	cmd->channel_fd = random_channel_fd(g->seed);
	snprintf(channel_text, 16, "%d", cmd->channel_fd);
	snprintf(threshold_text, 32, "%.17g", g->e->threshold_ratio);
	char **options = xcalloc(16, sizeof(char *));
	int n = 0;
	options[n++] = root_path(g->b.runner);
	options[n++] = xstrdup("--channel");
	options[n++] = xstrdup(channel_text);
	options[n++] = xstrdup("--seed");
	options[n++] = xstrdup(g->seed_text);
	options[n++] = xstrdup("--threshold");
	options[n++] = xstrdup(threshold_text);
	if (g->o->backend == BACKEND_GPU) {
		/* the measuring process: the device code and the checked plans, never the shared object */
		options[n++] = xstrdup("--device-code");
		options[n++] = root_path(g->b.device_code);
		options[n++] = xstrdup("--plans");
		options[n++] = root_path(g->b.plans);
		/* written afresh once this grading's capture has been checked, never left from another */
		unlink(options[n - 1]);
		/* and the process that runs the shared object, on a channel of its own, with no seed */
		cmd->capture_fd = random_channel_fd(g->seed + 1);
		cmd->capture_options = capture_options(g->b.capture, g->b.library, g->e->launcher_name, cmd->capture_fd);
	} else {
		options[n++] = xstrdup("--student");
		options[n++] = root_path(g->b.library);
	}
	if (g->e->timing_ways) {
		options[n++] = xstrdup("--timing-ways");
		options[n++] = xstrdup("1");
	}
	if (g->o->backend == BACKEND_SIM && timelimit_sim_launch() > 0) {
		options[n++] = xstrdup("--launch-cpu-limit");
		options[n++] = xasprintf("%g", timelimit_sim_launch());
	}
	cmd->options = options;
}

/*
 * Start the runner. Early (while the student's file compiles), it opens the
 * GPU and installs its filter, then waits for a byte on its input before it
 * loads the file: the GPU's start, most of a second, overlaps the compiler
 * instead of following it (on the simulator it costs next to nothing, and
 * the same path runs everywhere). 0, or -1 when it could not start.
 */
int
runner_start(struct grade_state *g, bool early)
{
	const char *wait[] = { "--wait-go", "1" };
	int n = 0;
	while (g->cmd.options[n])
		n++;
	char **options = xcalloc((size_t)n + 3, sizeof(char *));
	memcpy(options, g->cmd.options, (size_t)n * sizeof(char *));
	if (early)
		memcpy(options + n, wait, sizeof(wait));
	char **argv = cmdline_argv(g->e, options, g->s.timed >= 0 ? ARGV_GRADED_TIMED : ARGV_GRADED, g->check_round,
				 g->has_measured ? g->measured_dims : NULL);
	free(options);
	g->runner = (struct child){ .label = "runner", .on_channel = runner_channel, .ctx = g };
	struct spawn_options spawn = { .cwd = workbook_root(), .channel = true, .channel_child_fd = g->cmd.channel_fd,
				       .timeout_s = START_LIMIT_S, .output_cap = 64 * 1024, .no_processes = true,
				       .out = SPAWN_CAPTURE, .err = SPAWN_TO_STDOUT, .clean_on_exit = true,
				       .input_pipe = early,
				       /* the CUDA runtime reserves vast address space; the simulator does not */
				       .memory_limit = g->o->backend == BACKEND_SIM ? memlimit_runner() : 0 };
	int spawned = child_spawn(&g->runner, argv, &spawn);
	cmdline_free_argv(argv);
	g->runner_started = spawned == 0;
	g->go_sent = !early;
	if (spawned == 0 && g->cmd.capture_options) {
		char **capture = cmdline_argv(g->e, g->cmd.capture_options, g->s.timed >= 0 ? ARGV_GRADED_TIMED : ARGV_GRADED,
					    g->check_round, NULL);
		if (early)
			cmdline_add_option(&capture, "--wait-go", "1");
		spawned = capture_start(&g->capture, &g->s, capture, g->cmd.capture_fd, early);
		cmdline_free_argv(capture);
		g->capture_started = spawned == 0;
		g->capture_early = early;
	}
	return spawned;
}

/* What a child printed, after what another printed before it (the capture process's, then the runner's). */
void
program_output(struct grade_state *g, const struct child *c)
{
	char *before = g->r->program_output;
	g->r->program_output = xasprintf("%s%s%s", before ? before : "", c->output.data,
					 c->output_truncated ? "\n[output cut: more than 64 KiB]\n" : "");
	free(before);
}

/*
 * GPU: the capture process records the launcher's calls, and the grader checks them and writes them for
 * the measuring runner. Whether the runner may go on: not after a refusal, a forgery or a crash of the
 * capture (the session says which), when the runner is stopped unheard.
 */
bool
capture_stage(struct grade_state *g)
{
	char *plans = root_path(g->b.plans);
	bool go = capture_run(&g->capture, &g->s, g->capture_early, plans);
	free(plans);
	if (g->capture.output.len)
		program_output(g, &g->capture);
	child_release(&g->capture);
	g->capture_started = false;
	if (!go) {
		child_release(&g->runner);
		g->runner_started = false;
	}
	return go;
}
