/* The file name a path literal ends with, as DL109 matches a load with another file's save and
 * driver/sharing_saves.c shares the files that may hold such a save: one definition for both, so
 * that every save DL109 can match is in the build (a file read by no other is streamed). */
#ifndef DL_CORE_FILE_NAME_H
#define DL_CORE_FILE_NAME_H
#include <stddef.h>

/* The file name the `n` bytes of a string literal's contents end with: its last path component
 * (after a `/`, a `\` or an f-string's field), letters, digits, `_`, `-` and `.` only, with a
 * stem of two characters or more and an extension of 1 to 8 letters or digits (`train_x.pty`,
 * `_production.pkl`; not `f"{name}.pth"`'s `.pth`, nor `"%s_net.pth"`). Its length, 0 when
 * there is none; *start gets its offset. */
size_t dl_file_name_ending(const char *text, size_t n, size_t *start);

#endif
