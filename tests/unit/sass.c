/* The machine code listing's readers: nvcc's PTX, nvdisasm's SASS and ptxas's figures, by source line. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "grader/sass/sass.h"

static const char *const paths[] = { "/tmp/x/source.cu", "/home/ann/reduce.cu", NULL };

/* As nvcc -ptx -lineinfo writes it: a helper inlined at line 26, a header's shuffle inlined in it, the files last. */
static const char ptx[] =
	".visible .entry _Z6reducePKfPfi(\n"
	"\t.param .u64 _Z6reducePKfPfi_param_0\n"
	")\n{\n"
	"\t.reg .b32 \t%r<9>;\n"
	"\t.loc\t1 14 0\n"
	"\tld.param.u64 \t%rd1, [_Z6reducePKfPfi_param_0];\n"
	"\t.loc\t1 26 5\n"
	"\t.loc\t1 11 9, function_name $L__info_string0, inlined_at 1 26 5\n"
	"\t.loc\t2 440 9, function_name $L__info_string1, inlined_at 1 11 9\n"
	"\tshfl.sync.down.b32 \t%r25|%p5, %r20, %r23, %r22, %r24;\n"
	"$L__BB0_2:\n"
	"\t.loc\t1 27 5\n"
	"\tbar.sync \t0;\n"
	"\tret;\n"
	"}\n"
	"\t.file\t1 \"/tmp/x/source.cu\"\n"
	"\t.file\t2 \"/usr/local/cuda/include/sm_30_intrinsics.hpp\"\n";

/* As nvdisasm -gi -c prints it: frames innermost first before an instruction. */
static const char sass[] =
	"\t.target\tsm_90\n"
	"//--------------------- .text._Z6reducePKfPfi     --------------------------\n"
	"_Z6reducePKfPfi:\n"
	".text._Z6reducePKfPfi:\n"
	"\t//## File \"/tmp/x/source.cu\", line 14\n"
	"        /*0000*/                   LDC R1, c[0x0][0x28] ;\n"
	"        /*0010*/                   S2R R5, SR_CTAID.X ;\n"
	"\t//## File \"/usr/local/cuda/bin/../targets/x86_64-linux/include/sm_30_intrinsics.hpp\", line 440 inlined at "
	"\"/tmp/x/source.cu\", line 11\n"
	"\t//## File \"/tmp/x/source.cu\", line 11 inlined at \"/tmp/x/source.cu\", line 26\n"
	"\t//## File \"/tmp/x/source.cu\", line 26\n"
	"        /*02b0*/                   SHFL.DOWN PT, R3, R10, 0x10, 0x1f ;\n"
	"\t//## File \"/usr/local/cuda/include/math.hpp\", line 9\n"
	"        /*02c0*/                   FADD R3, R3, R10 ;\n"
	"\t//## File \"/tmp/x/source.cu\", line 27\n"
	"        /*02d0*/              @!P0 LDG.E.128 R4, desc[UR4][R2.64] ;\n"
	"        /*02e0*/                   NOP;\n";

static const char ptxas[] =
	"ptxas info    : 0 bytes gmem\n"
	"ptxas info    : Compiling entry function '_Z6reducePKfPfi' for 'sm_90'\n"
	"ptxas info    : Function properties for _Z6reducePKfPfi\n"
	"    0 bytes stack frame, 8 bytes spill stores, 4 bytes spill loads\n"
	"ptxas info    : Used 22 registers, used 1 barriers, 128 bytes smem\n";

static const struct sass_line *
line_in(const struct sass_kernel *k, int line)
{
	for (int i = 0; i < k->nlines; i++)
		if (k->lines[i].line == line)
			return &k->lines[i];
	return NULL;
}

Test(sass, instructions_go_under_the_innermost_line_of_the_students_file, .timeout = 5)
{
	struct sass_listing l = { 0 };
	sass_read_ptxas(&l, ptxas);
	sass_read_ptx(&l, ptx, paths);
	sass_read_nvdisasm(&l, sass, paths);
	cr_assert_eq(l.nkernels, 1);
	const struct sass_kernel *k = &l.kernels[0];
	cr_assert_str_eq(k->name, "reduce");
	cr_assert_eq(k->registers, 22);
	cr_assert_eq(k->barriers, 1);
	cr_assert_eq(k->shared_bytes, 128);
	cr_assert_eq(k->spill_stores, 8);
	cr_assert_eq(k->spill_loads, 4);
	/* the shuffle under the helper's line, in PTX and in SASS */
	const struct sass_line *helper = line_in(k, 11);
	cr_assert(helper);
	cr_assert_eq(helper->nptx, 1);
	cr_assert(strstr(helper->ptx[0].text, "shfl.sync.down.b32 %r25|%p5"));
	cr_assert_eq(helper->nsass, 1);
	cr_assert_str_eq(helper->sass[0].text, "SHFL.DOWN PT, R3, R10, 0x10, 0x1f");
	cr_assert_eq(helper->sass[0].address, 0x2b0);
	/* a header's line alone gives none of the student's */
	const struct sass_line *none = line_in(k, 0);
	cr_assert(none && none->nsass == 1 && !strcmp(none->sass[0].text, "FADD R3, R3, R10"));
	const struct sass_line *barrier = line_in(k, 27);
	cr_assert(barrier && barrier->nptx == 2 && barrier->nsass == 1);
	cr_assert_str_eq(barrier->sass[0].text, "@!P0 LDG.E.128 R4, desc[UR4][R2.64]");
	cr_assert_eq(line_in(k, 14)->nsass, 2);
	sass_release(&l);
}

Test(sass, the_json_notes_vector_loads_and_shuffles, .timeout = 5)
{
	struct sass_listing l = { 0 };
	sass_read_nvdisasm(&l, sass, paths);
	cJSON *j = sass_json(&l, NULL);
	char *text = cJSON_PrintUnformatted(j);
	cr_assert(strstr(text, "\"note\":\"warp shuffle\""), "%s", text);
	cr_assert(strstr(text, "\"note\":\"global load, 128-bit\""), "%s", text);
	free(text);
	cJSON_Delete(j);
	sass_release(&l);
}

Test(sass, the_architecture_is_checked, .timeout = 5)
{
	struct sass_listing l = { 0 };
	struct buf err = BUF_INIT;
	cr_assert_eq(sass_choose_arch(&l, "sm_80", &err), 0);
	cr_assert_str_eq(l.arch, "sm_80");
	cr_assert_eq(sass_choose_arch(&l, "sm_90a", &err), 0);
	cr_assert_eq(sass_choose_arch(&l, "sm_8", &err), -1);
	cr_assert_eq(sass_choose_arch(&l, "compute_90", &err), -1);
	cr_assert(strstr(err.data, "'compute_90'"));
	buf_free(&err);
	sass_release(&l);
}
