/*
 * Inspecting the student's object before it is linked into a runner: it may
 * define its kernels, device functions, its launcher and its own statics,
 * and call what a kernel exercise needs; not replace a function of the C
 * library, the CUDA runtime or the harness, and not open files, start
 * processes, load libraries, make streams or graphs, call cuBLAS or copy
 * memory itself.
 */
#ifndef CUDALINGS_INSPECT_H
#define CUDALINGS_INSPECT_H

#include "grader/exercise/manifest.h"
#include "lib/util.h"

/*
 * INSPECT_OK when the object is acceptable; INSPECT_REFUSED with one line per
 * problem in `why` ("defines 'malloc': …"), naming the symbol and the reason;
 * INSPECT_NO_LAUNCHER when it is acceptable but lacks the launcher (a wrong
 * name or signature); INSPECT_CANNOT when nm could not run (said in `why`).
 */
enum inspect_result { INSPECT_OK = 0, INSPECT_REFUSED = -1, INSPECT_NO_LAUNCHER = 1, INSPECT_CANNOT = -2 };
int inspect_object(const struct exercise *e, const char *object, struct buf *why);

/*
 * The first identifier of source `text` (comments and strings aside) that names a call a kernel exercise
 * may not make, and *why; NULL when none. For a file that did not compile, so has no object to inspect.
 * The name is in a buffer of this file's, valid until the next call.
 */
const char *inspect_source_calls(const struct exercise *e, const char *text, const char **why);

/* Whether `name` is what the C++ compiler makes of the identifier `want` (or is `want`). */
int inspect_symbol_names(const char *name, const char *want);

#endif
