/* bonds_internal.h — bonded particles (issue 72, docs/bonds.md): the bonds' list and state.
 * Potyondy & Cundall 2004's parallel bond, SI units (N, N m, Pa, J). The engine reaches the
 * bonds through rbl_sim_bonded (dem_internal.h) alone. */
#ifndef RBL_BONDS_INTERNAL_H
#define RBL_BONDS_INTERNAL_H

#include "../dem/dem_internal.h"

#include <math.h>

/* One bond: its grains, constants fixed at its making, the springs' loads it carries (on the
 * first grain, the lower id) and the last evaluation's results. */
typedef struct rbl_bond {
    /* first what every step's passes read besides the law: ids, state, the energy (thermo
       rows), then the results the grains' sums read (one or two cache lines of the record) */
    uint32_t a, b;              /* grain ids, a < b */
    uint32_t i, j;              /* their indices in the grains' arrays (refreshed) */
    int intact;
    int mode;                   /* broken in tension (1) or in shear (2) */
    int home;                   /* over several processes: counted and written by this one
                                   (intact: it holds the first grain; broken: it did when the
                                   bond broke; bond_ranks.c) */
    double energy;
    double f[3], ti[3], tj[3];  /* the last evaluation's force on a, torques on a and on b */
    double loss_damping, loss_break; /* this step's, J (booked at grain a) */
    double radius;              /* R = lambda min(R_a, R_b), m */
    double kn, ks, kt, kb;      /* k_n A, k_s A (N/m), k_s J, k_n I (N m/rad) */
    double cn, cs, ct, cb;      /* the dashpots: 2 beta sqrt(k m*) (moments: sqrt(k I*)) */
    double d0;                  /* the length at the making, m */
    double sigma_c, tau_c;      /* strengths, Pa */
    double n[3];                /* the direction a -> b at the last evaluation */
    double dist;                /* and the length */
    double x[3];                /* a's centre there */
    double fs[3], mt[3], mb[3]; /* the shear spring's force, the twist and bending moments */
    double fd[3], md[3];        /* the dashpots' force and moment at the last evaluation */
    double fn, sigma, tau;      /* the last evaluation's normal force, stresses */
    uint64_t broke_step;        /* the step it broke at (intact: 0) */
} rbl_bond;

typedef struct rbl_bonds {
    rbl_bond *bond;             /* (the order: below) */
    size_t n, cap;
    size_t broken;
    size_t *start;              /* grains n + 1: grain k's bonds are entry[start[k] ..] */
    uint32_t *entry;            /* bond << 1 | (the grain is b) */
    /* Stored in evaluation order once indexed (rbl_bonds_index): first the bonds computed
       (intact, their grains here) by their first grain's memory index, so that the law walks
       the records in turn and gathers grains near the last bond's, then the rest; by_id[k]
       is where the k-th bond in order of (a, b) is (permuted: 0, the records are in that
       order). Whatever makes or drops bonds puts them back in id order first. */
    size_t n_eval;
    uint32_t *by_id;
    int permuted;
    uint32_t *held;             /* n_eval x (i, j, a, b) at the index: whether it still holds,
                                   checked each evaluation without reading the records */
    size_t grains, all;         /* the grain count the index was made for, ghosts with */
    int indexed;
    size_t stretched;           /* over several processes, 1 + a bond of this process's grain
                                   whose partner is not among its ghosts at the last index */
} rbl_bonds;

/* The k-th bond in order of their ids (a, b). */
static inline rbl_bond *rbl_bonds_at(const rbl_bonds *bs, size_t k)
{
    return bs->bond + (bs->permuted ? bs->by_id[k] : k);
}

/* The records back in order of their ids (before bonds are made or looked up by ids). */
void rbl_bonds_in_id_order(rbl_bonds *bs);

/* A bond's i and j where its grains are not here (over several processes). */
#define RBL_BOND_AWAY UINT32_MAX

/* d = x_j - x_i, the nearest image across periodic axes; returns |d|. (Within half a box the
 * nearest integer is a zero of d's sign, taken without the call to nearbyint: the same bits.) */
static inline double rbl_bond_separation(const rbl_sim *sim, size_t i, size_t j, double d[3])
{
    const double *x = sim->g.pos;
    for (int a = 0; a < 3; a++) {
        d[a] = x[3 * j + a] - x[3 * i + a];
        if (sim->box[a] > 0.0) { /* a periodic axis */
            const double q = d[a] / sim->box[a];
            d[a] -= sim->box[a] * (fabs(q) < 0.5 ? copysign(0.0, q) : nearbyint(q));
        }
    }
    return sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
}

/* The longest step a bond of fastest frequency omega (rad/s) and damping beta (of critical)
 * takes: L(beta) / (10 omega), L the stability limit in omega dt of one damped spring under
 * the integrator (from its amplification matrix, docs/bonds.md "Time step"): mid-step (the
 * dashpot reads the half step's velocity) 2 (sqrt(1 + beta^2) - beta), synchronized (the
 * velocity predicted with the last force, the dashpot's lag doubled) 2 (sqrt(1 + 4 beta^2) -
 * 2 beta); 10 for a grain held by many bonds whose shear springs also turn it (a bonded cube
 * of 8 grains has a mode 6.1 times one bond's frequency, test_bonds.c). */
static inline double rbl_bond_dt_limit(double omega, double beta, int integrator)
{
    const double b = integrator == RBL_INTEGRATOR_SYNCHRONIZED ? 2.0 * beta : beta;
    return 0.2 * (sqrt(1.0 + b * b) - b) / omega;
}

/* bonds.c: the list, its index by grain, the checks of a bond's making. */
rbl_bonds *rbl_bonds_of(rbl_sim *sim, rbl_error *err); /* made on first use */
int rbl_bonds_index(rbl_sim *sim, rbl_bonds *bs, rbl_error *err);
/* The grains' ids as keys id << 32 | index, sorted (NULL: out of memory), and the index of
 * id among them, or -1: the bonds' grains found by id (the index, a checkpoint's check). */
uint64_t *rbl_bonds_id_table(const rbl_grains *g);
long rbl_bonds_find_id(const uint64_t *keys, size_t n, uint32_t id);
void rbl_bonds_release(rbl_sim *sim);

/* bond_law.c: one bond's loads for the grains' state now; advance: with the step's
 * increments, stresses against strengths (0: the loads it holds, at a first evaluation).
 * Returns 1 where it broke. */
int rbl_bond_law(const rbl_sim *sim, rbl_bond *b, int advance);
/* The springs' energy, J. */
double rbl_bond_energy(const rbl_bond *b);

/* bond_state.c: the bonds as bytes (checkpoints): 16 + one record a bond. */
size_t rbl_bond_record_bytes(void);
size_t rbl_bonds_state_bytes(const rbl_sim *sim);
void rbl_bonds_state_write(const rbl_sim *sim, unsigned char *out);
/* From len bytes at in (*used: how many were the bonds'), after the grains were read: each
 * checked (flags, stiffness, its grains present, none twice), put in order of ids. apart: the
 * grains are this process's share (checkpoint_read_ranks.c): an intact bond of none of them is
 * left to the others, its grains not checked here (a missing one is refused at the first force
 * evaluation over the processes). */
int rbl_bonds_state_read(rbl_sim *sim, const unsigned char *in, size_t len, size_t *used,
                         int apart, const char *path, rbl_error *err);

/* One bond's record for a checkpoint or a migration: rbl_bond_record_bytes() bytes (a multiple
 * of 8), i, j and home left out. */
void rbl_bond_record_put(const rbl_bond *b, unsigned char *out);
void rbl_bond_record_get(rbl_bond *b, const unsigned char *in);

/* bond_ranks.c: over several processes. Whether a bond is this process's to count and to write
 * (one process: every bond; several: where it is at home). */
int rbl_bond_homed(const rbl_sim *sim, const rbl_bond *b);
/* The bonds sorted by ids, one of each pair kept (first the intact), the rest freed. */
void rbl_bonds_sort_unique(rbl_bonds *bs);
/* Over several processes, before bonds are made at a stage: the broken bonds of every
 * process (pairs of ids) known here too, so that none is made again (kept as broken bonds
 * not at home, which the next migration drops). */
int rbl_bonds_know_broken(rbl_sim *sim, const uint32_t *pairs, size_t n, rbl_error *err);
/* The rbl_sim_bonded calls of a build (dem_internal.h says what each does). */
int rbl_bonds_gone(rbl_sim *sim, const uint8_t *gone, rbl_error *err);
size_t rbl_bonds_count(const rbl_sim *sim);
size_t rbl_bonds_record_doubles(void);
int rbl_bonds_put(const rbl_sim *sim, size_t q, uint32_t ids[2], double *rec);
int rbl_bonds_take(rbl_sim *sim, const double *recs, size_t n, int drop_broken, rbl_error *err);

/* fragments.c: a grain as the fragments take it (join: the id of its clump's first member, or
 * its own), and the fragments of n grains (sorted here by id) and n_pairs intact bonds (ids,
 * two each) with the periodic lengths box (0: not periodic); *out malloc'd, by label. */
typedef struct rbl_fragment_grain {
    uint32_t id, join;
    double mass, radius, pos[3], vel[3];
} rbl_fragment_grain;
int rbl_fragments_find(rbl_fragment_grain *g, size_t n, const uint32_t *pairs, size_t n_pairs,
                       const double box[3], rbl_fragment **out, size_t *n_out, rbl_error *err);
/* This process's grains and the intact bonds at home here, as the above takes them. */
int rbl_fragments_records(const rbl_sim *sim, rbl_fragment_grain **grains, size_t *n,
                          uint32_t **pairs, size_t *n_pairs, rbl_error *err);

/* bond_pass.c: every bond's law, then each grain's sums (the rbl_sim_bonded table). */
extern const rbl_sim_bonded rbl_bonds_table;

#endif
