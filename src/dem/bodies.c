/* bodies.c — clumps as rigid bodies (seed 001, SPEC KL6). A clump's spheres are grains that
 * follow their body: each step their contact forces and torques are summed at the centre of
 * mass, the body takes the engine's velocity Verlet half kicks and drift for translation and
 * for its angular momentum L (space frame), and its orientation q turns by the symmetric
 * splitting of the free rotation into exact rotations about the principal axes,
 * R1(dt/2) R2(dt/2) R3(dt) R2(dt/2) R1(dt/2) (Dullweber, Leimkuhler, McLachlan, J. Chem. Phys.
 * 107, 5840, 1997): torque-free, L is conserved exactly and the energy error stays bounded.
 * Then each member is placed at x = X + R(q) b with v = V + w x (x - X) and spin w. */
#include "dem_internal.h"
#include "../base/rotation.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void rbl_bodies_refresh_arms(rbl_bodies *b)
{
    for (size_t k = 0; k < b->n; k++) {
        double R[3][3];
        rbl_quat_matrix(b->quat + 4 * k, R);
        for (size_t s = b->start[k]; s < b->start[k + 1]; s++)
            rbl_mat_apply(R, b->offset + 3 * s, b->arm + 3 * s);
    }
}

/* Body k's mass shared among its spheres by volume, r^3 / sum r^3: a sphere's own mass, which
 * its frame fields, coarse-graining, flow counters and self-gravity read (the spheres' masses
 * sum to the body's). Contacts and the time step use the body's mass (rbl_contact_mass,
 * rbl_grain_contact_mass), as LIGGGHTS's multisphere does. */
static double member_mass(double body_mass, double r, double sum_r3)
{
    return body_mass * (r * r * r / sum_r3);
}

static void share_mass(const rbl_bodies *b, rbl_grains *g, size_t k)
{
    double sum = 0.0;
    for (size_t s = b->start[k]; s < b->start[k + 1]; s++) {
        const double r = g->radius[b->member_index[s]];
        sum += r * r * r;
    }
    for (size_t s = b->start[k]; s < b->start[k + 1]; s++) {
        const size_t i = b->member_index[s];
        g->mass[i] = member_mass(b->mass[k], g->radius[i], sum);
    }
}

void rbl_bodies_member_masses(const rbl_bodies *b, rbl_grains *g)
{
    for (size_t k = 0; k < b->n; k++)
        share_mass(b, g, k);
}

/* ---- storage ---- */

static int grow(void **p, size_t count, size_t size)
{
    void *q = realloc(*p, count * size);
    if (!q)
        return 0;
    *p = q;
    return 1;
}

int rbl_bodies_reserve(rbl_bodies *b, size_t n, size_t members)
{
    int ok = 1;
    if (n > b->cap) {
        size_t want = b->cap ? 2 * b->cap : 64;
        while (want < n)
            want *= 2;
        ok = ok && grow((void **)&b->pos, 3 * want, sizeof(double));
        ok = ok && grow((void **)&b->vel, 3 * want, sizeof(double));
        ok = ok && grow((void **)&b->angmom, 3 * want, sizeof(double));
        ok = ok && grow((void **)&b->quat, 4 * want, sizeof(double));
        ok = ok && grow((void **)&b->moment, 3 * want, sizeof(double));
        ok = ok && grow((void **)&b->mass, want, sizeof(double));
        ok = ok && grow((void **)&b->force, 3 * want, sizeof(double));
        ok = ok && grow((void **)&b->torque, 3 * want, sizeof(double));
        ok = ok && grow((void **)&b->material, want, sizeof(int32_t));
        ok = ok && grow((void **)&b->start, want + 1, sizeof(size_t));
        if (ok)
            b->cap = want;
    }
    if (ok && members > b->members_cap) {
        size_t want = b->members_cap ? 2 * b->members_cap : 1024;
        while (want < members)
            want *= 2;
        ok = ok && grow((void **)&b->member_id, want, sizeof(uint32_t));
        ok = ok && grow((void **)&b->member_index, want, sizeof(uint32_t));
        ok = ok && grow((void **)&b->offset, 3 * want, sizeof(double));
        ok = ok && grow((void **)&b->arm, 3 * want, sizeof(double));
        if (ok)
            b->members_cap = want;
    }
    if (ok && b->n == 0)
        b->start[0] = 0;
    return ok;
}

void rbl_bodies_free(rbl_bodies *b)
{
    free(b->pos), free(b->vel), free(b->angmom), free(b->quat), free(b->moment);
    free(b->mass), free(b->force), free(b->torque), free(b->material), free(b->start);
    free(b->member_id), free(b->member_index), free(b->offset), free(b->arm);
    memset(b, 0, sizeof *b);
}

/* x into the box along periodic axes; the change of -g . x (per unit mass) it makes. */
static double wrap_periodic(const rbl_sim *sim, double x[3])
{
    double de = 0.0;
    for (int a = 0; a < 3; a++)
        if (sim->cfg.periodic[a]) {
            double L = sim->box[a], lo = sim->cfg.lo[a], was = x[a];
            if (x[a] < lo || x[a] >= sim->cfg.hi[a])
                x[a] -= L * floor((x[a] - lo) / L);
            if (x[a] >= sim->cfg.hi[a])
                x[a] = lo;
            de -= sim->cfg.gravity[a] * (x[a] - was);
        }
    return de;
}

int rbl_sim_add_clump(rbl_sim *sim, const rbl_clump_body *cb, uint32_t *index, rbl_error *err)
{
    const rbl_clump *c = cb->clump;
    const rbl_mass_properties *p = cb->props;
    if (!c || c->n == 0 || !p)
        return rbl_error_set(err, RBL_EINVAL, "clump: no spheres");
    if (cb->material < 0 || cb->material >= sim->n_materials)
        return rbl_error_set(err, RBL_EINVAL, "clump: no material %d (%d defined)", cb->material,
                             sim->n_materials);
    if (!(p->volume > 0 && p->mass > 0) || !(p->principal[0] > 0 && p->principal[1] > 0 &&
                                             p->principal[2] > 0))
        return rbl_error_set(err, RBL_EINVAL, "clump: volume, mass and principal moments must "
                             "be positive");
    double qn = 0;
    for (int a = 0; a < 4; a++)
        qn += cb->quat[a] * cb->quat[a];
    if (!(qn > 0) || !isfinite(qn))
        return rbl_error_set(err, RBL_EINVAL, "clump: the orientation quaternion is zero or not "
                             "finite");
    for (int a = 0; a < 3; a++)
        if (!isfinite(cb->pos[a]) || !isfinite(cb->vel[a]) || !isfinite(cb->omega[a]))
            return rbl_error_set(err, RBL_EINVAL, "clump: position and velocities must be finite");
    rbl_bodies *b = &sim->bodies;
    if (b->n >= INT32_MAX - 1)
        return rbl_error_set(err, RBL_ETOOBIG, "too many clumps");
    if (!rbl_bodies_reserve(b, b->n + 1, b->members + c->n))
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for clump %zu", b->n + 1);
    size_t k = b->n;
    double scale = sim->materials[cb->material].density * p->volume / p->mass;
    double *q = b->quat + 4 * k;
    for (int a = 0; a < 4; a++)
        q[a] = cb->quat[a] / sqrt(qn);
    b->mass[k] = p->mass * scale;
    b->material[k] = cb->material;
    for (int a = 0; a < 3; a++) {
        b->pos[3 * k + a] = cb->pos[a];
        b->vel[3 * k + a] = cb->vel[a];
        b->moment[3 * k + a] = p->principal[a] * scale;
        b->torque[3 * k + a] = 0;
    }
    /* its weight: its force until the next evaluation, as a grain's (rbl_sim_append_grain) */
    for (int a = 0; a < 3; a++)
        b->force[3 * k + a] = b->mass[k] * sim->cfg.gravity[a];
    /* L = R I R^T w */
    double wb[3];
    rbl_quat_rotate_back(q, cb->omega, wb);
    for (int a = 0; a < 3; a++)
        wb[a] *= b->moment[3 * k + a];
    rbl_quat_rotate(q, wb, b->angmom + 3 * k);
    size_t first_grain = sim->g.n;
    double R[3][3], sum_r3 = 0.0;
    rbl_quat_matrix(q, R);
    for (size_t m = 0; m < c->n; m++) /* in slot order, as share_mass sums */
        sum_r3 += c->sphere[4 * m + 3] * c->sphere[4 * m + 3] * c->sphere[4 * m + 3];
    for (size_t m = 0; m < c->n; m++) {
        const double *s = c->sphere + 4 * m;
        size_t slot = b->members + m;
        rbl_grain gr = {.radius = s[3], .material = cb->material};
        double r[3];
        rbl_mat_apply(R, s, r);
        for (int a = 0; a < 3; a++)
            gr.pos[a] = cb->pos[a] + r[a], gr.omega[a] = cb->omega[a];
        gr.vel[0] = cb->vel[0] + cb->omega[1] * r[2] - cb->omega[2] * r[1];
        gr.vel[1] = cb->vel[1] + cb->omega[2] * r[0] - cb->omega[0] * r[2];
        gr.vel[2] = cb->vel[2] + cb->omega[0] * r[1] - cb->omega[1] * r[0];
        wrap_periodic(sim, gr.pos);
        uint32_t id;
        int rc = rbl_sim_append_grain(sim, &gr, member_mass(b->mass[k], s[3], sum_r3),
                                      (int32_t)k, (uint32_t)slot, &id, err);
        if (rc != RBL_OK) { /* undo the members added so far */
            sim->g.n = first_grain;
            return rc;
        }
        b->member_id[slot] = id;
        b->member_index[slot] = (uint32_t)(sim->g.n - 1);
        memcpy(b->offset + 3 * slot, s, 3 * sizeof *s);
        memcpy(b->arm + 3 * slot, r, sizeof r);
    }
    b->members += c->n;
    b->start[k + 1] = b->members;
    b->n++;
    rbl_account_in(sim, RBL_IN_ADDED, rbl_body_energy(sim, k));
    /* it holds its weight's kick term from now (issue 70; the grain's case in sim.c) */
    if (sim->set_up || sim->step != 0)
        rbl_account_in(sim, RBL_IN_ADDED,
                       -rbl_kick_term(sim->cfg.dt, b->mass[k], 1.0, b->force + 3 * k, NULL));
    if (index)
        *index = (uint32_t)k;
    return RBL_OK;
}

void rbl_sim_bodies(const rbl_sim *sim, rbl_bodies_view *v)
{
    const rbl_bodies *b = &sim->bodies;
    v->n = b->n;
    v->pos = b->pos, v->vel = b->vel, v->angmom = b->angmom, v->quat = b->quat;
    v->moment = b->moment, v->mass = b->mass;
}

int rbl_bodies_keep(rbl_sim *sim, const uint32_t *order, size_t count, rbl_error *err)
{
    rbl_bodies *b = &sim->bodies, nb;
    rbl_grains *g = &sim->g;
    memset(&nb, 0, sizeof nb);
    size_t members = 0;
    for (size_t k = 0; k < count; k++)
        members += b->start[order[k] + 1] - b->start[order[k]];
    int32_t *renum = malloc((b->n ? b->n : 1) * sizeof *renum);
    uint32_t *reslot = malloc((b->members ? b->members : 1) * sizeof *reslot);
    if (!renum || !reslot || !rbl_bodies_reserve(&nb, count + 1, members + 1)) {
        free(renum), free(reslot), rbl_bodies_free(&nb);
        return rbl_error_set(err, RBL_ENOMEM, "out of memory reordering %zu clumps", b->n);
    }
    for (size_t k = 0; k < b->n; k++)
        renum[k] = -1;
    size_t ns = 0;
    for (size_t k = 0; k < count; k++) {
        size_t o = order[k];
        renum[o] = (int32_t)k;
        memcpy(nb.pos + 3 * k, b->pos + 3 * o, 3 * sizeof(double));
        memcpy(nb.vel + 3 * k, b->vel + 3 * o, 3 * sizeof(double));
        memcpy(nb.angmom + 3 * k, b->angmom + 3 * o, 3 * sizeof(double));
        memcpy(nb.quat + 4 * k, b->quat + 4 * o, 4 * sizeof(double));
        memcpy(nb.moment + 3 * k, b->moment + 3 * o, 3 * sizeof(double));
        memcpy(nb.force + 3 * k, b->force + 3 * o, 3 * sizeof(double));
        memcpy(nb.torque + 3 * k, b->torque + 3 * o, 3 * sizeof(double));
        nb.mass[k] = b->mass[o];
        nb.material[k] = b->material[o];
        nb.start[k] = ns;
        for (size_t s = b->start[o]; s < b->start[o + 1]; s++, ns++) {
            reslot[s] = (uint32_t)ns;
            nb.member_id[ns] = b->member_id[s];
            nb.member_index[ns] = b->member_index[s];
            memcpy(nb.offset + 3 * ns, b->offset + 3 * s, 3 * sizeof(double));
            memcpy(nb.arm + 3 * ns, b->arm + 3 * s, 3 * sizeof(double));
        }
    }
    nb.start[count] = ns;
    nb.n = count;
    nb.members = ns;
    for (size_t k = 0; k < g->n; k++)
        if (g->body[k] >= 0) {
            int32_t to = renum[g->body[k]];
            g->slot[k] = to >= 0 ? reslot[g->slot[k]] : 0;
            g->body[k] = to;
        }
    free(renum), free(reslot);
    rbl_bodies_free(b);
    *b = nb;
    return RBL_OK;
}

void rbl_bodies_reindex(rbl_sim *sim)
{
    const rbl_grains *g = &sim->g;
    for (size_t k = 0; k < g->n; k++)
        if (g->body[k] >= 0)
            sim->bodies.member_index[g->slot[k]] = (uint32_t)k;
}

int rbl_bodies_drop(rbl_sim *sim, uint8_t *gone_grain, rbl_error *err)
{
    rbl_bodies *b = &sim->bodies;
    rbl_grains *g = &sim->g;
    if (b->n == 0)
        return RBL_OK;
    uint8_t *gone = calloc(b->n, 1);
    uint32_t *keep = malloc(b->n * sizeof *keep);
    if (!gone || !keep) {
        free(gone), free(keep);
        return rbl_error_set(err, RBL_ENOMEM, "out of memory removing lost clumps");
    }
    size_t lost = 0, kept = 0;
    for (size_t k = 0; k < g->n; k++)
        if (gone_grain[k] && g->body[k] >= 0 && !gone[g->body[k]])
            gone[g->body[k]] = 1, lost++;
    int rc = RBL_OK;
    if (lost) {
        for (size_t k = 0; k < b->n; k++) /* what they carry out */
            if (gone[k] && isfinite(rbl_body_energy(sim, k)))
                rbl_account_in(sim, RBL_IN_REMOVED, -rbl_body_energy(sim, k));
        for (size_t k = 0; k < g->n; k++)
            if (g->body[k] >= 0 && gone[g->body[k]])
                gone_grain[k] = 1;
        for (size_t k = 0; k < b->n; k++)
            if (!gone[k])
                keep[kept++] = (uint32_t)k;
        rc = rbl_bodies_keep(sim, keep, kept, err);
    }
    free(gone), free(keep);
    return rc;
}

size_t rbl_body_record_doubles(const rbl_bodies *b, size_t k)
{
    return RBL_BODY_DOUBLES + RBL_BODY_MEMBER_DOUBLES * (b->start[k + 1] - b->start[k]);
}

void rbl_body_put(const rbl_bodies *b, size_t k, double *o)
{
    memcpy(o, b->pos + 3 * k, 3 * sizeof *o);
    memcpy(o + 3, b->vel + 3 * k, 3 * sizeof *o);
    memcpy(o + 6, b->angmom + 3 * k, 3 * sizeof *o);
    memcpy(o + 9, b->quat + 4 * k, 4 * sizeof *o);
    memcpy(o + 13, b->moment + 3 * k, 3 * sizeof *o);
    memcpy(o + 16, b->force + 3 * k, 3 * sizeof *o);
    memcpy(o + 19, b->torque + 3 * k, 3 * sizeof *o);
    o[22] = b->mass[k], o[23] = b->material[k];
    o[24] = (double)(b->start[k + 1] - b->start[k]);
    double *m = o + RBL_BODY_DOUBLES;
    for (size_t s = b->start[k]; s < b->start[k + 1]; s++, m += RBL_BODY_MEMBER_DOUBLES) {
        m[0] = b->member_id[s];
        memcpy(m + 1, b->offset + 3 * s, 3 * sizeof *m);
        memcpy(m + 4, b->arm + 3 * s, 3 * sizeof *m);
    }
}

int rbl_body_get(rbl_bodies *b, const double *o, size_t *used, rbl_error *err)
{
    const size_t members = (size_t)o[24];
    if (!rbl_bodies_reserve(b, b->n + 1, b->members + members + 1))
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu clumps", b->n + 1);
    const size_t k = b->n;
    memcpy(b->pos + 3 * k, o, 3 * sizeof *o);
    memcpy(b->vel + 3 * k, o + 3, 3 * sizeof *o);
    memcpy(b->angmom + 3 * k, o + 6, 3 * sizeof *o);
    memcpy(b->quat + 4 * k, o + 9, 4 * sizeof *o);
    memcpy(b->moment + 3 * k, o + 13, 3 * sizeof *o);
    memcpy(b->force + 3 * k, o + 16, 3 * sizeof *o);
    memcpy(b->torque + 3 * k, o + 19, 3 * sizeof *o);
    b->mass[k] = o[22], b->material[k] = (int32_t)o[23];
    const double *m = o + RBL_BODY_DOUBLES;
    b->start[k] = b->members;
    for (size_t e = 0; e < members; e++, m += RBL_BODY_MEMBER_DOUBLES) {
        const size_t s = b->members + e;
        b->member_id[s] = (uint32_t)m[0], b->member_index[s] = UINT32_MAX;
        memcpy(b->offset + 3 * s, m + 1, 3 * sizeof *m);
        memcpy(b->arm + 3 * s, m + 4, 3 * sizeof *m);
    }
    b->members += members;
    b->start[k + 1] = b->members;
    b->n++;
    *used = RBL_BODY_DOUBLES + RBL_BODY_MEMBER_DOUBLES * members;
    return RBL_OK;
}

/* Sum the members' contact forces and torques at the centre of mass (gravity once, on M). */
static void sum_at_centre(rbl_sim *sim, size_t k)
{
    rbl_bodies *b = &sim->bodies;
    const rbl_grains *g = &sim->g;
    const double *grav = sim->cfg.gravity;
    double F[3] = {0, 0, 0}, T[3] = {0, 0, 0};
    for (size_t s = b->start[k]; s < b->start[k + 1]; s++) {
        size_t i = b->member_index[s];
        const double *r = b->arm + 3 * s;
        double f[3];
        for (int a = 0; a < 3; a++)
            f[a] = g->force[3 * i + a] - g->mass[i] * grav[a];
        F[0] += f[0], F[1] += f[1], F[2] += f[2];
        T[0] += g->torque[3 * i] + r[1] * f[2] - r[2] * f[1];
        T[1] += g->torque[3 * i + 1] + r[2] * f[0] - r[0] * f[2];
        T[2] += g->torque[3 * i + 2] + r[0] * f[1] - r[1] * f[0];
    }
    for (int a = 0; a < 3; a++) {
        b->force[3 * k + a] = F[a] + b->mass[k] * grav[a];
        b->torque[3 * k + a] = T[a];
    }
}

void rbl_bodies_sum_forces(rbl_sim *sim)
{
    for (size_t k = 0; k < sim->bodies.n; k++)
        sum_at_centre(sim, k);
}

/* A member's velocity, V + w x r, at the lever r from the centre of mass. */
static void member_velocity(const double V[3], const double w[3], const double r[3], double v[3])
{
    v[0] = V[0] + w[1] * r[2] - w[2] * r[1];
    v[1] = V[1] + w[2] * r[0] - w[0] * r[2];
    v[2] = V[2] + w[0] * r[1] - w[1] * r[0];
}

/* Members of body k from its state: positions (unless vel only), velocities, spins. */
static double place_members(rbl_sim *sim, size_t k, const double V[3], const double L[3],
                            double *vel_dst, double *omega_dst, int positions,
                            rbl_packed_grain *pk)
{
    rbl_bodies *b = &sim->bodies;
    rbl_grains *g = &sim->g;
    const double *X = b->pos + 3 * k;
    double w[3], worst = 0, R[3][3];
    rbl_quat_matrix(b->quat + 4 * k, R);
    rbl_spin_of(R, b->moment + 3 * k, L, w);
    for (size_t s = b->start[k]; s < b->start[k + 1]; s++) {
        size_t i = b->member_index[s];
        double *r = b->arm + 3 * s;
        if (positions) /* a new orientation: new levers */
            rbl_mat_apply(R, b->offset + 3 * s, r);
        double *v = vel_dst + 3 * i, *o = omega_dst + 3 * i;
        member_velocity(V, w, r, v);
        o[0] = w[0], o[1] = w[1], o[2] = w[2];
        if (!positions)
            continue;
        double *x = g->pos + 3 * i, d2 = 0;
        for (int a = 0; a < 3; a++)
            x[a] = X[a] + r[a];
        wrap_periodic(sim, x);
        for (int a = 0; a < 3; a++) {
            double d = x[a] - g->pos_build[3 * i + a];
            d2 += d * d;
        }
        if (!(d2 <= worst))
            worst = d2 == d2 ? d2 : INFINITY;
        if (pk)
            rbl_pack_grain(pk + i, sim, i, vel_dst);
    }
    return worst;
}

double rbl_bodies_first_half(rbl_sim *sim, int close_previous, rbl_packed_grain *pk)
{
    rbl_bodies *b = &sim->bodies;
    const double dt = sim->cfg.dt, h = 0.5 * dt;
    const long n = (long)b->n;
    double worst = 0;
#pragma omp parallel for schedule(static) num_threads(sim->threads) reduction(max : worst)
    for (long k = 0; k < n; k++) {
        sum_at_centre(sim, (size_t)k);
        double *V = b->vel + 3 * k, *L = b->angmom + 3 * k, *X = b->pos + 3 * k;
        const double *F = b->force + 3 * k, *T = b->torque + 3 * k;
        double im = h / b->mass[k];
        for (int a = 0; a < 3; a++) {
            if (close_previous) {
                V[a] += F[a] * im;
                L[a] += T[a] * h;
            }
            V[a] += F[a] * im;
            L[a] += T[a] * h;
            X[a] += V[a] * dt;
        }
        /* a body wrapped along gravity: its potential jumps (rare; the sum is exact, so the
           threads' order does not matter) */
        double jump = b->mass[k] * wrap_periodic(sim, X);
        if (jump != 0.0) {
#pragma omp critical(rbl_energy_in)
            rbl_account_in(sim, RBL_IN_CHANGES, jump);
        }
        rbl_free_rotation(b->quat + 4 * k, b->moment + 3 * k, L, dt);
        double d2 = place_members(sim, (size_t)k, V, L, sim->g.vel, sim->g.omega, 1, pk);
        if (!(d2 <= worst))
            worst = d2 == d2 ? d2 : INFINITY;
    }
    return worst;
}

void rbl_bodies_half_kick(rbl_sim *sim, double *vel_dst, double *omega_dst, int store)
{
    rbl_bodies *b = &sim->bodies;
    const double h = 0.5 * sim->cfg.dt;
    const long n = (long)b->n;
#pragma omp parallel for schedule(static) num_threads(sim->threads)
    for (long k = 0; k < n; k++) {
        sum_at_centre(sim, (size_t)k);
        double V[3], L[3];
        /* F (h / M), rounded as rbl_bodies_first_half's closing kick rounds it, so that a
           stepping that stops here (a frame, a pour) goes on in the bits of one that does not:
           (F h) / M differs now and then in the last bit (the frame interval moved a run) */
        for (int a = 0; a < 3; a++) {
            V[a] = b->vel[3 * k + a] + b->force[3 * k + a] * (h / b->mass[k]);
            L[a] = b->angmom[3 * k + a] + b->torque[3 * k + a] * h;
        }
        if (store) {
            memcpy(b->vel + 3 * k, V, sizeof V);
            memcpy(b->angmom + 3 * k, L, sizeof L);
        }
        place_members(sim, (size_t)k, V, L, vel_dst, omega_dst, 0, NULL);
    }
}

double rbl_contact_mass(const rbl_sim *sim, size_t k)
{
    const rbl_grains *g = &sim->g;
    if (!g->body || g->body[k] < 0)
        return g->mass[k];
    const rbl_bodies *b = &sim->bodies;
    size_t body = (size_t)g->body[k];
    const double *o = b->offset + 3 * (size_t)g->slot[k], *I = b->moment + 3 * body;
    double arm = sqrt(o[0] * o[0] + o[1] * o[1] + o[2] * o[2]) + g->radius[k];
    double imin = fmin(fmin(I[0], I[1]), I[2]);
    return 1.0 / (1.0 / b->mass[body] + arm * arm / imin);
}

double rbl_body_kinetic(const rbl_sim *sim, size_t k)
{
    const rbl_bodies *b = &sim->bodies;
    const double *V = b->vel + 3 * k;
    double lb[3];
    rbl_quat_rotate_back(b->quat + 4 * k, b->angmom + 3 * k, lb);
    double e = 0.5 * b->mass[k] * (V[0] * V[0] + V[1] * V[1] + V[2] * V[2]);
    for (int a = 0; a < 3; a++)
        e += 0.5 * lb[a] * lb[a] / b->moment[3 * k + a];
    return e;
}

double rbl_body_energy(const rbl_sim *sim, size_t k)
{
    const rbl_bodies *b = &sim->bodies;
    const double *V = b->vel + 3 * k, *X = b->pos + 3 * k, m = b->mass[k];
    const double *grav = sim->cfg.gravity;
    double lb[3];
    rbl_quat_rotate_back(b->quat + 4 * k, b->angmom + 3 * k, lb);
    double e = 0.5 * m * (V[0] * V[0] + V[1] * V[1] + V[2] * V[2]) -
               m * (grav[0] * X[0] + grav[1] * X[1] + grav[2] * X[2]);
    for (int a = 0; a < 3; a++)
        e += 0.5 * lb[a] * lb[a] / b->moment[3 * k + a];
    if (sim->g.with_gravity && b->start) /* its members' share of W, as thermo.c sums it */
        for (size_t s = b->start[k]; s < b->start[k + 1]; s++) {
            size_t i = b->member_index[s];
            e += sim->g.mass[i] * sim->g.gphi[i];
        }
    return e;
}

void rbl_bodies_energy(const rbl_sim *sim, rbl_exact_sum *sums)
{
    const rbl_bodies *b = &sim->bodies;
    const double *grav = sim->cfg.gravity;
    for (size_t k = 0; k < b->n; k++) {
        const double *V = b->vel + 3 * k, *X = b->pos + 3 * k, m = b->mass[k];
        double lb[3];
        rbl_quat_rotate_back(b->quat + 4 * k, b->angmom + 3 * k, lb);
        rbl_exact_add(&sums[RBL_T_KINETIC], 0.5 * m * (V[0] * V[0] + V[1] * V[1] + V[2] * V[2]));
        for (int a = 0; a < 3; a++)
            rbl_exact_add(&sums[RBL_T_ROTATIONAL], 0.5 * lb[a] * lb[a] / b->moment[3 * k + a]);
        /* the kick term (account.c): the force's, and the torque's in the body frame */
        double tb[3], kick = rbl_kick_term(sim->cfg.dt, m, 1.0, b->force + 3 * k, NULL);
        rbl_quat_rotate_back(b->quat + 4 * k, b->torque + 3 * k, tb);
        for (int a = 0; a < 3; a++)
            kick += 0.125 * sim->cfg.dt * sim->cfg.dt * tb[a] * tb[a] / b->moment[3 * k + a];
        rbl_exact_add(&sums[RBL_T_KICK], kick);
        rbl_exact_add(&sums[RBL_T_POTENTIAL], -m * (grav[0] * X[0] + grav[1] * X[1] +
                                                    grav[2] * X[2]));
        for (int a = 0; a < 3; a++)
            rbl_exact_add(&sums[RBL_T_MOMENTUM + a], m * V[a]);
        const double *Lb = b->angmom + 3 * k;
        rbl_exact_add(&sums[RBL_T_ANGMOM], m * (X[1] * V[2] - X[2] * V[1]) + Lb[0]);
        rbl_exact_add(&sums[RBL_T_ANGMOM + 1], m * (X[2] * V[0] - X[0] * V[2]) + Lb[1]);
        rbl_exact_add(&sums[RBL_T_ANGMOM + 2], m * (X[0] * V[1] - X[1] * V[0]) + Lb[2]);
    }
}

/* The rigid motion that fits body k's members' velocities and spins as written: the mean of
 * their spins by mass, W, then the velocity at the centre, U, that leaves their momentum (each
 * v - W x r by mass); *off: the largest departure of a member from it (m/s; a spin's times the
 * clump's reach), at *worst (a slot); *scale_out: the speeds it is measured against (the
 * fastest member's and the spin's times the reach). */
static void fit_rigid(const rbl_sim *sim, size_t k, double U[3], double W[3], double *off,
                      double *scale_out, size_t *worst)
{
    const rbl_bodies *b = &sim->bodies;
    const rbl_grains *g = &sim->g;
    double M = 0.0, reach = 0.0, scale = 0.0;
    U[0] = U[1] = U[2] = W[0] = W[1] = W[2] = 0.0;
    for (size_t s = b->start[k]; s < b->start[k + 1]; s++) {
        const size_t i = b->member_index[s];
        const double *r = b->arm + 3 * s;
        M += g->mass[i];
        reach = fmax(reach, sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]) + g->radius[i]);
        for (int a = 0; a < 3; a++)
            W[a] += g->mass[i] * g->omega[3 * i + a];
    }
    for (int a = 0; a < 3; a++)
        W[a] /= M;
    for (size_t s = b->start[k]; s < b->start[k + 1]; s++) {
        const size_t i = b->member_index[s];
        double turn[3];
        member_velocity((const double[3]){0, 0, 0}, W, b->arm + 3 * s, turn);
        for (int a = 0; a < 3; a++)
            U[a] += g->mass[i] * (g->vel[3 * i + a] - turn[a]);
    }
    for (int a = 0; a < 3; a++)
        U[a] /= M;
    *off = 0.0, *worst = b->start[k];
    for (size_t s = b->start[k]; s < b->start[k + 1]; s++) {
        const size_t i = b->member_index[s];
        double v[3], dv = 0.0, dw = 0.0;
        member_velocity(U, W, b->arm + 3 * s, v);
        for (int a = 0; a < 3; a++) {
            dv += (g->vel[3 * i + a] - v[a]) * (g->vel[3 * i + a] - v[a]);
            dw += (g->omega[3 * i + a] - W[a]) * (g->omega[3 * i + a] - W[a]);
        }
        const double d = fmax(sqrt(dv), sqrt(dw) * reach);
        if (!(d <= *off))
            *off = d, *worst = s;
        scale = fmax(scale, sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]));
    }
    *scale_out = scale + sqrt(W[0] * W[0] + W[1] * W[1] + W[2] * W[2]) * reach;
}

int rbl_bodies_take_writes(rbl_sim *sim, rbl_error *err)
{
    rbl_bodies *b = &sim->bodies;
    rbl_grains *g = &sim->g;
    for (size_t k = 0; k < b->n; k++) {
        double R[3][3], w[3];
        rbl_quat_matrix(b->quat + 4 * k, R);
        rbl_spin_of(R, b->moment + 3 * k, b->angmom + 3 * k, w);
        /* a member's velocity or spin other than the body's gives it, to the last bit (by
           value: a spin of -0 is one of 0) */
        int written = 0;
        for (size_t s = b->start[k]; s < b->start[k + 1] && !written; s++) {
            const size_t i = b->member_index[s];
            double v[3];
            member_velocity(b->vel + 3 * k, w, b->arm + 3 * s, v);
            for (int a = 0; a < 3; a++)
                written |= v[a] != g->vel[3 * i + a] || w[a] != g->omega[3 * i + a];
        }
        if (!written)
            continue;
        double U[3], W[3], off, scale;
        size_t s;
        fit_rigid(sim, k, U, W, &off, &scale, &s);
        if (!(off <= RBL_RIGID_WRITE_TOLERANCE * scale)) {
            const size_t i = b->member_index[s];
            const double *v = g->vel + 3 * i, *o = g->omega + 3 * i;
            return rbl_error_set(err, RBL_EINVAL,
                                 "grain %u is a sphere of clump %zu (the one of grain %u): "
                                 "its velocity (%g, %g, %g) "
                                 "and spin (%g, %g, %g), set from outside the steps, are no "
                                 "rigid motion with its clump's other spheres (%.3g m/s from "
                                 "the nearest one): a clump moves as one body; give every sphere "
                                 "of it one motion, v = V + w x (x - X) and spin w, or none",
                                 g->id[i], k, b->member_id[b->start[k]], v[0], v[1], v[2], o[0],
                                 o[1], o[2], off);
        }
        /* the body takes the written motion: L = R I R^T W; its members placed from it */
        double lb[3], L[3];
        for (int a = 0; a < 3; a++)
            lb[a] = (R[0][a] * W[0] + R[1][a] * W[1] + R[2][a] * W[2]) * b->moment[3 * k + a];
        rbl_mat_apply(R, lb, L);
        memcpy(b->vel + 3 * k, U, sizeof U);
        memcpy(b->angmom + 3 * k, L, sizeof L);
        place_members(sim, k, U, L, g->vel, g->omega, 0, NULL);
    }
    return RBL_OK;
}
