/* cuda_fp16.h for the CPU simulator: half precision is beyond it (a file that uses __half is graded on a
   GPU, grader/compile/submission.c says so); a file that only names the header, as templates often do,
   compiles. */
#include "cudasim.h"
