/*
 * command: what a cudalings command is — its name, operands, options and
 * function, declared in its own grader/cmd_NAME.c (git's builtin/NAME.c) and
 * listed in grader/cmd/main.c — and what the commands share: the workbook
 * loaded, an exercise found by name, the backend chosen, usage errors.
 */
#ifndef CUDALINGS_COMMAND_H
#define CUDALINGS_COMMAND_H

#include <stdbool.h>

#include "grader/compile/build.h"
#include "grader/engine/grade.h"
#include "grader/exercise/manifest.h"
#include "grader/cmd/options.h"

struct command {
	const char *name;
	const char *operands;		/* "NAME", "NAME DIR", "[NAME...]": for the usage line */
	int min_operands, max_operands;	/* max -1: any number */
	const char *missing;		/* what to say when operands are missing ("say which exercise, e.g. …") */
	const char *takes;		/* for one too many: "one exercise" */
	const char *summary;		/* one line for `cudalings help` */
	int (*run)(const struct parsed_args *a);
	const struct option_spec *options;
};

/* Each command's file defines its entry; grader/cmd/main.c lists them in the order `cudalings help` shows. */
extern const struct command command_list, command_grade, command_run, command_reset, command_starter,
	command_starters, command_check, command_new, command_batch, command_sass, command_board, command_prepare,
	command_hint, command_status, command_solution;

/* The workbook's manifest, loaded once, and the working directory moved to the workbook: every build
   path is relative to it. Exits 2 when the manifest is broken (it said why). */
struct manifest *command_manifest(void);
/* The item called `name` (an exercise or a demo when need_file), or NULL after saying which there are. */
struct exercise *command_find_exercise(const char *name, bool need_file);
/* Say "cudalings: MESSAGE" and how to see the usage; returns EXIT_USAGE. */
int command_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Fill o->backend from --backend (NULL: the GPU if there is one and nvcc, else the simulator);
   0, or the exit status after saying why. */
int command_choose_backend(struct grade_options *o, const char *requested);
/* A submission the grader will read: a regular, readable text file of at most 1 MB; -1 after saying why not. */
int command_check_submission(const char *path);
/* Whether `file` (NULL: the exercise's own) is the file `own` of the workbook. */
bool command_is_own_file(const char *file, const char *own);
/* The .cu files of demos/NAME/, sorted, relative to the workbook; returns how many. You own them. */
int command_demo_variants(const struct exercise *e, char ***out);
/* The starter of an exercise, from its solution (or the one a student copy ships); NULL after saying why. */
char *command_make_starter(const struct exercise *e);

#endif
