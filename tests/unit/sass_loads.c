/* sass_loads: global loads in flight per thread, read from nvdisasm's text. */
#include <criterion/criterion.h>
#include <string.h>

#include "grader/sass/sass.h"
#include "grader/sass/sass_loads.h"
#include "lib/util.h"

static const char *const paths[] = { "/tmp/x/source.cu", "/tmp/x/source.cu", NULL };

/* nvdisasm -gi's shape: a kernel, "//## File" lines, then its instructions */
static struct loads_in_flight
loads_of(const char *body)
{
	char *text = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&text, &n);
	fputs("\t.target\tsm_90\n"
	      "//--------------------- .text._Z1kPKfPfii     --------------------------\n"
	      "_Z1kPKfPfii:\n.text._Z1kPKfPfii:\n", f);
	fputs(body, f);
	fclose(f);
	struct sass_listing l = { 0 };
	sass_read_nvdisasm(&l, text, paths);
	struct loads_in_flight out;
	sass_loads_in_flight(&l, &out);
	sass_release(&l);
	free(text);
	return out;
}

/* as nvdisasm printed the loading loop of bench/slow_loads/step_of_blockdim_y.cu for an H100 (sm_90) */
Test(sass_loads, a_loop_with_a_step_of_blockDim_y_has_one_load_in_flight, .timeout = 5)
{
	struct loads_in_flight f = loads_of(
		"\t//## File \"/tmp/x/source.cu\", line 16\n"
		"        /*0020*/                   IMAD.MOV.U32 R10, RZ, RZ, RZ ;\n"
		".L_x_2:\n"
		"\t//## File \"/tmp/x/source.cu\", line 17\n"
		"        /*00f0*/                   IMAD.IADD R9, R3, 0x1, R10 ;\n"
		"        /*0100*/                   BSSY B0, `(.L_x_0) ;\n"
		"        /*0110*/                   ISETP.GE.AND P0, PT, R9, UR6, PT ;\n"
		"        /*0120*/                   ISETP.GE.OR P0, PT, R4, UR7, P0 ;\n"
		"        /*0130*/               @P0 BRA `(.L_x_1) ;\n"
		"\t//## File \"/tmp/x/source.cu\", line 18\n"
		"        /*0180*/                   LEA R8, P0, R6, UR10, 0x2 ;\n"
		"        /*01a0*/                   LEA.HI.X R9, R6, UR11, R7, 0x2, P0 ;\n"
		"        /*01b0*/                   LDG.E R8, desc[UR8][R8.64] ;\n"
		"        /*01c0*/                   MOV R7, 0x400 ;\n"
		"        /*01e0*/                   S2R R12, SR_CgaCtaId ;\n"
		"        /*0200*/                   IMAD R7, R6, 0x84, R7 ;\n"
		"        /*0220*/                   STS [R7], R8 ;\n"
		".L_x_1:\n"
		"        /*0230*/                   BSYNC B0 ;\n"
		".L_x_0:\n"
		"\t//## File \"/tmp/x/source.cu\", line 16\n"
		"        /*0240*/                   VIADD R10, R10, UR5 ;\n"
		"        /*0250*/                   ISETP.GE.AND P0, PT, R10, 0x20, PT ;\n"
		"        /*0260*/              @!P0 BRA `(.L_x_2) ;\n"
		"\t//## File \"/tmp/x/source.cu\", line 19\n"
		"        /*0270*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;\n");
	cr_assert_eq(f.loads, 1);
	cr_assert_eq(f.together, 1);
	cr_assert_eq(f.line, 18);
	cr_assert(f.in_loop, "the load sits between .L_x_2 and the branch back to it");
}

Test(sass_loads, four_unrolled_loads_go_out_together, .timeout = 5)
{
	struct loads_in_flight f = loads_of(
		"\t//## File \"/tmp/x/source.cu\", line 21\n"
		"        /*0100*/              @!P0 LDG.E R5, desc[UR4][R2.64] ;\n"
		"        /*0110*/              @!P1 LDG.E R9, desc[UR4][R2.64+0x8000] ;\n"
		"        /*0120*/              @!P2 LDG.E R11, desc[UR4][R6.64] ;\n"
		"        /*0130*/              @!P3 LDG.E.64 R12, desc[UR4][R14.64] ;\n"
		"\t//## File \"/tmp/x/source.cu\", line 22\n"
		"        /*0140*/              @!P0 STS [R8], R5 ;\n"
		"        /*0150*/              @!P1 STS [R8+0x420], R9 ;\n"
		"        /*0160*/              @!P2 STS [R8+0x840], R11 ;\n"
		"        /*0170*/              @!P3 STS [R8+0xc60], R13 ;\n"
		"        /*0180*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;\n");
	cr_assert_eq(f.loads, 4);
	cr_assert_eq(f.together, 4);
	cr_assert_eq(f.line, 21);
	cr_assert(!f.in_loop);
}

Test(sass_loads, a_load_whose_address_needs_the_last_one_starts_a_new_group, .timeout = 5)
{
	/* the second load's address is the first's value; the third is independent of the second's */
	struct loads_in_flight f = loads_of(
		"\t//## File \"/tmp/x/source.cu\", line 5\n"
		"        /*0000*/                   LDG.E.64 R4, desc[UR4][R2.64] ;\n"
		"        /*0010*/                   LDG.E R6, desc[UR4][R4.64] ;\n"
		"        /*0020*/                   LDG.E R7, desc[UR4][R2.64+0x10] ;\n"
		"        /*0030*/                   FADD R8, R6, R7 ;\n"
		"        /*0040*/                   STG.E desc[UR4][R2.64], R8 ;\n");
	cr_assert_eq(f.loads, 3);
	cr_assert_eq(f.together, 2);
	/* neither UR4 nor RZ nor SR_TID is one of the registers */
	struct loads_in_flight g = loads_of("        /*0000*/                   LDG.E R4, desc[UR4][R2.64] ;\n"
					    "        /*0010*/                   S2R R4, SR_TID.X ;\n"
					    "        /*0020*/                   LDG.E R5, desc[UR4][R2.64+0x4] ;\n");
	cr_assert_eq(g.together, 2);
}

/* nvdisasm 13.5's text of nvcc 13.0's cubins for sm_90 (tests/unit/sass/, made from
   bench/slow_loads/step_of_blockdim_y.cu and solutions/transpose_coarse.cu): the loop that steps by
   blockDim.y issues its one load an iteration; the solution's four go out together */
static struct loads_in_flight
loads_in_file(const char *path)
{
	size_t n;
	char *text = read_file(path, &n);
	cr_assert_not_null(text, "%s", path);
	struct sass_listing l = { 0 };
	sass_read_nvdisasm(&l, text, paths);
	struct loads_in_flight out;
	sass_loads_in_flight(&l, &out);
	sass_release(&l);
	free(text);
	return out;
}

Test(sass_loads, what_nvdisasm_printed_for_the_two_coarse_transposes, .timeout = 5)
{
	struct loads_in_flight slow = loads_in_file("tests/unit/sass/step_of_blockdim_y-sm_90.txt");
	struct loads_in_flight fast = loads_in_file("tests/unit/sass/transpose_coarse-sm_90.txt");
	cr_assert_eq(slow.loads, 1);
	cr_assert_eq(slow.together, 1);
	cr_assert(slow.in_loop);
	cr_assert_eq(slow.line, 18);
	cr_assert_eq(fast.loads, 4);
	cr_assert_eq(fast.together, 4);
	cr_assert(!fast.in_loop);
}
