/* atomic_file.c — write to a temporary file beside the target and rename it into place, so
 * that an interrupted run never leaves a half-written file under the final name, or change a
 * file's tail in place by one write inside one page (all or nothing as well); and the output
 * folders, made with their parents. */
#include "io_internal.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int rbl_atomic_open(rbl_atomic_file *f, const char *path, rbl_error *err)
{
    memset(f, 0, sizeof *f);
    size_t len = strlen(path);
    f->final_path = malloc(len + 1);
    f->temp_path = malloc(len + 32);
    if (!f->final_path || !f->temp_path) {
        rbl_atomic_abort(f);
        return rbl_error_set(err, RBL_ENOMEM, "%s: out of memory", path);
    }
    memcpy(f->final_path, path, len + 1);
    /* a fresh name beside the target, made with mode 0666 less the umask as any program's
     * files are (mkstemp's 0600 would outlive the rename) */
    static unsigned long counter;
    int fd = -1;
    for (int tries = 0; fd < 0 && tries < 100; tries++) {
        unsigned long k = __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED);
        snprintf(f->temp_path, len + 32, "%s.tmp.%lx.%lx", path, (unsigned long)getpid(), k);
        fd = open(f->temp_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0) {
        int e = errno;
        free(f->temp_path);
        f->temp_path = NULL;
        rbl_atomic_abort(f);
        return rbl_error_set(err, RBL_EIO, "%s: cannot create a file there: %s", path, strerror(e));
    }
    f->file = fdopen(fd, "w");
    if (!f->file) {
        close(fd);
        rbl_atomic_abort(f);
        return rbl_error_set(err, RBL_EIO, "%s: cannot open for writing", path);
    }
    setvbuf(f->file, NULL, _IOFBF, (size_t)1 << 20);
    return RBL_OK;
}

int rbl_atomic_commit(rbl_atomic_file *f, rbl_error *err)
{
    int failed = ferror(f->file) != 0;
    int e = errno;
    if (fflush(f->file) != 0)
        failed = 1, e = errno;
    if (fclose(f->file) != 0)
        failed = 1, e = errno;
    f->file = NULL;
    if (!failed && rename(f->temp_path, f->final_path) != 0)
        failed = 1, e = errno;
    if (failed) {
        int rc = rbl_error_set(err, RBL_EIO, "%s: write failed: %s", f->final_path, strerror(e));
        rbl_atomic_abort(f);
        return rc;
    }
    free(f->temp_path);
    free(f->final_path);
    f->temp_path = f->final_path = NULL;
    return RBL_OK;
}

int rbl_file_patch_tail(const char *path, uint64_t size, const char *old_tail, size_t replace,
                        const char *bytes, size_t n)
{
    const uint64_t page = 4096, at = size - replace, end = at + n;
    if (replace > size || n < replace || n == 0 || at / page != (end - 1) / page)
        return 0;
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0)
        return 0;
    struct stat st;
    char tail[RBL_PATCH_MAX];
    int done = replace <= sizeof tail && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
               (uint64_t)st.st_size == size &&
               pread(fd, tail, replace, (off_t)at) == (ssize_t)replace &&
               memcmp(tail, old_tail, replace) == 0;
    if (done) {
        ssize_t put = pwrite(fd, bytes, n, (off_t)at);
        done = put == (ssize_t)n;
        /* a part written (a full disk): the tail put back as it was, best as can be; the
           caller's whole write replaces the file either way */
        if (!done && put > 0 && pwrite(fd, old_tail, replace, (off_t)at) == (ssize_t)replace &&
            ftruncate(fd, (off_t)size) != 0)
            done = 0;
    }
    close(fd);
    return done;
}

int rbl_file_grow(const char *path, rbl_grown_file *g, const char *data, size_t len,
                  rbl_error *err)
{
    if (g->size && len > g->size) {
        /* the last bytes of its page written again with the new (the file must end with
           them); from the page's start at most, so a page's end makes one whole write */
        const size_t again = g->size % 4096 < 32 ? (size_t)(g->size % 4096) : 32;
        const size_t at = (size_t)g->size - again;
        if (rbl_file_patch_tail(path, g->size, data + at, again, data + at, len - at)) {
            g->size = len, g->patched++;
            return RBL_OK;
        }
    }
    rbl_atomic_file af;
    int rc = rbl_atomic_open(&af, path, err);
    if (rc != RBL_OK)
        return rc;
    if (len)
        fwrite(data, 1, len, af.file);
    g->size = 0;
    if ((rc = rbl_atomic_commit(&af, err)) == RBL_OK)
        g->size = len, g->whole++;
    return rc;
}

void rbl_atomic_abort(rbl_atomic_file *f)
{
    if (f->file)
        fclose(f->file);
    if (f->temp_path)
        unlink(f->temp_path);
    free(f->temp_path);
    free(f->final_path);
    memset(f, 0, sizeof *f);
}

int rbl_group_stage(rbl_file_group *g, const char *path, const char **staged_out,
                    rbl_error *err)
{
    *staged_out = NULL;
    if (g->n == RBL_FILE_GROUP_MAX)
        return rbl_error_set(err, RBL_EINVAL, "%s: more than %d files in one group", path,
                             RBL_FILE_GROUP_MAX);
    size_t len = strlen(path);
    char *final_path = strdup(path), *staged = malloc(len + sizeof ".staged");
    if (!final_path || !staged) {
        free(final_path), free(staged);
        return rbl_error_set(err, RBL_ENOMEM, "%s: out of memory", path);
    }
    memcpy(staged, path, len);
    memcpy(staged + len, ".staged", sizeof ".staged");
    g->final_path[g->n] = final_path;
    g->staged_path[g->n++] = staged;
    *staged_out = staged;
    return RBL_OK;
}

/* A writer's message names the staged file: name the file the user asked for instead. */
static void name_final(rbl_error *err, const char *staged, const char *final_path)
{
    char *at = err ? strstr(err->message, staged) : NULL;
    if (!at)
        return;
    char rest[RBL_ERROR_MESSAGE_MAX];
    snprintf(rest, sizeof rest, "%s", at + strlen(staged));
    size_t room = sizeof err->message - (size_t)(at - err->message);
    snprintf(at, room, "%s%s", final_path, rest);
}

int rbl_group_publish(rbl_file_group *g, int rc, rbl_error *err)
{
    for (int k = 0; k < g->n && rc != RBL_OK; k++)
        name_final(err, g->staged_path[k], g->final_path[k]);
    int renamed = 0;
    for (; rc == RBL_OK && renamed < g->n; renamed++)
        if (rename(g->staged_path[renamed], g->final_path[renamed]) != 0)
            rc = rbl_error_set(err, RBL_EIO, "%s: cannot rename into place: %s",
                               g->final_path[renamed], strerror(errno));
    for (int k = 0; k < g->n; k++) {
        if (rc != RBL_OK)
            unlink(k < renamed ? g->final_path[k] : g->staged_path[k]);
        free(g->final_path[k]), free(g->staged_path[k]);
    }
    g->n = 0;
    return rc;
}

char *rbl_path_join(const char *dir, const char *name)
{
    size_t len = strlen(dir) + strlen(name) + 2;
    char *p = malloc(len);
    if (p)
        snprintf(p, len, "%s/%s", dir, name);
    return p;
}

size_t rbl_remove_stale_temps(const char *dir, const char *final_name)
{
    DIR *d = opendir(dir);
    size_t removed = 0;
    if (!d)
        return 0;
    for (struct dirent *e; (e = readdir(d));) {
        const char *tmp = strstr(e->d_name, ".tmp.");
        if (!tmp || (size_t)(tmp - e->d_name) >= 256)
            continue;
        char name[256];
        memcpy(name, e->d_name, (size_t)(tmp - e->d_name));
        name[tmp - e->d_name] = '\0';
        char *end = NULL;
        errno = 0;
        unsigned long pid = strtoul(tmp + 5, &end, 16);
        const int ours = rbl_run_output_name(name) || (final_name && !strcmp(name, final_name));
        if (!ours || errno || !end || *end != '.' || pid == 0 ||
            pid > (unsigned long)INT32_MAX)
            continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH) /* alive, or not ours to judge */
            continue;
        char *path = rbl_path_join(dir, e->d_name);
        if (path && unlink(path) == 0)
            removed++;
        free(path);
    }
    closedir(d);
    return removed;
}

int rbl_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

int rbl_run_output_name(const char *name)
{
    static const char *const whole[] = {"grains.pvd", "thermo.csv", "walls.vtp", "walls.pvd",
                                        "objects.pvd", "surfaces.pvd", "contacts.pvd", "cg.pvd",
                                        "collisions.csv", NULL};
    static const char *const series[] = {"grains_",   "walls_",      "shells_",
                                         "objects_",  "surfaces_",   "checkpoint_",
                                         "contacts_", "cg_",         "cg_profile_", NULL};
    for (int k = 0; whole[k]; k++)
        if (strcmp(name, whole[k]) == 0)
            return 1;
    for (int k = 0; series[k]; k++) /* the prefix, then a number */
        if (strncmp(name, series[k], strlen(series[k])) == 0 &&
            name[strlen(series[k])] >= '0' && name[strlen(series[k])] <= '9')
            return 1;
    return 0;
}

int rbl_make_dirs(const char *path, rbl_error *err)
{
    char *copy = strdup(path);
    if (!copy)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory");
    for (char *p = copy + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(copy, 0777) != 0 && errno != EEXIST) {
            int e = errno;
            free(copy);
            return rbl_error_set(err, RBL_EIO, "%s: cannot create folder: %s", path, strerror(e));
        }
        *p = '/';
    }
    int rc = RBL_OK;
    if (mkdir(copy, 0777) != 0 && errno != EEXIST)
        rc = rbl_error_set(err, RBL_EIO, "%s: cannot create folder: %s", path, strerror(errno));
    free(copy);
    return rc;
}
