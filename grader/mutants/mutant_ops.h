/*
 * mutant_ops.h — the mutation operators, one function each: every place
 * the operator applies to in the maker's source becomes a mutant.
 */
#ifndef CUDALINGS_MUTANT_OPS_H
#define CUDALINGS_MUTANT_OPS_H

#include "grader/mutants/mutant_maker.h"

void mutant_ops_drop_barriers(struct maker *k);
void mutant_ops_bound_guards(struct maker *k);
void mutant_ops_swap_xy(struct maker *k);
void mutant_ops_drop_halos(struct maker *k);
void mutant_ops_drop_padding(struct maker *k);
void mutant_ops_drop_partial_tiles(struct maker *k);
void mutant_ops_plain_stores(struct maker *k);

#endif
