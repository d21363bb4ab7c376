/* run_ranks.h — `rubble run` over several processes (run_ranks.c): with one process every call
 * is the plain one (r->comm NULL). */
#ifndef RBL_RUN_RANKS_H
#define RBL_RUN_RANKS_H

#include "../parallel/parallel_internal.h"
#include "../io/io_internal.h"
#include "../scene/scene_internal.h"

typedef struct rbl_run_ranks {
    int rank, size;
    rbl_comm *comm;     /* NULL with one process */
    rbl_domain *domain; /* from rbl_run_ranks_start_apart or _adopt */
} rbl_run_ranks;

/* How many processes the launcher started; over several, MPI started and the scene checked
 * for what cannot run over several yet (an error on every rank, the same message). */
int rbl_run_ranks_start(rbl_run_ranks *r, const rbl_scene *s, rbl_error *err);
/* Over several processes, before the scene's grains are placed: the domain made now, so that
 * each process places only its own (rbl_run_ranks_place; a clump by its centre, its members
 * with it) and none holds them all (collective; nothing with one process). */
int rbl_run_ranks_start_apart(rbl_run_ranks *r, const rbl_scene *s, rbl_sim *sim,
                              rbl_error *err);
/* A lattice, random or file source's grains, one process's ids in one process's order:
 * over several processes after rbl_run_ranks_start_apart, each keeping its own
 * (collective; *placed counts all). */
int rbl_run_ranks_place(rbl_run_ranks *r, rbl_sim *sim, const rbl_source *src, size_t *placed,
                        rbl_error *err);
/* A simulation read apart (rbl_checkpoint_read_ranks) spread over the processes: each its
 * share, and the histories of its grains' contacts (collective). */
int rbl_run_ranks_adopt(rbl_run_ranks *r, const rbl_scene *s, rbl_sim *sim,
                        const struct rbl_history_rows *pairs,
                        const struct rbl_history_rows *walls,
                        rbl_error *err);
/* The least of v over the processes. */
double rbl_run_ranks_min(rbl_run_ranks *r, double v);
/* output.final over several processes (collective): the grains redistributed into slices in
 * id order (rbl_comm_id_slices), each process writing its slice's lines into one file at once
 * (rbl_comm_write_pieces), renamed into place when all have: the bytes one process writes, and no
 * process holds more than its slice. */
int rbl_run_ranks_final_text(rbl_run_ranks *r, const rbl_sim *sim, const char *path,
                             rbl_error *err);
/* A pour's batch: rbl_sim_insert_random, over several processes as one process places it
 * (collective). */
int rbl_run_ranks_insert_random(rbl_run_ranks *r, rbl_sim *sim, const rbl_insert_spec *spec,
                                size_t *placed, rbl_error *err);
/* An error on any rank an error on all (collective; rc itself with one process). */
int rbl_run_ranks_agree(rbl_run_ranks *r, int rc, rbl_error *err);
/* The whole simulation's diagnostics. */
void rbl_run_ranks_thermo(rbl_run_ranks *r, rbl_sim *sim, rbl_thermo *t);
/* rbl_sim_step; a failure on one rank mid-step stops the job with its message. */
int rbl_run_ranks_step(rbl_run_ranks *r, rbl_sim *sim, uint64_t steps, rbl_error *err);
/* All the grains, over the ranks. */
size_t rbl_run_ranks_grains(rbl_run_ranks *r, const rbl_sim *sim);
/* A kind of frame file: PREFIX_NNNNNN.EXT written by write(path, sim, ctx); over several
 * ranks each rank's piece PREFIX_NNNNNN_R.EXT and, with a layout (a .vtp), rank 0's
 * PREFIX_NNNNNN.pvtp over them (a table's pieces are read together as they are). */
typedef struct rbl_frame_writer {
    const char *prefix, *ext;
    int (*write)(const char *path, const rbl_sim *sim, const void *ctx, rbl_error *err);
    const void *ctx;
    const rbl_vtp_layout *layout;
} rbl_frame_writer;
/* Frame `frame` of that kind; *name (malloc'd, when name is not NULL) is what a series lists:
 * the one file, or the .pvtp. */
int rbl_run_ranks_frame(rbl_run_ranks *r, const char *dir, size_t frame, rbl_sim *sim,
                        const rbl_frame_writer *w, char **name, rbl_error *err);
/* The report's figures of the ranks (ranks, time in exchanges, imbalance, traffic). */
void rbl_run_ranks_report(rbl_run_ranks *r, rbl_sim *sim, double seconds, rbl_run_report *rep);
/* The report's peak overlap over the run (of every rank: the deepest, ties to the lower ids). */
void rbl_run_ranks_health(rbl_run_ranks *r, const rbl_sim *sim, rbl_run_report *rep);
/* bond_output.c (issue 72): the ids chosen on every process, in rank order, replacing *ids
 * (collective; nothing with one process); thermo's counts of bonds over every process (each
 * counted at its home); every bond's view in id order on rank 0 (*out malloc'd; the other
 * ranks get none). */
int rbl_run_ranks_ids(rbl_run_ranks *r, uint32_t **ids, size_t *n, rbl_error *err);
void rbl_run_ranks_bond_counts(rbl_run_ranks *r, const rbl_sim *sim, size_t *intact,
                               size_t *broken);
int rbl_run_ranks_bond_views(rbl_run_ranks *r, const rbl_sim *sim, rbl_bond_view **out,
                             size_t *n, rbl_error *err);
/* Before bonds are made at a stage: every process's broken bonds known on each (collective). */
int rbl_run_ranks_know_broken(rbl_run_ranks *r, rbl_sim *sim, rbl_error *err);
/* The fragments of every process's grains on rank 0 (*out malloc'd; none on the others). */
int rbl_run_ranks_fragments(rbl_run_ranks *r, const rbl_sim *sim, rbl_fragment **out,
                            size_t *n_out, rbl_error *err);
/* Before the simulation is destroyed. */
void rbl_run_ranks_end(rbl_run_ranks *r);

#endif
