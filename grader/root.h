/* root: where the workbook is (the folder that holds workbook.json); every build path is relative to it. */
#ifndef CUDALINGS_ROOT_H
#define CUDALINGS_ROOT_H

/* The workbook's folder, found once ($CUDALINGS_ROOT, the working directory and its parents, the folder
   above build/cudalings); dies with exit 2 when there is none. The caller must not free it. */
const char *workbook_root(void);
/* root/rel; you own it. */
char *root_path(const char *rel);

#endif
