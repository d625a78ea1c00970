#include <criterion/criterion.h>
#include <string.h>

#include "grader/engine/estimate.h"
#include "grader/exercise/manifest.h"

/* A 2D exercise timed at 4096 x 4096, measured at 256 x 256: every count scales by 256. */
static struct exercise exercise = { .name = "t", .ndims = 2, .has_timed = true, .timed = { 4096, 4096 },
				    .threshold_ratio = 1.25 };
static const int measured[PROTO_MAX_DIMS] = { 256, 256 };

/* One launch over 256 x 256 floats, read once and written once, four elements a thread (four loads in flight):
 * sectors per request as given. */
static struct proto_launch
copy_launch(unsigned sectors_per_request, unsigned blocks)
{
	struct proto_launch l;
	memset(&l, 0, sizeof(l));
	l.grid[0] = blocks, l.grid[1] = l.grid[2] = 1;
	l.block[0] = 16384 / blocks, l.block[1] = l.block[2] = 1;
	l.threads = 16384;
	l.loads = l.stores = 65536;
	l.load_bytes = l.store_bytes = 65536 * 4;
	l.load_intervals = 16384;
	l.detail_blocks = 32;
	/* the first 32 blocks' requests: a warp's 128 bytes each, four times */
	uint64_t requests = 32 * 4 * (16384 / blocks) / 32;
	l.load_requests = l.store_requests = requests;
	l.load_ideal = l.store_ideal = 4 * requests;
	l.load_sectors = l.store_sectors = sectors_per_request * requests;
	l.load_lines = l.store_lines = (sectors_per_request == 4 ? 1 : sectors_per_request) * requests;
	l.load_block_sectors = l.load_sectors;
	l.case_bytes = 2 * 65536 * 4;
	l.sms = 2;
	return l;
}

static void
make(const struct proto_launch *student, const struct proto_launch *reference, const struct proto_launch *shapes,
     struct estimate *e)
{
	struct proto_launch launches[4][PROTO_MAX_LAUNCHES];
	int n[4] = { 1, 1, shapes ? 1 : 0, 0 }; /* the reference's shape: its measured one, scaled */
	memset(launches, 0, sizeof(launches));
	launches[0][0] = *student;
	launches[1][0] = *reference;
	if (shapes)
		launches[2][0] = *shapes;
	estimate_make(&exercise, measured, (const struct proto_launch (*)[PROTO_MAX_LAUNCHES])launches, n, e);
}

Test(estimate, the_reference_against_itself_is_one, .timeout = 5)
{
	struct proto_launch l = copy_launch(4, 64);
	struct estimate e;
	make(&l, &l, NULL, &e);
	cr_assert(e.made);
	cr_assert_float_eq(e.ratio, 1.0, 1e-9);
	cr_assert_str_eq(e.gpu, "H100");
	cr_assert(strstr(e.text, "estimated 1.00× the reference on an H100 (from the simulator's counts; a GPU decides)"),
		  "%s", e.text);
	/* 128 MiB at the copy's rate: within a few µs of 45 */
	cr_assert(e.student.us > 40 && e.student.us < 60, "%f", e.student.us);
	cr_assert_str_eq(e.bound, "DRAM");
}

Test(estimate, scattered_lanes_are_slower, .timeout = 5)
{
	struct proto_launch good = copy_launch(4, 64), bad = copy_launch(32, 64);
	struct estimate e;
	make(&bad, &good, NULL, &e);
	cr_assert(e.made);
	cr_assert_gt(e.ratio, 1.25, "32 sectors a request: %f", e.ratio);
}

Test(estimate, the_shape_at_the_timed_size_decides_the_waves, .timeout = 5)
{
	/* one block of 256 threads measured; at the timed size the launcher asks for 16 of them, a thread per column:
	   one wave on 16 SMs, each thread walking 4096 rows */
	struct proto_launch m = copy_launch(4, 64), shape;
	m.grid[0] = 1, m.block[0] = 256, m.threads = 256;
	m.load_intervals = 256; /* no barrier: each thread's 256 loads in one interval */
	memset(&shape, 0, sizeof(shape));
	shape.grid[0] = 16, shape.grid[1] = shape.grid[2] = 1;
	shape.block[0] = 256, shape.block[1] = shape.block[2] = 1;
	struct proto_launch reference = copy_launch(4, 64);
	struct estimate e;
	make(&m, &reference, &shape, &e);
	cr_assert(e.made);
	cr_assert_gt(e.ratio, 1.25, "a thread per column, 4096 threads in all: %f", e.ratio);
	cr_assert_str_eq(e.bound, "latency");
}

Test(estimate, nothing_measured_makes_no_estimate, .timeout = 5)
{
	struct proto_launch launches[4][PROTO_MAX_LAUNCHES];
	int n[4] = { 0, 1, 0, 0 };
	struct estimate e;
	memset(launches, 0, sizeof(launches));
	launches[1][0] = copy_launch(4, 64);
	estimate_make(&exercise, measured, (const struct proto_launch (*)[PROTO_MAX_LAUNCHES])launches, n, &e);
	cr_assert_not(e.made);
}
