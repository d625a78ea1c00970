#include <criterion/criterion.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <stdlib.h>
#include <unistd.h>

#include "proc.h"

Test(proc, output_is_captured_and_status_kept, .timeout = 10)
{
	struct buf out = { 0 };
	char *argv[] = { "sh", "-c", "echo hello; echo oops >&2; exit 0", NULL };
	cr_assert(run_command(argv, NULL, 5, &out));
	cr_assert(strstr(out.data, "hello") && strstr(out.data, "oops"));
	buf_free(&out);
	char *fail[] = { "sh", "-c", "exit 3", NULL };
	cr_assert_not(run_command(fail, NULL, 5, NULL));
}

Test(proc, a_hang_is_killed_at_the_deadline_with_its_children, .timeout = 10)
{
	char marker[] = "/tmp/cudalings-proc-XXXXXX";
	int fd = mkstemp(marker);
	close(fd);
	unlink(marker);
	char *script = xasprintf("(sleep 1; touch %s) & sleep 100", marker);
	struct child c = { .label = "hang" };
	char *argv[] = { "sh", "-c", script, NULL };
	struct spawn_options o = { .timeout_s = 0.5 };
	cr_assert_eq(child_spawn(&c, argv, &o), 0);
	struct child *one = &c;
	child_pump(&one, 1);
	cr_assert(c.timed_out);
	usleep(1500 * 1000);
	cr_assert_not(file_exists(marker), "a child of the killed program lived on");
	unlink(marker);
	free(script);
	child_release(&c);
}

Test(proc, a_crash_is_described_in_plain_words, .timeout = 10)
{
	struct child c = { .label = "crash" };
	char *argv[] = { "sh", "-c", "kill -SEGV $$", NULL };
	struct spawn_options o = { .timeout_s = 5 };
	cr_assert_eq(child_spawn(&c, argv, &o), 0);
	struct child *one = &c;
	child_pump(&one, 1);
	char *why = child_describe_status(&c);
	cr_assert(strstr(why, "signal 11"), "%s", why);
	free(why);
	child_release(&c);
}

Test(proc, a_missing_program_is_an_error_not_a_crash, .timeout = 10)
{
	struct child c = { .label = "missing" };
	char *argv[] = { "/no/such/program", NULL };
	struct spawn_options o = { 0 };
	cr_assert_eq(child_spawn(&c, argv, &o), -1);
}

Test(proc, a_flood_of_output_is_capped, .timeout = 10)
{
	struct child c = { .label = "flood" };
	char *argv[] = { "sh", "-c", "yes | head -c 5000000", NULL };
	struct spawn_options o = { .timeout_s = 5, .output_cap = 1000 };
	cr_assert_eq(child_spawn(&c, argv, &o), 0);
	struct child *one = &c;
	child_pump(&one, 1);
	cr_assert(c.output_truncated);
	cr_assert_leq(c.output.len, 1000);
	child_release(&c);
}
