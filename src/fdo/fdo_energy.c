/* fdo_energy.c — the energy-tracking cap of the restitution phase (seed ref. [16], SPEC FO3).
 * A step with bounces is solved twice: a compression phase (every contact at most closes) and a
 * restitution phase (the bouncing contacts leave at e times their approach). Converged, the
 * compression phase never gains energy; the restitution phase alone can, where friction and
 * several contacts couple (Kane's paradox, a cradle of touching balls). So in each cluster of
 * objects joined by acting contacts, the energy after restitution may exceed the
 * energy after compression by at most e^2 times what compression took from the energy before
 * the step, as one contact's bounce returns (energies the step ends with: kinetic, plus the
 * potential energy the step's motion gains in the field); a cluster over it gets the blend v_c + f (v_r - v_c) with the largest f in [0, 1]
 * that meets it (momentum is kept: both ends of the blend keep it). */
#include "fdo_internal.h"
#include "../base/rotation.h"

#include <string.h>

static size_t root(size_t *parent, size_t k)
{
    while (parent[k] != k)
        k = parent[k] = parent[parent[k]];
    return k;
}

/* a . I b for spins a, b in space of object k (I its inertia tensor in space). */
static double spin_product(const rbl_fdo_sim *sim, size_t k, const double a[3], const double b[3])
{
    double ab[3], bb[3];
    rbl_quat_rotate_back(sim->quat + 4 * k, a, ab);
    rbl_quat_rotate_back(sim->quat + 4 * k, b, bb);
    const double *I = sim->moment + 3 * k;
    return I[0] * ab[0] * bb[0] + I[1] * ab[1] * bb[1] + I[2] * ab[2] * bb[2];
}

/* The kinetic energy form of object k: (a, M b) for generalised velocities a, b. */
static double energy_product(const rbl_fdo_sim *sim, size_t k, const double a[6],
                             const double b[6])
{
    return sim->mass[k] * rbl_dot3(a, b) + spin_product(sim, k, a + 3, b + 3);
}

size_t rbl_fdo_cap_restitution(rbl_fdo_sim *sim, int *failed)
{
    size_t n = sim->n;
    enum { FREE, COMPRESSED, B, C, SUMS };
    if (!rbl_grow_array((void **)&sim->cluster, &sim->cap_cluster, n + 1, sizeof *sim->cluster) ||
        !rbl_grow_array((void **)&sim->cluster_sums, &sim->cap_cluster_sums, SUMS * n + 1,
                        sizeof *sim->cluster_sums)) {
        *failed = 1;
        return 0;
    }
    size_t *parent = sim->cluster;
    double *sums = sim->cluster_sums;
    for (size_t k = 0; k < n; k++)
        parent[k] = k;
    for (size_t k = 0; k < n; k++)
        for (size_t c = sim->start[k]; c < sim->start[k + 1]; c++) {
            const rbl_fdo_row *w = sim->rows + c;
            if (!w->active || w->other >= RBL_FDO_WALL)
                continue;
            size_t a = root(parent, k), b = root(parent, w->other);
            if (a != b)
                parent[a > b ? a : b] = a < b ? a : b;
        }
    memset(sums, 0, SUMS * n * sizeof *sums);
    for (size_t k = 0; k < n; k++) {
        const double *vc = sim->vel_compressed + 6 * k, *vr = sim->vel_new + 6 * k;
        double d[6], vf[6]; /* vf: before this step's gravity (a bounce acts at the step's
                               start, gravity after: what it may return is what it met) */
        for (int a = 0; a < 6; a++)
            d[a] = vr[a] - vc[a];
        memcpy(vf, sim->vel + 3 * k, 3 * sizeof *vf);
        memcpy(vf + 3, sim->vel_free + 6 * k + 3, 3 * sizeof *vf);
        /* the energy the step ends with at velocity v, less the potential energy it started
         * with: v M v / 2 - m g . v dt (the step moves the object by v dt in the field) */
        const double fall = sim->mass[k] * sim->p.dt;
        double *s = sums + SUMS * root(parent, k);
        s[FREE] += 0.5 * energy_product(sim, k, vf, vf);
        s[COMPRESSED] += 0.5 * energy_product(sim, k, vc, vc) - fall * rbl_dot3(sim->p.gravity, vc);
        s[B] += energy_product(sim, k, vc, d) - fall * rbl_dot3(sim->p.gravity, d);
        s[C] += 0.5 * energy_product(sim, k, d, d);
    }
    /* the share f of the restitution phase each cluster keeps: E(f) = Ec + f B + f^2 C */
    const double e2 = sim->p.restitution * sim->p.restitution;
    size_t capped = 0;
    for (size_t k = 0; k < n; k++) {
        if (parent[k] != k)
            continue;
        double *s = sums + SUMS * k;
        double allowed = s[COMPRESSED] + e2 * fmax(s[FREE] - s[COMPRESSED], 0);
        double restituted = s[COMPRESSED] + s[B] + s[C], rounding = 1e-14 * s[FREE];
        s[FREE] = 1; /* from here: the share kept */
        if (restituted <= allowed + rounding || !(s[C] > 0))
            continue;
        double room = allowed - s[COMPRESSED];
        double f = (-s[B] + sqrt(fmax(s[B] * s[B] + 4 * s[C] * fmax(room, 0), 0))) / (2 * s[C]);
        s[FREE] = fmin(fmax(f, 0), 1);
        capped++;
    }
    if (!capped)
        return 0;
    for (size_t k = 0; k < n; k++) {
        double f = sums[SUMS * root(parent, k) + FREE];
        if (f == 1)
            continue;
        double *vr = sim->vel_new + 6 * k;
        const double *vc = sim->vel_compressed + 6 * k;
        for (int a = 0; a < 6; a++)
            vr[a] = vc[a] + f * (vr[a] - vc[a]);
    }
    return capped;
}
