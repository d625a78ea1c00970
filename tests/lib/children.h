/* children: helpers of the lib tests that watch processes (tests/lib/children.c). */
#ifndef TESTS_LIB_CHILDREN_H
#define TESTS_LIB_CHILDREN_H

#include <stdbool.h>
#include <sys/types.h>

/* A fresh path in /tmp that does not exist yet; you own it. */
char *fresh_path(void);
/* Whether the process is gone (a zombie nobody reaps yet counts as gone: it runs nothing). */
bool gone(pid_t pid);
/* Whether it is gone within `seconds`, polled. */
bool gone_within(pid_t pid, double seconds);
/* Whether every process of the group is gone (zombies count as gone) within `seconds`, polled. */
bool group_gone_within(pid_t group, double seconds);

/*
 * The bound on a wait for what must happen soon (a killed child gone, a child's short script ended): a
 * loaded machine may take seconds, and a bound costs nothing when things go right. A test's .timeout
 * is above every bound it waits on.
 */
#define SOON_S 60
/* Read a pid a helper wrote on a pipe (a failed test if none came). */
pid_t read_pid(int fd);

#endif
