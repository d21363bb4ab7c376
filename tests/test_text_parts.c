/* test_text_parts.c — a text file read in parts, as several processes read a grains file at
 * a start apart (issue 47): for every way of cutting tricky files (comments, blank lines,
 * CRLF, long lines, no final newline, a cut inside a line or right after a newline) the parts'
 * lines, numbered on from the lines of the parts before, are the whole read's, and the
 * grains read in parts get the whole read's ids and values; a bad line in a late part is named
 * as the whole read names it. */
#include "io/io_internal.h"
#include "dem/dem_internal.h"
#include "dem_test_util.h"
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[] = "/tmp/rubble_parts_XXXXXX";

/* Where the q-th of P equal parts of size bytes starts (as run_ranks.c cuts a file). */
static uint64_t cut_at(uint64_t size, int P, int q)
{
    return size / (uint64_t)P * (uint64_t)q + size % (uint64_t)P * (uint64_t)q / (uint64_t)P;
}

static const char *write_file(const char *name, const char *text)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    ASSERT_TRUE(f != NULL);
    fwrite(text, 1, strlen(text), f);
    fclose(f);
    return path;
}

/* The meaningful lines a reader gives: "number:rest of the line" each, joined. */
typedef struct lines {
    char text[8192];
    size_t len;
    uint64_t meaningful;
} lines;

static void read_lines(rbl_line_reader *r, lines *out)
{
    rbl_error err = {0};
    int rc;
    while ((rc = rbl_reader_next(r, &err)) == 1) {
        int n = snprintf(out->text + out->len, sizeof out->text - out->len, "%ld:%s|", r->line,
                         r->cursor);
        ASSERT_TRUE(n > 0 && (size_t)n < sizeof out->text - out->len);
        out->len += (size_t)n, out->meaningful++;
    }
    ASSERT_EQ_INT(rc, 0);
    rbl_reader_close(r);
}

/* The file cut at the cuts (n + 1 offsets, the first 0 and the last its size): the parts'
 * lines in order, each part's numbered on from the counts of the parts before. */
static void read_in_parts(const char *path, const uint64_t *cut, int n, lines *out)
{
    rbl_error err = {0};
    uint64_t lines_before = 0, meaningful = 0;
    memset(out, 0, sizeof *out);
    for (int q = 0; q < n; q++) {
        uint64_t l, m;
        ASSERT_OK(rbl_text_part_count(path, cut[q], cut[q + 1], &l, &m, &err));
        rbl_line_reader r;
        ASSERT_OK(rbl_reader_open_part(&r, path, cut[q], cut[q + 1], lines_before, &err));
        const uint64_t before = out->meaningful;
        read_lines(&r, out);
        ASSERT_EQ_INT(out->meaningful - before, m); /* the count without parsing is the read's */
        lines_before += l, meaningful += m;
    }
    ASSERT_EQ_INT(meaningful, out->meaningful);
}

static void check_file(const char *name, const char *text)
{
    const char *path = write_file(name, text);
    rbl_error err = {0};
    uint64_t size;
    ASSERT_OK(rbl_text_size(path, &size, &err));
    ASSERT_EQ_INT(size, strlen(text));
    lines whole = {0}, parts;
    rbl_line_reader r;
    ASSERT_OK(rbl_reader_open(&r, path, &err));
    read_lines(&r, &whole);
    /* two parts, cut at every byte (inside lines, on newlines, before and after the end) */
    for (uint64_t k = 0; k <= size + 1; k++) {
        const uint64_t cut[3] = {0, k, size};
        read_in_parts(path, cut, 2, &parts);
        ASSERT_TRUE(parts.len == whole.len && memcmp(parts.text, whole.text, whole.len) == 0);
    }
    /* P equal parts, as the processes cut it, P = 1..12 (parts empty when P > size) */
    for (int P = 1; P <= 12; P++) {
        uint64_t cut[13];
        for (int q = 0; q <= P; q++)
            cut[q] = cut_at(size, P, q);
        ASSERT_EQ_INT(cut[P], size);
        read_in_parts(path, cut, P, &parts);
        ASSERT_TRUE(parts.len == whole.len && memcmp(parts.text, whole.text, whole.len) == 0);
    }
    printf("ok: %s (%zu bytes, %llu meaningful lines) read in 2 parts cut at every byte and in "
           "1-12 equal parts: the whole read's lines and numbers\n", name, strlen(text),
           (unsigned long long)whole.meaningful);
}

/* The grains file read by P emulated processes, each its part into a simulation of its own,
 * ids continuing from one before: every grain as the whole read's, or the first failing
 * part's message as the whole read's. */
static void check_grains(const char *name, const char *text, int P)
{
    const char *path = write_file(name, text);
    const rbl_sim_config c = dem_config(-1, 1, 1e3, 0, 1e-5);
    rbl_sim *whole = dem_create(&c, 2500);
    dem_grain(whole, 0, 0, 0.9, 0, 0, 0, 0.01); /* an earlier source's grain: ids go on */
    rbl_error err = {0}, part_err = {0};
    size_t placed_whole = 0;
    const int whole_rc = rbl_grains_read_text(whole, path, 0, &placed_whole, &err);
    uint64_t size, l[16], m[16], lines_before = 0, grains_before = 0, total = 0;
    ASSERT_OK(rbl_text_size(path, &size, &part_err));
    uint64_t cut[17];
    for (int q = 0; q <= P; q++)
        cut[q] = cut_at(size, P, q);
    for (int q = 0; q < P; q++) {
        ASSERT_OK(rbl_text_part_count(path, cut[q], cut[q + 1], &l[q], &m[q], &part_err));
        total += m[q];
    }
    rbl_grains_view w;
    rbl_sim_grains(whole, &w);
    size_t seen = 1;
    int first_rc = RBL_OK;
    for (int q = 0; q < P; q++) {
        rbl_sim *sim = dem_create(&c, 2500);
        dem_grain(sim, 0, 0, 0.9, 0, 0, 0, 0.01);
        rbl_text_part part = {cut[q], cut[q + 1], lines_before, grains_before, total};
        size_t placed = 0;
        rbl_error e = {0};
        const int rc = rbl_grains_read_text_part(sim, path, 0, &part, &placed, &e);
        if (rc != RBL_OK && first_rc == RBL_OK)
            first_rc = rc, part_err = e; /* (the lowest rank's message is everyone's) */
        if (rc == RBL_OK) {
            ASSERT_EQ_INT(placed, total);
            ASSERT_EQ_INT(sim->next_id, 1 + total);
        }
        rbl_grains_view v;
        rbl_sim_grains(sim, &v);
        for (size_t k = 1; whole_rc == RBL_OK && k < v.n; k++, seen++) { /* file order */
            ASSERT_EQ_INT(v.id[k], w.id[seen]);
            ASSERT_TRUE(memcmp(v.pos + 3 * k, w.pos + 3 * seen, 3 * sizeof *v.pos) == 0);
            ASSERT_TRUE(memcmp(v.vel + 3 * k, w.vel + 3 * seen, 3 * sizeof *v.vel) == 0);
            ASSERT_TRUE(v.radius[k] == w.radius[seen]);
        }
        rbl_sim_destroy(sim);
        lines_before += l[q], grains_before += m[q];
    }
    ASSERT_EQ_INT(first_rc, whole_rc);
    if (whole_rc == RBL_OK) {
        ASSERT_EQ_INT(seen, w.n);
        ASSERT_EQ_INT(placed_whole, total);
        printf("ok: %s, %zu grains in %d parts: the whole read's ids and values\n", name,
               placed_whole, P);
    } else {
        ASSERT_TRUE(strcmp(part_err.message, err.message) == 0);
        printf("ok: %s in %d parts refused as read whole: %s\n", name, P, err.message);
    }
    rbl_sim_destroy(whole);
}

int main(void)
{
    ASSERT_TRUE(mkdtemp(dir) != NULL);
    check_file("plain.txt", "1 2 3 4\n5 6 7 8\n9 10 11 12\n");
    check_file("no_final_newline.txt", "# x y z r\n1 2 3 4\n\n  \n5 6 7 8 # a comment\n9 1 1 1");
    check_file("crlf.txt", "# made on Windows\r\n1 2 3 4\r\n\r\n5 6 7 8\r\n#\r\n#\r\n9 9 9 9\r\n");
    check_file("blank.txt", "\n\n\n   \n# only comments\n\n");
    check_file("empty.txt", "");
    check_file("one_long_line.txt",
               "0.001 0.002 0.003 0.0004 0.5 0.5 0.5          # a long comment after a long "
               "line of numbers, longer than every part of it\n");
    char many[6000] = {0};
    for (int k = 0, at = 0; k < 120; k++)
        at += snprintf(many + at, sizeof many - (size_t)at, k % 9 == 4 ? "# comment %d\n"
                       : k % 11 == 7 ? "\n" : "%d.5 0.25 0.125 0.01 1 2 3\n", k);
    check_file("many.txt", many);
    for (int P = 1; P <= 7; P++) {
        check_grains("grains.txt", many, P);
        check_grains("bad_late.txt", "0 0 0 0.01\n# a\n0.1 0 0 0.01\n0.2 0 0 0.01\n0.3 0 0 0.01\n"
                     "0.4 0 0 0.01\n0.5 0 0 0.01 7\n0.6 0 0 0.01\n", P);
        check_grains("bad_early.txt", "0 0 0 -0.01\n0.1 0 0 0.01\n0.2 0 0 nan\n0.3 0 0 0.01\n", P);
    }
    static const char *const names[] = {"plain.txt", "no_final_newline.txt", "crlf.txt",
                                         "blank.txt", "empty.txt", "one_long_line.txt",
                                         "many.txt", "grains.txt", "bad_late.txt",
                                         "bad_early.txt"};
    for (size_t k = 0; k < sizeof names / sizeof *names; k++) /* (a failure leaves them) */
        unlink(write_file(names[k], ""));
    rmdir(dir);
    return 0;
}
