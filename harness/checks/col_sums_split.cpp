/* col_sums_split has the same interface and reference as col_sums. */
#include "col_sums.cpp"
