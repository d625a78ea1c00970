/*
 * Running the capture process (GPU): started beside the compile like the
 * runner, so that the GPU's start overlaps it, then told to go once the
 * submission is linked, and run to its end under a limit of its own. What
 * it says goes to the session as FROM_CAPTURE: plans, and errors or
 * refusals, which can only fail the submission; anything else it sends is
 * a forgery and stops it.
 */
#include "grader/engine/capture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grader/engine/timelimit.h"
#include "lib/file.h"
#include "harness/plan.h"
#include "harness/sandbox.h"
#include "lib/util.h"
#include "common/root.h"

static void
capture_channel(struct child *c, const char *data, size_t n)
{
	struct session *s = c->ctx;
	session_feed(s, FROM_CAPTURE, data, n);
	if (s->in[FROM_CAPTURE].broken)
		child_kill(c);
}

int
capture_write_plans(struct session *s, const char *path)
{
	struct plan_state st;
	struct buf file = BUF_INIT;
	char why[512];
	memset(&st, 0, sizeof(st));
	/* in case order, the capture's: an allocation of one case's plan is still there in the next */
	for (int i = 0; i < s->ncases; i++) {
		struct case_state *x = &s->cases[i];
		if (!x->have_plan)
			continue;
		st.nbuffers = x->info.nbuffers;
		for (int k = 0; k < x->info.nbuffers; k++)
			st.buffer_bytes[k] = x->info.buffers[k].rows * x->info.buffers[k].cols *
					     dtype_size(x->info.buffers[k].dtype);
		if (plan_check(x->plan.data, x->plan.len, &st, why, sizeof(why))) {
			if (!s->refused) {
				s->refused = xasprintf("its launcher's calls in case %s cannot be replayed: %s",
						       s->r->cases[i].name, why);
				s->refused_when = SANDBOX_RUN;
			}
			buf_free(&file);
			return -1;
		}
		struct plan_file_entry h = { (uint32_t)i, 0, x->plan.len };
		buf_add(&file, &h, sizeof(h));
		buf_add(&file, x->plan.data, x->plan.len);
	}
	int status = write_file_atomic(path, file.data, file.len);
	if (status)
		session_fail_case(s, 0, xasprintf("the grader could not write the plans to '%s'", path));
	buf_free(&file);
	return status ? -1 : 0;
}

int
capture_start(struct child *c, struct session *s, char *const *argv, int channel_fd, bool early)
{
	*c = (struct child){ .label = "capture", .on_channel = capture_channel, .ctx = s };
	struct spawn_options spawn = { .cwd = workbook_root(), .channel = true, .channel_child_fd = channel_fd,
				       .timeout_s = START_LIMIT_S, .output_cap = 64 * 1024, .no_processes = true,
				       .out = SPAWN_CAPTURE, .err = SPAWN_TO_STDOUT, .clean_on_exit = true,
				       .input_pipe = early };
	return child_spawn(c, argv, &spawn);
}

void
capture_finish(struct child *c, struct session *s, bool early)
{
	if (early)
		child_send_input(c, "g", 1, true);
	/* from now: loading the submission as the runner would, then each case's launcher calls, their launches
	   run once, as long as a case of the runner's */
	int current = -1;
	c->deadline = now_seconds() + LOAD_LIMIT_S;
	struct child *kids[1] = { c };
	while (c->running && !s->capture_done && !s->in[FROM_CAPTURE].broken) {
		child_pump(kids, 1, 0.01);
		if (s->capture_current != current) {
			current = s->capture_current;
			c->deadline = now_seconds() + CASE_LIMIT_GPU_S;
		}
	}
	/* "done" comes after what it printed: read that, and do not wait for its GPU context to be torn down */
	child_pump(kids, 1, 0);
	if (c->running && s->capture_done) {
		child_kill(c);
		return;
	}
	child_wait(c);
	session_filtered(s, c->timed_out, c->status);
	if (s->capture_done || s->refused || s->in[FROM_CAPTURE].broken)
		return;
	char *status = child_describe_status(c);
	session_stopped(s, c->timed_out, true, s->capture_current, current < 0 ? LOAD_LIMIT_S : CASE_LIMIT_GPU_S, status);
	free(status);
}

void
capture_options(struct args *argv, const char *program, const char *library, const char *launcher, int channel_fd)
{
	args_add_owned(argv, root_path(program));
	args_add(argv, "--channel");
	args_addf(argv, "%d", channel_fd);
	args_add(argv, "--student");
	args_add_owned(argv, root_path(library));
	ARGS_ADD(argv, "--launcher", launcher);
}

bool
capture_run(struct child *c, struct session *s, bool early, const char *plans)
{
	capture_finish(c, s, early);
	return s->capture_done && !s->refused && !s->in[FROM_CAPTURE].broken && capture_write_plans(s, plans) == 0;
}
