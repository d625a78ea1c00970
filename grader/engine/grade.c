/*
 * Grading one submission, as a list of stages: build the instructor's side,
 * compile the student's file while the judge computes the reference, check
 * what the file reached for, link it, run it in the sandboxed runner, run
 * the GPU's tools if asked, and come to a verdict. The protocol lives in
 * grader/engine/session.c, the decisions in grader/engine/verdict.c, the command lines
 * and the GPU's tools in grader/engine/cmdline.c.
 */
#include "grader/engine/grade.h"

#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "grader/engine/capture.h"
#include "lib/exit.h"
#include "grader/engine/diagnose.h"
#include "grader/compile/frontend_cache.h"
#include "grader/compile/inspect.h"
#include "grader/engine/timelimit.h"
#include "lib/run.h"
#include "grader/engine/memlimit.h"
#include "grader/engine/point.h"
#include "grader/sass/lines.h"
#include "harness/sandbox.h"
#include "grader/engine/session.h"
#include "grader/compile/submission.h"
#include "grader/compile/unseen.h"
#include "grader/engine/cmdline.h"
#include "lib/util.h"
#include "common/root.h"
#include "grader/engine/verdict.h"
#include "grader/engine/grade_state.h"

/* The timed round the grader judges is one of the rounds every measurement has. */
#define CHECKED_ROUNDS 20


static uint64_t
fresh_seed(void)
{
	uint64_t seed = 0;
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		if (read(fd, &seed, sizeof(seed)) != sizeof(seed))
			seed = 0;
		close(fd);
	}
	return seed ? seed : hash_bytes(&(double){ now_seconds() }, sizeof(double), (uint64_t)getpid());
}


static enum step
environment_error(struct grade_state *g, char *message)
{
	g->r->verdict = VERDICT_FAIL;
	g->r->stage = STAGE_NONE;
	free(g->r->message);
	g->r->message = message;
	g->status = EXIT_ENVIRONMENT;
	return STEP_ENVIRONMENT;
}

/* The simulator failed on a file that uses what it cannot run: no verdict, a GPU's to give (exit 3). */
static bool
needs_gpu(struct grade_state *g)
{
	const char *what = g->o->backend == BACKEND_SIM ? submission_beyond_simulator(&g->b) : NULL;
	if (!what)
		return false;
	environment_error(g, xasprintf("the simulator cannot run %s: grade this on a GPU (--backend gpu on a machine "
				       "with one)%s", what, g->nvcc_accepted ? "; nvcc accepts the file" : ""));
	return true;
}

/*
 * The simulator's compile failed on a file that nvcc's front end took: what failed is the simulator's (an
 * intrinsic, a runtime call or a form of launch it lacks), no student's mistake, and a GPU compiles the
 * file. Its deliberate refusals (__managed__ memory, code taken out of its checks) stay failures.
 */
static bool
simulator_cannot_compile(struct grade_state *g, const char *output)
{
	static const char *const refusals[] = { "memory is refused", "would take code out of the simulator's checks" };
	if (g->o->backend != BACKEND_SIM || !g->nvcc_accepted)
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(refusals); i++)
		if (output && strstr(output, refusals[i]))
			return false;
	/* and a file that names a call the grader refuses fails, as it would once compiled (a memory pool's
	   type the simulator lacks, say) */
	char *path = g->b.source[0] == '/' ? xstrdup(g->b.source) : root_path(g->b.source);
	char *text = read_file(path, NULL);
	const char *why = NULL, *call = inspect_source_calls(g->e, text, &why);
	free(path);
	free(text);
	if (call)
		return false;
	char *tidy = submission_tidy_messages(&g->b, output ? output : "", g->r->file);
	/* its first lines: the first error and where it is */
	char *cut = tidy;
	for (int lines = 0; cut && *cut && lines < 8; lines++)
		cut = strchr(cut, '\n') ? strchr(cut, '\n') + 1 : NULL;
	if (cut)
		*cut = '\0';
	environment_error(g, xasprintf("the simulator cannot compile this file, which nvcc accepts: grade it on a GPU "
				       "(--backend gpu on a machine with one); the simulator's compiler said:\n%s", tidy));
	free(tidy);
	return true;
}

static enum step
compile_failed(struct grade_state *g, const char *output)
{
	verdict_compile_failed(g->r, g->e, submission_tidy_messages(&g->b, output, g->r->file));
	return STEP_VERDICT;
}

/* The compiler ran past its limit: said first, for its output (if any) names no error. */
static enum step
compile_too_long(struct grade_state *g, const char *output)
{
	compile_failed(g, output);
	free(g->r->message);
	g->r->message = xasprintf("%s: the compiler ran past its %g s limit and was stopped (a legitimate compile "
				  "takes seconds)", g->r->file, timelimit_compile());
	diagnose_add(g->r, "compile_time",
		     xasprintf("the compiler was still at work after %g s: a template or constexpr recursion that "
			       "never ends, a huge unrolled loop, or an #include of something that is not a file "
			       "(a FIFO, a device)", timelimit_compile()));
	return STEP_VERDICT;
}

/* ----------------------------------------------------------------- the stages */


/* Name the cases: the correctness cases, then (GPU) the timed case and the timed round the grader judges. */
static void
start(struct grade_state *g, const struct exercise *e, const struct grade_options *o, struct grade_result *r)
{
	memset(g, 0, sizeof(*g));
	memset(r, 0, sizeof(*r));
	g->e = e;
	g->o = o;
	g->r = r;
	g->last_case = -1;
	g->frontend.pid = -1;
	r->e = e;
	r->backend = o->backend;
	r->file = xstrdup(o->display ? o->display : o->file ? o->file : e->file);
	r->device = xstrdup(o->backend == BACKEND_SIM ? "cudalings CPU simulator" : "");
	int timed = e->has_timed && o->backend == BACKEND_GPU && !o->skip_timing ? e->ncases : -1;
	g->has_measured = e->has_timed && o->backend == BACKEND_SIM;
	if (g->has_measured)
		cmdline_measured_dims(e, g->measured_dims);
	r->ncases = e->ncases + (timed >= 0 ? 2 : 0) + g->has_measured;
	r->cases = xcalloc((size_t)r->ncases, sizeof(*r->cases));
	for (int i = 0; i < r->ncases; i++) {
		bool is_timed = timed >= 0 && i >= timed, is_measured = g->has_measured && i == e->ncases;
		const int *dims = is_timed ? e->timed : is_measured ? g->measured_dims : e->cases[i];
		manifest_case_label(dims, e->ndims, r->cases[i].name, sizeof(r->cases[i].name));
		if (is_timed && i > timed)
			strncat(r->cases[i].name, ", a timed round", sizeof(r->cases[i].name) - strlen(r->cases[i].name) - 1);
		r->cases[i].timed = is_timed;
		r->cases[i].measured = is_measured;
	}
	session_init(&g->s, e, o->backend, r, timed);
	g->s.measured = g->has_measured ? e->ncases : -1;
	g->s.progress = o->progress;
	if (o->backend == BACKEND_SIM && !o->backend_given)
		r->note = xstrdup("no GPU: correctness checked on the CPU simulator; timing needs a GPU");
	g->seed = o->seed ? o->seed : fresh_seed();
	/* which round is judged is drawn from the secret seed: the submission cannot know it */
	g->check_round = (int)(hash_bytes(&g->seed, sizeof(g->seed), 11) % CHECKED_ROUNDS);
	snprintf(g->seed_text, sizeof(g->seed_text), "%llu", (unsigned long long)g->seed);
}

static enum step
stage_build(struct grade_state *g)
{
	struct buf log = BUF_INIT;
	progress_stage(g->o->progress, "compile", "compiling %s", g->r->file);
	int prepared = submission_prepare(&g->b, g->e, g->o->backend, g->o->file ? g->o->file : g->e->file, &log);
	enum step result = STEP_OK;
	if (prepared < 0)
		result = environment_error(g, xasprintf("cannot build the grader's side of '%s':\n%s", g->e->name,
							log.data));
	else if (prepared > 0)
		result = compile_failed(g, log.data);
	buf_free(&log);
	return result;
}

static void
judge_channel(struct child *c, const char *data, size_t n)
{
	session_feed(c->ctx, FROM_JUDGE, data, n);
}

/* nvcc's verdict on the file, when it has one: the simulator must not take what nvcc refuses. */
static bool
frontend_refused(struct grade_state *g)
{
	if (!g->frontend_running)
		return false;
	child_wait(&g->frontend);
	g->frontend_running = false;
	bool refused = !child_succeeded(&g->frontend) && !g->frontend.timed_out;
	g->nvcc_accepted = child_succeeded(&g->frontend);
	if (g->nvcc_accepted)
		frontend_cache_remember(&g->b);
	if (refused) {
		/* the object g++ made stays stale, so the next grading asks nvcc again */
		char *cmdfile = xasprintf("%s/%s.cmd", workbook_root(), g->b.object);
		unlink(cmdfile);
		free(cmdfile);
		compile_failed(g, g->frontend.output.data);
		diagnose_add(g->r, "nvcc", xstrdup("nvcc rejects this file; on the simulator it must compile with nvcc too"));
	}
	return refused;
}

/* The verdict for a file whose includes reach the grader's own files; false when they do not. */
static bool
includes_refused(struct grade_state *g)
{
	struct buf why = BUF_INIT;
	g->includes_refused = submission_check_includes(&g->b, &why) != 0;
	if (g->includes_refused) {
		verdict_fail(g->r, STAGE_COMPILE, xasprintf("%s was refused before linking: %s", g->r->file, why.data));
		diagnose_add(g->r, "refused", xstrdup(why.data));
	}
	buf_free(&why);
	return g->includes_refused;
}

/* The judge computes the reference while the student's file compiles (and, on sim, nvcc reads it). */
static enum step
stage_compile(struct grade_state *g)
{
	char rtol[32], atol[32];
	snprintf(rtol, sizeof(rtol), "%.17g", g->e->rtol);
	snprintf(atol, sizeof(atol), "%.17g", g->e->atol);
	/* a tolerance workbook.json does not give is each float type's own default, the judge's to apply */
	struct args judge_argv = ARGS_INIT;
	ARGS_ADD(&judge_argv, g->b.judge, "--seed", g->seed_text);
	if (!isnan(g->e->rtol))
		ARGS_ADD(&judge_argv, "--rtol", rtol);
	if (!isnan(g->e->atol))
		ARGS_ADD(&judge_argv, "--atol", atol);
	cmdline_add_cases(&judge_argv, g->e, g->s.timed >= 0 ? ARGV_GRADED_TIMED : ARGV_GRADED, g->check_round,
			  g->has_measured ? g->measured_dims : NULL);
	struct child judge = { .label = "judge", .on_channel = judge_channel, .ctx = &g->s };
	struct child compile = { .label = "compiler" };
	struct spawn_options judge_options = { .cwd = workbook_root(), .channel = true, .channel_child_fd = 1,
					       .timeout_s = JUDGE_LIMIT_S, .out = SPAWN_CAPTURE, .err = SPAWN_TO_STDOUT,
					       .clean_on_exit = true };
	int spawned = child_spawn(&judge, judge_argv.v, &judge_options);
	args_free(&judge_argv);
	if (spawned)
		return environment_error(g, xasprintf("cannot start the judge of '%s'", g->e->name));
	struct child scan = { .label = "preprocessor" };
	struct child *kids[3] = { &judge, &compile, &scan };
	int nkids = 1;
	/* a template bomb or a huge constant array stops at its share of the machine, not in its swap */
	struct spawn_options compile_options = { .cwd = workbook_root(), .timeout_s = timelimit_compile(),
						  .memory_limit = memlimit_compile(), .out = SPAWN_CAPTURE,
						  .err = SPAWN_TO_STDOUT, .clean_on_exit = true };
	/* nvcc's front end runs unless it accepted this file before, reading the same files (frontend_cache.c) */
	if (g->b.frontend_argv && g->b.compile_argv && !g->o->skip_frontend && frontend_cache_accepts(&g->b)) {
		g->nvcc_accepted = true;
	} else if (g->b.frontend_argv && g->b.compile_argv && !g->o->skip_frontend) {
		g->frontend = (struct child){ .label = "nvcc" };
		g->frontend_running = child_spawn(&g->frontend, g->b.frontend_argv, &compile_options) == 0;
	}
	if (g->b.compile_argv) {
		if (child_spawn(&compile, g->b.compile_argv, &compile_options)) {
			child_release(&judge);
			return environment_error(g, xasprintf("cannot start the compiler '%s'", g->b.compile_argv[0]));
		}
		nkids++;
		if (g->b.scan_argv && child_spawn(&scan, g->b.scan_argv, &compile_options) == 0)
			nkids++;
	}
	/* the runner starts meanwhile: on a GPU its start is most of a second of the driver's */
	if (g->b.compile_argv)
		point_begin(&g->point, g->e, g->o->backend, g->cmd.options.v, g->cmd.channel_fd, g->s.timed >= 0);
	if (g->b.compile_argv && runner_start(g, true) == 0) {
		struct child *all[5] = { &judge, &compile, &scan, &g->runner, &g->capture };
		while (judge.running || compile.running || scan.running)
			child_pump(all, g->capture_started ? 5 : 4, 0.02);
	} else {
		child_pump(kids, nkids, -1);
	}
	child_release(&scan);
	bool judge_ok = child_succeeded(&judge) && !g->s.in[FROM_JUDGE].broken;
	char *judge_status = child_describe_status(&judge);
	char *judge_output = xstrdup(judge.output.data);
	child_release(&judge);
	enum step result = STEP_OK;
	if (g->b.compile_argv) {
		bool compiled = child_succeeded(&compile);
		/* a file that reached for the grader's files is told so first, whatever its compile said */
		if (compile.timed_out && !includes_refused(g))
			result = compile_too_long(g, compile.output.data);
		else if (compile.timed_out)
			result = STEP_VERDICT;
		else if (!compiled && includes_refused(g))
			result = STEP_VERDICT;
		else if (!compiled && !frontend_refused(g))
			result = needs_gpu(g) || simulator_cannot_compile(g, compile.output.data)
					 ? STEP_ENVIRONMENT
					 : compile_failed(g, compile.output.data);
		else if (!compiled)
			result = STEP_VERDICT;
		else
			submission_compiled(&g->b);
		child_release(&compile);
	}
	if (result == STEP_OK && g->s.check_error)
		result = environment_error(g, xasprintf("%s; this is a fault in the exercise, not in your code",
							g->s.check_error));
	else if (result == STEP_OK && !judge_ok)
		result = environment_error(g, xasprintf("the judge of '%s' %s; this is a fault in the exercise's "
							"check, not in your code:\n%s", g->e->name, judge_status,
							judge_output));
	free(judge_status);
	free(judge_output);
	return result;
}

/* What the compiled file reached for: files of the grader, symbols of the grader or calls it may not make. */
static enum step
stage_inspect(struct grade_state *g)
{
	progress_stage(g->o->progress, "link", "checking what the file calls, and linking it");
	if (includes_refused(g))
		return STEP_VERDICT;
	struct buf why = BUF_INIT;
	enum step result = STEP_OK;
	int inspected = inspect_object(g->e, g->b.object, &why);
	if (inspected == INSPECT_CANNOT) {
		result = environment_error(g, buf_detach(&why));
	} else if (inspected == INSPECT_REFUSED) {
		verdict_fail(g->r, STAGE_COMPILE, xasprintf("%s was refused before linking: %s", g->r->file, why.data));
		diagnose_add(g->r, "refused", xstrdup(why.data));
		result = STEP_VERDICT;
	} else if (inspected == INSPECT_NO_LAUNCHER) {
		/* the message a linker's "undefined reference" gets */
		char *undefined = xasprintf("undefined reference to `%s'", g->e->launcher_name);
		result = compile_failed(g, undefined);
		free(undefined);
	} else if (unseen_check(&g->b, &why)) {
		/* after the checks above, whose messages name what a file with an asm statement reached for */
		verdict_fail(g->r, STAGE_COMPILE, xasprintf("%s was refused before linking: %s", g->r->file, why.data));
		diagnose_add(g->r, "refused", xstrdup(why.data));
		result = STEP_VERDICT;
	} else if (submission_link(&g->b, &why)) {
		/* a link error names the student's symbols: treat it as theirs */
		result = compile_failed(g, why.data);
	}
	buf_free(&why);
	return result;
}






static enum step
stage_run(struct grade_state *g)
{
	struct session *s = &g->s;
	struct child *runner = &g->runner;
	progress_stage(g->o->progress, "run", "running %d cases", s->ncases);
	point_begin(&g->point, g->e, g->o->backend, g->cmd.options.v, g->cmd.channel_fd, g->s.timed >= 0);
	/* on a GPU the runner waits, as when started early, for the plans the capture process records first */
	if (!g->runner_started && runner_start(g, g->o->backend == BACKEND_GPU))
		return environment_error(g, xasprintf("cannot start the runner of '%s'", g->e->name));
	if (g->capture_started && !capture_stage(g))
		return STEP_VERDICT;
	if (!g->go_sent) {
		/* the file is compiled and linked: the runner may load it, within the load's limit from now */
		g->go_sent = true;
		child_send_input(runner, "g", 1, !g->timing_held);
		if (s->hello) {
			g->last_case = -99;
			timelimit_runner_deadline(&g->s, g->o->backend, false, runner, &g->last_case);
		}
	}
	/* nvcc's front end, if it still runs, finishes beside the runner; the point's process is heard too */
	struct child *kids[3] = { runner };
	int nkids = 1;
	if (g->frontend_running)
		kids[nkids++] = &g->frontend;
	if (g->point.started)
		kids[nkids++] = &g->point.ncu;
	while (runner->running || (g->frontend_running && g->frontend.running)) {
		child_pump(kids, nkids, 0.02);
		/* the rounds are timed once the point's profiler is quiet; its launch is measured once the runner
		   said it is done (a GPU's runner does nothing after), while the runner's process ends */
		if (g->timing_held && point_quiet(&g->point)) {
			g->timing_held = false;
			child_send_input(runner, "t", 1, true);
		}
		if (s->done)
			point_go(&g->point);
	}
	if (s->device_error) {
		child_release(runner);
		char *message = s->device_error;
		s->device_error = NULL;
		return environment_error(g, message);
	}
	session_filtered(s, runner->timed_out, runner->status);
	char *status = child_describe_status(runner);
	session_runner_ended(s, runner->timed_out, timelimit_runner_current(&g->s, g->o->backend), status);
	free(status);
	if (runner->output.len)
		program_output(g, runner);
	child_release(runner);
	if (s->have_device) {
		free(g->r->device);
		g->r->device = xstrdup(s->device.name);
		if (!s->device.is_simulator)
			snprintf(g->r->arch, sizeof(g->r->arch), "sm_%d%d", s->device.cc_major, s->device.cc_minor);
	}
	if (s->stopped_early)
		g->r->performance = PERFORMANCE_NOT_MEASURED;
	return STEP_OK;
}

/* The heat map: what was measured and on which case, or why nothing was; the lines' text, the hot ones. */
static void
finish_lines(struct grade_state *g, enum step result)
{
	struct line_map *m = &g->r->lines;
	if (m->source && !strcmp(m->source, "simulator") && !m->note) {
		/* sim/check.c counts the requests of the first 32 blocks of each launch */
		int i = g->s.measured >= 0 ? g->s.measured : -1;
		m->note = i >= 0 ? xasprintf("case %s, the first 32 blocks of each launch", g->r->cases[i].name)
				 : xstrdup("every case, the first 32 blocks of each launch");
	}
	if (result == STEP_ENVIRONMENT)
		lines_not_measured(m, xstrdup("the grading stopped before your kernels ran"));
	else if (g->r->stage == STAGE_COMPILE)
		lines_not_measured(m, xstrdup("the file did not compile"));
	else if (g->o->backend == BACKEND_GPU && !g->o->lines)
		lines_not_measured(m, xstrdup("on a GPU the figures per line come from Nsight Compute: grade with --lines"));
	else
		lines_not_measured(m, xstrdup("no kernel of yours made a memory request that was measured"));
	if (g->b.source) {
		char *path = g->b.source[0] == '/' ? xstrdup(g->b.source) : root_path(g->b.source);
		lines_finish(m, g->r->file, path);
		free(path);
	}
}

int
grade_run(const struct exercise *e, const struct grade_options *o, struct grade_result *r)
{
	struct grade_state *g = xcalloc(1, sizeof(*g));
	start(g, e, o, r);
	struct runner_command *cmd = &g->cmd;
	enum step result = stage_build(g);
	if (result == STEP_OK) {
		runner_options(g, cmd, g->channel_text, g->threshold_text);
		result = stage_compile(g);
	}
	if (result == STEP_OK)
		result = stage_inspect(g);
	if (result == STEP_OK)
		result = stage_run(g);
	/* nvcc's errors come first: what it rejects fails, whatever the simulator made of it */
	if (result != STEP_ENVIRONMENT && !g->includes_refused && frontend_refused(g))
		result = STEP_VERDICT;
	/* a symbol of the CUDA runtime the simulator lacks (cudaLaunchKernel, say) is no student's mistake */
	if (result == STEP_OK && g->s.refused && g->s.refused_when == SANDBOX_LOAD && needs_gpu(g))
		result = STEP_ENVIRONMENT;
	/* nor a launch it cannot make (a kernel given by a pointer of no type), which it says in these words */
	for (int i = 0; result == STEP_OK && o->backend == BACKEND_SIM && i < r->ncases; i++)
		if (r->cases[i].message && strstr(r->cases[i].message, "the simulator cannot launch")) {
			result = environment_error(g, xasprintf("%s", r->cases[i].message));
			for (int k = 0; k < r->ncases; k++)
				r->cases[k].ran = false; /* no case was judged */
		}
	bool point = g->point.begun && result == STEP_OK && verdict_cases_passed(&g->s);
	if (point)
		progress_stage(g->o->progress, "point", "measuring the exercise's budgets with Nsight Compute");
	point_finish(&g->point, &g->s, point);
	if (result == STEP_OK && o->backend == BACKEND_GPU && o->sanitize)
		cmdline_sanitize(&g->s, cmd);
	/* a kernel too slow gets Nsight Compute's figures even unasked, where the point has not measured them:
	   they say where the time goes; --profile adds the DRAM's */
	bool profile = o->profile || (!r->figures.measured && verdict_too_slow(&g->s) && cmdline_profile_available());
	if (result == STEP_OK && o->backend == BACKEND_GPU && profile && e->has_timed)
		cmdline_profile(&g->s, cmd);
	if (result == STEP_OK && o->backend == BACKEND_GPU && o->lines && e->has_timed) {
		const char *paths[] = { g->b.source, g->b.nvcc_link, NULL };
		cmdline_lines(&g->s, cmd, paths);
	}
	if (result != STEP_ENVIRONMENT)
		verdict_conclude(&g->s);
	/* too slow, and no memory diagnosis explains it (Nsight Compute's figures clean, or none measured):
	   the machine code can tell whether the loads go out together */
	if (result != STEP_ENVIRONMENT && o->backend == BACKEND_GPU && g->b.source && r->stage == STAGE_PERFORMANCE &&
	    !diagnose_has(r, "uncoalesced") && !diagnose_has(r, "bank_conflicts") && !diagnose_has(r, "timing")) {
		char *path = g->b.source[0] == '/' ? xstrdup(g->b.source) : root_path(g->b.source);
		progress_stage(o->progress, "explain", "reading the machine code of your kernels and the reference's");
		diagnose_slow_loads(r, e, path);
		free(path);
	}
	finish_lines(g, result);
	int status = result == STEP_ENVIRONMENT ? g->status : r->verdict == VERDICT_PASS ? EXIT_PASS : EXIT_FAIL;
	if (g->frontend.pid > 0)
		child_release(&g->frontend);
	/* a runner started early for a file that never got to run: it is waiting, and goes now */
	child_release(&g->runner);
	point_release(&g->point);
	child_release(&g->capture);
	args_free(&cmd->options);
	args_free(&cmd->capture_options);
	session_release(&g->s);
	submission_release(&g->b);
	free(g);
	return status;
}

void
grade_release(struct grade_result *r)
{
	free(r->file);
	free(r->device);
	free(r->message);
	free(r->note);
	free(r->timing.noise);
	free(r->point.why_not);
	free(r->compile_output);
	free(r->program_output);
	for (int i = 0; i < r->ncases; i++)
		free(r->cases[i].message);
	free(r->cases);
	lines_release(&r->lines);
	for (int i = 0; i < r->ndiagnostics; i++) {
		free(r->diagnostics[i].kind);
		free(r->diagnostics[i].message);
		free(r->diagnostics[i].file);
		free(r->diagnostics[i].other_file);
	}
	memset(r, 0, sizeof(*r));
}
