/*
 * The grading session's protocol: framing (a fixed header, a payload whose
 * size the header may not lie about) and the state machine over the cases.
 * Messages from the judge set what each case expects; messages from the
 * runner show what the submission did. The verdict is not made here
 * (grader/engine/verdict.c): this only fails cases, with the first reason.
 */
#include "grader/engine/session.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>

#include "grader/engine/compare.h"
#include "grader/engine/diagnose.h"
#include "harness/sandbox.h"
#include "grader/exercise/manifest.h"
#include "grader/sass/lines.h"

void
session_init(struct session *s, const struct exercise *e, enum backend backend, struct grade_result *r, int timed)
{
	memset(s, 0, sizeof(*s));
	s->e = e;
	s->r = r;
	s->backend = backend;
	s->ncases = r->ncases;
	s->timed = timed;
	s->measured = -1;
	s->current = s->capture_current = -1;
	s->cases = xcalloc((size_t)(s->ncases ? s->ncases : 1), sizeof(*s->cases));
	for (int i = 0; i < s->ncases; i++)
		buf_init(&s->cases[i].plan);
	for (int i = 0; i < SESSION_SOURCES; i++)
		buf_init(&s->in[i].pending);
}

void
session_release(struct session *s)
{
	for (int i = 0; i < s->ncases; i++) {
		for (int k = 0; k < PROTO_MAX_BUFFERS; k++) {
			free(s->cases[i].values[k]);
			free(s->cases[i].second[k]);
			free(s->cases[i].sample[k]);
		}
		buf_free(&s->cases[i].plan);
	}
	free(s->cases);
	for (int i = 0; i < SESSION_SOURCES; i++)
		buf_free(&s->in[i].pending);
	free(s->device_error);
	free(s->refused);
	free(s->tool_message);
	free(s->rounds_differ);
	free(s->check_error);
	memset(s, 0, sizeof(*s));
}

void
session_fail_case(struct session *s, int index, char *message)
{
	if (index < 0 || index >= s->ncases) {
		free(message);
		return;
	}
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

struct case_arrays *
session_arrays(const struct session *s)
{
	struct case_arrays *a = xcalloc((size_t)(s->ncases ? s->ncases : 1), sizeof(*a));
	for (int i = 0; i < s->ncases; i++)
		a[i] = (struct case_arrays){ &s->cases[i].info, s->cases[i].addrs };
	return a;
}

/* --------------------------------------------------------------- framing */

static void judge_message(struct session *s, const struct proto_header *h, const char *payload);
static void runner_message(struct session *s, const struct proto_header *h, const char *payload);
static void tool_message(struct session *s, const struct proto_header *h, const char *payload);
static void capture_message(struct session *s, const struct proto_header *h, const char *payload);

/* The capture process runs the submission's host code: what it sends beyond plans is forged. */
static void
capture_forged(struct session *s, const char *what, bool wrong)
{
	int index = s->capture_current >= 0 ? s->capture_current : 0;
	s->in[FROM_CAPTURE].broken = true;
	buf_free(&s->in[FROM_CAPTURE].pending);
	s->r->cases[index].wrong |= wrong;
	session_fail_case(s, index, xasprintf("the process that runs your host code sent the grader %s: only the "
					      "grader's measuring process reports outputs and times, and your code "
					      "never runs there", what));
}

void
session_feed(struct session *s, enum session_source from, const char *data, size_t n)
{
	struct reader *in = &s->in[from];
	if (in->broken)
		return;
	buf_add(&in->pending, data, n);
	while (in->pending.len >= sizeof(struct proto_header)) {
		struct proto_header h;
		memcpy(&h, in->pending.data, sizeof(h));
		uint64_t limit = session_payload_limit(s, &h, from);
		bool output = h.type == MSG_OUTPUT || h.type == MSG_REPOISONED;
		if (h.magic != PROTO_MAGIC || h.length > limit || (output && h.length != limit)) {
			in->broken = true;
			buf_free(&in->pending);
			if (from == FROM_JUDGE) {
				free(s->r->message);
				s->r->message = xstrdup("the judge sent a message it should not have: the check is broken");
			} else if (from == FROM_CAPTURE) {
				capture_forged(s, "something that is not a message of the harness", false);
			} else if (from == FROM_RUNNER) {
				int index = s->current >= 0 ? s->current : 0;
				session_fail_case(s, index, xstrdup("the program sent the grader something that is not a "
								    "message of the harness: has it written to a file "
								    "descriptor it does not own?"));
			}
			s->stop_runner = from != FROM_JUDGE;
			return;
		}
		if (in->pending.len < sizeof(h) + h.length)
			return;
		const char *payload = in->pending.data + sizeof(h);
		if (from == FROM_JUDGE)
			judge_message(s, &h, payload);
		else if (from == FROM_RUNNER)
			runner_message(s, &h, payload);
		else if (from == FROM_CAPTURE)
			capture_message(s, &h, payload);
		else
			tool_message(s, &h, payload);
		if (in->broken)
			return;
		buf_consume(&in->pending, sizeof(h) + h.length);
	}
}

/* --------------------------------------------------------------- the judge */

static void
judge_message(struct session *s, const struct proto_header *h, const char *payload)
{
	if (h->case_index >= (uint32_t)s->ncases)
		return;
	struct case_state *x = &s->cases[h->case_index];
	if (h->type == MSG_CASE_INFO) {
		memcpy(&x->info, payload, sizeof(x->info));
		x->have_info = true;
		if (x->info.nbuffers < 0 || x->info.nbuffers > PROTO_MAX_BUFFERS)
			x->info.nbuffers = 0;
		for (int k = 0; k < x->info.nbuffers; k++) {
			x->info.buffers[k].name[sizeof(x->info.buffers[k].name) - 1] = 0;
			if (x->info.buffers[k].dtype >= DTYPE_COUNT) {
				/* no size to read its elements by: nothing of it is compared */
				x->info.buffers[k].dtype = DTYPE_FLOAT32;
				x->info.buffers[k].is_output = 0;
				s->in[FROM_JUDGE].broken = true;
			}
			if (x->info.buffers[k].is_output)
				x->count[k] = x->info.buffers[k].rows * x->info.buffers[k].cols;
		}
		char *disagree = s->check_error ? NULL : manifest_buffers_disagree(s->e, &x->info);
		if (disagree) {
			s->check_error = disagree;
			s->in[FROM_JUDGE].broken = true;
		}
	} else if (h->type == MSG_SAMPLE && h->aux < PROTO_MAX_BUFFERS && x->have_info &&
		   x->info.buffers[h->aux].is_output && h->length % sizeof(struct proto_chunk) == 0) {
		/* a large timed output: the judge, the runner and the comparison all take these elements alone */
		size_t n = h->length / sizeof(struct proto_chunk), total = 0, whole = x->count[h->aux];
		struct proto_chunk *chunks = xmalloc(h->length ? h->length : 1);
		memcpy(chunks, payload, h->length);
		for (size_t j = 0; j < n; j++) {
			bool inside = chunks[j].start <= whole && chunks[j].count <= whole - chunks[j].start &&
				      (j == 0 || chunks[j].start >= chunks[j - 1].start + chunks[j - 1].count);
			total = inside ? total + chunks[j].count : SIZE_MAX;
			if (!inside)
				break;
		}
		if (total == SIZE_MAX) {
			free(chunks);
			return;
		}
		free(x->sample[h->aux]);
		x->sample[h->aux] = chunks;
		x->nsample[h->aux] = n;
		x->count[h->aux] = total;
	} else if (h->type == MSG_EXPECTED && h->aux < PROTO_MAX_BUFFERS && x->have_info &&
		   h->length == x->count[h->aux] * sizeof(struct proto_expect)) {
		free(x->values[h->aux]);
		x->values[h->aux] = xmalloc(h->length ? h->length : 1);
		memcpy(x->values[h->aux], payload, h->length);
	}
}

/* --------------------------------------------------------------- the runner */

static void
case_finished(struct session *s, int index)
{
	if (index < 0 || index >= s->ncases)
		return;
	struct case_result *c = &s->r->cases[index];
	struct case_state *x = &s->cases[index];
	if (c->ran && c->passed)
		for (int k = 0; k < x->info.nbuffers; k++)
			if (x->info.buffers[k].is_output && !x->outputs_seen[k]) {
				session_fail_case(s, index, xasprintf("the program sent no output for '%s'",
								      x->info.buffers[k].name));
				break;
			}
	if (x->have_uninitialized && !(c->ran && c->passed)) {
		/* a read of an unwritten tile element explains a wrong result; alone, it may be harmless */
		struct case_arrays arrays = { &x->info, x->addrs };
		free(diagnose_finding(s->r, &x->uninitialized, &arrays, 1));
	}
	x->have_uninitialized = false;
	progress_case(s->progress, index + 1, s->ncases, c->name, c->ran && c->passed);
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
check_output(struct session *s, int index, int k, const void *actual)
{
	struct case_state *x = &s->cases[index];
	const struct proto_buffer *spec = &x->info.buffers[k];
	struct comparison cmp;
	x->outputs_seen[k] = true;
	compare_output(actual, x->second[k], spec->dtype, x->values[k], x->count[k], spec->cols, x->sample[k],
		       x->nsample[k], &cmp);
	s->r->cases[index].mismatches += cmp.wrong;
	/* the layout of the whole output tells a transposed tile; a sample cannot */
	if (cmp.wrong && spec->rows > 1 && !x->sample[k] && !diagnose_has(s->r, "untransposed_tile"))
		diagnose_layout(s->r, spec->name, actual, spec->dtype, x->values[k], spec->rows, spec->cols);
	if (cmp.wrong)
		session_fail_case(s, index, compare_describe(&cmp, spec->name, spec->rows, spec->cols));
}

/* What the simulator's checks saw in case `index`: an access out of bounds or a race fails it. */
static void
finding_message(struct session *s, int index, const char *payload)
{
	struct proto_finding f;
	memcpy(&f, payload, sizeof(f));
	f.where[sizeof(f.where) - 1] = f.other_where[sizeof(f.other_where) - 1] = 0;
	if (f.kind == FINDING_UNINITIALIZED) {
		s->cases[index].uninitialized = f;
		s->cases[index].have_uninitialized = true;
		return;
	}
	struct case_arrays arrays = { &s->cases[index].info, s->cases[index].addrs };
	char *message = diagnose_finding(s->r, &f, &arrays, 1);
	session_fail_case(s, index, message);
	if (f.kind == FINDING_RACE)
		s->r->cases[index].wrong = true;
}

static void
error_message(struct session *s, const struct proto_header *h, int index, const char *payload)
{
	/* said before the submission's code is loaded (on the simulator, before HELLO), never once a case began:
	   its launcher and constructors run in the simulator's runner, and would turn a fail into an error */
	if (h->aux == PROTO_STAGE_DEVICE && (s->current >= 0 || (s->hello && s->device.is_simulator))) {
		session_fail_case(s, s->current >= 0 ? s->current : 0, xstrdup("the program sent the grader a report that the GPU could not "
							 "be opened, after the runner had said it was open: forged; has "
							 "it written to a file descriptor it does not own?"));
		s->r->cases[s->current >= 0 ? s->current : 0].wrong = true;
		return;
	}
	if (h->aux == PROTO_STAGE_DEVICE && !s->device_error) {
		s->device_error = xasprintf("%.*s", (int)h->length, payload);
		return;
	}
	if (index >= s->ncases)
		return;
	diagnose_error(s->r, payload, h->length);
	struct case_arrays arrays = { &s->cases[index].info, s->cases[index].addrs };
	session_fail_case(s, index, diagnose_name_words(payload, h->length, &arrays, 1));
	if (h->aux == PROTO_STAGE_RACE && !s->r->cases[index].wrong) {
		s->r->cases[index].wrong = true;
		diagnose_race(s->r, s->r->cases[index].name, payload, h->length);
	}
}

/* A timed round's outputs were not the reference's for the same inputs: a remembered or partial result. */
static void
round_differs(struct session *s, const char *payload)
{
	struct proto_round_differs d;
	memcpy(&d, payload, sizeof(d));
	/* a GPU's timed rounds, or the simulator's runs of the last case again */
	bool timed = s->timed >= 0;
	int index = timed ? s->timed + 1 : s->current;
	const struct case_state *x = &s->cases[timed ? s->timed : s->current];
	bool known = d.buffer < (uint32_t)x->info.nbuffers;
	const char *name = known ? x->info.buffers[d.buffer].name : "the output";
	char round[64];
	if (timed)
		snprintf(round, sizeof(round), "in timed round %u", d.round + 1);
	else
		snprintf(round, sizeof(round), "when the case ran again");
	/* a float32 to 9 digits; a float64 or an integer (exact in a double) to 17 */
	const char *format = !known || x->info.buffers[d.buffer].dtype == DTYPE_FLOAT32 ? "%.9g" : "%.17g";
	char student[40], reference[40];
	snprintf(student, sizeof(student), format, d.student);
	snprintf(reference, sizeof(reference), format, d.reference);
	char *message = xasprintf("%s, on inputs it had not seen before, %s[%llu] was %s where the "
				  "reference solution computed %s (%llu elements differ): the kernel must compute "
				  "every launch's output from that launch's inputs",
				  round, name, (unsigned long long)d.first, student, reference,
				  (unsigned long long)d.count);
	if (!timed) {
		/* a kernel wrong from the start is wrong here too: said only of one that passed every case */
		free(s->rounds_differ);
		s->rounds_differ = message;
		s->rounds_case = index;
		return;
	}
	diagnose_add(s->r, "timing", xstrdup(message));
	session_fail_case(s, index, message);
	s->r->cases[index].wrong = true;
}

void
session_rounds_verdict(struct session *s)
{
	if (!s->rounds_differ)
		return;
	for (int i = 0; i < s->ncases; i++)
		if (s->r->cases[i].ran && !s->r->cases[i].passed)
			return;
	diagnose_add(s->r, "timing", xstrdup(s->rounds_differ));
	session_fail_case(s, s->rounds_case, s->rounds_differ);
	s->r->cases[s->rounds_case].wrong = true;
	s->rounds_differ = NULL;
}

/* The sandbox stopped the submission (the runner's, or on a GPU the capture process's): the first reason stays. */
static void
refused_message(struct session *s, const struct proto_header *h, const char *payload)
{
	if (!s->refused) {
		s->refused = xasprintf("%.*s", (int)h->length, payload);
		s->refused_when = (int)h->aux;
	}
}

static void
runner_message(struct session *s, const struct proto_header *h, const char *payload)
{
	int index = (int)h->case_index;
	switch (h->type) {
	case MSG_BUFFERS:
		if (index < s->ncases)
			memcpy(s->cases[index].addrs, payload, sizeof(s->cases[index].addrs));
		break;
	case MSG_FINDING:
		if (index < s->ncases)
			finding_message(s, index, payload);
		break;
	case MSG_COUNTS: {
		/* the simulator's runner reports a case's figures once, after its launch, while in it; the
		   launcher, run in that process, could write another report that dilutes the budgets' figures */
		if (index >= s->ncases || index != s->current || s->cases[index].have_counts) {
			int failed = index < s->ncases ? index : s->current >= 0 ? s->current : 0;
			session_fail_case(s, failed, xstrdup("the program sent the simulator's figures of a case that "
							     "the harness did not (a second report, or one for a case not "
							     "running): forged; has it written to a file descriptor it "
							     "does not own?"));
			s->r->cases[failed].wrong = true;
			break;
		}
		s->cases[index].have_counts = true;
		struct proto_counts n;
		memcpy(&n, payload, sizeof(n));
		/* reads are judged per output element: a thread that computes four reads four times as much */
		n.outputs = 0;
		for (int k = 0; index < s->ncases && k < s->cases[index].info.nbuffers; k++)
			n.outputs += s->cases[index].count[k];
		diagnose_counts_add(&s->counts, &n);
		s->have_counts = true;
		if (index == s->measured) {
			diagnose_counts_add(&s->measured_counts, &n);
			s->have_measured_counts = true;
		}
		break;
	}
	case MSG_LAUNCH:
		/* the measured case's launches, the student's and the reference's: the estimate's figures */
		if (index == s->measured && h->aux < 4 && h->length == sizeof(struct proto_launch) &&
		    s->nlaunches[h->aux] < PROTO_MAX_LAUNCHES)
			memcpy(&s->launches[h->aux][s->nlaunches[h->aux]++], payload, sizeof(struct proto_launch));
		break;
	case MSG_LINES:
		/* the heat map of the case whose figures the budgets judge (of every case when there is none) */
		if (s->measured < 0 || index == s->measured)
			lines_add_proto(&s->r->lines, payload, h->length);
		break;
	case MSG_HELLO:
		memcpy(&s->device, payload, sizeof(s->device));
		s->device.name[sizeof(s->device.name) - 1] = 0;
		s->have_device = s->hello = true;
		break;
	case MSG_REFUSED:
		refused_message(s, h, payload);
		break;
	case MSG_CASE_BEGIN:
		if (index >= s->ncases)
			break;
		case_finished(s, s->current);
		if (index == s->timed && any_case_failed(s)) {
			/* timing a kernel that computes the wrong thing tells the student nothing */
			s->stopped_early = s->stop_runner = true;
			break;
		}
		s->current = index;
		progress_case_begin(s->progress, index + 1, s->ncases, s->r->cases[index].name);
		for (int i = index; i < (index == s->timed ? s->ncases : index + 1); i++)
			s->r->cases[i].ran = s->r->cases[i].passed = true;
		break;
	case MSG_OUTPUT:
		/* the timed case's judged round arrives while the runner is in the timed case */
		if (index == s->current || (s->current == s->timed && s->timed >= 0 && index == s->timed + 1))
			check_output(s, index, (int)h->aux, payload);
		break;
	case MSG_REPOISONED:
		if (index == s->current && h->aux < PROTO_MAX_BUFFERS) {
			free(s->cases[index].second[h->aux]);
			s->cases[index].second[h->aux] = xmalloc(h->length ? h->length : 1);
			memcpy(s->cases[index].second[h->aux], payload, h->length);
		}
		break;
	case MSG_INPUT_CHANGED: {
		uint64_t first;
		memcpy(&first, payload, sizeof(first));
		if (index >= s->ncases)
			break;
		const struct proto_buffer *b = &s->cases[index].info.buffers[h->aux % PROTO_MAX_BUFFERS];
		session_fail_case(s, index, xasprintf("the kernel changed its input '%s' (first at %s[%llu]): inputs "
						      "are read-only", b->name, b->name, (unsigned long long)first));
		s->r->cases[index].wrong = true;
		break;
	}
	case MSG_ROUND_DIFFERS:
		if ((s->timed >= 0 && s->current == s->timed) ||
		    (s->timed < 0 && s->current >= 0 && s->current < s->ncases && index == s->current))
			round_differs(s, payload);
		break;
	case MSG_ERROR:
		error_message(s, h, index, payload);
		break;
	case MSG_STAGE:
		progress_stage_text(s->progress, "timing", payload, h->length);
		break;
	case MSG_WAYS:
		/* the "Measure it" demo's ways of timing: shown, never judged; once, in the timed case */
		if (s->e->timing_ways && s->timed >= 0 && index == s->timed && s->current == s->timed &&
		    !s->r->nways && h->length % sizeof(struct proto_way) == 0) {
			s->r->nways = (int)(h->length / sizeof(struct proto_way));
			memcpy(s->r->ways, payload, h->length);
			for (int i = 0; i < s->r->nways; i++)
				if (s->r->ways[i].kind < WAY_RIGHT || s->r->ways[i].kind >= WAY_KINDS)
					s->r->nways = 0;
		}
		break;
	case MSG_TIMING: {
		int timed = s->timed >= 0 ? s->timed : 0;
		if (s->have_timing || index != s->timed || s->current != s->timed) {
			/* the harness sends one, for the timed case, while in it */
			session_fail_case(s, timed, xstrdup("the program sent a timing report the harness did not: forged"));
			s->r->cases[timed].wrong = true;
			break;
		}
		memcpy(&s->timing, payload, sizeof(s->timing));
		s->have_timing = true;
		break;
	}
	case MSG_DONE:
		case_finished(s, s->current);
		if (s->current == s->timed && s->timed >= 0)
			case_finished(s, s->timed + 1);
		s->current = -1;
		s->done = true;
		break;
	}
}

/*
 * The capture process: a plan per case, in order, then "done". An error or a refusal it reports can
 * only fail the submission, so it counts; anything else it sends is forged (a timing report, an output).
 */
static void
capture_message(struct session *s, const struct proto_header *h, const char *payload)
{
	int index = (int)h->case_index;
	switch (h->type) {
	case MSG_PLAN:
		if (index >= s->ncases || index < s->captured || s->capture_done) {
			capture_forged(s, "a plan out of order", true);
			break;
		}
		buf_add(&s->cases[index].plan, payload, h->length);
		s->cases[index].have_plan = true;
		s->captured = index + 1;
		break;
	case MSG_ERROR:
		if (index < s->ncases)
			session_fail_case(s, index, xasprintf("%.*s", (int)h->length, payload));
		break;
	case MSG_REFUSED:
		refused_message(s, h, payload);
		break;
	case MSG_CASE_BEGIN:
		if (index < s->ncases)
			s->capture_current = index;
		break;
	case MSG_DONE:
		s->capture_done = true;
		break;
	default:
		capture_forged(s, h->type == MSG_TIMING ? "a timing report" : h->type == MSG_OUTPUT ? "an output"
				  : "a message of the measuring process", true);
		break;
	}
}

/* Under compute-sanitizer the arrays lie elsewhere than in the graded run: keep where. */
static void
tool_message(struct session *s, const struct proto_header *h, const char *payload)
{
	if (h->type == MSG_BUFFERS && h->case_index < (uint32_t)s->ncases)
		memcpy(s->cases[h->case_index].addrs, payload, sizeof(s->cases[0].addrs));
}

void
session_runner_ended(struct session *s, bool timed_out, double limit_s, const char *status)
{
	if (s->done || s->stopped_early || s->refused)
		return;
	session_stopped(s, timed_out, s->hello, s->current, limit_s, status);
}

void
session_filtered(struct session *s, bool timed_out, int wait_status)
{
	if (!timed_out && WIFSIGNALED(wait_status) && WTERMSIG(wait_status) == SIGSYS && !s->refused) {
		s->refused = xstrdup("the program made a system call a submission may not make (a new process or "
				     "thread, a file written, the network, …)");
		s->refused_when = SANDBOX_RUN;
	}
}

void
session_stopped(struct session *s, bool timed_out, bool started, int current, double limit_s, const char *status)
{
	int index = current >= 0 ? current : 0;
	char *why;
	if (timed_out && !started)
		why = xasprintf("the program did not start within %.0f s", limit_s);
	else if (timed_out && current < 0)
		why = xasprintf("the program did not reach its first case within %.0f s of loading: does code "
				"outside the kernels (a constructor, a static initialiser) never return?", limit_s);
	else if (timed_out)
		why = xasprintf("timed out after %.0f s in case %s: a kernel or a loop that never ends?", limit_s,
				s->r->cases[index].name);
	else
		why = xasprintf("the program %s in case %s before it finished", status, s->r->cases[index].name);
	s->r->cases[index].ran = true;
	session_fail_case(s, index, why);
	/* a crash or a hang is a run failure even if some output had been compared */
	s->r->cases[index].mismatches = 0;
	case_finished(s, index);
}
