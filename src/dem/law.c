/* law.c — the contact law checked once at set-up, never in the force loop: coefficients in
 * range, damping below critical, dt below the stability limit of the shortest contact and
 * below the bounds the models' own coefficients set (law_table.h), and
 * the per-material-pair Hertz-Mindlin constants of LIGGGHTS' "hertz" model:
 * 1/Y* = (1-nu1^2)/E1 + (1-nu2^2)/E2, 1/G* = 2(2-nu1)(1+nu1)/E1 + 2(2-nu2)(1+nu2)/E2,
 * beta = ln e / sqrt(ln^2 e + pi^2). Two different materials use the mean of their e and mu. */
#include "contact_kernel.h" /* rbl_jkr_reach */
#include "law_table.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* dt above contact_time / RBL_STEPS_PER_CONTACT_MIN is refused: with fewer steps per contact
 * the velocity Verlet is at the edge of instability and restitution is off by > 5 %. */
#define RBL_STEPS_PER_CONTACT_MIN 5.0

static void material_pair(const rbl_sim *sim, int a, int b, rbl_pair_coef *c);

/* The lightest contact's mass: half the lightest grain against its like, or the lightest
 * grain alone against a wall. */
static double lightest_contact(const rbl_sim *sim)
{
    const rbl_grains *g = &sim->g;
    double m_min = INFINITY;
    for (size_t k = 0; k < g->n; k++)
        m_min = fmin(m_min, rbl_contact_mass(sim, k));
    return g->n > 1 ? 0.5 * m_min : m_min;
}

static double hertz_time(double k_h, double m_eff, double v)
{
    /* m xi'' = -k_H xi^(3/2) from xi' = v: xi_max = (5 m v^2 / (4 k_H))^(2/5),
     * duration 2.9432 xi_max / v (Johnson, Contact Mechanics §11.4). */
    double xi_max = pow(5.0 * m_eff * v * v / (4.0 * k_h), 0.4);
    return 2.9432 * xi_max / v;
}

static double pair_time(const rbl_sim *sim, double r_eff, double m_eff, int ma, int mb)
{
    const rbl_contact_law *law = &sim->cfg.law;
    double v = sim->cfg.impact_velocity > 0.0 ? sim->cfg.impact_velocity : 1.0;
    rbl_pair_coef pc;
    material_pair(sim, ma, mb, &pc);
    if (law->from_materials)
        return hertz_time(4.0 / 3.0 * pc.y_star * sqrt(r_eff), m_eff, v);
    if (law->normal == RBL_NORMAL_HERTZ)
        return hertz_time(law->kn, m_eff, v);
    double gamma = law->damping == RBL_DAMPING_LINEAR ? pc.gn : 0.0;
    double w = rbl_contact_omega(law->kn, gamma, m_eff);
    return w > 0.0 ? M_PI / w : M_PI * sqrt(m_eff / law->kn);
}

double rbl_sim_contact_time(const rbl_sim *sim)
{
    const rbl_grains *g = &sim->g;
    double t = INFINITY;
    for (size_t k = 0; k < g->n; k++) {
        double r = g->radius[k], m = rbl_contact_mass(sim, k);
        int mat = g->material[k];
        double tk = pair_time(sim, 0.5 * r, 0.5 * m, mat, mat);
        if (tk < t)
            t = tk;
        for (int s = 0; s < sim->n_walls; s++) {
            tk = pair_time(sim, r, m, mat, sim->walls[s].material);
            if (tk < t)
                t = tk;
        }
        for (int s = 0; s < sim->n_meshes; s++) {
            tk = pair_time(sim, r, m, mat, sim->meshes[s].material);
            if (tk < t)
                t = tk;
        }
    }
    return t;
}

/* The coefficients of materials a and b (law_table.h's pair coefficients): the rule's
 * (Hertz-Mindlin: the mean of the two materials' e and mu; otherwise the law's), then the
 * pair's own where set. */
static void material_pair(const rbl_sim *sim, int a, int b, rbl_pair_coef *c)
{
    const rbl_contact_law *law = &sim->cfg.law;
    const rbl_material *A = &sim->materials[a], *B = &sim->materials[b];
    *c = (rbl_pair_coef){0};
    if (law->from_materials) {
        c->y_star = 1.0 / ((1.0 - A->poisson_ratio * A->poisson_ratio) / A->youngs_modulus +
                           (1.0 - B->poisson_ratio * B->poisson_ratio) / B->youngs_modulus);
        c->g_star = 1.0 / (2.0 * (2.0 - A->poisson_ratio) * (1.0 + A->poisson_ratio) /
                               A->youngs_modulus +
                           2.0 * (2.0 - B->poisson_ratio) * (1.0 + B->poisson_ratio) /
                               B->youngs_modulus);
    }
#define RULE(slot, name, unit, lo, lo_ok, hi, takes, why, rule, own) c->slot = (rule);
    RBL_PAIR_LAW_COEFS(RULE)
#undef RULE
    /* the block models' coefficients: the law's (its field or the simulation's held value),
       for the models it has (rows in the table's order, `row` counting them; this runs per
       grain in the contact time's scan, so it is compiled from the table, no lookup) */
    int row = 0;
#define BLOCK_RULE(family, models, key, field, unit, lo, lo_ok, hi, note, pair_key, pair_lo_ok, \
                   slot)                                                                      \
    if ((models) >> law->family & 1u)                                                         \
        c->slot = RBL_LAW_VALUE(law, sim->law_held, field, row);                              \
    row++;
    RBL_LAW_COEFS(BLOCK_RULE)
#undef BLOCK_RULE
    (void)row;
    for (int k = 0; k < sim->n_pair_set; k++) { /* the pair's own, where set */
        const struct rbl_pair_set *s = &sim->pair_set[k];
        if (s->a != (a < b ? a : b) || s->b != (a < b ? b : a))
            continue;
#define OWN(slot, name, unit, lo, lo_ok, hi, takes, why, rule, from_own)                      \
    if (!isnan(s->own[RBL_PAIR_##slot])) {                                                    \
        const double x = s->own[RBL_PAIR_##slot];                                             \
        c->slot = (from_own);                                                                 \
    }
        RBL_PAIR_LAW_COEFS(OWN)
#undef OWN
#define BLOCK_OWN(family, models, key, field, unit, lo, lo_ok, hi, note, pair_key, pair_lo_ok,  \
                  slot)                                                                       \
    if ((models) >> law->family & 1u && !isnan(s->own[RBL_PAIR_##slot]))                      \
        c->slot = s->own[RBL_PAIR_##slot];
        RBL_LAW_COEFS(BLOCK_OWN)
#undef BLOCK_OWN
    }
}

/* A pair's coefficient x (NAN: not set) within [lo, hi] (lo itself allowed with lo_ok). */
static int pair_value(double x, double lo, int lo_ok, double hi, const char *name, int a, int b,
                      rbl_error *err)
{
    if (isnan(x) || ((x > lo || (lo_ok && x == lo)) && x <= hi && isfinite(x)))
        return RBL_OK;
    return rbl_error_set(err, RBL_EINVAL, "pair of materials %d and %d: %s must be in %s%g, %g]: "
                         "'%g'", a, b, name, lo_ok ? "[" : "(", lo, hi, x);
}

/* Whether law takes a pair's own value of law slot k (RBL_PAIR_LAW_COEFS' `takes`), and if
 * not, why. */
static int law_slot_takes(const rbl_contact_law *law, int k, const char **why)
{
#define TAKES(slot, name, unit, lo, lo_ok, hi, takes, why_not, rule, own)                     \
    if (k == RBL_PAIR_##slot) {                                                               \
        *why = why_not;                                                                       \
        return (takes);                                                                       \
    }
    RBL_PAIR_LAW_COEFS(TAKES)
#undef TAKES
    *why = "";
    return 1;
}

int rbl_sim_set_pair_own(rbl_sim *sim, int a, int b, const double own[RBL_PAIR_N],
                         rbl_error *err)
{
    const rbl_contact_law *law = &sim->cfg.law;
    if (a < 0 || b < 0 || a >= sim->n_materials || b >= sim->n_materials)
        return rbl_error_set(err, RBL_EINVAL, "pair: no materials %d and %d (%d defined)", a, b,
                             sim->n_materials);
    for (int k = 0; k < RBL_PAIR_N; k++) {
        const rbl_pair_coef_row *p = &rbl_pair_coefs[k];
        const double x = own[k];
        const char *why;
        if (isnan(x) || p->block)
            continue;
        if (!law_slot_takes(law, k, &why))
            return rbl_error_set(err, RBL_EINVAL, "pair of materials %d and %d: %s %s", a, b,
                                 p->name, why);
    }
    for (int k = 0; k < RBL_PAIR_N; k++) {
        const rbl_pair_coef_row *p = &rbl_pair_coefs[k];
        const double x = own[k];
        int rc;
        if (isnan(x))
            continue;
        if (!p->block) {
            if ((rc = pair_value(x, p->lo, p->lo_ok, p->hi, p->name, a, b, err)))
                return rc;
            continue;
        }
        /* a block model's: the row of the law's model that takes it, or none (then the law
         * has no model that takes it) */
        const rbl_law_coef_row *any, *c = rbl_pair_block_row(law, k, &any);
        if (!c)
            return rbl_error_set(err, RBL_EINVAL, "pair of materials %d and %d: %s needs a %s "
                                 "model in the law that takes it", a, b,
                                 any ? any->pair_key : p->name, any ? any->family : "block");
        if ((rc = pair_value(x, c->lo, c->pair_lo_ok, c->hi, c->pair_key, a, b, err)))
            return rc;
    }
    const int lo = a < b ? a : b, hi = a < b ? b : a;
    int k = 0;
    while (k < sim->n_pair_set && !(sim->pair_set[k].a == lo && sim->pair_set[k].b == hi))
        k++;
    if (k == sim->n_pair_set) {
        struct rbl_pair_set *more = realloc(sim->pair_set, (size_t)(k + 1) * sizeof *more);
        if (!more)
            return rbl_error_set(err, RBL_ENOMEM, "out of memory");
        sim->pair_set = more, sim->n_pair_set++;
    }
    sim->pair_set[k].a = lo, sim->pair_set[k].b = hi;
    memcpy(sim->pair_set[k].own, own, sizeof sim->pair_set[k].own);
    sim->prepared = 0;
    return RBL_OK;
}

int rbl_sim_set_pair(rbl_sim *sim, int a, int b, const rbl_pair_props *p, rbl_error *err)
{
    double own[RBL_PAIR_N];
    for (int k = 0; k < RBL_PAIR_N; k++)
        own[k] = NAN;
#define FROM_PROPS(slot, field) own[RBL_PAIR_##slot] = p->field;
    RBL_PAIR_PROPS(FROM_PROPS)
#undef FROM_PROPS
    return rbl_sim_set_pair_own(sim, a, b, own, err);
}

int rbl_sim_set_pair_coef(rbl_sim *sim, int a, int b, const char *name, double value,
                          rbl_error *err)
{
    const int slot = rbl_pair_coef_slot(name);
    if (slot < 0) {
        char known[256] = "";
        for (int k = 0; k < RBL_PAIR_N; k++)
            snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", k ? ", " : "",
                     rbl_pair_coefs[k].name);
        return rbl_error_set(err, RBL_EINVAL, "pair of materials %d and %d: no pair "
                             "coefficient '%s' (known: %s)", a, b, name ? name : "(null)", known);
    }
    double own[RBL_PAIR_N];
    for (int k = 0; k < RBL_PAIR_N; k++)
        own[k] = NAN;
    const int lo = a < b ? a : b, hi = a < b ? b : a;
    for (int k = 0; k < sim->n_pair_set; k++)
        if (sim->pair_set[k].a == lo && sim->pair_set[k].b == hi)
            memcpy(own, sim->pair_set[k].own, sizeof own);
    own[slot] = value;
    return rbl_sim_set_pair_own(sim, a, b, own, err);
}

static int build_coefficients(rbl_sim *sim, rbl_error *err)
{
    int nm = sim->n_materials;
    free(sim->coef);
    sim->coef = NULL;
    sim->coef_uniform = 1;
    if (nm == 0) {
        if (sim->cfg.law.from_materials)
            return rbl_error_set(err, RBL_EINVAL, "the contact law takes its coefficients from "
                                                  "materials, but no material is defined");
        return RBL_OK;
    }
    sim->coef = malloc((size_t)nm * (size_t)nm * sizeof *sim->coef);
    if (!sim->coef)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for material pairs");
    for (int a = 0; a < nm; a++)
        for (int b = 0; b < nm; b++) {
            rbl_pair_coef *c = &sim->coef[a * nm + b];
            material_pair(sim, a, b, c);
            sim->coef_uniform &= memcmp(c, &sim->coef[0], sizeof *c) == 0;
        }
    return RBL_OK;
}

/* The law's models against the table (law_table.h): each family's a model it has, what the
 * model needs of the rest of the law, and each coefficient a block model takes within its
 * range. */
int rbl_contact_law_check_models(const rbl_contact_law *law, rbl_error *err)
{
    for (int f = 0; f < rbl_law_n_families; f++) {
        const rbl_law_family_row *fam = &rbl_law_families[f];
        const int m = rbl_law_model_of(law, fam);
        if (strcmp(rbl_law_model_name(fam, m), "?") == 0)
            return rbl_error_set(err, RBL_EINVAL, "contact law: unknown %s model %d (the "
                                 "table has %d: 0 to %d)", fam->name, m, fam->n_models,
                                 fam->n_models - 1);
    }
    if ((unsigned)law->from_materials > 1)
        return rbl_error_set(err, RBL_EINVAL, "contact law: from_materials must be 0 or 1: %d",
                             law->from_materials);
    for (int f = 0; f < rbl_law_n_families; f++) {
        const char *why, *need = rbl_law_unmet_need(law, &rbl_law_families[f], &why);
        if (need)
            return rbl_error_set(err, RBL_EINVAL, "contact law: %s model %s needs %s",
                                 rbl_law_families[f].name,
                                 rbl_law_model_name(&rbl_law_families[f],
                                                    rbl_law_model_of(law, &rbl_law_families[f])),
                                 need);
    }
    for (int k = 0; k < rbl_law_n_coefs; k++) { /* (the held: rbl_sim_check_law) */
        const rbl_law_coef_row *c = &rbl_law_coefs[k];
        int rc;
        if (c->offset != RBL_LAW_HELD && rbl_law_coef_applies(c, law) &&
            (rc = rbl_law_coef_check(c, rbl_law_coef_get(law, NULL, c), err)) != RBL_OK)
            return rc;
    }
    return RBL_OK;
}

int rbl_law_coef_check(const rbl_law_coef_row *c, double x, rbl_error *err)
{
    if ((x > c->lo || (c->lo_ok && x == c->lo)) && x <= c->hi)
        return RBL_OK;
    return rbl_error_set(err, RBL_EINVAL, "contact law: %s %s must be in %s%g, %g]%s%s%s: '%g'",
                         c->family, c->key, c->lo_ok ? "[" : "(", c->lo, c->hi,
                         c->unit[0] ? " " : "", c->unit, c->note, x);
}

double rbl_jkr_reach_max(const rbl_sim *sim, double r_max)
{
    const rbl_contact_law *law = &sim->cfg.law;
    double reach = 0.0;
    if (law->cohesion != RBL_COHESION_JKR || !sim->coef)
        return 0.0;
    /* the largest R* is a grain's own radius, on a wall; the softest pair reaches farthest */
    for (int k = 0; k < sim->n_materials * sim->n_materials; k++)
        reach = fmax(reach, rbl_jkr_reach(sim->coef[k].cohesion, sim->coef[k].y_star, r_max));
    return reach;
}

/* The largest of one coefficient (at byte offset `field` of rbl_pair_coef) over the pairs of
 * materials, and in `which` the pair it belongs to where it is not the law's `rule` (else ""). */
static double coef_max(const rbl_sim *sim, size_t field, double rule, char *which, size_t size)
{
    double most = 0.0;
    which[0] = '\0';
    for (int a = 0; sim->coef && a < sim->n_materials; a++)
        for (int b = a; b < sim->n_materials; b++) {
            double x;
            memcpy(&x, (const char *)&sim->coef[a * sim->n_materials + b] + field, sizeof x);
            if (!(x > most))
                continue;
            most = x;
            which[0] = '\0';
            if (x != rule)
                snprintf(which, size, " (the pair of materials %d and %d)", a, b);
        }
    return most;
}

int rbl_sim_check_law(rbl_sim *sim, rbl_error *err)
{
    rbl_contact_law *law = &sim->cfg.law;
    for (int k = 0; k < rbl_law_n_coefs; k++) { /* the coefficients the simulation holds */
        const rbl_law_coef_row *c = &rbl_law_coefs[k];
        int rc;
        if (c->offset == RBL_LAW_HELD && rbl_law_coef_applies(c, law) &&
            (rc = rbl_law_coef_check(c, sim->law_held[k], err)) != RBL_OK)
            return rc;
    }
    if (!law->from_materials) {
        if (!(law->kn > 0.0 && isfinite(law->kn)))
            return rbl_error_set(err, RBL_EINVAL, "contact law: kn must be > 0: '%g'", law->kn);
        if (!(law->kt >= 0.0 && isfinite(law->kt)))
            return rbl_error_set(err, RBL_EINVAL, "contact law: kt must be >= 0: '%g'", law->kt);
        if (!(law->gamma_n >= 0.0 && isfinite(law->gamma_n)))
            return rbl_error_set(err, RBL_EINVAL, "contact law: gamma_n must be >= 0: '%g'",
                                 law->gamma_n);
        if (!(law->gamma_t >= 0.0 && isfinite(law->gamma_t)))
            return rbl_error_set(err, RBL_EINVAL, "contact law: gamma_t must be >= 0: '%g'",
                                 law->gamma_t);
        if (!(law->friction >= 0.0 && isfinite(law->friction)))
            return rbl_error_set(err, RBL_EINVAL, "contact law: friction must be >= 0: '%g'",
                                 law->friction);
        if (law->kt == 0.0)
            law->kt = 2.0 / 7.0 * law->kn;
    }
    int rc = build_coefficients(sim, err);
    if (rc != RBL_OK)
        return rc;
    const rbl_grains *g = &sim->g;
    if (g->n == 0)
        return RBL_OK;
    const double m_eff = lightest_contact(sim);

    /* Damping: the lightest contact (half the lightest grain against its like, or the
     * lightest grain against a wall) must stay below critical, 4 m_eff k > gamma^2; the most
     * damped pair of materials is held to it. */
    int hertz_tsuji = law->normal == RBL_NORMAL_HERTZ && law->damping == RBL_DAMPING_TSUJI;
    int linear_linear = law->normal == RBL_NORMAL_LINEAR && law->damping == RBL_DAMPING_LINEAR;
    char which[64];
    double gamma_n = coef_max(sim, offsetof(rbl_pair_coef, gn), law->gamma_n, which, sizeof which);
    if (!law->from_materials && (hertz_tsuji || linear_linear) && gamma_n > 0.0) {
        double critical = 2.0 * sqrt(m_eff * law->kn);
        if (gamma_n >= critical)
            return rbl_error_set(err, RBL_EINVAL,
                                 "contact law: gamma_n = %g%s is overdamped for the lightest pair "
                                 "(m_eff = %g kg): it must be below 2 sqrt(m_eff kn) = %g",
                                 gamma_n, which, m_eff, critical);
    }

    /* sjkr on a linear spring: at small overlap the attraction k_c pi a^2 grows as
     * 2 pi k_c R* xi, a spring of negative stiffness. Where it beats k_n (the largest grain on
     * a wall, R* = r), bodies sink into each other without bound: refused, for the most
     * cohesive pair of materials. */
    double k_c = coef_max(sim, offsetof(rbl_pair_coef, cohesion), law->cohesion_energy_density, which,
                          sizeof which);
    if (law->cohesion == RBL_COHESION_SJKR && !law->from_materials &&
        law->normal == RBL_NORMAL_LINEAR) {
        double r_max = 0.0;
        for (size_t k = 0; k < g->n; k++)
            r_max = fmax(r_max, g->radius[k]);
        double r_eff = sim->n_walls + sim->n_meshes > 0 ? r_max : 0.5 * r_max;
        double pull = 2.0 * M_PI * k_c * r_eff;
        if (!(pull < 0.5 * law->kn))
            return rbl_error_set(err, RBL_EINVAL,
                                 "contact law: cohesion energy density %g J/m^3%s is too strong "
                                 "for kn = %g N/m: at R* = %g m it pulls like a spring of %g N/m, "
                                 "which must stay below kn / 2 (or bodies sink into each other); "
                                 "use less than %g J/m^3",
                                 k_c, which, law->kn, r_eff, pull,
                                 0.25 * law->kn / (M_PI * r_eff));
    }
    return RBL_OK;
}

int rbl_sim_check_dt_models(const rbl_sim *sim, rbl_error *err)
{
    const rbl_contact_law *law = &sim->cfg.law;
    if (law->from_materials || sim->g.n == 0)
        return RBL_OK;
    const double m = lightest_contact(sim), dt = sim->cfg.dt;
#define RBL_STEP_LIMIT(family, models, key, field, unit, rate, what)                          \
    if ((models) & (1u << law->family)) {                                                     \
        const double r = (rate);                                                              \
        if (r > 0.0 && !(dt * r < 2.0))                                                       \
            return rbl_error_set(err, RBL_EINVAL,                                             \
                                 "dt = %g s is above the stability limit of contact." key    \
                                 " = %g " unit ": " what " on the lightest contact (m_eff = " \
                                 "%g kg) needs dt < %g s",                                    \
                                 dt, law->field, m, 2.0 / r);                                 \
    }
    RBL_LAW_STEP_LIMITS(RBL_STEP_LIMIT)
#undef RBL_STEP_LIMIT
    return RBL_OK;
}

double rbl_sim_model_time(const rbl_sim *sim, const char **key, const char **what)
{
    const rbl_contact_law *law = &sim->cfg.law;
    double shortest = INFINITY;
    if (key)
        *key = NULL;
    if (what)
        *what = NULL;
    if (law->from_materials || sim->g.n == 0)
        return shortest;
    double m = INFINITY; /* the lightest grain against its like, as rbl_sim_contact_time */
    for (size_t k = 0; k < sim->g.n; k++)
        m = fmin(m, rbl_contact_mass(sim, k));
    m *= 0.5;
#define RBL_MODEL_TIME(family, models, name, field, unit, rate, about)                        \
    if ((models) & (1u << law->family)) {                                                     \
        const double r = (rate);                                                              \
        if (r > 0.0 && M_PI / r < shortest) {                                                 \
            shortest = M_PI / r;                                                              \
            if (key)                                                                          \
                *key = name;                                                                  \
            if (what)                                                                         \
                *what = about;                                                                \
        }                                                                                     \
    }
    RBL_LAW_STEP_LIMITS(RBL_MODEL_TIME)
#undef RBL_MODEL_TIME
    return shortest;
}

int rbl_sim_check_dt(rbl_sim *sim, rbl_error *err)
{
    double t_c = rbl_sim_contact_time(sim);
    double dt = sim->cfg.dt;
    /* (with a round-off's slack: c: 0.2 is the limit itself, 1 ulp either side) */
    if (dt > t_c / RBL_STEPS_PER_CONTACT_MIN * (1.0 + 1e-12))
        return rbl_error_set(err, RBL_EINVAL,
                             "dt = %g s is above the stability limit: the shortest contact lasts "
                             "%g s, %.4g steps, and needs at least %g, so dt <= %g s",
                             dt, t_c, t_c / dt, RBL_STEPS_PER_CONTACT_MIN,
                             t_c / RBL_STEPS_PER_CONTACT_MIN);
    return RBL_OK;
}
