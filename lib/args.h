/*
 * args: a growing argv (git's strvec), the one the project builds command
 * lines in and hands to child_spawn. Always NULL-terminated, and v is never
 * NULL: ARGS_INIT (or args_init) points at a shared empty vector. The
 * strings are its own.
 *
 *	struct args cmd = ARGS_INIT;
 *	ARGS_ADD(&cmd, "g++", "-c", source);
 *	args_addf(&cmd, "-O%d", level);
 *	run_command(cmd.v, NULL, 60, &out);
 *	args_free(&cmd);
 */
#ifndef LIB_ARGS_H
#define LIB_ARGS_H

#include <stddef.h>

struct args {
	char **v;	/* the strings and a NULL; args_empty (never written) while cap is 0 */
	int n, cap;
};
/* what every empty vector points at; nothing writes it */
extern char *args_empty[1];
#define ARGS_INIT { args_empty, 0, 0 }

void args_init(struct args *a);
/* Add a copy of s. */
void args_add(struct args *a, const char *s);
/* Add s itself: the vector owns it now (root_path's result, say). */
void args_add_owned(struct args *a, char *s);
void args_addf(struct args *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Add every string given: ARGS_ADD(&cmd, "g++", SIM_CXXFLAGS, "-c", source). */
#define ARGS_ADD(a, ...)                                                            \
	do {                                                                        \
		const char *list_[] = { __VA_ARGS__ };                              \
		for (size_t i_ = 0; i_ < sizeof(list_) / sizeof(*list_); i_++)      \
			args_add((a), list_[i_]);                                   \
	} while (0)
/* Add the strings of a NULL-terminated list (another vector's v). */
void args_add_all(struct args *a, char *const *list);
/* Free the strings and the vector: it is empty again (ARGS_INIT), ready for use. */
void args_free(struct args *a);
/*
 * The vector itself, NULL-terminated (a fresh one when empty): you own it
 * and its strings now (argv_free), and the args is empty again.
 */
char **args_detach(struct args *a);
/* Free a detached vector and its strings; NULL is fine. */
void argv_free(char **argv);
/* The command as one line, separated by spaces (how a cache remembers it); you own it. */
char *args_join(const struct args *a);

#endif
