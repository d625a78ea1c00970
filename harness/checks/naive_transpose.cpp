/* naive_transpose (demo) has the same interface and reference as transpose. */
#include "transpose.cpp"
