/* The project's C++ lexer (lib/lex.c): what the rewriter and the mutant maker rely on. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "lib/lex.h"

/* The tokens of src as "kind:text" words, one space between, directives' tokens as "#n:text". */
static char *
words(const char *src)
{
	static char out[4096];
	struct lex L;
	size_t at = 0;

	cr_assert_eq(lex_source(&L, src, strlen(src)), 0, "%s", L.error ? L.error : "");
	out[0] = '\0';
	for (int i = 0; i < L.n; i++) {
		const struct lex_token *t = &L.tok[i];
		const char kinds[] = "INSCP";

		at += (size_t)snprintf(out + at, sizeof(out) - at, "%s%c%d:%.*s", i ? " " : "", kinds[t->kind], t->seg,
				       (int)(t->end - t->start), src + t->start);
	}
	lex_free(&L);
	return out;
}

Test(lex, comments_go_strings_and_characters_stay_whole)
{
	cr_assert_str_eq(words("a /* x<<<y */ + \"<<<\" // k<<<1,1>>>()\n'\\''"),
			 "I0:a P0:+ S0:\"<<<\" C0:'\\''");
	cr_assert_str_eq(words("u8\"x\" L'y' R\"d(a)\"b)d\" Rx"), "S0:u8\"x\" C0:L'y' S0:R\"d(a)\"b)d\" I0:Rx");
}

Test(lex, numbers_keep_separators_and_exponents)
{
	cr_assert_str_eq(words("1'000'000 1.5e-3f 0x1p+4 .5"), "N0:1'000'000 N0:1.5e-3f N0:0x1p+4 N0:.5");
}

Test(lex, punctuation_is_one_character_but_scope_and_arrow)
{
	cr_assert_str_eq(words("a::b->c>>=1"), "I0:a P0::: I0:b P0:-> I0:c P0:> P0:> P0:= N0:1");
}

Test(lex, each_directive_is_a_segment_and_a_system_include_one_token)
{
	cr_assert_str_eq(words("#include <a/b.h>\nint x;\n  # define K \\\n 3\nK"),
			 "P1:# I1:include S1:<a/b.h> I0:int I0:x P0:; P2:# I2:define I2:K N2:3 I0:K");
}

Test(lex, an_unclosed_quote_is_punctuation)
{
	cr_assert_str_eq(words("#error don't\nx"), "P1:# I1:error I1:don P1:' I1:t I0:x");
}

Test(lex, lines_count_through_comments_continuations_and_raw_strings)
{
	const char *src = "a\n/* 1\n2 */ b \\\n c R\"(\n)\" d";
	struct lex L;

	cr_assert_eq(lex_source(&L, src, strlen(src)), 0);
	cr_assert_eq(L.n, 5);
	cr_assert_eq(L.tok[0].line, 1);
	cr_assert_eq(L.tok[1].line, 3);
	cr_assert_eq(L.tok[2].line, 4);
	cr_assert_eq(L.tok[3].line, 4);
	cr_assert_eq(L.tok[4].line, 5);
	lex_free(&L);
}

Test(lex, an_unterminated_comment_or_raw_string_is_an_error_after_the_tokens_before_it)
{
	struct lex L;

	cr_assert_eq(lex_source(&L, "a b\n/* c", 8), -1);
	cr_assert_str_eq(L.error, "unterminated comment");
	cr_assert_eq(L.error_line, 2);
	cr_assert_eq(L.n, 2);
	lex_free(&L);
	cr_assert_eq(lex_source(&L, "x = R\"q(never", 13), -1);
	cr_assert_str_eq(L.error, "unterminated raw string");
	lex_free(&L);
}
