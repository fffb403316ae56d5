/*
 * filename.h - what the file name of a dump says, and whether a path
 * names a regular file.
 */
#ifndef HLODIFF_FILENAME_H
#define HLODIFF_FILENAME_H

#include <stddef.h>

/*
 * The module name in an XLA dump file name (FORMAT.md section 11):
 * directories, a leading "<timestamp>." and "module_NNNN." (also after a
 * "<prefix>__" as in the corpus), ".cl_N", the stage (".after_optimizations",
 * ".sm_8.0_gpu_after_optimizations", ...) and "-buffer-assignment.txt"
 * (".gz") are stripped: ".../module_0035.jit_attn.cl_7.after_optimizations-
 * buffer-assignment.txt" -> "jit_attn".  A name not in that form gives
 * its base name without ".txt"/".gz".  Returns 0, or -1 when there is no
 * name (path NULL, "-", a module whose name XLA dropped) or it does not
 * fit in n bytes; buf is always NUL-terminated when n > 0.
 */
int hd_module_name_from_path(const char *path, char *buf, size_t n);

/* Does path name a regular file (after links)? */
int hd_is_regular_file(const char *path);

#endif
