/* Helpers shared by the simulator's Criterion tests. */
#ifndef TESTS_SIM_TEST_H
#define TESTS_SIM_TEST_H

/* The line of path that holds "MARK:name", or -1. */
int mark_line(const char *path, const char *name);
/* Whether the simulator's error detail mentions "path:line" of the mark. */
int detail_names_mark(const char *path, const char *name);

#endif
