/* sum_shuffles has the same interface and reference as sum_reduction. */
#include "sum_reduction.cpp"
