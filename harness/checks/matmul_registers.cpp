/* matmul_registers has the same interface and reference as matmul. */
#include "matmul.cpp"
