/* The heat map's figures: the simulator's messages and Nsight Compute's source page, read per line. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "grader/sass/lines.h"

/*
 * The shape of `ncu --import R --page source --print-source cuda,sass --csv`: per function and file,
 * a header, then each CUDA line (its number, its text, "-") followed by its SASS instructions
 * (address, instruction, figures). The columns after the instruction are Nsight's names.
 */
static const char page[] =
	"==PROF== Connected to process 4242\n"
	"\"File Path\",\"/work/exercises/transpose.cu\"\n"
	"\"Function Name\",\"transpose_kernel(const float *, float *, int, int)\"\n"
	"\"Line No\",\"Source\",\"Address\",\"Source\",\"Warp Stall Sampling (All Samples)\",\"Instructions Executed\","
	"\"Address Space\",\"Access Operation\",\"L2 Theoretical Sectors Global\",\"L2 Theoretical Sectors Global Ideal\","
	"\"L1 Wavefronts Shared\",\"L1 Wavefronts Shared Ideal\"\n"
	"\"16\",\"    if (x < cols && y < rows)\",\"-\",\"\",\"10\",\"\",\"\",\"\",\"\",\"\",\"\",\"\"\n"
	"\"\",\"\",\"0x7f0000000100\",\"ISETP.GE.AND P0, PT, R2, UR7, PT\",\"10\",\"16,384\",\"-\",\"-\",\"0\",\"0\",\"0\",\"0\"\n"
	"\"17\",\"        tile[threadIdx.y][threadIdx.x] = in[(size_t)y * cols + x];\",\"-\",\"\",\"200\",\"\",\"\",\"\",\"\","
	"\"\",\"\",\"\"\n"
	"\"\",\"\",\"0x7f0000000110\",\"@!P0 LDG.E R4, desc[UR4][R4.64]\",\"50\",\"16,384\",\"Global\",\"Load\",\"65,536\","
	"\"65,536\",\"0\",\"0\"\n"
	"\"\",\"\",\"0x7f0000000120\",\"@!P0 STS [R7], R4\",\"150\",\"16,384\",\"Shared\",\"Store\",\"0\",\"0\",\"16,384\","
	"\"16,384\"\n"
	"\"23\",\"        out[(size_t)y * rows + x] = tile[threadIdx.x][threadIdx.y]; // \"\"a, b\"\"\",\"-\",\"\",\"640\","
	"\"\",\"\",\"\",\"\",\"\",\"\",\"\"\n"
	"\"\",\"\",\"0x7f0000000130\",\"LDS R7, [R0]\",\"600\",\"16,384\",\"Shared\",\"Load\",\"0\",\"0\",\"524,288\",\"16,384\"\n"
	"\"\",\"\",\"0x7f0000000140\",\"STG.E desc[UR4][R4.64], R7\",\"40\",\"16,384\",\"Global\",\"Store\",\"65,536\","
	"\"65,536\",\"0\",\"0\"\n"
	"\"File Path\",\"/usr/local/cuda/include/sm_30_intrinsics.hpp\"\n"
	"\"Line No\",\"Source\",\"Address\",\"Source\",\"Warp Stall Sampling (All Samples)\",\"Instructions Executed\","
	"\"Address Space\",\"Access Operation\",\"L2 Theoretical Sectors Global\",\"L2 Theoretical Sectors Global Ideal\","
	"\"L1 Wavefronts Shared\",\"L1 Wavefronts Shared Ideal\"\n"
	"\"90\",\"  return x;\",\"-\",\"\",\"5\",\"\",\"\",\"\",\"\",\"\",\"\",\"\"\n"
	"\"\",\"\",\"0x7f0000000150\",\"LDG.E R1, desc[UR4][R2.64]\",\"5\",\"8\",\"Global\",\"Load\",\"256\",\"32\",\"0\",\"0\"\n";

static const char *const paths[] = { "build/gpu/sub/x/source.cu", "/work/exercises/transpose.cu", NULL };

Test(lines, nsight_source_page_goes_to_the_lines_of_the_students_file, .timeout = 5)
{
	struct line_map m = { 0 };
	cr_assert_eq(lines_parse_ncu(&m, page, paths, "exercises/transpose.cu"), 5);
	lines_finish(&m, "exercises/transpose.cu", NULL);
	cr_assert_str_eq(m.source, "nsight compute");
	/* the header's line is not the student's */
	cr_assert_eq(m.n, 3);
	const struct line_figures *load = lines_find(&m, "exercises/transpose.cu", 17);
	const struct line_figures *store = lines_find(&m, "exercises/transpose.cu", 23);
	cr_assert(load && store);
	cr_assert_eq(load->kind[LINE_GLOBAL_LOAD].requests, 16384);
	cr_assert_eq(load->kind[LINE_GLOBAL_LOAD].units, 65536);
	cr_assert_eq(load->kind[LINE_SHARED_STORE].units, 16384);
	cr_assert_eq(store->kind[LINE_SHARED_LOAD].units, 524288);
	cr_assert_eq(store->kind[LINE_GLOBAL_STORE].requests, 16384);
	/* the 32-way conflict is hot, the coalesced line is not, whatever the samples say */
	cr_assert(store->hot);
	cr_assert_not(load->hot);
	cr_assert_not(lines_find(&m, "exercises/transpose.cu", 16)->hot);
	cr_assert_float_eq(m.total_samples, 850, 1e-9);
	lines_release(&m);
}

Test(lines, the_json_has_the_figures_per_request, .timeout = 5)
{
	struct line_map m = { 0 };
	lines_parse_ncu(&m, page, paths, "exercises/transpose.cu");
	lines_finish(&m, "exercises/transpose.cu", NULL);
	cJSON *list = lines_json(&m);
	cr_assert_eq(cJSON_GetArraySize(list), 3);
	cJSON *l = cJSON_GetArrayItem(list, 2);
	cr_assert_eq(cJSON_GetObjectItem(l, "line")->valuedouble, 23);
	cr_assert_float_eq(cJSON_GetObjectItem(l, "sectors_per_request")->valuedouble, 4, 1e-9);
	cr_assert_float_eq(cJSON_GetObjectItem(l, "ideal_sectors_per_request")->valuedouble, 4, 1e-9);
	cr_assert_float_eq(cJSON_GetObjectItem(l, "bank_conflicts_per_request")->valuedouble, 31, 1e-9);
	cr_assert_float_eq(cJSON_GetObjectItem(l, "bytes")->valuedouble, 65536.0 * 32, 1e-9);
	cr_assert_str_eq(cJSON_GetObjectItem(l, "share_of")->valuestring, "time");
	cr_assert_float_eq(cJSON_GetObjectItem(l, "time_pct")->valuedouble, 100.0 * 640 / 850, 1e-9);
	cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(l, "hot")));
	cJSON_Delete(list);
	lines_release(&m);
}

Test(lines, a_page_without_the_students_file_takes_nothing, .timeout = 5)
{
	struct line_map m = { 0 };
	const char *const others[] = { "exercises/col_sums.cu", NULL };
	cr_assert_eq(lines_parse_ncu(&m, page, others, "exercises/col_sums.cu"), 0);
	cr_assert_eq(m.n, 0);
	cr_assert_null(m.source, "nothing of the file was measured");
	cr_assert_eq(lines_parse_ncu(&m, "==PROF== no kernels were profiled\n", others, "x.cu"), -1);
	lines_release(&m);
}

Test(lines, the_simulators_entries_are_checked_before_they_count, .timeout = 5)
{
	struct proto_line p[4];
	memset(p, 0, sizeof(p));
	strcpy(p[0].where, "exercises/col_sums.cu:21");
	p[0].requests = 64, p[0].units = 2048, p[0].ideal = 256;
	strcpy(p[1].where, "exercises/col_sums.cu:22");
	p[1].write = 1, p[1].requests = 2, p[1].units = 8, p[1].ideal = 8;
	memset(p[2].where, 'x', sizeof(p[2].where)); /* no end, no line */
	strcpy(p[3].where, "exercises/col_sums.cu:9");
	p[3].requests = 1, p[3].units = 1, p[3].ideal = 1000000; /* more needed than any request could */
	struct line_map m = { 0 };
	lines_add_proto(&m, p, sizeof(p));
	lines_add_proto(&m, p, sizeof(p[0]) - 1); /* a torn entry is left out */
	lines_finish(&m, "exercises/col_sums.cu", NULL);
	cr_assert_eq(m.n, 2);
	cr_assert(lines_find(&m, "exercises/col_sums.cu", 21)->hot);
	cr_assert_not(lines_find(&m, "exercises/col_sums.cu", 22)->hot);
	lines_release(&m);
}
