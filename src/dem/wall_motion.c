/* wall_motion.c — walls that move (issue 14): translation at a constant velocity, a turn about
 * an axis at a constant rate (a drum, a mixer's blade), a sinusoidal vibration, and a servo that
 * moves a wall to hold the grains' push on it at a target (a piston). The kinematic terms are
 * functions of the time alone, so a restart finds the wall where the run left it; a servo's
 * travel and speed are its state (checkpointed).
 *
 * A plane's normal and offset are set to its pose at each force evaluation; a mesh is not moved
 * at all: the grains near it are taken into the frame it was added in (rbl_pose_to_own) and its
 * contacts' normals back (rbl_pose_turn), so a mesh of any size costs nothing to move. The
 * contact law sees the wall's velocity at the contact point and its spin (contact_kernel.h).
 * A wall may instead be moved by a table (wall_table.c): its pose is the table's at the time,
 * turned about its pivot (m.center). */
#include "contact_kernel.h"

#include "../base/rotation.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double norm3(const double v[3]) { return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

rbl_wall_pose *rbl_wall_pose_of(rbl_sim *sim, int wall)
{
    return wall < sim->n_walls ? &sim->walls[wall].pose : &sim->meshes[wall - sim->n_walls].pose;
}

/* A unit copy of v (length > 0 and finite, checked by the caller). */
static void unit(const double v[3], double out[3])
{
    double len = norm3(v);
    out[0] = v[0] / len, out[1] = v[1] / len, out[2] = v[2] / len;
}

static int finite3(const double v[3])
{
    return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]);
}

/* The distance of x from the axis through c along the unit a. */
static double axis_distance(const double x[3], const double c[3], const double a[3])
{
    double y[3] = {x[0] - c[0], x[1] - c[1], x[2] - c[2]}, t[3];
    rbl_cross(y, a, t);
    return norm3(t);
}

/* The distance of x from the point c. */
static double point_distance(const double x[3], const double c[3])
{
    const double y[3] = {x[0] - c[0], x[1] - c[1], x[2] - c[2]};
    return norm3(y);
}

/* How far x lies from what pose p turns about: its axis through c, or (a table) the point c. */
static double turn_distance(const rbl_wall_pose *p, const double x[3], const double c[3])
{
    return p->table ? point_distance(x, c) : axis_distance(x, c, p->m.axis);
}

/* The largest distance of a mesh's corners from what pose p turns about (through c). */
static double mesh_reach(const rbl_mesh *mesh, const rbl_wall_pose *p, const double c[3])
{
    double most = 0.0;
    for (size_t v = 0; v < mesh->n_vertices; v++)
        most = fmax(most, turn_distance(p, mesh->vertex + 3 * v, c));
    return most;
}

const char *rbl_wall_indices(int n)
{
    static _Thread_local char text[160];
    if (n <= 0)
        snprintf(text, sizeof text, "the scene has no walls");
    else
        snprintf(text, sizeof text, "the scene has %d wall%s, indices 0 to %d (index K is wall "
                 "K + 1 in messages, thermo.csv and walls.vtp)", n, n == 1 ? "" : "s", n - 1);
    return text;
}

/* The motion checked (finite, a frequency with a vibration, an axis with a turn, a servo's
 * direction, force, speed and gain) and made ready: axes unit, a servo's gain 0 made
 * speed / force. */
static int motion_checked(const rbl_sim *sim, int wall, const rbl_wall_motion *motion,
                          rbl_wall_motion *out, rbl_error *err)
{
    const int n = sim->n_walls + sim->n_meshes;
    if (wall < 0 || wall >= n)
        return rbl_error_set(err, RBL_EINVAL, "wall motion: index %d names no wall: %s", wall,
                             rbl_wall_indices(n));
    rbl_wall_motion m = *motion;
    if (!finite3(m.velocity) || !finite3(m.amplitude) || !finite3(m.axis) ||
        !finite3(m.center) || !isfinite(m.omega) || !isfinite(m.frequency))
        return rbl_error_set(err, RBL_EINVAL, "wall %d: its motion must be finite numbers",
                             wall + 1);
    const double amplitude = norm3(m.amplitude);
    if (amplitude > 0.0 && !(m.frequency > 0.0))
        return rbl_error_set(err, RBL_EINVAL,
                             "wall %d: a vibration needs a frequency > 0 Hz: '%g'", wall + 1,
                             m.frequency);
    const double axis = norm3(m.axis);
    if (m.omega != 0.0 && !(axis > 0.0))
        return rbl_error_set(err, RBL_EINVAL, "wall %d: a rotation needs an axis of non-zero "
                             "length", wall + 1);
    if (axis > 0.0)
        unit(m.axis, m.axis);
    if (m.servo) {
        if (!finite3(m.servo_axis) || !(norm3(m.servo_axis) > 0.0))
            return rbl_error_set(err, RBL_EINVAL, "wall %d: a servo needs the direction it "
                                 "advances in (non-zero)", wall + 1);
        if (!(m.servo_force > 0.0 && isfinite(m.servo_force)))
            return rbl_error_set(err, RBL_EINVAL, "wall %d: a servo's target force must be "
                                 "> 0 N: '%g'", wall + 1, m.servo_force);
        if (!(m.servo_speed > 0.0 && isfinite(m.servo_speed)))
            return rbl_error_set(err, RBL_EINVAL, "wall %d: a servo's largest speed must be "
                                 "> 0 m/s: '%g'", wall + 1, m.servo_speed);
        if (!(m.servo_gain >= 0.0 && isfinite(m.servo_gain)))
            return rbl_error_set(err, RBL_EINVAL, "wall %d: a servo's gain must be >= 0: '%g'",
                                 wall + 1, m.servo_gain);
        unit(m.servo_axis, m.servo_axis);
        if (m.servo_gain == 0.0)
            m.servo_gain = m.servo_speed / m.servo_force;
    }
    *out = m;
    return RBL_OK;
}

static int wall_set(rbl_sim *sim, int wall);

int rbl_sim_set_wall_motion(rbl_sim *sim, int wall, const rbl_wall_motion *motion,
                            rbl_error *err)
{
    rbl_wall_motion m;
    int rc = motion_checked(sim, wall, motion, &m, err);
    if (rc != RBL_OK)
        return rc;
    const double amplitude = norm3(m.amplitude);
    rbl_wall_pose *p = rbl_wall_pose_of(sim, wall);
    rbl_motion_table_free(p->table);
    memset(p, 0, sizeof *p);
    p->m = m;
    p->turning = m.omega != 0.0;
    p->moving = p->turning || m.servo || norm3(m.velocity) > 0.0 || amplitude > 0.0;
    p->quat[0] = 1.0;
    if (p->turning && wall >= sim->n_walls)
        p->reach = mesh_reach(&sim->meshes[wall - sim->n_walls].mesh, p, m.center);
    return wall_set(sim, wall);
}

/* Wall `wall` as added until its motion (set in its pose) moves it; the walls' moving flag. */
static int wall_set(rbl_sim *sim, int wall)
{
    if (wall < sim->n_walls) { /* as added, until a motion moves it */
        rbl_plane *pl = &sim->walls[wall];
        memcpy(pl->n, pl->n0, sizeof pl->n);
        pl->offset = pl->offset0;
    }
    sim->walls_moving = 0;
    for (int k = 0; k < sim->n_walls + sim->n_meshes; k++)
        sim->walls_moving |= rbl_wall_pose_of(sim, k)->moving;
    rbl_walls_move_to(sim, sim->time); /* a pose from now on (sources place grains by it) */
    sim->prepared = 0;
    return RBL_OK;
}

int rbl_wall_table_install(rbl_sim *sim, int wall, const rbl_wall_table *table, double t0,
                           rbl_error *err)
{
    const int n = sim->n_walls + sim->n_meshes;
    if (wall < 0 || wall >= n)
        return rbl_error_set(err, RBL_EINVAL, "wall table: index %d names no wall: %s", wall,
                             rbl_wall_indices(n));
    rbl_motion_table *T;
    int rc = rbl_motion_table_make(table, t0, &T, NULL, err);
    if (rc != RBL_OK)
        return rbl_error_prefix(err, rc, "wall %d", wall + 1);
    rbl_wall_pose *p = rbl_wall_pose_of(sim, wall);
    rbl_motion_table_free(p->table);
    memset(p, 0, sizeof *p);
    p->table = T;
    memcpy(p->m.center, T->pivot, sizeof p->m.center);
    p->moving = 1, p->turning = T->turns;
    p->quat[0] = 1.0;
    if (p->turning && wall >= sim->n_walls)
        p->reach = mesh_reach(&sim->meshes[wall - sim->n_walls].mesh, p, T->pivot);
    return wall_set(sim, wall);
}

/* Where the motion m (axis unit), at time t, would have to start a point from for it to be at
 * x now: x0 = c + R(omega t)^T (x - c - v t - A sin(2 pi f t)), c its axis's point then. */
static void start_of(const rbl_wall_motion *m, double t, const double x[3], double x0[3])
{
    const double s = sin(2.0 * M_PI * m->frequency * t), half = -0.5 * m->omega * t;
    const double q[4] = {cos(half), sin(half) * m->axis[0], sin(half) * m->axis[1],
                         sin(half) * m->axis[2]};
    double R[3][3], y[3];
    rbl_quat_matrix(q, R); /* the turn back by omega t */
    for (int a = 0; a < 3; a++)
        y[a] = x[a] - m->center[a] - m->velocity[a] * t - m->amplitude[a] * s;
    for (int a = 0; a < 3; a++)
        x0[a] = m->center[a] + R[a][0] * y[0] + R[a][1] * y[1] + R[a][2] * y[2];
}

/* Where a point now at x must start from for the new motion (m, from t = 0) to bring it to x
 * at t; without m (a table starting now, at rest at its first row) x itself. */
static void start_from(const rbl_wall_motion *m, double t, const double x[3], double x0[3])
{
    if (m)
        start_of(m, t, x, x0);
    else
        x0[0] = x[0], x0[1] = x[1], x0[2] = x[2];
}

/* Wall `wall`'s geometry as added made the one the new motion (m, or a table: NULL) starts
 * from, so that the wall stays where it is now, at time t. */
static int rebase(rbl_sim *sim, int wall, const rbl_wall_motion *m, double t, rbl_error *err)
{
    if (wall < sim->n_walls) {
        rbl_plane *pl = &sim->walls[wall];
        const double p_now[3] = {-pl->offset * pl->n[0], -pl->offset * pl->n[1],
                                 -pl->offset * pl->n[2]};
        double p0[3], tip[3], n_tip[3] = {p_now[0] + pl->n[0], p_now[1] + pl->n[1],
                                          p_now[2] + pl->n[2]};
        start_from(m, t, p_now, p0);
        start_from(m, t, n_tip, tip);
        for (int a = 0; a < 3; a++)
            pl->n0[a] = tip[a] - p0[a];
        const double len = norm3(pl->n0);
        for (int a = 0; a < 3; a++)
            pl->n0[a] /= len;
        pl->offset0 = -(pl->n0[0] * p0[0] + pl->n0[1] * p0[1] + pl->n0[2] * p0[2]);
        return RBL_OK;
    }
    rbl_mesh_wall *mw = &sim->meshes[wall - sim->n_walls];
    const size_t nv = mw->mesh.n_vertices;
    double *now = malloc((3 * nv + 1) * sizeof *now);
    if (!now)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for a mesh of %zu corners", nv);
    rbl_sim_wall_place(sim, wall, mw->mesh.vertex, nv, now);
    for (size_t v = 0; v < nv; v++)
        start_from(m, t, now + 3 * v, mw->mesh.vertex + 3 * v);
    free(now);
    if (mw->prim) { /* its frame as its corners: the origin and its axes' tips */
        double own[4][3], at[4][3], back[4][3];
        for (int a = 0; a < 3; a++) {
            own[0][a] = mw->prim->o[a];
            for (int k = 0; k < 3; k++)
                own[k + 1][a] = mw->prim->o[a] + mw->prim->e[k][a];
        }
        rbl_sim_wall_place(sim, wall, own[0], 4, at[0]);
        for (int k = 0; k < 4; k++)
            start_from(m, t, at[k], back[k]);
        rbl_prim_wall_set_frame(mw->prim, back);
    }
    rbl_triangle_bvh_free(&mw->bvh);
    if (rbl_triangle_bvh_build(&mw->bvh, &mw->mesh) != RBL_OK)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for a mesh of %zu facets",
                             mw->mesh.n_triangles);
    return RBL_OK;
}

/* Wall `wall` (re-based) given the motion `from` or the table `table` now, its travel since
 * t = 0 carried over; the forces hold, the next step builds the lists anew (a mesh's contacts
 * were found in its old frame). */
static int set_now(rbl_sim *sim, int wall, const rbl_wall_motion *from,
                   const rbl_wall_table *table, rbl_error *err)
{
    const int prepared = sim->prepared;
    rbl_wall_pose *p = rbl_wall_pose_of(sim, wall);
    double travelled[3]; /* since t = 0, carried over the new motion's formula */
    for (int a = 0; a < 3; a++)
        travelled[a] = p->shift0[a] + (p->moving ? p->shift[a] : 0.0);
    int rc = from ? rbl_sim_set_wall_motion(sim, wall, from, err)
                  : rbl_wall_table_install(sim, wall, table, sim->time, err);
    if (rc != RBL_OK)
        return rc;
    for (int a = 0; a < 3; a++)
        p->shift0[a] = travelled[a] - (p->moving ? p->shift[a] : 0.0);
    sim->prepared = prepared;
    sim->max_disp2 = INFINITY;
    return RBL_OK;
}

int rbl_sim_set_wall_motion_now(rbl_sim *sim, int wall, const rbl_wall_motion *motion,
                                rbl_error *err)
{
    rbl_wall_motion m;
    int rc = motion_checked(sim, wall, motion, &m, err);
    if (rc != RBL_OK)
        return rc;
    const double t = sim->time;
    /* the motion's formula runs from t = 0: its axis passes through `center` now, so through
       center - v t at 0, and the wall starts from where that formula brings it here now */
    rbl_wall_motion from = *motion;
    for (int a = 0; a < 3; a++)
        m.center[a] = from.center[a] = motion->center[a] - m.velocity[a] * t;
    if ((rc = rebase(sim, wall, &m, t, err)) != RBL_OK)
        return rc;
    return set_now(sim, wall, &from, NULL, err);
}

int rbl_sim_set_wall_table(rbl_sim *sim, int wall, const rbl_wall_table *table, int now,
                           rbl_error *err)
{
    const int n = sim->n_walls + sim->n_meshes;
    if (!now || wall < 0 || wall >= n) /* (an index of no wall refused there) */
        return rbl_wall_table_install(sim, wall, table, 0.0, err);
    rbl_motion_table *T; /* checked before the wall is re-based */
    int rc = rbl_motion_table_make(table, sim->time, &T, NULL, err);
    if (rc != RBL_OK)
        return rbl_error_prefix(err, rc, "wall %d", wall + 1);
    rbl_motion_table_free(T);
    if ((rc = rebase(sim, wall, NULL, sim->time, err)) != RBL_OK)
        return rc;
    return set_now(sim, wall, NULL, table, err);
}

/* Pose p's rotation from its angle about its axis. */
static void turn_by_angle(rbl_wall_pose *p)
{
    const double half = 0.5 * p->angle, sh = sin(half);
    const double q[4] = {cos(half), sh * p->m.axis[0], sh * p->m.axis[1], sh * p->m.axis[2]};
    rbl_quat_matrix(q, p->rot);
}

/* Pose p at time t. Its velocity is the one the grains' forces at t are taken with: under the
 * seed's mid-step integrator (dt > 0) the grains' velocities are those of the step that
 * ends at t, (x(t) - x(t - dt)) / dt, and a vibration's is likewise its displacement over that
 * step over dt, not its velocity at t: the dashpot then works on the motion the wall's work is
 * booked by (at 10 steps a period its velocity at t is a fifth of a period later, and the
 * account of a bed on a vibrating floor did not close); synchronized (dt = 0), its velocity at
 * t. */
static void pose_at(rbl_wall_pose *p, double t, double dt)
{
    if (p->table) {
        rbl_motion_table_at(p->table, t, dt, p->shift, p->quat, p->vel, p->spin);
        rbl_quat_matrix(p->quat, p->rot);
        return;
    }
    const rbl_wall_motion *m = &p->m;
    const double w = 2.0 * M_PI * m->frequency, s = sin(w * t);
    const double c = dt > 0.0 && w > 0.0 ? (s - sin(w * (t - dt))) / (w * dt) : cos(w * t);
    for (int a = 0; a < 3; a++) {
        p->shift[a] = m->velocity[a] * t + m->amplitude[a] * s + p->travel * m->servo_axis[a];
        p->vel[a] = m->velocity[a] + m->amplitude[a] * w * c + p->speed * m->servo_axis[a];
        p->spin[a] = m->omega * m->axis[a];
    }
    p->angle = m->omega * t;
    turn_by_angle(p);
}

/* Plane k where its pose puts it. */
static void place_plane(rbl_sim *sim, int k)
{
    rbl_plane *pl = &sim->walls[k];
    /* its point nearest the origin as added, where it is now */
    double x0[3] = {-pl->offset0 * pl->n0[0], -pl->offset0 * pl->n0[1], -pl->offset0 * pl->n0[2]},
           x[3];
    rbl_sim_wall_place(sim, k, x0, 1, x);
    rbl_pose_turn(&pl->pose, pl->n0, pl->n);
    pl->offset = -(pl->n[0] * x[0] + pl->n[1] * x[1] + pl->n[2] * x[2]);
}

void rbl_walls_move_to(rbl_sim *sim, double t)
{
    if (!sim->walls_moving)
        return;
    const double step_dt = sim->cfg.integrator == RBL_INTEGRATOR_MIDSTEP ? sim->cfg.dt : 0.0;
    for (int k = 0; k < sim->n_walls; k++)
        if (sim->walls[k].pose.moving) {
            pose_at(&sim->walls[k].pose, t, step_dt);
            place_plane(sim, k);
        }
    for (int k = 0; k < sim->n_meshes; k++)
        if (sim->meshes[k].pose.moving)
            pose_at(&sim->meshes[k].pose, t, step_dt);
}

void rbl_walls_at_build(rbl_sim *sim)
{
    if (!sim->walls_moving)
        return;
    for (int k = 0; k < sim->n_walls + sim->n_meshes; k++) {
        rbl_wall_pose *p = rbl_wall_pose_of(sim, k);
        if (!p->moving)
            continue;
        memcpy(p->shift, p->build_shift, sizeof p->shift);
        p->angle = p->build_angle;
        if (p->table) {
            memcpy(p->quat, p->build_quat, sizeof p->quat);
            rbl_quat_matrix(p->quat, p->rot);
        } else {
            turn_by_angle(p);
        }
        if (k < sim->n_walls)
            place_plane(sim, k);
    }
}

void rbl_walls_planes_swap_step_start(rbl_sim *sim)
{
    if (!sim->walls_moving)
        return;
    for (int k = 0; k < sim->n_walls; k++) {
        rbl_wall_pose *p = &sim->walls[k].pose;
        if (!p->moving)
            continue;
        double rot[3][3], shift[3];
        memcpy(rot, p->rot, sizeof rot), memcpy(shift, p->shift, sizeof shift);
        memcpy(p->rot, p->prev_rot, sizeof rot), memcpy(p->shift, p->prev_shift, sizeof shift);
        memcpy(p->prev_rot, rot, sizeof rot), memcpy(p->prev_shift, shift, sizeof shift);
        place_plane(sim, k); /* a function of the pose alone: twice, the same bits again */
    }
}

void rbl_sim_wall_place(const rbl_sim *sim, int wall, const double *x0, size_t n, double *x)
{
    const rbl_wall_pose *p = rbl_wall_pose_of((rbl_sim *)sim, wall);
    for (size_t k = 0; k < n; k++) {
        const double *y = x0 + 3 * k;
        double *o = x + 3 * k;
        if (!p->moving) {
            o[0] = y[0], o[1] = y[1], o[2] = y[2];
        } else if (!p->turning) {
            o[0] = y[0] + p->shift[0], o[1] = y[1] + p->shift[1], o[2] = y[2] + p->shift[2];
        } else {
            const double *c = p->m.center;
            double d[3] = {y[0] - c[0], y[1] - c[1], y[2] - c[2]}, r[3];
            rbl_pose_turn(p, d, r);
            for (int a = 0; a < 3; a++)
                o[a] = r[a] + c[a] + p->shift[a];
        }
    }
}

/* Wall contact q's stiffness dF/dxi and damping coefficient now. */
static void contact_stiffness(const rbl_sim *sim, size_t q, double *k, double *gamma)
{
    const rbl_wall_list *w = &sim->wpairs;
    const rbl_contact_law *law = &sim->cfg.law;
    rbl_contact_geom geo;
    double l1;
    *k = *gamma = 0.0;
    if (!rbl_wall_geometry(sim, q, sim->g.vel, sim->g.omega, 0.0, &geo, &l1))
        return;
    uint32_t i = w->grain[q];
    const rbl_pair_coef *pc =
        rbl_pair_coef_of(sim, sim->g.material[i], rbl_wall_material(sim, w->wall[q]));
    double xi = fmax(geo.overlap, 0.0), a = 0.0;
    if (law->cohesion == RBL_COHESION_JKR)
        a = rbl_jkr_radius(geo.overlap, geo.r_eff, rbl_jkr_c(pc->cohesion, pc->y_star));
    geo.overlap = xi;
    rbl_contact_coef c;
    rbl_contact_coefficients(law, pc, &geo, a, &c);
    /* a Hertz spring's k xi grows as xi^(3/2): its slope is 3/2 k */
    *k = law->from_materials || law->normal == RBL_NORMAL_HERTZ ? 1.5 * c.kn : c.kn;
    *gamma = fabs(c.gn);
}

void rbl_walls_servo(rbl_sim *sim)
{
    if (!sim->walls_moving)
        return;
    const rbl_wall_list *w = &sim->wpairs;
    const int n = sim->n_walls + sim->n_meshes;
    const double dt = sim->cfg.dt;
    for (int k = 0; k < n; k++) {
        rbl_wall_pose *p = rbl_wall_pose_of(sim, k);
        if (!p->m.servo)
            continue;
        /* the grains' push against its travel, and the summed stiffness K and damping G of
           its contacts, exact sums: the same bits whatever the grains' order or the process
           that holds each */
        const double *a = p->m.servo_axis;
        rbl_exact_sum sum[3];
        for (int s = 0; s < 3; s++)
            rbl_exact_clear(&sum[s]);
        for (size_t q = 0; q < w->n; q++) {
            if (rbl_wall_number(w->wall[q], sim->n_walls) != (size_t)k || !w->touch[q])
                continue;
            const double *o = w->out + RBL_WALL_OUT * q;
            double kq, gq;
            contact_stiffness(sim, q, &kq, &gq);
            rbl_exact_add(&sum[0], o[0] * a[0] + o[1] * a[1] + o[2] * a[2]);
            rbl_exact_add(&sum[1], kq);
            rbl_exact_add(&sum[2], gq);
        }
        if (sim->peers)
            sim->peers->sum_exact(sim->peers->ctx, sum, 3);
        const double push = rbl_exact_value(&sum[0]), stiff = rbl_exact_value(&sum[1]);
        const double damp = rbl_exact_value(&sum[2]);
        /* u_{n+1} = g (F - P_{n+1}), P_{n+1} = K (s_n + u_n dt) + G u_n: with a = g K dt,
           b = g G the speeds follow z^2 + (a + b - 1) z - b = 0, whose roots lie inside the
           unit circle when b < 1 and a + 2 b < 2 (Jury). The gain is kept to a quarter of
           that bound, so the servo settles instead of swinging between its speed limits. */
        double gain = p->m.servo_gain, bound = 0.5 / (stiff * dt + 2.0 * damp);
        gain = gain < bound ? gain : bound;
        double u = gain * (p->m.servo_force - push);
        p->speed = fmax(-p->m.servo_speed, fmin(p->m.servo_speed, u));
    }
}

void rbl_walls_step(rbl_sim *sim, double t)
{
    if (!sim->walls_moving)
        return;
    const int n = sim->n_walls + sim->n_meshes;
    for (int k = 0; k < n; k++) {
        rbl_wall_pose *p = rbl_wall_pose_of(sim, k);
        memcpy(p->prev_rot, p->rot, sizeof p->rot);
        memcpy(p->prev_shift, p->shift, sizeof p->shift);
        if (p->m.servo)
            p->travel += p->speed * sim->cfg.dt;
    }
    rbl_walls_move_to(sim, t);
}

/* Turning walls: how far from the axis the grains lie (planes: a turning plane moves further
 * the further out; a mesh's reach is its own corners'), with room for a rebuild's worth of
 * motion. */
static double grains_reach(const rbl_sim *sim, const rbl_wall_pose *p)
{
    const rbl_grains *g = &sim->g;
    const double *a = p->m.axis;
    double c[3], most = 0.0;
    for (int k = 0; k < 3; k++)
        c[k] = p->m.center[k] + p->shift[k];
    for (size_t k = 0; k < g->n; k++)
        most = fmax(most, (p->table ? point_distance(g->pos + 3 * k, c)
                                    : axis_distance(g->pos + 3 * k, c, a)) + g->radius[k]);
    if (sim->peers) /* over all the grains: every process decides its rebuilds alike */
        sim->peers->max(sim->peers->ctx, &most, 1);
    return most + sim->skin;
}

void rbl_walls_built(rbl_sim *sim)
{
    if (!sim->walls_moving)
        return;
    const int n = sim->n_walls + sim->n_meshes;
    for (int k = 0; k < n; k++) {
        rbl_wall_pose *p = rbl_wall_pose_of(sim, k);
        if (!p->moving)
            continue;
        memcpy(p->build_shift, p->shift, sizeof p->shift);
        p->build_angle = p->angle;
        memcpy(p->build_quat, p->quat, sizeof p->quat);
        if (p->turning && k < sim->n_walls)
            p->reach = grains_reach(sim, p);
    }
}

/* |sin| of half the turn of pose p since the last build: about its axis, or (a table) the
 * turn q q_build^-1, whose vector part is that sine times its axis. */
static double half_turn_since_build(const rbl_wall_pose *p)
{
    if (!p->table)
        return fabs(sin(0.5 * (p->angle - p->build_angle)));
    const double *q = p->quat, *b = p->build_quat;
    const double v[3] = {b[0] * q[1] - q[0] * b[1] - (q[2] * b[3] - q[3] * b[2]),
                         b[0] * q[2] - q[0] * b[2] - (q[3] * b[1] - q[1] * b[3]),
                         b[0] * q[3] - q[0] * b[3] - (q[1] * b[2] - q[2] * b[1])};
    return fmin(norm3(v), 1.0);
}

double rbl_walls_moved(const rbl_sim *sim)
{
    if (!sim->walls_moving)
        return 0.0;
    const int n = sim->n_walls + sim->n_meshes;
    double most = 0.0;
    for (int k = 0; k < n; k++) {
        const rbl_wall_pose *p = rbl_wall_pose_of((rbl_sim *)sim, k);
        if (!p->moving)
            continue;
        double d[3] = {p->shift[0] - p->build_shift[0], p->shift[1] - p->build_shift[1],
                       p->shift[2] - p->build_shift[2]};
        double moved, shifted = norm3(d);
        if (!p->turning && k < sim->n_walls) { /* a plane slides along itself unseen */
            const double *n0 = sim->walls[k].n0;
            moved = fabs(n0[0] * d[0] + n0[1] * d[1] + n0[2] * d[2]);
        } else {
            moved = shifted;
        }
        if (p->turning) /* a point at distance r from the axis moves 2 r sin(turn / 2) */
            moved += 2.0 * (p->reach + shifted) * half_turn_since_build(p);
        most = fmax(most, moved);
    }
    return most;
}
