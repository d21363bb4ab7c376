/* thermo.c — whole-system diagnostics for thermo.csv and the end-of-run report: kinetic and
 * rotational energy, gravitational potential, energy stored in the contact springs, contact
 * counts, the largest overlap relative to the smaller radius, momentum and angular momentum,
 * wall forces, the self-gravity energy at the last evaluation of the field. Every sum is exact
 * (base: rbl_exact_sum), so the numbers depend neither on the thread count nor on the grains'
 * order, and summed over several processes they are one process's bits. */
#include "contact_kernel.h"

#include <string.h>

size_t rbl_thermo_sum_count(const rbl_sim *sim)
{
    return RBL_T_SUMS + 6 * ((size_t)sim->n_walls + (size_t)sim->n_meshes) + 4 * sim->n_flows +
           2 * sim->n_outlets;
}

void rbl_thermo_partial(rbl_sim *sim, rbl_thermo *t, rbl_exact_sum *sums)
{
    const rbl_grains *g = &sim->g;
    const double *grav = sim->cfg.gravity;
    const size_t n_walls = (size_t)sim->n_walls + (size_t)sim->n_meshes;
    for (size_t s = 0; s < rbl_thermo_sum_count(sim); s++)
        rbl_exact_clear(&sums[s]);
    const double dt = sim->cfg.dt;
    for (size_t k = 0; k < g->n; k++) { /* what the grains dissipated, clump members too */
        for (int m = 0; m < 3; m++)
            rbl_exact_add(&sums[RBL_T_LOSS + m], g->loss[3 * k + m]);
        rbl_exact_add(&sums[RBL_T_LOSS + RBL_LOSS_COHESION], g->loss_cohesion[k]);
    }
    for (size_t k = 0; k < g->n; k++) {
        if (g->body[k] >= 0)
            continue; /* clump members: their bodies count below */
        const double *v = g->vel + 3 * k, *w = g->omega + 3 * k, *x = g->pos + 3 * k;
        double m = g->mass[k], inertia = 0.4 * m * g->radius[k] * g->radius[k];
        rbl_exact_add(&sums[RBL_T_KICK], rbl_kick_term(dt, m, inertia, g->force + 3 * k,
                                                       g->torque + 3 * k));
        rbl_exact_add(&sums[RBL_T_KINETIC], 0.5 * m * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]));
        rbl_exact_add(&sums[RBL_T_ROTATIONAL],
                      0.5 * inertia * (w[0] * w[0] + w[1] * w[1] + w[2] * w[2]));
        rbl_exact_add(&sums[RBL_T_POTENTIAL], -m * (grav[0] * x[0] + grav[1] * x[1] +
                                                    grav[2] * x[2]));
        for (int a = 0; a < 3; a++)
            rbl_exact_add(&sums[RBL_T_MOMENTUM + a], m * v[a]);
        rbl_exact_add(&sums[RBL_T_ANGMOM], m * (x[1] * v[2] - x[2] * v[1]) + inertia * w[0]);
        rbl_exact_add(&sums[RBL_T_ANGMOM + 1], m * (x[2] * v[0] - x[0] * v[2]) + inertia * w[1]);
        rbl_exact_add(&sums[RBL_T_ANGMOM + 2], m * (x[0] * v[1] - x[1] * v[0]) + inertia * w[2]);
    }
    rbl_bodies_energy(sim, sums);
    /* self-gravity: W = 1/2 sum m phi over every grain, clump members included (the pairs
     * inside a rigid clump add a constant) */
    if (sim->gravity.method != RBL_GRAVITY_OFF)
        for (size_t k = 0; k < g->n; k++) {
            const double *x = g->pos + 3 * k, *a = g->gacc + 3 * k;
            rbl_exact_add(&sums[RBL_T_SELF], 0.5 * g->mass[k] * g->gphi[k]);
            rbl_exact_add(&sums[RBL_T_GRAVITY_VIRIAL],
                          g->mass[k] * (x[0] * a[0] + x[1] * a[1] + x[2] * a[2]));
        }
    double worst = 0.0;
    uint32_t worst_ids[2] = {UINT32_MAX, UINT32_MAX};
    size_t contacts = 0, wall_contacts = 0;
    const rbl_pair_list *pl = &sim->pairs;
    rbl_forces_gather(sim); /* the kick term reads the complete forces */
    /* out of memory for the packed copy: the spring energy is unknown (NaN) */
    int packed = rbl_pack_grains(sim, g->vel, g->omega);
    sim->packed_fresh = 0; /* it now holds full-step velocities */
    if (!packed)
        rbl_exact_add(&sums[RBL_T_ELASTIC], NAN);
    const rbl_pair_arrays arrays = rbl_pair_arrays_of(sim);
    size_t listed = 0; /* a pair with another process's grain counts where its lower id is */
    for (size_t q = 0; q < pl->n; q++) {
        rbl_contact_geom geo;
        double l1, l2;
        if (pl->i[q] >= g->n)
            continue;
        listed++;
        if (!packed || !pl->touch[q] ||
            !rbl_pair_geometry(&arrays, arrays.pk + pl->i[q], q, rbl_pair_reach(sim, q), 0.0,
                               &geo, &l1, &l2))
            continue;
        uint32_t i = pl->i[q], j = pl->j[q];
        contacts++;
        double coh;
        rbl_exact_add(&sums[RBL_T_ELASTIC], rbl_account_pair_energy(sim, q, &geo, l1 + l2, &coh));
        rbl_exact_add(&sums[RBL_T_COHESIVE], coh);
        double rmin = g->radius[i] < g->radius[j] ? g->radius[i] : g->radius[j];
        if (geo.overlap / rmin > worst) {
            worst = geo.overlap / rmin;
            worst_ids[0] = g->id[i], worst_ids[1] = g->id[j];
        }
    }
    rbl_contact_virial_add(sim, &sums[RBL_T_CONTACT_VIRIAL]);
    for (int s = 0; s < RBL_IN_N; s++)
        rbl_exact_merge(&sums[RBL_T_IN + s], &sim->health.in[s]);
    for (int s = 0; s < RBL_LOSS_N; s++)
        rbl_exact_merge(&sums[RBL_T_LOSS + s], &sim->health.lost[s]);
    rbl_exact_merge(&sums[RBL_T_SELF_WORK], &sim->health.self_work);
    if (sim->bonded) /* what the bonds' springs hold */
        sim->bonded->energy(sim, &sums[RBL_T_ELASTIC]);
    rbl_exact_sum *wall_sums = sums + RBL_T_SUMS; /* per wall: force, then torque */
    const rbl_wall_list *wl = &sim->wpairs;
    for (size_t q = 0; q < wl->n; q++) {
        rbl_contact_geom geo;
        double l1;
        if (!wl->touch[q] || !rbl_wall_geometry(sim, q, g->vel, g->omega, 0.0, &geo, &l1))
            continue;
        uint32_t i = wl->grain[q];
        wall_contacts++;
        double coh;
        rbl_exact_add(&sums[RBL_T_ELASTIC], rbl_account_wall_energy(sim, q, &geo, &coh));
        rbl_exact_add(&sums[RBL_T_COHESIVE], coh);
        if (geo.overlap / g->radius[i] > worst) {
            worst = geo.overlap / g->radius[i];
            worst_ids[0] = g->id[i], worst_ids[1] = UINT32_MAX;
        }
        const double *o = wl->out + RBL_WALL_OUT * q;
        rbl_exact_sum *ws = wall_sums + 6 * rbl_wall_number(wl->wall[q], sim->n_walls);
        /* the wall gets the opposite of what the grain gets about the origin: x × f + T */
        const double *x = g->pos + 3 * (size_t)i;
        double xf[3];
        rbl_cross(x, o, xf);
        for (int a = 0; a < 3; a++) {
            rbl_exact_add(&ws[a], -o[a]);
            rbl_exact_add(&ws[3 + a], -(xf[a] + o[3 + a]));
        }
    }
    t->time = sim->time;
    t->step = sim->step;
    t->grains = g->n;
    t->lost = sim->lost;
    t->contacts = contacts;
    t->pairs_listed = listed;
    rbl_exact_sum *flow_sums = wall_sums + 6 * n_walls; /* flow.c's, this process's */
    for (size_t k = 0; k < 4 * sim->n_flows; k++)
        rbl_exact_merge(&flow_sums[k], &sim->flow_sums[k]);
    for (size_t k = 0; k < 2 * sim->n_outlets; k++) /* outlets.c's, after them */
        rbl_exact_merge(&flow_sums[4 * sim->n_flows + k], &sim->outlet_sums[k]);
    t->wall_contacts = wall_contacts;
    t->max_overlap_ratio = worst;
    t->max_overlap_ids[0] = worst_ids[0], t->max_overlap_ids[1] = worst_ids[1];
    t->n_walls = n_walls;
}

void rbl_thermo_finish(rbl_sim *sim, rbl_thermo *t, const rbl_exact_sum *sums)
{
    const size_t n_walls = t->n_walls;
    const double w_self = rbl_exact_value(&sums[RBL_T_SELF]);
    t->kinetic = rbl_exact_value(&sums[RBL_T_KINETIC]);
    t->rotational = rbl_exact_value(&sums[RBL_T_ROTATIONAL]);
    t->potential = rbl_exact_value(&sums[RBL_T_POTENTIAL]) + w_self;
    t->self_potential = w_self;
    t->gravity_virial = rbl_exact_value(&sums[RBL_T_GRAVITY_VIRIAL]);
    t->contact_virial = rbl_exact_value(&sums[RBL_T_CONTACT_VIRIAL]);
    t->elastic = rbl_exact_value(&sums[RBL_T_ELASTIC]);
    t->cohesive = rbl_exact_value(&sums[RBL_T_COHESIVE]);
    t->kick = rbl_exact_value(&sums[RBL_T_KICK]);
    /* the totals as exact sums of their parts, then the balance from the same exact parts */
    rbl_exact_sum all_in, balance;
    rbl_exact_clear(&all_in);
    for (int s = 0; s < RBL_IN_N; s++) {
        t->put_in[s] = rbl_exact_value(&sums[RBL_T_IN + s]);
        rbl_exact_merge(&all_in, &sums[RBL_T_IN + s]);
    }
    t->energy_in = rbl_exact_value(&all_in);
    rbl_account_held_of(sums, &balance);
    for (int s = 0; s < RBL_LOSS_N; s++) {
        t->dissipated[s] = rbl_exact_value(&sums[RBL_T_LOSS + s]);
        rbl_exact_merge(&balance, &sums[RBL_T_LOSS + s]);
    }
    t->self_work = rbl_exact_value(&sums[RBL_T_SELF_WORK]);
    /* self-gravity's part is the work its forces did (its field, held between evaluations
       and approximated by a tree, is not exactly the gradient of W); all exact to the end */
    rbl_exact_subtract(&balance, &all_in);
    rbl_exact_subtract(&balance, &sums[RBL_T_SELF_WORK]);
    t->balance = rbl_exact_value(&balance);
    for (int a = 0; a < 3; a++) {
        t->momentum[a] = rbl_exact_value(&sums[RBL_T_MOMENTUM + a]);
        t->angular_momentum[a] = rbl_exact_value(&sums[RBL_T_ANGMOM + a]);
    }
    double *wall_torque = n_walls ? sim->wall_force + 3 * n_walls : NULL; /* NULL + 0 is UB */
    for (size_t k = 0; k < n_walls; k++)
        for (int a = 0; a < 3; a++) {
            sim->wall_force[3 * k + a] = rbl_exact_value(&sums[RBL_T_SUMS + 6 * k + a]);
            wall_torque[3 * k + a] = rbl_exact_value(&sums[RBL_T_SUMS + 6 * k + 3 + a]);
        }
    t->wall_force = sim->wall_force;
    t->wall_torque = wall_torque;
    for (size_t k = 0; k < 4 * sim->n_flows; k++) /* over the processes, where several */
        sim->flow_values[k] = rbl_exact_value(&sums[RBL_T_SUMS + 6 * n_walls + k]);
    t->n_flows = sim->n_flows;
    t->flow = sim->flow_values;
    for (size_t k = 0; k < 2 * sim->n_outlets; k++)
        sim->outlet_values[k] = rbl_exact_value(&sums[RBL_T_SUMS + 6 * n_walls +
                                                      4 * sim->n_flows + k]);
    t->n_outlets = sim->n_outlets;
    t->outlet = sim->outlet_values;
    t->wall_travel = NULL;
    int moved = sim->walls_moving; /* or once did, and a stage stopped it */
    for (size_t k = 0; !moved && k < n_walls; k++) {
        const double *s0 = rbl_wall_pose_of(sim, (int)k)->shift0;
        moved = s0[0] != 0.0 || s0[1] != 0.0 || s0[2] != 0.0;
    }
    if (moved) {
        double *travel = sim->wall_force + 6 * n_walls;
        for (size_t k = 0; k < n_walls; k++) {
            const rbl_wall_pose *ps = rbl_wall_pose_of(sim, (int)k);
            for (int a = 0; a < 3; a++)
                travel[3 * k + a] = ps->shift0[a] + (ps->moving ? ps->shift[a] : 0.0);
        }
        t->wall_travel = travel;
    }
}

void rbl_sim_thermo(rbl_sim *sim, rbl_thermo *t)
{
    const size_t count = rbl_thermo_sum_count(sim);
    if (!rbl_grow_array((void **)&sim->thermo_sums, &sim->thermo_sums_cap, count,
                        sizeof *sim->thermo_sums)) { /* out of memory (some 30 KB): unknown */
        memset(t, 0, sizeof *t);
        t->time = sim->time, t->step = sim->step, t->grains = sim->g.n, t->lost = sim->lost;
        t->kinetic = t->rotational = t->potential = t->elastic = NAN;
        t->self_potential = t->gravity_virial = t->contact_virial = t->energy_in = NAN;
        t->cohesive = t->kick = t->balance = t->self_work = NAN;
        for (int s = 0; s < RBL_LOSS_N; s++)
            t->dissipated[s] = NAN;
        for (int s = 0; s < RBL_IN_N; s++)
            t->put_in[s] = NAN;
        for (int a = 0; a < 3; a++)
            t->momentum[a] = t->angular_momentum[a] = NAN;
        return;
    }
    rbl_thermo_partial(sim, t, sim->thermo_sums);
    rbl_thermo_finish(sim, t, sim->thermo_sums);
}
