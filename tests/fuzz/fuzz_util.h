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

#include "rubble.h"

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

/* The memory limit the CLI gives the contact detection and the clump builder (`rubble
 * contacts`, `rubble clump`: cli_physical_memory_bytes), so that an input is fuzzed at the
 * limit a user's run has (issue 41), not a smaller one that refuses first: what a few KB make
 * it allocate is then bounded by libFuzzer's -malloc_limit_mb alone (tests/fuzz/run.sh). */
static inline size_t fuzz_cli_memory_limit(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    return pages > 0 && size > 0 ? (size_t)pages * (size_t)size : 0;
}

/* The part before the first NUL (all of it if none) and the part after it. */
static inline void fuzz_split(const uint8_t *data, size_t n, size_t *first, size_t *second_at)
{
    const uint8_t *nul = memchr(data, 0, n);
    *first = nul ? (size_t)(nul - data) : n;
    *second_at = nul ? *first + 1 : n;
}

/* The whole of a small file into buf (NUL-ended; NULL if it cannot be read or is larger). */
static inline char *fuzz_slurp(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t n = fread(buf, 1, size - 1, f);
    int more = fgetc(f) != EOF;
    fclose(f);
    if (more)
        return NULL;
    buf[n] = '\0';
    return buf;
}

/* Oracles beyond the sanitizers on what a run left in its output folder (issue 41), whatever
 * it ended with: thermo.csv's rows each have its header's field count, and every frame a .pvd
 * lists is there and whole (it ends its VTK document). A violation aborts: a finding. */
static inline void fuzz_check_outputs(const char *dir)
{
    static char text[1 << 22];
    char path[512];
    snprintf(path, sizeof path, "%s/thermo.csv", dir);
    if (fuzz_slurp(path, text, sizeof text)) {
        size_t fields = 0, count = 1;
        for (const char *c = text; *c; c++) {
            if (*c == ',')
                count++;
            if (*c == '\n') {
                if (!fields)
                    fields = count;
                else if (count != fields)
                    abort(); /* a row of another width than its header */
                count = 1;
            }
        }
    }
    static const char *const series[] = {"grains.pvd", "walls.pvd", "objects.pvd", NULL};
    for (int s = 0; series[s]; s++) {
        snprintf(path, sizeof path, "%s/%s", dir, series[s]);
        if (!fuzz_slurp(path, text, sizeof text))
            continue;
        for (const char *at = strstr(text, "file=\""); at; at = strstr(at + 1, "file=\"")) {
            const char *name = at + 6, *end = strchr(name, '"');
            if (!end || end - name > 200)
                abort();
            static char frame[1 << 22];
            snprintf(path, sizeof path, "%s/%.*s", dir, (int)(end - name), name);
            FILE *f = fopen(path, "rb");
            if (!f)
                abort(); /* a frame the series lists is missing */
            fseek(f, -13, SEEK_END);
            size_t n = fread(frame, 1, 13, f);
            fclose(f);
            frame[n] = '\0';
            if (!strstr(frame, "</VTKFile>"))
                abort(); /* a frame cut short */
        }
    }
}

/* The oracle that a refused input writes nothing (issue 41): a run that failed before its
 * first step (the report's steps 0: a scene, checkpoint or option refused) left no file in its
 * folder. */
static inline void fuzz_check_refusal(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
            fprintf(stderr, "a refused run left %s in its folder\n", e->d_name);
            abort();
        }
    closedir(d);
}

static inline void fuzz_remove_dir(const char *dir);

/* After a run into dir that returned rc and rep: its outputs checked (fuzz_check_outputs and,
 * if it failed before stepping, fuzz_check_refusal), then removed. */
static inline void fuzz_check_run(const char *dir, int rc, const rbl_run_report *rep)
{
    fuzz_check_outputs(dir);
    if (rc != RBL_OK && rep->steps == 0)
        fuzz_check_refusal(dir);
    fuzz_remove_dir(dir);
}

/* The scene at path loaded and, if accepted, run `steps` steps on one thread with at most 500
 * grains into a folder whose outputs are checked (fuzz_check_run) and removed. */
static inline void fuzz_run_scene(const char *path, uint64_t steps)
{
    rbl_scene *scene = NULL;
    rbl_error err = {0};
    if (rbl_scene_load(path, &scene, &err) != RBL_OK)
        return;
    char out[128];
    snprintf(out, sizeof out, "%s/out", fuzz_dir());
    rbl_run_options opt;
    memset(&opt, 0, sizeof opt);
    opt.output_dir = out;
    opt.threads = 1;
    opt.steps = steps;
    opt.max_grains = 500;
    rbl_run_report rep;
    int rc = rbl_scene_run(scene, &opt, &rep, &err);
    rbl_scene_free(scene);
    fuzz_check_run(out, rc, &rep);
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
