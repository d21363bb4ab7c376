/* health.c — the run's health check (issue 41): a run whose physics breaks down stops with a
 * message that names the step, the grains or the wall, the number and the likely cause.
 * Four signs, each cheap where it is measured: a contact's overlap beyond a share of the
 * smaller radius (the force passes keep the run's deepest, pair_pass.c and forces.c); a grain
 * moving farther in one step than a share of its radius, relative to the grains' mean motion
 * along periodic axes (told from the displacement since the last build, each grain looked at
 * only when that allows a long step); a moving wall doing the same against the smallest
 * grain; the energy account's balance (account.c: what the grains and contacts hold, plus what
 * the contacts dissipated, less what was put in, each booked where it happens) rising above
 * its least value so far, checked by the caller at its diagnostics (rubble run: each thermo
 * row). Every law only takes energy out and each loss is booked, so the balance is constant
 * up to the integrator's own error, which at a resolved contact takes energy out: a rise is
 * energy made (issue 70). */
#include "contact_kernel.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int rbl_sim_set_health(rbl_sim *sim, const rbl_health_options *opt, rbl_error *err)
{
    const struct {
        const char *name;
        double value, fallback, most;
    } v[3] = {{"overlap", opt->overlap, RBL_HEALTH_OVERLAP, 100.0},
              {"move", opt->move, RBL_HEALTH_MOVE, 100.0},
              {"energy", opt->energy, RBL_HEALTH_ENERGY, 1e6}};
    for (int k = 0; k < 3; k++)
        if (!(v[k].value >= 0.0 && v[k].value <= v[k].most))
            return rbl_error_set(err, RBL_EINVAL,
                                 "health.%s must be > 0 and at most %g (0: the default, %g): '%g'",
                                 v[k].name, v[k].most, v[k].fallback, v[k].value);
    rbl_health_options *o = &sim->health.opt;
    o->off = opt->off != 0;
    o->overlap = opt->overlap > 0.0 ? opt->overlap : RBL_HEALTH_OVERLAP;
    o->move = opt->move > 0.0 ? opt->move : RBL_HEALTH_MOVE;
    o->energy = opt->energy > 0.0 ? opt->energy : RBL_HEALTH_ENERGY;
    return RBL_OK;
}

void rbl_sim_health(const rbl_sim *sim, rbl_health *out)
{
    *out = sim->health.peak;
    out->energy_in = rbl_account_in_total(sim);
}

rbl_overlap_peak rbl_health_overlap_start(const rbl_sim *sim)
{
    const rbl_health *h = &sim->health.peak;
    rbl_overlap_peak p = {h->peak_overlap, {h->peak_overlap_ids[0], h->peak_overlap_ids[1]},
                          h->peak_overlap_wall};
    return p;
}

void rbl_health_overlap_merge(rbl_sim *sim, const rbl_overlap_peak *p, uint64_t step)
{
    rbl_overlap_peak run = rbl_health_overlap_start(sim);
    rbl_overlap_peak_take(&run, p->ratio, p->ids[0], p->ids[1], p->wall);
    rbl_health *h = &sim->health.peak;
    if (run.ratio == h->peak_overlap && run.ids[0] == h->peak_overlap_ids[0] &&
        run.ids[1] == h->peak_overlap_ids[1] && run.wall == h->peak_overlap_wall)
        return;
    h->peak_overlap = run.ratio;
    h->peak_overlap_ids[0] = run.ids[0], h->peak_overlap_ids[1] = run.ids[1];
    h->peak_overlap_wall = run.wall;
    h->peak_overlap_step = step;
}

double rbl_grain_energy(const rbl_sim *sim, size_t k)
{
    const rbl_grains *g = &sim->g;
    const double *v = g->vel + 3 * k, *w = g->omega + 3 * k, *x = g->pos + 3 * k;
    const double *grav = sim->cfg.gravity, m = g->mass[k];
    double e = 0.5 * m * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) +
               0.2 * m * g->radius[k] * g->radius[k] * (w[0] * w[0] + w[1] * w[1] + w[2] * w[2]) -
               m * (grav[0] * x[0] + grav[1] * x[1] + grav[2] * x[2]);
    if (g->with_gravity) /* its share of W = 1/2 sum m phi, both halves of its pairs */
        e += m * g->gphi[k];
    return e;
}

/* The grains' mean velocity along the periodic axes (0 along the others), over every process
 * (collective): along a periodic axis a motion of all together moves nothing relative to
 * anything (a gas moving as a whole, or falling along a periodic axis), so a grain's step is
 * measured from it; along the others walls and the domain's sides stand still. */
static void frame_velocity(const rbl_sim *sim, double frame[3])
{
    frame[0] = frame[1] = frame[2] = 0.0;
    if (!sim->cfg.periodic[0] && !sim->cfg.periodic[1] && !sim->cfg.periodic[2])
        return;
    const rbl_grains *g = &sim->g;
    rbl_exact_sum s[4];
    for (int a = 0; a < 4; a++)
        rbl_exact_clear(&s[a]);
    for (size_t k = 0; k < g->n; k++) {
        for (int a = 0; a < 3; a++)
            rbl_exact_add(&s[a], g->mass[k] * g->vel[3 * k + a]);
        rbl_exact_add(&s[3], g->mass[k]);
    }
    if (sim->peers)
        sim->peers->sum_exact(sim->peers->ctx, s, 4);
    const double mass = rbl_exact_value(&s[3]);
    for (int a = 0; a < 3; a++)
        if (sim->cfg.periodic[a] && mass > 0.0)
            frame[a] = rbl_exact_value(&s[a]) / mass;
}

/* The grain (clump members too) of the fastest step relative to its radius and to the frame,
 * and that share. */
static size_t fastest_grain(const rbl_sim *sim, const double frame[3], double *share)
{
    const rbl_grains *g = &sim->g;
    const double dt = sim->cfg.dt;
    size_t best = 0;
    *share = -1.0;
    for (size_t k = 0; k < g->n; k++) {
        const double *v = g->vel + 3 * k;
        const double u[3] = {v[0] - frame[0], v[1] - frame[1], v[2] - frame[2]};
        double s = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]) * dt / g->radius[k];
        if (!(s <= *share) || (s == *share && g->id[k] < g->id[best]))
            *share = s, best = k;
    }
    return best;
}

/* Where the grain of this id is among this process's grains, or SIZE_MAX. */
static size_t index_of(const rbl_sim *sim, uint32_t id)
{
    for (size_t k = 0; k < sim->g.n + sim->g.ghosts; k++)
        if (sim->g.id[k] == id)
            return k;
    return SIZE_MAX;
}

static double speed_of(const rbl_sim *sim, uint32_t id)
{
    size_t k = index_of(sim, id);
    if (k == SIZE_MAX)
        return NAN;
    const double *v = sim->g.vel + 3 * k;
    return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

/* "; with Hertz, ..." when the contact time depends on the impact speed. */
static const char *hertz_hint(const rbl_sim *sim)
{
    return sim->cfg.law.normal == RBL_NORMAL_HERTZ || sim->cfg.law.from_materials
               ? "; Hertz: impact_velocity below the real impacts"
               : "";
}

static int overlap_error(const rbl_sim *sim, rbl_error *err)
{
    const rbl_health *h = &sim->health.peak;
    const double dt = sim->cfg.dt, tc = rbl_sim_contact_time(sim);
    char who[128];
    if (h->peak_overlap_wall)
        snprintf(who, sizeof who, "grain %u (%.3g m/s) is in wall %d by %.3g of its radius",
                 h->peak_overlap_ids[0], speed_of(sim, h->peak_overlap_ids[0]),
                 h->peak_overlap_wall, h->peak_overlap);
    else
        snprintf(who, sizeof who, "grains %u and %u (%.3g, %.3g m/s) overlap by %.3g of the "
                 "smaller radius", h->peak_overlap_ids[0], h->peak_overlap_ids[1],
                 speed_of(sim, h->peak_overlap_ids[0]), speed_of(sim, h->peak_overlap_ids[1]),
                 h->peak_overlap);
    return rbl_error_set(err, RBL_EUNSTABLE,
                         "step %llu: %s (health.overlap %g). Likely: contacts too soft for the "
                         "speeds (kn, Young's modulus%s), dt %.3g s too long (%.3g steps per "
                         "contact), or a grain crossing a thin wall",
                         (unsigned long long)h->peak_overlap_step, who, sim->health.opt.overlap,
                         hertz_hint(sim), dt, tc / dt);
}

static int move_error(rbl_sim *sim, const double frame[3], rbl_error *err)
{
    double share = 0.0;
    size_t k = fastest_grain(sim, frame, &share);
    const rbl_grains *g = &sim->g;
    const double *v = g->vel + 3 * k;
    const double u[3] = {v[0] - frame[0], v[1] - frame[1], v[2] - frame[2]};
    double speed = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    sim->health.peak.peak_move = share;
    sim->health.peak.peak_move_step = sim->step + 1;
    sim->health.peak.peak_move_id = g->id[k];
    return rbl_error_set(err, RBL_EUNSTABLE,
                         "step %llu: grain %u moved %.3g of its radius in one step (%.3g m/s%s, "
                         "dt %.3g s; health.move %g): it can pass through a wall or a grain unseen. "
                         "Likely: dt too long, or a wall, initial velocity or blown-up contact "
                         "drove it",
                         (unsigned long long)(sim->step + 1), g->id[k], share, speed,
                         frame[0] != 0.0 || frame[1] != 0.0 || frame[2] != 0.0
                             ? " relative to the grains' mean motion along the periodic axes"
                             : "",
                         sim->cfg.dt, sim->health.opt.move);
}

/* Some grain (or clump member) stepped farther than move r this step, relative to the frame
 * (this process's; the caller joins the processes' answers). */
static int any_long_step(const rbl_sim *sim, const double frame[3])
{
    const rbl_grains *g = &sim->g;
    const double move2 = sim->cfg.dt * sim->cfg.dt / (sim->health.opt.move * sim->health.opt.move);
    for (size_t k = 0; k < g->n; k++) {
        const double *v = g->vel + 3 * k;
        const double u[3] = {v[0] - frame[0], v[1] - frame[1], v[2] - frame[2]};
        if ((u[0] * u[0] + u[1] * u[1] + u[2] * u[2]) * move2 > g->radius[k] * g->radius[k])
            return 1;
    }
    return 0;
}

/* The moving wall (its number from 1, planes then meshes) whose step just made moved some
 * point of it that grains may touch farther than move r_min, and that distance; 0 if none.
 * A wall that jumps a grain's radius in a step passes through grains unseen (issue 70: a
 * mesh sheet at 1000 m/s). */
static int fastest_wall(const rbl_sim *sim, double *moved)
{
    int worst = 0;
    *moved = 0.0;
    if (!sim->walls_moving)
        return 0;
    const int n = sim->n_walls + sim->n_meshes;
    for (int k = 0; k < n; k++) {
        const rbl_wall_pose *p = rbl_wall_pose_of((rbl_sim *)sim, k);
        if (!p->moving)
            continue;
        double d2 = 0.0;
        for (int a = 0; a < 3; a++)
            d2 += (p->shift[a] - p->prev_shift[a]) * (p->shift[a] - p->prev_shift[a]);
        /* a turn moves a point at distance reach from the axis by about reach times the angle */
        const double rate = p->table ? sqrt(p->spin[0] * p->spin[0] + p->spin[1] * p->spin[1] +
                                            p->spin[2] * p->spin[2])
                                     : fabs(p->m.omega);
        const double step = sqrt(d2) + rate * sim->cfg.dt * (p->turning ? p->reach : 0.0);
        if (step > *moved)
            *moved = step, worst = k + 1;
    }
    /* (no grain yet: nothing to pass through) */
    return sim->radius_min > 0.0 && *moved > sim->health.opt.move * sim->radius_min ? worst : 0;
}

int rbl_health_after_drift(rbl_sim *sim, rbl_error *err)
{
    rbl_health_state *h = &sim->health;
    if (h->opt.off)
        return RBL_OK;
    /* No grain's step is longer than its displacement from the last build now plus before
     * this step (both at most the largest, max_disp2): only when that sum passes move r_min
     * is each grain looked at. So the drift itself tests nothing; a settled bed never pays. */
    const double longest = sqrt(sim->max_disp2) + sqrt(h->prev_disp2);
    double frame[3] = {0.0, 0.0, 0.0};
    int moved = 0;
    if (!(longest <= h->opt.move * sim->radius_min)) { /* the same on every process */
        frame_velocity(sim, frame);
        moved = any_long_step(sim, frame);
    }
    if (h->peak.peak_overlap > h->opt.overlap)
        return overlap_error(sim, err);
    if (moved)
        return move_error(sim, frame, err);
    return RBL_OK;
}

int rbl_health_walls_moved(rbl_sim *sim, rbl_error *err)
{
    double moved;
    const int wall = sim->health.opt.off ? 0 : fastest_wall(sim, &moved);
    if (!wall)
        return RBL_OK;
    return rbl_error_set(err, RBL_EUNSTABLE,
                         "step %llu: wall %d moved %.3g m in one step, %.3g of the smallest "
                         "grain's radius %.3g m (health.move %g): it can pass through grains "
                         "unseen. Likely: its velocity, vibration or turn too fast for dt %.3g s "
                         "(or a servo's speed limit too high)",
                         (unsigned long long)(sim->step + 1), wall, moved,
                         moved / sim->radius_min, sim->radius_min, sim->health.opt.move,
                         sim->cfg.dt);
}

/* The least energy scale: every grain moving 1e-4 of its radius a step. Below it the energy's
 * changes are round-off (grains of a lattice touching within 1e-15 of a radius, at rest) and
 * a growth there is nothing a user would see. Over every process (collective). */
static double motion_floor(const rbl_sim *sim)
{
    const rbl_grains *g = &sim->g;
    rbl_exact_sum s;
    rbl_exact_clear(&s);
    for (size_t k = 0; k < g->n; k++)
        rbl_exact_add(&s, rbl_energy_motion_floor(g->mass[k], g->radius[k], sim->cfg.dt));
    if (sim->peers)
        sim->peers->sum_exact(sim->peers->ctx, &s, 1);
    return rbl_exact_value(&s);
}

/* The kinetic energy of the grains' motion relative to their centre of mass, K - |P|^2 / 2M:
 * a gas moving as a whole at 20 m/s has an energy scale of its own motion, not of the
 * bulk's, which hid a blow-up of half its relative energy (issue 70, found from outside).
 * Over every process (collective). */
static double relative_kinetic(const rbl_sim *sim, const rbl_thermo *t)
{
    const rbl_grains *g = &sim->g;
    rbl_exact_sum m;
    rbl_exact_clear(&m);
    for (size_t k = 0; k < g->n; k++)
        rbl_exact_add(&m, g->mass[k]);
    if (sim->peers)
        sim->peers->sum_exact(sim->peers->ctx, &m, 1);
    const double M = rbl_exact_value(&m);
    const double *P = t->momentum;
    const double bulk = M > 0.0 ? 0.5 * (P[0] * P[0] + P[1] * P[1] + P[2] * P[2]) / M : 0.0;
    return fmax(0.0, t->kinetic - bulk);
}

int rbl_sim_check_energy(rbl_sim *sim, const rbl_thermo *t, double *excess, rbl_error *err)
{
    rbl_health_state *h = &sim->health;
    const double scale = relative_kinetic(sim, t) + t->rotational + fabs(t->elastic) +
                         fabs(t->self_potential) + motion_floor(sim);
    const double magnitude = fabs(t->potential) + t->kinetic + t->rotational + fabs(t->elastic);
    rbl_exact_sum through = h->wall_through; /* over every process (collective) */
    if (sim->peers)
        sim->peers->sum_exact(sim->peers->ctx, &through, 1);
    const double rise = rbl_energy_watch_rise(&h->energy, t->balance, t->step, scale, magnitude,
                                              rbl_exact_value(&through));
    if (excess)
        *excess = rise;
    if (h->opt.off || !(rise > h->opt.energy))
        return RBL_OK;
    const double made = t->balance - h->energy.least;
    const double zero[3] = {0.0, 0.0, 0.0};
    double fastest = 0.0;
    size_t k = fastest_grain(sim, zero, &fastest);
    const double dt = sim->cfg.dt, tc = rbl_sim_contact_time(sim);
    char speed[64] = "";
    if (sim->g.n)
        snprintf(speed, sizeof speed, ", grain %u fastest at %.3g m/s", sim->g.id[k],
                 fastest * sim->g.radius[k] / dt);
    /* the likely cause: too few steps per contact, else a force from outside the laws */
    char likely[320];
    if (tc / dt < 40.0)
        snprintf(likely, sizeof likely, "the integration broke down. Likely: dt %.3g s too long "
                 "(%.3g steps per contact, about 50 needed%s)", dt, tc / dt, hertz_hint(sim));
    else
        snprintf(likely, sizeof likely, "dt is short enough (%.3g steps per contact). Likely: a "
                 "force from outside the laws (a caller's writes between steps) or a contact "
                 "that blew up", tc / dt);
    return rbl_error_set(err, RBL_EUNSTABLE,
                         "step %llu (t = %.6g s): energy was made: the energy account's balance "
                         "(held + dissipated - put in) rose by %.4g J since step %llu with "
                         "nothing booked putting it in, %.3g of the energy scale %.4g J "
                         "(health.energy %g). No law adds energy: %s%s",
                         (unsigned long long)t->step, t->time, made,
                         (unsigned long long)h->energy.least_step, rise, h->energy.scale,
                         h->opt.energy, likely, speed);
}
