/* args: the growing argv (see args.h). */
#include "lib/args.h"

#include <stdarg.h>
#include <stdlib.h>

#include "lib/buf.h"
#include "lib/xalloc.h"

char *args_empty[1];

void
args_init(struct args *a)
{
	a->v = args_empty;
	a->n = a->cap = 0;
}

void
args_add_owned(struct args *a, char *s)
{
	if (a->n + 2 > a->cap) {
		int cap = a->cap ? a->cap * 2 : 32;
		/* no storage of its own yet (args_empty, or NULL when zeroed): nothing to keep */
		a->v = xrealloc(a->cap ? a->v : NULL, sizeof(char *) * (size_t)cap);
		a->cap = cap;
	}
	a->v[a->n++] = s;
	a->v[a->n] = NULL;
}

void
args_add(struct args *a, const char *s)
{
	args_add_owned(a, xstrdup(s));
}

void
args_addf(struct args *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	args_add_owned(a, xvasprintf(fmt, ap));
	va_end(ap);
}

void
args_add_all(struct args *a, char *const *list)
{
	for (char *const *s = list; s && *s; s++)
		args_add(a, *s);
}

void
args_free(struct args *a)
{
	for (int i = 0; i < a->n; i++)
		free(a->v[i]);
	if (a->cap)
		free(a->v);
	args_init(a);
}

char **
args_detach(struct args *a)
{
	char **v = a->cap ? a->v : xcalloc(1, sizeof(char *));
	args_init(a);
	return v;
}

void
argv_free(char **argv)
{
	for (char **p = argv; p && *p; p++)
		free(*p);
	free(argv);
}

char *
args_join(const struct args *a)
{
	struct buf b = BUF_INIT;
	for (int i = 0; i < a->n; i++)
		buf_addf(&b, "%s%s", i ? " " : "", a->v[i]);
	return buf_detach(&b);
}
