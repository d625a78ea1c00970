#include "grade.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compare.h"
#include "diagnose.h"
#include "inspect.h"
#include "proc.h"
#include "util.h"

/* Seconds a child may take. The simulator is slower than a GPU; so is a first CUDA start. */
#define COMPILE_LIMIT_S 120
#define JUDGE_LIMIT_S 300
#define START_LIMIT_S 60
#define CASE_LIMIT_GPU_S 10
#define CASE_LIMIT_SIM_S 25
#define TIMED_LIMIT_S 90
#define SIM_MEMORY_LIMIT (16ul << 30)
/* a template bomb or a huge constant array stops here, not in the machine's swap */
#define COMPILE_MEMORY_LIMIT (8ul << 30)

/* What the judge said about one case. */
struct expected_case {
	bool have_info;
	struct proto_case_info info;
	struct proto_expect *values[PROTO_MAX_BUFFERS];
	size_t count[PROTO_MAX_BUFFERS];
};

struct reader {
	struct buf pending;
	bool broken;
};

struct session {
	const struct exercise *e;
	const struct grade_options *o;
	struct grade_result *r;
	int ncases;          /* correctness cases plus the timed one */
	int timed;           /* its index, or -1 */
	struct expected_case expected[MANIFEST_MAX_CASES + 1];
	struct reader judge_in, runner_in;
	int current;         /* the case the runner is in, -1 before the first */
	bool done;           /* the runner said it finished */
	bool stopped_early;  /* we stopped it before timing a wrong kernel */
	bool outputs_seen[MANIFEST_MAX_CASES + 1][PROTO_MAX_BUFFERS];
	struct proto_timing timing;
	bool have_timing;
	struct proto_device device;
	bool have_device;
	struct child *runner;
	char *device_error;  /* the runner could not open the GPU */
	uint64_t addrs[MANIFEST_MAX_CASES + 1][PROTO_MAX_BUFFERS]; /* where the runner put each case's arrays */
	struct proto_finding uninitialized[MANIFEST_MAX_CASES + 1]; /* said only if the case fails */
	bool have_uninitialized[MANIFEST_MAX_CASES + 1];
	struct proto_counts counts; /* the simulator's, over every case */
	bool have_counts;
	struct reader tool_in; /* a run under compute-sanitizer */
	const char *tool_stage; /* a failure compute-sanitizer found, and its message */
	char *tool_message;
};

bool
gpu_present(void)
{
	const char *visible = getenv("CUDA_VISIBLE_DEVICES");
	if (visible && (!*visible || !strcmp(visible, "-1")))
		return false;
	if (file_exists("/dev/nvidia0") || file_exists("/dev/nvidiactl"))
		return true;
	DIR *d = opendir("/proc/driver/nvidia/gpus");
	bool any = false;
	for (struct dirent *entry; d && (entry = readdir(d));)
		any |= entry->d_name[0] != '.';
	if (d)
		closedir(d);
	return any;
}

static void
progress(const struct session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
progress(const struct session *s, const char *fmt, ...)
{
	if (!s->o->progress)
		return;
	va_list ap;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
}

/* Fail case `index` with `message` (owned) unless it already failed; the first reason stays. */
static void
fail_case(struct session *s, int index, char *message)
{
	struct case_result *c = &s->r->cases[index];
	c->ran = true;
	if (!c->passed && c->message) {
		free(message);
		return;
	}
	c->passed = false;
	free(c->message);
	c->message = message;
}

/* --------------------------------------------------------------- framing */

typedef void message_fn(struct session *s, const struct proto_header *h, const char *payload);

/* The largest payload a message of this type may carry, so a lying header cannot make us allocate. */
static uint64_t
payload_limit(const struct session *s, const struct proto_header *h, bool from_judge)
{
	if (h->case_index > (uint32_t)s->ncases || h->aux >= 64)
		return 0;
	switch (h->type) {
	case MSG_EXPECTED:
		return from_judge ? (uint64_t)1 << 40 : 0;
	case MSG_CASE_INFO:
		return from_judge ? sizeof(struct proto_case_info) : 0;
	case MSG_OUTPUT: {
		const struct expected_case *x = h->case_index < (uint32_t)s->ncases ? &s->expected[h->case_index] : NULL;
		if (from_judge || !x || h->aux >= PROTO_MAX_BUFFERS || !x->values[h->aux])
			return 0;
		return x->count[h->aux] * sizeof(float);
	}
	case MSG_HELLO:
		return sizeof(struct proto_device);
	case MSG_TIMING:
		return sizeof(struct proto_timing);
	case MSG_INPUT_CHANGED:
		return sizeof(uint64_t);
	case MSG_ERROR:
	case MSG_STAGE:
		return 4096;
	case MSG_BUFFERS:
		return from_judge ? 0 : sizeof(uint64_t) * PROTO_MAX_BUFFERS;
	case MSG_FINDING:
		return from_judge ? 0 : sizeof(struct proto_finding);
	case MSG_COUNTS:
		return from_judge ? 0 : sizeof(struct proto_counts);
	case MSG_CASE_BEGIN:
	case MSG_DONE:
		return 0;
	default:
		return 0;
	}
}

static void
read_messages(struct session *s, struct reader *in, const char *data, size_t n, bool from_judge,
	      message_fn *handle, struct child *c)
{
	if (in->broken)
		return;
	buf_add(&in->pending, data, n);
	while (in->pending.len >= sizeof(struct proto_header)) {
		struct proto_header h;
		memcpy(&h, in->pending.data, sizeof(h));
		if (h.magic != PROTO_MAGIC || h.length > payload_limit(s, &h, from_judge) ||
		    (h.type == MSG_OUTPUT && h.length != payload_limit(s, &h, from_judge))) {
			in->broken = true;
			buf_free(&in->pending);
			if (from_judge) {
				s->r->message = xstrdup("the judge sent a message it should not have: the check is broken");
			} else {
				int index = s->current >= 0 ? s->current : 0;
				fail_case(s, index, xstrdup("the program sent the grader something that is not a "
							    "message of the harness: has it written to a file "
							    "descriptor it does not own?"));
			}
			child_kill(c);
			return;
		}
		if (in->pending.len < sizeof(h) + h.length)
			return;
		handle(s, &h, in->pending.data + sizeof(h));
		buf_consume(&in->pending, sizeof(h) + h.length);
	}
}

/* --------------------------------------------------------------- the judge */

static void
judge_message(struct session *s, const struct proto_header *h, const char *payload)
{
	if (h->case_index >= (uint32_t)s->ncases)
		return;
	struct expected_case *x = &s->expected[h->case_index];
	if (h->type == MSG_CASE_INFO) {
		memcpy(&x->info, payload, sizeof(x->info));
		x->have_info = true;
		for (int k = 0; k < x->info.nbuffers && k < PROTO_MAX_BUFFERS; k++) {
			x->info.buffers[k].name[sizeof(x->info.buffers[k].name) - 1] = 0;
			if (x->info.buffers[k].is_output)
				x->count[k] = x->info.buffers[k].rows * x->info.buffers[k].cols;
		}
	} else if (h->type == MSG_EXPECTED && h->aux < PROTO_MAX_BUFFERS && x->have_info &&
		   h->length == x->count[h->aux] * sizeof(struct proto_expect)) {
		free(x->values[h->aux]);
		x->values[h->aux] = xmalloc(h->length);
		memcpy(x->values[h->aux], payload, h->length);
	}
}

static void
judge_channel(struct child *c, const char *data, size_t n)
{
	struct session *s = c->ctx;
	read_messages(s, &s->judge_in, data, n, true, judge_message, c);
}

/* --------------------------------------------------------------- the runner */

static void
case_finished(struct session *s, int index)
{
	if (index < 0 || index >= s->ncases)
		return;
	struct case_result *c = &s->r->cases[index];
	const struct expected_case *x = &s->expected[index];
	if (c->ran && c->passed)
		for (int k = 0; k < x->info.nbuffers; k++)
			if (x->info.buffers[k].is_output && !s->outputs_seen[index][k]) {
				fail_case(s, index, xasprintf("the program sent no output for '%s'",
							      x->info.buffers[k].name));
				break;
			}
	if (s->have_uninitialized[index] && !(c->ran && c->passed)) {
		/* a read of an unwritten tile element explains a wrong result; alone, it may be harmless */
		struct case_arrays arrays = { &x->info, s->addrs[index] };
		free(diagnose_finding(s->r, &s->uninitialized[index], &arrays, 1));
	}
	s->have_uninitialized[index] = false;
	progress(s, "{\"event\":\"case\",\"index\":%d,\"count\":%d,\"name\":\"%s\",\"passed\":%s}", index + 1,
		 s->ncases, c->name, c->ran && c->passed ? "true" : "false");
}

static bool
any_case_failed(const struct session *s)
{
	for (int i = 0; i < s->ncases; i++)
		if (s->r->cases[i].ran && !s->r->cases[i].passed)
			return true;
	return false;
}

static void
check_output(struct session *s, int index, int k, const float *actual)
{
	const struct expected_case *x = &s->expected[index];
	const struct proto_buffer *spec = &x->info.buffers[k];
	struct comparison cmp;
	s->outputs_seen[index][k] = true;
	compare_output(actual, x->values[k], x->count[k], spec->cols, &cmp);
	s->r->cases[index].mismatches += cmp.wrong;
	if (cmp.wrong && spec->rows > 1 && !diagnose_has(s->r, "untransposed_tile"))
		diagnose_layout(s->r, spec->name, actual, x->values[k], spec->rows, spec->cols);
	if (cmp.wrong)
		fail_case(s, index, compare_describe(&cmp, spec->name, spec->rows, spec->cols));
}

/* What the simulator's checks saw in case `index`: an access out of bounds or a race fails it. */
static void
finding_message(struct session *s, int index, const char *payload)
{
	struct proto_finding f;
	memcpy(&f, payload, sizeof(f));
	f.where[sizeof(f.where) - 1] = f.other_where[sizeof(f.other_where) - 1] = 0;
	if (f.kind == FINDING_UNINITIALIZED) {
		s->uninitialized[index] = f;
		s->have_uninitialized[index] = true;
		return;
	}
	struct case_arrays arrays = { &s->expected[index].info, s->addrs[index] };
	char *message = diagnose_finding(s->r, &f, &arrays, 1);
	fail_case(s, index, message);
	if (f.kind == FINDING_RACE)
		s->r->cases[index].wrong = true;
}

static void
runner_message(struct session *s, const struct proto_header *h, const char *payload)
{
	int index = (int)h->case_index;
	struct child *c = s->runner;
	switch (h->type) {
	case MSG_BUFFERS:
		if (index < s->ncases)
			memcpy(s->addrs[index], payload, sizeof(s->addrs[index]));
		break;
	case MSG_FINDING:
		if (index < s->ncases)
			finding_message(s, index, payload);
		break;
	case MSG_COUNTS: {
		struct proto_counts n;
		memcpy(&n, payload, sizeof(n));
		diagnose_counts_add(&s->counts, &n);
		s->have_counts = true;
		break;
	}
	case MSG_HELLO:
		memcpy(&s->device, payload, sizeof(s->device));
		s->device.name[sizeof(s->device.name) - 1] = 0;
		s->have_device = true;
		break;
	case MSG_CASE_BEGIN:
		if (index >= s->ncases)
			break;
		case_finished(s, s->current);
		if (index == s->timed && any_case_failed(s)) {
			/* timing a kernel that computes the wrong thing tells the student nothing */
			s->stopped_early = true;
			child_kill(c);
			break;
		}
		s->current = index;
		for (int i = index; i < (index == s->timed ? s->ncases : index + 1); i++)
			s->r->cases[i].ran = s->r->cases[i].passed = true;
		c->deadline = now_seconds() + (index == s->timed ? TIMED_LIMIT_S
					       : s->o->backend == BACKEND_SIM ? CASE_LIMIT_SIM_S : CASE_LIMIT_GPU_S);
		break;
	case MSG_OUTPUT:
		if (index == s->current || (s->current == s->timed && s->timed >= 0 && index == s->timed + 1))
			check_output(s, index, (int)h->aux, (const float *)payload);
		break;
	case MSG_INPUT_CHANGED: {
		uint64_t first;
		memcpy(&first, payload, sizeof(first));
		const struct proto_buffer *b = &s->expected[index].info.buffers[h->aux % PROTO_MAX_BUFFERS];
		fail_case(s, index, xasprintf("the kernel changed its input '%s' (first at %s[%llu]): inputs "
					      "are read-only", b->name, b->name, (unsigned long long)first));
		s->r->cases[index].wrong = true;
		break;
	}
	case MSG_ERROR:
		if (h->aux == STAGE_DEVICE && !s->device_error)
			s->device_error = xasprintf("%.*s", (int)h->length, payload);
		else if (index < s->ncases) {
			diagnose_error(s->r, payload, h->length);
			fail_case(s, index, xasprintf("%.*s", (int)h->length, payload));
			if (h->aux == STAGE_RACE && !s->r->cases[index].wrong) {
				s->r->cases[index].wrong = true;
				bool blocks = memmem(payload, h->length, "blocks run", 10) != NULL;
				diagnose_add(s->r, "race",
					       xasprintf("in case %s the result depends on the order in which %s",
							 s->r->cases[index].name,
							 blocks ? "blocks run: blocks cannot wait for each other "
								  "within a launch (an atomic, or a second launch?)"
								: "the threads of a block run: a missing __syncthreads()?"));
			}
		}
		break;
	case MSG_STAGE:
		progress(s, "{\"event\":\"stage\",\"stage\":\"timing\",\"message\":\"%.*s\"}", (int)h->length, payload);
		break;
	case MSG_TIMING:
		if (s->have_timing || index != s->timed || s->current != s->timed) {
			/* the harness sends one, for the timed case, while in it */
			fail_case(s, s->timed >= 0 ? s->timed : 0,
				  xstrdup("the program sent a timing report the harness did not: forged"));
			s->r->cases[s->timed >= 0 ? s->timed : 0].wrong = true;
			break;
		}
		memcpy(&s->timing, payload, sizeof(s->timing));
		s->have_timing = true;
		break;
	case MSG_DONE:
		case_finished(s, s->current);
		if (s->current == s->timed && s->timed >= 0)
			case_finished(s, s->timed + 1);
		s->current = -1;
		s->done = true;
		break;
	}
}

static void
runner_channel(struct child *c, const char *data, size_t n)
{
	struct session *s = c->ctx;
	read_messages(s, &s->runner_in, data, n, false, runner_message, c);
}

/* --------------------------------------------------------------- steps */

static void
push_case_args(struct session *s, char ***argv, int *argc, int *cap)
{
	for (int i = 0; i < s->ncases; i++) {
		if (s->timed >= 0 && i > s->timed)
			break; /* the harness adds the second inputs of the timed case itself */
		const int *dims = i == s->timed ? s->e->timed : s->e->cases[i];
		struct buf b = { 0 };
		for (int d = 0; d < s->e->ndims; d++)
			buf_addf(&b, "%s%d", d ? "," : "", dims[d]);
		if (*argc + 4 > *cap) {
			*cap = *cap * 2 + 8;
			*argv = xrealloc(*argv, sizeof(char *) * (size_t)*cap);
		}
		(*argv)[(*argc)++] = xstrdup(i == s->timed ? "--timed" : "--case");
		(*argv)[(*argc)++] = buf_detach(&b);
		(*argv)[*argc] = NULL;
	}
}

static char **
make_argv(struct session *s, const char *program, const char *first, ...)
{
	int cap = 16, argc = 0;
	char **argv = xmalloc(sizeof(char *) * (size_t)cap);
	argv[argc++] = xstrdup(program);
	va_list ap;
	va_start(ap, first);
	for (const char *a = first; a; a = va_arg(ap, const char *)) {
		if (argc + 2 > cap) {
			cap *= 2;
			argv = xrealloc(argv, sizeof(char *) * (size_t)cap);
		}
		argv[argc++] = xstrdup(a);
	}
	va_end(ap);
	argv[argc] = NULL;
	push_case_args(s, &argv, &argc, &cap);
	return argv;
}

static void
free_argv(char **argv)
{
	for (char **p = argv; p && *p; p++)
		free(*p);
	free(argv);
}

static double
absolute_threshold(const struct exercise *e, const char *device)
{
	for (int i = 0; i < e->nabsolute; i++)
		if (!strcmp(e->absolute[i].device, device))
			return e->absolute[i].us;
	return 0;
}

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

/* A descriptor number for the channel that the student's code cannot count on. */
static int
random_channel_fd(uint64_t seed)
{
	return 100 + (int)(hash_bytes(&seed, sizeof(seed), 7) % 800);
}

static int
environment_error(struct grade_result *r, char *message)
{
	r->pass = false;
	r->stage = NULL;
	free(r->message);
	r->message = message;
	return 3;
}

static void
set_failure(struct grade_result *r, const char *stage, char *message)
{
	r->pass = false;
	r->stage = stage;
	free(r->message);
	r->message = message;
}

static const char *
first_line_with(const char *text, const char *needle, size_t *length)
{
	for (const char *line = text; line && *line;) {
		const char *end = strchrnul(line, '\n');
		if (memmem(line, (size_t)(end - line), needle, strlen(needle))) {
			*length = (size_t)(end - line);
			return line;
		}
		line = *end ? end + 1 : NULL;
	}
	return NULL;
}

static void
compile_failed(struct session *s, struct student_build *b, const char *output)
{
	struct grade_result *r = s->r;
	r->compile_output = build_tidy_messages(b, output);
	size_t n = 0;
	char *undefined = xasprintf("undefined reference to `%s'", s->e->launcher_name);
	bool missing_launcher = strstr(r->compile_output, undefined) != NULL;
	free(undefined);
	const char *line = first_line_with(r->compile_output, ": error", &n);
	if (missing_launcher)
		set_failure(r, "compile", xasprintf("%s does not define %s with the exercise's signature: %s "
						    "(check the name and every parameter type, const included)",
						    s->r->file, s->e->launcher_name, s->e->launcher));
	else if (line)
		set_failure(r, "compile", xasprintf("%s does not compile: %.*s", s->r->file, (int)n, line));
	else
		set_failure(r, "compile", xasprintf("%s does not compile", s->r->file));
}

static void
judge_timing(struct session *s)
{
	struct grade_result *r = s->r;
	struct timing_result *t = &r->timing;
	const struct expected_case *x = &s->expected[s->timed];
	const struct proto_timing *m = &s->timing;
	t->measured = true;
	t->median_us = m->student_us;
	t->reference_us = m->reference_us;
	t->copy_us = m->copy_us;
	t->wall_us = m->wall_us;
	t->ratio = m->ratio;
	t->ratio_lo = m->ratio_lo;
	t->ratio_hi = m->ratio_hi;
	t->rounds = m->rounds;
	t->measurements = m->measurements;
	t->threshold_ratio = s->e->threshold_ratio;
	t->threshold_us = s->e->threshold_ratio * m->reference_us;
	double absolute = absolute_threshold(s->e, s->device.name);
	if (absolute > 0) {
		t->absolute = true;
		t->threshold_us = absolute;
	}
	double bytes = x->info.bytes;
	t->gbps = m->student_us > 0 ? bytes / m->student_us / 1e3 : 0;
	t->copy_gbps = m->copy_us > 0 ? bytes / m->copy_us / 1e3 : 0;
	t->gflops = m->student_us > 0 ? x->info.flops / m->student_us / 1e3 : 0;
	t->peak_gbps = 2.0 * s->device.mem_clock_khz * 1e3 * (s->device.bus_width_bits / 8.0) / 1e9;

	bool fast_enough = t->absolute ? m->student_us <= t->threshold_us : m->ratio <= t->threshold_ratio;
	/* moving the bytes faster than a plain copy means part of the work ran outside the timed region */
	bool impossible = x->info.flops / (bytes > 0 ? bytes : 1) < 4 && m->student_us < 0.8 * m->copy_us;
	/* the GPU's clock and the host's disagree when work runs outside the timed launch */
	bool off_the_clock = m->wall_us > m->student_us + 500;
	if (off_the_clock) {
		r->performance = "fail";
		set_failure(r, "performance",
			    xasprintf("the launch kept the host waiting %.1f µs longer than the GPU's events account "
				      "for (%.1f µs): work ran outside the timed launch", m->wall_us, m->student_us));
		diagnose_add(r, "timing", xstrdup(r->message));
	} else if (impossible) {
		r->performance = "fail";
		set_failure(r, "performance",
			    xasprintf("%.1f µs is faster than copying the same bytes (%.1f µs): the work is not "
				      "all inside the launch that was timed", m->student_us, m->copy_us));
		diagnose_add(r, "timing", xstrdup(r->message));
	} else if (fast_enough) {
		r->performance = "pass";
	} else {
		r->performance = "fail";
		if (t->absolute)
			set_failure(r, "performance",
				    xasprintf("%.1f µs is slower than the %.1f µs this course asks for on %s",
					      m->student_us, t->threshold_us, s->device.name));
		else
			set_failure(r, "performance",
				    xasprintf("%.1f µs is %.2f× the reference solution's %.1f µs; it must be "
					      "within %.2f×", m->student_us, m->ratio, m->reference_us,
					      t->threshold_ratio));
	}
}

static const char *
first_hint(const struct exercise *e, const char *stage)
{
	for (int i = 0; i < e->nhints; i++)
		if (stage && !strcmp(e->hints[i].when, stage))
			return e->hints[i].text;
	return NULL;
}

static void
conclude(struct session *s)
{
	struct grade_result *r = s->r;
	/* the first failure in stage order decides what the student hears */
	for (int pass = 0; pass < 2 && !r->stage; pass++)
		for (int i = 0; i < s->ncases; i++) {
			struct case_result *c = &r->cases[i];
			if (!c->ran || c->passed)
				continue;
			bool is_run = c->mismatches == 0 && !c->wrong;
			if ((pass == 0) != is_run)
				continue;
			set_failure(r, is_run ? "run" : "correctness",
				    xasprintf("case %s: %s", c->name, c->message ? c->message : "failed"));
			break;
		}
	if (!r->stage && s->tool_stage) {
		set_failure(r, s->tool_stage, s->tool_message);
		s->tool_message = NULL;
	}
	if (!r->stage && s->timed >= 0 && !r->performance)
		r->performance = "not_measured";
	if (!r->stage && s->timed >= 0 && s->have_timing)
		judge_timing(s);
	if (s->have_counts)
		diagnose_figures(&s->counts, "simulator", &r->figures);
	/* a correct kernel's figures are said even when the timing has already failed it */
	bool all_correct = !r->stage || !strcmp(r->stage, "performance");
	const char *over = all_correct ? diagnose_budgets(s->e, r) : NULL;
	if (over && !r->stage) {
		/* a correct kernel that uses memory the way the lesson warns against */
		r->performance = "fail";
		set_failure(r, "performance", xstrdup(over));
	}
	if (!r->performance)
		r->performance = "not_measured";
	diagnose_order(r);
	if (r->stage) {
		r->pass = false;
		/* the most specific hint there is: for the diagnosis, the stage, then any failure */
		r->hint = r->ndiagnostics ? first_hint(s->e, r->diagnostics[0].kind) : NULL;
		/* a refused call is no compiler error: the compile hints would mislead */
		bool refused = r->ndiagnostics && !strcmp(r->diagnostics[0].kind, "refused");
		if (!r->hint && !refused)
			r->hint = first_hint(s->e, r->stage);
		if (!r->hint)
			r->hint = first_hint(s->e, "fail");
		return;
	}
	r->pass = true;
	int correct = 0;
	for (int i = 0; i < s->ncases; i++)
		correct += r->cases[i].passed;
	if (r->timing.measured)
		r->message = xasprintf("all %d cases correct; %.1f µs, %.2f× the reference (within %.2f×)", correct,
				       r->timing.median_us, r->timing.ratio, r->timing.threshold_ratio);
	else
		r->message = xasprintf("all %d cases correct%s", correct,
				       r->backend == BACKEND_SIM ? " on the simulator; timing needs a GPU" : "");
}

/* --------------------------------------------------------------- the GPU's tools */

/* Under compute-sanitizer the arrays lie elsewhere than in the graded run: keep where. */
static void
tool_message(struct session *s, const struct proto_header *h, const char *payload)
{
	if (h->type == MSG_BUFFERS && h->case_index < (uint32_t)s->ncases)
		memcpy(s->addrs[h->case_index], payload, sizeof(s->addrs[0]));
}

static void
tool_channel(struct child *c, const char *data, size_t n)
{
	struct session *s = c->ctx;
	read_messages(s, &s->tool_in, data, n, false, tool_message, c);
}

/* The profiled run's outputs are not judged: its one case is the timed size. */
static void
discard_channel(struct child *c, const char *data, size_t n)
{
	(void)c, (void)data, (void)n;
}

/* Run `tool` (argv, NULL-terminated) on the runner with runner_args; you own its output. */
static char *
run_tool(struct session *s, char **tool, char **runner_args, int channel_fd, channel_fn *on_channel)
{
	int n = 0, m = 0;
	while (tool[n])
		n++;
	while (runner_args[m])
		m++;
	char **argv = xcalloc((size_t)(n + m + 1), sizeof(char *));
	memcpy(argv, tool, sizeof(char *) * (size_t)n);
	memcpy(argv + n, runner_args, sizeof(char *) * (size_t)m);
	struct child c = { .label = tool[0], .on_channel = on_channel, .ctx = s };
	/* the tools start the runner as their child: no seccomp filter against new processes here */
	struct spawn_options options = { .cwd = workbook_root(), .channel = true, .channel_child_fd = channel_fd,
					 .timeout_s = 600, .output_cap = 4 << 20 };
	char *output = NULL;
	memset(&s->tool_in, 0, sizeof(s->tool_in));
	if (child_spawn(&c, argv, &options) == 0) {
		struct child *one = &c;
		child_pump(&one, 1);
		output = xstrdup(c.output.data ? c.output.data : "");
		child_release(&c);
	}
	buf_free(&s->tool_in.pending);
	free(argv);
	return output;
}

/* compute-sanitizer's memcheck, racecheck and synccheck over the correctness cases, in the lessons' terms. */
static void
sanitize(struct session *s, const char *runner, const char *seed, const char *channel, int channel_fd)
{
	char *program = build_cuda_tool("compute-sanitizer");
	if (!program) {
		diagnose_add(s->r, "tools", xstrdup("--sanitize: compute-sanitizer is not beside nvcc"));
		return;
	}
	/* the cases only: the sanitizer slows kernels down far too much to time them */
	int timed = s->timed, ncases = s->ncases;
	s->timed = -1;
	s->ncases = s->e->ncases;
	char **args = make_argv(s, runner, "--channel", channel, "--seed", seed, NULL);
	static const char *const tools[] = { "memcheck", "racecheck", "synccheck" };
	for (size_t t = 0; t < sizeof(tools) / sizeof(*tools); t++) {
		char *log = xasprintf("%s.sanitizer.log", runner);
		char *tool[] = { program, "--tool", (char *)tools[t], "--log-file", log, "--print-limit", "100", NULL };
		free(run_tool(s, tool, args, channel_fd, tool_channel));
		char *text = read_file(log, NULL);
		struct proto_finding found[4];
		int n = text ? diagnose_parse_sanitizer(text, found, 4) : 0;
		struct case_arrays arrays[MANIFEST_MAX_CASES + 1];
		for (int i = 0; i < s->ncases; i++)
			arrays[i] = (struct case_arrays){ &s->expected[i].info, s->addrs[i] };
		for (int i = 0; i < n; i++) {
			char *message = diagnose_finding(s->r, &found[i], arrays, s->ncases);
			if (s->tool_message) {
				free(message);
				continue;
			}
			s->tool_stage = found[i].kind == FINDING_RACE ? "correctness" : "run";
			s->tool_message = xasprintf("compute-sanitizer --tool %s: %s", tools[t], message);
			free(message);
		}
		free(text);
		unlink(log);
		free(log);
	}
	free_argv(args);
	s->timed = timed;
	s->ncases = ncases;
	free(program);
}

/* Nsight Compute's figures for the student's kernels at the timed size. */
static void
profile(struct session *s, const char *runner, const char *seed, const char *channel, int channel_fd)
{
	char *program = build_cuda_tool("ncu");
	if (!program) {
		diagnose_add(s->r, "tools", xstrdup("--profile: Nsight Compute (ncu) is not beside nvcc"));
		return;
	}
	struct buf dims = { 0 };
	for (int d = 0; d < s->e->ndims; d++)
		buf_addf(&dims, "%s%d", d ? "," : "", s->e->timed[d]);
	char *args[] = { (char *)runner, "--channel", (char *)channel, "--seed", (char *)seed, "--case", dims.data, NULL };
	/* clocks as they are: METHOD.md, and the timing, leave them alone */
	enum { METRICS = 7 };
	char *tool[] = { program, "--csv", "--print-units", "base", "--clock-control", "none", "--metrics",
			 [METRICS] = (char *)diagnose_ncu_metrics, NULL };
	char *output = run_tool(s, tool, args, channel_fd, discard_channel);
	struct proto_counts counts;
	double gbps;
	if (output && diagnose_parse_ncu(output, &counts, &gbps) && strstr(output, "metric")) {
		free(output);
		tool[METRICS] = (char *)diagnose_ncu_core_metrics;
		output = run_tool(s, tool, args, channel_fd, discard_channel);
	}
	if (output && diagnose_parse_ncu(output, &counts, &gbps) == 0) {
		diagnose_figures(&counts, "nsight compute", &s->r->figures);
		s->r->figures.dram_gbps = gbps;
	} else {
		diagnose_add(s->r, "tools", xasprintf("--profile: Nsight Compute measured no kernel: %.300s",
						      output ? output : "it did not start"));
	}
	free(output);
	buf_free(&dims);
	free(program);
}

static void
runner_ended(struct session *s, struct child *c)
{
	if (s->done || s->stopped_early)
		return;
	int index = s->current >= 0 ? s->current : 0;
	char *why;
	if (c->timed_out) {
		double limit = index == s->timed ? TIMED_LIMIT_S
			: s->o->backend == BACKEND_SIM ? CASE_LIMIT_SIM_S : CASE_LIMIT_GPU_S;
		why = xasprintf("timed out after %.0f s in case %s: a kernel or a loop that never ends?", limit,
				s->r->cases[index].name);
	} else {
		char *status = child_describe_status(c);
		why = xasprintf("the program %s in case %s before it finished", status, s->r->cases[index].name);
		free(status);
	}
	s->r->cases[index].ran = true;
	fail_case(s, index, why);
	/* a crash or a hang is a run failure even if some output had been compared */
	s->r->cases[index].mismatches = 0;
	case_finished(s, index);
}

int
grade_run(const struct exercise *e, const struct grade_options *o, struct grade_result *r)
{
	struct session *s = xcalloc(1, sizeof(*s));
	struct student_build b;
	struct buf log = { 0 };
	int status = 1;

	memset(r, 0, sizeof(*r));
	r->e = e;
	r->backend = o->backend;
	r->file = xstrdup(o->display ? o->display : o->file ? o->file : e->file);
	r->device = xstrdup(o->backend == BACKEND_SIM ? "cudalings CPU simulator" : "");
	s->e = e;
	s->o = o;
	s->r = r;
	s->current = -1;
	s->timed = e->has_timed && o->backend == BACKEND_GPU && !o->skip_timing ? e->ncases : -1;
	/* the timed case runs on two sets of inputs, judged as two cases */
	s->ncases = e->ncases + (s->timed >= 0 ? 2 : 0);
	for (int i = 0; i < s->ncases; i++) {
		bool timed = s->timed >= 0 && i >= s->timed;
		case_label(timed ? e->timed : e->cases[i], e->ndims, r->cases[i].name, sizeof(r->cases[i].name));
		if (timed && i > s->timed)
			strncat(r->cases[i].name, ", inputs 2", sizeof(r->cases[i].name) - strlen(r->cases[i].name) - 1);
		r->cases[i].timed = timed;
	}
	r->ncases = s->ncases;
	if (o->backend == BACKEND_SIM && !o->backend_given)
		r->note = xstrdup("no GPU: correctness checked on the CPU simulator; timing needs a GPU");
	uint64_t seed = o->seed ? o->seed : fresh_seed();
	char seed_text[32], threshold_text[32], threshold_us_text[32], rtol[32], atol[32], channel_text[16];
	snprintf(seed_text, sizeof(seed_text), "%llu", (unsigned long long)seed);
	snprintf(rtol, sizeof(rtol), "%.17g", e->rtol);
	snprintf(atol, sizeof(atol), "%.17g", e->atol);

	progress(s, "{\"event\":\"stage\",\"stage\":\"compile\",\"message\":\"compiling %s\"}", r->file);
	int prepared = build_prepare(&b, e, o->backend, o->file ? o->file : e->file, &log);
	if (prepared < 0) {
		status = environment_error(r, xasprintf("cannot build the grader's side of '%s':\n%s", e->name,
							log.data ? log.data : ""));
		goto out;
	}
	if (prepared > 0) {
		compile_failed(s, &b, log.data ? log.data : "");
		goto verdict;
	}

	/* the judge computes the reference while the student's file compiles */
	struct child judge = { .label = "judge", .on_channel = judge_channel, .ctx = s };
	struct child compile = { .label = "compiler" };
	char **judge_argv = make_argv(s, b.judge, "--seed", seed_text, "--rtol", rtol, "--atol", atol, NULL);
	struct spawn_options judge_options = { .cwd = workbook_root(), .channel = true, .channel_child_fd = 1,
					       .timeout_s = JUDGE_LIMIT_S };
	struct child *kids[2];
	int nkids = 0;
	if (child_spawn(&judge, judge_argv, &judge_options) == 0)
		kids[nkids++] = &judge;
	free_argv(judge_argv);
	if (!nkids) {
		status = environment_error(r, xasprintf("cannot start the judge of '%s'", e->name));
		goto out;
	}
	if (b.compile_argv) {
		struct spawn_options compile_options = { .cwd = workbook_root(), .timeout_s = COMPILE_LIMIT_S,
							  .memory_limit = COMPILE_MEMORY_LIMIT };
		if (child_spawn(&compile, b.compile_argv, &compile_options)) {
			child_release(&judge);
			status = environment_error(r, xasprintf("cannot start the compiler '%s'", b.compile_argv[0]));
			goto out;
		}
		kids[nkids++] = &compile;
	}
	child_pump(kids, nkids);
	bool judge_ok = child_succeeded(&judge) && !s->judge_in.broken;
	char *judge_status = child_describe_status(&judge);
	char *judge_output = xstrdup(judge.output.data ? judge.output.data : "");
	child_release(&judge);
	if (b.compile_argv) {
		bool compiled = child_succeeded(&compile);
		if (compile.timed_out)
			buf_addf(&compile.output, "the compiler ran past %d s and was stopped\n", COMPILE_LIMIT_S);
		if (!compiled) {
			compile_failed(s, &b, compile.output.data ? compile.output.data : "");
			child_release(&compile);
			free(judge_status);
			free(judge_output);
			goto verdict;
		}
		child_release(&compile);
		build_compiled(&b);
	}
	if (!judge_ok) {
		status = environment_error(r, xasprintf("the judge of '%s' %s; this is a fault in the exercise's "
							"check, not in your code:\n%s", e->name, judge_status,
							judge_output));
		free(judge_status);
		free(judge_output);
		goto out;
	}
	free(judge_status);
	free(judge_output);

	buf_reset(&log);
	if (inspect_object(e, b.object, &log)) {
		set_failure(r, "compile", xasprintf("%s was refused before linking: %s", r->file, log.data));
		diagnose_add(r, "refused", xstrdup(log.data));
		goto verdict;
	}
	buf_reset(&log);
	if (build_link(&b, &log)) {
		/* a link error names the student's symbols: treat it as theirs */
		compile_failed(s, &b, log.data ? log.data : "");
		goto verdict;
	}

	/* the run */
	progress(s, "{\"event\":\"stage\",\"stage\":\"run\",\"message\":\"running %d cases\"}", s->ncases);
	int channel_fd = random_channel_fd(seed);
	snprintf(channel_text, sizeof(channel_text), "%d", channel_fd);
	snprintf(threshold_text, sizeof(threshold_text), "%.17g", e->threshold_ratio);
	snprintf(threshold_us_text, sizeof(threshold_us_text), "%.17g", 0.0);
	char *runner_path = root_path(b.runner);
	char **runner_argv = make_argv(s, runner_path, "--channel", channel_text, "--seed", seed_text,
				       "--threshold", threshold_text, NULL);
	free(runner_path);
	struct child runner = { .label = "runner", .on_channel = runner_channel, .ctx = s };
	s->runner = &runner;
	struct spawn_options runner_options = { .cwd = workbook_root(), .channel = true,
						.channel_child_fd = channel_fd, .timeout_s = START_LIMIT_S,
						.output_cap = 64 * 1024, .no_fork = true,
						/* the CUDA runtime reserves vast address space; the simulator does not */
						.memory_limit = o->backend == BACKEND_SIM ? SIM_MEMORY_LIMIT : 0 };
	if (child_spawn(&runner, runner_argv, &runner_options)) {
		free_argv(runner_argv);
		status = environment_error(r, xasprintf("cannot start the runner of '%s'", e->name));
		goto out;
	}
	free_argv(runner_argv);
	struct child *one = &runner;
	child_pump(&one, 1);
	if (s->device_error) {
		child_release(&runner);
		status = environment_error(r, s->device_error);
		s->device_error = NULL;
		goto out;
	}
	runner_ended(s, &runner);
	if (runner.output.len)
		r->program_output = xasprintf("%s%s", runner.output.data,
					      runner.output_truncated ? "\n[output cut: more than 64 KiB]\n" : "");
	child_release(&runner);
	if (s->have_device) {
		free(r->device);
		r->device = xstrdup(s->device.name);
		if (!s->device.is_simulator)
			snprintf(r->arch, sizeof(r->arch), "sm_%d%d", s->device.cc_major, s->device.cc_minor);
	}
	if (s->stopped_early)
		r->performance = "not_measured";
	if (o->backend == BACKEND_GPU && (o->sanitize || o->profile)) {
		char *path = root_path(b.runner);
		if (o->sanitize)
			sanitize(s, path, seed_text, channel_text, channel_fd);
		if (o->profile && e->has_timed)
			profile(s, path, seed_text, channel_text, channel_fd);
		free(path);
	}

verdict:
	conclude(s);
	status = r->pass ? 0 : 1;
out:
	for (int i = 0; i < s->ncases; i++)
		for (int k = 0; k < PROTO_MAX_BUFFERS; k++)
			free(s->expected[i].values[k]);
	buf_free(&s->judge_in.pending);
	buf_free(&s->runner_in.pending);
	free(s->tool_message);
	free(s);
	build_release(&b);
	buf_free(&log);
	if (!r->performance)
		r->performance = "not_measured";
	return status;
}

void
grade_release(struct grade_result *r)
{
	free(r->file);
	free(r->device);
	free(r->message);
	free(r->note);
	free(r->compile_output);
	free(r->program_output);
	for (int i = 0; i < r->ncases; i++)
		free(r->cases[i].message);
	for (int i = 0; i < r->ndiagnostics; i++) {
		free(r->diagnostics[i].kind);
		free(r->diagnostics[i].message);
		free(r->diagnostics[i].file);
		free(r->diagnostics[i].other_file);
	}
	memset(r, 0, sizeof(*r));
}
