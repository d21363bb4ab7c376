/* fdo_resolve.c — contact resolution (seed 003 eqs. 5-9, SPEC FO3): each contact's rows (one on
 * each of its objects' sides, computed alike: the same bits), the passes by the scene's solver
 * (Gauss-Seidel over coloured contacts, fdo_gauss_seidel.c, or the seed's Jacobi passes,
 * fdo_jacobi.c), the residual of their answer, and what the step keeps for the next. The seed's
 * single pass, every object against the others' velocities at the start of the step, lets a
 * heap gain energy (two objects both bounce off each other's old velocity): the passes are
 * repeated until no contact changes by more than the tolerance. A step with bounces is solved
 * twice: a compression phase (contacts at most close) and a restitution phase (bouncing
 * contacts leave at e times their approach: for a single contact seed eq. 8's mass-weighted
 * mean at maximal compression, plus e times the approach relative to it), held per cluster to
 * the energy it may return (fdo_energy.c).
 *
 * A contact between objects big > small has the normal n pointing into big; the impulse
 * lambda >= 0 moves big by M^-1 [n; r x n] lambda and small by the opposite, through one
 * point: momentum and angular momentum are kept. For each contact:
 *  - dropped when still open and not closed within the step (seed: satisfied constraints are
 *    dropped early), unless it pushed in the last step; taken back in when the others' answer
 *    closes it (take_in);
 *  - a collision (approach faster than gravity brings in four steps) leaves at e times the
 *    approach before gravity, where the step finds it; anything else closes what is left of
 *    the gap within the step and no more;
 *  - friction: the impulse in the tangent plane that stops the slip, projected on the polygon
 *    of `tangent_samples` uniformly sampled directions with radius mu lambda: of the admissible
 *    impulses the nearest, the one that dissipates most; rolling friction alike with angular
 *    impulses bounded by `rolling` lambda. Each polygon is tied to its contact, not to the
 *    world: a vertex points against the slip (against the rolling spin), so a sliding contact
 *    takes the whole mu lambda against its slip in any direction, and a scene turned any way
 *    moves the same, turned (contact_frame); drilling friction the same about the normal, an
 *    angular impulse bounded by (3 pi / 16) mu a lambda for a patch of radius a (issue 70:
 *    without it a one-point rest is unstable in yaw).
 * Impulses are warm-started from the previous step's, matched by the partner's index, so that
 * a resting heap is solved in a few passes. A second, normal-only solve gives a pseudo-velocity
 * that removes a share of each overlap beyond the slop; it moves the objects but is not kept as
 * velocity, and the orbital angular momentum it moves is given back through the spins. */
#include "fdo_internal.h"

#include <stdlib.h>
#include <string.h>

static void world_inverse_inertia(const double q[4], const double moment[3], rbl_sym3 out)
{
    double inv[3] = {1 / moment[0], 1 / moment[1], 1 / moment[2]};
    rbl_sym3_rotated_diagonal(q, inv, out);
}

/* The generalised direction [s d; s (r x d)] with r = p - x. */
static void direction(const double d[3], const double p[3], const double x[3], double s,
                      double J[6])
{
    double r[3], rd[3];
    rbl_sub3(p, x, r);
    rbl_cross3(r, d, rd);
    for (int a = 0; a < 3; a++)
        J[a] = s * d[a], J[3 + a] = s * rd[a];
}

static double dot6(const double a[6], const double b[6])
{
    double s = 0;
    for (int k = 0; k < 6; k++)
        s += a[k] * b[k];
    return s;
}

static void add_scaled(double v[6], const double w[6], double s)
{
    for (int a = 0; a < 6; a++)
        v[a] += s * w[a];
}

/* M^-1 applied to a generalised direction. */
static void apply_inverse_mass(double mass, const rbl_sym3 Iinv, const double J[6], double out[6])
{
    for (int a = 0; a < 3; a++)
        out[a] = J[a] / mass;
    rbl_sym3_apply(Iinv, J + 3, out + 3);
}

/* The 2x2 symmetric J M^-1 J^T of two tangential directions (xx, xy, yy). */
static void gram2(const double *a, const double *b, const double *Wa, const double *Wb, int len,
                  double out[3])
{
    double s[3] = {0, 0, 0};
    for (int k = 0; k < len; k++)
        s[0] += a[k] * Wa[k], s[1] += a[k] * Wb[k], s[2] += b[k] * Wb[k];
    memcpy(out, s, sizeof s);
}

static void solve2(const double K[3], const double b[2], double x[2])
{
    double det = K[0] * K[2] - K[1] * K[1];
    x[0] = (K[2] * b[0] - K[1] * b[1]) / det;
    x[1] = (K[0] * b[1] - K[1] * b[0]) / det;
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


/* The previous step's record of object k's contact with `other`, or NULL. */
static const rbl_fdo_memory *remembered(const rbl_fdo_sim *sim, size_t k, uint32_t other)
{
    if (k >= sim->memory_objects)
        return NULL;
    for (size_t m = sim->memory_start[k]; m < sim->memory_start[k + 1]; m++)
        if (sim->memory[m].other == other)
            return sim->memory + m;
    return NULL;
}

/* A unit tangent e (with f = n x e) along the tangential part of -v, where that part is
 * more than `floor`; else of -fallback's (when not NULL); else any. Whether a direction was
 * found is returned. */
static int tangent_against(const double n[3], const double v[3], double floor,
                           const double *fallback, double e[3], double f[3])
{
    for (int pick = 0; pick < 2; pick++) {
        const double *d = pick ? fallback : v;
        if (!d)
            continue;
        double dn = rbl_dot3(d, n), t[3] = {dn * n[0] - d[0], dn * n[1] - d[1], dn * n[2] - d[2]};
        double len = sqrt(rbl_dot3(t, t));
        if (!(len > (pick ? 0 : floor)))
            continue;
        for (int a = 0; a < 3; a++)
            e[a] = t[a] / len;
        rbl_cross3(n, e, f);
        return 1;
    }
    rbl_fdo_tangents(n, e, f);
    return 0;
}

/* The contact's tangent frames, the same bits on both of its sides: t1 against the slip of big
 * over small at the contact (both objects' velocities after gravity), else against last step's
 * friction impulse on big; r1 likewise against the rolling spin. A frame tied to the contact
 * keeps friction isotropic: the polygon's vertex lies where the most friction is wanted. */
static void contact_frame(const rbl_fdo_sim *sim, size_t k, const rbl_fdo_side *s,
                          rbl_fdo_row *w)
{
    const int wall = rbl_fdo_is_wall(s->other);
    const size_t big = w->sign > 0 ? k : s->other, small = w->sign > 0 ? s->other : k;
    double slip[3], spin[3], scale = 0;
    for (int a = 0; a < 3; a++)
        slip[a] = spin[a] = 0;
    const size_t who[2] = {big, small};
    for (int j = 0; j < 2; j++) {
        if (j == 1 && wall)
            break;
        const double *V = sim->vel_free + 6 * who[j], *x = sim->pos + 3 * who[j];
        double r[3], wr[3];
        rbl_sub3(s->point, x, r);
        rbl_cross3(V + 3, r, wr);
        for (int a = 0; a < 3; a++) {
            slip[a] += (j ? -1 : 1) * (V[a] + wr[a]);
            spin[a] += (j ? -1 : 1) * V[3 + a];
        }
        scale = fmax(scale, sqrt(rbl_dot3(V, V)) + sqrt(rbl_dot3(V + 3, V + 3)) * sim->bound[who[j]]);
    }
    /* last step's impulses on big (a small side's record holds the same vectors) */
    const rbl_fdo_memory *h = w->memory = remembered(sim, k, s->other);
    double friction[3], rolling[3];
    for (int a = 0; a < 3; a++)
        friction[a] = h ? -h->friction[a] : 0, rolling[a] = h ? -h->rolling[a] : 0;
    const double floor = 1e-12 * scale + 1e-300;
    tangent_against(w->n, slip, floor, h ? friction : NULL, w->t1, w->t2);
    const double bound = wall ? sim->bound[big] : fmin(sim->bound[big], sim->bound[small]);
    if (!tangent_against(w->n, spin, floor / bound, h ? rolling : NULL, w->r1, w->r2))
        memcpy(w->r1, w->t1, sizeof w->r1), memcpy(w->r2, w->t2, sizeof w->r2);
}

/* The relative velocity along a direction pair: own J . V_own + other's J . V_other (the sum
 * of the same two products on both sides of the contact, so the same bits). */
static double relative(const double *J, const double *O, const double *V, const double *Vo)
{
    return Vo ? dot6(J, V) + dot6(O, Vo) : dot6(J, V);
}

/* The velocity a bounce leaves at, from its approach u (after this step's gravity): e times
 * the approach before gravity, reversed, and then what gravity adds along the contact in the
 * step, as if it bounced at the start of the step and fell after. Reversing gravity's share
 * too would give a ball on a floor 2 m g |v| dt each bounce. */
static double bounce_target(const rbl_fdo_row *w, const double g[3], double dt, double e,
                            double u)
{
    double fall = dt * (rbl_dot3(w->Jn, g) + (rbl_fdo_is_wall(w->other) ? 0 : rbl_dot3(w->On, g)));
    return -e * (u - fall) + fall;
}

/* The drilling moment's bound per unit normal impulse of object k's contact with `other`:
 * a Hertzian patch of radius a sliding in twist resists with (3 pi / 16) mu a times the normal
 * force (Lubkin 1951; Johnson, Contact Mechanics, 1985, §7.4; docs/fdo.md). a is the scene's, or
 * RBL_FDO_PATCH of the shortest semi-axis of the pair (of the object, against a wall). */
static double drilling_bound(const rbl_fdo_sim *sim, size_t k, uint32_t other)
{
    double a = sim->p.patch_radius;
    if (!(a > 0)) {
        const double *s = sim->semi + 3 * k;
        double shortest = fmin(s[0], fmin(s[1], s[2]));
        if (!rbl_fdo_is_wall(other)) {
            const double *o = sim->semi + 3 * (size_t)other;
            shortest = fmin(shortest, fmin(o[0], fmin(o[1], o[2])));
        }
        a = RBL_FDO_PATCH * shortest;
    }
    return 3 * M_PI / 16 * sim->p.friction * a;
}

/* Phase one of a row: geometry, directions, the pre-contact approach, its target; whether it
 * is active. Everything here is symmetric in the two objects. */
static void setup_row(const rbl_fdo_sim *sim, size_t k, const rbl_fdo_side *s, rbl_fdo_row *w)
{
    const double dt = sim->p.dt, e = sim->p.restitution, *g = sim->p.gravity;
    double bounce_floor = 4 * dt * sqrt(rbl_dot3(g, g));
    memset(w, 0, sizeof *w);
    w->other = s->other;
    w->owner = k;
    int wall = rbl_fdo_is_wall(s->other);
    w->sign = wall || k > s->other ? 1 : -1;
    for (int a = 0; a < 3; a++)
        w->n[a] = w->sign * s->normal[a];
    contact_frame(sim, k, s, w);
    w->drill = drilling_bound(sim, k, s->other);
    const double *x = sim->pos + 3 * k;
    direction(w->n, s->point, x, w->sign, w->Jn);
    direction(w->t1, s->point, x, w->sign, w->Jt1);
    direction(w->t2, s->point, x, w->sign, w->Jt2);
    rbl_sym3 Iinv;
    world_inverse_inertia(sim->quat + 4 * k, sim->moment + 3 * k, Iinv);
    apply_inverse_mass(sim->mass[k], Iinv, w->Jn, w->Wn);
    apply_inverse_mass(sim->mass[k], Iinv, w->Jt1, w->Wt1);
    apply_inverse_mass(sim->mass[k], Iinv, w->Jt2, w->Wt2);
    rbl_sym3_apply(Iinv, w->r1, w->Wr1), rbl_sym3_apply(Iinv, w->r2, w->Wr2);
    rbl_sym3_apply(Iinv, w->n, w->Wd);
    w->own_n = dot6(w->Jn, w->Wn);
    w->own_d = rbl_dot3(w->n, w->Wd);
    gram2(w->Jt1, w->Jt2, w->Wt1, w->Wt2, 6, w->own_t);
    gram2(w->r1, w->r2, w->Wr1, w->Wr2, 3, w->own_r);
    const double *Vo = NULL;
    if (!wall) {
        size_t o = s->other;
        const double *xo = sim->pos + 3 * o;
        direction(w->n, s->point, xo, -w->sign, w->On);
        direction(w->t1, s->point, xo, -w->sign, w->Ot1);
        direction(w->t2, s->point, xo, -w->sign, w->Ot2);
        rbl_sym3 Io;
        world_inverse_inertia(sim->quat + 4 * o, sim->moment + 3 * o, Io);
        apply_inverse_mass(sim->mass[o], Io, w->On, w->OWn);
        apply_inverse_mass(sim->mass[o], Io, w->Ot1, w->OWt1);
        apply_inverse_mass(sim->mass[o], Io, w->Ot2, w->OWt2);
        rbl_sym3_apply(Io, w->r1, w->OWr1), rbl_sym3_apply(Io, w->r2, w->OWr2);
        rbl_sym3_apply(Io, w->n, w->OWd);
        w->oth_n = dot6(w->On, w->OWn);
        w->oth_d = rbl_dot3(w->n, w->OWd);
        gram2(w->Ot1, w->Ot2, w->OWt1, w->OWt2, 6, w->oth_t);
        gram2(w->r1, w->r2, w->OWr1, w->OWr2, 3, w->oth_r);
        Vo = sim->vel_free + 6 * o;
    }
    /* the approach before the contacts act: both objects' velocities after gravity */
    double u = relative(w->Jn, w->On, sim->vel_free + 6 * k, Vo);
    /* what the turning of both objects may close beyond the linear approach within the step:
     * a point at r from a centre turning at w moves off its tangent line by at most
     * |w|^2 |r| dt^2 (its acceleration twice over, for the way the contact point slides) */
    double reach = 0;
    const size_t who[2] = {k, s->other};
    for (int j = 0; j < 2 && (j == 0 || !wall); j++) {
        const double *w_j = sim->vel_free + 6 * who[j] + 3;
        reach += rbl_dot3(w_j, w_j) * sim->bound[who[j]] * dt * dt;
    }
    double gap = -s->depth - reach;
    const int open = gap > 0 && u * dt >= -gap;
    if (open && !(w->memory && w->memory->lambda > 0)) {
        w->gap = gap; /* open, and not closed within the step: left out unless the other
                         contacts close it (take_in) */
        return;
    }
    /* one that pushed last step is kept even when open (a heap's contacts breathe by the
     * slop): it closes at most its gap, and pushes only if the others press it */
    w->bounce = !open && -u > bounce_floor && e > 0;
    w->target = -fmax(gap, 0) / dt;
    w->bounce_target = bounce_target(w, g, dt, e, u);
    /* a bounce acts where the step finds the pair, up to a step's travel before they touch:
     * its impulse, equal and opposite at one point, keeps the linear and the angular momentum,
     * and with e = 1 the kinetic energy (a push to where they would have touched would move
     * the objects off the line of their velocities and change the angular momentum) */
    if (s->depth > sim->slop) {
        w->push_target = sim->p.correction * (s->depth - sim->slop) / dt;
    }
    w->active = 1;
}

/* Contacts left out as open that the velocities V (the contacts' so far) now close within
 * the step, taken in as contacts that close no more than their gap: left out, the objects would
 * end the step overlapping, and the push out of an overlap moves them off their velocities'
 * line. Both sides of a contact decide alike. Returns how many sides were taken in; their
 * objects' masses are split anew by the caller. */
static size_t take_in(rbl_fdo_sim *sim, const double *V, int restitution)
{
    const double dt = sim->p.dt, e = sim->p.restitution;
    const double bounce_floor = 4 * dt * sqrt(rbl_dot3(sim->p.gravity, sim->p.gravity));
    size_t taken = 0;
#pragma omp parallel for schedule(dynamic, 64) num_threads(sim->threads) reduction(+ : taken)
    for (size_t k = 0; k < sim->n; k++)
        for (size_t c = sim->start[k]; c < sim->start[k + 1]; c++) {
            rbl_fdo_row *w = sim->rows + c;
            if (w->active || !(w->gap > 0))
                continue;
            const double *Vo = rbl_fdo_is_wall(w->other) ? NULL : V + 6 * w->other;
            double u = relative(w->Jn, w->On, V + 6 * k, Vo);
            if (u * dt >= -w->gap)
                continue;
            w->bounce = -u > bounce_floor && e > 0;
            w->bounce_target = bounce_target(w, sim->p.gravity, dt, e, u);
            w->target = restitution && w->bounce ? w->bounce_target : -w->gap / dt;
            w->active = 1;
            taken++;
        }
    return taken;
}

/* The previous step's impulses of this contact, if it had one: the warm start. */
static void warm_start(const rbl_fdo_sim *sim, rbl_fdo_row *w)
{
    const rbl_fdo_memory *h = w->memory; /* found by contact_frame */
    if (!h)
        return;
    w->lambda = h->lambda;
    w->P[0] = rbl_dot3(h->friction, w->t1), w->P[1] = rbl_dot3(h->friction, w->t2);
    w->A[0] = rbl_dot3(h->rolling, w->r1), w->A[1] = rbl_dot3(h->rolling, w->r2);
    polygon_project(w->P, sim->p.friction * w->lambda, sim->p.tangent_samples);
    polygon_project(w->A, sim->p.rolling * w->lambda, sim->p.tangent_samples);
    w->D = fmin(fmax(rbl_dot3(h->rolling, w->n), -w->drill * w->lambda), w->drill * w->lambda);
}

/* Phase two: the effective masses (under Jacobi mass-split: each object's mass shared among
 * its active contacts) and the warm start applied to the object's velocity. */
static void split_masses(const rbl_fdo_sim *sim, size_t k, const size_t *count)
{
    const int jacobi = sim->p.solver == RBL_FDO_JACOBI;
    for (size_t c = sim->start[k]; c < sim->start[k + 1]; c++) {
        rbl_fdo_row *w = sim->rows + c;
        if (!w->active)
            continue;
        double own = jacobi ? (double)count[k] : 1, oth = rbl_fdo_is_wall(w->other) ? 0
                                                     : jacobi ? (double)count[w->other] : 1;
        w->k_n = own * w->own_n + oth * w->oth_n;
        for (int a = 0; a < 3; a++) {
            w->Kt[a] = own * w->own_t[a] + oth * w->oth_t[a];
            w->Kr[a] = own * w->own_r[a] + oth * w->oth_r[a];
        }
        w->Kd = own * w->own_d + oth * w->oth_d;
    }
}

static void finish_rows(const rbl_fdo_sim *sim, size_t k, const size_t *count)
{
    double *V = sim->vel_new + 6 * k;
    memcpy(V, sim->vel_free + 6 * k, 6 * sizeof *V);
    split_masses(sim, k, count);
    for (size_t c = sim->start[k]; c < sim->start[k + 1]; c++) {
        rbl_fdo_row *w = sim->rows + c;
        if (!w->active)
            continue;
        warm_start(sim, w);
        add_scaled(V, w->Wn, w->lambda);
        add_scaled(V, w->Wt1, w->P[0]), add_scaled(V, w->Wt2, w->P[1]);
        for (int a = 0; a < 3; a++)
            V[3 + a] += w->sign * (w->A[0] * w->Wr1[a] + w->A[1] * w->Wr2[a] + w->D * w->Wd[a]);
    }
}

/* One contact's update from the velocities Vk (its object's) and Vo (its partner's, NULL for a
 * wall): the normal impulse that brings the approach to its target, then the friction and
 * rolling impulses that stop the slip and the roll, each projected on what is admissible; the
 * changes added to Nk (when not NULL) and kept in w. Returns the largest change of the
 * contact's relative velocity it makes: zero exactly when the contact is solved (the natural
 * residual of its complementarity conditions, m/s). */
double rbl_fdo_contact_update(const rbl_fdo_sim *sim, rbl_fdo_row *w, const double *Vk,
                              const double *Vo, double *Nk, double *No)
{
    const int samples = sim->p.tangent_samples;
    double old = w->lambda, change;
    double u = relative(w->Jn, w->On, Vk, Vo);
    w->lambda = fmax(0, old + (w->target - u) / w->k_n);
    if (Nk)
        add_scaled(Nk, w->Wn, w->lambda - old);
    if (No)
        add_scaled(No, w->OWn, w->lambda - old);
    change = fabs(w->lambda - old) * w->k_n;
    /* sliding */
    double slip[2] = {relative(w->Jt1, w->Ot1, Vk, Vo), relative(w->Jt2, w->Ot2, Vk, Vo)};
    double dP[2], P[2];
    solve2(w->Kt, slip, dP);
    P[0] = w->P[0] - dP[0], P[1] = w->P[1] - dP[1];
    polygon_project(P, sim->p.friction * w->lambda, samples);
    if (Nk) {
        add_scaled(Nk, w->Wt1, P[0] - w->P[0]);
        add_scaled(Nk, w->Wt2, P[1] - w->P[1]);
    }
    if (No) {
        add_scaled(No, w->OWt1, P[0] - w->P[0]);
        add_scaled(No, w->OWt2, P[1] - w->P[1]);
    }
    change = fmax(change, fabs(P[0] - w->P[0]) * w->Kt[0] + fabs(P[1] - w->P[1]) * w->Kt[2]);
    w->P[0] = P[0], w->P[1] = P[1];
    if (sim->p.rolling > 0) {
        /* rolling: the relative spin about the tangents, big's less small's */
        double roll[2], dA[2], A[2];
        double mine[2] = {rbl_dot3(w->r1, Vk + 3), rbl_dot3(w->r2, Vk + 3)};
        double theirs[2] = {Vo ? rbl_dot3(w->r1, Vo + 3) : 0, Vo ? rbl_dot3(w->r2, Vo + 3) : 0};
        for (int a = 0; a < 2; a++)
            roll[a] = w->sign > 0 ? mine[a] - theirs[a] : theirs[a] - mine[a];
        solve2(w->Kr, roll, dA);
        A[0] = w->A[0] - dA[0], A[1] = w->A[1] - dA[1];
        polygon_project(A, sim->p.rolling * w->lambda, samples);
        for (int a = 0; a < 3; a++) {
            if (Nk)
                Nk[3 + a] +=
                    w->sign * ((A[0] - w->A[0]) * w->Wr1[a] + (A[1] - w->A[1]) * w->Wr2[a]);
            if (No)
                No[3 + a] -=
                    w->sign * ((A[0] - w->A[0]) * w->OWr1[a] + (A[1] - w->A[1]) * w->OWr2[a]);
        }
        change = fmax(change, fabs(A[0] - w->A[0]) * w->Kr[0] + fabs(A[1] - w->A[1]) * w->Kr[2]);
        w->A[0] = A[0], w->A[1] = A[1];
    }
    if (w->drill > 0) {
        /* drilling: the relative spin about the normal, big's less small's, stopped by an
         * angular impulse about n within +-drill lambda (a one-dimensional projection: exact,
         * and never more than stops the spin, so it only takes energy) */
        double mine = rbl_dot3(w->n, Vk + 3), theirs = Vo ? rbl_dot3(w->n, Vo + 3) : 0;
        double spin = w->sign > 0 ? mine - theirs : theirs - mine, bound = w->drill * w->lambda;
        double D = fmin(fmax(w->D - spin / w->Kd, -bound), bound), dD = D - w->D;
        for (int a = 0; a < 3; a++) {
            if (Nk)
                Nk[3 + a] += w->sign * dD * w->Wd[a];
            if (No)
                No[3 + a] -= w->sign * dD * w->OWd[a];
        }
        change = fmax(change, fabs(dD) * w->Kd);
        w->D = D;
    }
    return change;
}

/* How far the velocities V are from solving the contacts, m/s: of each active contact, what
 * one more update would change (its natural residual; a pass skips no contact here) and how
 * much faster than its target it closes (the constraint's violation), the largest of each. */
static void measure_residual(const rbl_fdo_sim *sim, const double *V, double *residual,
                             double *violation)
{
    double r = 0, v = 0;
#pragma omp parallel for schedule(dynamic, 64) num_threads(sim->threads) reduction(max : r, v)
    for (size_t k = 0; k < sim->n; k++)
        for (size_t c = sim->start[k]; c < sim->start[k + 1]; c++) {
            rbl_fdo_row *w = sim->rows + c;
            if (!w->active)
                continue;
            const double *Vo = rbl_fdo_is_wall(w->other) ? NULL : V + 6 * w->other;
            v = fmax(v, w->target - relative(w->Jn, w->On, V + 6 * k, Vo));
            /* the update tried and undone: only its impulses change */
            const double lambda = w->lambda, P[2] = {w->P[0], w->P[1]}, A[2] = {w->A[0], w->A[1]};
            const double D = w->D;
            r = fmax(r, rbl_fdo_contact_update(sim, w, V + 6 * k, Vo, NULL, NULL));
            w->lambda = lambda, w->P[0] = P[0], w->P[1] = P[1], w->A[0] = A[0], w->A[1] = A[1];
            w->D = D;
        }
    *residual = r, *violation = v;
}

double rbl_fdo_push_update(rbl_fdo_row *w, const double *Vk, const double *Vo, double *Nk,
                           double *No)
{
    double old = w->push;
    w->push = fmax(0, old + (w->push_target - relative(w->Jn, w->On, Vk, Vo)) / w->k_n);
    if (Nk)
        add_scaled(Nk, w->Wn, w->push - old);
    if (No)
        add_scaled(No, w->OWn, w->push - old);
    return fabs(w->push - old) * w->k_n;
}

/* What the push does to the angular momentum, given back through the spins. The push moves
 * a pair apart without changing their velocities, which changes their orbital angular
 * momentum by pi n x (v_big - v_small) dt for the push impulse pi. A push is a pair of equal
 * and opposite impulses through the contact point p, moving the objects for the step, then
 * undone by the opposite pair through the point p' where the step leaves the contact: each
 * pair keeps the angular momentum, and the two together change the spins by
 * pi (d_big - (p' - p)) x n and pi ((p' - p) - d_small) x n for the objects' displacements d
 * over the step. With p' - p the mean of d_big and d_small, each spin gains
 * pi (d_big - d_small) x n / 2: the orbital change taken back, to round-off. Nothing moves
 * apart with the same velocity (a resting heap), nothing changes. Walls take angular momentum
 * anyway and are left out. */
static void push_angular_momentum(rbl_fdo_sim *sim, size_t k)
{
    const double dt = sim->p.dt;
    double gain[3] = {0, 0, 0};
    for (size_t c = sim->start[k]; c < sim->start[k + 1]; c++) {
        const rbl_fdo_row *w = sim->rows + c;
        if (!w->active || w->push == 0 || rbl_fdo_is_wall(w->other))
            continue;
        const size_t big = w->sign > 0 ? k : w->other, small = w->sign > 0 ? w->other : k;
        const double *vb = sim->vel_new + 6 * big, *pb = sim->push + 6 * big;
        const double *vs = sim->vel_new + 6 * small, *ps = sim->push + 6 * small;
        double d[3], dn[3];
        for (int a = 0; a < 3; a++)
            d[a] = dt * ((vb[a] + pb[a]) - (vs[a] + ps[a]));
        rbl_cross3(d, w->n, dn);
        for (int a = 0; a < 3; a++)
            gain[a] += 0.5 * w->push * dn[a];
    }
    for (int a = 0; a < 3; a++)
        sim->spin_gain[3 * k + a] = gain[a];
}

/* The passes of `which` (0: velocities, 1: push) by the scene's solver, until no contact
 * changes by more than `tolerance` or `budget` passes are made; *result ends as the buffer
 * holding the answer (Jacobi alternates between two). Returns the passes made. */
static int iterate(rbl_fdo_sim *sim, int which, double tolerance, int budget, double **result,
                   int *converged)
{
    if (sim->p.solver == RBL_FDO_JACOBI)
        return rbl_fdo_jacobi(sim, which, tolerance, budget, result, converged);
    return rbl_fdo_gauss_seidel(sim, which, tolerance, budget, *result, converged);
}

/* The impulses of this step kept for the next one, by object. */
static int remember(rbl_fdo_sim *sim, rbl_error *err)
{
    if (!rbl_grow_array((void **)&sim->memory, &sim->cap_memory, sim->n_sides + 1,
                        sizeof *sim->memory) ||
        !rbl_grow_array((void **)&sim->memory_start, &sim->cap_memory_start, sim->n + 1,
                        sizeof *sim->memory_start))
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu contacts' impulses",
                             sim->n_sides);
    size_t m = 0;
    for (size_t k = 0; k < sim->n; k++) {
        sim->memory_start[k] = m;
        for (size_t c = sim->start[k]; c < sim->start[k + 1]; c++) {
            const rbl_fdo_row *w = sim->rows + c;
            if (!w->active || w->lambda == 0)
                continue;
            rbl_fdo_memory *h = sim->memory + m++;
            h->other = w->other;
            h->lambda = w->lambda;
            memcpy(h->normal, w->n, sizeof h->normal);
            for (int a = 0; a < 3; a++) {
                h->friction[a] = w->P[0] * w->t1[a] + w->P[1] * w->t2[a];
                h->rolling[a] = w->A[0] * w->r1[a] + w->A[1] * w->r2[a] + w->D * w->n[a];
            }
        }
    }
    sim->memory_start[sim->n] = m;
    sim->memory_objects = sim->n;
    return RBL_OK;
}

/* After contacts were taken in: each object's active contacts counted, the masses split anew
 * and (Gauss-Seidel) the contacts coloured anew; 0 when out of memory. */
/* Rounds that move apart what the push left beyond the bound (fdo_end_depth.c) */
#define END_DEPTH_ROUNDS 4

static int spread_anew(rbl_fdo_sim *sim)
{
    size_t *count = sim->active_count;
#pragma omp parallel for schedule(static) num_threads(sim->threads)
    for (size_t k = 0; k < sim->n; k++) {
        count[k] = 0;
        for (size_t c = sim->start[k]; c < sim->start[k + 1]; c++)
            count[k] += (size_t)sim->rows[c].active;
    }
#pragma omp parallel for schedule(dynamic, 64) num_threads(sim->threads)
    for (size_t k = 0; k < sim->n; k++)
        split_masses(sim, k, count);
    return sim->p.solver == RBL_FDO_JACOBI || rbl_fdo_color(sim);
}

/* The velocity passes, then the open contacts their answer closes taken in and the passes
 * repeated, a few rounds at most, all within the phase's budget of `iterations` passes (what
 * is still closed after them is left to the push). The residual of the answer is recorded. */
static int solve_taking_in(rbl_fdo_sim *sim, double tolerance, int restitution,
                           int *converged)
{
    int budget = sim->p.iterations;
    for (int round = 0;; round++) {
        int passes = iterate(sim, 0, tolerance, budget, &sim->vel_new, converged);
        sim->stats.passes += (size_t)passes;
        budget -= passes;
        size_t taken = round < 4 && budget > 0 ? take_in(sim, sim->vel_new, restitution) : 0;
        if (!taken) {
            double r, v;
            measure_residual(sim, sim->vel_new, &r, &v);
            sim->stats.residual = fmax(sim->stats.residual, r);
            sim->stats.violation = fmax(sim->stats.violation, v);
            return 1;
        }
        sim->stats.taken_in += taken;
        if (!spread_anew(sim))
            return 0;
    }
}

int rbl_fdo_resolve(rbl_fdo_sim *sim, rbl_error *err)
{
    size_t n = sim->n;
    if (!rbl_grow_array((void **)&sim->rows, &sim->cap_rows, sim->n_sides + 1, sizeof *sim->rows) ||
        !rbl_grow_array((void **)&sim->active_count, &sim->cap_active_count, n + 1,
                        sizeof *sim->active_count) ||
        !rbl_grow_array((void **)&sim->settled, &sim->cap_settled, 2 * n + 1, 1))
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu contacts", sim->n_sides);
    size_t *count = sim->active_count, active = 0, bounces = 0;
    double deepest = 0;
#pragma omp parallel for schedule(dynamic, 64) num_threads(sim->threads) \
    reduction(+ : active, bounces) reduction(max : deepest)
    for (size_t k = 0; k < n; k++) {
        count[k] = 0;
        for (size_t c = sim->start[k]; c < sim->start[k + 1]; c++) {
            deepest = fmax(deepest, sim->side[c].depth);
            setup_row(sim, k, sim->side + c, sim->rows + c);
            count[k] += (size_t)sim->rows[c].active;
            /* each contact once: on the side of its bigger object, or a plane's */
            active += sim->rows[c].active && sim->rows[c].sign > 0;
            bounces += sim->rows[c].active && sim->rows[c].bounce;
        }
    }
#pragma omp parallel for schedule(dynamic, 64) num_threads(sim->threads)
    for (size_t k = 0; k < n; k++) {
        finish_rows(sim, k, count);
        for (size_t c = sim->start[k]; c < sim->start[k + 1]; c++) { /* each row's twin */
            rbl_fdo_row *w = sim->rows + c;
            if (!rbl_fdo_is_wall(w->other))
                for (size_t t = sim->start[w->other]; t < sim->start[w->other + 1]; t++)
                    if (sim->side[t].other == k)
                        w->twin = t;
        }
    }
    if (sim->p.solver != RBL_FDO_JACOBI && !rbl_fdo_color(sim))
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu contacts", sim->n_sides);
    double fastest = 0;
    for (size_t k = 0; k < 6 * n; k++)
        fastest = fmax(fastest, fabs(sim->vel_free[k]));
    /* converged: no contact's velocity changes by more than 1e-4 of what gravity adds in a
     * step (1e-9 of the fastest speed without gravity) */
    double tolerance = sim->p.tolerance > 0 ? sim->p.tolerance
                                            : 1e-4 * sqrt(rbl_dot3(sim->p.gravity, sim->p.gravity)) *
                                                      sim->p.dt +
                                                  1e-9 * fastest + 1e-15;
    int converged;
    sim->stats.passes = 0;
    sim->stats.taken_in = 0;
    sim->stats.residual = sim->stats.violation = 0;
    sim->stats.tolerance = tolerance;
    if (!solve_taking_in(sim, tolerance, 0, &converged))
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu contacts", sim->n_sides);
    sim->stats.capped = 0;
    if (sim->stats.taken_in)
        for (size_t c = 0; c < sim->n_sides && !bounces; c++)
            bounces += sim->rows[c].active && sim->rows[c].bounce;
    if (bounces) {
        /* restitution: the bouncing contacts now ask to leave at e times their approach */
        memcpy(sim->vel_compressed, sim->vel_new, 6 * n * sizeof *sim->vel_new);
        for (size_t c = 0; c < sim->n_sides; c++)
            if (sim->rows[c].active && sim->rows[c].bounce)
                sim->rows[c].target = sim->rows[c].bounce_target;
        int again;
        if (!solve_taking_in(sim, tolerance, 1, &again))
            return rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu contacts", sim->n_sides);
        converged = converged && again;
        int failed = 0;
        sim->stats.capped = rbl_fdo_cap_restitution(sim, &failed);
        if (failed)
            return rbl_error_set(err, RBL_ENOMEM, "out of memory for the clusters of %zu objects",
                                 n);
    }
    /* the depths the step would end with, turning included: the push takes what is beyond
     * the bound, and takes in the contacts the passes left out that would end so; then, with
     * the push's own turn, which the energy hold partly undoes, what is left is moved apart */
    size_t late = rbl_fdo_hold_end_depths(sim, sim->vel_new);
    if (late) {
        sim->stats.taken_in += late;
        if (!spread_anew(sim))
            return rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu contacts", sim->n_sides);
    }
    memset(sim->push, 0, 6 * n * sizeof *sim->push);
    iterate(sim, 1, tolerance, sim->p.iterations, &sim->push, NULL);
    for (int round = 0;; round++) {
#pragma omp parallel for schedule(dynamic, 64) num_threads(sim->threads)
        for (size_t k = 0; k < n; k++)
            push_angular_momentum(sim, k);
        if (round == END_DEPTH_ROUNDS ||
            !rbl_fdo_project_end_depths(sim, sim->vel_new, sim->push, &sim->stats.taken_in))
            break;
    }
    sim->stats.active = active;
    sim->stats.largest_overlap = deepest;
    sim->stats.unconverged = !converged;
    return remember(sim, err);
}
