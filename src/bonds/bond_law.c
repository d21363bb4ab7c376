/* bond_law.c — one parallel bond's loads (Potyondy & Cundall 2004 §2.2, eqs. 6-12): the
 * normal force from the length, shear force, twist and bending moment by increments turned
 * with the bond, dashpots, stresses against strengths (breakage), and the energy booked.
 * SI units; loads are on the first grain a, n points from a to b (docs/bonds.md). */
#include "bonds_internal.h"
#include "../dem/contact_kernel.h"

#include <math.h>

static double dot(const double *x, const double *y)
{
    return x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
}


/* v turned about the unit axis u by the angle whose sine and cosine are s and c (Rodrigues). */
static void turn(double *v, const double *u, double s, double c)
{
    double uxv[3], w[3];
    rbl_cross(u, v, uxv);
    const double uv = dot(u, v) * (1.0 - c);
    for (int a = 0; a < 3; a++)
        w[a] = v[a] * c + uxv[a] * s + u[a] * uv;
    v[0] = w[0], v[1] = w[1], v[2] = w[2];
}

/* The stored loads turned with the bond: from the last direction m to n, then about n by the
 * angle phi (the pair's mean spin along n over the step); a rigid turn then loads nothing. */
static void follow(rbl_bond *b, const double *n, double phi)
{
    double axis[3];
    rbl_cross(b->n, n, axis);
    const double s = sqrt(dot(axis, axis)), c = dot(b->n, n);
    double *v[] = {b->fs, b->mt, b->mb};
    if (s > 1e-300)
        for (int k = 0; k < 3; k++) {
            double u[3] = {axis[0] / s, axis[1] / s, axis[2] / s};
            turn(v[k], u, s, c);
        }
    if (phi != 0.0)
        for (int k = 0; k < 3; k++)
            turn(v[k], n, sin(phi), cos(phi));
    /* what the turns left of the wrong part (round-off), out */
    const double ts = dot(b->fs, n), tb = dot(b->mb, n), tt = dot(b->mt, n);
    for (int a = 0; a < 3; a++) {
        b->fs[a] -= ts * n[a], b->mb[a] -= tb * n[a];
        b->mt[a] = tt * n[a];
    }
}

double rbl_bond_energy(const rbl_bond *b)
{
    if (!b->intact)
        return 0.0;
    return 0.5 * (b->fn * b->fn / b->kn + dot(b->fs, b->fs) / b->ks + dot(b->mt, b->mt) / b->kt +
                  dot(b->mb, b->mb) / b->kb);
}

void rbl_bond_law(const rbl_sim *sim, rbl_bond *b, int advance)
{
    const rbl_grains *g = &sim->g;
    const int sync = sim->cfg.integrator == RBL_INTEGRATOR_SYNCHRONIZED;
    const double *vel = sync ? g->vel_eval : g->vel, *om = sync ? g->omega_eval : g->omega;
    const size_t i = b->i, j = b->j;
    const double dt = sim->cfg.dt;
    b->loss_damping = b->loss_break = 0.0;
    if (!b->intact)
        return;
    double d[3];
    const double dist = rbl_bond_separation(sim, i, j, d);
    for (int a = 0; a < 3; a++)
        b->x[a] = g->pos[3 * i + a];
    const double n[3] = {d[0] / dist, d[1] / dist, d[2] / dist};
    const double ri = g->radius[i], rj = g->radius[j];
    const double *vi = vel + 3 * i, *vj = vel + 3 * j, *wi = om + 3 * i, *wj = om + 3 * j;
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
    double armi[3] = {li * h[0], li * h[1], li * h[2]};
    double armj[3] = {-lj * h[0], -lj * h[1], -lj * h[2]};
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
    /* the last loads (turned with the bond), kept for the energy booked over this step */
    const double fn_was = b->fn;
    double fs_was[3], mt_was[3], mb_was[3], fd_was[3], md_was[3];
    if (advance) {
        follow(b, n, 0.5 * (dot(wi, n) + dot(wj, n)) * dt);
        for (int a = 0; a < 3; a++) {
            fs_was[a] = b->fs[a], mt_was[a] = b->mt[a], mb_was[a] = b->mb[a];
            fd_was[a] = b->fd[a], md_was[a] = b->md[a];
            b->fs[a] += b->ks * vs[a] * dt;
            b->mt[a] += b->kt * wn * n[a] * dt;
            b->mb[a] += b->kb * wb[a] * dt;
        }
    }
    const double fn = b->kn * (dist - b->d0);
    /* P&C eq. 12, tension positive */
    const double area = M_PI * b->radius * b->radius;
    const double inertia = 0.25 * area * b->radius * b->radius, polar = 2.0 * inertia;
    const double sigma = fn / area + sqrt(dot(b->mb, b->mb)) * b->radius / inertia;
    const double tau = sqrt(dot(b->fs, b->fs)) / area + sqrt(dot(b->mt, b->mt)) * b->radius / polar;
    if (advance) {
        /* the work the last loads do over the step's relative motion, half of which a kick
           gives whether or not the bond holds on (docs/bonds.md "Energy") */
        const double springs = fn_was * (dist - b->dist) + dt * (dot(fs_was, vs) +
                               dot(mt_was, n) * wn + dot(mb_was, wb));
        const double dash = dt * (dot(fd_was, vc) + dot(md_was, w));
        if (sigma > b->sigma_c || tau > b->tau_c) { /* it breaks: it held E at the last */
            b->loss_break = b->energy + 0.5 * springs;
            b->loss_damping = 0.5 * dash;
            b->intact = 0;
            b->mode = sigma > b->sigma_c ? 1 : 2;
            b->broke_step = sim->step + 1;
            b->sigma = sigma, b->tau = tau, b->fn = fn;
            b->energy = 0.0, b->dist = dist;
            b->n[0] = n[0], b->n[1] = n[1], b->n[2] = n[2];
            for (int a = 0; a < 3; a++)
                b->f[a] = b->ti[a] = b->tj[a] = 0.0;
            return;
        }
    }
    for (int a = 0; a < 3 && advance; a++) { /* the dashpots, beside each spring (a first
                                                  evaluation keeps the last step's) */
        b->fd[a] = b->cn * vn * n[a] + b->cs * vs[a];
        b->md[a] = b->ct * wn * n[a] + b->cb * wb[a];
    }
    if (advance)
        b->loss_damping = 0.5 * dt * (dot(fd_was, vc) + dot(md_was, w) + dot(b->fd, vc) +
                                      dot(b->md, w));
    b->fn = fn, b->sigma = sigma, b->tau = tau, b->dist = dist;
    b->n[0] = n[0], b->n[1] = n[1], b->n[2] = n[2];
    double m[3], c[3];
    for (int a = 0; a < 3; a++) {
        b->f[a] = fn * n[a] + b->fs[a] + b->fd[a];
        m[a] = b->mt[a] + b->mb[a] + b->md[a];
    }
    rbl_cross(n, b->f, c); /* the force acts at the contact point: arms ai n from a, -aj n from b */
    const double ai = dist * ri / (ri + rj), aj = dist - ai;
    for (int a = 0; a < 3; a++) {
        b->ti[a] = ai * c[a] + m[a];
        b->tj[a] = aj * c[a] - m[a];
    }
    b->energy = rbl_bond_energy(b);
}
