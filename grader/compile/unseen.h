/*
 * On the simulator, machine code of a submission that the simulator's
 * instrumentation did not make (unseen.c): inline assembly, the target's
 * builtins and data among the instructions, read from the compile's own
 * listing and dump and the object's sections.
 */
#ifndef CUDALINGS_UNSEEN_H
#define CUDALINGS_UNSEEN_H

#include "grader/compile/submission.h"
#include "lib/buf.h"

/*
 * After a successful compile on the simulator: 0 when all the object's machine code came from g++'s
 * instrumented compile of C++; -1 with the reasons in `why` (inline assembly, a target builtin, a variable in
 * a code section). 0 on a GPU.
 */
int unseen_check(const struct student_build *s, struct buf *why);

#endif
