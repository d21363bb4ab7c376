/* bond_pass.c — the bonds' part of a force evaluation (issue 72): every bond's law in its own
 * record (threads over bonds), then each grain's sums over its bonds in bond order (threads
 * over grains, the engine's ranges), so the same bits on any thread count and memory order;
 * the bonds' damping and breakage booked at their first grain. SI units. */
#include "bonds_internal.h"

static int forces(rbl_sim *sim, int advance, rbl_error *err)
{
    rbl_bonds *bs = sim->bonds;
    int rc = rbl_bonds_index(sim, bs, err);
    if (rc != RBL_OK)
        return rc;
    if (bs->stretched) { /* the ghosts reach 2 r_max + skin beyond a process's region */
        const rbl_bond *b = rbl_bonds_at(bs, bs->stretched - 1);
        return rbl_error_set(err, RBL_ERANGE, "bonds: the bond between grains %u and %u "
                             "reaches beyond the other processes' grains that this one sees "
                             "(longer than 2 r_max + skin): raise run.skin, or run on one "
                             "process", b->a, b->b);
    }
    const long ne = (long)bs->n_eval;
    size_t broke = 0; /* those broken at this step (b->home: its first grain's holder) */
#pragma omp parallel for schedule(static) num_threads(sim->threads) reduction(+ : broke)
    for (long q = 0; q < ne; q++) /* (in evaluation order: bonds.c) */
        broke += (size_t)rbl_bond_law(sim, bs->bond + q, advance);
    bs->broken += broke;
    rbl_grains *g = &sim->g;
#pragma omp parallel num_threads(sim->threads)
    {
        size_t begin, end;
        rbl_sweep_range(sim, g->n, &begin, &end);
        const size_t ahead = 8; /* grains: their bonds' results asked for before they are read */
        for (size_t k = begin; k < end; k++) {
            if (k + ahead < end)
                for (size_t e = bs->start[k + ahead]; e < bs->start[k + ahead + 1]; e++) {
                    const rbl_bond *b = bs->bond + (bs->entry[e] >> 1);
                    __builtin_prefetch(b->f), __builtin_prefetch(b->tj + 2);
                }
            double s[6] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
            for (size_t e = bs->start[k]; e < bs->start[k + 1]; e++) {
                const rbl_bond *b = bs->bond + (bs->entry[e] >> 1);
                const int second = bs->entry[e] & 1u;
                const double *t = second ? b->tj : b->ti;
                for (int a = 0; a < 3; a++)
                    s[a] += second ? -b->f[a] : b->f[a], s[3 + a] += t[a];
                if (!second && advance) {
                    g->loss[3 * k + RBL_LOSS_DAMPING] += b->loss_damping;
                    g->loss_cohesion[k] += b->loss_break;
                }
            }
            for (int a = 0; a < 6; a++)
                sim->bond_sum[6 * k + a] = s[a];
        }
    }
    return RBL_OK;
}

/* The springs' energy, bond by bond in order (over several processes each bond's at the holder
 * of its first grain: exact sums, so one process's bits). */
static void energy(const rbl_sim *sim, rbl_exact_sum *elastic)
{
    const rbl_bonds *bs = sim->bonds;
    const int every = !sim->peers; /* (rbl_bond_homed, without a call a bond) */
    for (size_t q = 0; q < bs->n; q++) {
        const rbl_bond *b = bs->bond + q;
        if (b->intact && (every || b->home))
            rbl_exact_add(elastic, b->energy);
    }
}

const rbl_sim_bonded rbl_bonds_table = {forces,         energy,
                                        rbl_bonds_release, rbl_bonds_gone,
                                        rbl_bonds_count, rbl_bonds_record_doubles,
                                        rbl_bonds_put,  rbl_bonds_take};
