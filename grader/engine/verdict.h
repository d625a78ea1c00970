/*
 * The verdict: from what the session saw, which stage failed first and
 * why, whether the timing passes its threshold, and which hint fits. Pure
 * decisions over data, tested with synthetic cases and timings.
 */
#ifndef CUDALINGS_VERDICT_H
#define CUDALINGS_VERDICT_H

#include "grader/result.h"
#include "harness/protocol.h"
#include "grader/engine/session.h"

/* Fail r at `stage` with `message` (owned). */
void verdict_fail(struct grade_result *r, enum stage stage, char *message);
/* The student's file did not compile: the verdict from the compiler's messages (taken over, tidied). */
void verdict_compile_failed(struct grade_result *r, const struct exercise *e, char *compile_output);

/*
 * Judge a timing report of the timed case: the ratio (or the course's
 * fixed µs for this device) against the threshold, and whether it is
 * plausible at all (faster than copying the bytes, host time off the GPU's
 * clock). Fills r->timing and r->performance; fails r at "performance".
 */
/* What made a measurement uncertain, in words (NVML's slowdowns, a moving SM clock), or NULL. You own it. */
char *verdict_noise(const struct proto_timing *m);
void verdict_timing(struct grade_result *r, const struct exercise *e, const struct proto_timing *m,
		    const struct proto_case_info *info, const struct proto_device *device);

/* Whether the timing, as measured, misses the threshold (the verdict decides; this only asks for figures). */
bool verdict_too_slow(const struct session *s);
/* Every correctness case ran and passed, and nothing was refused: the kernel's point is worth measuring. */
bool verdict_cases_passed(const struct session *s);

/*
 * A pass's tier: gold when its median time is within the noise of the gold
 * solution's (timed in the same rounds), near gold within NEAR_GOLD_RATIO×
 * of that, else pass. The noise is the relative half-width of the 95%
 * interval of the student's ratio to the reference (the wider side), at
 * least TIER_NOISE_MIN, counted twice: the gold's own median is as
 * uncertain, so a kernel as fast as the gold is gold every time, not one
 * time in two.
 */
#define TIER_NOISE_MIN 0.01
double verdict_tier_noise(const struct timing_result *t);
enum tier verdict_tier(const struct timing_result *t);

/* Come to the verdict: stage, message, performance, figures and hint. */
void verdict_conclude(struct session *s);

/* The first hint of e for `when` (a diagnosis or a stage), or NULL. */
const char *verdict_hint(const struct exercise *e, const char *when);

#endif
