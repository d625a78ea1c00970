/*
 * Building runners and judges (build.c). The harness, the check, the
 * reference solution and the judge are compiled once and cached under
 * build/; a re-grade after an edit recompiles only the student's file
 * (submission.h).
 */
#ifndef CUDALINGS_BUILD_H
#define CUDALINGS_BUILD_H

#include <stdbool.h>
#include "grader/exercise/manifest.h"
#include "grader/compile/toolchain.h"
#include "grader/result.h"
#include "lib/run.h"


const char *build_backend_name(enum backend b);


/*
 * The exercise's runner (harness, check, glue, reference and gold solutions,
 * the physical reference) and its judge, built once per exercise and backend.
 * -1 with the reason in `log`: an instructor-side problem or a missing tool.
 */
int build_runner(const struct exercise *e, enum backend b, const char *runner, struct buf *log);
int build_judge(const struct exercise *e, const char *judge, struct buf *log);
/* On a GPU, the capture process: the student's launcher runs there, and its calls are recorded as plans. */
int build_capture(const struct exercise *e, const char *capture, struct buf *log);
/* Where they are: build/BACKEND/runner/NAME, build/judge/NAME and build/gpu/capture/NAME. You own the paths. */
char *build_runner_path(const struct exercise *e, enum backend b);
char *build_judge_path(const struct exercise *e);
char *build_capture_path(const struct exercise *e);
/* The runner and the judge of an exercise (and on a GPU its capture process), each made unless up to date. */
int build_exercise(const struct exercise *e, enum backend b, struct buf *log);
/* The only folder the student's compile may include from: build/gen/public/NAME/. You own it. */
char *build_public_include(const struct exercise *e);

/* Write build/gen/cudalings/NAME.h for every exercise (only when changed). */
int build_headers(const struct manifest *m);

/* For `cudalings check --compile-only`: compile one .cu of an exercise with nvcc; -1 with messages in log. */
int build_compile_only(const struct exercise *e, const char *source, struct buf *log);
/*
 * The student copy's stand-in for the reference solution: "shipped/BACKEND/NAME.o"
 * when it is there, else NULL. You own the result.
 */
char *build_shipped_reference(const struct exercise *e, enum backend b);
/* Compile the runner's GPU sources (harness/runner*.cu, timing_ways.cu) with nvcc, and the capture process's and
 * the replay's with the toolkit's headers, as build_runner and build_capture would, and no further. */
int build_compile_runner_only(struct buf *log);

#endif
