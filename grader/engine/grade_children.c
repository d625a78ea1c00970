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
#include "grader/engine/memlimit.h"
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
	struct args *options = &cmd->options;
	args_init(options);
	args_init(&cmd->capture_options);
	args_add_owned(options, root_path(g->b.runner));
	ARGS_ADD(options, "--channel", channel_text, "--seed", g->seed_text, "--threshold", threshold_text);
	if (g->o->backend == BACKEND_GPU) {
		/* the measuring process: the device code and the checked plans, never the shared object */
		args_add(options, "--device-code");
		args_add_owned(options, root_path(g->b.device_code));
		args_add(options, "--plans");
		args_add_owned(options, root_path(g->b.plans));
		/* written afresh once this grading's capture has been checked, never left from another */
		unlink(options->v[options->n - 1]);
		/* and the process that runs the shared object, on a channel of its own, with no seed */
		cmd->capture_fd = random_channel_fd(g->seed + 1);
		capture_options(&cmd->capture_options, g->b.capture, g->b.library, g->e->launcher_name, cmd->capture_fd);
	} else {
		args_add(options, "--student");
		args_add_owned(options, root_path(g->b.library));
	}
	if (g->e->timing_ways)
		ARGS_ADD(options, "--timing-ways", "1");
	if (g->o->backend == BACKEND_SIM && timelimit_sim_launch() > 0) {
		args_add(options, "--launch-cpu-limit");
		args_addf(options, "%g", timelimit_sim_launch());
	}
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
	struct args argv = ARGS_INIT;
	args_add_all(&argv, g->cmd.options.v);
	if (early)
		ARGS_ADD(&argv, "--wait-go", "1");
	/* the point's Nsight Compute warms up on the same GPU meanwhile: the rounds are timed once it is quiet
	   (grader/engine/point.h; not for the demo whose ways are timed before the rounds) */
	g->timing_held = early && g->point.started && g->s.timed >= 0 && !g->e->timing_ways;
	if (g->timing_held)
		ARGS_ADD(&argv, "--wait-timing", "1");
	cmdline_add_cases(&argv, g->e, g->s.timed >= 0 ? ARGV_GRADED_TIMED : ARGV_GRADED, g->check_round,
			  g->has_measured ? g->measured_dims : NULL);
	g->runner = (struct child){ .label = "runner", .on_channel = runner_channel, .ctx = g };
	struct spawn_options spawn = { .cwd = workbook_root(), .channel = true, .channel_child_fd = g->cmd.channel_fd,
				       .timeout_s = START_LIMIT_S, .output_cap = 64 * 1024, .no_processes = true,
				       .out = SPAWN_CAPTURE, .err = SPAWN_TO_STDOUT, .clean_on_exit = true,
				       .input_pipe = early,
				       /* the CUDA runtime reserves vast address space; the simulator does not */
				       .memory_limit = g->o->backend == BACKEND_SIM ? memlimit_runner() : 0 };
	int spawned = child_spawn(&g->runner, argv.v, &spawn);
	args_free(&argv);
	g->runner_started = spawned == 0;
	g->go_sent = !early;
	if (spawned == 0 && g->cmd.capture_options.n) {
		struct args capture = ARGS_INIT;
		args_add_all(&capture, g->cmd.capture_options.v);
		cmdline_add_cases(&capture, g->e, g->s.timed >= 0 ? ARGV_GRADED_TIMED : ARGV_GRADED, g->check_round, NULL);
		if (early)
			ARGS_ADD(&capture, "--wait-go", "1");
		spawned = capture_start(&g->capture, &g->s, capture.v, g->cmd.capture_fd, early);
		args_free(&capture);
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
