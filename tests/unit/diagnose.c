#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grader/engine/diagnose.h"
#include "grader/exercise/manifest.h"

/* compute-sanitizer's reports as its memcheck, racecheck and synccheck print them */
static const char memcheck_log[] =
	"========= COMPUTE-SANITIZER\n"
	"========= Invalid __global__ write of size 4 bytes\n"
	"=========     at col_sums_kernel(const float *, float *, int, int)+0x1b0 in tests/mistakes/col_sums/guard_off_by_one.cu:17\n"
	"=========     by thread (232,0,0) in block (3,0,0)\n"
	"=========     Address 0x7f0000001000 is out of bounds\n"
	"=========     and is 1 bytes after the nearest allocation at 0x7f0000000060 of size 4000 bytes\n"
	"=========     Saved host backtrace up to driver entry point at kernel launch time\n"
	"=========         Host Frame: [0x2dbe8f] in libcuda.so.1\n"
	"=========\n"
	"========= Invalid __global__ write of size 4 bytes\n"
	"=========     at col_sums_kernel(const float *, float *, int, int)+0x1b0 in tests/mistakes/col_sums/guard_off_by_one.cu:17\n"
	"=========     by thread (1,0,0) in block (0,0,0)\n"
	"========= ERROR SUMMARY: 2 errors\n";

static const char racecheck_log[] =
	"========= COMPUTE-SANITIZER\n"
	"========= Error: Race reported between Write access at tile_transpose_kernel(const float *, float *, int, int)+0x150 in exercises/tile_transpose.cu:20\n"
	"=========     and Read access at tile_transpose_kernel(const float *, float *, int, int)+0x1c0 in exercises/tile_transpose.cu:25 [7936 hazards]\n"
	"=========\n"
	"========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)\n";

static const char synccheck_log[] =
	"========= Barrier error detected. Divergent thread(s) in block\n"
	"=========     at 0x2d0 in exercises/sum_reduction.cu:31:sum_reduction_kernel(const float *, float *, int)\n"
	"=========     by thread (128,0,0) in block (0,0,0)\n";

/* A column-sums case: a, 5 x 1000 floats at 0x7f0000100000; sums, 1000 floats at 0x7f0000000060. */
static struct case_arrays
col_sums_arrays(struct proto_case_info *info, uint64_t *addrs)
{
	memset(info, 0, sizeof(*info));
	info->nbuffers = 2;
	strcpy(info->buffers[0].name, "a");
	info->buffers[0].rows = 5, info->buffers[0].cols = 1000;
	strcpy(info->buffers[1].name, "sums");
	info->buffers[1].rows = 1, info->buffers[1].cols = 1000;
	info->buffers[1].is_output = 1;
	memset(addrs, 0, PROTO_MAX_BUFFERS * sizeof(*addrs));
	addrs[0] = 0x7f0000100000, addrs[1] = 0x7f0000000060;
	return (struct case_arrays){ info, addrs };
}

Test(diagnose, memcheck_names_the_array_and_the_element, .timeout = 5)
{
	struct proto_finding f[4];
	cr_assert_eq(diagnose_parse_sanitizer(memcheck_log, f, 4), 1);
	cr_assert_eq(f[0].kind, FINDING_OUT_OF_BOUNDS);
	cr_assert_eq(f[0].count, 2);
	cr_assert(f[0].write);
	cr_assert_eq(f[0].thread[0], 232);
	cr_assert_eq(f[0].block[0], 3);
	cr_assert_str_eq(f[0].where, "tests/mistakes/col_sums/guard_off_by_one.cu:17");

	/* sums: 1000 floats at 0x7f0000000060, so the address is sums[1000] */
	struct proto_case_info info;
	uint64_t addrs[PROTO_MAX_BUFFERS];
	struct case_arrays arrays = col_sums_arrays(&info, addrs);
	f[0].addr = 0x7f0000000060 + 4000;
	struct grade_result r;
	memset(&r, 0, sizeof(r));
	char *message = diagnose_finding(&r, &f[0], &arrays, 1);
	cr_assert(strstr(message, "thread (232,0,0) of block (3,0,0) wrote sums[1000], one past the end of sums (1000 elements)"),
		  "%s", message);
	cr_assert_str_eq(r.diagnostics[0].kind, "out_of_bounds");
	cr_assert_str_eq(r.diagnostics[0].file, "tests/mistakes/col_sums/guard_off_by_one.cu");
	cr_assert_eq(r.diagnostics[0].line, 17);
	free(message);
}

Test(diagnose, racecheck_gives_both_lines, .timeout = 5)
{
	struct proto_finding f[4];
	cr_assert_eq(diagnose_parse_sanitizer(racecheck_log, f, 4), 1);
	cr_assert_eq(f[0].kind, FINDING_RACE);
	cr_assert(f[0].write);
	cr_assert(!f[0].other_write);
	cr_assert_eq(f[0].count, 7936);
	cr_assert_str_eq(f[0].where, "exercises/tile_transpose.cu:20");
	cr_assert_str_eq(f[0].other_where, "exercises/tile_transpose.cu:25");
}

Test(diagnose, synccheck_is_barrier_divergence, .timeout = 5)
{
	struct proto_finding f[4];
	cr_assert_eq(diagnose_parse_sanitizer(synccheck_log, f, 4), 1);
	cr_assert_eq(f[0].kind, FINDING_BARRIER);
	cr_assert_str_eq(f[0].where, "exercises/sum_reduction.cu:31");
	cr_assert_eq(f[0].thread[0], 128);
}

Test(diagnose, ncu_csv_sums_kernels, .timeout = 5)
{
	static const char csv[] =
		"==PROF== Connected to process 1234\n"
		"\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
		"\"0\",\"1234\",\"runner\",\"h\",\"k\",\"1\",\"7\",\"Command line profiler metrics\",\"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum\",\"\",\"524,288\"\n"
		"\"0\",\"1234\",\"runner\",\"h\",\"k\",\"1\",\"7\",\"Command line profiler metrics\",\"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum\",\"sector\",\"16,777,216\"\n"
		"\"0\",\"1234\",\"runner\",\"h\",\"k\",\"1\",\"7\",\"Command line profiler metrics\",\"smsp__inst_executed_op_shared_ld.sum\",\"inst\",\"524288\"\n"
		"\"0\",\"1234\",\"runner\",\"h\",\"k\",\"1\",\"7\",\"Command line profiler metrics\",\"smsp__inst_executed_op_shared_st.sum\",\"inst\",\"524288\"\n"
		"\"0\",\"1234\",\"runner\",\"h\",\"k\",\"1\",\"7\",\"Command line profiler metrics\",\"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum\",\"\",\"16,252,928\"\n"
		"\"0\",\"1234\",\"runner\",\"h\",\"k\",\"1\",\"7\",\"Command line profiler metrics\",\"launch__thread_count\",\"thread\",\"16,777,216\"\n"
		"\"0\",\"1234\",\"runner\",\"h\",\"k\",\"1\",\"7\",\"Command line profiler metrics\",\"dram__bytes_read.sum\",\"byte\",\"67108864\"\n"
		"\"0\",\"1234\",\"runner\",\"h\",\"k\",\"1\",\"7\",\"Command line profiler metrics\",\"dram__bytes_write.sum\",\"byte\",\"67108864\"\n"
		"\"0\",\"1234\",\"runner\",\"h\",\"k\",\"1\",\"7\",\"Command line profiler metrics\",\"gpu__time_duration.sum\",\"nsecond\",\"131072\"\n";
	struct proto_counts c;
	struct memory_figures f;
	double gbps;
	cr_assert_eq(diagnose_parse_ncu(csv, NULL, &c, &gbps), 1);
	diagnose_figures(&c, "nsight compute", &f);
	cr_assert_float_eq(f.store_sectors_per_request, 32.0, 1e-9);
	cr_assert_lt(f.load_sectors_per_request, 0); /* no load was measured */
	cr_assert_float_eq(f.bank_conflicts_per_request, 15.5, 1e-9);
	cr_assert_float_eq(gbps, 1024.0, 1e-9);
}

Test(diagnose, budgets_allow_a_little_and_no_more, .timeout = 5)
{
	struct budget budgets[] = { { "bank_conflicts_per_request", 0 }, { "sectors_per_request", 4 } };
	struct exercise e = { .name = "transpose", .budgets = budgets, .nbudgets = 2 };
	struct grade_result r;
	memset(&r, 0, sizeof(r));
	r.figures = (struct memory_figures){ .measured = true, .source = "simulator", .load_sectors_per_request = 3.5,
					     .store_sectors_per_request = 4.5, .bank_conflicts_per_request = 0.2,
					     .global_reads_per_thread = 1, .global_writes_per_thread = 1,
					     .dram_gbps = -1, .sectors_per_request = -1,
					     .global_reads_per_output = -1 };
	strcpy(r.figures.shared_where, "exercises/transpose.cu:23");
	cr_assert_null(diagnose_budgets(&e, &r));
	r.figures.bank_conflicts_per_request = 13.3;
	r.figures.store_sectors_per_request = 24.4;
	const char *first = diagnose_budgets(&e, &r);
	cr_assert_not_null(first);
	cr_assert_eq(r.ndiagnostics, 2);
	cr_assert_str_eq(r.diagnostics[0].kind, "bank_conflicts");
	cr_assert_str_eq(r.diagnostics[1].kind, "uncoalesced");
	cr_assert(strstr(r.diagnostics[1].message, "global stores touch 24.4 sectors"), "%s", r.diagnostics[1].message);
	cr_assert_float_eq(r.diagnostics[0].figures[0].value, 13.3, 1e-9);
	/* the simulator named the line that cost most; Nsight Compute names none */
	cr_assert_str_eq(r.diagnostics[0].file, "exercises/transpose.cu");
	cr_assert_eq(r.diagnostics[0].line, 23);
	cr_assert_null(r.diagnostics[1].file);
}

Test(diagnose, read_budgets_advise_and_never_fail, .timeout = 5)
{
	struct budget budgets[] = { { "global_reads_per_output", 2 }, { "sectors_per_request", 4 } };
	struct exercise e = { .name = "sliding_average", .budgets = budgets, .nbudgets = 2 };
	struct grade_result r;
	memset(&r, 0, sizeof(r));
	r.figures = (struct memory_figures){ .measured = true, .source = "simulator", .sectors_per_request = 4.2,
					     .global_reads_per_output = 8, .dram_gbps = -1 };
	/* seven reads per output through L1: said, but nothing to fail on */
	cr_assert_null(diagnose_budgets(&e, &r));
	cr_assert_eq(r.ndiagnostics, 1);
	cr_assert_str_eq(r.diagnostics[0].kind, "global_reads");
	cr_assert(strstr(r.diagnostics[0].message, "advice"), "%s", r.diagnostics[0].message);
	/* an uncoalesced kernel still fails, whatever the advice said first */
	r.figures.sectors_per_request = 32;
	memset(r.diagnostics, 0, sizeof(r.diagnostics));
	r.ndiagnostics = 0;
	const char *first = diagnose_budgets(&e, &r);
	cr_assert_not_null(first);
	cr_assert(strstr(first, "sectors"), "%s", first);
}

Test(diagnose, a_coalesced_float4_load_is_as_good_as_a_float_load, .timeout = 5)
{
	/* a warp's float4 load: 512 bytes, 16 sectors, 16 ideal; a strided scalar store: 32 sectors for 4 */
	struct proto_counts c = { .threads = 32, .load_requests = 1, .load_sectors = 16, .load_ideal = 16,
				  .store_requests = 1, .store_sectors = 4, .store_ideal = 4,
				  .load_bytes = 512, .outputs = 128 };
	struct memory_figures f;
	diagnose_figures(&c, "simulator", &f);
	cr_assert_float_eq(f.load_sectors_per_request, 4.0, 1e-9);
	cr_assert_float_eq(f.sectors_per_request, 4.0, 1e-9);
	cr_assert_float_eq(f.global_reads_per_output, 1.0, 1e-9);
	c.store_sectors = 32;
	diagnose_figures(&c, "simulator", &f);
	cr_assert_float_eq(f.store_sectors_per_request, 32.0, 1e-9);
	/* weighed by the bytes asked for: (16 + 32) sectors for 20 ideal */
	cr_assert_float_eq(f.sectors_per_request, 4 * 48.0 / 20, 1e-9);
}

Test(diagnose, a_word_of_an_allocation_is_named_as_the_array, .timeout = 5)
{
	struct proto_case_info info;
	uint64_t addrs[PROTO_MAX_BUFFERS];
	struct case_arrays arrays = col_sums_arrays(&info, addrs);
	const char text[] = "two blocks update: block (1,0,0) read the word at byte 12 of the 4000-byte allocation at "
			    "0x7f0000000060 (float element 3), which block (0,0,0) wrote; and the word at byte 8 of the "
			    "64-byte allocation at 0x7f0000900000 (float element 2) stays";
	char *named = diagnose_name_words(text, strlen(text), &arrays, 1);
	cr_assert_str_eq(named, "two blocks update: block (1,0,0) read sums[3], which block (0,0,0) wrote; and the word "
				"at byte 8 of the 64-byte allocation at 0x7f0000900000 (float element 2) stays");
	free(named);
	/* the allocation's size must be the array's: an allocation of the submission's own at that address is not it */
	const char other[] = "the word at byte 0 of the 16-byte allocation at 0x7f0000000060 (float element 0)";
	named = diagnose_name_words(other, strlen(other), &arrays, 1);
	cr_assert_str_eq(named, other);
	free(named);
	/* torn text stays as it is */
	const char torn[] = "the word at byte 12 of the 4000-byte allocation at 0x7f0000000060 (float elem";
	named = diagnose_name_words(torn, strlen(torn), &arrays, 1);
	cr_assert_str_eq(named, torn);
	free(named);
}
