/* cuda_bf16.h for the CPU simulator: bfloat16 is beyond it (a file that uses __nv_bfloat16 is graded on a
   GPU, grader/compile/submission.c says so); a file that only names the header, as templates often do,
   compiles. */
#include "cudasim.h"
