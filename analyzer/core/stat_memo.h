/* A memo of stat() answers for one run: the first lookup of a path stats it, later lookups
 * (from any thread) get the same answer without a system call. The result cache checks every
 * header a C++ file read (about 4,700 for libtorch), and the files of a project share nearly
 * all of them: one stat per header and run instead of one per header and file.
 *
 * The answer is the file as it was at its first lookup in the run, never a newer one: a header
 * that changes mid-run is seen by the next run. A missing file is remembered as missing. */
#ifndef DL_STAT_MEMO_H
#define DL_STAT_MEMO_H
#include <sys/stat.h>

typedef struct DlStatMemo DlStatMemo;

DlStatMemo *dl_stat_memo_new(void);
void dl_stat_memo_free(DlStatMemo *memo); /* NULL: nothing */

/* Like stat(path, st): 0 and *st filled, or -1 and errno when the path could not be stat'ed
 * (the first lookup's errno, every time). memo NULL: a plain stat. Thread-safe. */
int dl_stat_memo_stat(DlStatMemo *memo, const char *path, struct stat *st);

#endif
