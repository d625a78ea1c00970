/* matmul_registers has matmul's interface: the same physical reference. */
#include "matmul.cpp"
