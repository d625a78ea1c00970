/*
 * mutant_ops.h — the mutation operators, one function each: every place
 * the operator applies to in the maker's source becomes a mutant.
 */
#ifndef CUDALINGS_MUTANT_OPS_H
#define CUDALINGS_MUTANT_OPS_H

#include "grader/mutants/mutant_maker.h"

void drop_barriers(struct maker *k);
void bound_guards(struct maker *k);
void swap_xy(struct maker *k);
void drop_halos(struct maker *k);
void drop_padding(struct maker *k);
void drop_partial_tiles(struct maker *k);
void plain_stores(struct maker *k);

#endif
