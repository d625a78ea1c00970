/*
 * Building runners and judges. The harness, the check, the reference
 * solution and the judge are compiled once and cached under build/; a
 * re-grade after an edit recompiles only the student's file.
 */
#ifndef CUDALINGS_BUILD_H
#define CUDALINGS_BUILD_H

#include <stdbool.h>
#include "manifest.h"
#include "lib/run.h"

enum backend { BACKEND_GPU, BACKEND_SIM };

const char *backend_name(enum backend b);
/* The nvcc to use, or NULL when there is none. */
const char *build_nvcc(void);
/* A program of the CUDA toolkit beside nvcc (compute-sanitizer, ncu), or NULL; you own it. */
char *build_cuda_tool(const char *name);
/* The -arch nvcc builds for: $CUDALINGS_ARCH, else "native". */
const char *build_arch(void);
/* Whether the simulator's tools are built. */
bool build_sim_ready(void);

/* The per-exercise build of one student file. All paths are owned by it. */
struct student_build {
	const struct exercise *e;
	enum backend backend;
	char *source;   /* as the student named it, for messages */
	char *dir;      /* build/<backend>/sub/<hash>/ */
	char *object;
	char *library;  /* the student's shared object, which the runner loads */
	char *runner;   /* the exercise's, shared by every submission */
	char *judge;
	char *compile_source; /* what the compiler reads (the rewritten file on sim) */
	char **compile_argv;  /* NULL when the object is up to date */
	char *compile_line;   /* the command as remembered for the cache */
	char **frontend_argv; /* sim: nvcc's front end over the same file, when nvcc is here; else NULL */
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
int build_prepare(struct student_build *s, const struct exercise *e, enum backend b,
		  const char *student_path, struct buf *log);
/* Rewrite compiler messages so they name the student's file as they gave it, file:line: style. */
char *build_tidy_messages(const struct student_build *s, const char *text);
/* The student's compile succeeded: remember it, so an unchanged file is not compiled again. */
void build_compiled(const struct student_build *s);
/*
 * After a successful compile: whether it included only what a submission may
 * (its exercise's header, the system's headers, files beside it outside the
 * grader's folders). -1 with the reasons in `why`.
 */
int build_check_includes(const struct student_build *s, struct buf *why);
/* After a successful compile: link the student's shared object (cached). -1 with the reason in `log`. */
int build_link(struct student_build *s, struct buf *log);
void build_release(struct student_build *s);

/* Write build/gen/cudalings/NAME.h for every exercise (only when changed). */
int build_headers(const struct manifest *m);

/* For `cudalings check --compile-only`: compile one .cu of an exercise with nvcc; -1 with messages in log. */
int build_compile_only(const struct exercise *e, const char *source, struct buf *log);
/*
 * The student copy's stand-in for the reference solution: "shipped/BACKEND/NAME.o"
 * when it is there, else NULL. You own the result.
 */
char *build_shipped_reference(const struct exercise *e, enum backend b);

#endif
