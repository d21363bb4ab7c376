/* checkpoint_read_ranks.c — a checkpoint read by every process at once (issue 47): each reads
 * the head (configuration, walls, meshes: what every process holds) and, of the grains, only
 * its share: the file's grains n r / P .. n (r + 1) / P - 1, and of the clumps the clumps
 * nb r / P .. nb (r + 1) / P - 1 with their members (which come from the processes that read
 * them): the shares rbl_domain_create keeps of a whole read, so the run goes on with the same
 * bits. Of the lists each reads the pairs of its grains (the list is sorted by first grain:
 * found by bisection) and their wall contacts, and sends each touching contact's history to
 * the processes that will hold its grains (a grain's reader tells the other end's id and
 * holder). The checksum runs through the payload rank to rank, each streaming its P-th of the
 * bytes; ids are checked unique in id slices. No process holds more than its share, the head
 * and the slices. */
#include "checkpoint_layout.h"
#include "io_internal.h"
#include "../bonds/bonds_internal.h"
#include "../parallel/parallel_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HEAD_FIRST 65536u      /* bytes read first for the head; four times more while it goes on */
#define HASH_CHUNK (4u << 20)  /* bytes read at a time for the checksum */
#define FILE_HEAD 24u          /* magic, version, byte-order mark, payload size */

typedef struct reader {
    int fd;
    uint32_t version; /* the file's format */
    uint64_t len; /* the payload's bytes */
    int bad;      /* a read fell short, or would pass the payload's end */
} reader;

/* bytes at the payload's offset at */
static void rd(reader *r, uint64_t at, void *data, uint64_t bytes)
{
    if (r->bad || !bytes)
        return;
    if (at > r->len || bytes > r->len - at) {
        r->bad = 1;
        return;
    }
    char *p = data;
    while (bytes) {
        ssize_t got = pread(r->fd, p, bytes, (off_t)(FILE_HEAD + at));
        if (got <= 0) {
            r->bad = 1;
            return;
        }
        p += got, at += (uint64_t)got, bytes -= (uint64_t)got;
    }
}

static uint64_t rd_u64(reader *r, uint64_t at)
{
    uint64_t v = 0;
    rd(r, at, &v, sizeof v);
    return v;
}

/* A column of count elements of `each` bytes at *at: where it begins; *at moved past it. */
static uint64_t column(reader *r, uint64_t *at, uint64_t count, size_t each)
{
    const uint64_t begin = *at;
    if (*at > r->len || count > (r->len - *at) / each)
        r->bad = 1;
    else
        *at += count * each;
    return begin;
}

/* The first element of a sorted column of 32-bit values at or above v (bisection). */
static uint64_t first_at_least(reader *r, uint64_t col, uint64_t count, uint32_t v)
{
    uint64_t lo = 0, hi = count;
    while (lo < hi && !r->bad) {
        const uint64_t mid = lo + (hi - lo) / 2;
        uint32_t x = 0;
        rd(r, col + 4 * mid, &x, 4);
        if (x < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The process whose share of n grains holds grain j. */
static int share_of(uint64_t j, uint64_t n, int P)
{
    int q = (int)(j * (uint64_t)P / n);
    while (q + 1 < P && n * (uint64_t)(q + 1) / (uint64_t)P <= j)
        q++;
    while (q > 0 && n * (uint64_t)q / (uint64_t)P > j)
        q--;
    return q;
}

typedef struct hashing {
    reader *r;
    uint64_t from, to;
    unsigned char *chunk;
} hashing;

/* The checksum continued through this process's bytes (rbl_comm_chain's step). */
static uint64_t hash_share(void *ctx, uint64_t h)
{
    hashing *s = ctx;
    for (uint64_t at = s->from; at < s->to && !s->r->bad;) {
        const uint64_t n = s->to - at < HASH_CHUNK ? s->to - at : HASH_CHUNK;
        rd(s->r, at, s->chunk, n);
        h = rbl_fnv1a(h, s->chunk, (size_t)n);
        at += n;
    }
    return h;
}

/* The payload's checksum, each process hashing its P-th in turn, against the file's. */
static int checksum(rbl_comm *c, reader *r, const char *path, rbl_error *err)
{
    const int P = rbl_comm_size(c), me = rbl_comm_rank(c);
    hashing s = {r, r->len * (uint64_t)me / (uint64_t)P, r->len * (uint64_t)(me + 1) / (uint64_t)P,
                 malloc(HASH_CHUNK)};
    int rc = rbl_comm_agree(c, s.chunk ? RBL_OK : rbl_error_set(err, RBL_ENOMEM, "out of memory"),
                            err);
    if (rc == RBL_OK) {
        const uint64_t h = rbl_comm_chain(c, RBL_FNV1A_START, hash_share, &s);
        uint64_t sum = 0;
        if (me == 0 && pread(r->fd, &sum, sizeof sum, (off_t)(FILE_HEAD + r->len)) != sizeof sum)
            r->bad = 1;
        rc = r->bad ? rbl_error_set(err, RBL_EPARSE, "%s: truncated checkpoint", path)
             : me == 0 && h != sum
                 ? rbl_error_set(err, RBL_EPARSE, "%s: corrupt checkpoint (checksum mismatch)",
                                 path)
                 : RBL_OK;
        rc = rbl_comm_agree(c, rc, err);
    }
    free(s.chunk);
    return rc;
}

/* The head, read in growing windows until it ends within one. */
static int read_head(reader *r, const char *path, rbl_sim **sim, uint64_t *used, rbl_error *err)
{
    uint64_t have = r->len < HEAD_FIRST ? r->len : HEAD_FIRST;
    for (;;) {
        unsigned char *window = malloc(have ? have : 1);
        if (!window)
            return rbl_error_set(err, RBL_ENOMEM, "%s: out of memory", path);
        rd(r, 0, window, have);
        size_t took = 0;
        int more = 0;
        int rc = r->bad ? rbl_error_set(err, RBL_EPARSE, "%s: truncated checkpoint", path)
                        : rbl_checkpoint_read_head(window, have, r->len, r->version, path,
                                                   sim, &took, &more, err);
        free(window);
        if (!more || have == r->len) {
            *used = took;
            return rc;
        }
        rbl_sim_destroy(*sim);
        *sim = NULL;
        have = r->len / 4 < have ? r->len : 4 * have;
    }
}

/* The grains' columns in the file's order (checkpoint_layout.h): where each lies, its bytes
 * per grain, and the array it is read into (NULL: one the simulation does not keep). */
#define COUNT_ONE(f) +1
enum { COLUMNS = 0 GRAIN_VECS(COUNT_ONE) GRAIN_DBLS(COUNT_ONE) + 5 }; /* and the 5 below */
#undef COUNT_ONE
typedef struct grain_column {
    unsigned char *p;
    size_t each;
    uint64_t at;
} grain_column;

static void grain_columns(rbl_grains *g, grain_column *c)
{
    int k = 0;
#define COL(f, bytes) c[k].p = (unsigned char *)g->f, c[k].each = (bytes), k++;
#define COL_VEC(f) COL(f, 3 * sizeof(double))
#define COL_DBL(f) COL(f, sizeof(double))
    GRAIN_VECS(COL_VEC)
    GRAIN_DBLS(COL_DBL)
    COL(id, sizeof *g->id) COL(material, sizeof *g->material) COL(contacts, sizeof *g->contacts)
    COL(body, sizeof *g->body) COL(slot, sizeof *g->slot)
#undef COL
#undef COL_VEC
#undef COL_DBL
}

/* What a process reads of the lists: its pairs (first grain in its share) and wall contacts. */
typedef struct lists {
    uint64_t np, p_lo, p_hi, col_i; /* pairs in all, this process's, the i column */
    uint64_t nw, w_lo, w_hi;        /* wall contacts likewise */
    rbl_pair_list p;                /* this process's pairs (arrays only; out in pair order) */
    rbl_wall_list w;                /* its wall contacts, grains and candidates from 0 */
} lists;

static void lists_free(lists *l)
{
    free(l->p.i), free(l->p.j), free(l->p.image), free(l->p.touch), free(l->p.hist);
    free(l->p.out);
    free(l->w.grain), free(l->w.wall), free(l->w.touch), free(l->w.hist), free(l->w.out);
    free(l->w.facet), free(l->w.cand_lo), free(l->w.cand_hi), free(l->w.cand);
}

/* Grains lo..hi - 1 of n: their columns after the head (at: the grain count's place); where
 * each column lies, in col. */
static int read_grains(reader *r, rbl_sim *sim, uint64_t *at, uint64_t lo, uint64_t hi,
                       uint64_t *n_all, grain_column *col, rbl_error *err)
{
    const uint64_t n = rd_u64(r, *at);
    *at += 8;
    *n_all = n;
    rbl_grains *g = &sim->g;
    if (r->bad || n > (r->len - *at) / CKPT_GRAIN_BYTES || n > UINT32_MAX || hi > n)
        return RBL_EPARSE;
    const uint64_t m = hi - lo;
    int rc = rbl_grains_reserve(g, (size_t)m, err);
    if (rc == RBL_OK) /* read as a whole read reads them, checked, then kept only if set */
        rc = rbl_grains_external(g, err);
    if (rc != RBL_OK)
        return rc;
    g->n = (size_t)m;
    grain_columns(g, col);
    for (int k = 0; k < COLUMNS; k++) {
        col[k].at = column(r, at, n, col[k].each);
        if (col[k].p)
            rd(r, col[k].at + lo * col[k].each, col[k].p, m * col[k].each);
    }
    return r->bad ? RBL_EPARSE : RBL_OK;
}

/* Clumps lo..hi - 1 of nb (at: after the counts) with their member slots, slots numbered from
 * this share's first (*slot0 in the file); checked as a whole read checks them, but for their
 * members' grains, which come later. 0 when inconsistent, -1 out of memory. */
static int read_bodies(reader *r, rbl_sim *sim, uint64_t *at, uint64_t nb, uint64_t members,
                       uint64_t lo, uint64_t hi, int first, int last, uint64_t *slot0)
{
    rbl_bodies *bd = &sim->bodies;
    const uint64_t m = hi - lo;
    if (*at > r->len || nb > (r->len - *at) / CKPT_BODY_BYTES ||
        members > (r->len - *at) / CKPT_SLOT_BYTES)
        return 0;
    if (!rbl_bodies_reserve(bd, (size_t)m + 1, 1))
        return -1;
    bd->n = (size_t)m;
#define READ_BODY(f, k)                                                                        \
    {                                                                                          \
        const size_t each = (k) * sizeof *bd->f;                                               \
        const uint64_t col = column(r, at, nb, each);                                          \
        rd(r, col + lo * each, bd->f, m * each);                                               \
    }
    BODY_ARRAYS(READ_BODY)
#undef READ_BODY
    const uint64_t col_start = column(r, at, nb + 1, sizeof *bd->start);
    rd(r, col_start + lo * sizeof *bd->start, bd->start, (m + 1) * sizeof *bd->start);
    const uint64_t s0 = bd->start[0], s1 = bd->start[m];
    if (r->bad || (first && s0 != 0) || (last && s1 != members) || s1 > members || s0 > s1)
        return 0;
    for (size_t b = 0; b < m; b++)
        if (bd->start[b + 1] < bd->start[b] || bd->material[b] < 0 ||
            bd->material[b] >= sim->n_materials || !(bd->mass[b] > 0))
            return 0;
    if (!rbl_bodies_reserve(bd, (size_t)m + 1, (size_t)(s1 - s0) + 1))
        return -1;
    bd->members = (size_t)(s1 - s0);
    const uint64_t col_id = column(r, at, members, sizeof *bd->member_id);
    const uint64_t col_index = column(r, at, members, sizeof *bd->member_index);
    const uint64_t col_offset = column(r, at, members, 3 * sizeof *bd->offset);
    rd(r, col_id + s0 * sizeof *bd->member_id, bd->member_id, bd->members * sizeof *bd->member_id);
    rd(r, col_index + s0 * sizeof *bd->member_index, bd->member_index,
       bd->members * sizeof *bd->member_index);
    rd(r, col_offset + s0 * 3 * sizeof *bd->offset, bd->offset,
       bd->members * 3 * sizeof *bd->offset);
    for (size_t b = 0; b <= m; b++)
        bd->start[b] -= s0;
    *slot0 = s0;
    return !r->bad;
}

/* The pairs and wall contacts of grains lo..hi - 1 (the last process: up to the lists' ends),
 * read and checked as a whole read checks them. */
static int read_lists(reader *r, const rbl_sim *sim, uint64_t *at, uint64_t lo, uint64_t hi,
                      uint64_t n, int last, lists *l)
{
    const size_t width = rbl_hist_width(&sim->cfg.law), wide = rbl_wall_hist_width(&sim->cfg.law);
    l->np = rd_u64(r, *at);
    *at += 8;
    l->col_i = column(r, at, l->np, 4);
    const uint64_t col_j = column(r, at, l->np, 4), col_image = column(r, at, l->np, 1);
    const uint64_t col_touch = column(r, at, l->np, 1);
    const uint64_t col_hist = column(r, at, l->np, 8 * width);
    const uint64_t col_out = column(r, at, l->np, 8 * RBL_PAIR_OUT);
    l->p_lo = first_at_least(r, l->col_i, l->np, (uint32_t)lo);
    l->p_hi = last ? l->np : first_at_least(r, l->col_i, l->np, (uint32_t)hi);
    if (r->bad || l->p_hi < l->p_lo)
        return 0;
    const uint64_t mp = l->p_hi - l->p_lo;
    rbl_pair_list *p = &l->p;
    p->n = (size_t)mp;
    p->i = malloc(4 * mp + 1), p->j = malloc(4 * mp + 1);
    p->image = malloc(mp + 1), p->touch = malloc(mp + 1);
    p->hist = malloc(8 * width * mp + 1);
    p->out = malloc(8 * RBL_PAIR_OUT * mp + 1);
    if (!p->i || !p->j || !p->image || !p->touch || !p->hist || !p->out)
        return -1;
    rd(r, l->col_i + 4 * l->p_lo, p->i, 4 * mp), rd(r, col_j + 4 * l->p_lo, p->j, 4 * mp);
    rd(r, col_image + l->p_lo, p->image, mp), rd(r, col_touch + l->p_lo, p->touch, mp);
    rd(r, col_hist + 8 * width * l->p_lo, p->hist, 8 * width * mp);
    rd(r, col_out + 8 * RBL_PAIR_OUT * l->p_lo, p->out, 8 * RBL_PAIR_OUT * mp);
    if (r->bad || !rbl_checkpoint_pairs_valid(p, p->out, width, lo, hi, n))
        return 0;

    l->nw = rd_u64(r, *at);
    *at += 8;
    const uint64_t col_grain = column(r, at, l->nw, 4), col_wall = column(r, at, l->nw, 4);
    const uint64_t col_wtouch = column(r, at, l->nw, 1);
    const uint64_t col_whist = column(r, at, l->nw, 8 * wide);
    const uint64_t col_wout = column(r, at, l->nw, 8 * RBL_WALL_OUT);
    const uint64_t col_facet = column(r, at, l->nw, 4);
    const uint64_t col_lo = column(r, at, l->nw, 8), col_hi = column(r, at, l->nw, 8);
    const uint64_t n_cand = rd_u64(r, *at), cand_max = rd_u64(r, *at + 8);
    *at += 16;
    const uint64_t col_cand = column(r, at, n_cand, 4);
    l->w_lo = first_at_least(r, col_grain, l->nw, (uint32_t)lo);
    l->w_hi = last ? l->nw : first_at_least(r, col_grain, l->nw, (uint32_t)hi);
    if (r->bad || l->w_hi < l->w_lo)
        return 0;
    const uint64_t mw = l->w_hi - l->w_lo;
    rbl_wall_list *w = &l->w;
    w->n = (size_t)mw;
    w->grain = malloc(4 * mw + 1), w->wall = malloc(4 * mw + 1), w->touch = malloc(mw + 1);
    w->hist = malloc(8 * wide * mw + 1);
    w->cand_lo = malloc(8 * mw + 1), w->cand_hi = malloc(8 * mw + 1);
    w->out = malloc(8 * RBL_WALL_OUT * mw + 1), w->facet = malloc(4 * mw + 1);
    if (!w->grain || !w->wall || !w->touch || !w->hist || !w->cand_lo || !w->cand_hi ||
        !w->out || !w->facet)
        return -1;
    rd(r, col_grain + 4 * l->w_lo, w->grain, 4 * mw), rd(r, col_wall + 4 * l->w_lo, w->wall, 4 * mw);
    rd(r, col_wtouch + l->w_lo, w->touch, mw);
    rd(r, col_whist + 8 * wide * l->w_lo, w->hist, 8 * wide * mw);
    rd(r, col_wout + 8 * RBL_WALL_OUT * l->w_lo, w->out, 8 * RBL_WALL_OUT * mw);
    rd(r, col_facet + 4 * l->w_lo, w->facet, 4 * mw);
    rd(r, col_lo + 8 * l->w_lo, w->cand_lo, 8 * mw), rd(r, col_hi + 8 * l->w_lo, w->cand_hi, 8 * mw);
    /* the candidates these mesh contacts name, numbered from the first of them (a plane's
       are not read) */
    uint64_t c_lo = n_cand, c_hi = 0;
    for (size_t q = 0; q < w->n; q++) {
        if (rbl_wall_is_mesh(w->wall[q])) {
            c_lo = w->cand_lo[q] < c_lo ? w->cand_lo[q] : c_lo;
            c_hi = w->cand_hi[q] > c_hi ? w->cand_hi[q] : c_hi;
        }
        w->grain[q] -= (uint32_t)lo; /* (below lo: beyond the share, refused) */
    }
    if (c_hi > n_cand || r->bad)
        return 0;
    c_lo = c_lo < c_hi ? c_lo : c_hi;
    w->n_cand = (size_t)(c_hi - c_lo), w->cand_max = (size_t)cand_max;
    w->cand = malloc(4 * w->n_cand + 1);
    if (!w->cand)
        return -1;
    rd(r, col_cand + 4 * c_lo, w->cand, 4 * w->n_cand);
    for (size_t q = 0; q < w->n; q++)
        w->cand_lo[q] -= c_lo, w->cand_hi[q] -= c_lo;
    return !r->bad && rbl_checkpoint_walls_valid(sim, w, (size_t)(hi - lo));
}

/* Bytes for each process, sent in one exchange. */
typedef struct outbox {
    int P, failed;
    unsigned char **p;
    size_t *n, *cap;
} outbox;

static int outbox_open(outbox *o, int P)
{
    memset(o, 0, sizeof *o);
    o->P = P;
    o->p = calloc((size_t)P, sizeof *o->p);
    o->n = calloc(2 * (size_t)P, sizeof *o->n);
    o->cap = o->n ? o->n + P : NULL;
    return o->p && o->n;
}

static void outbox_put(outbox *o, int q, const void *data, size_t bytes)
{
    if (o->failed || !rbl_grow_array((void **)&o->p[q], &o->cap[q], o->n[q] + bytes, 1)) {
        o->failed = 1;
        return;
    }
    memcpy(o->p[q] + o->n[q], data, bytes);
    o->n[q] += bytes;
}

static void outbox_close(outbox *o)
{
    for (int q = 0; o->p && q < o->P; q++)
        free(o->p[q]);
    free(o->p), free(o->n);
}

/* Every process's bytes for every other: *in (malloc'd) of in_bytes[q] from each q at
 * in_at[q] (arrays of P). Collective; the outbox closed. */
static int outbox_send(rbl_comm *c, outbox *o, unsigned char **in, size_t *in_bytes,
                       size_t *in_at, rbl_error *err)
{
    const int P = o->P;
    *in = NULL;
    size_t *at = calloc((size_t)P, sizeof *at), total = 0;
    for (int q = 0; at && q < P; q++)
        at[q] = total, total += o->n[q];
    unsigned char *all = at && !o->failed ? malloc(total + 1) : NULL;
    for (int q = 0; all && q < P; q++)
        if (o->n[q])
            memcpy(all + at[q], o->p[q], o->n[q]);
    int rc = rbl_comm_agree(c, all ? RBL_OK : rbl_error_set(err, RBL_ENOMEM, "out of memory"),
                            err);
    if (rc == RBL_OK)
        rc = rbl_comm_exchange(c, all, o->n, at, (void **)in, in_bytes, in_at, err);
    free(all), free(at);
    outbox_close(o);
    return rc;
}

/* Who holds what at the start: the shares of grains and clumps. */
typedef struct shares {
    uint64_t n, lo, hi;    /* grains: all, this process's */
    uint64_t nb, blo, bhi; /* clumps likewise */
    int P, me;
} shares;

/* The process that holds file grain x (in clump body, or -1) once the grains are spread. */
static int holder(const shares *s, uint64_t x, int32_t body)
{
    return body >= 0 ? share_of((uint64_t)body, s->nb, s->P) : share_of(x, s->n, s->P);
}

/* A pair's history and results (width doubles) as a row: lower id first, oriented from it
 * (swapped, as history.c's maps swap them: the force on the other grain, the torque kept). */
static void pair_row(const rbl_contact_law *law, size_t width, uint32_t a, uint32_t b,
                     const double *h, double *row)
{
    row[0] = a < b ? a : b, row[1] = a < b ? b : a;
    memcpy(row + 2, h, width * sizeof *h);
    if (a > b) {
        const size_t hw = rbl_hist_width(law);
        rbl_history_swap(law, h, row + 2);
        row[2 + hw] = -h[hw], row[3 + hw] = -h[hw + 1], row[4 + hw] = -h[hw + 2];
    }
}

/* Each touching pair's other grain, read by another process: its id and holder, asked of its
 * reader (in the order of the pairs). Collective; *other (malloc'd) 2 doubles a pair (the
 * pairs of two grains read here too). */
static int other_ends(rbl_comm *c, const shares *sh, const rbl_grains *g, const rbl_pair_list *p,
                      double **other, rbl_error *err)
{
    const int P = sh->P;
    outbox ask;
    *other = malloc((2 * p->n + 1) * sizeof **other);
    int rc = outbox_open(&ask, P) && *other ? RBL_OK
                                            : rbl_error_set(err, RBL_ENOMEM, "out of memory");
    for (size_t q = 0; rc == RBL_OK && q < p->n; q++) {
        const uint64_t j = p->j[q];
        if (!p->touch[q])
            continue;
        if (j - sh->lo < g->n) {
            (*other)[2 * q] = g->id[j - sh->lo];
            (*other)[2 * q + 1] = holder(sh, j, g->body[j - sh->lo]);
        } else {
            const double v = (double)j;
            outbox_put(&ask, share_of(j, sh->n, P), &v, sizeof v);
        }
    }
    unsigned char *in = NULL, *back = NULL;
    size_t *b = calloc(8 * (size_t)P, sizeof *b);
    if (rc == RBL_OK && !b)
        rc = rbl_error_set(err, RBL_ENOMEM, "out of memory");
    rc = rbl_comm_agree(c, rc, err);
    if (rc == RBL_OK)
        rc = outbox_send(c, &ask, &in, b, b + P, err);
    else
        outbox_close(&ask);
    outbox answer;
    if (rc == RBL_OK && !outbox_open(&answer, P))
        rc = rbl_error_set(err, RBL_ENOMEM, "out of memory");
    for (int q = 0; rc == RBL_OK && q < P; q++) /* the answers: id and holder */
        for (size_t e = 0; e < b[q] / sizeof(double); e++) {
            double j;
            memcpy(&j, in + b[P + q] + e * sizeof j, sizeof j);
            const uint64_t k = (uint64_t)j - sh->lo;
            if (k >= g->n) {
                rc = rbl_error_set(err, RBL_EINVAL, "grain %.0f asked of the wrong process", j);
                break;
            }
            const double v[2] = {g->id[k], holder(sh, (uint64_t)j, g->body[k])};
            outbox_put(&answer, q, v, sizeof v);
        }
    rc = rbl_comm_agree(c, rc, err);
    if (rc == RBL_OK)
        rc = outbox_send(c, &answer, &back, b + 2 * P, b + 3 * P, err);
    size_t *next = b + 4 * P; /* per process: the next answer */
    for (size_t q = 0; rc == RBL_OK && q < p->n; q++) {
        const uint64_t j = p->j[q];
        if (!p->touch[q] || j - sh->lo < g->n)
            continue;
        const int from = share_of(j, sh->n, P);
        memcpy(*other + 2 * q, back + b[3 * P + from] + next[from]++ * 2 * sizeof(double),
               2 * sizeof(double));
    }
    free(in), free(back), free(b);
    return rbl_comm_agree(c, rc, err);
}

/* The histories of the touching contacts read here, to the processes that will hold their
 * grains (rows of rbl_history_rows), and the clump members read here to the holders of their
 * clumps (records of their file place and columns); *grains_in (malloc'd) the members that
 * came, in_bytes / in_at per process. Collective. */
static int hand_over(rbl_comm *c, const shares *sh, rbl_sim *sim, const lists *l,
                     const double *other, rbl_history_rows *pairs, rbl_history_rows *walls,
                     unsigned char **grains_in, size_t *in_bytes, size_t *in_at, rbl_error *err)
{
    const rbl_contact_law *law = &sim->cfg.law;
    rbl_grains *g = &sim->g;
    /* each row: the history, then the last force evaluation's results (a wall contact's
       with its facet), which the lists made again at the start take (rbl_history_outs_restore) */
    const size_t width = rbl_hist_width(law) + RBL_PAIR_OUT;
    const size_t wide = rbl_wall_hist_width(law) + RBL_WALL_KEPT;
    const size_t hw = rbl_hist_width(law), ww = rbl_wall_hist_width(law);
    const int P = sh->P;
    pairs->width = width, walls->width = wide;
    outbox prow, wrow, grain;
    double *row = malloc((2 + (width > wide ? width : wide)) * sizeof *row);
    double *pair = malloc(width * sizeof *pair);
    int rc = outbox_open(&prow, P) & outbox_open(&wrow, P) & outbox_open(&grain, P) && row &&
                     pair
                 ? RBL_OK
                 : rbl_error_set(err, RBL_ENOMEM, "out of memory");
    const rbl_pair_list *p = &l->p;
    for (size_t q = 0; rc == RBL_OK && q < p->n; q++) {
        if (!p->touch[q])
            continue;
        const uint64_t i = p->i[q] - sh->lo;
        const int hi = holder(sh, p->i[q], g->body[i]), hj = (int)other[2 * q + 1];
        memcpy(pair, p->hist + hw * q, hw * sizeof *pair);
        memcpy(pair + hw, p->out + RBL_PAIR_OUT * q, RBL_PAIR_OUT * sizeof *pair);
        pair_row(law, width, g->id[i], (uint32_t)other[2 * q], pair, row);
        for (int e = 0; e < 2 && rc == RBL_OK; e++) {
            const int to = e ? hj : hi;
            if (e && hj == hi)
                break;
            if (to == sh->me)
                rc = rbl_history_rows_push(pairs, (uint32_t)row[0], (uint32_t)row[1], row + 2,
                                           err);
            else
                outbox_put(&prow, to, row, (2 + width) * sizeof *row);
        }
    }
    const rbl_wall_list *w = &l->w;
    for (size_t q = 0; rc == RBL_OK && q < w->n; q++) {
        if (!w->touch[q])
            continue;
        const size_t k = w->grain[q];
        const int to = holder(sh, sh->lo + k, g->body[k]);
        row[0] = g->id[k], row[1] = w->wall[q];
        memcpy(row + 2, w->hist + ww * q, ww * sizeof *row);
        memcpy(row + 2 + ww, w->out + RBL_WALL_OUT * q, RBL_WALL_OUT * sizeof *row);
        row[2 + ww + RBL_WALL_OUT] = (double)w->facet[q];
        if (to == sh->me)
            rc = rbl_history_rows_push(walls, g->id[k], w->wall[q], row + 2, err);
        else
            outbox_put(&wrow, to, row, (2 + wide) * sizeof *row);
    }
    grain_column col[COLUMNS];
    grain_columns(g, col);
    for (size_t k = 0; rc == RBL_OK && k < g->n; k++) { /* members to their clumps' holders */
        const int to = holder(sh, sh->lo + k, g->body[k]);
        if (to == sh->me)
            continue;
        const uint64_t at = sh->lo + k;
        outbox_put(&grain, to, &at, sizeof at);
        for (int x = 0; x < COLUMNS; x++) {
            static const unsigned char zeros[3 * sizeof(double)];
            outbox_put(&grain, to, col[x].p ? col[x].p + k * col[x].each : zeros, col[x].each);
        }
    }
    free(row), free(pair);
    size_t *b = calloc(4 * (size_t)P, sizeof *b);
    if (rc == RBL_OK && !b)
        rc = rbl_error_set(err, RBL_ENOMEM, "out of memory");
    rc = rbl_comm_agree(c, rc, err);
    if (rc != RBL_OK) {
        outbox_close(&prow), outbox_close(&wrow), outbox_close(&grain), free(b);
        return rc;
    }
    unsigned char *in = NULL;
    rc = outbox_send(c, &prow, &in, b, b + P, err);
    for (int q = 0; rc == RBL_OK && q < P; q++)
        for (size_t e = 0; rc == RBL_OK && e < b[q] / ((2 + width) * sizeof(double)); e++) {
            const double *r = (const double *)(in + b[P + q]) + e * (2 + width);
            rc = rbl_history_rows_push(pairs, (uint32_t)r[0], (uint32_t)r[1], r + 2, err);
        }
    free(in), in = NULL;
    if (rc == RBL_OK)
        rc = outbox_send(c, &wrow, &in, b + 2 * P, b + 3 * P, err);
    else
        outbox_close(&wrow);
    for (int q = 0; rc == RBL_OK && q < P; q++)
        for (size_t e = 0; rc == RBL_OK && e < b[2 * P + q] / ((2 + wide) * sizeof(double)); e++) {
            const double *r = (const double *)(in + b[3 * P + q]) + e * (2 + wide);
            rc = rbl_history_rows_push(walls, (uint32_t)r[0], (uint32_t)r[1], r + 2, err);
        }
    free(in), free(b);
    rc = rbl_comm_agree(c, rc, err);
    if (rc == RBL_OK)
        rc = outbox_send(c, &grain, grains_in, in_bytes, in_at, err);
    else
        outbox_close(&grain);
    return rc;
}

/* This process's grains at the start: those read here that stay (no clump's, or a clump's
 * held here) and the members that came, in the file's order; its clumps' slots pointed at
 * them and checked as a whole read checks them. */
static int take_members(const shares *sh, rbl_sim *sim, uint64_t slot0, const unsigned char *in,
                        const size_t *in_bytes, const size_t *in_at, const char *path,
                        rbl_error *err)
{
    rbl_grains *g = &sim->g;
    rbl_bodies *bd = &sim->bodies;
    size_t record = sizeof(uint64_t), came = 0;
    grain_column col[COLUMNS];
    grain_columns(g, col);
    for (int x = 0; x < COLUMNS; x++)
        record += col[x].each;
    for (int q = 0; q < sh->P; q++)
        came += in_bytes[q] / record;
    uint64_t *place = malloc((g->n + came + 1) * sizeof *place);
    uint32_t *order = malloc((g->n + came + 1) * sizeof *order);
    double *scratch = malloc(3 * (g->n + came + 1) * sizeof *scratch);
    int rc = place && order && scratch ? RBL_OK : rbl_error_set(err, RBL_ENOMEM, "out of memory");
    size_t kept = 0;
    for (size_t k = 0; rc == RBL_OK && k < g->n; k++)
        if (holder(sh, sh->lo + k, g->body[k]) == sh->me)
            place[kept] = sh->lo + k, order[kept++] = (uint32_t)k;
    if (rc == RBL_OK) {
        rbl_grains_permute(g, order, kept, scratch);
        rc = rbl_grains_reserve(g, kept + came, err);
    }
    for (int q = 0; rc == RBL_OK && q < sh->P; q++) /* those that came, after */
        for (size_t e = 0; e < in_bytes[q] / record; e++) {
            const unsigned char *r = in + in_at[q] + e * record;
            memcpy(&place[g->n], r, sizeof *place);
            r += sizeof *place;
            grain_columns(g, col);
            for (int x = 0; x < COLUMNS; x++, r += col[x - 1].each)
                if (col[x].p)
                    memcpy(col[x].p + g->n * col[x].each, r, col[x].each);
            g->n++;
        }
    /* in the file's order (each part is in it already: merged) */
    if (rc == RBL_OK) {
        size_t a = 0, b = kept, k = 0;
        uint64_t *merged = malloc((g->n + 1) * sizeof *merged);
        if (!merged)
            rc = rbl_error_set(err, RBL_ENOMEM, "out of memory");
        while (merged && k < g->n) {
            const int from_a = a < kept && (b >= g->n || place[a] < place[b]);
            const size_t x = from_a ? a++ : b++;
            order[k] = (uint32_t)x, merged[k++] = place[x];
        }
        if (merged) {
            rbl_grains_permute(g, order, g->n, scratch);
            memcpy(place, merged, g->n * sizeof *place);
            free(merged);
        }
    }
    /* each slot's grain, by its place in the file: of this clump, this slot, this id */
    for (size_t b = 0; rc == RBL_OK && b < bd->n; b++)
        for (size_t s = bd->start[b]; s < bd->start[b + 1]; s++) {
            const uint64_t want = bd->member_index[s];
            size_t lo = 0, hi = g->n;
            while (lo < hi) {
                const size_t mid = lo + (hi - lo) / 2;
                if (place[mid] < want)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            if (lo == g->n || place[lo] != want || g->body[lo] != (int32_t)(sh->blo + b) ||
                g->slot[lo] != slot0 + s || g->id[lo] != bd->member_id[s]) {
                rc = rbl_error_set(err, RBL_EPARSE, "%s: inconsistent clump data", path);
                break;
            }
            bd->member_index[s] = (uint32_t)lo;
        }
    for (size_t k = 0; rc == RBL_OK && k < g->n; k++) /* numbered here */
        if (g->body[k] >= 0) {
            const uint64_t b = (uint64_t)g->body[k] - sh->blo, s = g->slot[k] - slot0;
            if (b >= bd->n || s < bd->start[b] || s >= bd->start[b + 1] ||
                bd->member_index[s] != k) {
                rc = rbl_error_set(err, RBL_EPARSE, "%s: inconsistent clump data", path);
                break;
            }
            g->body[k] = (int32_t)b, g->slot[k] -= (uint32_t)slot0;
        }
    if (rc == RBL_OK) {
        rbl_bodies_refresh_arms(bd);
        rbl_bodies_member_masses(bd, g);
    }
    free(place), free(order), free(scratch);
    return rc;
}

/* No two grains of all the processes share an id (they name contact histories). Collective. */
static int ids_unique(rbl_comm *c, const rbl_grains *g, const char *path, rbl_error *err)
{
    double *mine = malloc((g->n + 1) * sizeof *mine), *slice = NULL;
    int rc = rbl_comm_agree(c, mine ? RBL_OK : rbl_error_set(err, RBL_ENOMEM, "out of memory"),
                            err);
    size_t n = 0;
    if (rc == RBL_OK) {
        for (size_t k = 0; k < g->n; k++)
            mine[k] = g->id[k];
        rc = rbl_comm_id_slices(c, mine, g->n, 1, &slice, &n, err);
    }
    for (size_t k = 1; rc == RBL_OK && k < n; k++)
        if (slice[k] == slice[k - 1])
            rc = rbl_error_set(err, RBL_EPARSE, "%s: two grains share one id", path);
    free(mine), free(slice);
    return rbl_comm_agree(c, rc, err);
}

int rbl_checkpoint_read_ranks(const char *path, rbl_comm *c, rbl_sim **sim, void **extra,
                              size_t *extra_len, rbl_history_rows *pairs,
                              rbl_history_rows *walls, rbl_error *err)
{
    *sim = NULL, *extra = NULL, *extra_len = 0;
    shares sh = {.P = rbl_comm_size(c), .me = rbl_comm_rank(c)};
    const uint64_t P = (uint64_t)sh.P, me = (uint64_t)sh.me;
    FILE *f = NULL;
    reader r = {0};
    int rc = rbl_checkpoint_file_open(path, CKPT_MAGIC, CKPT_VERSION, &r.version, &f, &r.len,
                                      err);
    if (f)
        r.fd = fileno(f);
    rc = rbl_comm_agree(c, rc, err);
    if (rc == RBL_OK)
        rc = checksum(c, &r, path, err);
    uint64_t at = 0, slot0 = 0;
    lists l;
    memset(&l, 0, sizeof l);
    grain_column col[COLUMNS];
    if (rc == RBL_OK)
        rc = read_head(&r, path, sim, &at, err);
    if (rc == RBL_OK) { /* this process's share of the grains */
        sh.n = rd_u64(&r, at);
        sh.lo = sh.n * me / P, sh.hi = sh.n * (me + 1) / P;
        rc = read_grains(&r, *sim, &at, sh.lo, sh.hi, &sh.n, col, err);
        if (rc == RBL_EPARSE)
            rc = rbl_error_set(err, rc, "%s: truncated or inconsistent grain data", path);
    }
    if (rc == RBL_OK) { /* and of the clumps */
        sh.nb = rd_u64(&r, at);
        const uint64_t members = rd_u64(&r, at + 8);
        at += 16;
        sh.blo = sh.nb * me / P, sh.bhi = sh.nb * (me + 1) / P;
        const int got = read_bodies(&r, *sim, &at, sh.nb, members, sh.blo, sh.bhi, me == 0,
                                    me == P - 1, &slot0);
        rc = got < 0 ? rbl_error_set(err, RBL_ENOMEM, "%s: out of memory", path)
             : !got  ? rbl_error_set(err, RBL_EPARSE, "%s: inconsistent clump data", path)
                     : RBL_OK;
    }
    for (size_t k = 0; rc == RBL_OK && k < (*sim)->g.n; k++) /* in no clump, or in one */
        if ((*sim)->g.body[k] < -1 || (uint64_t)(int64_t)(*sim)->g.body[k] + 1 > sh.nb)
            rc = rbl_error_set(err, RBL_EPARSE, "%s: inconsistent clump data", path);
    if (rc == RBL_OK)
        rc = rbl_checkpoint_grains_check(*sim, (size_t)sh.lo, path, err);
    if (rc == RBL_OK) {
        rbl_checkpoint_external_kept(&(*sim)->g);
        if ((*sim)->g.with_fext && P > 1)
            rc = rbl_error_set(err, RBL_EINVAL, "%s: the grains hold external forces (set from "
                               "Python): they do not run over several processes; restart it "
                               "on one", path);
    }
    if (rc == RBL_OK) {
        const int got = read_lists(&r, *sim, &at, sh.lo, sh.hi, sh.n, me == P - 1, &l);
        rc = got < 0  ? rbl_error_set(err, RBL_ENOMEM, "%s: out of memory", path)
             : !got   ? rbl_error_set(err, RBL_EPARSE, "%s: inconsistent checkpoint contents",
                                      path)
                      : RBL_OK;
    }
    if (rc == RBL_OK) { /* the bonds (format 20): every process reads them all and keeps the
                           broken and the intact of its own grains (bond_state.c) */
        const uint64_t bonds = rd_u64(&r, at);
        const size_t rec = rbl_bond_record_bytes();
        const uint64_t room = at <= r.len ? r.len - at : 0; /* (a count too large: refused
                                                                by the read of all there is) */
        const uint64_t bytes =
            room >= 16 && bonds <= (room - 16) / rec ? 16 + bonds * rec : room;
        unsigned char *section = r.bad ? NULL : malloc((size_t)bytes + 1);
        size_t used = 0;
        if (section)
            rd(&r, at, section, bytes);
        if (!section || r.bad)
            rc = rbl_error_set(err, r.bad ? RBL_EPARSE : RBL_ENOMEM, "%s: %s", path,
                               r.bad ? "truncated bonds" : "out of memory for the bonds");
        else
            rc = rbl_bonds_state_read(*sim, section, (size_t)bytes, &used, 1, path, err);
        free(section);
        at += used;
    }
    if (rc == RBL_OK) { /* the run's state, after the lists */
        const uint64_t len = rd_u64(&r, at);
        at += 8;
        *extra = !r.bad && len <= r.len - at ? malloc(len + 1) : NULL;
        if (*extra)
            rd(&r, at, *extra, len), *extra_len = (size_t)len;
        rc = *extra && !r.bad ? RBL_OK
                              : rbl_error_set(err, RBL_EPARSE, "%s: truncated run state", path);
    }
    if (f)
        fclose(f);
    rc = rbl_comm_agree(c, rc, err);
    /* the histories and the clumps' members to where they are held at the start */
    double *other = NULL;
    unsigned char *members_in = NULL;
    size_t *b = calloc(2 * P, sizeof *b);
    if (rc == RBL_OK)
        rc = rbl_comm_agree(c, b ? RBL_OK : rbl_error_set(err, RBL_ENOMEM, "out of memory"),
                            err);
    if (rc == RBL_OK)
        rc = other_ends(c, &sh, &(*sim)->g, &l.p, &other, err);
    if (rc == RBL_OK)
        rc = hand_over(c, &sh, *sim, &l, other, pairs, walls, &members_in, b, b + P, err);
    if (rc == RBL_OK)
        rc = rbl_comm_agree(c, take_members(&sh, *sim, slot0, members_in, b, b + P, path, err),
                            err);
    free(other), free(members_in), free(b);
    lists_free(&l);
    if (rc == RBL_OK)
        rc = ids_unique(c, &(*sim)->g, path, err);
    if (rc == RBL_OK)
        rc = rbl_comm_agree(c, rbl_checkpoint_loaded(*sim, err), err);
    if (rc != RBL_OK) {
        rbl_sim_destroy(*sim), *sim = NULL;
        free(*extra), *extra = NULL, *extra_len = 0;
        rbl_history_rows_free(pairs), rbl_history_rows_free(walls);
    }
    return rc;
}
