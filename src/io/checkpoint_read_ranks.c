/* checkpoint_read_ranks.c — a checkpoint read by every process at once (issue 47): each reads
 * the head (configuration, walls, meshes: what every process holds) and, of the grains, only
 * its share: the file's grains n r / P .. n (r + 1) / P - 1, the share rbl_domain_create keeps
 * of a whole read, so the run goes on with the same bits. Of the lists it takes the
 * histories of its grains' contacts: its pairs (the list is sorted by first grain: found by
 * bisection) and, for a pair whose second grain another process reads, that process gets the
 * history too (it is needed where either grain goes). The checksum runs through the payload
 * rank to rank, each streaming its P-th of the bytes; ids are checked unique in id slices.
 * No process holds more than its share, the head and the slices. Clumps: read whole (their
 * members are scattered through the grains), told to the caller. */
#include "checkpoint_layout.h"
#include "io_internal.h"
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
                        : rbl_checkpoint_read_head(window, have, r->len, path, sim, &took,
                                                   &more, err);
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

/* What a process reads of the lists: its pairs (first grain in its share) and wall contacts. */
typedef struct lists {
    uint64_t np, p_lo, p_hi, col_i; /* pairs in all, this process's, the i column */
    uint64_t nw, w_lo, w_hi;        /* wall contacts likewise */
    rbl_pair_list p;                /* this process's pairs (arrays only) */
    rbl_wall_list w;                /* its wall contacts, grains and candidates from 0 */
} lists;

static void lists_free(lists *l)
{
    free(l->p.i), free(l->p.j), free(l->p.image), free(l->p.touch), free(l->p.hist);
    free(l->w.grain), free(l->w.wall), free(l->w.touch), free(l->w.hist);
    free(l->w.cand_lo), free(l->w.cand_hi), free(l->w.cand);
}

/* Grains lo..hi - 1 of n: their columns after the head (at: the grain count's place). */
static int read_grains(reader *r, rbl_sim *sim, uint64_t *at, uint64_t lo, uint64_t hi,
                       uint64_t *n_all, rbl_error *err)
{
    const uint64_t n = rd_u64(r, *at);
    *at += 8;
    *n_all = n;
    rbl_grains *g = &sim->g;
    if (r->bad || n > r->len || n > UINT32_MAX || hi > n)
        return RBL_EPARSE;
    const uint64_t m = hi - lo;
    int rc = rbl_grains_reserve(g, (size_t)m, err);
    if (rc != RBL_OK)
        return rc;
    g->n = (size_t)m;
#define READ_COLUMN(f, each)                                                                   \
    {                                                                                          \
        const uint64_t col = column(r, at, n, each);                                           \
        if (g->f)                                                                              \
            rd(r, col + lo * (each), g->f, m * (each));                                        \
    }
#define READ_VEC(f) READ_COLUMN(f, 3 * sizeof(double))
#define READ_DBL(f) READ_COLUMN(f, sizeof(double))
    GRAIN_VECS(READ_VEC)
    GRAIN_DBLS(READ_DBL)
    READ_COLUMN(id, sizeof *g->id)
    READ_COLUMN(material, sizeof *g->material)
    READ_COLUMN(contacts, sizeof *g->contacts)
    READ_COLUMN(body, sizeof *g->body)
    READ_COLUMN(slot, sizeof *g->slot)
#undef READ_VEC
#undef READ_DBL
#undef READ_COLUMN
    return r->bad ? RBL_EPARSE : RBL_OK;
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
    if (!p->i || !p->j || !p->image || !p->touch || !p->hist)
        return -1;
    rd(r, l->col_i + 4 * l->p_lo, p->i, 4 * mp), rd(r, col_j + 4 * l->p_lo, p->j, 4 * mp);
    rd(r, col_image + l->p_lo, p->image, mp), rd(r, col_touch + l->p_lo, p->touch, mp);
    rd(r, col_hist + 8 * width * l->p_lo, p->hist, 8 * width * mp);
    if (r->bad || !rbl_checkpoint_pairs_valid(p, width, lo, hi, n))
        return 0;

    l->nw = rd_u64(r, *at);
    *at += 8;
    const uint64_t col_grain = column(r, at, l->nw, 4), col_wall = column(r, at, l->nw, 4);
    const uint64_t col_wtouch = column(r, at, l->nw, 1);
    const uint64_t col_whist = column(r, at, l->nw, 8 * wide);
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
    if (!w->grain || !w->wall || !w->touch || !w->hist || !w->cand_lo || !w->cand_hi)
        return -1;
    rd(r, col_grain + 4 * l->w_lo, w->grain, 4 * mw), rd(r, col_wall + 4 * l->w_lo, w->wall, 4 * mw);
    rd(r, col_wtouch + l->w_lo, w->touch, mw);
    rd(r, col_whist + 8 * wide * l->w_lo, w->hist, 8 * wide * mw);
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

/* A pair's history as a row: lower id first, oriented from it. */
static int push_pair(const rbl_contact_law *law, rbl_history_rows *rows, uint32_t a, uint32_t b,
                     const double *h, double *swapped, rbl_error *err)
{
    if (a < b)
        return rbl_history_rows_push(rows, a, b, h, err);
    rbl_history_swap(law, h, swapped);
    return rbl_history_rows_push(rows, b, a, swapped, err);
}

/* The touching pairs' and wall contacts' histories as rows; a pair whose second grain
 * another process read is sent there with its first grain's id, and that grain's id comes
 * back. Collective. */
static int history_rows(rbl_comm *c, const rbl_sim *sim, uint64_t lo, uint64_t n,
                        const lists *l, rbl_history_rows *pairs, rbl_history_rows *walls,
                        rbl_error *err)
{
    const rbl_contact_law *law = &sim->cfg.law;
    const rbl_grains *g = &sim->g;
    const size_t width = rbl_hist_width(law), per = 2 + width;
    const int P = rbl_comm_size(c);
    pairs->width = width, walls->width = rbl_wall_hist_width(law);
    const rbl_pair_list *p = &l->p;
    size_t *sb = calloc(4 * (size_t)P, sizeof *sb), *fill = calloc((size_t)P, sizeof *fill);
    double *swapped = malloc((width + 1) * sizeof *swapped);
    int rc = sb && fill && swapped ? RBL_OK : rbl_error_set(err, RBL_ENOMEM, "out of memory");
    size_t *so = sb + P, *rb = sb + 2 * P, *ro = sb + 3 * P;
    for (size_t q = 0; rc == RBL_OK && q < p->n; q++) /* the requests' counts per process */
        if (p->touch[q] && p->j[q] - lo >= g->n)
            sb[share_of(p->j[q], n, P)] += per * sizeof(double);
    size_t total = 0;
    for (int q = 0; rc == RBL_OK && q < P; q++)
        so[q] = total, total += sb[q];
    double *ask = rc == RBL_OK ? malloc(total + 1) : NULL;
    if (rc == RBL_OK && !ask)
        rc = rbl_error_set(err, RBL_ENOMEM, "out of memory");
    for (size_t q = 0; rc == RBL_OK && q < p->n; q++) {
        if (!p->touch[q])
            continue;
        const uint32_t a = g->id[p->i[q] - lo];
        const double *h = p->hist + width * q;
        if (p->j[q] - lo < g->n) { /* both grains here */
            rc = push_pair(law, pairs, a, g->id[p->j[q] - lo], h, swapped, err);
            continue;
        }
        const int to = share_of(p->j[q], n, P);
        double *o = (double *)((char *)ask + so[to]) + fill[to]++ * per;
        o[0] = p->j[q], o[1] = a;
        memcpy(o + 2, h, width * sizeof *h);
    }
    rc = rbl_comm_agree(c, rc, err);
    double *got = NULL;
    if (rc == RBL_OK)
        rc = rbl_comm_exchange(c, ask, sb, so, (void **)&got, rb, ro, err);
    /* the requests that came: each its row here, its grain's id back */
    size_t asked = 0;
    for (int q = 0; rc == RBL_OK && q < P; q++)
        asked += rb[q] / (per * sizeof(double));
    double *ids = rc == RBL_OK ? malloc(asked * sizeof *ids + 1) : NULL;
    size_t *ib = rc == RBL_OK ? calloc(4 * (size_t)P, sizeof *ib) : NULL;
    if (rc == RBL_OK && (!ids || !ib))
        rc = rbl_error_set(err, RBL_ENOMEM, "out of memory");
    for (size_t e = 0, at = 0; rc == RBL_OK && e < asked; e++, at += per) {
        const uint64_t j = (uint64_t)got[at];
        if (j - lo >= g->n) {
            rc = rbl_error_set(err, RBL_EINVAL, "grain %llu asked of the wrong process",
                               (unsigned long long)j);
            break;
        }
        ids[e] = g->id[j - lo];
        rc = push_pair(law, pairs, (uint32_t)got[at + 1], g->id[j - lo], got + at + 2, swapped,
                       err);
    }
    for (int q = 0; rc == RBL_OK && q < P; q++) { /* replies: the requests' order */
        ib[q] = rb[q] / per, ib[P + q] = ro[q] / per;
    }
    rc = rbl_comm_agree(c, rc, err);
    double *back = NULL;
    if (rc == RBL_OK)
        rc = rbl_comm_exchange(c, ids, ib, ib + P, (void **)&back, ib + 2 * P, ib + 3 * P, err);
    /* the ids that came back, in the order asked */
    for (int q = 0; rc == RBL_OK && q < P; q++)
        fill[q] = 0;
    for (size_t q = 0; rc == RBL_OK && q < p->n; q++) {
        if (!p->touch[q] || p->j[q] - lo < g->n)
            continue;
        const int from = share_of(p->j[q], n, P);
        const double b = back[ib[3 * P + from] / sizeof *back + fill[from]++];
        rc = push_pair(law, pairs, g->id[p->i[q] - lo], (uint32_t)b, p->hist + width * q,
                       swapped, err);
    }
    const rbl_wall_list *w = &l->w;
    for (size_t q = 0; rc == RBL_OK && q < w->n; q++)
        if (w->touch[q])
            rc = rbl_history_rows_push(walls, g->id[w->grain[q]], w->wall[q],
                                       w->hist + walls->width * q, err);
    free(sb), free(fill), free(swapped), free(ask), free(got), free(ids), free(ib), free(back);
    return rbl_comm_agree(c, rc, err);
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
                              rbl_history_rows *walls, int *whole, rbl_error *err)
{
    *sim = NULL, *extra = NULL, *extra_len = 0, *whole = 0;
    const int P = rbl_comm_size(c), me = rbl_comm_rank(c);
    FILE *f = NULL;
    reader r = {0};
    int rc = rbl_checkpoint_file_open(path, CKPT_MAGIC, CKPT_VERSION, &f, &r.len, err);
    if (f)
        r.fd = fileno(f);
    rc = rbl_comm_agree(c, rc, err);
    if (rc == RBL_OK)
        rc = checksum(c, &r, path, err);
    uint64_t at = 0, n = 0, lo = 0, hi = 0;
    lists l;
    memset(&l, 0, sizeof l);
    if (rc == RBL_OK)
        rc = read_head(&r, path, sim, &at, err);
    if (rc == RBL_OK) { /* this process's share of the grains */
        n = rd_u64(&r, at);
        lo = n * (uint64_t)me / (uint64_t)P, hi = n * (uint64_t)(me + 1) / (uint64_t)P;
        rc = read_grains(&r, *sim, &at, lo, hi, &n, err);
        if (rc == RBL_EPARSE)
            rc = rbl_error_set(err, rc, "%s: truncated or inconsistent grain data", path);
    }
    if (rc == RBL_OK) { /* clumps: read whole, by every process */
        const uint64_t nb = rd_u64(&r, at), members = rd_u64(&r, at + 8);
        *whole = nb || members;
        if (!*whole && rd_u64(&r, at + 16) != 0) /* the clumps' start: {0} */
            rc = rbl_error_set(err, RBL_EPARSE, "%s: inconsistent clump data", path);
        at += 24;
    }
    rc = rbl_comm_agree(c, rc, err);
    if (rc == RBL_OK && rbl_comm_max(c, *whole) > 0.0) {
        *whole = 1;
        fclose(f);
        rbl_sim_destroy(*sim);
        *sim = NULL;
        return RBL_OK;
    }
    for (size_t k = 0; rc == RBL_OK && k < (*sim)->g.n; k++) /* in no clump */
        if ((*sim)->g.body[k] != -1)
            rc = rbl_error_set(err, RBL_EPARSE, "%s: inconsistent clump data", path);
    if (rc == RBL_OK)
        rc = rbl_checkpoint_grains_check(*sim, (size_t)lo, path, err);
    if (rc == RBL_OK) {
        const int got = read_lists(&r, *sim, &at, lo, hi, n, me == P - 1, &l);
        rc = got < 0  ? rbl_error_set(err, RBL_ENOMEM, "%s: out of memory", path)
             : !got   ? rbl_error_set(err, RBL_EPARSE, "%s: inconsistent checkpoint contents",
                                      path)
                      : RBL_OK;
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
    if (rc == RBL_OK)
        rc = ids_unique(c, &(*sim)->g, path, err);
    if (rc == RBL_OK)
        rc = history_rows(c, *sim, lo, n, &l, pairs, walls, err);
    lists_free(&l);
    if (rc == RBL_OK)
        rc = rbl_comm_agree(c, rbl_checkpoint_loaded(*sim, err), err);
    if (rc != RBL_OK) {
        rbl_sim_destroy(*sim), *sim = NULL;
        free(*extra), *extra = NULL, *extra_len = 0;
        rbl_history_rows_free(pairs), rbl_history_rows_free(walls);
    }
    return rc;
}
