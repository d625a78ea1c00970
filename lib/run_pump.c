/*
 * run_pump: the parent's side while children run. Reading their pipes (the
 * output captured to a cap, the channel handed to its callback), their
 * stdin, the deadlines after which a group is killed, stopping and reaping
 * them; a child that ends has its group's strays killed and its pipes read.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/run_private.h"
#include "lib/util.h"

/* What a kill aims at: the child's whole group, or the child alone when it runs in ours (foreground). */
static pid_t
group_of(const struct child *c)
{
	return c->foreground ? c->pid : -c->pid;
}

static void
keep_output(struct child *c, struct buf *b, const char *data, size_t n)
{
	size_t room = b->len < c->output_cap ? c->output_cap - b->len : 0;
	if (n > room) {
		c->output_truncated = true;
		n = room;
	}
	if (n)
		buf_add(b, data, n);
}

/* Read what is there from one of the child's pipes; false at end of file or on an error. */
static bool
drain(struct child *c, int *fd)
{
	char chunk[1 << 16];
	bool channel = fd == &c->channel_fd;
	for (;;) {
		ssize_t n = read(*fd, chunk, sizeof(chunk));
		if (n > 0) {
			if (channel && c->on_channel)
				c->on_channel(c, chunk, (size_t)n);
			else if (!channel)
				keep_output(c, fd == &c->out_fd ? &c->output : &c->errors, chunk, (size_t)n);
			/* the channel handler may have closed it (a forged message, say) */
			if (*fd < 0)
				return false;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return true;
		run_close_fd(fd);
		return false;
	}
}

/* It has ended: its group's strays go too, and what it wrote is read. */
static void
finish(struct child *c, int status)
{
	c->status = status;
	c->running = false;
	kill(group_of(c), SIGKILL);
	run_watch_ended(c);
	run_close_fd(&c->pid_fd);
	run_close_fd(&c->in_fd);
	int *fds[] = { &c->out_fd, &c->err_fd, &c->channel_fd };
	for (size_t i = 0; i < 3; i++) {
		if (*fds[i] >= 0)
			drain(c, fds[i]);
		run_close_fd(fds[i]);
	}
}

static void
reap(struct child *c, bool block)
{
	int status = 0;
	pid_t r;
	while ((r = waitpid(c->pid, &status, block ? 0 : WNOHANG)) < 0 && errno == EINTR)
		;
	if (r == c->pid || (r < 0 && errno == ECHILD))
		finish(c, r == c->pid ? status : 0);
}

int
child_send_input(struct child *c, const void *data, size_t n, bool last)
{
	if (c->in_fd < 0)
		return -1;
	/* a child that has gone would get us a SIGPIPE: held back, and taken if it came */
	sigset_t pipe_only, before;
	sigemptyset(&pipe_only);
	sigaddset(&pipe_only, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_only, &before);
	const char *at = data;
	int result = 0;
	while (n && result == 0) {
		ssize_t w = write(c->in_fd, at, n);
		if (w > 0)
			at += w, n -= (size_t)w;
		else if (w < 0 && errno != EINTR)
			result = -1;
	}
	if (result && errno == EPIPE) {
		struct timespec now = { 0, 0 };
		sigtimedwait(&pipe_only, NULL, &now);
	}
	pthread_sigmask(SIG_SETMASK, &before, NULL);
	if (last || result)
		run_close_fd(&c->in_fd);
	return result;
}

void
child_kill(struct child *c)
{
	if (!c->running)
		return;
	kill(group_of(c), SIGKILL);
	reap(c, true);
}

void
child_stop(struct child *c, double grace_s)
{
	if (!c->running)
		return;
	kill(group_of(c), SIGTERM);
	for (double until = now_seconds() + grace_s; c->running && now_seconds() < until;) {
		reap(c, false);
		if (c->running)
			usleep(10000);
	}
	child_kill(c);
}

int
child_pollfds(const struct child *c, struct pollfd *fds)
{
	int n = 0;
	const int ours[] = { c->out_fd, c->err_fd, c->channel_fd };
	for (size_t i = 0; i < 3; i++)
		if (ours[i] >= 0)
			fds[n++] = (struct pollfd){ .fd = ours[i], .events = POLLIN };
	return n;
}

int
run_pump(struct child **kids, int n, double wait_s, bool until_one_ends)
{
	double until = wait_s >= 0 ? now_seconds() + wait_s : 0;
	for (;;) {
		struct pollfd fds[48];
		struct child *owner[48];
		int nfds = 0, running = 0;
		bool ended = false;
		double now = now_seconds(), wait = 0.05;
		for (int i = 0; i < n; i++) {
			struct child *c = kids[i];
			if (!c->running)
				continue;
			if ((c->deadline && now >= c->deadline) ||
			    (c->cpu_deadline && child_cpu_seconds(c) >= c->cpu_deadline)) {
				c->timed_out = true;
				child_kill(c);
				ended = true;
				continue;
			}
			running++;
			if (c->deadline && c->deadline - now < wait)
				wait = c->deadline - now;
			if (c->cpu_deadline && wait > 0.2)
				wait = 0.2;
			if (nfds + 4 <= (int)ARRAY_SIZE(fds)) {
				int added = child_pollfds(c, fds + nfds);
				/* its end wakes the poll too: a child with no pipe, or whose pipes a stray holds */
				if (c->pid_fd >= 0)
					fds[nfds + added++] = (struct pollfd){ .fd = c->pid_fd, .events = POLLIN };
				for (int k = 0; k < added; k++)
					owner[nfds + k] = c;
				nfds += added;
			}
		}
		if (!running)
			return 0;
		if (wait_s >= 0 && until - now < wait)
			wait = until - now > 0 ? until - now : 0;
		if (nfds && poll(fds, (nfds_t)nfds, (int)(wait * 1000) + (wait > 0)) > 0) {
			for (int i = 0; i < nfds; i++) {
				struct child *c = owner[i];
				if (!fds[i].revents || !c->running)
					continue;
				int *fd = fds[i].fd == c->out_fd ? &c->out_fd
					: fds[i].fd == c->err_fd ? &c->err_fd
					: fds[i].fd == c->channel_fd ? &c->channel_fd : NULL;
				if (fd)
					drain(c, fd);
			}
		} else if (!nfds && wait > 0) {
			usleep((useconds_t)(wait * 1e6));
		}
		int still = 0;
		for (int i = 0; i < n; i++)
			if (kids[i]->running) {
				reap(kids[i], false);
				still += kids[i]->running;
			}
		if ((wait_s >= 0 && now_seconds() >= until) || (until_one_ends && (ended || still < running)))
			return still;
	}
}

int
child_pump(struct child **kids, int n, double wait_s)
{
	return run_pump(kids, n, wait_s, false);
}

int
child_wait(struct child *c)
{
	child_pump(&c, 1, -1);
	return child_exit_code(c);
}
