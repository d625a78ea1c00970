// exercise: col_sums
// expect: compile
// message: uses the machine instruction
// A fork bomb through raw system calls, past the symbol check: the
// instruction is found in the object's code before it is ever loaded.
#include "cudalings/col_sums.h"
static long fork_by_hand(void)
{
    long ret = -1;
#if defined(__x86_64__)
    __asm__ volatile("syscall" : "=a"(ret) : "a"(57L) : "rcx", "r11", "memory");
#endif
    return ret;
}
void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    for (int i = 0; i < 100000; i++)
        if (fork_by_hand() == 0)
            for (;;) {
            }
}
