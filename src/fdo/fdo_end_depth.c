/* fdo_end_depth.c — each contact's depth at the end of the step, predicted from the solved
 * velocities and the push, held to the engine's bound (issue 70; docs/fdo.md "Overlap at the
 * step's end"). A contact's constraint is linear: its contact point's velocity. An object that
 * turns by theta = |w| dt brings its surface farther along the normal than that point moves, by
 * about rho theta^2 / 2 for its radius of curvature rho there (a flat ellipsoid's flat side:
 * a^2 / c, 2.5 bounding radii for 20 x 12 x 8 mm), and the energy hold turns back much of the
 * push's own turn: neither shows in the velocities. */
#include "fdo_internal.h"

#include <string.h>

/* How far object k's surface reaches along the unit u from its centre of mass at orientation
 * q. */
static double reach_along(const rbl_fdo_sim *sim, size_t k, const double q[4], const double u[3])
{
    rbl_fdo_object o;
    rbl_fdo_object_at(sim, k, q, &o);
    double s[3];
    rbl_fdo_support(&o, u, s);
    return rbl_dot3(u, s) - rbl_dot3(u, sim->pos + 3 * k);
}

/* How far object k's surface advances along u in the step: its centre's motion (velocity and
 * push) and the turn to sim->end_quat. A sphere's turn changes nothing. */
static double advance(const rbl_fdo_sim *sim, size_t k, const double *V, const double *P,
                      const double u[3])
{
    double moved = sim->p.dt * (rbl_dot3(u, V + 6 * k) + (P ? rbl_dot3(u, P + 6 * k) : 0));
    const double *s = sim->semi + 3 * k, *q = sim->quat + 4 * k, *q_end = sim->end_quat + 4 * k;
    if ((!sim->shape[k].n_perturbations && s[0] == s[1] && s[1] == s[2]) ||
        memcmp(q, q_end, 4 * sizeof *q) == 0)
        return moved;
    return moved + reach_along(sim, k, q_end, u) - reach_along(sim, k, q, u);
}

/* The orientations the step will end with (rbl_fdo_turn, as the final computation turns):
 * from the spins in V, with the push P and the angular momentum it gives back when P is not
 * NULL. */
static void end_orientations(rbl_fdo_sim *sim, const double *V, const double *P)
{
#pragma omp parallel for schedule(static) num_threads(sim->threads)
    for (size_t k = 0; k < sim->n; k++) {
        double L[3];
        rbl_fdo_turn(sim, k, V + 6 * k + 3, P ? P + 6 * k + 3 : NULL,
                     P ? sim->spin_gain + 3 * k : NULL, sim->end_quat + 4 * k, L);
    }
}

/* Row c of object k: how far its depth at the step's end would lie beyond the bound (<= 0:
 * within it). The end depth is the depth now plus how far each object's surface advances
 * along the normal towards the other (exact for a plane: the depth of the object moved and
 * turned; for a pair, along the step's normal). The bound is the slop, or for a contact deeper
 * than it the share the push leaves, slop + (1 - correction) (depth - slop). */
static double beyond(const rbl_fdo_sim *sim, size_t k, size_t c, const double *V, const double *P)
{
    const rbl_fdo_row *w = sim->rows + c;
    const int wall = rbl_fdo_is_wall(w->other);
    const size_t big = w->sign > 0 ? k : w->other, small = w->sign > 0 ? w->other : k;
    const double dt = sim->p.dt, slop = sim->slop, depth = sim->side[c].depth;
    const double bound = slop + (1 - sim->p.correction) * fmax(0, depth - slop);
    /* a cheap bound first: no surface point moves further than its centre's motion and its
     * turn's chord, |w| dt R (the splitting's turn at most sqrt 3 times that, the hold's less) */
    double most = depth;
    for (int j = 0; j < 2 && (j == 0 || !wall); j++) {
        const size_t o = j ? small : big;
        const double *v = V + 6 * o, *p = P ? P + 6 * o : NULL;
        double lin = sqrt(rbl_dot3(v, v)), ang = sqrt(rbl_dot3(v + 3, v + 3));
        if (p)
            lin += sqrt(rbl_dot3(p, p)), ang += sqrt(rbl_dot3(p + 3, p + 3));
        most += dt * (lin + 2 * ang * sim->bound[o]);
    }
    if (!(most > bound))
        return most - bound;
    const double out[3] = {-w->n[0], -w->n[1], -w->n[2]}; /* from big towards small */
    double end = depth + advance(sim, big, V, P, out);
    if (!wall)
        end += advance(sim, small, V, P, w->n);
    return end - bound;
}

size_t rbl_fdo_hold_end_depths(rbl_fdo_sim *sim, const double *V)
{
    end_orientations(sim, V, NULL);
    const double dt = sim->p.dt;
    size_t taken = 0;
#pragma omp parallel for schedule(dynamic, 64) num_threads(sim->threads) reduction(+ : taken)
    for (size_t k = 0; k < sim->n; k++)
        for (size_t c = sim->start[k]; c < sim->start[k + 1]; c++) {
            rbl_fdo_row *w = sim->rows + c;
            if (!w->active && !(w->gap > 0))
                continue;
            double excess = beyond(sim, k, c, V, NULL);
            if (!(excess > 0))
                continue;
            if (!w->active)
                w->active = 1, taken++;
            w->push_target = fmax(w->push_target, excess / dt);
        }
    return taken;
}

size_t rbl_fdo_project_end_depths(rbl_fdo_sim *sim, const double *V, double *P, size_t *taken)
{
    end_orientations(sim, V, P);
    const double dt = sim->p.dt;
    size_t moved = 0;
    for (size_t k = 0; k < sim->n; k++)
        for (size_t c = sim->start[k]; c < sim->start[k + 1]; c++) {
            rbl_fdo_row *w = sim->rows + c;
            if (w->sign < 0 || (!w->active && !(w->gap > 0)))
                continue; /* each contact once: from its bigger object, or a wall's */
            double excess = beyond(sim, k, c, V, P);
            if (!(excess > 1e-3 * sim->slop))
                continue;
            moved++;
            if (!w->active)
                *taken += rbl_fdo_is_wall(w->other) ? 1 : 2;
            w->active = 1;
            double *Pb = P + 6 * k;
            if (rbl_fdo_is_wall(w->other)) {
                for (int a = 0; a < 3; a++)
                    Pb[a] += excess / dt * w->n[a];
                continue;
            }
            /* apart along n, the centre of mass kept: as a push impulse pi along n with no
             * lever, whose orbital angular momentum push_angular_momentum gives back */
            double *Ps = P + 6 * (size_t)w->other, mb = sim->mass[k], ms = sim->mass[w->other];
            double pi = excess / dt * mb * ms / (mb + ms);
            for (int a = 0; a < 3; a++)
                Pb[a] += pi / mb * w->n[a], Ps[a] -= pi / ms * w->n[a];
            w->push += pi;
            sim->rows[w->twin].push = w->push, sim->rows[w->twin].active = 1;
        }
    return moved;
}
