/* comm_serial.c — the communicator of a build without MPI: one rank, the same calls. */
#include "parallel_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct rbl_comm {
    int unused;
};

int rbl_comm_create(rbl_comm **out, rbl_error *err)
{
    *out = NULL;
    int rc = rbl_launch_check(0, err); /* started as several: refused, not run as copies */
    if (rc != RBL_OK)
        return rc;
    *out = calloc(1, sizeof **out);
    return *out ? RBL_OK : rbl_error_set(err, RBL_ENOMEM, "out of memory");
}

void rbl_comm_free(rbl_comm *c) { free(c); }
int rbl_parallel_begin(void) { return RBL_OK; }
void rbl_parallel_end(void) {}
int rbl_parallel_agree(int rc, rbl_error *err)
{
    (void)err;
    return rc;
}
int rbl_comm_rank(const rbl_comm *c) { return (void)c, 0; }
int rbl_comm_size(const rbl_comm *c) { return (void)c, 1; }
double rbl_comm_sum(rbl_comm *c, double v) { return (void)c, v; }
uint64_t rbl_comm_sum_u64(rbl_comm *c, uint64_t v) { return (void)c, v; }
double rbl_comm_max(rbl_comm *c, double v) { return (void)c, v; }

void rbl_comm_sum_n(rbl_comm *c, double *v, int count) { (void)c, (void)v, (void)count; }
void rbl_comm_max_n(rbl_comm *c, double *v, int count) { (void)c, (void)v, (void)count; }
void rbl_comm_sum_exact(rbl_comm *c, rbl_exact_sum *s, int count)
{
    (void)c, (void)s, (void)count;
}

int rbl_comm_abort(rbl_comm *c, const rbl_error *err) { return (void)c, err->code; }

size_t rbl_comm_exchange_known(rbl_comm *c, const void *send, const size_t *send_bytes,
                               const size_t *send_offset, void *recv, const size_t *recv_bytes,
                               const size_t *recv_offset)
{
    (void)c, (void)recv_bytes;
    if (send_bytes[0])
        memcpy((char *)recv + recv_offset[0], (const char *)send + send_offset[0], send_bytes[0]);
    return 0;
}

int rbl_comm_exchange(rbl_comm *c, const void *send, const size_t *send_bytes,
                      const size_t *send_offset, void **recv, size_t *recv_bytes,
                      size_t *recv_offset, rbl_error *err)
{
    (void)c;
    *recv = malloc(send_bytes[0] ? send_bytes[0] : 1);
    if (!*recv)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu bytes", send_bytes[0]);
    if (send_bytes[0])
        memcpy(*recv, (const char *)send + send_offset[0], send_bytes[0]);
    recv_bytes[0] = send_bytes[0], recv_offset[0] = 0;
    return RBL_OK;
}

int rbl_comm_agree(rbl_comm *c, int rc, rbl_error *err) { return (void)c, (void)err, rc; }

int rbl_comm_allgather(rbl_comm *c, const double *mine, size_t n, double **all, size_t *cap,
                       size_t *first, size_t *total, rbl_error *err)
{
    (void)c;
    if (n > *cap) {
        double *grown = realloc(*all, n * sizeof *grown);
        if (!grown)
            return rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu values gathered", n);
        *all = grown, *cap = n;
    }
    if (n)
        memcpy(*all, mine, n * sizeof *mine);
    *first = 0, *total = n;
    return RBL_OK;
}

int rbl_comm_exchange_near(rbl_comm *c, const int *near, int n_near, const void *send,
                           const size_t *send_bytes, const size_t *send_offset, void **recv,
                           size_t *recv_bytes, size_t *recv_offset, rbl_error *err)
{
    (void)near, (void)n_near;
    return rbl_comm_exchange(c, send, send_bytes, send_offset, recv, recv_bytes, recv_offset,
                             err);
}

uint64_t rbl_comm_exscan_u64(rbl_comm *c, uint64_t v) { return (void)c, (void)v, 0; }

int rbl_comm_write_pieces(rbl_comm *c, const char *path, const rbl_file_piece *pieces,
                          size_t n, rbl_error *err)
{
    (void)c;
    int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0)
        return rbl_error_set(err, RBL_EIO, "%s: cannot open for writing: %s", path,
                             strerror(errno));
    static const char zeros[1 << 16];
    int ok = 1;
    for (size_t k = 0; k < n && ok; k++)
        for (size_t done = 0; done < pieces[k].bytes && ok;) {
            size_t left = pieces[k].bytes - done;
            size_t m = pieces[k].data ? left : (left < sizeof zeros ? left : sizeof zeros);
            const void *from = pieces[k].data ? (const char *)pieces[k].data + done : zeros;
            ssize_t w = pwrite(fd, from, m, (off_t)(pieces[k].at + done));
            if (w > 0)
                done += (size_t)w;
            else if (errno != EINTR)
                ok = 0;
        }
    int e = errno;
    if (close(fd) != 0 && ok)
        ok = 0, e = errno;
    return ok ? RBL_OK : rbl_error_set(err, RBL_EIO, "%s: writing failed: %s", path, strerror(e));
}

uint64_t rbl_comm_chain(rbl_comm *c, uint64_t h, uint64_t (*step)(void *ctx, uint64_t h),
                        void *ctx)
{
    (void)c;
    return step(ctx, h);
}
void rbl_comm_sum_u64_n(rbl_comm *c, uint64_t *v, int count) { (void)c, (void)v, (void)count; }
