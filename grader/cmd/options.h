/*
 * options: a command's options declared as data (git's parse-options), read
 * with getopt_long, and the usage text made from the same tables, so the
 * help never disagrees with what is accepted.
 */
#ifndef CUDALINGS_OPTIONS_H
#define CUDALINGS_OPTIONS_H

#include <stdbool.h>
#include <stdio.h>

/* One option: --name, or --name VALUE when `value` names what it takes. */
struct option_spec {
	const char *name;
	const char *value; /* "PATH", "N": the option takes one; NULL: a switch */
	const char *help;  /* one line for `cudalings help COMMAND` */
	bool required;     /* a value the command cannot do without (batch's --out) */
};

/* Tables are written with these (git's OPT_BOOL, OPT_STRING), ended by OPTIONS_END. */
#define OPT_SWITCH(name, help) { (name), NULL, (help), false }
#define OPT_VALUE(name, value, help) { (name), (value), (help), false }
#define OPT_REQUIRED(name, value, help) { (name), (value), (help), true }
#define OPTIONS_END { NULL, NULL, NULL, false }
#define OPTIONS_MAX 24

/* A command's words as read: which options were given, their values, and the operands in order. */
struct parsed_args {
	const struct option_spec *specs;
	bool given[OPTIONS_MAX];
	const char *value[OPTIONS_MAX];
	char **operands;
	int noperands;
};

/*
 * Read argv (argv[0] is the command's name) against the NULL-terminated
 * specs. On a mistake, says which (an unknown option, a value missing for
 * '--file', a required option left out) and returns -1; "--help" returns 1
 * (the caller prints the usage).
 */
int options_parse(const char *command, const struct option_spec *specs, int argc, char **argv,
		  struct parsed_args *out);
bool options_given(const struct parsed_args *a, const char *name);
/* The value given to --name, or NULL. */
const char *options_value(const struct parsed_args *a, const char *name);
/* "[--file PATH] [--json]" wrapped at `width` columns, each line after the first indented by `indent`. */
void options_synopsis(FILE *out, const struct option_spec *specs, int indent, int width);
/* One line per option: "  --file PATH   the file to grade". */
void options_describe(FILE *out, const struct option_spec *specs);

#endif
