/*
 * Starters are generated from solutions. A solution marks each answer:
 *
 *     // BEGIN SOLUTION: the TODO the student reads
 *     …the answer…
 *     // STARTER
 *     // …lines the starter has instead, commented out here…
 *     // END SOLUTION
 *
 * The starter gets "// TODO: <text>" and the uncommented STARTER lines in
 * place of the block; everything outside blocks is the same in both.
 */
#ifndef CUDALINGS_STARTER_H
#define CUDALINGS_STARTER_H

#include "lib/util.h"

/* The starter made from `solution`; NULL with "path:line: why" in `err`. You own the result. */
char *starter_from_solution(const char *solution, const char *path, struct buf *err);

#endif
