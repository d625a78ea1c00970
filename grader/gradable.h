/*
 * gradable: whether a file can be graded at all, said the same way by
 * `cudalings grade --file` (exit 2) and by a batch (the student's row).
 */
#ifndef CUDALINGS_GRADABLE_H
#define CUDALINGS_GRADABLE_H

#define MAX_SUBMISSION_BYTES (1024 * 1024)

/*
 * Why `path` cannot be a submission — a folder, a FIFO or a device, a file
 * that cannot be read, an empty one, one over 1 MB, one that is not text —
 * or NULL when it can. The reason calls it `name`. You own the result.
 */
char *ungradable_reason(const char *path, const char *name);

#endif
