/*
 * The class board: `cudalings board OUT… [--html FILE] [--pseudonyms]`.
 * From the results of `cudalings batch` (OUT/STUDENT.json, the grade JSON
 * of each student), a leaderboard per exercise: the students timed on a GPU
 * ranked by their median time, with its percentage of the hardware's limit,
 * their tier and verdict; then the students without a time (graded on the
 * simulator, or stopped before timing), passes first. As a terminal table
 * and as one static HTML page (inline CSS, no script, names escaped).
 * Pseudonyms are stable per student: a hash of a salt and the name, the salt
 * given (--salt) or kept in the first OUT as .board-salt.
 */
#ifndef CUDALINGS_BOARD_H
#define CUDALINGS_BOARD_H

#include <stdbool.h>
#include <stdio.h>

struct board_options {
	char *const *outs;  /* the batch out folders */
	int nouts;
	const char *html;   /* write the page here, or NULL */
	bool pseudonyms;
	const char *salt;   /* NULL: the one kept in outs[0], made on first use */
	bool color;
};

/* Read, rank, print and write; returns the exit status (0, 2 for bad input, 3 for a file it cannot write). */
int board_run(const struct board_options *o, FILE *out);

/* A student's pseudonym under `salt`, e.g. "amber-otter-3f2a" (8 hex digits more when longer); you own it. */
char *board_pseudonym(const char *salt, const char *student, bool longer);

#endif
