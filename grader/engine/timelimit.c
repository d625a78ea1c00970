/* timelimit: how long a grading's children may take (see timelimit.h). */
#include "grader/engine/timelimit.h"

#include <stdlib.h>

#include "lib/util.h"

/*
 * It only lowers: tests of submissions that never end spin for seconds, not
 * half a minute; nothing a student sets can give a kernel more.
 */
static double limit = -1; /* timelimit_sim_launch's, once read */

double
timelimit_sim_launch(void)
{
	if (limit >= 0)
		return limit;
	const char *env = getenv("CUDALINGS_SIM_CPU_LIMIT");
	char *end = NULL;
	double v = env && *env ? strtod(env, &end) : 0;
	limit = 0;
	if (env && *env && (*end || !(v >= 1 && v < CASE_CPU_LIMIT_SIM_S - SIM_LAUNCH_LIMIT_MARGIN_S)))
		warn("CUDALINGS_SIM_CPU_LIMIT is '%s', not seconds from 1 to below %d: the usual limits hold", env,
		     CASE_CPU_LIMIT_SIM_S - SIM_LAUNCH_LIMIT_MARGIN_S);
	else if (env && *env)
		limit = v;
	return limit;
}

void
timelimit_sim_lower(double seconds)
{
	double now = timelimit_sim_launch();
	if (seconds >= 1 && (now == 0 || seconds < now))
		limit = seconds;
}

double
timelimit_compile(void)
{
	static double seconds = -1;
	if (seconds > 0)
		return seconds;
	const char *env = getenv("CUDALINGS_COMPILE_LIMIT");
	char *end = NULL;
	double v = env && *env ? strtod(env, &end) : 0;
	seconds = COMPILE_LIMIT_S;
	if (env && *env && (*end || !(v >= 1 && v < COMPILE_LIMIT_S)))
		warn("CUDALINGS_COMPILE_LIMIT is '%s', not seconds from 1 to below %d: the usual limit holds", env,
		     COMPILE_LIMIT_S);
	else if (env && *env)
		seconds = v;
	return seconds;
}

double
timelimit_sim_case(void)
{
	return timelimit_sim_launch() > 0 ? timelimit_sim_launch() + SIM_LAUNCH_LIMIT_MARGIN_S : CASE_CPU_LIMIT_SIM_S;
}

void
timelimit_runner_deadline(const struct session *s, enum backend b, bool waiting, struct child *c, int *last_phase)
{
	int phase = s->current >= 0 ? s->current : s->hello ? -2 : -1;
	if (phase == *last_phase)
		return;
	*last_phase = phase;
	double now = now_seconds();
	c->cpu_deadline = 0;
	if (phase == -2 && waiting) {
		/* the GPU is open and the file still compiles: the compiler's own limit bounds the wait */
		c->deadline = 0;
	} else if (phase == -2) {
		c->deadline = now + LOAD_LIMIT_S;
	} else if (s->current == s->timed) {
		c->deadline = now + TIMED_LIMIT_S;
	} else if (b == BACKEND_SIM) {
		c->deadline = now + CASE_WALL_LIMIT_SIM_S;
		c->cpu_deadline = child_cpu_seconds(c) + timelimit_sim_case();
	} else {
		c->deadline = now + CASE_LIMIT_GPU_S;
	}
}

double
timelimit_runner_current(const struct session *s, enum backend b)
{
	if (!s->hello)
		return START_LIMIT_S;
	if (s->current < 0)
		return LOAD_LIMIT_S;
	if (s->current == s->timed)
		return TIMED_LIMIT_S;
	return b == BACKEND_SIM ? timelimit_sim_case() : CASE_LIMIT_GPU_S;
}
