/*
 * error: messages in git's style, one path for every program of the project.
 *
 *	return error("cannot read '%s': %s", path, strerror(errno));
 *
 * A message is lower-case, without a trailing full stop, its arguments
 * quoted; the program's name goes in front ("cudalings: cannot read …").
 * die() is for the top level of a program only.
 */
#ifndef LIB_ERROR_H
#define LIB_ERROR_H

#include <stdbool.h>

/* The name in front of every message; by default the name the program was started under. */
void error_set_program(const char *name);
/*
 * Whether error() and warn() print on stderr (the default). A full-screen
 * program turns it off and shows last_error() itself.
 */
void error_set_print(bool print);

/* Say what went wrong and return -1. */
int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Say something that deserves attention but stops nothing ("warning: …"). */
void warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The last message error() or warn() made, or "" (the storage stays the library's). */
const char *last_error(void);

/* Run before a message is printed on stderr: a line rewritten in place (a grading's progress) clears itself. */
extern void (*error_print_hook)(void);
/* Run before die() prints: a full-screen program leaves its screen there. */
extern void (*die_hook)(void);
/* Print "fatal: …" and exit with `status` (lib/exit.h names them). */
void die(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));

#endif
