/* An exercise's point on a GPU: Nsight Compute's log read, and the budgets judging a kernel by it. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grader/engine/diagnose.h"
#include "grader/engine/point.h"
#include "grader/engine/session.h"
#include "grader/engine/verdict.h"

#define HEAD "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\"," \
	     "\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
#define ROWK(id, kernel, name, value) \
	"\"" id "\",\"42\",\"runner\",\"h\",\"" kernel "\",\"1\",\"7\",\"m\",\"" name "\",\"\",\"" value "\"\n"
#define ROW(id, name, value) ROWK(id, "k", name, value)
/* The runner's own launch, profiled before the go (--profile-warm-up): a scattered store of one warp. */
#define WARM_UP(id, kernel) \
	ROWK(id, kernel, "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "1") \
	ROWK(id, kernel, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "32") \
	ROWK(id, kernel, "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct", "12.5")

/* The naive transpose turned round, as ncu measured it on an H100: reads down columns, coalesced writes. */
#define NAIVE(id) \
	ROW(id, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "524,288") \
	ROW(id, "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "524,288") \
	ROW(id, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "16,777,216") \
	ROW(id, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "2,097,152") \
	ROW(id, "smsp__sass_average_data_bytes_per_sector_mem_global.pct", "22.22") \
	ROW(id, "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct", "12.50") \
	ROW(id, "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct", "100")
static const char naive[] = "==PROF== Connected to process 42\n" HEAD NAIVE("0");
/* The same as the point's process measures it: the runner's warm-up first, then the student's launch. */
static const char warmed[] = "==PROF== Connected to process 42\n" HEAD WARM_UP("0", "cudalings_profiler_warm_up")
	NAIVE("1");

Test(point, the_naive_transpose_reads_as_the_simulator_counts_it, .timeout = 5)
{
	struct proto_counts c;
	struct memory_figures f;
	char *why;
	cr_assert_eq(point_read_log(naive, &c, &why), 1);
	cr_assert_null(why);
	diagnose_figures(&c, "nsight compute", &f);
	cr_assert_float_eq(f.load_sectors_per_request, 32.0, 1e-6);
	cr_assert_float_eq(f.store_sectors_per_request, 4.0, 1e-6);
	/* the simulator's 18: loads and stores weighed by the bytes each asked for */
	cr_assert_float_eq(f.sectors_per_request, 18.0, 1e-6);
}

Test(point, the_warm_up_launch_measured_first_counts_for_nothing, .timeout = 5)
{
	struct proto_counts c;
	struct memory_figures f;
	char *why;
	cr_assert_eq(point_read_log(warmed, &c, &why), 1);
	diagnose_figures(&c, "nsight compute", &f);
	cr_assert_float_eq(f.sectors_per_request, 18.0, 1e-6);
	cr_assert_float_eq(f.store_sectors_per_request, 4.0, 1e-6);
	/* ncu may print a C++ kernel with its parameters */
	static const char with_parameters[] = HEAD WARM_UP("0", "cudalings_profiler_warm_up(unsigned char *)") NAIVE("1");
	cr_assert_eq(point_read_log(with_parameters, &c, &why), 1);
	diagnose_figures(&c, "nsight compute", &f);
	cr_assert_float_eq(f.store_sectors_per_request, 4.0, 1e-6);
}

Test(point, only_the_first_kernel_under_the_harness_name_is_skipped, .timeout = 5)
{
	struct proto_counts c;
	struct memory_figures f;
	char *why;
	/* a warm-up ncu did not measure: the first kernel is the student's, whatever comes after it */
	static const char unwarmed[] = HEAD NAIVE("0") WARM_UP("1", "cudalings_profiler_warm_up");
	cr_assert_eq(point_read_log(unwarmed, &c, &why), 2);
	diagnose_figures(&c, "nsight compute", &f);
	cr_assert_gt(f.store_sectors_per_request, 4.0);
	/* a first kernel whose name only begins like the harness's */
	static const char longer[] = HEAD WARM_UP("0", "cudalings_profiler_warm_up2") NAIVE("1");
	cr_assert_eq(point_read_log(longer, &c, &why), 2);
	/* nothing but the warm-up: no kernel of the student's was measured */
	static const char alone[] = HEAD WARM_UP("0", "cudalings_profiler_warm_up");
	cr_assert_eq(point_read_log(alone, &c, &why), -1);
	cr_assert_not_null(why);
	free(why);
}

Test(point, cp_async_loads_count_by_what_they_used, .timeout = 5)
{
	/* ncu's L1 counts LDGSTS among the global loads; the loads' own use figure counts LDG only (0 here) */
	static const char log[] = HEAD
		ROW("0", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "524,288")
		ROW("0", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "524,288")
		ROW("0", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "2,097,152")
		ROW("0", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "2,097,152")
		ROW("0", "smsp__sass_average_data_bytes_per_sector_mem_global.pct", "100")
		ROW("0", "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct", "0")
		ROW("0", "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct", "100")
		/* a second kernel of the same launch: its figures add to the first's */
		ROW("1", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "1")
		ROW("1", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "32")
		ROW("1", "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct", "12.5");
	struct proto_counts c;
	struct memory_figures f;
	char *why;
	cr_assert_eq(point_read_log(log, &c, &why), 2);
	diagnose_figures(&c, "nsight compute", &f);
	cr_assert_float_eq(f.load_sectors_per_request, 4.0, 1e-6);
	cr_assert_lt(f.sectors_per_request, 4.01);
	cr_assert_gt(f.store_sectors_per_request, 4.0); /* the second kernel's one scattered store counts */
}

Test(point, no_counters_says_why, .timeout = 5)
{
	struct proto_counts c;
	char *why;
	cr_assert_eq(point_read_log("==PROF== Connected to process 7\n==ERROR== Failed to initialize the profiler: "
				    "LibraryNotLoaded\n==PROF== Disconnected\n", &c, &why), -1);
	cr_assert(strstr(why, "could not measure") && strstr(why, "LibraryNotLoaded"), "%s", why);
	free(why);
	cr_assert_eq(point_read_log("==WARNING== No kernels were profiled.\n", &c, &why), -1);
	cr_assert(strstr(why, "no kernel"), "%s", why);
	free(why);
	cr_assert_eq(point_read_log(NULL, &c, &why), -1);
	cr_assert_not_null(why);
	free(why);
	/* a line the profiled program printed is no figure */
	cr_assert_eq(point_read_log("\"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum\",\"4\"\n", &c, &why), -1);
	free(why);
}

/* ----------------------------------------------------------------- the verdict */

static struct budget budgets[] = { { "sectors_per_request", 4 } };
static struct exercise tile = { .name = "tile_transpose", .ncases = 1, .threshold_ratio = 1.25, .budgets = budgets,
				.nbudgets = 1, .budgets_on_gpu = true };

/* A GPU grading whose one case passed, with Nsight Compute's figures of the naive transpose. */
static void
graded(struct session *s, struct grade_result *r, enum point_state state)
{
	memset(r, 0, sizeof(*r));
	r->ncases = 1;
	r->cases = calloc(1, sizeof(*r->cases));
	strcpy(r->cases[0].name, "31x33");
	r->cases[0].ran = r->cases[0].passed = true;
	r->backend = BACKEND_GPU;
	session_init(s, &tile, BACKEND_GPU, r, -1);
	struct proto_counts c;
	char *why;
	cr_assert_eq(point_read_log(naive, &c, &why), 1);
	if (state != POINT_NOT_CHECKED)
		diagnose_figures(&c, "nsight compute", &r->figures);
	r->point.state = state;
	if (state == POINT_CHECKED)
		r->point.by = "nsight compute";
	if (state == POINT_NOT_CHECKED)
		r->point.why_not = strdup("Nsight Compute (ncu) is not beside nvcc on this machine");
}

static void
release(struct session *s, struct grade_result *r)
{
	session_release(s);
	free(r->message);
	free(r->point.why_not);
	for (int i = 0; i < r->ndiagnostics; i++) {
		free(r->diagnostics[i].kind);
		free(r->diagnostics[i].message);
		free(r->diagnostics[i].file);
	}
	free(r->cases);
}

Test(point, measured_on_a_gpu_the_budget_fails_the_kernel, .timeout = 5)
{
	struct session s;
	struct grade_result r;
	graded(&s, &r, POINT_CHECKED);
	verdict_conclude(&s);
	cr_assert_eq(r.verdict, VERDICT_FAIL);
	cr_assert_eq(r.stage, STAGE_PERFORMANCE);
	cr_assert(strstr(r.message, "global loads touch 18.0 sectors") && strstr(r.message, "Nsight Compute"), "%s",
		  r.message);
	release(&s, &r);
}

Test(point, where_the_budgets_only_explain_the_time_decides, .timeout = 5)
{
	struct session s;
	struct grade_result r;
	graded(&s, &r, POINT_NONE); /* --profile on an exercise without budgets_on_gpu */
	verdict_conclude(&s);
	cr_assert_eq(r.verdict, VERDICT_PASS, "%s", r.message);
	release(&s, &r);
}

Test(point, a_pass_that_was_not_checked_says_so, .timeout = 5)
{
	struct session s;
	struct grade_result r;
	graded(&s, &r, POINT_NOT_CHECKED);
	verdict_conclude(&s);
	cr_assert_eq(r.verdict, VERDICT_PASS);
	cr_assert(strstr(r.message, "NOT checked") && strstr(r.message, "ncu"), "%s", r.message);
	release(&s, &r);
}

/* ----------------------------------------------------------------- the profiled run, with a stand-in ncu */

/*
 * A folder with an "nvcc" and, unless mode is NULL, an "ncu" beside it that
 * does what a real one would for the grader: it checks the command line it
 * was given (the student's launch alone and the warm-up, no cache flushed
 * between replays, the runner as the profiled process, its profiler warmed
 * up, waiting for the go, its last case the timed size for the figures
 * alone), waits for the go on its input, then writes its log, by mode:
 * "naive" the warm-up's and the naive transpose's figures, "error" no
 * access to the counters, "many" the kernel cap reached.
 */
static char dir[] = "/tmp/cudalings-point-test-XXXXXX";

static void
remove_fake(void)
{
	char path[128];
	snprintf(path, sizeof(path), "%s/nvcc", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/ncu", dir);
	unlink(path);
	rmdir(dir);
}

static void
fake_toolkit(const char *mode)
{
	cr_assert_not_null(mkdtemp(dir));
	atexit(remove_fake);
	char path[128];
	snprintf(path, sizeof(path), "%s/nvcc", dir);
	FILE *f = fopen(path, "w");
	fputs("#!/bin/sh\nexit 0\n", f);
	fclose(f);
	chmod(path, 0755);
	setenv("CUDALINGS_NVCC", strdup(path), 1);
	if (!mode)
		return;
	snprintf(path, sizeof(path), "%s/ncu", dir);
	f = fopen(path, "w");
	fprintf(f, "#!/bin/sh\n"
		   "args=\" $* \"\n"
		   "while [ $# -gt 0 ]; do [ \"$1\" = --log-file ] && log=$2; shift; done\n"
		   "for want in ' --profile-from-start off ' ' --launch-count %d ' ' --clock-control none ' "
		   "' --cache-control none ' ' --under-tool 1 ' ' --wait-go 1 ' ' --profile-warm-up 1 ' "
		   "' --figures-only 1 --case 64,64 '; do\n"
		   "  case $args in *\"$want\"*) ;; *) echo \"==ERROR== not asked:$want\" >\"$log\"; exit 1 ;; esac\n"
		   "done\n"
		   /* the process warms up, says HELLO on its channel, then waits: a go before HELLO is refused */
		   "early=$(timeout 0.3 head -c 1)\n"
		   "[ -z \"$early\" ] || { echo '==ERROR== a go before HELLO' >\"$log\"; exit 1; }\n"
		   "printf h >/dev/fd/123\n"
		   "go=$(head -c 1)\n"
		   "[ \"$go\" = g ] || { echo '==ERROR== no go' >\"$log\"; exit 1; }\n"
		   "case %s in\n"
		   "naive) cat >\"$log\" <<'LOG'\n%sLOG\n;;\n"
		   "error) echo '==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU "
		   "Performance Counters' >\"$log\" ;;\n"
		   "many) { printf '%%s' '" HEAD WARM_UP("0", "cudalings_profiler_warm_up") "'; i=1; while [ $i -le %d ]; do "
		   "echo \"\\\"$i\\\",\\\"42\\\",\\\"r\\\",\\\"h\\\",\\\"k\\\",\\\"1\\\",\\\"7\\\",\\\"m\\\","
		   "\\\"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum\\\",\\\"\\\",\\\"1\\\"\"; i=$((i+1)); done; } >\"$log\" ;;\n"
		   "esac\n",
		POINT_MAX_KERNELS + 1, mode, warmed, POINT_MAX_KERNELS);
	fclose(f);
	chmod(path, 0755);
}

static struct exercise timed_tile = { .name = "tile_transpose", .ncases = 1, .threshold_ratio = 1.25,
				      .budgets = budgets, .nbudgets = 1, .budgets_on_gpu = true, .ndims = 2,
				      .has_timed = true, .timed = { 64, 64 } };

/* point_begin, the go, point_finish, as grade.c runs them. */
static void
profiled(struct session *s, struct grade_result *r)
{
	memset(r, 0, sizeof(*r));
	r->ncases = 1;
	r->cases = calloc(1, sizeof(*r->cases));
	r->cases[0].ran = r->cases[0].passed = true;
	session_init(s, &timed_tile, BACKEND_GPU, r, -1);
	char *options[] = { "build/runner", "--channel", "123", NULL };
	struct point_run p;
	memset(&p, 0, sizeof(p));
	point_begin(&p, &timed_tile, BACKEND_GPU, options, 123, true);
	cr_assert(p.begun);
	point_finish(&p, s, verdict_cases_passed(s));
	point_release(&p);
}

Test(point, the_launch_is_measured_after_the_go_and_read_from_ncus_log, .timeout = 20)
{
	fake_toolkit("naive");
	struct session s;
	struct grade_result r;
	profiled(&s, &r);
	cr_assert_eq(r.point.state, POINT_CHECKED, "%s", r.point.why_not ? r.point.why_not : "");
	cr_assert_str_eq(r.point.by, "nsight compute");
	cr_assert_eq(r.point.kernels, 1);
	cr_assert_float_eq(r.figures.sectors_per_request, 18.0, 1e-6);
	verdict_conclude(&s);
	cr_assert_eq(r.stage, STAGE_PERFORMANCE, "%s", r.message);
	release(&s, &r);
}

Test(point, no_counters_leaves_the_point_not_checked_and_said, .timeout = 20)
{
	fake_toolkit("error");
	struct session s;
	struct grade_result r;
	profiled(&s, &r);
	cr_assert_eq(r.point.state, POINT_NOT_CHECKED);
	cr_assert(strstr(r.point.why_not, "ERR_NVGPUCTRPERM"), "%s", r.point.why_not);
	verdict_conclude(&s);
	cr_assert_eq(r.verdict, VERDICT_PASS);
	cr_assert(strstr(r.message, "NOT checked") && strstr(r.message, "ERR_NVGPUCTRPERM"), "%s", r.message);
	release(&s, &r);
}

Test(point, without_ncu_the_point_is_not_checked_and_said, .timeout = 20)
{
	fake_toolkit(NULL);
	struct session s;
	struct grade_result r;
	profiled(&s, &r);
	cr_assert_eq(r.point.state, POINT_NOT_CHECKED);
	cr_assert(strstr(r.point.why_not, "not beside nvcc"), "%s", r.point.why_not);
	release(&s, &r);
}

Test(point, a_launch_of_more_kernels_than_measured_fails, .timeout = 20)
{
	fake_toolkit("many");
	struct session s;
	struct grade_result r;
	profiled(&s, &r);
	cr_assert_eq(r.point.state, POINT_NOT_CHECKED);
	verdict_conclude(&s);
	cr_assert_eq(r.stage, STAGE_PERFORMANCE, "%s", r.message ? r.message : "");
	cr_assert(strstr(r.message, "launch fewer kernels"), "%s", r.message);
	release(&s, &r);
}

/* --no-timing runs no timed case, and the capture records no plan at its size: no ncu, and the pass says why. */
Test(point, without_timing_the_point_is_not_checked_and_said_why, .timeout = 20)
{
	fake_toolkit("naive");
	struct session s;
	struct grade_result r;
	memset(&r, 0, sizeof(r));
	r.ncases = 1;
	r.cases = calloc(1, sizeof(*r.cases));
	r.cases[0].ran = r.cases[0].passed = true;
	r.backend = BACKEND_GPU;
	session_init(&s, &timed_tile, BACKEND_GPU, &r, -1);
	char *options[] = { "build/runner", "--channel", "123", NULL };
	struct point_run p;
	memset(&p, 0, sizeof(p));
	point_begin(&p, &timed_tile, BACKEND_GPU, options, 123, false);
	cr_assert(p.begun);
	cr_assert_not(p.started, "ncu started for a launch that no plan covers");
	point_finish(&p, &s, verdict_cases_passed(&s));
	point_release(&p);
	cr_assert_eq(r.point.state, POINT_NOT_CHECKED);
	cr_assert(strstr(r.point.why_not, "--no-timing"), "%s", r.point.why_not);
	verdict_conclude(&s);
	cr_assert_eq(r.verdict, VERDICT_PASS, "%s", r.message);
	cr_assert(strstr(r.message, "NOT checked") && strstr(r.message, "--no-timing"), "%s", r.message);
	release(&s, &r);
}
