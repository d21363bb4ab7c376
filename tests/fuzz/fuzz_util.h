/* fuzz_util.h — what the libFuzzer harnesses share: the input written to a file of this
 * process (every loader reads paths), split in two at its first NUL byte where a target reads
 * two files, and a folder emptied between runs. */
#ifndef RBL_FUZZ_UTIL_H
#define RBL_FUZZ_UTIL_H

#include <dirent.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A folder of this process under /tmp, made once. */
static inline const char *fuzz_dir(void)
{
    static char dir[64];
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/tmp/rubble_fuzz_%ld", (long)getpid());
        mkdir(dir, 0700);
    }
    return dir;
}

/* dir/name holding n bytes of data; the path is in a static buffer per slot (0..3). */
static inline const char *fuzz_file(int slot, const char *name, const uint8_t *data, size_t n)
{
    static char path[4][128];
    snprintf(path[slot], sizeof path[slot], "%s/%s", fuzz_dir(), name);
    FILE *f = fopen(path[slot], "wb");
    if (!f)
        abort();
    if (n && fwrite(data, 1, n, f) != n)
        abort();
    fclose(f);
    return path[slot];
}

/* The part before the first NUL (all of it if none) and the part after it. */
static inline void fuzz_split(const uint8_t *data, size_t n, size_t *first, size_t *second_at)
{
    const uint8_t *nul = memchr(data, 0, n);
    *first = nul ? (size_t)(nul - data) : n;
    *second_at = nul ? *first + 1 : n;
}

/* Remove the files of a flat folder (the outputs of one run) and the folder. */
static inline void fuzz_remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    char path[512];
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (unlink(path) != 0)
            abort(); /* a run's outputs are files: anything else is a finding */
    }
    closedir(d);
    rmdir(dir);
}

#endif
