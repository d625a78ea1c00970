// exercise: tile_transpose
// expect: compile
// message: refers to 'ref__tile_transpose_launch'
// Names the reference launcher through an assembler label, so that no
// identifier in the source spells it.
#include "cudalings/tile_transpose.h"

#define LABEL(x) __asm__(#x)
void theirs(const float *in, float *out, int rows, int cols) LABEL(ref__tile_transpose_launch);

void tile_transpose_launch(const float *in, float *out, int rows, int cols)
{
    theirs(in, out, rows, cols);
}
