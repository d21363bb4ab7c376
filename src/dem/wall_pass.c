/* wall_pass.c — the grain-wall half of a force evaluation (seed 002 §2.3; walls: xi = r - d*,
 * lever arm l1 = d*): each thread walks its wall contacts in list order and makes each one's
 * geometry (a plane's; a mesh or primitive wall's contacts given to slots matched by normal);
 * the law then runs on blocks of them at once, in the pair pass's lanes with the wall as the
 * second body (contact_lanes.c: no spin of its own, the grain's mass, the wall's velocity at
 * the point), and each lane's results go out in the list's order, so a grain's losses are
 * summed as one contact at a time would: the same bits on any number of threads. SI. */
#include "contact_lanes.h"

#include <stdlib.h>
#include <string.h>

/* What a thread of the wall pass keeps for the health check: its deepest overlap, and the
 * work moving walls did on the grains this step. */
typedef struct wall_thread {
    rbl_overlap_peak peak;
    rbl_exact_sum work, through; /* the walls' work, and its magnitude contact by contact */
    int working;
} wall_thread;

/* A thread's wall contacts waiting for the law: the lanes' block, and what putting a lane out
 * needs beside it. */
typedef struct wall_lanes {
    rbl_lane_block b;
    double vn_cut[RBL_LANE_BLOCK];       /* wall_queue's vn_cut */
    double v_contact[RBL_LANE_BLOCK][3]; /* a wearing mesh's: the point's velocity, uncut */
    uint8_t wear[RBL_LANE_BLOCK];        /* the lane's mesh wears */
    const rbl_sim *sim;
    rbl_wall_list *w;
    const double *vel, *om; /* the velocities the evaluation reads */
    int per_pair;           /* the coefficients differ between pairs of materials */
    size_t lw, dash, wide;  /* the law's rows (rbl_hist_collision), the dashpots' row, and a
                               wall contact's history's width */
    int plain_pass; /* no moving wall's work to book, no events, no ages (the law's) */
    int plain;      /* and no lane of the block on a crease or on a wearing mesh */
    wall_thread wt;
} wall_lanes;

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

/* What every lane put out does, as one contact at a time: its losses (loss) onto its grain's,
 * in the wall list's order (the first evaluation ends no step: none), the law's rows of its
 * history back (the history and the slot in memory were still the last evaluation's), the
 * force and torque on the grain into its slot, the thread's deepest overlap. */
static inline __attribute__((always_inline)) void lane_common(wall_lanes *wl, int l,
                                                              const double loss[3])
{
    const rbl_sim *sim = wl->sim;
    rbl_wall_list *w = wl->w;
    const rbl_lane_block *b = &wl->b;
    const size_t q = b->q[l], lw = wl->lw;
    const uint32_t i = b->i[l];
    if (sim->prepared) {
        double *lost = sim->g.loss + 3 * (size_t)i;
        lost[0] += loss[0], lost[1] += loss[1], lost[2] += loss[2];
    }
    double *hist = w->hist + wl->wide * q, *out = w->out + RBL_WALL_OUT * q;
    for (size_t k = 0; k < lw; k++)
        hist[k] = b->h[k][l];
    out[0] = b->fx[l], out[1] = b->fy[l], out[2] = b->fz[l];
    out[3] = b->tix[l], out[4] = b->tiy[l], out[5] = b->tiz[l];
    w->touch[q] = 1;
    wall_thread *wt = &wl->wt;
    const double r = sim->g.radius[i], overlap = b->overlap[l];
    if (overlap >= wt->peak.ratio * r * (1.0 - 1e-12)) /* the division only when deeper */
        rbl_overlap_peak_take(&wt->peak, overlap / r, sim->g.id[i], UINT32_MAX,
                              (int)rbl_wall_number(w->wall[q], sim->n_walls) + 1);
}

/* Lane l of a computed block out, as one contact at a time, where more than lane_common is
 * asked: the crease's share of the dashpot's loss (vn_cut, the normal velocity the geometry
 * lacks of the contact point's: a mesh face's dashpot across a crease sees part of it,
 * mesh_contacts; its work is booked with the point's whole velocity, as the kick gives the
 * force to the grain: booked with the geometry's, a grain landing on a crease of a drum lost
 * energy unbooked, issue 70), the contact's age and event, a mesh's wear and a moving wall's
 * work. */
static __attribute__((noinline)) void lane_out(wall_lanes *wl, int l)
{
    const rbl_sim *sim = wl->sim;
    rbl_wall_list *w = wl->w;
    const rbl_lane_block *b = &wl->b;
    const rbl_contact_law *law = &sim->cfg.law;
    const size_t q = b->q[l], at = wl->dash;
    const uint32_t i = b->i[l];
    double *out = w->out + RBL_WALL_OUT * q;
    double *hist = w->hist + wl->wide * q;
    const rbl_contact_geom geo = rbl_lane_wall_geom(b, l);
    rbl_contact_out o = {.f = {b->fx[l], b->fy[l], b->fz[l]},
                         .tr = {b->tjx[l], b->tjy[l], b->tjz[l]},
                         .loss = {b->ld[l], b->lf[l], b->lr[l]}};
    const double vn_cut = wl->vn_cut[l];
    if (vn_cut != 0.0) { /* the mean of the dashpot's two ends over the rest of the motion */
        const double *dash = hist + at;
        const double dash_was = dash[0] * geo.n[0] + dash[1] * geo.n[1] + dash[2] * geo.n[2];
        o.loss[RBL_LOSS_DAMPING] -= 0.5 * (dash_was + b->h[at][l] * geo.n[0] +
                                           b->h[at + 1][l] * geo.n[1] +
                                           b->h[at + 2][l] * geo.n[2]) * vn_cut * sim->cfg.dt;
    }
    double tr_was[3]; /* (before lane_common writes the history and the slot) */
    torque_was(law, hist, geo.n, w->touch[q], tr_was);
    const double f_was[3] = {w->touch[q] ? out[0] : 0.0, w->touch[q] ? out[1] : 0.0,
                             w->touch[q] ? out[2] : 0.0};
    lane_common(wl, l, o.loss);
    if (law->collisions & RBL_LAW_AGES) /* its age (contact_study.c) */
        hist[rbl_hist_age(law)] += 1.0;
    if (law->collisions & RBL_LAW_EVENTS) { /* the contact's event (collisions.c) */
        double *hc = hist + rbl_hist_collision(law);
        if (hc[0] == 0.0)
            rbl_collision_begin(hc, &geo);
        if (sim->prepared)
            hc[4] += o.loss[0] + o.loss[1] + o.loss[2];
    }
    if (wl->wear[l]) { /* the centre's velocity: the contact point's less the grain's spin */
        const rbl_mesh_wall *mw = &sim->meshes[rbl_wall_mesh(w->wall[q])];
        const double *vc = wl->v_contact[l];
        double arm[3] = {b->l1[l] * geo.n[0], b->l1[l] * geo.n[1], b->l1[l] * geo.n[2]};
        double spun[3], v[3];
        rbl_cross(wl->om + 3 * (size_t)i, arm, spun);
        for (int a = 0; a < 3; a++)
            v[a] = vc[a] + spun[a];
        w->worn[q] = rbl_wear_volume(mw, geo.n, vc, v, o.f, sim->cfg.dt);
    }
    if (!sim->walls_moving || !sim->prepared)
        return;
    const rbl_wall_pose *pose = rbl_wall_pose_of_code(sim, w->wall[q]);
    if (pose->moving) {
        const double work = wall_work(sim, i, &geo, pose, f_was, tr_was, &o);
        rbl_exact_add(&wl->wt.work, work);
        rbl_exact_add(&wl->wt.through, fabs(work));
        wl->wt.working = 1;
    }
}

/* The waiting contacts through the law and out, in the list's order; the block is empty
 * after. The padding lanes, up to a whole vector, repeat the last contact: valid numbers,
 * results unused. */
static void lanes_flush(wall_lanes *wl)
{
    rbl_lane_block *b = &wl->b;
    const int n = b->n;
    if (n == 0)
        return;
    const rbl_contact_law *law = &wl->sim->cfg.law;
    const size_t lw = wl->lw;
    for (int l = n; l < (n + RBL_LANES - 1) / RBL_LANES * RBL_LANES; l++) {
#define PAD(field) b->field[l] = b->field[n - 1]
        PAD(nx), PAD(ny), PAD(nz), PAD(overlap), PAD(a2), PAD(r_eff), PAD(m_eff), PAD(l1);
        PAD(vx), PAD(vy), PAD(vz), PAD(wix), PAD(wiy), PAD(wiz);
        PAD(y_star), PAD(g_star);
#define PAD_COLUMN(slot, ...) PAD(slot);
        RBL_PAIR_COEFS(PAD_COLUMN)
#undef PAD_COLUMN
        for (size_t k = 0; k < lw; k++)
            PAD(h[k]);
#undef PAD
    }
    rbl_lanes_compute(b, law, wl->sim->cfg.dt, 0.0, 1);
    if (wl->plain)
        for (int l = 0; l < n; l++) {
            const double loss[3] = {b->ld[l], b->lf[l], b->lr[l]};
            lane_common(wl, l, loss);
        }
    else
        for (int l = 0; l < n; l++)
            lane_out(wl, l);
    b->n = 0;
    wl->plain = wl->plain_pass;
}

/* Wall contact q whose geometry is geo (lever arm l1) into the thread's next lane: the law
 * runs on it when the block is full or a contact that parts is booked. vn_cut: as lane_out's;
 * v_contact: a wearing mesh's contact point velocity before the cut (NULL: no wear). */
static void wall_queue(wall_lanes *wl, size_t q, const rbl_contact_geom *geo, double l1,
                       double vn_cut, const double *v_contact)
{
    rbl_lane_block *b = &wl->b;
    const rbl_sim *sim = wl->sim;
    const rbl_wall_list *w = wl->w;
    const int l = b->n;
    const uint32_t i = w->grain[q];
    b->q[l] = q, b->i[l] = i;
    b->nx[l] = geo->n[0], b->ny[l] = geo->n[1], b->nz[l] = geo->n[2];
    b->overlap[l] = geo->overlap, b->a2[l] = geo->a2;
    b->r_eff[l] = geo->r_eff, b->m_eff[l] = geo->m_eff, b->l1[l] = l1;
    b->vx[l] = geo->v[0], b->vy[l] = geo->v[1], b->vz[l] = geo->v[2];
    b->wix[l] = geo->w[0], b->wiy[l] = geo->w[1], b->wiz[l] = geo->w[2];
    const double *hist = w->hist + wl->wide * q;
    for (size_t k = 0, lw = wl->lw; k < lw; k++)
        b->h[k][l] = hist[k];
    if (wl->per_pair)
        rbl_lane_coef(b, l, rbl_pair_coef_of(sim, sim->g.material[i],
                                             rbl_wall_material(sim, w->wall[q])));
    wl->vn_cut[l] = vn_cut;
    wl->wear[l] = v_contact != NULL;
    if (v_contact)
        memcpy(wl->v_contact[l], v_contact, sizeof wl->v_contact[l]);
    if (vn_cut != 0.0 || v_contact)
        wl->plain = 0;
    if (++b->n == RBL_LANE_BLOCK)
        lanes_flush(wl);
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
 * centre to the wall now, and a moving wall's work over the step). The waiting lanes go out
 * first: the grain's losses are summed in the list's order. */
static void wall_apart(wall_lanes *wl, size_t q, const double n[3], double dist)
{
    const rbl_sim *sim = wl->sim;
    rbl_wall_list *w = wl->w;
    if (!w->touch[q])
        return;
    if (sim->prepared)
        lanes_flush(wl);
    const size_t wide = rbl_wall_hist_width(&sim->cfg.law);
    const uint32_t i = w->grain[q];
    const rbl_wall_pose *pose = rbl_wall_pose_of_code(sim, w->wall[q]);
    rbl_contact_geom geo;
    double l1;
    rbl_wall_frame(sim, i, n, dist, wl->vel, wl->om, pose, rbl_velocity_lag(sim), &geo, &l1);
    if (sim->prepared)
        rbl_account_contact_end(sim, i, SIZE_MAX, rbl_wall_material(sim, w->wall[q]),
                                w->hist + wide * q, &geo, sim->g.loss, sim->g.loss_cohesion);
    if (sim->prepared && sim->walls_moving && pose->moving) {
        double tr_was[3];
        torque_was(&sim->cfg.law, w->hist + wide * q, n, 1, tr_was);
        const double work =
            wall_work_apart(sim, i, n, dist, pose, w->out + RBL_WALL_OUT * q, tr_was);
        rbl_exact_add(&wl->wt.work, work);
        rbl_exact_add(&wl->wt.through, fabs(work));
        wl->wt.working = 1;
    }
    w->touch[q] = 0;
    memset(w->hist + wide * q, 0, wide * sizeof *w->hist);
}

/* A mesh slot q that no longer touches: as wall_apart, with the normal and distance its last
 * evaluation kept. */
static void slot_apart(wall_lanes *wl, size_t q)
{
    const rbl_wall_list *w = wl->w;
    if (!w->touch[q])
        return;
    const rbl_contact_law *law = &wl->sim->cfg.law;
    const double *h = w->hist + rbl_wall_hist_width(law) * q + rbl_hist_width(law);
    wall_apart(wl, q, h, h[3]);
}

/* A plane wall's contact q. */
static void plane_contact(wall_lanes *wl, size_t q)
{
    const rbl_sim *sim = wl->sim;
    const rbl_wall_list *w = wl->w;
    rbl_contact_geom geo;
    double l1;
    if (rbl_wall_geometry(sim, q, wl->vel, wl->om, rbl_velocity_lag(sim), &geo, &l1)) {
        wall_queue(wl, q, &geo, l1, 0.0, NULL);
    } else if (w->touch[q]) {
        const rbl_plane *pl = &sim->walls[w->wall[q]];
        const double *x = sim->g.pos + 3 * (size_t)w->grain[q];
        wall_apart(wl, q, pl->n,
                   pl->n[0] * x[0] + pl->n[1] * x[1] + pl->n[2] * x[2] + pl->offset);
    }
}

/* A grain against a mesh wall (or a primitive wall, its contacts in closed form): the slots
 * q0 .. q0 + RBL_MESH_SLOTS - 1 of one (grain, mesh). Its contacts (mesh_contact.c: each
 * feature once, nearest first) go to the slots whose last normal is closest to theirs (so a
 * contact's history follows a grain sliding from one facet to the next), else to a free slot;
 * slots left over no longer touch. work holds the group's candidates. */
static void mesh_contacts(wall_lanes *wl, size_t q0, rbl_mesh_touch *work)
{
    const rbl_sim *sim = wl->sim;
    rbl_wall_list *w = wl->w;
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
                slot_apart(wl, q0 + (size_t)s);
            }
    for (int s = 0; s < RBL_MESH_SLOTS; s++)
        if (!taken[s])
            slot_apart(wl, q0 + (size_t)s);
    for (size_t k = 0; k < n; k++) {
        size_t q = q0 + (size_t)slot_of[k];
        rbl_contact_geom geo;
        double l1, v_contact[3];
        rbl_wall_frame(sim, i, c[k].n, c[k].dist, wl->vel, wl->om, &mw->pose,
                       rbl_velocity_lag(sim), &geo, &l1);
        memcpy(v_contact, geo.v, sizeof v_contact);
        double vn_cut = 0.0;
        if (c[k].share < 1.0) { /* across a crease (mesh_contact.c): its dashpot's share */
            vn_cut = (1.0 - c[k].share) *
                     (geo.v[0] * geo.n[0] + geo.v[1] * geo.n[1] + geo.v[2] * geo.n[2]);
            for (int a = 0; a < 3; a++)
                geo.v[a] -= vn_cut * geo.n[a];
        }
        wall_queue(wl, q, &geo, l1, vn_cut, mw->wear ? v_contact : NULL);
        /* (past the law's rows, which alone wait in the lanes) */
        double *h = w->hist + wide * q + width;
        h[0] = c[k].n[0], h[1] = c[k].n[1], h[2] = c[k].n[2], h[3] = c[k].dist, h[4] = c[k].energy;
        w->facet[q] = c[k].tri;
    }
}

void rbl_wall_pass(rbl_sim *sim)
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
        wall_lanes wl __attribute__((aligned(64)));
        wl.b.n = 0;
        wl.sim = sim, wl.w = w, wl.vel = vel, wl.om = om;
        wl.per_pair = sim->coef && !sim->coef_uniform;
        wl.lw = rbl_hist_collision(&sim->cfg.law), wl.dash = rbl_hist_dash(&sim->cfg.law);
        wl.wide = rbl_wall_hist_width(&sim->cfg.law);
        wl.plain_pass = !(sim->walls_moving && sim->prepared) && !sim->cfg.law.collisions;
        wl.plain = wl.plain_pass;
        wl.wt = (wall_thread){.peak = start};
        rbl_exact_clear(&wl.wt.work);
        rbl_exact_clear(&wl.wt.through);
        if (begin < end && !wl.per_pair) /* one set of coefficients: filled in once */
            rbl_lane_coef_all(&wl.b, sim);
        for (size_t q = begin; q < end; q++) {
            uint32_t code = w->wall[q];
            if (!rbl_wall_is_mesh(code))
                plane_contact(&wl, q);
            else if (rbl_wall_slot(code) == 0)
                mesh_contacts(&wl, q, work);
        }
        lanes_flush(&wl);
#pragma omp critical(rbl_overlap_peak)
        {
            const wall_thread *wt = &wl.wt;
            rbl_overlap_peak_take(&deepest, wt->peak.ratio, wt->peak.ids[0], wt->peak.ids[1],
                                  wt->peak.wall);
            if (wt->working) { /* exact: the same sum in any order */
                rbl_exact_merge(&sim->health.in[RBL_IN_WALLS], &wt->work);
                rbl_exact_merge(&sim->health.wall_through, &wt->through);
            }
        }
    }
    rbl_health_overlap_merge(sim, &deepest, sim->step + (sim->prepared ? 1u : 0u));
}
