/*
 * The process spawner (lib/run.c and its parts): capture, descriptors, environment, time-outs
 * that kill the whole group, the death signal, clean-on-exit, limits.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/exit.h"
#include "lib/run.h"
#include "lib/util.h"
#include "tests/lib/children.h"

/* a deadline only a hang reaches: the scripts here end at once, on a loaded machine within seconds */
static struct spawn_options capture = { .out = SPAWN_CAPTURE, .err = SPAWN_TO_STDOUT, .timeout_s = SOON_S };

Test(run, output_is_captured_and_status_kept, .timeout = 120)
{
	struct buf out = BUF_INIT;
	char *argv[] = { "sh", "-c", "echo hello; echo oops >&2; exit 0", NULL };
	cr_assert_eq(run_capture(argv, NULL, &out, NULL), 0);
	cr_assert_str_eq(buf_str(&out), "hello\noops\n");
	buf_free(&out);
	char *fail[] = { "sh", "-c", "exit 3", NULL };
	cr_assert_eq(run_capture(fail, NULL, NULL, NULL), 3);
}

Test(run, stdout_and_stderr_apart, .timeout = 120)
{
	char *argv[] = { "sh", "-c", "echo out; echo err >&2; exit 3", NULL };
	struct buf out = BUF_INIT, err = BUF_INIT;
	cr_assert_eq(run_capture(argv, NULL, &out, &err), 3);
	cr_assert_str_eq(buf_str(&out), "out\n");
	cr_assert_str_eq(buf_str(&err), "err\n");
	buf_free(&out);
	buf_free(&err);
}

Test(run, a_missing_program_is_127_with_the_reason, .timeout = 120)
{
	char *argv[] = { "/nonexistent/program", NULL };
	struct buf out = BUF_INIT, err = BUF_INIT;
	error_set_print(false);
	cr_assert_eq(run_capture(argv, NULL, &out, &err), EXIT_CANNOT_RUN);
	cr_assert(strstr(buf_str(&err), "cannot run '/nonexistent/program'"), "%s", buf_str(&err));
	buf_free(&out);
	buf_free(&err);
}

Test(run, a_missing_program_is_an_error_not_a_crash, .timeout = 120)
{
	struct child c = { .label = "missing" };
	char *argv[] = { "/no/such/program", NULL };
	struct spawn_options o = { 0 };
	error_set_print(false);
	cr_assert_eq(child_spawn(&c, argv, &o), -1);
	cr_assert(strstr(last_error(), "cannot run '/no/such/program'"), "%s", last_error());
	char *here[] = { "true", NULL };
	o.cwd = "/no/such/folder";
	cr_assert_eq(child_spawn(&c, here, &o), -1);
	cr_assert(strstr(last_error(), "cannot enter '/no/such/folder'"), "%s", last_error());
}

Test(run, a_crash_is_described_in_plain_words, .timeout = 120)
{
	struct child c = { .label = "crash" };
	char *argv[] = { "sh", "-c", "kill -SEGV $$", NULL };
	cr_assert_eq(child_spawn(&c, argv, &capture), 0);
	cr_assert_eq(child_wait(&c), 128 + SIGSEGV);
	char *why = child_describe_status(&c);
	cr_assert(strstr(why, "signal 11"), "%s", why);
	cr_assert_not(child_succeeded(&c));
	free(why);
	child_release(&c);
}

Test(run, a_flood_of_output_is_capped, .timeout = 120)
{
	struct child c = { .label = "flood" };
	char *argv[] = { "sh", "-c", "yes | head -c 5000000", NULL };
	struct spawn_options o = capture;
	o.output_cap = 1000;
	cr_assert_eq(child_spawn(&c, argv, &o), 0);
	child_wait(&c);
	cr_assert(c.output_truncated);
	cr_assert_leq(c.output.len, 1000);
	cr_assert(child_succeeded(&c), "the child was not blocked by a full pipe");
	child_release(&c);
}

Test(run, output_to_a_file_and_the_environment_changed, .timeout = 120)
{
	char *path = fresh_path();
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	setenv("CUDALINGS_RUN_GONE", "here", 1);
	const char *env[] = { "CUDALINGS_RUN_SET=yes", "CUDALINGS_RUN_GONE", NULL };
	struct spawn_options o = { .out = SPAWN_TO_FD, .out_fd = fd, .err = SPAWN_DISCARD, .env = env };
	struct child c = { .label = "env" };
	char *argv[] = { "sh", "-c", "echo \"$CUDALINGS_RUN_SET-${CUDALINGS_RUN_GONE:-unset}\"; echo hidden >&2", NULL };
	cr_assert_eq(child_spawn(&c, argv, &o), 0);
	close(fd);
	cr_assert_eq(child_wait(&c), 0);
	char *text = read_file(path, NULL);
	cr_assert_str_eq(text, "yes-unset\n");
	cr_assert_str_eq(getenv("CUDALINGS_RUN_GONE"), "here", "the parent's environment is its own");
	free(text);
	unlink(path);
	free(path);
	child_release(&c);
}

static void
collect(struct child *c, const char *data, size_t n)
{
	buf_add(c->ctx, data, n);
}

Test(run, a_channel_at_a_descriptor_of_the_childs_choosing, .timeout = 120)
{
	struct buf got = BUF_INIT;
	struct child c = { .label = "channel", .on_channel = collect, .ctx = &got };
	struct spawn_options o = capture;
	o.channel = true;
	o.channel_child_fd = 7;
	char *argv[] = { "sh", "-c", "echo secret >&7; echo plain", NULL };
	cr_assert_eq(child_spawn(&c, argv, &o), 0);
	cr_assert_eq(child_wait(&c), 0);
	cr_assert_str_eq(buf_str(&got), "secret\n");
	cr_assert_str_eq(buf_str(&c.output), "plain\n");
	buf_free(&got);
	child_release(&c);
}

Test(run, a_hang_is_killed_at_the_deadline_with_its_whole_group, .timeout = 120)
{
	/* a background child in the group, which the deadline must take too: the group is looked at, not a pid
	   the shell says, which a loaded machine may not let it say before the deadline */
	char *argv[] = { "sh", "-c", "sleep 100 & sleep 100", NULL };
	struct child c = { .label = "hang" };
	struct spawn_options o = capture;
	o.timeout_s = 2;
	cr_assert_eq(child_spawn(&c, argv, &o), 0);
	child_wait(&c);
	cr_assert(c.timed_out);
	cr_assert_not(child_succeeded(&c));
	cr_assert(group_gone_within(c.pid, SOON_S), "a child of the killed program lived on in its group %d", (int)c.pid);
	child_release(&c);
}

Test(run, a_cpu_limit_counts_work_not_waiting, .timeout = 300)
{
	struct child spin = { .label = "spin" }, idle = { .label = "idle" };
	char *busy[] = { "sh", "-c", "while :; do :; done", NULL };
	char *sleepy[] = { "sleep", "1", NULL };
	struct spawn_options o = capture;
	/* 0.3 s of CPU: seconds of wall clock where the machine is loaded, a second's sleep none */
	o.timeout_s = 4 * SOON_S;
	o.cpu_limit_s = 0.3;
	cr_assert_eq(child_spawn(&spin, busy, &o), 0);
	cr_assert_eq(child_spawn(&idle, sleepy, &o), 0);
	struct child *kids[] = { &spin, &idle };
	cr_assert_eq(child_pump(kids, 2, -1), 0);
	cr_assert(spin.timed_out, "a busy loop passed its CPU limit");
	cr_assert(child_succeeded(&idle), "a second of sleep is not a second of CPU");
	child_release(&spin);
	child_release(&idle);
}

Test(run, a_pump_of_no_time_returns_at_once, .timeout = 120)
{
	struct child c = { .label = "sleep" };
	char *argv[] = { "sleep", "100", NULL };
	cr_assert_eq(child_spawn(&c, argv, &capture), 0);
	struct child *one = &c;
	/* it returns with the child still running: it did not wait for the end */
	cr_assert_eq(child_pump(&one, 1, 0), 1);
	cr_assert_eq(child_pump(&one, 1, 0.1), 1);
	cr_assert(c.running);
	cr_assert_eq(child_exit_code(&c), -1);
	child_kill(&c);
	cr_assert_not(c.running);
	cr_assert_eq(child_exit_code(&c), 128 + SIGKILL);
	child_release(&c);
}

Test(run, stop_asks_then_kills, .timeout = 120)
{
	struct child polite = { .label = "polite" }, stubborn = { .label = "stubborn" };
	char *ends[] = { "sleep", "100", NULL };
	char *stays[] = { "sh", "-c", "trap '' TERM; echo ready; sleep 100 & wait; sleep 100", NULL };
	cr_assert_eq(child_spawn(&polite, ends, &capture), 0);
	cr_assert_eq(child_spawn(&stubborn, stays, &capture), 0);
	/* the trap is in place once it says so */
	struct child *one = &stubborn;
	while (!strstr(buf_str(&stubborn.output), "ready") && child_pump(&one, 1, 0.05))
		;
	child_stop(&polite, SOON_S); /* it dies of the SIGTERM at once: the grace is a bound, not a wait */
	cr_assert_eq(child_exit_code(&polite), 128 + SIGTERM);
	child_stop(&stubborn, 0.3);
	cr_assert_not(stubborn.running);
	cr_assert_eq(child_exit_code(&stubborn), 128 + SIGKILL);
	child_release(&polite);
	child_release(&stubborn);
}

/*
 * A helper process that starts `sleep 100` through the spawner, says its
 * pid on the pipe, and waits to be killed.
 */
static pid_t
helper_with_a_child(bool clean_on_exit, pid_t *grandchild)
{
	int p[2];
	cr_assert_eq(pipe(p), 0);
	pid_t helper = fork();
	cr_assert_geq(helper, 0);
	if (helper == 0) {
		/* as a program started in the foreground: a background job inherits SIGINT ignored (and one
		   under nohup SIGHUP), and an ignored signal stays ignored (the spawner installs no handler for it) */
		signal(SIGINT, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		struct child c = { .label = "sleep" };
		char *argv[] = { "sleep", "100", NULL };
		struct spawn_options o = { .out = SPAWN_DISCARD, .clean_on_exit = clean_on_exit };
		if (child_spawn(&c, argv, &o))
			_exit(1);
		if (write(p[1], &c.pid, sizeof(c.pid)) != sizeof(c.pid))
			_exit(1);
		pause();
		_exit(0);
	}
	close(p[1]);
	*grandchild = read_pid(p[0]);
	close(p[0]);
	return helper;
}

Test(run, kill_9_of_the_parent_takes_the_child_with_it, .timeout = 120)
{
	pid_t child;
	pid_t helper = helper_with_a_child(false, &child);
	cr_assert_not(gone(child));
	kill(helper, SIGKILL);
	waitpid(helper, NULL, 0);
	cr_assert(gone_within(child, SOON_S), "the child %d outlived a kill -9 of its parent", (int)child);
}

Test(run, a_signal_to_the_parent_cleans_up_first, .timeout = 300)
{
	int signals[] = { SIGTERM, SIGINT, SIGHUP };
	for (size_t i = 0; i < sizeof(signals) / sizeof(*signals); i++) {
		pid_t child;
		pid_t helper = helper_with_a_child(true, &child);
		kill(helper, signals[i]);
		int status;
		waitpid(helper, &status, 0);
		cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == signals[i], "the parent still dies of the signal");
		cr_assert(gone_within(child, SOON_S), "the child outlived signal %d of its parent", signals[i]);
	}
}

Test(run, an_exit_of_the_parent_cleans_up, .timeout = 120)
{
	int p[2];
	cr_assert_eq(pipe(p), 0);
	pid_t helper = fork();
	if (helper == 0) {
		struct child c = { .label = "sleep" };
		char *argv[] = { "sleep", "100", NULL };
		struct spawn_options o = { .out = SPAWN_DISCARD, .clean_on_exit = true, .death_signal = SIGCONT };
		if (child_spawn(&c, argv, &o) || write(p[1], &c.pid, sizeof(c.pid)) != sizeof(c.pid))
			_exit(1);
		exit(0); /* atexit, not the death signal (a harmless SIGCONT here) */
	}
	close(p[1]);
	pid_t child = read_pid(p[0]);
	close(p[0]);
	waitpid(helper, NULL, 0);
	cr_assert(gone_within(child, SOON_S), "the child outlived its parent's exit");
}

Test(run, limits_reach_the_child, .timeout = 120)
{
	struct buf out = BUF_INIT;
	struct spawn_options o = { .memory_limit = 512ul << 20, .timeout_s = SOON_S };
	char *limits[] = { "cat", "/proc/self/limits", NULL };
	cr_assert_eq(run_capture(limits, &o, &out, NULL), 0);
	cr_assert(strstr(buf_str(&out), "Max address space         536870912"), "%s", buf_str(&out));
	cr_assert(strstr(buf_str(&out), "Max core file size        0"), "%s", buf_str(&out));
	buf_free(&out);
}

Test(run, no_processes_means_no_fork_but_threads, .timeout = 120)
{
	struct buf out = BUF_INIT;
	struct spawn_options o = { .no_processes = true, .timeout_s = SOON_S };
	char *forks[] = { "sh", "-c", "/bin/true; echo forked", NULL };
	run_capture(forks, &o, &out, NULL);
	cr_assert_null(strstr(buf_str(&out), "forked"), "%s", buf_str(&out));
	buf_free(&out);
	char *plain[] = { "sh", "-c", "echo alone", NULL };
	cr_assert_eq(run_capture(plain, &o, &out, NULL), 0);
	cr_assert_str_eq(buf_str(&out), "alone\n");
	buf_free(&out);
}

Test(run, run_command_says_whether_it_worked, .timeout = 120)
{
	struct buf out = BUF_INIT;
	char *ok[] = { "sh", "-c", "echo fine; echo said >&2", NULL };
	cr_assert(run_command(ok, "/", SOON_S, &out));
	cr_assert_str_eq(buf_str(&out), "fine\nsaid\n");
	buf_free(&out);
	char *slow[] = { "sleep", "10", NULL };
	cr_assert_not(run_command(slow, NULL, 0.2, &out));
	cr_assert(strstr(buf_str(&out), "'sleep' ran past its 0.2 s limit"), "%s", buf_str(&out));
	buf_free(&out);
}

Test(run, input_reaches_the_child_and_its_end_is_an_end_of_file, .timeout = 120)
{
	struct child c = { .label = "cat" };
	char *argv[] = { "cat", NULL };
	struct spawn_options o = { .input_pipe = true, .out = SPAWN_CAPTURE };
	cr_assert_eq(child_spawn(&c, argv, &o), 0);
	cr_assert_eq(child_send_input(&c, "go", 2, false), 0);
	cr_assert_eq(child_send_input(&c, "!\n", 2, true), 0);
	cr_assert_eq(child_wait(&c), 0, "cat saw the end of its input");
	cr_assert_str_eq(buf_str(&c.output), "go!\n");
	cr_assert_eq(child_send_input(&c, "x", 1, true), -1, "its input is closed");
	child_release(&c);
}

Test(run, input_to_a_child_that_has_ended_is_an_error_not_a_signal, .timeout = 120)
{
	struct child c = { .label = "sh" };
	char *argv[] = { "sh", "-c", "exec 0<&-; sleep 100", NULL };
	struct spawn_options o = { .input_pipe = true };
	cr_assert_eq(child_spawn(&c, argv, &o), 0);
	/* more than a pipe holds: the write waits until the reader is gone, then EPIPE, and this
	   process is still here to say so */
	static char lots[1 << 17];
	cr_assert_eq(child_send_input(&c, lots, sizeof(lots), true), -1);
	cr_assert(c.running, "the child itself goes on");
	child_release(&c);
}

/* An editor is the terminal's while it runs: in our process group (the terminal's keys reach it). */
Test(run, a_foreground_child_stays_in_our_group, .timeout = 120)
{
	struct buf out = BUF_INIT;
	struct spawn_options o = { .foreground = true, .timeout_s = SOON_S };
	char *argv[] = { "sh", "-c", "cut -d' ' -f5 /proc/$$/stat", NULL };
	cr_assert_eq(run_capture(argv, &o, &out, NULL), 0);
	cr_assert_eq(atoi(buf_str(&out)), (int)getpgrp(), "%s", buf_str(&out));
	buf_free(&out);
	struct spawn_options own = { .timeout_s = SOON_S };
	cr_assert_eq(run_capture(argv, &own, &out, NULL), 0);
	cr_assert_neq(atoi(buf_str(&out)), (int)getpgrp(), "any other child has a group of its own");
	buf_free(&out);
}

/* The watchdog starts with the first child, forked from this program with its descriptors: a batch's
 * flock on its folder's .lock stayed held by it until it had closed them, and a batch run next in the
 * same process found its own folder taken (tests/instructor/batch.c, once under load). */
Test(run, the_watchdog_keeps_no_lock_of_ours_once_a_child_has_started, .timeout = 120)
{
	char *path = fresh_path();
	int held = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	cr_assert(held >= 0);
	cr_assert_eq(flock(held, LOCK_EX | LOCK_NB), 0);
	setenv("CUDALINGS_WATCHDOG_PAUSE_MS", "300", 1);
	char *argv[] = { "true", NULL };
	struct buf out = BUF_INIT;
	cr_assert(run_command(argv, NULL, SOON_S, &out), "%s", buf_str(&out));
	buf_free(&out);
	unsetenv("CUDALINGS_WATCHDOG_PAUSE_MS");
	close(held);
	int again = open(path, O_RDWR | O_CLOEXEC);
	cr_assert(again >= 0);
	cr_assert_eq(flock(again, LOCK_EX | LOCK_NB), 0, "the lock is still held after its only holder closed it");
	close(again);
	unlink(path);
	free(path);
}
