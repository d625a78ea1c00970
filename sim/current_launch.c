/*
 * current_launch.c — what runs now: the launch in progress (its configuration and
 * which run of the order check), whether the runtime itself is at work, and
 * the way out of a launch that must end. launch.c writes the launch,
 * printf.c the runtime's flag; every other module reads them, and any may
 * end the launch with sim_abandon, which jumps back to launch.c.
 *
 * The bottom layer, with error.c and symbols.c: it calls nothing of the
 * simulator's. Above it: fiber.c and printf.c; sched.c; memory.c; fault.c
 * and runtime.c; measure.c and lines.c; check.c; launch.c at the top. Each
 * file calls only those below it (its comment says which), and a layer
 * below hears of one above only through a hook the upper one sets
 * (sched.c's sim_block_started and sim_exited_past).
 */
#include "sim.h"

struct sim_launch sim_cur;
sigjmp_buf sim_abandon_jmp;
cudaError_t sim_abandon_err;
volatile int sim_in_runtime;

void
sim_abandon(cudaError_t err)
{
	sim_abandon_err = err;
	siglongjmp(sim_abandon_jmp, 2);
}
