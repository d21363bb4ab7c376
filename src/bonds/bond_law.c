/* bond_law.c — one parallel bond's loads (Potyondy & Cundall 2004 §2.2, eqs. 6-12): the
 * normal force from the length, shear force, twist and bending moment by increments turned
 * with the bond, dashpots, stresses against strengths (breakage), and the energy booked.
 * SI units; loads are on the first grain a, n points from a to b (docs/bonds.md). */
#include "bonds_internal.h"
#include "../dem/contact_kernel.h"

#include <math.h>

static inline double dot(const double *x, const double *y)
{
    return x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
}

/* v turned about the unit axis u by the angle whose sine and cosine are s and c (Rodrigues). */
static inline void turn(double *v, const double *u, double s, double c)
{
    double uxv[3], w[3];
    rbl_cross(u, v, uxv);
    const double uv = dot(u, v) * (1.0 - c);
    for (int a = 0; a < 3; a++)
        w[a] = v[a] * c + uxv[a] * s + u[a] * uv;
    v[0] = w[0], v[1] = w[1], v[2] = w[2];
}

/* The sine and cosine of a turn of phi rad: below 2^-27 rad the correctly rounded values are
 * phi and 1 exactly (phi^2/6 and phi^2/2 are under half an ulp), so no call is made; a bond at
 * rest or turning slowly (a step's turn of 1e-8 rad is 5e-3 rad/s at dt = 2e-6 s) takes this. */
static inline void sin_cos(double phi, double *s, double *c)
{
    if (fabs(phi) < 0x1p-27) {
        *s = phi, *c = 1.0;
        return;
    }
    *s = sin(phi), *c = cos(phi);
}

/* The stored loads (v: shear force, twist, bending) turned with the bond: from the last
 * direction m to n, then about n by the angle phi (the pair's mean spin along n over the
 * step); a rigid turn then loads nothing. */
static inline void follow(const double *m, const double *n, double phi, double v[3][3])
{
    double axis[3];
    rbl_cross(m, n, axis);
    const double s = sqrt(dot(axis, axis)), c = dot(m, n);
    if (s > 1e-300) {
        const double u[3] = {axis[0] / s, axis[1] / s, axis[2] / s};
        for (int k = 0; k < 3; k++)
            turn(v[k], u, s, c);
    }
    if (phi != 0.0) {
        double sp, cp;
        sin_cos(phi, &sp, &cp);
        for (int k = 0; k < 3; k++)
            turn(v[k], n, sp, cp);
    }
    /* what the turns left of the wrong part (round-off), out */
    const double ts = dot(v[0], n), tb = dot(v[2], n), tt = dot(v[1], n);
    for (int a = 0; a < 3; a++) {
        v[0][a] -= ts * n[a], v[2][a] -= tb * n[a];
        v[1][a] = tt * n[a];
    }
}

double rbl_bond_energy(const rbl_bond *b)
{
    if (!b->intact)
        return 0.0;
    return 0.5 * (b->fn * b->fn / b->kn + dot(b->fs, b->fs) / b->ks + dot(b->mt, b->mt) / b->kt +
                  dot(b->mb, b->mb) / b->kb);
}

/* The law reads the bond's record into locals and writes it back once: the record and the
 * grains' arrays are all doubles, so writes through b would make the compiler load every
 * grain's value again after each. */
int rbl_bond_law(const rbl_sim *sim, rbl_bond *b, int advance)
{
    const rbl_grains *g = &sim->g;
    const int sync = sim->cfg.integrator == RBL_INTEGRATOR_SYNCHRONIZED;
    const double *vel = sync ? g->vel_eval : g->vel, *om = sync ? g->omega_eval : g->omega;
    const size_t i = b->i, j = b->j;
    const double dt = sim->cfg.dt;
    b->loss_damping = b->loss_break = 0.0;
    if (!b->intact)
        return 0;
    double d[3];
    const double dist = rbl_bond_separation(sim, i, j, d);
    const double xa[3] = {g->pos[3 * i], g->pos[3 * i + 1], g->pos[3 * i + 2]};
    const double n[3] = {d[0] / dist, d[1] / dist, d[2] / dist};
    const double ri = g->radius[i], rj = g->radius[j];
    const double vi[3] = {vel[3 * i], vel[3 * i + 1], vel[3 * i + 2]};
    const double vj[3] = {vel[3 * j], vel[3 * j + 1], vel[3 * j + 2]};
    const double wi[3] = {om[3 * i], om[3 * i + 1], om[3 * i + 2]};
    const double wj[3] = {om[3 * j], om[3 * j + 1], om[3 * j + 2]};
    /* The relative motion is read where the velocities are: at the half step under the
     * mid-step integrator (the bond's axis there, d - (v_j - v_i) dt / 2), at the step under
     * the synchronized one. Read with the step's own axis, a rigid turn at W made a shear
     * velocity of order W^2 |d| dt that the increments summed step after step: a bonded
     * rubble pile spun at 0.5 w_c loaded its bonds by 0.05 of their strength every 300 s,
     * without end (docs/bonds.md "Determinism"). */
    double h[3] = {n[0], n[1], n[2]}, reach = dist;
    if (!sync) {
        for (int a = 0; a < 3; a++)
            h[a] = d[a] - 0.5 * dt * (vj[a] - vi[a]);
        reach = sqrt(dot(h, h));
        for (int a = 0; a < 3; a++)
            h[a] /= reach;
    }
    const double li = reach * ri / (ri + rj), lj = reach - li;
    /* the relative velocity of b's side of the contact point, and the relative spin */
    const double armi[3] = {li * h[0], li * h[1], li * h[2]};
    const double armj[3] = {-lj * h[0], -lj * h[1], -lj * h[2]};
    double si[3], sj[3], vc[3], w[3];
    rbl_cross(wi, armi, si);
    rbl_cross(wj, armj, sj);
    for (int a = 0; a < 3; a++)
        vc[a] = vj[a] + sj[a] - vi[a] - si[a], w[a] = wj[a] - wi[a];
    /* split along the half step's axis, the shear and bending parts then laid in the plane
     * across the step's axis n, where the loads are kept */
    const double vn = dot(vc, h), wn = dot(w, h);
    double vs[3], wb[3];
    for (int a = 0; a < 3; a++)
        vs[a] = vc[a] - vn * h[a], wb[a] = w[a] - wn * h[a];
    const double vsn = dot(vs, n), wbn = dot(wb, n);
    for (int a = 0; a < 3; a++)
        vs[a] -= vsn * n[a], wb[a] -= wbn * n[a];
    /* the stored loads: shear force, twist, bending (v[0..2]), the dashpots' */
    double v[3][3], fd[3], md[3];
    for (int a = 0; a < 3; a++) {
        v[0][a] = b->fs[a], v[1][a] = b->mt[a], v[2][a] = b->mb[a];
        fd[a] = b->fd[a], md[a] = b->md[a];
    }
    const double kn = b->kn, radius = b->radius, dist_was = b->dist;
    /* the last loads (turned with the bond), kept for the energy booked over this step */
    const double fn_was = b->fn;
    double fs_was[3], mt_was[3], mb_was[3];
    if (advance) {
        const double m[3] = {b->n[0], b->n[1], b->n[2]};
        follow(m, n, 0.5 * (dot(wi, n) + dot(wj, n)) * dt, v);
        const double ks = b->ks, kt = b->kt, kb = b->kb;
        for (int a = 0; a < 3; a++) {
            fs_was[a] = v[0][a], mt_was[a] = v[1][a], mb_was[a] = v[2][a];
            v[0][a] += ks * vs[a] * dt;
            v[1][a] += kt * wn * n[a] * dt;
            v[2][a] += kb * wb[a] * dt;
        }
    }
    const double *fs = v[0], *mt = v[1], *mb = v[2];
    const double fn = kn * (dist - b->d0);
    /* P&C eq. 12, tension positive */
    const double area = M_PI * radius * radius;
    const double inertia = 0.25 * area * radius * radius, polar = 2.0 * inertia;
    const double sigma = fn / area + sqrt(dot(mb, mb)) * radius / inertia;
    const double tau = sqrt(dot(fs, fs)) / area + sqrt(dot(mt, mt)) * radius / polar;
    double loss_damping = 0.0;
    if (advance) {
        /* the work the last loads do over the step's relative motion, half of which a kick
           gives whether or not the bond holds on (docs/bonds.md "Energy") */
        const double springs = fn_was * (dist - dist_was) + dt * (dot(fs_was, vs) +
                               dot(mt_was, n) * wn + dot(mb_was, wb));
        const double dash = dt * (dot(fd, vc) + dot(md, w));
        if (sigma > b->sigma_c || tau > b->tau_c) { /* it breaks: it held E at the last */
            b->loss_break = b->energy + 0.5 * springs;
            b->loss_damping = 0.5 * dash;
            b->intact = 0;
            b->mode = sigma > b->sigma_c ? 1 : 2;
            b->broke_step = sim->step + 1;
            b->sigma = sigma, b->tau = tau, b->fn = fn;
            b->energy = 0.0, b->dist = dist;
            for (int a = 0; a < 3; a++) {
                b->x[a] = xa[a], b->n[a] = n[a];
                b->fs[a] = fs[a], b->mt[a] = mt[a], b->mb[a] = mb[a];
                b->f[a] = b->ti[a] = b->tj[a] = 0.0;
            }
            return 1;
        }
        /* the dashpots, beside each spring (a first evaluation keeps the last step's) */
        const double cn = b->cn, cs = b->cs, ct = b->ct, cb = b->cb;
        double fd_now[3], md_now[3];
        for (int a = 0; a < 3; a++) {
            fd_now[a] = cn * vn * n[a] + cs * vs[a];
            md_now[a] = ct * wn * n[a] + cb * wb[a];
        }
        loss_damping = 0.5 * dt * (dot(fd, vc) + dot(md, w) + dot(fd_now, vc) + dot(md_now, w));
        for (int a = 0; a < 3; a++)
            fd[a] = fd_now[a], md[a] = md_now[a];
    }
    double f[3], m[3], c[3];
    for (int a = 0; a < 3; a++) {
        f[a] = fn * n[a] + fs[a] + fd[a];
        m[a] = mt[a] + mb[a] + md[a];
    }
    rbl_cross(n, f, c); /* the force acts at the contact point: arms ai n from a, -aj n from b */
    const double ai = dist * ri / (ri + rj), aj = dist - ai;
    b->loss_damping = loss_damping;
    b->fn = fn, b->sigma = sigma, b->tau = tau, b->dist = dist;
    for (int a = 0; a < 3; a++) {
        b->x[a] = xa[a], b->n[a] = n[a];
        b->fs[a] = fs[a], b->mt[a] = mt[a], b->mb[a] = mb[a];
        b->fd[a] = fd[a], b->md[a] = md[a];
        b->f[a] = f[a];
        b->ti[a] = ai * c[a] + m[a];
        b->tj[a] = aj * c[a] - m[a];
    }
    b->energy = rbl_bond_energy(b);
    return 0;
}
