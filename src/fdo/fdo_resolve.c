/* fdo_resolve.c — contact resolution (seed 003 eqs. 5-9, SPEC FO3), one object at a time. An
 * object's own velocity is the one after phase 1 (gravity added); every other object enters
 * with its velocity at the start of the step, so objects are independent of each other (any
 * order, any thread count, same bits). For object i and each of its contacts c:
 *  - the generalised normal J = [n; r x n] and the normal velocities u_i, u_j of the two at the
 *    contact point;
 *  - a collision (approach faster than gravity brings in a few steps): the velocity at maximal
 *    compression is their mean weighted by the effective masses (eq. 8), u_bar = (m_i u_i +
 *    m_j u_j) / (m_i + m_j) (a fixed plane: its own, 0), and the affine constraint J v >= m_c
 *    (eqs. 6-7) has m_c = u_bar + e (u_bar - u_i): the object leaves e times as fast as it came,
 *    relative to u_bar (two equal spheres head on: momentum kept and restitution e exactly);
 *  - a resting contact, or a collision with e = 0: m_c = u_j (u_bar), less what closes the
 *    object's share of the gap within the step: no faster into the other than the other moves. The mean
 *    would ask the lower of two resting objects to move with the upper one's weight, into the
 *    floor, every step: a stack could never stand;
 *  - a contact still open that the object cannot close within the step, or that it leaves, is
 *    dropped at once (seed: satisfied constraints are dropped early);
 *  - friction: the impulse in the tangent plane that brings the contact's slip to the other's
 *    (a collision: to the mass-weighted mean), projected on the polygon spanned by
 *    `tangent_samples` uniformly sampled directions with radius mu times the normal impulse: of
 *    the admissible impulses the nearest, the one that dissipates most; rolling friction alike
 *    with angular impulses bounded by `rolling` times the normal impulse.
 * The object's few constraints are solved together by projected Gauss-Seidel sweeps (normal
 * impulses >= 0; plane rows last, so that a squeezed object never ends inside a fixed plane),
 * a small problem per object: linear in the number of contacts. A second, normal-only solve
 * gives a pseudo-velocity that removes a share of each overlap beyond the slop; it moves the
 * object but is not kept as velocity. */
#include "fdo_internal.h"
#include "../base/rotation.h"

#include <stdlib.h>
#include <string.h>

typedef struct row {
    double Jn[6], Jt1[6], Jt2[6];   /* generalised directions [d; r x d]: normal, two tangents */
    double Wn[6], Wt1[6], Wt2[6];   /* M^-1 J */
    double Wr1[3], Wr2[3];          /* I^-1 t: rolling */
    double k_n;                     /* J M^-1 J^T, normal */
    double Kt[3], Kr[3];            /* 2x2 symmetric: tangential and rolling */
    double target;                  /* m_c */
    double slip_bar[2], roll_bar[2]; /* the mean slip and roll the contact tends to */
    double push_target;
    double lambda, P[2], A[2], push;
    int active, push_both_ways;
} row;

static void world_inverse_inertia(const double q[4], const double moment[3], rbl_sym3 out)
{
    double inv[3] = {1 / moment[0], 1 / moment[1], 1 / moment[2]};
    rbl_sym3_rotated_diagonal(q, inv, out);
}

/* Velocity of the point p of an object moving at v with spin w about its centre x. */
static void point_velocity(const double v[6], const double x[3], const double p[3], double out[3])
{
    double r[3], wr[3];
    rbl_sub3(p, x, r);
    rbl_cross3(v + 3, r, wr);
    for (int a = 0; a < 3; a++)
        out[a] = v[a] + wr[a];
}

static void tangents(const double n[3], double t1[3], double t2[3])
{
    int axis = fabs(n[0]) < fabs(n[1]) ? (fabs(n[0]) < fabs(n[2]) ? 0 : 2)
                                       : (fabs(n[1]) < fabs(n[2]) ? 1 : 2);
    double e[3] = {0, 0, 0};
    e[axis] = 1;
    rbl_cross3(n, e, t1);
    double len = sqrt(rbl_dot3(t1, t1));
    for (int a = 0; a < 3; a++)
        t1[a] /= len;
    rbl_cross3(n, t1, t2);
}

/* 1 / (1/m + (r x n) . I^-1 (r x n)) of an object at this contact. */
static double effective_mass(double mass, const rbl_sym3 Iinv, const double rn[3])
{
    return 1 / (1 / mass + rbl_sym3_form(Iinv, rn));
}

/* The admissible impulse nearest to P in the regular polygon of `k` vertices at radius rho
 * (vertices at angles 2 pi j / k in the tangent basis). */
static void polygon_project(double P[2], double rho, int k)
{
    if (rho <= 0) {
        P[0] = P[1] = 0;
        return;
    }
    double apothem = rho * cos(M_PI / k), best = INFINITY, out[2] = {P[0], P[1]};
    int inside = 1;
    for (int e = 0; e < k; e++) {
        double mid = 2 * M_PI * (e + 0.5) / k;
        if (P[0] * cos(mid) + P[1] * sin(mid) <= apothem)
            continue;
        inside = 0;
        double a[2] = {rho * cos(2 * M_PI * e / k), rho * sin(2 * M_PI * e / k)};
        double b[2] = {rho * cos(2 * M_PI * (e + 1) / k), rho * sin(2 * M_PI * (e + 1) / k)};
        double d[2] = {b[0] - a[0], b[1] - a[1]};
        double t = ((P[0] - a[0]) * d[0] + (P[1] - a[1]) * d[1]) / (d[0] * d[0] + d[1] * d[1]);
        t = fmin(fmax(t, 0), 1);
        double c[2] = {a[0] + t * d[0], a[1] + t * d[1]};
        double dist = (c[0] - P[0]) * (c[0] - P[0]) + (c[1] - P[1]) * (c[1] - P[1]);
        if (dist < best)
            best = dist, out[0] = c[0], out[1] = c[1];
    }
    if (!inside)
        P[0] = out[0], P[1] = out[1];
}

static void add_scaled(double v[6], const double w[6], double s)
{
    for (int a = 0; a < 6; a++)
        v[a] += s * w[a];
}

static double dot6(const double a[6], const double b[6])
{
    double s = 0;
    for (int k = 0; k < 6; k++)
        s += a[k] * b[k];
    return s;
}

/* M^-1 applied to the generalised direction J = (f, r x f). */
static void apply_inverse_mass(double mass, const rbl_sym3 Iinv, const double J[6], double out[6])
{
    for (int a = 0; a < 3; a++)
        out[a] = J[a] / mass;
    rbl_sym3_apply(Iinv, J + 3, out + 3);
}

static void solve2(const double K[3], const double b[2], double x[2])
{
    double det = K[0] * K[2] - K[1] * K[1];
    x[0] = (K[2] * b[0] - K[1] * b[1]) / det;
    x[1] = (K[0] * b[1] - K[1] * b[0]) / det;
}

/* Set up the rows of object k; returns how many are active. */
static size_t setup_rows(const rbl_fdo_sim *sim, size_t k, row *rows, size_t count)
{
    const double *x = sim->pos + 3 * k, *v = sim->vel_free + 6 * k, *g = sim->p.gravity;
    const double dt = sim->p.dt, e = sim->p.restitution, m = sim->mass[k];
    double bounce_floor = 4 * dt * sqrt(rbl_dot3(g, g));
    rbl_sym3 Iinv;
    world_inverse_inertia(sim->quat + 4 * k, sim->moment + 3 * k, Iinv);
    size_t active = 0;
    for (size_t c = 0; c < count; c++) {
        const rbl_fdo_side *s = sim->side + sim->start[k] + c;
        row *w = rows + c;
        memset(w, 0, sizeof *w);
        double *n = w->Jn, *t1 = w->Jt1, *t2 = w->Jt2, r[3];
        memcpy(n, s->normal, 3 * sizeof *n);
        rbl_sub3(s->point, x, r);
        tangents(n, t1, t2);
        rbl_cross3(r, n, w->Jn + 3), rbl_cross3(r, t1, w->Jt1 + 3), rbl_cross3(r, t2, w->Jt2 + 3);
        apply_inverse_mass(m, Iinv, w->Jn, w->Wn);
        apply_inverse_mass(m, Iinv, w->Jt1, w->Wt1);
        apply_inverse_mass(m, Iinv, w->Jt2, w->Wt2);
        rbl_sym3_apply(Iinv, t1, w->Wr1), rbl_sym3_apply(Iinv, t2, w->Wr2);
        w->k_n = dot6(w->Jn, w->Wn);
        w->Kt[0] = dot6(w->Jt1, w->Wt1), w->Kt[1] = dot6(w->Jt1, w->Wt2);
        w->Kt[2] = dot6(w->Jt2, w->Wt2);
        w->Kr[0] = rbl_dot3(t1, w->Wr1), w->Kr[1] = rbl_dot3(t1, w->Wr2);
        w->Kr[2] = rbl_dot3(t2, w->Wr2);
        /* the two objects at the contact point */
        double vi[3], vj[3] = {0, 0, 0}, wj[3] = {0, 0, 0};
        point_velocity(v, x, s->point, vi);
        double mi = 1 / w->k_n, mj = INFINITY, share = 1;
        if (s->other < RBL_FDO_WALL) {
            size_t o = s->other;
            const double *vo = sim->vel_start + 6 * o;
            point_velocity(vo, sim->pos + 3 * o, s->point, vj);
            memcpy(wj, vo + 3, sizeof wj);
            rbl_sym3 Io;
            world_inverse_inertia(sim->quat + 4 * o, sim->moment + 3 * o, Io);
            double ro[3], ron[3];
            rbl_sub3(s->point, sim->pos + 3 * o, ro);
            rbl_cross3(ro, n, ron);
            mj = effective_mass(sim->mass[o], Io, ron);
            share = mj / (mi + mj);
        }
        double ui = rbl_dot3(n, vi), uj = rbl_dot3(n, vj);
        int collision = uj - ui > bounce_floor;
        double wi_bar = collision && !isinf(mj) ? mi / (mi + mj) : 0, wj_bar = 1 - wi_bar;
        double u_bar = wi_bar * ui + wj_bar * uj; /* eq. 8 */
        double slip_i[2] = {rbl_dot3(t1, vi), rbl_dot3(t2, vi)};
        double slip_j[2] = {rbl_dot3(t1, vj), rbl_dot3(t2, vj)};
        double roll_i[2] = {rbl_dot3(t1, v + 3), rbl_dot3(t2, v + 3)};
        double roll_j[2] = {rbl_dot3(t1, wj), rbl_dot3(t2, wj)};
        for (int a = 0; a < 2; a++) {
            w->slip_bar[a] = wi_bar * slip_i[a] + wj_bar * slip_j[a];
            w->roll_bar[a] = wi_bar * roll_i[a] + wj_bar * roll_j[a];
        }
        /* open contacts the object does not close within the step are dropped */
        double gap = -s->depth;
        if (gap > 0 && ui - u_bar >= -share * gap / dt)
            continue;
        /* a bounce leaves at once (the gap of under one step's travel stays); anything else
         * closes what is left of the gap within the step and no more */
        w->target = collision && e > 0 ? u_bar + e * (u_bar - ui)
                                       : u_bar - share * fmax(gap, 0) / dt;
        if (collision && e > 0 && gap > 0) {
            /* it bounced before it touched: carry it down to the contact and back for the
             * rest of the step, as if it had reversed there (else e = 1 gains energy) */
            w->push_target = -(1 + e) * share * gap / dt;
            w->push_both_ways = 1;
        } else if (s->depth > sim->slop) {
            w->push_target = sim->p.correction * share * (s->depth - sim->slop) / dt;
        }
        w->active = 1;
        active++;
    }
    return active;
}

static double sweep(const rbl_fdo_sim *sim, row *rows, size_t count, double V[6])
{
    const int k = sim->p.tangent_samples;
    double change = 0;
    for (size_t c = 0; c < count; c++) {
        row *w = rows + c;
        if (!w->active)
            continue;
        double old = w->lambda;
        w->lambda = fmax(0, old + (w->target - dot6(w->Jn, V)) / w->k_n);
        add_scaled(V, w->Wn, w->lambda - old);
        change = fmax(change, fabs(w->lambda - old) * w->k_n);
        /* sliding */
        double slip[2], dP[2], P[2];
        slip[0] = dot6(w->Jt1, V) - w->slip_bar[0];
        slip[1] = dot6(w->Jt2, V) - w->slip_bar[1];
        solve2(w->Kt, slip, dP);
        P[0] = w->P[0] - dP[0], P[1] = w->P[1] - dP[1];
        polygon_project(P, sim->p.friction * w->lambda, k);
        add_scaled(V, w->Wt1, P[0] - w->P[0]);
        add_scaled(V, w->Wt2, P[1] - w->P[1]);
        change = fmax(change, fabs(P[0] - w->P[0]) * w->Kt[0] + fabs(P[1] - w->P[1]) * w->Kt[2]);
        w->P[0] = P[0], w->P[1] = P[1];
        /* rolling */
        if (sim->p.rolling > 0) {
            double roll[2] = {rbl_dot3(w->Jt1, V + 3) - w->roll_bar[0],
                              rbl_dot3(w->Jt2, V + 3) - w->roll_bar[1]};
            double dA[2], A[2];
            solve2(w->Kr, roll, dA);
            A[0] = w->A[0] - dA[0], A[1] = w->A[1] - dA[1];
            polygon_project(A, sim->p.rolling * w->lambda, k);
            for (int a = 0; a < 3; a++)
                V[3 + a] += (A[0] - w->A[0]) * w->Wr1[a] + (A[1] - w->A[1]) * w->Wr2[a];
            w->A[0] = A[0], w->A[1] = A[1];
        }
    }
    return change;
}

static double push_sweep(row *rows, size_t count, double V[6])
{
    double change = 0;
    for (size_t c = 0; c < count; c++) {
        row *w = rows + c;
        if (!w->active || w->push_target == 0)
            continue;
        double old = w->push;
        w->push = old + (w->push_target - dot6(w->Jn, V)) / w->k_n;
        if (!w->push_both_ways)
            w->push = fmax(0, w->push);
        add_scaled(V, w->Wn, w->push - old);
        change = fmax(change, fabs(w->push - old) * w->k_n);
    }
    return change;
}

int rbl_fdo_resolve(rbl_fdo_sim *sim, rbl_error *err)
{
    size_t most = 0, active = 0, unconverged = 0;
    int failed = 0;
    for (size_t k = 0; k < sim->n; k++)
        most = most > sim->start[k + 1] - sim->start[k] ? most : sim->start[k + 1] - sim->start[k];
#pragma omp parallel num_threads(sim->threads) reduction(+ : active, unconverged)
    {
        row *rows = malloc((most ? most : 1) * sizeof *rows);
        if (!rows) {
#pragma omp atomic write
            failed = 1;
        }
#pragma omp for schedule(dynamic, 64)
        for (size_t k = 0; k < sim->n; k++) {
            double *V = sim->vel_new + 6 * k, *push = sim->push + 6 * k;
            memcpy(V, sim->vel_free + 6 * k, 6 * sizeof *V);
            memset(push, 0, 6 * sizeof *push);
            size_t count = sim->start[k + 1] - sim->start[k];
            if (!rows || count == 0)
                continue;
            size_t here = setup_rows(sim, k, rows, count);
            active += here;
            if (!here)
                continue;
            double scale = 1e-12 * (sqrt(rbl_dot3(V, V)) + 1e-3);
            int converged = 0;
            for (int it = 0; it < sim->p.iterations && !converged; it++)
                converged = sweep(sim, rows, count, V) <= scale;
            unconverged += !converged;
            for (int it = 0; it < sim->p.iterations; it++)
                if (push_sweep(rows, count, push) <= scale)
                    break;
        }
        free(rows);
    }
    if (failed)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for the %zu contacts of one object",
                             most);
    sim->stats.active = active;
    sim->stats.unconverged = unconverged;
    return RBL_OK;
}
