/* The workbook's own lessons, as the workbook lays them out on an 80-column terminal. */
#include <criterion/criterion.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>

#include "tests/tui/unit/helpers.h"
#include "lib/file.h"
#include "lib/util.h"
#include "tui/markdown.h"

/* A lesson is laid out at COLS - 3 (tui/lesson.c). */
#define WIDTH (80 - 3)

static struct doc
lay_out(const char *text, bool ascii)
{
	struct doc d;

	doc_init(&d, ascii);
	cr_assert_eq(md_render(&d, text, strlen(text), WIDTH), 0);
	return d;
}

/*
 * Every lesson in slides/ fits, in UTF-8 and in ASCII mode, and shows none of the
 * markers that tie its figures to bench/ (link reference definitions).
 * (That a diagram keeps its columns in ASCII mode: tests/lessons/diagrams.sh.)
 */
Test(lessons, every_lesson_fits_and_hides_its_markers, .timeout = 30)
{
	glob_t g;

	cr_assert_eq(glob("slides/*.md", 0, NULL, &g), 0, "no slides/*.md here");
	for (size_t f = 0; f < g.gl_pathc; f++) {
		char *text = read_file(g.gl_pathv[f], NULL);

		cr_assert_not_null(text, "cannot read %s", g.gl_pathv[f]);
		for (int ascii = 0; ascii <= 1; ascii++) {
			struct doc d = lay_out(text, ascii);

			for (int i = 0; i < d.n; i++) {
				const char *line = line_text(&d, i);
				int w = doc_line_width(&d.lines[i]);

				cr_assert_leq(w, WIDTH, "%s: line %d is %d wide: '%s'", g.gl_pathv[f], i, w, line);
				cr_assert_null(strstr(line, "[figure"), "%s: a marker shows: '%s'", g.gl_pathv[f], line);
				cr_assert_null(strstr(line, "[end figures]"), "%s: a marker shows: '%s'", g.gl_pathv[f],
					       line);
			}
			doc_free(&d);
		}
		free(text);
	}
	globfree(&g);
}
