/*
 * The student's side of a grading's build (submission.c): its folder, its
 * compile, what it may include, its shared object. A re-grade after an edit
 * recompiles only this.
 */
#ifndef CUDALINGS_SUBMISSION_H
#define CUDALINGS_SUBMISSION_H

#include <stdbool.h>

#include "grader/compile/build.h"

/* What the simulator's student compile writes beside its object, for unseen.c: the assembler's listing and
   g++'s last GIMPLE dump. */
#define SUBMISSION_LISTING ".lst"
#define SUBMISSION_DUMP ".opt"

/* The per-exercise build of one student file. All paths are owned by it. */
struct student_build {
	const struct exercise *e;
	enum backend backend;
	char *source;   /* as the student named it, for messages */
	char *dir;      /* build/<backend>/sub/<hash>/ */
	char *object;
	char *library;  /* the student's shared object, which the runner (simulator) or capture process (GPU) loads */
	char *runner;   /* the exercise's, shared by every submission */
	char *capture;  /* GPU: the exercise's capture process, which records the launcher's calls */
	char *device_code; /* GPU: the object's fatbinary, the only part of it the measuring runner loads */
	char *plans;    /* GPU: the checked plans of the launcher's calls, written for the measuring runner */
	char *judge;
	char *compile_source; /* what the compiler reads (the rewritten file on sim) */
	char **compile_argv;  /* NULL when the object is up to date */
	char *compile_line;   /* the command as remembered for the cache */
	char **frontend_argv; /* sim: nvcc's front end over the same file, when nvcc is here; else NULL */
	char *frontend_deps;  /* the list of files it read (-MD), which frontend_cache.c remembers */
	char **scan_argv;     /* sim: the preprocessor's list of what the original file includes */
	char *nvcc_link;      /* a plain-named link nvcc reads the file through, when its name would trip nvcc */
	int dir_lock;         /* held while this grading uses `dir`; -1 when not */
	bool private_dir;     /* another grading of the file held the usual folder: this one, removed after */
};

/*
 * Build everything of the exercise that is not the student's (cached), and
 * prepare the student's compile. Returns -1 with the reason in `log`: an
 * instructor-side problem (a broken check or solution) or a missing tool.
 */
int submission_prepare(struct student_build *s, const struct exercise *e, enum backend b,
		  const char *student_path, struct buf *log);
/*
 * Compiler messages in the student's terms, file:line: style: the file named
 * `shown` (as they gave it; NULL: as built), quoting only files they may
 * read (quote.h), no absolute path of the workbook. You own the result.
 */
char *submission_tidy_messages(const struct student_build *s, const char *text, const char *shown);
/* The student's compile succeeded: remember it, so an unchanged file is not compiled again. */
void submission_compiled(const struct student_build *s);
/*
 * After a successful compile: whether it included only what a submission may
 * (its exercise's header, the system's headers, files beside it outside the
 * grader's folders). -1 with the reasons in `why`.
 */
int submission_check_includes(const struct student_build *s, struct buf *why);
/* After a successful compile: link the student's shared object (cached). -1 with the reason in `log`. */
int submission_link(struct student_build *s, struct buf *log);
void submission_release(struct student_build *s);
/* What the simulator cannot run that the student's file uses (CUB, inline PTX…), by its marks; NULL when none. */
const char *submission_beyond_simulator(const struct student_build *s);

#endif
