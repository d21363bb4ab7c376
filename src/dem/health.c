/* health.c — the run's health check (issue 41): a run whose physics breaks down stops with a
 * message that names the step, the grains or the wall, the number and the likely cause.
 * Three signs, each cheap where it is measured: a contact's overlap beyond a share of the
 * smaller radius (the force passes keep the run's deepest, pair_pass.c and forces.c); a grain
 * moving farther in one step than a share of its radius (told from the displacement since the
 * last build, each grain looked at only when that allows a long step); the energy
 * growing beyond what was put in (moving walls' work, grains added and removed, periodic
 * wraps along gravity: energy_in, kept where each happens), checked by the caller at its
 * diagnostics (rubble run: each thermo row). Damping, friction and JKR's hysteresis only take
 * energy out, so a growth beyond round-off and the integrator's own error is a broken run. */
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
    out->energy_in = rbl_exact_value(&sim->health.energy_in);
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

/* The grain (clump members too) of the fastest step relative to its radius, and that share. */
static size_t fastest_grain(const rbl_sim *sim, double *share)
{
    const rbl_grains *g = &sim->g;
    const double dt = sim->cfg.dt;
    size_t best = 0;
    *share = -1.0;
    for (size_t k = 0; k < g->n; k++) {
        const double *v = g->vel + 3 * k;
        double s = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) * dt / g->radius[k];
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

static int move_error(rbl_sim *sim, rbl_error *err)
{
    double share = 0.0;
    size_t k = fastest_grain(sim, &share);
    const rbl_grains *g = &sim->g;
    const double *v = g->vel + 3 * k;
    double speed = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    sim->health.peak.peak_move = share;
    sim->health.peak.peak_move_step = sim->step + 1;
    sim->health.peak.peak_move_id = g->id[k];
    return rbl_error_set(err, RBL_EUNSTABLE,
                         "step %llu: grain %u moved %.3g of its radius in one step (%.3g m/s, dt "
                         "%.3g s; health.move %g): it can pass through a wall or a grain unseen. "
                         "Likely: dt too long, or a wall, initial velocity or blown-up contact "
                         "drove it",
                         (unsigned long long)(sim->step + 1), g->id[k], share, speed, sim->cfg.dt,
                         sim->health.opt.move);
}

/* Some grain (or clump member) stepped farther than move r this step. */
static int any_long_step(const rbl_sim *sim)
{
    const rbl_grains *g = &sim->g;
    const double move2 = sim->cfg.dt * sim->cfg.dt / (sim->health.opt.move * sim->health.opt.move);
    for (size_t k = 0; k < g->n; k++) {
        const double *v = g->vel + 3 * k;
        if ((v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) * move2 > g->radius[k] * g->radius[k])
            return 1;
    }
    return 0;
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
    const int moved = !(longest <= h->opt.move * sim->radius_min) && any_long_step(sim);
    if (h->peak.peak_overlap > h->opt.overlap)
        return overlap_error(sim, err);
    if (moved)
        return move_error(sim, err);
    return RBL_OK;
}

/* The least energy scale: every grain moving 1e-4 of its radius a step. Below it the energy's
 * changes are round-off (grains of a lattice touching within 1e-15 of a radius, at rest) and
 * a growth there is nothing a user would see. Over every process (collective). */
static double motion_floor(const rbl_sim *sim)
{
    const rbl_grains *g = &sim->g;
    const double per_step = 1e-4 / sim->cfg.dt;
    rbl_exact_sum s;
    rbl_exact_clear(&s);
    for (size_t k = 0; k < g->n; k++) {
        const double v = g->radius[k] * per_step;
        rbl_exact_add(&s, 0.5 * g->mass[k] * v * v);
    }
    if (sim->peers)
        sim->peers->sum_exact(sim->peers->ctx, &s, 1);
    return rbl_exact_value(&s);
}

int rbl_sim_check_energy(rbl_sim *sim, const rbl_thermo *t, double *excess, rbl_error *err)
{
    rbl_health_state *h = &sim->health;
    const double e = t->kinetic + t->rotational + t->potential + t->elastic;
    const double scale = t->kinetic + t->rotational + fabs(t->elastic) +
                         fabs(t->self_potential) + motion_floor(sim);
    const double share = rbl_energy_watch_share(&h->energy, e, t->energy_in, scale, t->potential);
    if (excess)
        *excess = share;
    if (h->opt.off || !(share > h->opt.energy))
        return RBL_OK;
    const double grown = (e - h->energy.energy_ref) - (t->energy_in - h->energy.in_ref);
    double fastest = 0.0;
    size_t k = fastest_grain(sim, &fastest);
    const double dt = sim->cfg.dt, tc = rbl_sim_contact_time(sim);
    char speed[64] = "";
    if (sim->g.n)
        snprintf(speed, sizeof speed, ", grain %u fastest at %.3g m/s", sim->g.id[k],
                 fastest * sim->g.radius[k] / dt);
    /* the likely cause: too few steps per contact, else a force from outside the laws (the
     * epsd2 rolling spring, which once fed the spin of JKR-bound beads, gives out no more than
     * it took in since issue 69: rbl_rolling_torque) */
    char likely[320];
    if (tc / dt < 40.0)
        snprintf(likely, sizeof likely, "the integration broke down. Likely: dt %.3g s too long "
                 "(%.3g steps per contact, about 50 needed%s)", dt, tc / dt, hertz_hint(sim));
    else
        snprintf(likely, sizeof likely, "dt is short enough (%.3g steps per contact). Likely: a "
                 "force from outside the laws (external forces, grains moved into others) or a "
                 "contact that blew up", tc / dt);
    return rbl_error_set(err, RBL_EUNSTABLE,
                         "step %llu (t = %.6g s): the energy grew by %.4g J beyond the %.4g J "
                         "walls, grains added or removed and periodic wraps put in: %.3g of its "
                         "scale %.4g J (health.energy %g). No law should add energy: %s%s",
                         (unsigned long long)t->step, t->time, grown,
                         t->energy_in - h->energy.in_ref, share, h->energy.scale, h->opt.energy,
                         likely, speed);
}
