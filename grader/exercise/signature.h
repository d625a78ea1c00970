/*
 * The launcher's signature as workbook.json gives it ("void col_sums_launch(const float *a, float *sums,
 * int rows, int cols)"): its name, its buffers (each a pointer to a type the harness knows) and sizes,
 * and a check that the exercise's check declares the same buffers, in order and type, so that a
 * contradicting signature is a clear error at load and not raw compiler errors at the first grading.
 */
#ifndef CUDALINGS_SIGNATURE_H
#define CUDALINGS_SIGNATURE_H

struct exercise;

/* The launcher's name, newly allocated; NULL where the signature has none. */
char *signature_name(const char *signature);
/* e's buffers (e->params) from the signature; -1 after an error naming e. */
int signature_parse(const char *signature, struct exercise *e);
/* e's buffers against those its check's source declares; -1 after an error naming both types. */
int signature_check_against_check(const struct exercise *e);

#endif
