/* line_reader.c — reading numeric text files line by line with file:line context; blank
 * lines and '#' comments are skipped anywhere. NaN and infinity are refused. A line longer
 * than RBL_MAX_LINE_BYTES (1 MiB; the environment variable of that name raises it) is
 * refused before it is held whole, so /dev/zero or a file with no newline cannot eat the
 * memory; a read error, an allocation failure included, is an error, never an end of file. */
#include "io_internal.h"

#include <ctype.h>
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
    r->file = fopen(path, "r");
    if (!r->file)
        return rbl_error_set(err, RBL_EIO, "%s: cannot open: %s", path, strerror(errno));
    return RBL_OK;
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
