/* line_reader.c — reading numeric text files line by line with file:line context; blank
 * lines and '#' comments are skipped anywhere. NaN and infinity are refused. A line longer
 * than RBL_MAX_LINE_BYTES (1 MiB; the environment variable of that name raises it) is
 * refused before it is held whole, so /dev/zero or a file with no newline cannot eat the
 * memory; a read error, an allocation failure included, is an error, never an end of file. */
#include "io_internal.h"

#include <ctype.h>
#include <limits.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define DEFAULT_MAX_LINE ((size_t)1 << 20)

static size_t max_line_bytes(void)
{
    const char *v = getenv("RBL_MAX_LINE_BYTES");
    char *end = NULL;
    unsigned long long n = v ? strtoull(v, &end, 10) : 0;
    return v && end != v && *end == '\0' && n > 0 ? (size_t)n : DEFAULT_MAX_LINE;
}

int rbl_reader_open(rbl_line_reader *r, const char *path, rbl_error *err)
{
    memset(r, 0, sizeof *r);
    r->path = path;
    r->max_line = max_line_bytes();
    r->end = UINT64_MAX;
    r->file = fopen(path, "r");
    if (!r->file)
        return rbl_error_set(err, RBL_EIO, "%s: cannot open: %s", path, strerror(errno));
    return RBL_OK;
}

/* f at the first line that starts at or after start: *at its offset. */
static int seek_line_start(FILE *f, const char *path, uint64_t start, uint64_t *at,
                           rbl_error *err)
{
    *at = start;
    if (start == 0)
        return RBL_OK;
    if (start > (uint64_t)INT64_MAX || fseeko(f, (off_t)(start - 1), SEEK_SET) != 0)
        return rbl_error_set(err, RBL_EIO, "%s: cannot seek to byte %llu: %s", path,
                             (unsigned long long)start, strerror(errno));
    int c = getc_unlocked(f);
    while (c != EOF && c != '\n') /* the end of a line begun before start */
        c = getc_unlocked(f), ++*at;
    if (c == EOF && ferror(f))
        return rbl_error_set(err, RBL_EIO, "%s: read error: %s", path, strerror(errno));
    return RBL_OK;
}

int rbl_reader_open_part(rbl_line_reader *r, const char *path, uint64_t start, uint64_t end,
                         uint64_t lines_before, rbl_error *err)
{
    int rc = rbl_reader_open(r, path, err);
    if (rc == RBL_OK)
        rc = seek_line_start(r->file, path, start, &r->offset, err);
    if (rc == RBL_OK && lines_before > (uint64_t)LONG_MAX)
        rc = rbl_error_set(err, RBL_ERANGE, "%s: more than %ld lines", path, LONG_MAX);
    if (rc != RBL_OK) {
        rbl_reader_close(r);
        return rc;
    }
    r->end = end, r->line = (long)lines_before;
    return RBL_OK;
}

int rbl_text_size(const char *path, uint64_t *bytes, rbl_error *err)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return rbl_error_set(err, RBL_EIO, "%s: cannot open: %s", path, strerror(errno));
    if (!S_ISREG(st.st_mode))
        return rbl_error_set(err, RBL_EINVAL, "%s: not a regular file, which several processes "
                             "cannot read in parts", path);
    *bytes = (uint64_t)st.st_size;
    return RBL_OK;
}

int rbl_text_part_count(const char *path, uint64_t start, uint64_t end, uint64_t *lines,
                        uint64_t *meaningful, rbl_error *err)
{
    *lines = *meaningful = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return rbl_error_set(err, RBL_EIO, "%s: cannot open: %s", path, strerror(errno));
    uint64_t at;
    int rc = seek_line_start(f, path, start, &at, err);
    int c = 0;
    while (rc == RBL_OK && at < end && (c = getc_unlocked(f)) != EOF) {
        int content = 0, comment = 0; /* a line starts at c */
        for (;;) {
            at++;
            if (c == '\0')
                content = 1; /* (refused when read) */
            else if (c == '#')
                comment = 1;
            else if (!comment && !isspace(c))
                content = 1;
            if (c == '\n' || (c = getc_unlocked(f)) == EOF)
                break;
        }
        ++*lines, *meaningful += (uint64_t)content;
    }
    if (rc == RBL_OK && ferror(f))
        rc = rbl_error_set(err, RBL_EIO, "%s: read error: %s", path, strerror(errno));
    fclose(f);
    return rc;
}

void rbl_reader_close(rbl_line_reader *r)
{
    if (r->file)
        fclose(r->file);
    free(r->buf);
    r->file = NULL;
    r->buf = NULL;
}

static char *skip_space(char *s)
{
    while (*s && isspace((unsigned char)*s))
        s++;
    return s;
}

/* The next line into r->buf (NUL-terminated, its newline kept): its length, 0 at the end of
 * the file, -1 with err set on a read error, an allocation failure or a line too long. */
static long read_line(rbl_line_reader *r, rbl_error *err)
{
    const size_t limit = r->max_line;
    size_t len = 0;
    int c = 0;
    while ((c = getc_unlocked(r->file)) != EOF) {
        if (len >= limit)
            return rbl_error_set(err, RBL_ERANGE,
                                 "%s:%ld: a line longer than %zu bytes; a longer one needs "
                                 "RBL_MAX_LINE_BYTES set in the environment",
                                 r->path, r->line + 1, limit);
        if (len + 2 > r->cap) {
            size_t cap = r->cap ? 2 * r->cap : 256;
            char *grown = realloc(r->buf, cap);
            if (!grown)
                return rbl_error_set(err, RBL_ENOMEM, "%s:%ld: out of memory for a line of %zu "
                                     "bytes", r->path, r->line + 1, len);
            r->buf = grown, r->cap = cap;
        }
        r->buf[len++] = (char)c;
        if (c == '\n')
            break;
    }
    r->offset += len;
    if (c == EOF && ferror(r->file))
        return rbl_error_set(err, RBL_EIO, "%s:%ld: read error: %s", r->path, r->line + 1,
                             strerror(errno));
    if (len)
        r->buf[len] = '\0';
    return (long)len;
}

int rbl_reader_next(rbl_line_reader *r, rbl_error *err)
{
    for (;;) {
        if (r->offset >= r->end) /* (the next line is the next part's) */
            return 0;
        errno = 0;
        long len = read_line(r, err);
        if (len < 0)
            return len;
        if (len == 0)
            return 0;
        r->line++;
        if (memchr(r->buf, '\0', (size_t)len))
            return rbl_error_set(err, RBL_EPARSE, "%s:%ld: binary data (a NUL byte) in a text file",
                                 r->path, r->line);
        char *hash = strchr(r->buf, '#');
        if (hash)
            *hash = '\0';
        r->cursor = skip_space(r->buf);
        if (*r->cursor)
            return 1;
    }
}

int rbl_reader_count_tokens(const rbl_line_reader *r)
{
    int count = 0;
    const char *s = r->cursor;
    while (*s) {
        while (*s && isspace((unsigned char)*s))
            s++;
        if (!*s)
            break;
        count++;
        while (*s && !isspace((unsigned char)*s))
            s++;
    }
    return count;
}

/* Cut the next token of the line out in place (NUL-terminated) and move past it; NULL, with
 * a "missing" message, at the end of the line. */
static char *take_token(rbl_line_reader *r, const char *what, rbl_error *err)
{
    char *s = skip_space(r->cursor);
    if (!*s) {
        rbl_error_set(err, RBL_EPARSE, "%s:%ld: missing %s", r->path, r->line, what);
        return NULL;
    }
    char *end = s;
    while (*end && !isspace((unsigned char)*end))
        end++;
    r->cursor = *end ? end + 1 : end;
    *end = '\0';
    return s;
}

int rbl_reader_word(rbl_line_reader *r, const char *what, char **out, rbl_error *err)
{
    *out = take_token(r, what, err);
    return *out ? RBL_OK : RBL_EPARSE;
}

int rbl_reader_double(rbl_line_reader *r, const char *what, double *out, rbl_error *err)
{
    char *s = take_token(r, what, err), *end;
    if (!s)
        return RBL_EPARSE;
    errno = 0;
    double v = strtod(s, &end);
    int bad = end == s || *end != '\0';
    int overflow = errno == ERANGE && fabs(v) > 1.0;
    if (bad || overflow || !isfinite(v))
        return rbl_error_set(err, bad ? RBL_EPARSE : RBL_ERANGE, "%s:%ld: %s '%.64s' is %s",
                             r->path, r->line, what, s,
                             bad ? "not a number" : "not a finite number");
    *out = v;
    return RBL_OK;
}

int rbl_reader_size(rbl_line_reader *r, const char *what, size_t *out, rbl_error *err)
{
    char *s = take_token(r, what, err), *end;
    if (!s)
        return RBL_EPARSE;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s || *end != '\0' || *s == '-' || *s == '+' || errno == ERANGE)
        return rbl_error_set(err, RBL_EPARSE, "%s:%ld: %s '%.64s' is not a whole number >= 0",
                             r->path, r->line, what, s);
    *out = (size_t)v;
    return RBL_OK;
}

int rbl_reader_key(rbl_line_reader *r, const char *key, rbl_error *err)
{
    int rc = rbl_reader_next(r, err);
    if (rc < 0)
        return rc;
    if (rc == 0)
        return rbl_error_set(err, RBL_EPARSE, "%s:%ld: the file ends before '%s'", r->path,
                             r->line, key);
    char *word;
    rc = rbl_reader_word(r, key, &word, err);
    if (rc == RBL_OK && strcmp(word, key) != 0)
        rc = rbl_error_set(err, RBL_EPARSE, "%s:%ld: expected '%s', found '%.64s'", r->path,
                           r->line, key, word);
    return rc;
}

int rbl_reader_vouch(rbl_line_reader *r, uint64_t count, size_t min_bytes, int separated,
                     const char *what, rbl_error *err)
{
    if (count <= RBL_VOUCH_FREE_ITEMS) /* small: the reader names the line where data ends */
        return RBL_OK;
    struct stat st;
    long at = ftell(r->file);
    if (at >= 0 && fstat(fileno(r->file), &st) == 0 && S_ISREG(st.st_mode)) {
        uint64_t left = (uint64_t)st.st_size > (uint64_t)at ? (uint64_t)st.st_size - (uint64_t)at
                                                            : 0;
        /* count items of min_bytes, the last one's separator (a newline) may be missing */
        if (count > (left + (separated ? 1 : 0)) / min_bytes)
            return rbl_error_set(err, RBL_EPARSE, "%s:%ld: announces %llu %s, which need at "
                                 "least %zu bytes each, but the file has %llu bytes left",
                                 r->path, r->line, (unsigned long long)count, what, min_bytes,
                                 (unsigned long long)left);
        return RBL_OK;
    }
    if (count > RBL_STREAM_ITEMS_MAX)
        return rbl_error_set(err, RBL_ETOOBIG, "%s:%ld: announces %llu %s, but a stream whose "
                             "size cannot be told (a pipe) may announce at most %llu: read it "
                             "from a file", r->path, r->line, (unsigned long long)count, what,
                             (unsigned long long)RBL_STREAM_ITEMS_MAX);
    return RBL_OK;
}
