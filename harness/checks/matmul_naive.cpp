/* matmul_naive has the same interface and reference as matmul. */
#include "matmul.cpp"
