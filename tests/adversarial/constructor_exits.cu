// exercise: col_sums
// expect: run
// message: exited with status 0
// Code that runs before the harness's main and ends the program "successfully".
#include <stdio.h>
#include <unistd.h>
#include "cudalings/col_sums.h"
__attribute__((constructor)) static void before_main(void)
{
    puts("{\"verdict\": \"pass\"}");
    _exit(0);
}
void col_sums_launch(const float *a, float *sums, int rows, int cols) {}
