/*
 * The verdict of one grading (see verdict.h): the first failure in stage
 * order decides what the student hears; a pass says how fast, and how far
 * from the reference.
 */
#include "grader/engine/verdict.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grader/engine/diagnose.h"
#include "harness/sandbox.h"
#include "grader/engine/cmdline.h"
#include "lib/util.h"
#include "grader/engine/estimate.h"

void
verdict_fail(struct grade_result *r, enum stage stage, char *message)
{
	r->verdict = VERDICT_FAIL;
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

/* The compile failed: the first error is the message, or the launcher the exercise asks for is missing. */
void
verdict_compile_failed(struct grade_result *r, const struct exercise *e, char *compile_output)
{
	free(r->compile_output);
	r->compile_output = compile_output;
	size_t n = 0;
	char *undefined = xasprintf("undefined reference to `%s'", e->launcher_name);
	bool missing_launcher = strstr(r->compile_output, undefined) != NULL;
	free(undefined);
	const char *line = first_line_with(r->compile_output, ": error", &n);
	if (missing_launcher)
		verdict_fail(r, STAGE_COMPILE, xasprintf("%s does not define %s with the exercise's signature: %s "
						     "(check the name and every parameter type, const included)",
						     r->file, e->launcher_name, e->launcher));
	else if (line)
		verdict_fail(r, STAGE_COMPILE, xasprintf("%s does not compile: %.*s", r->file, (int)n, line));
	else
		verdict_fail(r, STAGE_COMPILE, xasprintf("%s does not compile", r->file));
}

static double
absolute_threshold(const struct exercise *e, const char *device)
{
	for (int i = 0; i < e->nabsolute; i++)
		if (!strcmp(e->absolute[i].device, device))
			return e->absolute[i].us;
	return 0;
}

bool
verdict_too_slow(const struct session *s)
{
	if (!s->have_timing || s->backend != BACKEND_GPU)
		return false;
	double absolute = absolute_threshold(s->e, s->device.name);
	return absolute > 0 ? s->timing.student_us > absolute : s->timing.ratio > s->e->threshold_ratio;
}

bool
verdict_cases_passed(const struct session *s)
{
	if (s->refused || s->tool_stage != STAGE_NONE)
		return false;
	for (int i = 0; i < s->e->ncases; i++)
		if (!s->r->cases[i].ran || !s->r->cases[i].passed)
			return false;
	return true;
}

char *
verdict_noise(const struct proto_timing *m)
{
	if (!m->clocks_known)
		return NULL;
	static const struct { uint64_t bit; const char *name; } reasons[] = {
		{ PROTO_SLOWDOWN_POWER_CAP, "its power cap" }, { PROTO_SLOWDOWN_HW, "a hardware slowdown" },
		{ PROTO_SLOWDOWN_SW_THERMAL, "heat (software)" }, { PROTO_SLOWDOWN_HW_THERMAL, "heat (hardware)" },
		{ PROTO_SLOWDOWN_POWER_BRAKE, "the power brake" },
	};
	struct buf b = BUF_INIT;
	for (size_t i = 0; i < ARRAY_SIZE(reasons); i++)
		if (m->slowdowns & reasons[i].bit)
			buf_addf(&b, "%s%s", b.len ? ", " : "the GPU slowed itself down while timing (", reasons[i].name);
	if (b.len)
		buf_addstr(&b, ")");
	/* the SM clock moving by a tenth between samples: boost going up or down under the measurement */
	if (m->sm_mhz_high > 1.1 * m->sm_mhz_low && m->sm_mhz_low > 0)
		buf_addf(&b, "%sits SM clock moved between %u and %u MHz", b.len ? "; " : "", m->sm_mhz_low,
			 m->sm_mhz_high);
	return b.len ? buf_detach(&b) : NULL;
}

void
verdict_timing(struct grade_result *r, const struct exercise *e, const struct proto_timing *m,
	       const struct proto_case_info *info, const struct proto_device *device)
{
	struct timing_result *t = &r->timing;
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
	t->threshold_ratio = e->threshold_ratio;
	t->threshold_us = e->threshold_ratio * m->reference_us;
	double absolute = absolute_threshold(e, device->name);
	if (absolute > 0) {
		t->absolute = true;
		t->threshold_us = absolute;
	}
	double bytes = info->bytes;
	t->gbps = m->student_us > 0 ? bytes / m->student_us / 1e3 : 0;
	t->copy_gbps = m->copy_us > 0 ? bytes / m->copy_us / 1e3 : 0;
	t->gflops = m->student_us > 0 ? info->flops / m->student_us / 1e3 : 0;
	t->peak_gbps = 2.0 * device->mem_clock_khz * 1e3 * (device->bus_width_bits / 8.0) / 1e9;
	t->gold_us = m->gold_us;
	t->physical_us = m->physical_us > 0 ? m->physical_us : m->copy_us;
	t->physical = m->physical_us > 0 ? "cuBLAS SGEMM" : "device-to-device copy";
	t->limit_pct = m->student_us > 0 ? 100 * t->physical_us / m->student_us : 0;

	t->clocks_known = m->clocks_known != 0;
	t->sm_mhz_first = m->sm_mhz_first;
	t->sm_mhz_last = m->sm_mhz_last;
	t->sm_mhz_low = m->sm_mhz_low;
	t->sm_mhz_high = m->sm_mhz_high;
	t->noise = verdict_noise(m);

	bool fast_enough = t->absolute ? m->student_us <= t->threshold_us : m->ratio <= t->threshold_ratio;
	/* no kernel moves its bytes in half a plain copy's time: part of the work ran outside the timed
	   launch (however many flops it does besides). Half, not nearly all: cudaMemcpy is no speed limit (an
	   H100 copies at 2.3 TB/s of its 3.35; matrix_add's gold took 0.89 of the copy's time, and a kernel at
	   the memory's peak would take 0.70), and good code must never be called impossible */
	bool impossible = m->copy_us > 0 && m->student_us < 0.5 * m->copy_us;
	/* the GPU's clock and the host's disagree when work runs outside the timed launch */
	bool off_the_clock = m->wall_us > m->student_us + 500;
	if (off_the_clock) {
		r->performance = PERFORMANCE_FAIL;
		verdict_fail(r, STAGE_PERFORMANCE,
			    xasprintf("the launch kept the host waiting %.1f µs longer than the GPU's events account "
				      "for (%.1f µs): work ran outside the timed launch", m->wall_us, m->student_us));
		diagnose_add(r, "timing", xstrdup(r->message));
	} else if (impossible) {
		r->performance = PERFORMANCE_FAIL;
		verdict_fail(r, STAGE_PERFORMANCE,
			    xasprintf("%.1f µs is faster than copying the same bytes (%.1f µs): the work is not "
				      "all inside the launch that was timed", m->student_us, m->copy_us));
		diagnose_add(r, "timing", xstrdup(r->message));
	} else if (fast_enough) {
		r->performance = PERFORMANCE_PASS;
	} else {
		r->performance = PERFORMANCE_FAIL;
		if (t->absolute)
			verdict_fail(r, STAGE_PERFORMANCE,
				    xasprintf("%.1f µs is slower than the %.1f µs this course asks for on %s",
					      m->student_us, t->threshold_us, device->name));
		else
			verdict_fail(r, STAGE_PERFORMANCE,
				    xasprintf("%.1f µs is %.2f× the reference solution's %.1f µs; it must be "
					      "within %.2f×", m->student_us, m->ratio, m->reference_us,
					      t->threshold_ratio));
		/* measured again already (the runner does, up to three times): what remains is said */
		if (t->noise) {
			char *longer = xasprintf("%s; %s, measured %d times: grade again on a quieter GPU before "
						 "changing a kernel for this", r->message, t->noise, m->measurements);
			free(r->message);
			r->message = longer;
		}
	}
}

const char *
verdict_hint(const struct exercise *e, const char *stage)
{
	for (int i = 0; i < e->nhints; i++)
		if (stage && !strcmp(e->hints[i].when, stage))
			return e->hints[i].text;
	return NULL;
}

/* The runner stopped the submission: at loading (a symbol it may not reach), or at a system call. */
static void
refused(struct session *s)
{
	struct grade_result *r = s->r;
	const char *symbol = strstr(s->refused, "undefined symbol: ");
	char *message;
	if (s->refused_when == SANDBOX_LOAD && symbol)
		message = xasprintf("refers to '%.200s', which a submission cannot reach: it may call only its own "
				    "functions, the C and C++ libraries and the CUDA runtime",
				    symbol + strlen("undefined symbol: "));
	else
		message = xstrdup(s->refused);
	diagnose_add(r, "refused", xstrdup(message));
	if (s->refused_when == SANDBOX_LOAD)
		verdict_fail(r, STAGE_COMPILE, xasprintf("%s was refused before running: %s", r->file, message));
	else
		verdict_fail(r, STAGE_RUN, xasprintf("%s was stopped: %s", r->file, message));
	free(message);
}

/*
 * The timed case counts once, however many input sets it was judged on (the gradebook counts so too):
 * the timed round the grader judged folds into it, its failure the case's. Every count of cases the
 * student reads — the verdict's, the report's lines, the JSON's, the workbook's, the gradebook's — is
 * then r->ncases: the exercise's cases and the timed one (the simulator's measured copy stands for it).
 */
static void
fold_timed_round(struct session *s)
{
	struct grade_result *r = s->r;
	if (s->timed < 0 || s->timed + 1 != r->ncases - 1)
		return;
	struct case_result *c = &r->cases[s->timed], *round = &r->cases[s->timed + 1];
	if (round->ran && !round->passed && (!c->ran || c->passed)) {
		free(c->message);
		c->message = round->message;
		round->message = NULL;
		c->mismatches = round->mismatches;
		c->wrong = round->wrong;
	}
	c->passed = (c->passed || !c->ran) && (round->passed || !round->ran) && (c->ran || round->ran);
	c->ran |= round->ran;
	free(round->message);
	r->ncases--;
}

/*
 * A case with wrong elements: the verdict's line names the first diagnosis, the cause the hint answers,
 * rather than the case's own summary, whose guess from where the wrong values came from (shared memory
 * no thread stored to, say) may point elsewhere: an untransposed tile also reads the unloaded edge of
 * its tile. The case's line above keeps the summary.
 */
static void
name_the_cause(struct session *s)
{
	static const char *const causes[] = {
		"out_of_bounds", "race", "barrier_divergence", "warp_divergence", "cross_block_update", "host_memory",
		"untransposed_tile",
	};
	struct grade_result *r = s->r;
	if (r->stage != STAGE_CORRECTNESS || !r->ndiagnostics)
		return;
	const struct diagnostic *d = &r->diagnostics[0];
	bool cause = false;
	for (size_t i = 0; i < ARRAY_SIZE(causes); i++)
		cause |= !strcmp(d->kind, causes[i]);
	for (int i = 0; cause && i < r->ncases; i++) {
		const struct case_result *c = &r->cases[i];
		if (!c->ran || c->passed || !c->mismatches)
			continue;
		if (!strstr(r->message, d->message))
			verdict_fail(r, STAGE_CORRECTNESS, xasprintf("case %s: %s", c->name, d->message));
		break;
	}
}

double
verdict_tier_noise(const struct timing_result *t)
{
	double noise = TIER_NOISE_MIN;
	if (t->ratio > 0 && t->ratio_lo > 0 && t->ratio_lo < t->ratio)
		noise = fmax(noise, t->ratio / t->ratio_lo - 1);
	if (t->ratio > 0 && t->ratio_hi > t->ratio)
		noise = fmax(noise, t->ratio_hi / t->ratio - 1);
	return noise;
}

enum tier
verdict_tier(const struct timing_result *t)
{
	double gold = t->gold_us, us = t->median_us;
	if (!(gold > 0))
		return TIER_PASS;
	/* within the noise of the gold's time is the gold's time: two medians, the student's and the gold's,
	   each as uncertain as the student's ratio to the reference, so the same code measured twice in the
	   same rounds differs by up to twice that (an H100: the gold transpose 50.0 µs against its own 49.3,
	   1.4% apart, where its ratio was known to 1.3%: near gold 2 times in 10 with the noise counted once) */
	double within = gold * (1 + 2 * verdict_tier_noise(t));
	return us <= within ? TIER_GOLD : us <= NEAR_GOLD_RATIO * within ? TIER_NEAR_GOLD : TIER_PASS;
}

void
verdict_conclude(struct session *s)
{
	struct grade_result *r = s->r;
	if (s->refused)
		refused(s);
	session_rounds_verdict(s);
	fold_timed_round(s);
	/* the first failure in stage order decides what the student hears */
	for (int pass = 0; pass < 2 && r->stage == STAGE_NONE; pass++)
		for (int i = 0; i < r->ncases; i++) {
			struct case_result *c = &r->cases[i];
			if (!c->ran || c->passed)
				continue;
			bool is_run = c->mismatches == 0 && !c->wrong;
			if ((pass == 0) != is_run)
				continue;
			verdict_fail(r, is_run ? STAGE_RUN : STAGE_CORRECTNESS,
				    xasprintf("case %s: %s", c->name, c->message ? c->message : "failed"));
			break;
		}
	if (r->stage == STAGE_NONE && s->tool_stage != STAGE_NONE) {
		verdict_fail(r, s->tool_stage, s->tool_message);
		s->tool_message = NULL;
	}
	if (r->stage == STAGE_NONE && s->timed >= 0 && s->have_timing)
		verdict_timing(r, s->e, &s->timing, &s->cases[s->timed].info, &s->device);
	/* the timed case's shape decides how memory is used: an edge case's fallback does not */
	if (s->have_measured_counts) {
		int measured[PROTO_MAX_DIMS];
		cmdline_measured_dims(s->e, measured);
		estimate_make(s->e, measured, (const struct proto_launch (*)[PROTO_MAX_LAUNCHES])s->launches, s->nlaunches,
			      &r->estimate);
		diagnose_figures(&s->measured_counts, "simulator", &r->figures);
		snprintf(r->figures.over, sizeof(r->figures.over), "the case %s", r->cases[s->measured].name);
	} else if (s->have_counts)
		diagnose_figures(&s->counts, "simulator", &r->figures);
	/* a correct kernel's figures are said even when the timing has already failed it */
	bool all_correct = r->stage == STAGE_NONE || r->stage == STAGE_PERFORMANCE;
	const char *over = all_correct ? diagnose_budgets(s->e, r) : NULL;
	/* the simulator's figures stand in for a time; on a GPU the time decides, and figures explain it,
	   but where the budgets are the exercise's point (budgets_on_gpu): there Nsight Compute's decide too */
	bool by_simulator = r->figures.source && !strcmp(r->figures.source, "simulator");
	if (by_simulator && s->e->nbudgets && all_correct) {
		r->point.state = POINT_CHECKED;
		r->point.by = "simulator";
	}
	bool figures_decide = by_simulator || r->point.state == POINT_CHECKED;
	if (over && r->stage == STAGE_NONE && figures_decide) {
		/* a correct kernel that uses memory the way the lesson warns against */
		r->performance = PERFORMANCE_FAIL;
		verdict_fail(r, STAGE_PERFORMANCE, xstrdup(over));
	}
	/* too slow on a GPU, and the profile shows nothing the lessons warn against: say so, with its figures */
	if (!over && r->stage == STAGE_PERFORMANCE && r->figures.measured &&
	    r->backend == BACKEND_GPU && !diagnose_has(r, "timing"))
		diagnose_slow(r);
	diagnose_order(r);
	name_the_cause(s);
	if (r->stage != STAGE_NONE) {
		r->verdict = VERDICT_FAIL;
		/* the most specific hint there is: for the diagnosis, the stage, then any failure */
		r->hint = r->ndiagnostics ? verdict_hint(s->e, r->diagnostics[0].kind) : NULL;
		/* a refused call or a compile stopped at its limit is no compiler error, a replayed round no wrong
		   index: the stage's hints would mislead */
		bool refused = r->ndiagnostics && (!strcmp(r->diagnostics[0].kind, "refused") ||
						   !strcmp(r->diagnostics[0].kind, "compile_time") ||
						   !strcmp(r->diagnostics[0].kind, "timing") ||
						   !strcmp(r->diagnostics[0].kind, "slow"));
		if (!r->hint && !refused)
			r->hint = verdict_hint(s->e, stage_name(r->stage));
		if (!r->hint)
			r->hint = verdict_hint(s->e, "fail");
		return;
	}
	r->verdict = VERDICT_PASS;
	if (r->timing.measured)
		r->tier = verdict_tier(&r->timing);
	int correct = 0;
	for (int i = 0; i < r->ncases; i++)
		correct += r->cases[i].passed;
	if (r->timing.measured)
		r->message = xasprintf("all %d cases correct; %.1f µs, %.2f× the reference (within %.2f×)", correct,
				       r->timing.median_us, r->timing.ratio, r->timing.threshold_ratio);
	else
		r->message = xasprintf("all %d cases correct%s", correct,
				       r->backend == BACKEND_SIM ? " on the simulator; timing needs a GPU" : "");
	if (r->point.state == POINT_NOT_CHECKED) {
		/* a pass that is only a time: the student and the instructor must both see it */
		char *longer = xasprintf("%s; the exercise's memory budgets were NOT checked (%s)", r->message,
					 r->point.why_not);
		free(r->message);
		r->message = longer;
	}
}
