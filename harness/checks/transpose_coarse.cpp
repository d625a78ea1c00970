/* transpose_coarse has the same interface and reference as transpose. */
#include "transpose.cpp"
