/* parallel_internal.h — the room for runs over several processes (SPEC BY7, issue 13): a
 * communicator and the partition of the domain among its ranks. Built on MPI and Zoltan when
 * the build finds them (RBL_HAVE_MPI: comm_mpi.c, partition_zoltan.c), otherwise as one rank
 * (comm_serial.c, partition_serial.c) through the same calls, so the engine above has one
 * code path. Nothing outside src/parallel/ includes mpi.h or zoltan.h. docs/parallel.md. */
#ifndef RBL_PARALLEL_INTERNAL_H
#define RBL_PARALLEL_INTERNAL_H

#include "rubble.h"
#include "../base/base_internal.h" /* rbl_error_set */

#include <stddef.h>
#include <stdint.h>

typedef struct rbl_comm rbl_comm;

/* The launcher's count (rbl_launched_ranks) against MPI's (0: a build without MPI): an error
 * naming the launcher and the cure when they differ, as when srun starts processes that MPI
 * does not join (each would run the whole scene alone, into one folder). */
int rbl_launch_check(int mpi_size, rbl_error *err);
/* The threads each of several processes takes unless the run says: OMP_NUM_THREADS, else
 * srun's --cpus-per-task (SLURM_CPUS_PER_TASK), else 1 (the ranks share the cores). */
int rbl_launched_threads(void);

/* The job's communicator: MPI_COMM_WORLD (MPI initialised here if the program has not, and
 * then finalised by rbl_comm_free), or one rank. */
int rbl_comm_create(rbl_comm **out, rbl_error *err);
void rbl_comm_free(rbl_comm *c);
int rbl_comm_rank(const rbl_comm *c);
int rbl_comm_size(const rbl_comm *c);

/* Sums and maxima over the ranks, the same bits on every rank (summed in rank order). */
double rbl_comm_sum(rbl_comm *c, double v);
uint64_t rbl_comm_sum_u64(rbl_comm *c, uint64_t v);
double rbl_comm_max(rbl_comm *c, double v);
/* The sum of each of the count values over the ranks, in place, added in rank order. */
void rbl_comm_sum_n(rbl_comm *c, double *v, int count);
/* The largest of each of the count values over the ranks, in place. */
void rbl_comm_max_n(rbl_comm *c, double *v, int count);
/* Each of the count exact sums (base: rbl_exact_sum) summed over the ranks, in place: limb by
 * limb, an integer sum, so the value is the one process's sum of the same terms, bit for bit. */
void rbl_comm_sum_exact(rbl_comm *c, rbl_exact_sum *s, int count);
/* Stop every process of the job (after an error one process met alone, mid-step, while the
 * others wait in a collective call): its message on stderr, prefixed by the rank. Returns
 * only in a build without MPI, with code. */
int rbl_comm_abort(rbl_comm *c, const rbl_error *err);

/* Every rank sends send_bytes[q] bytes from send + send_offset[q] to rank q and receives
 * *recv (malloc'd, the caller frees it) of recv_bytes[q] bytes from each rank q, at
 * recv_offset[q]. Counts and offsets are arrays of rbl_comm_size entries. */
int rbl_comm_exchange(rbl_comm *c, const void *send, const size_t *send_bytes,
                      const size_t *send_offset, void **recv, size_t *recv_bytes,
                      size_t *recv_offset, rbl_error *err);

/* The same among neighbours: every rank sends only to and receives only from the ranks of
 * near (n_near of them, ascending, itself not among them), and the lists agree (q lists r
 * when r lists q). send_bytes must be 0 for the ranks not listed; their recv_bytes come back
 * 0. Point to point: O(n_near) messages a rank where the exchange above costs O(size). */
int rbl_comm_exchange_near(rbl_comm *c, const int *near, int n_near, const void *send,
                           const size_t *send_bytes, const size_t *send_offset, void **recv,
                           size_t *recv_bytes, size_t *recv_offset, rbl_error *err);

/* Every rank's n doubles from mine, in rank order, into *all on every rank (grown as needed:
 * *cap doubles); *first: where this rank's begin, *total: how many in all. More than 2^31 - 1
 * doubles in all is refused (MPI counts are int). Collective. */
int rbl_comm_allgather(rbl_comm *c, const double *mine, size_t n, double **all, size_t *cap,
                       size_t *first, size_t *total, rbl_error *err);

/* An exchange whose sizes both sides know already (the ghosts' refresh): each rank sends
 * send_bytes[q] from send + send_offset[q] to rank q and receives recv_bytes[q] into
 * recv + recv_offset[q], point to point with the ranks it has something to send to or receive
 * from. Returns the messages it sent. */
size_t rbl_comm_exchange_known(rbl_comm *c, const void *send, const size_t *send_bytes,
                               const size_t *send_offset, void *recv, const size_t *recv_bytes,
                               const size_t *recv_offset);

/* Counts summed over the ranks, in place (integers: exact in any order). Collective. */
void rbl_comm_sum_u64_n(rbl_comm *c, uint64_t *v, int count);
/* The sum of v over the ranks below this one (0 on rank 0). Collective. */
uint64_t rbl_comm_exscan_u64(rbl_comm *c, uint64_t v);
/* Each rank writes its pieces, each at its offset of one file (created, not truncated: the
 * ranks' pieces tile it; data NULL: zeros), through MPI-IO (independent writes, safe on the
 * file systems clusters share: Lustre, GPFS, NFS with ROMIO's locking); one rank: pwrite.
 * Collective; an error on any rank is every rank's. */
typedef struct rbl_file_piece {
    uint64_t at;
    const void *data;
    size_t bytes;
} rbl_file_piece;
int rbl_comm_write_pieces(rbl_comm *c, const char *path, const rbl_file_piece *pieces,
                          size_t n, rbl_error *err);
/* A value passed rank to rank: rank 0 calls step(ctx, h), rank 1 step on its result, and so
 * on; rank 0 gets the last rank's result (the others 0). What a hash over bytes that lie rank
 * after rank in a file needs (FNV-1a, rbl_fnv1a, continued through each rank's share).
 * Collective. */
uint64_t rbl_comm_chain(rbl_comm *c, uint64_t h, uint64_t (*step)(void *ctx, uint64_t h),
                        void *ctx);

/* Records of `width` doubles whose first is an id (an integer below 2^53), each rank's own,
 * redistributed so that rank q holds the q-th of P slices of them in id order, about N/P each,
 * sorted by id (*out malloc'd, *n_out records): no rank holds them all. Ids must be unique.
 * Collective (id_slices.c). */
int rbl_comm_id_slices(rbl_comm *c, const double *records, size_t n, size_t width,
                       double **out, size_t *n_out, rbl_error *err);

/* Self-gravity over the ranks (gravity_ranks.c): the field at each rank's own grains (in->id
 * set, in->want NULL), G-scaled as rbl_gravity_eval's, with one process's bits, from a tree
 * built apart (no rank holds every grain) or, for the methods that take every grain and for
 * too few grains a rank, from every rank's grains gathered. *interactions: per grain over all.
 * *work: kept between calls (NULL the first time; rbl_gravity_ranks_free). Collective. */
typedef struct rbl_gravity_ranks rbl_gravity_ranks;
typedef struct rbl_gravity_ranks_stats {
    uint64_t evaluations, apart, gathers; /* evaluations, of them with the tree apart, gathered */
    uint64_t bytes;                       /* sent to other ranks, all evaluations */
    uint64_t sort_bytes, tree_bytes, field_bytes; /* of them with the tree apart: the sort into
                                                     ranges, the pieces' roots, boxes and
                                                     pruned trees, the fields sent back */
    uint64_t let_nodes;                   /* nodes of the trees put together, summed */
} rbl_gravity_ranks_stats;
struct rbl_gravity_input;
int rbl_gravity_ranks_eval(rbl_comm *c, rbl_gravity_ranks **work,
                           const rbl_self_gravity *cfg, const struct rbl_gravity_input *in,
                           int threads, double *acc, double *phi, double *interactions,
                           rbl_error *err);
const rbl_gravity_ranks_stats *rbl_gravity_ranks_stats_of(const rbl_gravity_ranks *g);
void rbl_gravity_ranks_free(rbl_gravity_ranks *g);

/* A coarse-graining sample of the whole simulation over the ranks (cg_ranks.c, issue 74):
 * every rank's grains and contacts gathered and added to rank 0's cg (the others' is not
 * touched; may be NULL) in one process's order, so with its bits. Spheres only. Collective. */
int rbl_cg_add_ranks(rbl_cg *cg, const rbl_sim *sim, rbl_comm *c, rbl_error *err);

/* Collective: whether every rank got RBL_OK. A rank that did not keeps its message; the others
 * get the lowest failing rank's, so rank 0 can print the one that counts. */
int rbl_comm_agree(rbl_comm *c, int rc, rbl_error *err);

/* The domain lo..hi split among the ranks into boxes, by recursive coordinate bisection of
 * the grains' positions weighted by their cost: every grain goes to the rank whose box holds
 * it. Collective: each rank passes its own grains (n of them, perhaps 0). dest[k]: grain k's
 * rank. box_lo/box_hi: 3 per rank, the boxes (they tile lo..hi). */
typedef struct rbl_partition {
    int ranks;
    double lo[3], hi[3];     /* the domain */
    double *box_lo, *box_hi; /* 3 per rank */
} rbl_partition;

int rbl_partition_compute(rbl_comm *c, size_t n, const double *pos, const double *weight,
                          const double lo[3], const double hi[3], int *dest,
                          rbl_partition *out, rbl_error *err);
void rbl_partition_free(rbl_partition *p);
/* The backend's cuts (partition_zoltan.c or partition_serial.c): each rank's box, whose
 * sides on no cut may be anywhere at or beyond the domain's (they are clipped to it). */
int rbl_partition_boxes(rbl_comm *c, size_t n, const double *pos, const double *weight,
                        double *box_lo, double *box_hi, rbl_error *err);
/* The rank whose box holds x (a point on a shared side goes to the box above it; a point
 * outside the domain to the box nearest it). O(ranks). */
int rbl_partition_rank_of(const rbl_partition *p, const double x[3]);

/* One simulation over the ranks (domain.c, docs/parallel.md). Collective: every rank passes
 * its sim holding the same grains (read from the same scene or checkpoint), before its first
 * step or at any step after (then the lists of its last build are made again over the ranks,
 * rbl_neighbor_rebuild_as_built, and its forces kept); each keeps a share, and a neighbour
 * build, then or at the first step, sends every grain to the rank whose box holds it. Refused,
 * with a message naming it, for what does not run over several ranks yet. From then on
 * rbl_sim_step on every rank advances the one simulation. */
typedef struct rbl_domain rbl_domain;
typedef struct rbl_domain_stats {
    double seconds;      /* in the exchanges, this rank */
    uint64_t bytes;      /* sent to other ranks */
    uint64_t messages;   /* sent to other ranks */
    uint64_t migrated;   /* grains that came to this rank */
    uint64_t partitions; /* partitions made (the first, then each rebalance) */
    uint64_t rebalances; /* of them, made because the cost was out of balance */
    uint64_t steps;      /* refreshes of the ghosts (one per force evaluation) */
    uint64_t exchanges_all; /* migrations and ghost exchanges made among all ranks, not
                               between neighbours only (after a new partition) */
    int neighbours;      /* the most ranks one exchange between neighbours talked to */
    size_t ghosts;       /* held since the last build */
    uint64_t gravity_bytes;   /* of bytes, self-gravity's (gravity_ranks.c) */
    uint64_t gravity_tree_bytes; /* of them the trees' (pieces' roots, boxes, pruned trees) */
    uint64_t gravity_apart;   /* self-gravity's evaluations with the tree built apart */
    uint64_t gravity_gathers; /* and with every grain gathered */
    double gravity_seconds;   /* in self-gravity, its exchanges and its work, this rank */
} rbl_domain_stats;

int rbl_domain_create(rbl_domain **out, rbl_comm *comm, rbl_sim *sim, rbl_error *err);
struct rbl_history_rows; /* dem_internal.h */
/* The same where each rank's sim holds only a share of the grains already (a checkpoint read
 * apart, rbl_checkpoint_read_ranks) and, in rows, the histories of its grains'
 * contacts (those of a pair with the other's holder too). Collective. */
int rbl_domain_create_apart(rbl_domain **out, rbl_comm *comm, rbl_sim *sim,
                            const struct rbl_history_rows *pairs,
                            const struct rbl_history_rows *walls,
                            rbl_error *err);
void rbl_domain_free(rbl_domain *d);
void rbl_domain_stats_get(const rbl_domain *d, rbl_domain_stats *out);
/* A value per grain sent to where it is a ghost: own[k] for each of this rank's grains in,
 * ghost[e] for each of its ghosts out (g.ghosts of them). Collective. */
int rbl_domain_ghost_values(rbl_domain *d, const double *own, double *ghost, rbl_error *err);
/* rbl_sim_insert_random over the ranks (a pour): every rank places the same grains against
 * every rank's grains near the region, in the same order with the same ids as one process,
 * and keeps those in its box. Collective; *placed is the number placed on all. */
int rbl_domain_insert_random(rbl_domain *d, const rbl_insert_spec *spec, size_t *placed,
                             rbl_error *err);
/* The lists and ghosts of the last build, made again where grains added since let them go
 * (a pour's batch): what a checkpoint written by every rank needs. Collective. */
int rbl_domain_relist(rbl_domain *d, rbl_error *err);
/* The same for a lattice (a start over the ranks). */
int rbl_domain_insert_lattice(rbl_domain *d, const rbl_insert_spec *spec, size_t *placed,
                              rbl_error *err);
/* rbl_sim_insert_pack over the ranks: every rank computes the one packing (the grains held
 * gathered from all) and adds its share (insert_pack.c). */
int rbl_domain_insert_pack(rbl_domain *d, const rbl_insert_spec *spec, double volume_fraction,
                           size_t *placed, rbl_error *err);
/* A start over the ranks (issue 47): the domain made before any grain, each rank then placing
 * the scene's grains as one process does and keeping those whose position lies in its slab of
 * lo..hi along their longest side, until the first build sends every grain to its box. */
void rbl_domain_set_start(rbl_domain *d, const double lo[3], const double hi[3]);
/* The diagnostics of the whole simulation (rbl_sim_thermo's, each process's own grains and
 * its pairs whose lower id it holds), summed in rank order: the same numbers on every rank,
 * a serial run's up to the order of the sums. Collective. */
void rbl_domain_thermo(rbl_domain *d, rbl_thermo *t);

/* Every grain's id and state (position, velocity, spin: 9 doubles), on rank 0 in id order;
 * other ranks get n = 0. Collective. */
typedef struct rbl_gathered {
    size_t n;
    uint32_t *id;
    double *state;
} rbl_gathered;
int rbl_domain_gather(rbl_domain *d, rbl_gathered *out, rbl_error *err);
void rbl_gathered_free(rbl_gathered *g);

#endif
