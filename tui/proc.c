/* proc: the workbook's background job over lib/run (see proc.h). */
#include "tui/proc.h"

#include <signal.h>
#include <string.h>
#include <sys/wait.h>

int
job_start(struct job *j, char *const argv[], const char *cwd)
{
	/* on a TERM (the workbook quits or dies) the grader stops its runners itself */
	struct spawn_options o = { .cwd = cwd, .out = SPAWN_CAPTURE, .err = SPAWN_CAPTURE,
				   .output_cap = 64 << 20, .death_signal = SIGTERM };

	memset(j, 0, sizeof(*j));
	buf_init(&j->out_text);
	j->child.label = argv[0];
	if (child_spawn(&j->child, argv, &o) < 0)
		return -1;
	j->pid = j->child.pid;
	j->started_ms = now_ms();
	return 0;
}

int
job_pollfds(const struct job *j, struct pollfd *fds)
{
	return j->pid ? child_pollfds(&j->child, fds) : 0;
}

/* Hand over the complete stderr lines, and with `all` the last one without its '\n'. */
static void
take_lines(struct job *j, bool all, void (*on_line)(void *, const char *), void *ctx)
{
	struct buf *err = &j->child.errors;
	size_t used = 0;
	char *nl;

	while (used < err->len && (nl = memchr(err->data + used, '\n', err->len - used))) {
		*nl = '\0';
		if (on_line)
			on_line(ctx, err->data + used);
		used = (size_t)(nl - err->data) + 1;
	}
	if (all && used < err->len) {
		if (on_line)
			on_line(ctx, err->data + used);
		used = err->len;
	}
	buf_consume(err, used);
}

bool
job_pump(struct job *j, void (*on_line)(void *ctx, const char *line), void *ctx)
{
	struct child *c = &j->child;

	if (!j->pid)
		return true;
	/* what is there now; an ended grader's group goes, with any stray that holds its pipes */
	child_pump(&c, 1, 0);
	buf_add(&j->out_text, buf_str(&c->output), c->output.len);
	buf_reset(&c->output);
	take_lines(j, !c->running, on_line, ctx);
	if (c->running)
		return false;
	j->status = WIFEXITED(c->status) ? WEXITSTATUS(c->status) : -1;
	j->ended_ms = now_ms();
	j->pid = 0;
	return true;
}

void
job_kill(struct job *j)
{
	if (!j->pid)
		return;
	child_stop(&j->child, 0.5);
	j->status = -1;
	j->pid = 0;
}

void
job_free(struct job *j)
{
	job_kill(j);
	child_release(&j->child);
	buf_free(&j->out_text);
}
