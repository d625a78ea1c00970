/*
 * fill.h — the bit pattern the simulator fills shared memory with at the
 * start of every block. A quiet NaN, so arithmetic on a value nobody stored
 * stays NaN, and unlike the harness's output poison (all ones), so the
 * grader can tell "copied from __shared__ memory that no thread stored to"
 * from "never written". Arithmetic may flip the sign; the payload stays.
 */
#ifndef CUDASIM_FILL_H
#define CUDASIM_FILL_H

#define CUDASIM_SHARED_FILL_BITS 0x7fd5d5d5u
/*
 * What a local variable of the student's file holds before it is set: g++'s
 * -ftrivial-auto-var-init=pattern (harness/runner.mk, SIM_CHECK) fills it
 * with this byte, as a GPU register holds garbage. A float of it is about
 * -1.7e38, which swallows what is added to it.
 */
#define CUDASIM_LOCAL_FILL_BYTE 0xfe

#endif
