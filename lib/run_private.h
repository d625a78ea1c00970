/*
 * run_private: what the spawner's files share, and nothing else includes:
 * run.c (starting a child, how it ended), run_child.c (the child's side
 * before exec), run_pump.c (reading, deadlines, reaping) and run_watch.c
 * (what dies with this program).
 */
#ifndef LIB_RUN_PRIVATE_H
#define LIB_RUN_PRIVATE_H

#include <stdbool.h>
#include <sys/types.h>

#include "lib/run.h"

/* The pipes of a child being started: [0] is the reading end, [1] the writing one; -1 when none. */
struct pipes {
	int out[2], err[2], chan[2], report[2], in[2];
};

/* Close *fd if open, and mark it closed. */
void run_close_fd(int *fd);
/* Close every descriptor from 3 up but the two kept (-1 for none). */
void run_close_others(int keep_a, int keep_b);

/* run_child.c: the environment the child gets (ours with the changes), built before fork; free it, not its strings. */
char **run_child_environment(const char *const *changes);
/*
 * run_child.c: in the new child, its group, death signal, descriptors and
 * limits as `o` says (only async-signal-safe calls; a failure is said on
 * p->report and ends it). Then for a program, exec; for a function, return.
 */
void run_child_setup(const struct spawn_options *o, struct pipes *p, pid_t parent, bool will_exec);
void run_child_exec(char *const argv[], char *const envp[], const struct spawn_options *o, struct pipes *p)
	__attribute__((noreturn));

/* run_watch.c: in a child, between fork and anything else: its group (a new one, of its pid) named to the
   watchdog, so that no kill of this program after the fork can leave it unnamed. */
void run_watch_name_self(void);
/* run_watch.c: a child started (pid its group): killed at our end with clean_on_exit (the child named itself
   to the watchdog). */
void run_watch_started(const struct child *c);
/* run_watch.c: it ended (its group killed already): forgotten by both. */
void run_watch_ended(const struct child *c);
/* run_watch.c: start the watchdog now, so that a worker forked next shares it (its children named to it too). */
void run_watch_ensure(void);
/* run_watch.c: in a new child, the signals this program catches back to their defaults. */
void run_watch_child_signals(void);
/* run_watch.c: in a forked worker, the tables are the parent's: emptied, for the worker's own children. */
void run_watch_forget_parent(void);

/* run_pump.c: child_pump, returning as soon as one of them has ended when until_one_ends. */
int run_pump(struct child **kids, int n, double wait_s, bool until_one_ends);

#endif
