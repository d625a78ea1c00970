/*
 * color: the terminal's colours for text a program prints (SGR escapes).
 * Whether to use them is the caller's: a terminal, and no NO_COLOR.
 *
 *	printf("%sFAIL%s\n", paint(color, COLOR_RED COLOR_BOLD), paint(color, COLOR_RESET));
 */
#ifndef LIB_COLOR_H
#define LIB_COLOR_H

#include <stdbool.h>

#define COLOR_RESET "\033[0m"
#define COLOR_BOLD "\033[1m"
#define COLOR_DIM "\033[2m"
#define COLOR_RED "\033[31m"
#define COLOR_GREEN "\033[32m"
#define COLOR_CYAN "\033[36m"

/* The escape when colours are on, else nothing. */
static inline const char *
paint(bool on, const char *code)
{
	return on ? code : "";
}

#endif
