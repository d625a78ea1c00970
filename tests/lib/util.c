/* The utility layer's basics: the buffer, the argv, errors, whole files. */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/util.h"

Test(buf, grows_keeps_its_nul_and_detaches)
{
	struct buf b = BUF_INIT;
	cr_assert_str_eq(b.data, "", "an empty buffer's data is an empty string, never NULL");
	for (int i = 0; i < 1000; i++)
		buf_addf(&b, "%d,", i % 10);
	cr_assert_eq(b.len, 2000);
	cr_assert_eq(b.data[b.len], 0);
	buf_consume(&b, 1990);
	cr_assert_str_eq(b.data, "5,6,7,8,9,");
	buf_add(&b, "x\0y", 3);
	cr_assert_eq(b.len, 13);
	char *s = buf_detach(&b);
	cr_assert_str_eq(b.data, "", "a detached buffer is empty again, its data never NULL");
	cr_assert_eq(b.len, 0);
	cr_assert_eq(memcmp(s, "5,6,7,8,9,x\0y", 14), 0);
	free(s);
	s = buf_detach(&b);
	cr_assert_str_eq(s, "", "an empty buffer detaches an empty string, never NULL");
	free(s);
}

Test(buf, is_never_null_after_reset_free_or_consume)
{
	struct buf b = BUF_INIT;
	buf_reset(&b);
	cr_assert_str_eq(b.data, "");
	buf_consume(&b, 3);
	cr_assert_str_eq(b.data, "");
	buf_free(&b);
	cr_assert_str_eq(b.data, "", "a freed buffer is BUF_INIT again");
	buf_addstr(&b, "abc");
	buf_consume(&b, 5);
	cr_assert_str_eq(b.data, "");
	buf_free(&b);
	buf_addstr(&b, "usable after a free");
	cr_assert_str_eq(b.data, "usable after a free");
	buf_free(&b);
	cr_assert_str_eq(buf_empty, "", "nothing wrote the shared empty string");
	/* a buffer zeroed by its struct's { 0 } or calloc: buf_init, or adding to it, makes it whole */
	struct buf z = { 0 };
	buf_init(&z);
	cr_assert_str_eq(z.data, "");
	struct buf y = { 0 };
	buf_addstr(&y, "y");
	cr_assert_str_eq(y.data, "y");
	buf_free(&y);
}

Test(error, says_it_with_the_programs_name_and_keeps_it, .init = cr_redirect_stderr)
{
	error_set_program("tool");
	cr_assert_eq(error("cannot read '%s'", "x.cu"), -1);
	warn("%d files left", 2);
	cr_assert_str_eq(last_error(), "2 files left");
	fflush(stderr);
	cr_assert_stderr_eq_str("tool: cannot read 'x.cu'\ntool: warning: 2 files left\n");
}

Test(error, quiet_keeps_the_message_for_the_screen, .init = cr_redirect_stderr)
{
	error_set_print(false);
	error("not printed");
	cr_assert_str_eq(last_error(), "not printed");
	fflush(stderr);
	cr_assert_stderr_eq_str("");
}

static void
hook(void)
{
	fputs("hook ran; ", stderr);
}

Test(error, die_runs_the_hook_and_may_quote_the_last_error, .init = cr_redirect_stderr, .exit_code = 3)
{
	error_set_program("tool");
	error_set_print(false);
	error("the reason");
	die_hook = hook;
	die(3, "%s", last_error());
}

Test(file, written_atomically_and_only_when_changed)
{
	char dir[] = "/tmp/cudalings-lib-XXXXXX";
	cr_assert_not_null(mkdtemp(dir));
	char *folder = path_join(dir, "a/b"), *path = path_join(folder, "f.txt");
	cr_assert_eq(mkdir_p(folder), 0);
	cr_assert(is_directory(folder));
	cr_assert_eq(write_file_atomic(path, "one", 3), 0);
	int64_t first = file_mtime(path);
	usleep(20000);
	cr_assert_eq(write_file_if_changed(path, "one", 3), 0);
	cr_assert_eq(file_mtime(path), first, "the same content leaves the file alone");
	cr_assert_eq(write_file_if_changed(path, "two", 3), 0);
	size_t n;
	char *text = read_file(path, &n);
	cr_assert_str_eq(text, "two");
	cr_assert_eq(n, 3);
	free(text);
	cr_assert_null(read_file(folder, NULL));
	cr_assert_eq(errno, EISDIR);
	cr_assert_eq(file_mtime("/no/such/file"), -1);
	char *fifo = path_join(dir, "fifo");
	cr_assert_eq(mkfifo(fifo, 0600), 0);
	cr_assert_null(read_file(fifo, NULL), "a FIFO is refused, not read forever");
	cr_assert_eq(errno, EINVAL);
	char *inner = path_join(dir, "a/b/c");
	cr_assert_eq(mkdir_p(inner), 0);
	cr_assert_eq(remove_dir(folder), -1, "a folder that holds a folder stays");
	cr_assert(file_exists(inner));
	cr_assert_eq(remove_dir(inner), 0);
	cr_assert_eq(remove_dir(folder), 0, "its files go, then the folder");
	cr_assert_not(file_exists(path));
	cr_assert_not(is_directory(folder));
	free(inner);
	char *rm = xasprintf("rm -rf '%s'", dir);
	cr_assert_eq(system(rm), 0);
	free(rm);
	free(fifo);
	free(folder);
	free(path);
}

Test(util, paths_and_did_you_mean)
{
	char *p = path_join("a/", "b");
	cr_assert_str_eq(p, "a/b");
	free(p);
	p = path_join("a", "/abs");
	cr_assert_str_eq(p, "/abs");
	free(p);
	cr_assert_eq(edit_distance("transpose", "tranpose"), 1);
	cr_assert_eq(edit_distance("", "abc"), 3);
	cr_assert_neq(hash_bytes("a", 1, 0), hash_bytes("b", 1, 0));
}

Test(args, grows_null_terminated_and_is_never_null)
{
	struct args a = ARGS_INIT;
	cr_assert_not_null(a.v, "an empty argv is a list of nothing, never NULL");
	cr_assert_null(a.v[0]);
	char *owned = xstrdup("owned");
	for (int i = 0; i < 40; i++)
		args_addf(&a, "-%d", i);
	args_add_owned(&a, owned);
	ARGS_ADD(&a, "x", "y");
	char *list[] = { "z", NULL };
	args_add_all(&a, list);
	cr_assert_eq(a.n, 44);
	cr_assert_str_eq(a.v[39], "-39");
	cr_assert_eq(a.v[40], owned, "added as it is: the vector owns it now");
	cr_assert_str_eq(a.v[43], "z");
	cr_assert_null(a.v[44]);
	char *line = args_join(&a);
	cr_assert(strstr(line, "-39 owned x y z") != NULL, "%s", line);
	free(line);
	char **v = args_detach(&a);
	cr_assert_eq(a.n, 0);
	cr_assert_not_null(a.v);
	cr_assert_str_eq(v[0], "-0");
	argv_free(v);
	v = args_detach(&a);
	cr_assert_not_null(v, "an empty one detaches a list of nothing");
	cr_assert_null(v[0]);
	argv_free(v);
	args_free(&a);
	cr_assert_not_null(a.v);
	cr_assert_null(args_empty[0], "nothing wrote the shared empty vector");
}
