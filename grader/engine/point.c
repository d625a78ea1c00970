/*
 * point: an exercise's point checked on a GPU by the simulator's rule,
 * its budgets measured by Nsight Compute over one launch of the timed case.
 * Declared in point.h.
 *
 * Cost: ncu's start, with the process it profiles, is about 1.9 s on an
 * H100 (bench/ncu-budgets-h100.md), more than a whole grading, and ncu's
 * first profiled launch in a process 0.7 s more, a later one 0.13 s
 * (bench/ncu-point-cost-h100.md). So both start while the file compiles, as
 * the graded runner does: the process opens the GPU there too (the context,
 * and what ncu sets up in it), has one launch of the harness's own kernel
 * profiled (--profile-warm-up; its rows are skipped in the log), says HELLO, then waits for a byte before it loads the
 * submission. The graded run's timing waits for that HELLO (the runner's
 * --wait-timing, grade.c), so that no profiler works on the GPU while rounds
 * are timed, and the go follows the graded runner's "done", never HELLO's
 * absence (point_go). What is left after the graded run is the
 * submission's load, the correctness cases' plans (the launcher's state, as
 * graded), the one profiled launch with its replays, and ncu's end; the
 * timed size's inputs are drawn on the device and its outputs sent nowhere
 * (the runner's --figures-only, cmdline_add_cases's).
 * Not cheaper ways: a smaller case than the timed one (a launcher may pick
 * its kernel, or a kernel its path, by the size, which the workbook states:
 * the point must see the launch whose time was judged), or fewer metrics
 * (the sectors' use, instrumented, is what lets a float4 kernel count as
 * the simulator counts it), or the launch measured before the rounds, with
 * the go when the plans are written and ncu's end while the rounds run
 * (0.1 s less from compile to verdict on an H100, and with four gradings
 * at once 3 of 20 had ncu stopped when the rounds had waited 6 s for it:
 * bench/point-early-h100.md).
 *
 * Trust: the figures come from ncu's log file, which the ncu front end
 * writes; the profiled process's output is dropped. Only the student's
 * launch is in the profiler's range (the runner brackets it with
 * cudaProfilerStart/Stop), so the harness's own kernels count for nothing.
 */
#include "grader/engine/point.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grader/compile/build.h"
#include "grader/engine/timelimit.h"
#include "grader/engine/diagnose.h"
#include "grader/engine/cmdline.h"
#include "harness/protocol.h"
#include "lib/util.h"
#include "common/root.h"

char **
point_process_argv(const struct exercise *e, char *const *runner_options)
{
	struct args argv = ARGS_INIT;
	args_add_all(&argv, runner_options);
	ARGS_ADD(&argv, "--wait-go", "1", "--profile-warm-up", "1");
	cmdline_add_cases(&argv, e, ARGV_TOOL_TIMED_SIZE, -1, NULL);
	return args_detach(&argv);
}

/*
 * The profiled process's protocol: its outputs are nobody's to judge. Its
 * first bytes, HELLO, come once its profiler has warmed up (the runner's
 * --profile-warm-up): from then on it runs nothing on the GPU until its go.
 */
static void
point_channel(struct child *c, const char *data, size_t n)
{
	struct point_run *p = c->ctx;
	(void)data;
	if (n)
		p->warm = true;
}

static void
point_start(struct point_run *p, char **argv, int channel_fd)
{
	p->ncu.pid = -1;
	char *program = toolchain_cuda_tool("ncu");
	if (!program) {
		p->why_not = xstrdup("Nsight Compute (ncu) is not beside nvcc on this machine");
		return;
	}
	snprintf(p->dir, sizeof(p->dir), "/tmp/cudalings-point-XXXXXX");
	if (!mkdtemp(p->dir)) {
		p->dir[0] = 0;
		p->why_not = xstrdup("no folder for Nsight Compute's log could be made in /tmp");
		free(program);
		return;
	}
	p->log = xasprintf("%s/ncu.log", p->dir);
	char launches[16];
	/* the student's launch, and the warm-up before it */
	snprintf(launches, sizeof(launches), "%d", POINT_MAX_KERNELS + 1);
	/* the clocks as they are (METHOD.md, and the timing, leave them alone); the student's launch alone;
	   no caches flushed before each replay pass: what the budgets count (requests, the sectors and
	   bank wavefronts they ask for, the bytes of each sector used) is the same in a warm cache or a
	   cold one, unlike the time or the hit rates, which this run measures neither of */
	char *tool[] = { program, "--clock-control", "none", "--cache-control", "none", "--profile-from-start", "off",
			 "--launch-count", launches, "--csv", "--print-units", "base", "--log-file", p->log, "--metrics",
			 (char *)diagnose_ncu_budget_metrics, NULL };
	struct args all = ARGS_INIT;
	args_add_all(&all, tool);
	args_add_all(&all, argv);
	p->ncu = (struct child){ .label = "ncu", .on_channel = point_channel, .ctx = p };
	/* ncu starts the process as its child: no limit on processes; it waits on its input for the go */
	struct spawn_options options = { .cwd = workbook_root(), .channel = true, .channel_child_fd = channel_fd,
					 .timeout_s = COMPILE_LIMIT_S + START_LIMIT_S + TIMED_LIMIT_S + POINT_LIMIT_S,
					 .output_cap = 16 * 1024, .out = SPAWN_CAPTURE, .err = SPAWN_TO_STDOUT,
					 .input_pipe = true, .clean_on_exit = true };
	p->started = child_spawn(&p->ncu, all.v, &options) == 0;
	if (!p->started)
		p->why_not = xstrdup("Nsight Compute (ncu) could not be started");
	args_free(&all);
	free(program);
}

void
point_begin(struct point_run *p, const struct exercise *e, enum backend backend, char *const *runner_options,
	    int channel_fd, bool timed)
{
	if (p->begun || backend != BACKEND_GPU || !e->budgets_on_gpu)
		return;
	memset(p, 0, sizeof(*p));
	p->begun = true;
	/* the capture records the launcher's plans for the graded run's cases, and a --no-timing one has no
	   timed case: the process would replay nothing at the timed size, and ncu measure no kernel (every
	   such grading on an H100, bench/point-early-h100.md) */
	if (!timed) {
		p->why_not = xstrdup("they are measured on the timed case, which a --no-timing grading does not run");
		return;
	}
	char **argv = point_process_argv(e, runner_options);
	point_start(p, argv, channel_fd);
	argv_free(argv);
}

/* The first line of text that starts with `mark`, without it (you own it), or NULL. */
static char *
line_after(const char *text, const char *mark)
{
	const char *at = text ? strstr(text, mark) : NULL;
	if (!at)
		return NULL;
	at += strlen(mark);
	while (*at == ' ')
		at++;
	return xstrndup(at, strcspn(at, "\n"));
}

int
point_read_log(const char *log, struct proto_counts *c, char **why)
{
	double gbps;
	*why = NULL;
	/* the warm-up, the runner's launch before the go (--profile-warm-up), when ncu measured it: always the
	   first kernel, under the harness's name, which no submission may define (grader/compile/inspect.c
	   refuses cudalings_ names); one ncu did not measure leaves every kernel the student's */
	int kernels = log ? diagnose_parse_ncu(log, PROTO_NAME_OF(PROTO_WARM_UP_KERNEL), c, &gbps) : -1;
	if (kernels > 0)
		return kernels;
	/* what stopped it: an error of ncu's (no access to the counters, a driver it cannot use), or no kernel */
	char *error = line_after(log, "==ERROR==");
	if (error)
		*why = xasprintf("Nsight Compute could not measure the launch: %s", error);
	else if (log && strstr(log, "No kernels were profiled"))
		*why = xstrdup("Nsight Compute measured no kernel in the launch at the timed size");
	else
		*why = xstrdup("Nsight Compute wrote no figures");
	free(error);
	return -1;
}

bool
point_quiet(const struct point_run *p)
{
	return !p->started || p->warm || p->go_sent || !p->ncu.running ||
	       now_seconds() - p->ncu.started > POINT_WARM_LIMIT_S;
}

static void
send_go(struct point_run *p)
{
	p->go_sent = true;
	child_send_input(&p->ncu, "g", 1, true);
	p->ncu.deadline = now_seconds() + POINT_LIMIT_S;
}

/*
 * The go only once the process said HELLO: before it, it still warms up and
 * reads no input. (A --no-timing grading's go, which came before HELLO,
 * once seemed to lose the launch on an H100; the launch was missing from
 * the plans: point_begin.)
 */
void
point_go(struct point_run *p)
{
	if (p->started && !p->go_sent && p->warm)
		send_go(p);
}

void
point_finish(struct point_run *p, struct session *s, bool wanted)
{
	struct grade_result *r = s->r;
	if (!p->begun || !wanted) {
		point_release(p);
		return;
	}
	r->point.state = POINT_NOT_CHECKED;
	if (!p->started) {
		r->point.why_not = p->why_not ? xstrdup(p->why_not) : xstrdup("Nsight Compute did not run");
		return;
	}
	/* HELLO first (point_go says why), for as long as the graded run may wait for it */
	struct child *ncu = &p->ncu;
	while (!p->go_sent && !p->warm && ncu->running && now_seconds() - ncu->started < POINT_WARM_LIMIT_S)
		child_pump(&ncu, 1, 0.02);
	if (!p->go_sent)
		send_go(p);
	child_wait(&p->ncu);
	char *log = read_file(p->log, NULL);
	struct proto_counts counts;
	char *why = NULL;
	int kernels = point_read_log(log, &counts, &why);
	if (kernels < 0 && p->ncu.timed_out) {
		free(why);
		why = xasprintf("Nsight Compute ran past %d s", POINT_LIMIT_S);
	} else if (kernels < 0 && !log) {
		char *status = child_describe_status(&p->ncu);
		free(why);
		why = xasprintf("Nsight Compute %s and wrote no log: %.300s", status,
				p->ncu.output.data);
		free(status);
	}
	free(log);
	if (kernels < 0) {
		r->point.why_not = why;
		return;
	}
	r->point.kernels = kernels;
	if (kernels >= POINT_MAX_KERNELS) {
		/* the kernels past the last one measured could be anything: refused, never waved through */
		r->point.why_not = xasprintf("the launch at the timed size started %d kernels or more, and Nsight Compute "
					     "measures the first %d", POINT_MAX_KERNELS, POINT_MAX_KERNELS);
		if (s->tool_stage == STAGE_NONE) {
			s->tool_stage = STAGE_PERFORMANCE;
			s->tool_message = xasprintf("this exercise's budgets are measured over every kernel of one launch, "
						    "and yours started %d or more: %s", POINT_MAX_KERNELS,
						    "launch fewer kernels");
		}
		return;
	}
	diagnose_figures(&counts, "nsight compute", &r->figures);
	r->point.state = POINT_CHECKED;
	r->point.by = "nsight compute";
}

void
point_release(struct point_run *p)
{
	if (p->started)
		child_release(&p->ncu);
	p->started = false;
	if (p->log)
		unlink(p->log);
	if (p->dir[0])
		rmdir(p->dir);
	p->dir[0] = 0;
	free(p->log);
	p->log = NULL;
	free(p->why_not);
	p->why_not = NULL;
}
