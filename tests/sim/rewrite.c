/*
 * The rewriter (build/sim/cudasim-rewrite): tricky sources that compiled and
 * ran (kernels/tricky.cu), input it must refuse with "file:line: message",
 * and #line correctness through a deliberate compile error.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "cudasim.h"
#include "tests/sim/kernels/kernels.h"
#include "tests/sim/sim_test.h"

/* as the grader rewrites and compiles a file (harness/runner.mk) */
#include "grader/runner_mk.h"
#define REWRITE SIM_REWRITE
#define SIM_COMPILE_LINE SIM_CXX_LINE " " SIM_CXXFLAGS_LINE

Test(rewrite, tricky_sources_run, .timeout = 10)
{
	char text[256];
	int v[16];

	cr_assert_eq(sim_tricky(text, sizeof(text), v), cudaSuccess, "%s", cudasimLastErrorDetail());
	cr_assert_eq(v[0], 4, "a<<b>>c is a shift");
	cr_assert_eq(v[1], 1000, "digit separators");
	cr_assert_eq(v[2], mark_line("tests/sim/kernels/tricky.cu", "line_probe"),
		     "__LINE__ after multi-line launches");
	for (int i = 0; i < 4; i++) {
		cr_assert_eq(v[3 + i], 14, "ns::fill<int, 1 << 2>: element %d", i);
		cr_assert_eq(v[7 + i], 7, "deduced template with a multi-line config: element %d", i);
	}
	cr_assert_eq(v[11], 34, "nested parentheses in the config");
	cr_assert_eq(v[12], 56, "a launch inside a macro");
	cr_assert_eq(v[13], 56, "__shared__ in a __device__ __forceinline__ function");
	cr_assert_eq(v[14], 56, "__launch_bounds__ and __restrict__");
	cr_assert_eq(v[15], 12 + 30 + 1, "kernels from an array, a conditional, k<int, (2 > 1)>");
	cr_assert_str_eq(text, "k<<<1, 2>>>(x) in a string|k<<<g, b>>>() in a \"raw\" string|\"<");
}

Test(rewrite, a_shared_variable_of_a_type_defined_in_its_declaration, .timeout = 10)
{
	int value = 0;

	cr_assert_eq(sim_shared_struct(&value), cudaSuccess, "%s", cudasimLastErrorDetail());
	cr_assert_eq(value, 31 * 32 / 2 + 100, "__shared__ struct { ... } st, other: %d", value);
}

Test(rewrite, device_pointers_to_functions_are_device_variables, .timeout = 10)
{
	int value = 0;

	cr_assert_eq(sim_checked_device_function_pointers(&value), cudaSuccess, "%s", cudasimLastErrorDetail());
	cr_assert_eq(value, -20, "steps[1](scale(again(5))): %d", value);
}

Test(rewrite, launch_bounds_known_before_the_first_launch, .timeout = 10)
{
	int max_threads = 0, block = 0;

	cr_assert_eq(sim_bounds_known(&max_threads, &block), cudaSuccess, "%s", cudasimLastErrorDetail());
	cr_assert_eq(max_threads, 96, "cudaFuncGetAttributes: %d threads at most", max_threads);
	cr_assert(block > 0 && block <= 96, "cudaOccupancyMaxPotentialBlockSize: a block of %d", block);
}

Test(rewrite, launch_bounds_of_instances_and_overloads, .timeout = 10)
{
	int bounds[5] = { 0 }, block = 0, launch = -1;

	cr_assert_eq(sim_bounds_of_instances(bounds, &block, &launch), cudaSuccess, "%s", cudasimLastErrorDetail());
	cr_assert_eq(bounds[0], 128, "bounded_t<128>: %d threads at most", bounds[0]);
	cr_assert_eq(bounds[1], 512, "bounded_t<1024>, bounded at 1024 > 512 ? 512 : 1024: %d", bounds[1]);
	cr_assert_eq(bounds[2], 64, "bounded_o(int *), bounded at 1 << 6: %d", bounds[2]);
	cr_assert_eq(bounds[3], 32, "bounded_o(float *), bounded at 32: %d", bounds[3]);
	cr_assert_eq(bounds[4], 16, "cudaOccupancyMaxPotentialBlockSize for a bound under a warp: %d", bounds[4]);
	/* a bound no query could know: the launch sized by the simulator's answer runs */
	cr_assert_gt(block, 64, "the occupancy API knew a bound the rewriter could not register: %d", block);
	cr_assert_eq(launch, cudaSuccess, "a launch sized by an answer that did not know the bound failed: %s",
		     cudaGetErrorString((cudaError_t)launch));
}

Test(rewrite, occupancy_with_shared_memory_by_block_size, .timeout = 10)
{
	int unbounded = 0, bounded = 0;

	cr_assert_eq(sim_block_by_smem(&unbounded, &bounded), cudaSuccess, "%s", cudasimLastErrorDetail());
	cr_assert_eq(unbounded, 256, "8 blocks of 256 threads, or 1 of more: %d", unbounded);
	cr_assert_eq(bounded, 128, "a kernel bounded at 128: %d", bounded);
}

struct run {
	int status;
	char err[8192];
};

/* Run a shell command, keeping its exit status and what it wrote to stderr. */
static struct run
sh(const char *fmt, ...)
{
	char cmd[4096];
	struct run r = { 0 };
	va_list ap;
	FILE *p;
	size_t n;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	strncat(cmd, " 2>&1 >/dev/null", sizeof(cmd) - strlen(cmd) - 1);
	p = popen(cmd, "r");
	cr_assert(p, "cannot run %s", cmd);
	n = fread(r.err, 1, sizeof(r.err) - 1, p);
	r.err[n] = '\0';
	r.status = pclose(p);
	r.status = WIFEXITED(r.status) ? WEXITSTATUS(r.status) : -1;
	return r;
}

static char dir[64];

static void
make_dir(void)
{
	snprintf(dir, sizeof(dir), "/tmp/cudasim-rewrite-XXXXXX");
	cr_assert(mkdtemp(dir));
}

static void
remove_dir(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		cr_log_warn("could not remove %s", dir);
}

static void
write_file(const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	cr_assert(f, "cannot write %s", path);
	fputs(text, f);
	fclose(f);
}

Test(rewrite, compile_error_keeps_its_line, .init = make_dir, .fini = remove_dir, .timeout = 30)
{
	struct run r;
	char want[256];

	write_file("k.cu",
		   "#include <cuda_runtime.h>\n"				/* 1 */
		   "__global__ void k(float *a, int n)\n"			/* 2 */
		   "{\n"							/* 3 */
		   "\textern __shared__ float\n"				/* 4 */
		   "\t\tdyn[];\n"						/* 5 */
		   "\t__shared__ float s[32],\n"				/* 6 */
		   "\t\tt[32];\n"						/* 7 */
		   "\ts[0] = t[0] = dyn[0];\n"					/* 8 */
		   "\ta[0] = s[0];\n"						/* 9 */
		   "}\n"							/* 10 */
		   "void launch(float *a)\n"					/* 11 */
		   "{\n"							/* 12 */
		   "\tk<<<dim3(1,\n"						/* 13 */
		   "\t      1),\n"						/* 14 */
		   "\t    32, 4 * sizeof(float)>>>(a,\n"			/* 15 */
		   "\t\t/* n */ 32);\n"						/* 16 */
		   "\tint x = not_declared_anywhere;\n"				/* 17 */
		   "}\n");
	r = sh("%s %s/k.cu %s/k.cpp", REWRITE, dir, dir);
	cr_assert_eq(r.status, 0, "%s", r.err);
	r = sh("%s -fsyntax-only %s/k.cpp", SIM_COMPILE_LINE, dir);
	cr_assert_neq(r.status, 0, "the deliberate error compiled");
	snprintf(want, sizeof(want), "%s/k.cu:17:", dir);
	cr_assert(strstr(r.err, want), "g++ did not report %s:\n%s", want, r.err);
	cr_assert(strstr(r.err, "not_declared_anywhere"), "%s", r.err);
	cr_assert_eq(strstr(r.err, "k.cpp"), NULL, "an error names the rewritten file:\n%s", r.err);
}

struct bad_input {
	char src[256];
	int line;
	char message[96];
};

static struct bad_input bad_inputs[] = {
	{ "void f()\n{\n\tk<<<1, 2(x);\n}\n", 3, "without its closing '>>>'" },
	{ "void f()\n{\n\n\tk<<<1>>>(x);\n}\n", 4, "1 argument between '<<<' and '>>>'" },
	{ "void f()\n{\n\tk<<<1, 2, 3, 4, 5>>>();\n}\n", 3, "5 arguments" },
	{ "void f()\n{\n\tk<<<1, 2>>>;\n}\n", 3, "followed by the kernel's arguments" },
	{ "void f()\n{\n\t<<<1, 2>>>();\n}\n", 3, "no kernel name" },
	{ "/* a comment\nthat never ends\n", 1, "unterminated comment" },
	{ "__global__ void k(int *p) {}\nvoid f(int *p)\n{\n\tk(p);\n}\n", 4,
	  "'k' is a __global__ function: call it with a launch configuration" },
	{ "template <int N> __global__ void __launch_bounds__(N) t(int *p) {}\n\n"
	  "void f(int *p) { t<32><<<1, 32>>>(p); t<32>(p); }\n", 3, "t<<<grid, block>>>" },
	/* what nvcc's front end refuses, refused without it too */
	{ "static int twice(int v) { return 2 * v; }\n__global__ void k(int *p)\n{\n\tp[0] = twice(p[0]);\n}\n", 4,
	  "calling a __host__ function ('twice') from a __global__ function" },
	{ "void sums(int *p) { p[0] = 1; }\n\nvoid launch(int *p)\n{\n\tsums<<<1, 1>>>(p);\n}\n", 5,
	  "'sums' is a __host__ function, not a __global__ one: it cannot be configured" },
};

ParameterizedTestParameters(rewrite, refuses_with_file_and_line)
{
	return cr_make_param_array(struct bad_input, bad_inputs,
				   sizeof(bad_inputs) / sizeof(bad_inputs[0]));
}

ParameterizedTest(struct bad_input *b, rewrite, refuses_with_file_and_line,
		  .init = make_dir, .fini = remove_dir, .timeout = 10)
{
	struct run r;
	char want[256];

	write_file("bad.cu", b->src);
	r = sh("%s %s/bad.cu %s/bad.cpp", REWRITE, dir, dir);
	cr_assert_eq(r.status, 1, "exit %d for:\n%s", r.status, b->src);
	snprintf(want, sizeof(want), "%s/bad.cu:%d: ", dir, b->line);
	cr_assert(strstr(r.err, want), "expected %s in: %s", want, r.err);
	cr_assert(strstr(r.err, b->message), "expected \"%s\" in: %s", b->message, r.err);
}

Test(rewrite, host_and_device_calls_that_nvcc_takes, .init = make_dir, .fini = remove_dir, .timeout = 30)
{
	struct run r;

	/* overloaded for both sides, __host__ __device__, qualified, a member, a lambda, a host caller */
	write_file("sides.cu",
		   "static int scale(int v) { return v; }\n"
		   "__device__ int scale(int v, int s) { return v * s; }\n"
		   "__host__ __device__ int both(int v) { return v + 1; }\n"
		   "namespace host { int helper(int v) { return v; } }\n"
		   "__device__ int helper(int v) { return v - 1; }\n"
		   "struct acc { int v; __device__ int get() const { return v; } };\n"
		   "__global__ void k(int *p)\n"
		   "{\n"
		   "\tauto add = [](int a) { return a + 1; };\n"
		   "\tacc a{ p[0] };\n"
		   "\tp[0] = scale(both(helper(a.get())), 2) + add(0);\n"
		   "}\n"
		   "void launch(int *p) { k<<<1, 1>>>(p); scale(host::helper(1)); }\n");
	r = sh("%s %s/sides.cu %s/sides.cpp", REWRITE, dir, dir);
	cr_assert_eq(r.status, 0, "%s", r.err);
}

Test(rewrite, explicit_instantiations_of_kernels_are_no_calls, .init = make_dir, .fini = remove_dir, .timeout = 30)
{
	struct run r;

	write_file("inst.cu",
		   "template <int N> __global__ void k(float *p) { p[0] = N; }\n"
		   "template __global__ void k<256>(float *);\n"
		   "extern template __global__ void k<128>(float *);\n"
		   "template void k<64>(float *);\n"
		   "void launch(float *p) { k<256><<<1, 1>>>(p); }\n");
	r = sh("%s %s/inst.cu %s/inst.cpp", REWRITE, dir, dir);
	cr_assert_eq(r.status, 0, "%s", r.err);
	/* a call stays refused */
	write_file("call.cu",
		   "template <int N> __global__ void k(float *p) { p[0] = N; }\n"
		   "void launch(float *p) { k<256>(p); }\n");
	r = sh("%s %s/call.cu %s/call.cpp", REWRITE, dir, dir);
	cr_assert_eq(r.status, 1, "a template kernel called without <<<>>>: %s", r.err);
}

Test(rewrite, register_hints_name_no_kernel, .init = make_dir, .fini = remove_dir, .timeout = 30)
{
	struct run r;

	/* nvcc's __maxnreg__(n) where __launch_bounds__ would stand: the kernel is k, which a launch takes */
	write_file("hint.cu",
		   "__global__ void __maxnreg__(64) k(float *p) { p[0] = 1; }\n"
		   "__device__ __inline_hint__ float f(float v) { return v; }\n"
		   "void launch(float *p) { k<<<1, 1>>>(p); }\n");
	r = sh("%s %s/hint.cu %s/hint.cpp && %s -fsyntax-only %s/hint.cpp", REWRITE, dir, dir, SIM_COMPILE_LINE, dir);
	cr_assert_eq(r.status, 0, "%s", r.err);
	/* and a call of k without <<<>>> is refused, as nvcc refuses it */
	write_file("call.cu",
		   "__global__ void __maxnreg__(64) k(float *p) { p[0] = 1; }\n"
		   "void launch(float *p) { k(p); }\n");
	r = sh("%s %s/call.cu %s/call.cpp", REWRITE, dir, dir);
	cr_assert_eq(r.status, 1, "k called without <<<>>>: %s", r.err);
	cr_assert(strstr(r.err, "'k' is a __global__ function"), "%s", r.err);
}

Test(rewrite, stray_apostrophes_pass_through, .init = make_dir, .fini = remove_dir, .timeout = 30)
{
	struct run r;

	write_file("apos.cu",
		   "#if 0\n"
		   "don't launch k<<<1, 1>>>() here\n"
		   "#endif\n"
		   "#define WHY \"it's\"\n"
		   "__global__ void k(int *p) { p[0] = 1; }\n"
		   "void f(int *p) { k<<<1, 1>>>(p); }\n");
	r = sh("%s %s/apos.cu %s/apos.cpp", REWRITE, dir, dir);
	cr_assert_eq(r.status, 0, "%s", r.err);
	r = sh("%s -fsyntax-only %s/apos.cpp", SIM_COMPILE_LINE, dir);
	cr_assert_eq(r.status, 0, "%s", r.err);
}

Test(rewrite, every_line_stays_in_place, .init = make_dir, .fini = remove_dir, .timeout = 10)
{
	char path[256], line[4096];
	int in_lines = 0, out_lines = 0;
	struct run r;
	FILE *f;

	r = sh("%s tests/sim/kernels/tricky.cu %s/t.cpp", REWRITE, dir);
	cr_assert_eq(r.status, 0, "%s", r.err);
	f = fopen("tests/sim/kernels/tricky.cu", "r");
	while (fgets(line, sizeof(line), f))
		in_lines++;
	fclose(f);
	snprintf(path, sizeof(path), "%s/t.cpp", dir);
	f = fopen(path, "r");
	cr_assert(fgets(line, sizeof(line), f));
	cr_assert_str_eq(line, "#line 1 \"tests/sim/kernels/tricky.cu\"\n");
	while (fgets(line, sizeof(line), f)) {
		out_lines++;
		if (out_lines == mark_line("tests/sim/kernels/tricky.cu", "line_probe"))
			cr_assert(strstr(line, "MARK:line_probe"), "line %d moved: %s", out_lines, line);
	}
	fclose(f);
	cr_assert_eq(out_lines, in_lines);
}

Test(rewrite, quoted_include_beside_the_source, .init = make_dir, .fini = remove_dir, .timeout = 30)
{
	struct run r;

	write_file("shape.h", "#define SHAPE_N 7\n");
	write_file("inc.cu", "#include \"shape.h\"\nint n = SHAPE_N;\n");
	/* OUT.cpp in another folder: g++ alone would look for shape.h there */
	r = sh("mkdir -p %s/out && %s %s/inc.cu %s/out/inc.cpp", dir, REWRITE, dir, dir);
	cr_assert_eq(r.status, 0, "%s", r.err);
	r = sh("%s -fsyntax-only %s/out/inc.cpp", SIM_COMPILE_LINE, dir);
	cr_assert_eq(r.status, 0, "an include beside the .cu was not found:\n%s", r.err);
}

Test(rewrite, header_with_kernels_is_rewritten_too, .init = make_dir, .fini = remove_dir, .timeout = 30)
{
	struct run r;
	char want[256];

	write_file("helpers.cuh",
		   "__device__ int calls;\n"					/* 1 */
		   "template <class K> void launch(K k, int *p)\n"		/* 2 */
		   "{\n"								/* 3 */
		   "\tk<<<1, 32>>>(p);\n"						/* 4 */
		   "\tint y = no_such_name_in_the_header;\n"			/* 5 */
		   "}\n");
	write_file("main.cu",
		   "#include \"helpers.cuh\"\n"
		   "__global__ void k(int *p) { __shared__ int s[32]; s[threadIdx.x] = 1; p[0] = s[0]; }\n"
		   "void f(int *p) { launch(k, p); }\n");
	r = sh("mkdir -p %s/out && %s %s/main.cu %s/out/main.cpp", dir, REWRITE, dir, dir);
	cr_assert_eq(r.status, 0, "%s", r.err);
	r = sh("%s -fsyntax-only %s/out/main.cpp", SIM_COMPILE_LINE, dir);
	snprintf(want, sizeof(want), "%s/helpers.cuh:5:", dir);
	cr_assert(strstr(r.err, want), "expected %s in:\n%s", want, r.err);
	cr_assert(strstr(r.err, "no_such_name_in_the_header"), "%s", r.err);
	cr_assert_eq(strstr(r.err, "<<<"), NULL, "the launch in the header was not rewritten:\n%s", r.err);
}

/*
 * The grader links the student's and the reference's objects, with the same
 * kernel names, into one runner after making every symbol of one of them
 * local: each launch must still run its own object's kernel.
 */
Test(rewrite, same_kernel_names_in_two_objects, .init = make_dir, .fini = remove_dir, .timeout = 60)
{
	static const char kernel[] =
		"#include <cuda_runtime.h>\n"
		"__device__ int counter;\n"
		"__global__ void k(float *p)\n"
		"{\n"
		"\t__shared__ float s[32];\n"
		"\ts[threadIdx.x] = VALUE;\n"
		"\t__syncthreads();\n"
		"\tp[threadIdx.x] = s[31 - threadIdx.x];\n"
		"\tatomicAdd(&counter, 1);\n"
		"}\n"
		"extern \"C\" void launch(float *p) { k<<<1, 32>>>(p); }\n"
		"extern \"C\" int count(void) { int n; cudaMemcpyFromSymbol(&n, counter, sizeof n); return n; }\n";
	static const char main_cpp[] =
		"extern \"C\" void launch(float *), launch_ref(float *);\n"
		"extern \"C\" int count(void), count_ref(void);\n"
		"int main() {\n"
		"\tfloat *d, a[32], b[32];\n"
		"\tcudaMalloc(&d, sizeof a);\n"
		"\tlaunch(d); cudaMemcpy(a, d, sizeof a, cudaMemcpyDeviceToHost);\n"
		"\tlaunch_ref(d); cudaMemcpy(b, d, sizeof b, cudaMemcpyDeviceToHost);\n"
		"\tlaunch(d);\n"
		"\treturn !(a[0] == 1 && b[0] == 2 && count() == 64 && count_ref() == 32 &&\n"
		"\t\t cudaGetLastError() == cudaSuccess);\n"
		"}\n";
	char text[sizeof(kernel) + 16];
	struct run r;

	for (int v = 1; v <= 2; v++) {
		char name[16];
		const char *at = strstr(kernel, "VALUE");

		snprintf(text, sizeof(text), "%.*s%d%s", (int)(at - kernel), kernel, v, at + 5);
		snprintf(name, sizeof(name), "k%d.cu", v);
		write_file(name, text);
		r = sh("%s %s/k%d.cu %s/k%d.cpp && %s -c %s/k%d.cpp -o %s/k%d.o", REWRITE, dir, v, dir,
		       v, SIM_COMPILE_LINE, dir, v, dir, v);
		cr_assert_eq(r.status, 0, "%s", r.err);
	}
	write_file("main.cpp", main_cpp);
	r = sh("objcopy --redefine-sym launch=launch_ref --redefine-sym count=count_ref "
	       "-G launch_ref -G count_ref %s/k2.o %s/k2l.o", dir, dir);
	cr_assert_eq(r.status, 0, "%s", r.err);
	r = sh("%s -c %s/main.cpp -o %s/main.o && " SIM_CXX_LINE " -o %s/runner %s/main.o %s/k1.o %s/k2l.o "
	       SIM_LIB_LINE " " SIM_LIBS_LINE " && %s/runner", SIM_COMPILE_LINE, dir, dir, dir, dir, dir,
	       dir, dir);
	cr_assert_eq(r.status, 0, "each object's launch must run its own kernel:\n%s", r.err);
}

Test(rewrite, pragma_unroll_becomes_gcc_unroll, .init = make_dir, .fini = remove_dir, .timeout = 30)
{
	struct run r;

	write_file("unroll.cu",
		   "__global__ void k(float *p)\n"
		   "{\n"
		   "#pragma unroll\n"
		   "\tfor (int i = 0; i < 4; i++)\n"
		   "\t\tp[i] = (float)i;\n"
		   "#pragma unroll 2\n"
		   "\tfor (int i = 0; i < 4; i++)\n"
		   "\t\tp[i] += (float)i;\n"
		   "}\n"
		   "constexpr int kVec = 4;\n"
		   "template <int N> __global__ void t(float *p)\n"
		   "{\n"
		   "#pragma unroll N\n"
		   "\tfor (int i = 0; i < N; i++)\n"
		   "\t\tp[i] = (float)i;\n"
		   "#pragma unroll (kVec)\n"
		   "\tfor (int i = 0; i < kVec; i++)\n"
		   "\t\tp[i] += (float)i;\n"
		   "}\n"
		   "template __global__ void t<4>(float *);\n");
	r = sh("%s %s/unroll.cu %s/unroll.cpp", REWRITE, dir, dir);
	cr_assert_eq(r.status, 0, "%s", r.err);
	r = sh("%s -Wall -Werror -fsyntax-only %s/unroll.cpp", SIM_COMPILE_LINE, dir);
	cr_assert_eq(r.status, 0, "%s", r.err);
}

Test(rewrite, launch_bounds_name_each_kernel, .init = make_dir, .fini = remove_dir, .timeout = 30)
{
	char path[256], text[8192] = "";
	int named = 0;
	struct run r;
	FILE *f;

	/* a bound across lines with a line comment, default arguments, a pack, a template template parameter,
	   a declaration before the definition, extern "C"; and one of no name, one its parameter hides */
	write_file("bounds.cu",
		   "template <class T> struct box { static constexpr int n = 128; };\n"
		   "__global__ void k(int *p, int n);\n"
		   "__global__ void __launch_bounds__(256 // most\n"
		   "\t, 2) k(int *p, int n = 4) { p[0] = n; }\n"
		   "extern \"C\" __global__ void __launch_bounds__(1 << 7) c(float *p) { p[0] = 1; }\n"
		   "template <class T, int N = 2, class... Ts>\n"
		   "__global__ void __launch_bounds__(box<T>::n >= 64 ? box<T>::n : 64, N) t(T *p, Ts... r) { p[0] = N; }\n"
		   "template <template <class> class B, typename T>\n"
		   "__global__ void __launch_bounds__(B<T>::n) tt(T *p) { p[0] = B<T>::n; }\n"
		   "template <int> __global__ void __launch_bounds__(64) nameless(int *p) { p[0] = 1; }\n"
		   "__global__ void __launch_bounds__(32) hidden(int *hidden) { hidden[0] = 1; }\n"
		   "void launch(int *p, float *q)\n"
		   "{\n"
		   "\tk<<<1, 1>>>(p, 1);\n"
		   "\tc<<<1, 1>>>(q);\n"
		   "\tt<float, 4><<<1, 1>>>(q, 1, 2.0);\n"
		   "\ttt<box, int><<<1, 1>>>(p);\n"
		   "\tnameless<1><<<1, 1>>>(p);\n"
		   "\thidden<<<1, 1>>>(p);\n"
		   "}\n");
	r = sh("%s %s/bounds.cu %s/bounds.cpp", REWRITE, dir, dir);
	cr_assert_eq(r.status, 0, "%s", r.err);
	r = sh("%s -Wall -Werror -fsyntax-only %s/bounds.cpp", SIM_COMPILE_LINE, dir);
	cr_assert_eq(r.status, 0, "%s", r.err);
	snprintf(path, sizeof(path), "%s/bounds.cpp", dir);
	f = fopen(path, "r");
	cr_assert(f, "cannot read %s", path);
	text[fread(text, 1, sizeof(text) - 1, f)] = '\0';
	fclose(f);
	for (const char *p = text; (p = strstr(p, "cudasim_bounds_of<")); p++)
		named++;
	cr_assert_eq(named, 4, "%d kernels registered their bound; all but the nameless template's and the one "
		     "its parameter hides should:\n%s", named, text);
	cr_assert(strstr(text, "(64), __func__, 0);"), "the nameless template's bound, unregistered:\n%s", text);
	cr_assert(strstr(text, "(32), __func__, 0);"), "the hidden kernel's bound, unregistered:\n%s", text);
}
