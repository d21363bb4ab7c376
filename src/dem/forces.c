/* forces.c — one force evaluation (seed 002 §2.3): the packed records, the grain-grain pass
 * (pair_pass.c: the first grain's sums at once, the second grain's share in the pair's slot,
 * so no two threads write the same memory), the wall pass; then each grain sums its slots in
 * a fixed order and adds gravity (the gather). The result is bit-identical for any number of
 * threads: no atomics, no thread-dependent reduction order. Torques use the seed's lever
 * arms l1 = (r1^2 - r2^2 + d^2) / (2d), l2 = d - l1 (walls: l1 = d*). */
#include "contact_kernel.h"

#include <stdlib.h>
#include <string.h>

int rbl_pack_grains(rbl_sim *sim, const double *vel, const double *omega)
{
    const rbl_grains *g = &sim->g;
    const size_t all = g->n + g->ghosts;
    if (all > sim->packed_cap) {
        size_t cap = g->cap > all ? g->cap : all;
        void *p = NULL;
        if (posix_memalign(&p, 64, cap * sizeof *sim->packed) != 0)
            return 0;
        free(sim->packed);
        sim->packed = p;
        sim->packed_cap = cap;
    }
    rbl_packed_grain *pk = sim->packed;
    const rbl_pair_list *pairs = &sim->pairs;
#pragma omp parallel num_threads(sim->threads)
    {
        size_t begin, end;
        rbl_sweep_range(sim, all, &begin, &end);
        for (size_t k = begin; k < end; k++)
            if (rbl_grain_listed(pairs, k))
                rbl_pack_grain(pk + k, sim, k, vel);
    }
    sim->packed_omega = omega;
    return 1;
}

/* What a thread of the wall pass keeps for the health check: its deepest overlap, and the
 * work moving walls did on the grains this step. */
typedef struct wall_thread {
    rbl_overlap_peak peak;
    rbl_exact_sum work, through; /* the walls' work, and its magnitude contact by contact */
    int working;
} wall_thread;

/* The work a moving wall did on a grain through one contact over the step just made: the
 * mean of its force on the grain at the step's two ends (the last evaluation's, f_was, and
 * this one's) times the step's displacement of the wall's point at the contact (from the pose
 * the step began at, prev_rot and prev_shift, to the pose now), as velocity Verlet's kicks
 * give the grain the force at both ends; and the rolling torque times the turn. A vibrating
 * wall's displacement over a step is not its velocity times dt (at 8 steps a period 2.6 %
 * apart), and the velocity's work was booked short (issue 70). */
static double wall_work(const rbl_sim *sim, uint32_t i, const rbl_contact_geom *geo,
                        const rbl_wall_pose *pose, const double *f_was, const double *tr_was,
                        const rbl_contact_out *o)
{
    const double *x = sim->g.pos + 3 * (size_t)i;
    const double d = sim->g.radius[i] - geo->overlap;
    double p[3], own[3], was[3];
    for (int a = 0; a < 3; a++)
        p[a] = x[a] - d * geo->n[a];
    rbl_pose_to_own(pose, p, own);
    rbl_pose_at_step_start(pose, own, was);
    double w = 0.0;
    for (int a = 0; a < 3; a++)
        w += 0.5 * (o->f[a] + f_was[a]) * (p[a] - was[a]) +
             0.5 * (o->tr[a] + tr_was[a]) * pose->spin[a] * sim->cfg.dt;
    return w;
}

/* The torque on the grain of a contact's springs at its last evaluation (history h; touch: it
 * touched then), about the normal n: epsd2's spring, -M, and the twist's, (-k theta + its
 * dashpot's) n, as their kernels book their steps; 0 otherwise (cdt keeps none: its work is
 * booked with this evaluation's torque, as its loss is). */
static void torque_was(const rbl_contact_law *law, const double *h, const double n[3],
                       int touch, double tr[3])
{
    const double *m = h + rbl_hist_rolling(law), *tw = h + rbl_hist_further(law);
    const int rolled = touch && law->rolling == RBL_ROLLING_EPSD2;
    const double twist = touch && law->twisting == RBL_TWISTING_MARSHALL
                             ? -tw[1] * tw[0] + tw[2]
                             : 0.0;
    for (int a = 0; a < 3; a++)
        tr[a] = (rolled ? -m[a] : 0.0) + twist * n[a];
}

/* Wall contact q whose geometry is geo: the law, its force and torque on the grain into the
 * contact's slot, its history updated; the thread's peak overlap and wall work. vn_cut: the
 * normal velocity geo's lacks of the contact point's (a mesh face's dashpot across a crease
 * sees part of it: forces.c's mesh_contacts), 0 else: its dashpot's work is booked with the
 * point's whole velocity, as the kick gives the force to the grain (booked with geo's, a
 * grain landing on a crease of a drum lost energy unbooked, issue 70). */
static void wall_law(const rbl_sim *sim, rbl_wall_list *w, size_t q, const rbl_contact_geom *geo,
                     double l1, double vn_cut, wall_thread *wt, rbl_contact_out *result)
{
    const rbl_contact_law *law = &sim->cfg.law;
    uint32_t i = w->grain[q];
    double *out = w->out + RBL_WALL_OUT * q;
    double *hist = w->hist + rbl_wall_hist_width(law) * q;
    rbl_contact_out o;
    double c[3], tr_was[3];
    const rbl_pair_coef *pc =
        rbl_pair_coef_of(sim, sim->g.material[i], rbl_wall_material(sim, w->wall[q]));
    torque_was(law, hist, geo->n, w->touch[q], tr_was);
    const double *dash = hist + rbl_hist_dash(law);
    const double dash_was = dash[0] * geo->n[0] + dash[1] * geo->n[1] + dash[2] * geo->n[2];
    rbl_contact_force(law, pc, geo, sim->cfg.dt, hist, &o);
    if (vn_cut != 0.0) /* the mean of the dashpot's two ends over the rest of the motion */
        o.loss[RBL_LOSS_DAMPING] -= 0.5 * (dash_was + dash[0] * geo->n[0] + dash[1] * geo->n[1] +
                                           dash[2] * geo->n[2]) * vn_cut * sim->cfg.dt;
    rbl_cross(geo->n, o.ft, c);
    const double f_was[3] = {w->touch[q] ? out[0] : 0.0, w->touch[q] ? out[1] : 0.0,
                             w->touch[q] ? out[2] : 0.0};
    double *lost = sim->g.loss + 3 * (size_t)i; /* its grain's, in the wall list's order */
    for (int m = 0; m < 3 && sim->prepared; m++) /* (the first evaluation ends no step) */
        lost[m] += o.loss[m];
    if (law->collisions & RBL_LAW_AGES) /* its age (contact_study.c) */
        hist[rbl_hist_age(law)] += 1.0;
    if (law->collisions & RBL_LAW_EVENTS) { /* the contact's event (collisions.c) */
        double *hc = hist + rbl_hist_collision(law);
        if (hc[0] == 0.0)
            rbl_collision_begin(hc, geo);
        if (sim->prepared)
            hc[4] += o.loss[0] + o.loss[1] + o.loss[2];
    }
    out[0] = o.f[0], out[1] = o.f[1], out[2] = o.f[2];
    out[3] = -l1 * c[0] + o.tr[0], out[4] = -l1 * c[1] + o.tr[1], out[5] = -l1 * c[2] + o.tr[2];
    w->touch[q] = 1;
    *result = o;
    const double r = sim->g.radius[i];
    if (geo->overlap >= wt->peak.ratio * r * (1.0 - 1e-12)) /* the division only when deeper */
        rbl_overlap_peak_take(&wt->peak, geo->overlap / r, sim->g.id[i], UINT32_MAX,
                              (int)rbl_wall_number(w->wall[q], sim->n_walls) + 1);
    if (!sim->walls_moving || !sim->prepared)
        return;
    const rbl_wall_pose *pose = rbl_wall_pose_of_code(sim, w->wall[q]);
    if (pose->moving) {
        const double work = wall_work(sim, i, geo, pose, f_was, tr_was, &o);
        rbl_exact_add(&wt->work, work);
        rbl_exact_add(&wt->through, fabs(work));
        wt->working = 1;
    }
}

/* The work a moving wall did over the step in which its contact q parted: its last force on
 * the grain, f_was, over the half step the kick gives it, times the step's displacement of
 * the wall's point nearest the grain (at distance d along n from its centre). Unbooked, a
 * floor vibrating under a bed whose contacts last a few steps was stopped as making energy
 * (issue 70, found from outside). */
static double wall_work_apart(const rbl_sim *sim, uint32_t i, const double n[3], double d,
                              const rbl_wall_pose *pose, const double *f_was,
                              const double *tr_was)
{
    const double *x = sim->g.pos + 3 * (size_t)i;
    double p[3], own[3], was[3];
    for (int a = 0; a < 3; a++)
        p[a] = x[a] - d * n[a];
    rbl_pose_to_own(pose, p, own);
    rbl_pose_at_step_start(pose, own, was);
    double w = 0.0;
    for (int a = 0; a < 3; a++)
        w += 0.5 * f_was[a] * (p[a] - was[a]) + 0.5 * tr_was[a] * pose->spin[a] * sim->cfg.dt;
    return w;
}

/* Wall contact q that no longer touches: its history goes (the account books what it held,
 * with its contact point's velocity from the normal n and the distance dist of the grain's
 * centre to the wall now, and a moving wall's work over the step). */
static void wall_apart(const rbl_sim *sim, rbl_wall_list *w, size_t q, const double n[3],
                       double dist, const double *vel, const double *om, wall_thread *wt)
{
    if (!w->touch[q])
        return;
    const size_t wide = rbl_wall_hist_width(&sim->cfg.law);
    const uint32_t i = w->grain[q];
    const rbl_wall_pose *pose = rbl_wall_pose_of_code(sim, w->wall[q]);
    rbl_contact_geom geo;
    double l1;
    rbl_wall_frame(sim, i, n, dist, vel, om, pose, rbl_velocity_lag(sim), &geo, &l1);
    if (sim->prepared)
        rbl_account_contact_end(sim, i, SIZE_MAX, rbl_wall_material(sim, w->wall[q]),
                                w->hist + wide * q, &geo, sim->g.loss, sim->g.loss_cohesion);
    if (sim->prepared && sim->walls_moving && pose->moving) {
        double tr_was[3];
        torque_was(&sim->cfg.law, w->hist + wide * q, n, 1, tr_was);
        const double work =
            wall_work_apart(sim, i, n, dist, pose, w->out + RBL_WALL_OUT * q, tr_was);
        rbl_exact_add(&wt->work, work);
        rbl_exact_add(&wt->through, fabs(work));
        wt->working = 1;
    }
    w->touch[q] = 0;
    memset(w->hist + wide * q, 0, wide * sizeof *w->hist);
}

/* A mesh slot q that no longer touches: as wall_apart, with the normal and distance its last
 * evaluation kept. */
static void slot_apart(const rbl_sim *sim, rbl_wall_list *w, size_t q, const double *vel,
                       const double *om, wall_thread *wt)
{
    if (!w->touch[q])
        return;
    const double *h = w->hist + rbl_wall_hist_width(&sim->cfg.law) * q + rbl_hist_width(&sim->cfg.law);
    wall_apart(sim, w, q, h, h[3], vel, om, wt);
}

/* A plane wall's contact q. */
static void plane_contact(const rbl_sim *sim, rbl_wall_list *w, size_t q, const double *vel,
                          const double *om, wall_thread *wt)
{
    rbl_contact_geom geo;
    rbl_contact_out o;
    double l1;
    if (rbl_wall_geometry(sim, q, vel, om, rbl_velocity_lag(sim), &geo, &l1)) {
        wall_law(sim, w, q, &geo, l1, 0.0, wt, &o);
    } else if (w->touch[q]) {
        const rbl_plane *pl = &sim->walls[w->wall[q]];
        const double *x = sim->g.pos + 3 * (size_t)w->grain[q];
        wall_apart(sim, w, q, pl->n, pl->n[0] * x[0] + pl->n[1] * x[1] + pl->n[2] * x[2] + pl->offset,
                   vel, om, wt);
    }
}

/* A grain against a mesh wall (or a primitive wall, its contacts in closed form): the slots q0 .. q0 + RBL_MESH_SLOTS - 1 of one (grain, mesh).
 * Its contacts (mesh_contact.c: each feature once, nearest first) go to the slots whose last
 * normal is closest to theirs (so a contact's history follows a grain sliding from one facet
 * to the next), else to a free slot; slots left over no longer touch. work holds the group's
 * candidates. */
static void mesh_contacts(const rbl_sim *sim, rbl_wall_list *w, size_t q0, const double *vel,
                          const double *om, rbl_mesh_touch *work, wall_thread *wt)
{
    const rbl_contact_law *law = &sim->cfg.law;
    const size_t width = rbl_hist_width(law), wide = rbl_wall_hist_width(law);
    uint32_t i = w->grain[q0];
    const rbl_mesh_wall *mw = &sim->meshes[rbl_wall_mesh(w->wall[q0])];
    double own[3]; /* the grain in the mesh's own frame (a moving mesh stays where it was) */
    rbl_pose_to_own(&mw->pose, sim->g.pos + 3 * (size_t)i, own);
    double reach = sim->g.radius[i], hold = 0.0;
    for (size_t s = 0; s < RBL_MESH_SLOTS; s++) /* JKR: a touching slot holds in tension */
        hold = fmax(hold, rbl_wall_reach(sim, q0 + s));
    reach += hold;
    rbl_mesh_touch c[RBL_MESH_SLOTS];
    const double power = law->normal == RBL_NORMAL_HERTZ || law->from_materials ? 1.5 : 1.0;
    size_t n = mw->prim ? rbl_prim_contacts(mw->prim, own, reach, c, RBL_MESH_SLOTS)
                        : rbl_mesh_contacts(&mw->mesh, w->cand + w->cand_lo[q0],
                                            w->cand_hi[q0] - w->cand_lo[q0], own, reach,
                                            sim->g.radius[i], power, work, c, RBL_MESH_SLOTS);
    for (size_t k = 0; k < n; k++) { /* the normals back into the world */
        double local[3] = {c[k].n[0], c[k].n[1], c[k].n[2]};
        rbl_pose_turn(&mw->pose, local, c[k].n);
    }
    int taken[RBL_MESH_SLOTS] = {0}, slot_of[RBL_MESH_SLOTS];
    for (size_t k = 0; k < n; k++) { /* the touching slot of the nearest normal */
        double best = 0.5; /* within 60 degrees */
        slot_of[k] = -1;
        for (int s = 0; s < RBL_MESH_SLOTS; s++) {
            const double *h = w->hist + wide * (q0 + (size_t)s) + width;
            double dot = h[0] * c[k].n[0] + h[1] * c[k].n[1] + h[2] * c[k].n[2];
            if (w->touch[q0 + (size_t)s] && !taken[s] && dot > best)
                best = dot, slot_of[k] = s;
        }
        if (slot_of[k] >= 0)
            taken[slot_of[k]] = 1;
    }
    for (size_t k = 0; k < n; k++) /* a new contact: a free slot, its history zero */
        for (int s = 0; s < RBL_MESH_SLOTS && slot_of[k] < 0; s++)
            if (!taken[s]) {
                taken[s] = 1, slot_of[k] = s;
                slot_apart(sim, w, q0 + (size_t)s, vel, om, wt);
            }
    for (int s = 0; s < RBL_MESH_SLOTS; s++)
        if (!taken[s])
            slot_apart(sim, w, q0 + (size_t)s, vel, om, wt);
    for (size_t k = 0; k < n; k++) {
        size_t q = q0 + (size_t)slot_of[k];
        rbl_contact_geom geo;
        rbl_contact_out o;
        double l1, v_contact[3];
        rbl_wall_frame(sim, i, c[k].n, c[k].dist, vel, om, &mw->pose, rbl_velocity_lag(sim), &geo,
                       &l1);
        memcpy(v_contact, geo.v, sizeof v_contact);
        double vn_cut = 0.0;
        if (c[k].share < 1.0) { /* across a crease (mesh_contact.c): its dashpot's share */
            vn_cut = (1.0 - c[k].share) *
                     (geo.v[0] * geo.n[0] + geo.v[1] * geo.n[1] + geo.v[2] * geo.n[2]);
            for (int a = 0; a < 3; a++)
                geo.v[a] -= vn_cut * geo.n[a];
        }
        wall_law(sim, w, q, &geo, l1, vn_cut, wt, &o);
        double *h = w->hist + wide * q + width;
        h[0] = c[k].n[0], h[1] = c[k].n[1], h[2] = c[k].n[2], h[3] = c[k].dist, h[4] = c[k].energy;
        w->facet[q] = c[k].tri;
        if (mw->wear) { /* the centre's velocity: the contact point's less the grain's spin */
            double arm[3] = {l1 * geo.n[0], l1 * geo.n[1], l1 * geo.n[2]}, spun[3], v[3];
            rbl_cross(om + 3 * (size_t)i, arm, spun);
            for (int a = 0; a < 3; a++)
                v[a] = v_contact[a] + spun[a];
            w->worn[q] = rbl_wear_volume(mw, geo.n, v_contact, v, o.f, sim->cfg.dt);
        }
    }
}

static void wall_pass(rbl_sim *sim)
{
    rbl_wall_list *w = &sim->wpairs;
    const rbl_grains *g = &sim->g;
    const int sync = sim->cfg.integrator == RBL_INTEGRATOR_SYNCHRONIZED;
    const double *vel = sync ? g->vel_eval : g->vel, *om = sync ? g->omega_eval : g->omega;
    /* each thread takes the wall contacts of the grains it sweeps (the floor's are those of
     * its lowest grains) when the list is indexed by these grains, else (with mesh walls,
     * whose slots go together) one thread, or an equal share */
    const int by_grain = w->start && sim->pairs.grains == g->n + g->ghosts;
    /* (a grain's contacts in one thread: its losses are summed in the list's order) */
    int threads = by_grain ? sim->threads : 1;
    const size_t per = w->cand_max ? w->cand_max : 1; /* a thread's mesh workspace */
    if (sim->n_meshes > 0 && (size_t)threads * per > sim->mesh_work_cap) {
        /* more threads than at the last build (they came back after sharing the cores):
           room for them, else as many as the build's workspace holds (at least one) */
        rbl_mesh_touch *more = realloc(sim->mesh_work, (size_t)threads * per * sizeof *more);
        if (more)
            sim->mesh_work = more, sim->mesh_work_cap = (size_t)threads * per;
        else
            threads = (int)(sim->mesh_work_cap / per);
    }
    const rbl_overlap_peak start = rbl_health_overlap_start(sim);
    rbl_overlap_peak deepest = start;
#pragma omp parallel num_threads(threads)
    {
        wall_thread wt = {.peak = start};
        rbl_exact_clear(&wt.work);
        rbl_exact_clear(&wt.through);
        size_t begin, end;
        if (by_grain) {
            rbl_sweep_range(sim, g->n, &begin, &end);
            begin = w->start[begin], end = w->start[end];
        } else {
            rbl_equal_share(w->n, &begin, &end);
        }
        int t, nt;
        rbl_thread_of_team(&t, &nt);
        rbl_mesh_touch *work = sim->mesh_work ? sim->mesh_work + (size_t)t * per : NULL;
        for (size_t q = begin; q < end; q++) {
            uint32_t code = w->wall[q];
            if (!rbl_wall_is_mesh(code))
                plane_contact(sim, w, q, vel, om, &wt);
            else if (rbl_wall_slot(code) == 0)
                mesh_contacts(sim, w, q, vel, om, work, &wt);
        }
#pragma omp critical(rbl_overlap_peak)
        {
            rbl_overlap_peak_take(&deepest, wt.peak.ratio, wt.peak.ids[0], wt.peak.ids[1],
                                  wt.peak.wall);
            if (wt.working) { /* exact: the same sum in any order */
                rbl_exact_merge(&sim->health.in[RBL_IN_WALLS], &wt.work);
                rbl_exact_merge(&sim->health.wall_through, &wt.through);
            }
        }
    }
    rbl_health_overlap_merge(sim, &deepest, sim->step + (sim->prepared ? 1u : 0u));
}

void rbl_forces_gather(rbl_sim *sim)
{
    if (!sim->forces_partial)
        return;
#pragma omp parallel num_threads(sim->threads)
    {
        size_t begin, end;
        rbl_sweep_range(sim, sim->g.n, &begin, &end);
        for (size_t k = begin; k < end; k++)
            rbl_gather_grain(sim, k);
    }
    sim->forces_partial = 0;
}

int rbl_forces_compute(rbl_sim *sim, rbl_error *err)
{
    const int sync = sim->cfg.integrator == RBL_INTEGRATOR_SYNCHRONIZED;
    const rbl_grains *g = &sim->g;
    if (!sim->packed_fresh &&
        !rbl_pack_grains(sim, sync ? g->vel_eval : g->vel, sync ? g->omega_eval : g->omega))
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu grains", g->n);
    sim->packed_fresh = 0;
    rbl_pair_pass(sim);
    wall_pass(sim);
    if (sim->prepared && sim->n_meshes > 0 && rbl_walls_wearing(sim)) { /* a step's forces */
        const int rc = rbl_walls_wear_add(sim, err);
        if (rc != RBL_OK)
            return rc;
    }
    sim->forces_partial = 1; /* rbl_gather_grain completes them, in the integrator's sweep */
    return RBL_OK;
}
