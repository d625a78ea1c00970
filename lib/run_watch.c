/*
 * run_watch: what dies with this program. The groups of children started
 * with clean_on_exit, killed by its exit or a signal that ends it (Ctrl-C, a
 * terminal closed, kill), the files half made by them, and the watchdog
 * process cudalings-watch, which kills every child's group when this program
 * is gone, even after a kill -9 that nothing here can catch.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "lib/run_private.h"

/* ------------------------------------------------------------ the groups to kill at the end */

/*
 * The process groups of the children started with clean_on_exit and still
 * running: a signal that ends this program or its exit ends them first. A
 * kill -9 cannot be caught: PR_SET_PDEATHSIG in each child, and the
 * watchdog for their own children, cover that.
 */
#define LIVE_MAX 64
static volatile pid_t live[LIVE_MAX];
static pid_t live_owner; /* a copy of this table in a forked process is not its own */
static const int fatal_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
static struct sigaction previous[sizeof(fatal_signals) / sizeof(*fatal_signals)];

/* the files half made by those children (a compiler's output under a name of its own), removed with them */
#define DOOMED_MAX 8
static char *volatile doomed[DOOMED_MAX];

static void
kill_live(void)
{
	if (getpid() != live_owner)
		return;
	for (int i = 0; i < LIVE_MAX; i++)
		if (live[i] > 0)
			kill(-live[i], SIGKILL);
}

void
run_remove_on_signal(char *path, bool remove)
{
	for (int i = 0; i < DOOMED_MAX; i++)
		if (doomed[i] == (remove ? NULL : path)) {
			doomed[i] = remove ? path : NULL;
			return;
		}
}

static void
on_fatal_signal(int sig)
{
	kill_live();
	for (int i = 0; i < DOOMED_MAX; i++)
		if (doomed[i])
			unlink(doomed[i]);
	for (size_t i = 0; i < sizeof(fatal_signals) / sizeof(*fatal_signals); i++)
		if (fatal_signals[i] == sig)
			sigaction(sig, &previous[i], NULL);
	raise(sig);
}

static void
remember_live(pid_t pid, pid_t forget)
{
	if (!live_owner) {
		live_owner = getpid();
		atexit(kill_live);
		for (size_t i = 0; i < sizeof(fatal_signals) / sizeof(*fatal_signals); i++) {
			/* a signal the program chose to ignore stays ignored */
			if (sigaction(fatal_signals[i], NULL, &previous[i]) || previous[i].sa_handler == SIG_IGN)
				continue;
			struct sigaction sa = { .sa_handler = on_fatal_signal };
			sigemptyset(&sa.sa_mask);
			sigaction(fatal_signals[i], &sa, NULL);
		}
	}
	for (int i = 0; i < LIVE_MAX; i++)
		if (live[i] == forget) {
			live[i] = pid;
			return;
		}
}

void
run_watch_child_signals(void)
{
	for (size_t i = 0; i < sizeof(fatal_signals) / sizeof(*fatal_signals); i++)
		signal(fatal_signals[i], SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
}

void
run_watch_forget_parent(void)
{
	/* the parent's atexit(kill_live) stays registered here: it does nothing while live_owner is not us */
	live_owner = 0;
	for (int i = 0; i < LIVE_MAX; i++)
		live[i] = 0;
	for (int i = 0; i < DOOMED_MAX; i++)
		doomed[i] = NULL;
}

/* ------------------------------------------------------------ the watchdog, for a kill -9 */

/*
 * PR_SET_PDEATHSIG reaches only a direct child: after a kill -9 of this
 * program nvcc dies, but its cudafe++, cicc and ptxas, and g++'s cc1plus, go
 * on (1 GB and growing, on a compile that never ends). A watchdog process,
 * started with the first child, holds one end of a socket whose other end
 * only this program (and copies of it forked without exec) holds; every
 * child's process group is named to it when it starts and when it ends. When
 * the socket closes, however this program ended, it kills every group still
 * named, strays and grandchildren included (they keep the group), and exits.
 * It has a group of its own, so a kill of this program's group spares it,
 * ignores the terminal's signals (they are this program's to act on), and
 * is called cudalings-watch.
 */
#define WATCHED_MAX 1024
static int watch_fd = -1;

static void __attribute__((noreturn))
watchdog(int fd)
{
	/* named apart from the program it watches, in ps and for tests that count that program */
	prctl(PR_SET_NAME, "cudalings-watch", 0, 0, 0);
	setpgid(0, 0);
	const int ignored[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGTSTP, SIGTTIN, SIGTTOU };
	for (size_t i = 0; i < sizeof(ignored) / sizeof(*ignored); i++)
		signal(ignored[i], SIG_IGN);
	/* nothing of this program's held open: a pipe reading its output must see its end */
	int null = open("/dev/null", O_RDWR);
	for (int i = 0; i < 3 && null >= 0; i++)
		dup2(null, i);
	/* tests hold the watchdog here, to show the program waits for it (tests/lib/run.c) */
	const char *pause_ms = getenv("CUDALINGS_WATCHDOG_PAUSE_MS");
	if (pause_ms)
		usleep(1000 * atoi(pause_ms));
	run_close_others(fd, -1);
	/* tell the watched program it may go on: until now this process shared every descriptor it had open,
	 * a batch's flock on its folder's .lock among them, and a batch run next would have found it held */
	int32_t ready = 0;
	(void)!send(fd, &ready, sizeof(ready), MSG_NOSIGNAL);
	static pid_t groups[WATCHED_MAX];
	int32_t word;
	for (;;) {
		ssize_t n = recv(fd, &word, sizeof(word), 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n != (ssize_t)sizeof(word))
			break;
		/* +group: started; -group: ended */
		pid_t g = word > 0 ? word : -word, want = word > 0 ? 0 : g, put = word > 0 ? g : 0;
		for (int i = 0; i < WATCHED_MAX; i++)
			if (groups[i] == want) {
				groups[i] = put;
				break;
			}
	}
	for (int i = 0; i < WATCHED_MAX; i++)
		if (groups[i] > 0)
			kill(-groups[i], SIGKILL);
	_exit(0);
}

void
run_watch_ensure(void)
{
	if (watch_fd >= 0)
		return;
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		return;
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		close(sv[0]);
		watchdog(sv[1]);
	}
	close(sv[1]);
	int32_t ready = -1;
	if (pid > 0)
		while (recv(sv[0], &ready, sizeof(ready), 0) < 0 && errno == EINTR)
			;
	if (pid < 0 || ready != 0) {
		close(sv[0]);
		return;
	}
	watch_fd = sv[0];
}

/* Name a group to the watchdog, when there is one: started (pid > 0) or ended (< 0). */
static void
watch_group(int32_t word)
{
	if (watch_fd >= 0)
		while (send(watch_fd, &word, sizeof(word), MSG_NOSIGNAL) < 0 && errno == EINTR)
			;
}

/* ------------------------------------------------------------ a child's start and end */

void
run_watch_name_self(void)
{
	watch_group((int32_t)getpid());
}

void
run_watch_started(const struct child *c)
{
	/* its group was named to the watchdog by the child itself (run_watch_name_self), before it ran */
	if (c->clean_on_exit)
		remember_live(c->pid, 0);
}

void
run_watch_ended(const struct child *c)
{
	if (c->clean_on_exit)
		remember_live(0, c->pid);
	if (!c->foreground)
		watch_group(-c->pid);
}
