/*
 * gradable: whether a file can be graded at all, said the same way by
 * `cudalings grade --file` (exit 2) and by a batch (the student's row).
 */
#ifndef CUDALINGS_GRADABLE_H
#define CUDALINGS_GRADABLE_H

#include <stddef.h>

#define MAX_SUBMISSION_BYTES (1024 * 1024)

/*
 * Why `path` cannot be a submission — a symbolic link (gradable_linked_reason), a
 * folder, a FIFO or a device, a file
 * that cannot be read, an empty one, one over 1 MB, one that is not text —
 * or NULL when it can. The reason calls it `name`. You own the result.
 */
char *gradable_reason(const char *path, const char *name);

/*
 * Why `path` cannot be trusted to be the file it names: it is a symbolic
 * link, lies under one (each folder of it from byte `from` on), or really
 * lies outside the folder it is named in. NULL when none. A link would
 * have the grader read, with its rights, what the student could not
 * (solutions/, any file of the machine). You own the result.
 */
char *gradable_linked_reason(const char *path, size_t from, const char *name);

#endif
