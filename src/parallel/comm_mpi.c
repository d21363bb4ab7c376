/* comm_mpi.c — the communicator over MPI (built instead of comm_serial.c when CMake finds
 * MPI and Zoltan). */
#include "parallel_internal.h"

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rbl_comm {
    MPI_Comm comm;
    int rank, size;
    int finalize; /* MPI was initialised by rbl_comm_create */
};

/* The program's own bracket around MPI (cli/main.c around `rubble run`): MPI stays up after
 * the run's communicator is freed, until the program has said why a run stopped; Open MPI's
 * MPI_Finalize then waits for every rank, so none exits (and makes mpirun kill the others)
 * before rank 0 has printed. Not at exit: a rank that exits alone on an error would wait
 * there for ranks that wait for it. */
int rbl_parallel_begin(void)
{
    int ready = 0;
    MPI_Initialized(&ready);
    return ready || MPI_Init(NULL, NULL) == MPI_SUCCESS ? RBL_OK : RBL_EIO;
}

void rbl_parallel_end(void)
{
    int ready = 0, done = 0;
    MPI_Initialized(&ready);
    MPI_Finalized(&done);
    if (ready && !done)
        MPI_Finalize();
}

int rbl_parallel_agree(int rc, rbl_error *err)
{
    int ready = 0, done = 0, size = 1;
    MPI_Initialized(&ready);
    MPI_Finalized(&done);
    if (ready && !done)
        MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size <= 1)
        return rc;
    rbl_comm c = {.comm = MPI_COMM_WORLD, .size = size};
    MPI_Comm_rank(MPI_COMM_WORLD, &c.rank);
    rbl_error none = {0};
    return rbl_comm_agree(&c, rc, err ? err : &none);
}

int rbl_comm_create(rbl_comm **out, rbl_error *err)
{
    int ready = 0;
    MPI_Initialized(&ready);
    if (!ready && MPI_Init(NULL, NULL) != MPI_SUCCESS)
        return rbl_error_set(err, RBL_EIO, "MPI could not be initialised");
    rbl_comm *c = calloc(1, sizeof *c);
    if (!c)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory");
    c->comm = MPI_COMM_WORLD;
    c->finalize = !ready;
    MPI_Comm_rank(c->comm, &c->rank);
    MPI_Comm_size(c->comm, &c->size);
    *out = c;
    return rbl_launch_check(c->size, err); /* the launcher's processes all joined MPI */
}

void rbl_comm_free(rbl_comm *c)
{
    if (c && c->finalize)
        rbl_parallel_end();
    free(c);
}

int rbl_comm_rank(const rbl_comm *c) { return c->rank; }
int rbl_comm_size(const rbl_comm *c) { return c->size; }

/* Every rank's value, in rank order, into all (size entries). */
static void gather_all(rbl_comm *c, const void *v, size_t bytes, void *all)
{
    MPI_Allgather(v, (int)bytes, MPI_BYTE, all, (int)bytes, MPI_BYTE, c->comm);
}

double rbl_comm_sum(rbl_comm *c, double v)
{
    double *all = malloc((size_t)c->size * sizeof *all), s = 0.0;
    if (!all) { /* out of memory: MPI's own order, the same on every rank, not a serial sum's */
        MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_DOUBLE, MPI_SUM, c->comm);
        return v;
    }
    gather_all(c, &v, sizeof v, all);
    for (int q = 0; q < c->size; q++)
        s += all[q];
    free(all);
    return s;
}

uint64_t rbl_comm_sum_u64(rbl_comm *c, uint64_t v)
{
    MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_UINT64_T, MPI_SUM, c->comm);
    return v;
}

double rbl_comm_max(rbl_comm *c, double v)
{
    MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_DOUBLE, MPI_MAX, c->comm);
    return v;
}

void rbl_comm_sum_n(rbl_comm *c, double *v, int count)
{
    double *all = malloc((size_t)c->size * (size_t)count * sizeof *all);
    if (!all) { /* out of memory: MPI's own order, the same on every rank */
        MPI_Allreduce(MPI_IN_PLACE, v, count, MPI_DOUBLE, MPI_SUM, c->comm);
        return;
    }
    MPI_Allgather(v, count, MPI_DOUBLE, all, count, MPI_DOUBLE, c->comm);
    for (int x = 0; x < count; x++) {
        double s = 0.0;
        for (int q = 0; q < c->size; q++)
            s += all[(size_t)q * (size_t)count + (size_t)x];
        v[x] = s;
    }
    free(all);
}

void rbl_comm_max_n(rbl_comm *c, double *v, int count)
{
    MPI_Allreduce(MPI_IN_PLACE, v, count, MPI_DOUBLE, MPI_MAX, c->comm);
}

void rbl_comm_sum_exact(rbl_comm *c, rbl_exact_sum *s, int count)
{
    /* normalized limbs (< 2^32 but the top one) summed as integers over < 2^31 ranks: exact,
       in any order; the non-finite parts summed as doubles (inf, -inf or NaN: any order gives
       the same); all in two reductions */
    const size_t n = (size_t)count * RBL_EXACT_LIMBS;
    int64_t *limbs = malloc((n ? n : 1) * sizeof *limbs);
    double *special = malloc((size_t)(count ? count : 1) * sizeof *special);
    for (int k = 0; k < count; k++)
        rbl_exact_normalize(&s[k]);
    if (!limbs || !special) { /* out of memory: one sum at a time */
        for (int k = 0; k < count; k++) {
            MPI_Allreduce(MPI_IN_PLACE, s[k].limb, RBL_EXACT_LIMBS, MPI_INT64_T, MPI_SUM, c->comm);
            MPI_Allreduce(MPI_IN_PLACE, &s[k].special, 1, MPI_DOUBLE, MPI_SUM, c->comm);
        }
    } else {
        for (int k = 0; k < count; k++) {
            memcpy(limbs + (size_t)k * RBL_EXACT_LIMBS, s[k].limb, sizeof s[k].limb);
            special[k] = s[k].special;
        }
        MPI_Allreduce(MPI_IN_PLACE, limbs, (int)n, MPI_INT64_T, MPI_SUM, c->comm);
        MPI_Allreduce(MPI_IN_PLACE, special, count, MPI_DOUBLE, MPI_SUM, c->comm);
        for (int k = 0; k < count; k++) {
            memcpy(s[k].limb, limbs + (size_t)k * RBL_EXACT_LIMBS, sizeof s[k].limb);
            s[k].special = special[k];
        }
    }
    free(limbs), free(special);
}

int rbl_comm_abort(rbl_comm *c, const rbl_error *err)
{
    fprintf(stderr, "rubble: error (rank %d of %d): %s\n", c->rank, c->size, err->message);
    fflush(stderr);
    MPI_Abort(c->comm, 1);
    return err->code; /* not reached */
}

size_t rbl_comm_exchange_known(rbl_comm *c, const void *send, const size_t *send_bytes,
                               const size_t *send_offset, void *recv, const size_t *recv_bytes,
                               const size_t *recv_offset)
{
    MPI_Request stack[64], *req = stack;
    if (2 * (size_t)c->size > sizeof stack / sizeof *stack &&
        !(req = malloc(2 * (size_t)c->size * sizeof *req))) {
        rbl_error e = {0};
        rbl_error_set(&e, RBL_ENOMEM, "out of memory for %d requests", 2 * c->size);
        rbl_comm_abort(c, &e);
    }
    int n = 0;
    size_t sent = 0;
    /* sizes of ghost layers: far below 2 GiB per neighbour (counts are int in MPI) */
    for (int q = 0; q < c->size; q++)
        if (recv_bytes[q] && q != c->rank)
            MPI_Irecv((char *)recv + recv_offset[q], (int)recv_bytes[q], MPI_BYTE, q, 7, c->comm,
                      &req[n++]);
    for (int q = 0; q < c->size; q++)
        if (send_bytes[q] && q != c->rank) {
            MPI_Isend((const char *)send + send_offset[q], (int)send_bytes[q], MPI_BYTE, q, 7,
                      c->comm, &req[n++]);
            sent++;
        }
    if (send_bytes[c->rank]) /* to itself: a copy */
        memcpy((char *)recv + recv_offset[c->rank], (const char *)send + send_offset[c->rank],
               send_bytes[c->rank]);
    MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
    if (req != stack)
        free(req);
    return sent;
}

/* MPI counts are int: a message of 2 GiB or more goes as that many 8-byte words would not
 * fit either, so it is refused. */
static int fits_int(const size_t *bytes, int n)
{
    size_t total = 0;
    for (int q = 0; q < n; q++) {
        if (bytes[q] > (size_t)INT32_MAX)
            return 0;
        total += bytes[q];
    }
    return total <= (size_t)INT32_MAX;
}

int rbl_comm_allgather(rbl_comm *c, const double *mine, size_t n, double **all, size_t *cap,
                       size_t *first, size_t *total, rbl_error *err)
{
    const int p = c->size;
    uint64_t *counts = malloc((size_t)p * sizeof *counts);
    int *rc = malloc(2 * (size_t)p * sizeof *rc);
    const uint64_t mine_n = n;
    int ok = counts && rc;
    if (rbl_comm_agree(c, ok ? RBL_OK : rbl_error_set(err, RBL_ENOMEM, "out of memory"), err) !=
        RBL_OK) {
        free(counts), free(rc);
        return err->code;
    }
    MPI_Allgather(&mine_n, 1, MPI_UINT64_T, counts, 1, MPI_UINT64_T, c->comm);
    uint64_t sum = 0;
    for (int q = 0; q < p; q++) {
        if (q == c->rank)
            *first = (size_t)sum;
        rc[p + q] = (int)sum, rc[q] = (int)counts[q];
        sum += counts[q];
        ok = ok && sum <= (uint64_t)INT32_MAX;
    }
    *total = (size_t)sum;
    int rcode = ok ? RBL_OK
                   : rbl_error_set(err, RBL_ETOOBIG,
                                   "more than 2^31 - 1 values to gather (%llu): too many grains "
                                   "for one gathering",
                                   (unsigned long long)sum);
    if (rcode == RBL_OK && sum > *cap) {
        double *grown = realloc(*all, (size_t)sum * sizeof *grown);
        if (grown)
            *all = grown, *cap = (size_t)sum;
        else
            rcode = rbl_error_set(err, RBL_ENOMEM, "out of memory for %llu values gathered",
                                  (unsigned long long)sum);
    }
    rcode = rbl_comm_agree(c, rcode, err);
    if (rcode == RBL_OK)
        MPI_Allgatherv(mine, (int)n, MPI_DOUBLE, *all, rc, rc + p, MPI_DOUBLE, c->comm);
    free(counts), free(rc);
    return rcode;
}

int rbl_comm_exchange(rbl_comm *c, const void *send, const size_t *send_bytes,
                      const size_t *send_offset, void **recv, size_t *recv_bytes,
                      size_t *recv_offset, rbl_error *err)
{
    const int p = c->size;
    int *sc = malloc(4 * (size_t)p * sizeof *sc);
    *recv = NULL;
    if (!sc)
        return rbl_comm_agree(c, rbl_error_set(err, RBL_ENOMEM, "out of memory"), err);
    int *so = sc + p, *rc = sc + 2 * p, *ro = sc + 3 * p;
    int ok = fits_int(send_bytes, p);
    for (int q = 0; q < p && ok; q++)
        sc[q] = (int)send_bytes[q], so[q] = (int)send_offset[q];
    if (rbl_comm_agree(c, ok ? RBL_OK : rbl_error_set(err, RBL_ETOOBIG,
                                                       "more than 2 GiB to send in one exchange"),
                       err) != RBL_OK) {
        free(sc);
        return err->code;
    }
    MPI_Alltoall(sc, 1, MPI_INT, rc, 1, MPI_INT, c->comm);
    size_t total = 0;
    for (int q = 0; q < p; q++)
        recv_bytes[q] = (size_t)rc[q], recv_offset[q] = total, ro[q] = (int)total,
        total += (size_t)rc[q];
    void *buf = malloc(total ? total : 1);
    ok = buf && total <= (size_t)INT32_MAX;
    if (rbl_comm_agree(c, ok ? RBL_OK : rbl_error_set(err, RBL_ENOMEM,
                                                       "out of memory for %zu bytes received",
                                                       total),
                       err) != RBL_OK) {
        free(sc), free(buf);
        return err->code;
    }
    MPI_Alltoallv(send, sc, so, MPI_BYTE, buf, rc, ro, MPI_BYTE, c->comm);
    free(sc);
    *recv = buf;
    return RBL_OK;
}

int rbl_comm_exchange_near(rbl_comm *c, const int *near, int n_near, const void *send,
                           const size_t *send_bytes, const size_t *send_offset, void **recv,
                           size_t *recv_bytes, size_t *recv_offset, rbl_error *err)
{
    const int p = c->size;
    uint64_t *counts = malloc(2 * ((size_t)n_near + 1) * sizeof *counts);
    MPI_Request *req = malloc(2 * ((size_t)n_near + 1) * sizeof *req);
    *recv = NULL;
    int rc = counts && req ? RBL_OK : rbl_error_set(err, RBL_ENOMEM, "out of memory");
    for (int e = 0; rc == RBL_OK && e < n_near; e++)
        if (send_bytes[near[e]] > (size_t)INT32_MAX)
            rc = rbl_error_set(err, RBL_ETOOBIG, "more than 2 GiB to send in one exchange");
    if ((rc = rbl_comm_agree(c, rc, err)) != RBL_OK) {
        free(counts), free(req);
        return rc;
    }
    uint64_t *out = counts, *in = counts + n_near;
    int n = 0;
    for (int e = 0; e < n_near; e++) {
        out[e] = send_bytes[near[e]];
        MPI_Irecv(&in[e], 1, MPI_UINT64_T, near[e], 8, c->comm, &req[n++]);
        MPI_Isend(&out[e], 1, MPI_UINT64_T, near[e], 8, c->comm, &req[n++]);
    }
    MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
    for (int q = 0; q < p; q++)
        recv_bytes[q] = 0;
    recv_bytes[c->rank] = send_bytes[c->rank];
    for (int e = 0; e < n_near; e++)
        recv_bytes[near[e]] = (size_t)in[e];
    size_t total = 0;
    for (int q = 0; q < p; q++)
        recv_offset[q] = total, total += recv_bytes[q];
    void *buf = malloc(total ? total : 1);
    rc = buf && total <= (size_t)INT32_MAX
             ? RBL_OK
             : rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu bytes received", total);
    if ((rc = rbl_comm_agree(c, rc, err)) != RBL_OK) {
        free(counts), free(req), free(buf);
        return rc;
    }
    n = 0;
    for (int e = 0; e < n_near; e++) {
        const int q = near[e];
        if (recv_bytes[q])
            MPI_Irecv((char *)buf + recv_offset[q], (int)recv_bytes[q], MPI_BYTE, q, 9, c->comm,
                      &req[n++]);
        if (send_bytes[q])
            MPI_Isend((const char *)send + send_offset[q], (int)send_bytes[q], MPI_BYTE, q, 9,
                      c->comm, &req[n++]);
    }
    if (send_bytes[c->rank])
        memcpy((char *)buf + recv_offset[c->rank], (const char *)send + send_offset[c->rank],
               send_bytes[c->rank]);
    MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
    free(counts), free(req);
    *recv = buf;
    return RBL_OK;
}

int rbl_comm_agree(rbl_comm *c, int rc, rbl_error *err)
{
    int mine = rc == RBL_OK ? c->size : c->rank, first = c->size;
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, c->comm);
    if (first == c->size)
        return RBL_OK;
    struct {
        int code;
        char message[sizeof err->message];
    } m;
    memset(&m, 0, sizeof m);
    if (c->rank == first) { /* out of memory: on which process (its node's memory) */
        if (err->code == RBL_ENOMEM)
            rbl_error_prefix(err, err->code, "process %d of %d", c->rank, c->size);
        m.code = err->code, memcpy(m.message, err->message, sizeof m.message);
    }
    MPI_Bcast(&m, (int)sizeof m, MPI_BYTE, first, c->comm);
    if (rc == RBL_OK) {
        err->code = m.code;
        memcpy(err->message, m.message, sizeof err->message);
        err->message[sizeof err->message - 1] = '\0';
    }
    return err->code != RBL_OK ? err->code : RBL_EIO;
}

uint64_t rbl_comm_exscan_u64(rbl_comm *c, uint64_t v)
{
    uint64_t below = 0;
    MPI_Exscan(&v, &below, 1, MPI_UINT64_T, MPI_SUM, c->comm);
    return c->rank == 0 ? 0 : below; /* (undefined on rank 0) */
}

int rbl_comm_write_pieces(rbl_comm *c, const char *path, const rbl_file_piece *pieces,
                          size_t n, rbl_error *err)
{
    MPI_File f;
    int rc = MPI_File_open(c->comm, path, MPI_MODE_WRONLY | MPI_MODE_CREATE, MPI_INFO_NULL, &f);
    if (rc != MPI_SUCCESS) {
        char why[MPI_MAX_ERROR_STRING];
        int len = 0;
        MPI_Error_string(rc, why, &len);
        return rbl_comm_agree(c, rbl_error_set(err, RBL_EIO, "%s: cannot open for writing: %s",
                                               path, why), err);
    }
    /* each rank on its own, in pieces under 1 GiB (MPI's counts are int): the collective
       write's aggregators would each buffer 16-32 MiB of the others' bytes (measured: rank 0
       28 MiB above the others at 2e5 grains) */
    static const char zeros[1 << 16];
    const size_t most = (size_t)1 << 30;
    int ok = 1;
    for (size_t k = 0; k < n && ok; k++)
        for (size_t at = 0; at < pieces[k].bytes && ok;) {
            size_t left = pieces[k].bytes - at;
            size_t m = pieces[k].data ? (left < most ? left : most)
                                      : (left < sizeof zeros ? left : sizeof zeros);
            const void *from = pieces[k].data ? (const char *)pieces[k].data + at : zeros;
            MPI_Status st;
            ok = MPI_File_write_at(f, (MPI_Offset)(pieces[k].at + at), from, (int)m, MPI_BYTE,
                                   &st) == MPI_SUCCESS;
            at += m;
        }
    ok = MPI_File_close(&f) == MPI_SUCCESS && ok;
    return rbl_comm_agree(c, ok ? RBL_OK
                                : rbl_error_set(err, RBL_EIO, "%s: writing failed (disk full?)",
                                                path), err);
}

uint64_t rbl_comm_chain(rbl_comm *c, uint64_t h, uint64_t (*step)(void *ctx, uint64_t h),
                        void *ctx)
{
    if (c->rank > 0)
        MPI_Recv(&h, 1, MPI_UINT64_T, c->rank - 1, 71, c->comm, MPI_STATUS_IGNORE);
    h = step(ctx, h);
    if (c->size == 1)
        return h;
    MPI_Send(&h, 1, MPI_UINT64_T, (c->rank + 1) % c->size, 71, c->comm);
    if (c->rank == 0)
        MPI_Recv(&h, 1, MPI_UINT64_T, c->size - 1, 71, c->comm, MPI_STATUS_IGNORE);
    return c->rank == 0 ? h : 0;
}

void rbl_comm_sum_u64_n(rbl_comm *c, uint64_t *v, int count)
{
    MPI_Allreduce(MPI_IN_PLACE, v, count, MPI_UINT64_T, MPI_SUM, c->comm);
}
