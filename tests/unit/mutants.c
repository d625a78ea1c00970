/* The mutant generator (grader/mutants/mutants.c): each operator on a small source, and what it must leave alone. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grader/mutants/mutants.h"

struct made {
	struct mutant *m;
	int n;
};

static struct made
make(const char *source)
{
	struct made k;
	k.n = mutants_make(source, "k.cu", &k.m);
	return k;
}

static int
count_op(const struct made *k, enum mutant_op op)
{
	int n = 0;
	for (int i = 0; i < k->n; i++)
		n += k->m[i].op == op;
	return n;
}

static const struct mutant *
find(const struct made *k, const char *id)
{
	for (int i = 0; i < k->n; i++)
		if (!strcmp(k->m[i].id, id))
			return &k->m[i];
	return NULL;
}

static const struct mutant *
must_find(const struct made *k, const char *id)
{
	const struct mutant *m = find(k, id);
	if (!m)
		for (int i = 0; i < k->n; i++)
			cr_log_error("made: %s (%s)", k->m[i].id, k->m[i].what);
	cr_assert_not_null(m, "no mutant %s", id);
	return m;
}

Test(mutants, a_barrier_is_dropped_and_the_diff_shows_it, .timeout = 5)
{
	struct made k = make("__global__ void k(float *o)\n"
			     "{\n"
			     "    __shared__ float t[32];\n"
			     "    t[threadIdx.x] = 1;\n"
			     "    __syncthreads();\n"
			     "    o[threadIdx.x] = t[31 - threadIdx.x];\n"
			     "}\n");
	cr_assert_eq(count_op(&k, MUTANT_DROP_BARRIER), 1);
	const struct mutant *m = must_find(&k, "drop_barrier@5");
	cr_assert_not_null(strstr(m->text, "    (void)0;\n"), "%s", m->text);
	cr_assert_null(strstr(m->text, "__syncthreads"));
	cr_assert_str_eq(m->diff, "--- k.cu\n+++ k.cu (mutant drop_barrier@5)\n@@ -4,3 +4,3 @@\n"
				  "     t[threadIdx.x] = 1;\n-    __syncthreads();\n+    (void)0;\n"
				  "     o[threadIdx.x] = t[31 - threadIdx.x];\n");
	cr_assert_str_eq(m->what, "__syncthreads() dropped");
	mutants_free(k.m, k.n);
}

Test(mutants, bound_guards_go_both_ways_and_two_on_a_line_are_numbered, .timeout = 5)
{
	struct made k = make("__global__ void k(const float *a, float *o, int rows, int cols)\n"
			     "{\n"
			     "    int r = blockIdx.y, c = threadIdx.x;\n"
			     "    if (r < rows && c < cols)\n"
			     "        o[r * cols + c] = a[r * cols + c];\n"
			     "    for (int i = 0; i <= cols - 1; i++)\n"
			     "        o[i] = 0;\n"
			     "}\n");
	cr_assert_str_eq(must_find(&k, "bound_guard@4#1")->what, "'<' made '<='");
	cr_assert_not_null(strstr(find(&k, "bound_guard@4#1")->text, "if (r <= rows && c < cols)"));
	cr_assert_not_null(strstr(must_find(&k, "bound_guard@4#2")->text, "if (r < rows && c <= cols)"));
	/* the reverse, which loses the last element */
	cr_assert_not_null(strstr(must_find(&k, "bound_guard@6")->text, "i < cols - 1;"));
	cr_assert_eq(count_op(&k, MUTANT_BOUND_GUARD), 3, "a loop's start and step are no guards");
	mutants_free(k.m, k.n);
}

Test(mutants, a_guard_in_a_ternary_is_one, .timeout = 5)
{
	struct made k = make("__global__ void k(const float *in, float *o, int n)\n"
			     "{\n"
			     "    int i = threadIdx.x;\n"
			     "    o[i] = i < n && i >= 0 ? in[i] : 0.0f;\n"
			     "}\n");
	cr_assert_not_null(strstr(must_find(&k, "bound_guard@4#1")->text, "i <= n && i >= 0 ?"));
	cr_assert_not_null(strstr(must_find(&k, "bound_guard@4#2")->text, "i < n && i > 0 ?"));
	mutants_free(k.m, k.n);
}

Test(mutants, a_min_a_max_and_a_clamp_cannot_be_off_by_one, .timeout = 5)
{
	struct made k = make("void f(int n, int i)\n"
			     "{\n"
			     "    int first = i - 3 > 0 ? i - 3 : 0;\n"
			     "    int last = i + 3 < n - 1 ? i + 3 : n - 1;\n"
			     "    int blocks = (n + 255) / 256;\n"
			     "    if (blocks > 1024)\n"
			     "        blocks = 1024;\n"
			     "    int small = n > i ? i : n;\n"
			     "    int past = n > i ? 1 : 0;\n"
			     "}\n");
	cr_assert_eq(count_op(&k, MUTANT_BOUND_GUARD), 1, "only the ternary that picks neither operand compared");
	must_find(&k, "bound_guard@9");
	mutants_free(k.m, k.n);
}

Test(mutants, comments_strings_templates_and_the_preprocessor_are_left_alone, .timeout = 5)
{
	struct made k = make("#define GUARD(i, n) if (i < n)\n"
			     "// if (a < b) __syncthreads();\n"
			     "/* atomicAdd(p, 1); (n + 31) / 32 */\n"
			     "__global__ void k(float *o, int n)\n"
			     "{\n"
			     "    const char *s = \"if (i < n) __syncthreads();\";\n"
			     "    if (static_cast<int>(threadIdx.x) < n)\n"
			     "        o[0] = s[0];\n"
			     "}\n");
	cr_assert_eq(k.n, 1, "only the guard after the cast");
	cr_assert_not_null(strstr(must_find(&k, "bound_guard@7")->text, "static_cast<int>(threadIdx.x) <= n"));
	mutants_free(k.m, k.n);
}

Test(mutants, x_and_y_swap_in_one_subscript_in_two_and_in_an_index, .timeout = 5)
{
	struct made k = make("__global__ void k(const float *in, float *out, int rows, int cols)\n"
			     "{\n"
			     "    __shared__ float tile[32][33];\n"
			     "    int x = blockIdx.x * 32 + threadIdx.x;\n"
			     "    int y = blockIdx.y * 32 + threadIdx.y;\n"
			     "    tile[threadIdx.y][threadIdx.x] = in[y * cols + x];\n"
			     "}\n");
	cr_assert_not_null(strstr(must_find(&k, "swap_xy@4")->text, "int x = blockIdx.y * 32 + threadIdx.y;"));
	cr_assert_not_null(strstr(must_find(&k, "swap_xy@5")->text, "int y = blockIdx.x * 32 + threadIdx.x;"));
	const struct mutant *a = must_find(&k, "swap_xy@6#1"), *b = must_find(&k, "swap_xy@6#2");
	bool tile = strstr(a->text, "tile[threadIdx.x][threadIdx.y] = in[y * cols + x]") ||
		    strstr(b->text, "tile[threadIdx.x][threadIdx.y] = in[y * cols + x]");
	bool index = strstr(a->text, "tile[threadIdx.y][threadIdx.x] = in[x * cols + y]") ||
		     strstr(b->text, "tile[threadIdx.y][threadIdx.x] = in[x * cols + y]");
	cr_assert(tile && index, "%s\n%s", a->text, b->text);
	mutants_free(k.m, k.n);
}

Test(mutants, a_one_dimensional_kernel_has_no_axes_to_swap, .timeout = 5)
{
	struct made k = make("__global__ void k(float *o, int n)\n"
			     "{\n"
			     "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
			     "    o[i] = i;\n"
			     "}\n");
	cr_assert_eq(count_op(&k, MUTANT_SWAP_XY), 0);
	mutants_free(k.m, k.n);
}

Test(mutants, a_halo_load_is_dropped_only_where_an_array_has_several_stores, .timeout = 5)
{
	struct made k = make("__global__ void k(const float *in, float *out, int n)\n"
			     "{\n"
			     "    __shared__ float tile[256 + 2];\n"
			     "    __shared__ float lone[256];\n"
			     "    int i = blockIdx.x * 256 + threadIdx.x;\n"
			     "    tile[threadIdx.x + 1] = i < n ? in[i] : 0.0f;\n"
			     "    if (threadIdx.x == 0)\n"
			     "        tile[0] = i > 0 ? in[i - 1] : 0.0f;\n"
			     "    lone[threadIdx.x] = in[i];\n"
			     "    __syncthreads();\n"
			     "    out[i] = tile[threadIdx.x] + lone[threadIdx.x];\n"
			     "}\n");
	cr_assert_eq(count_op(&k, MUTANT_DROP_HALO), 2);
	cr_assert_not_null(strstr(must_find(&k, "drop_halo@8")->text, "if (threadIdx.x == 0)\n        ;\n"));
	cr_assert_not_null(strstr(must_find(&k, "drop_halo@6")->text, "\n    ;\n    if"));
	cr_assert_eq(count_op(&k, MUTANT_DROP_PADDING), 0, "a 1D array's extra elements are a halo");
	mutants_free(k.m, k.n);
}

Test(mutants, padding_goes_from_a_sum_and_from_a_number, .timeout = 5)
{
	struct made k = make("#define TILE 32\n"
			     "__global__ void k(float *o)\n"
			     "{\n"
			     "    __shared__ float a[TILE][TILE + 1];\n"
			     "    __shared__ float b[32][33];\n"
			     "    __shared__ float c[32][32];\n"
			     "    o[0] = a[0][0] + b[0][0] + c[0][0];\n"
			     "}\n");
	cr_assert_eq(count_op(&k, MUTANT_DROP_PADDING), 2);
	cr_assert_not_null(strstr(must_find(&k, "drop_padding@4")->text, "__shared__ float a[TILE][TILE];"));
	cr_assert_not_null(strstr(must_find(&k, "drop_padding@5")->text, "__shared__ float b[32][32];"));
	mutants_free(k.m, k.n);
}

Test(mutants, the_last_partial_tile_is_dropped_in_each_spelling, .timeout = 5)
{
	struct made k = make("void f(int n, int rows)\n"
			     "{\n"
			     "    dim3 block(32, 8);\n"
			     "    dim3 grid((n + block.x - 1) / block.x, (rows + 7) / 8);\n"
			     "    int blocks = (n - 1) / 256 + 1;\n"
			     "    int tiles = ((size_t)n * rows + TILE - 1) / TILE;\n"
			     "}\n");
	cr_assert_eq(count_op(&k, MUTANT_DROP_PARTIAL_TILE), 4);
	cr_assert_not_null(strstr(must_find(&k, "drop_partial_tile@4#1")->text, "grid(n / block.x, (rows + 7) / 8)"));
	cr_assert_not_null(strstr(must_find(&k, "drop_partial_tile@4#2")->text, "grid((n + block.x - 1) / block.x, rows / 8)"));
	cr_assert_not_null(strstr(must_find(&k, "drop_partial_tile@5")->text, "int blocks = n / 256;"));
	cr_assert_not_null(strstr(must_find(&k, "drop_partial_tile@6")->text, "int tiles = ((size_t)n * rows) / TILE;"));
	mutants_free(k.m, k.n);
}

Test(mutants, an_atomic_becomes_a_plain_store_unless_its_old_value_is_used, .timeout = 5)
{
	struct made k = make("__global__ void k(unsigned *bins, int *m, float *p, const unsigned char *px)\n"
			     "{\n"
			     "    atomicAdd(&bins[px[threadIdx.x]], 1u);\n"
			     "    atomicMax(m, (int)threadIdx.x);\n"
			     "    atomicAdd_block(p + 1, 2.0f);\n"
			     "    int old = atomicAdd(m, 1);\n"
			     "    if (old) atomicExch(&m[1], old);\n"
			     "    (void)atomicOr(m, 4);\n"
			     "}\n");
	cr_assert_eq(count_op(&k, MUTANT_PLAIN_STORE), 5);
	cr_assert_not_null(strstr(must_find(&k, "plain_store@8")->text, "\n    *m |= 4;\n"));
	cr_assert_not_null(strstr(must_find(&k, "plain_store@3")->text, "    bins[px[threadIdx.x]] += 1u;\n"));
	cr_assert_not_null(strstr(must_find(&k, "plain_store@4")->text, "    *m = max(*m, (int)threadIdx.x);\n"));
	cr_assert_not_null(strstr(must_find(&k, "plain_store@5")->text, "    *(p + 1) += 2.0f;\n"));
	cr_assert_not_null(strstr(must_find(&k, "plain_store@7")->text, "if (old) m[1] = old;"));
	cr_assert_str_eq(find(&k, "plain_store@3")->what, "atomicAdd made a plain store");
	mutants_free(k.m, k.n);
}

Test(mutants, two_rewrites_to_one_text_are_one_mutant, .timeout = 5)
{
	/* tile[ty][tx] with tx, ty: the subscript swap and the x/y swap in the subscripts give one text */
	struct made k = make("__global__ void k(float *o)\n"
			     "{\n"
			     "    __shared__ float t[32][32];\n"
			     "    int tx = threadIdx.x, ty = threadIdx.y;\n"
			     "    o[0] = t[ty][tx];\n"
			     "}\n");
	for (int i = 0; i < k.n; i++)
		for (int j = i + 1; j < k.n; j++)
			cr_assert_str_neq(k.m[i].text, k.m[j].text, "%s and %s", k.m[i].id, k.m[j].id);
	mutants_free(k.m, k.n);
}

Test(mutants, ids_are_checked_as_workbook_json_names_them, .timeout = 5)
{
	const char *why, *near;
	cr_assert(mutants_id_valid("bound_guard@27", &why, &near));
	cr_assert(mutants_id_valid("swap_xy@6#2", &why, &near));
	cr_assert_not(mutants_id_valid("bound_gaurd@27", &why, &near));
	cr_assert_str_eq(near, "bound_guard");
	cr_assert_not(mutants_id_valid("drop_barrier", &why, &near));
	cr_assert_not_null(strstr(why, "OPERATOR@LINE"));
	cr_assert_not(mutants_id_valid("drop_barrier@0", &why, &near));
	cr_assert_not(mutants_id_valid("drop_barrier@12#", &why, &near));
	cr_assert_not(mutants_id_valid("drop_barrier@12x", &why, &near));
	for (int op = 0; op < MUTANT_OPS; op++) {
		char id[64];
		snprintf(id, sizeof(id), "%s@1", mutants_op_name((enum mutant_op)op));
		cr_assert(mutants_id_valid(id, &why, &near), "%s", id);
	}
}

Test(mutants, a_source_with_nothing_to_mutate_has_no_mutants, .timeout = 5)
{
	struct made k = make("void f(void) {}\n");
	cr_assert_eq(k.n, 0);
	mutants_free(k.m, k.n);
	k = make("");
	cr_assert_eq(k.n, 0);
	mutants_free(k.m, k.n);
}
