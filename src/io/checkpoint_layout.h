/* checkpoint_layout.h — what a grains checkpoint's payload holds after its head, in order
 * (checkpoint.c writes and reads it from one simulation; checkpoint_ranks.c writes the same
 * bytes' layout from every process's share at once). */
#ifndef RBL_CHECKPOINT_LAYOUT_H
#define RBL_CHECKPOINT_LAYOUT_H

#include "../dem/dem_internal.h"

#define CKPT_MAGIC "RUBBLECK"
#define CKPT_VERSION 25u /* 2: clumps (bodies); 3: the step of the next reordering; 4: self-gravity;
                           5: open domains; 6: the scene digest in the run state; 7: rolling
                           resistance and cohesion (a history of 6 doubles with epsd2); 8: mesh
                           walls and walls that move; 9: mesh walls' wear, flow counters, outlets;
                           10: a wall's travel before a stage re-based it, outlets
                           opened and closed; 11: a pair of materials' gamma_n, rolling
                           friction and cohesion; 12: the external forces the grains' forces
                           hold (fext_applied), so a restart's first kick counts them once;
                           13: epsd2's history 4 doubles (its torque and the stiffness k_r it
                           last had, issue 69); 14: the last force evaluation's results per
                           contact (a pair's RBL_PAIR_OUT doubles after the pairs' histories, in
                           pair order, zeros where it does not touch; a wall contact's
                           RBL_WALL_OUT and its facet after the wall histories), so that a
                           restart's contacts, contact files, coarse-graining and wall loads
                           read before its first step are the uninterrupted run's (issue 69);
                           15: the external forces asked for (fext, after fext_applied), and in
                           the run state the hook's schedule (its every, the step it was last
                           called at), so a restart at any step resumes a hook (issue 69);
                           16: the energy account (issue 70): each grain's losses (loss, 3
                           doubles, and loss_cohesion) and, before the step, the sums of energy
                           put in by source and dissipated by grains since removed; 17: a
                           tangential spring whose stiffness follows the overlap keeps the k_t
                           of its last step in its history (a history one double wider);
                           18: law.collisions, the contacts' events for collision statistics
                           (RBL_HIST_COLLISION doubles more of history where it is set);
                           19: the law's models and block coefficients from its table
                           (law_table.h, issue 71), law.twisting among them, and its twisting
                           model's history (3 doubles past the dashpots' with marshall);
                           20: the bonds after the walls' candidates (issue 72: their count,
                           the broken's, then a record each, bond_state.c; none over several
                           processes yet);
                           21: each mesh wall's primitive after its wear (its kind, 0 for a
                           triangle mesh, its parameters and its frame: issue 73);
                           22: a wall contact's history one double wider (a mesh face's
                           share of a crease's elastic energy, issue 70), and each wall's
                           presence after its servo flag (bit 0 taken away, bit 1 its
                           presence changed in the run: issue 73's gates); 23: each
                           wall's motion table after its presence (its row count, 0: none;
                           then its start, pivot, orientation at the last build and rows as
                           given: issue 73); 24: law.collisions as bits (1 the collision
                           events, 2 the contacts' ages: a history one double wider) and the
                           run state's flow-window share (issue 74), each only where a run asks
                           for it, so that 23 reads as 24; a build of 23 would misread them;
                           25: a sheared cell's servo at the head's end (on, its shift as the
                           images' speed's integral, its strain rate: issue 73) */
#define CKPT_VERSION_OLDEST 22u /* the oldest format read: 22, whose walls have no tables */
#define CKPT_BOM 0x01020304u

/* Grain arrays: vectors (3 doubles), scalars (doubles), and 32-bit fields. vel_eval, omega_eval,
 * gacc and gphi are NULL where the simulation does not keep them: zeros in the file, passed
 * over when read (the configuration read with them says whether they are kept).
 * fext_applied (the caller's external forces that `force` holds, rbl_sim_external_forces) is
 * NULL until a caller asks for external forces: zeros then; a reader keeps it where it holds
 * one that is not zero (checkpoint.c), so a restart's refresh takes them out of `force` or
 * leaves them there as the caller sets them again, never adding them twice. fext (the external
 * forces asked for now, which the next refresh puts in `force`; they differ from fext_applied
 * where the caller or a hook set them since the last force evaluation) likewise: a restart
 * holds them for a hook that resumes its schedule (run.c), else drops them. */
#define GRAIN_VECS(X) X(pos) X(vel) X(omega) X(force) X(torque) X(pos_build) X(vel_eval) X(omega_eval) \
    X(gacc) X(fext_applied) X(fext) X(loss)
#define GRAIN_DBLS(X) X(radius) X(mass) X(inv_mass) X(inv_inertia) X(gphi) X(loss_cohesion)
/* Body arrays and their values per body. */
#define BODY_ARRAYS(X) X(pos, 3) X(vel, 3) X(angmom, 3) X(quat, 4) X(moment, 3) X(mass, 1)  \
    X(force, 3) X(torque, 3) X(material, 1)
/* The bytes a grain, a clump and a member slot take in the file: counts a payload of so many
 * bytes cannot hold are refused before anything is allocated on their word. */
#define CKPT_GRAIN_BYTES (12 * 24 + 6 * 8 + 5 * 4)
#define CKPT_BODY_BYTES (23 * 8 + 4 + 8)
#define CKPT_SLOT_BYTES (4 + 4 + 24)

/* The payload's head (configuration, materials, walls, meshes, counters, outlets, the run's
 * scalars: all but the grains), malloc'd into *out; 0 when out of memory. */
int rbl_checkpoint_head(const rbl_sim *sim, void **out, size_t *len);

/* Reading (checkpoint.c; checkpoint_read_ranks.c reads a share of the same file). */
/* The head from the payload's first `have` bytes of `total`: *out made (no grain), *used the
 * bytes it took. *more set when the head goes on past `have` (then read more and call again;
 * any error it gave is moot). */
int rbl_checkpoint_read_head(const void *bytes, size_t have, size_t total, uint32_t version,
                             const char *path, rbl_sim **out, size_t *used, int *more,
                             rbl_error *err);
/* sim's grains hold values a simulation may have; they are the file's grains first on. */
/* The external forces read (fext_applied, fext) kept where one is not zero, else freed: a run
 * that never had any gathers as it did. */
void rbl_checkpoint_external_kept(rbl_grains *g);
int rbl_checkpoint_grains_check(const rbl_sim *sim, size_t first, const char *path,
                                rbl_error *err);
/* A pair list (p->n rows) as a checkpoint may hold it: first grains lo..hi - 1 in order,
 * second grains below n, images and touch flags in range, finite histories of `width`, and
 * the results `out` (RBL_PAIR_OUT per pair, in pair order) finite, zeros where it does not
 * touch. */
int rbl_checkpoint_pairs_valid(const rbl_pair_list *p, const double *out, size_t width,
                               size_t lo, size_t hi, size_t n);
/* A wall list as a checkpoint may hold it: grains below `grains` in order, walls that exist,
 * a mesh's slots one group of RBL_MESH_SLOTS in a row, candidates that are facets of its
 * mesh, finite histories; results (out) finite, zeros where it does not touch; a facet
 * (UINT32_MAX: none) only where a mesh contact touches, one of its mesh's. */
int rbl_checkpoint_walls_valid(const rbl_sim *sim, const rbl_wall_list *w, size_t grains);
/* After the grains: the law checked, the walls where the time puts them, the state prepared
 * (mid-run). */
int rbl_checkpoint_loaded(rbl_sim *sim, rbl_error *err);

#endif
