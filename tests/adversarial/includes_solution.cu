// exercise: matmul
// expect: compile
// message: includes 'solutions/matmul.cu'
// Includes the reference solution by a path relative to this file: the
// student's compile may include only its exercise's header and the system's.
#include "../../solutions/matmul.cu"
