/*
 * `cudalings check --mutants`: grade every mutant of an exercise's solution
 * (grader/mutants/mutants.h) on the simulator, several at once, and say which pass:
 * each is a mistake the exercise's checks do not see.
 */
#ifndef CUDALINGS_MUTANT_CHECK_H
#define CUDALINGS_MUTANT_CHECK_H

#include "grader/exercise/manifest.h"

/*
 * Grade the mutants of e's solution, `jobs` at a time, and print a line for
 * each (the diff of each that passes). Returns the number of problems: a
 * mutant that passes and workbook.json does not call equivalent, an
 * equivalent_mutants entry that names no mutant or one the checks kill.
 * -1 when the environment stops it (the grader's side cannot be built).
 */
int mutant_check(const struct exercise *e, int jobs);

#endif
