/* collision.c — one collision simulated with the engine, for the restitution studies of
 * seed 002 §2.7 and §3.1 (SPEC SD9, SD11a): a head-on pair without gravity, or a sphere
 * dropped on a plane. Also the exact restitution of the linear spring-dashpot with the weight
 * pressing during the contact: m xi'' + gamma xi' + k xi = m g from xi = 0, xi' = v0, whose
 * first return to xi = 0 ends the contact (closed form plus a bracketed root search). */
#include "dem_internal.h"

#include <math.h>
#include <string.h>

double rbl_restitution_linear_gravity(double gamma, double m, double kn, double g, double v0)
{
    double beta = gamma / (2.0 * m), w2 = kn / m - beta * beta;
    if (!(w2 > 0.0) || !(v0 > 0.0))
        return 0.0;
    double w = sqrt(w2), xs = m * g / kn;
    double A = -xs, B = (v0 - beta * xs) / w;
    /* xi(t) = xs + e^(-beta t) (A cos wt + B sin wt) > 0 on (0, t_end) */
    double step = M_PI / w / 1000.0, t = step;
#define XI(t) (xs + exp(-beta * (t)) * (A * cos(w * (t)) + B * sin(w * (t))))
    while (XI(t) > 0.0 && t < 100.0 * M_PI / w)
        t += step;
    double lo = t - step, hi = t;
    for (int it = 0; it < 200; it++) {
        double mid = 0.5 * (lo + hi);
        if (XI(mid) > 0.0)
            lo = mid;
        else
            hi = mid;
    }
#undef XI
    double te = 0.5 * (lo + hi), e = exp(-beta * te);
    double xdot = -beta * e * (A * cos(w * te) + B * sin(w * te)) +
                  e * w * (-A * sin(w * te) + B * cos(w * te));
    return -xdot / v0;
}

static int make_sim(const rbl_collision *col, double dt, double impact, rbl_sim **out,
                    rbl_error *err)
{
    rbl_sim_config cfg;
    memset(&cfg, 0, sizeof cfg);
    double r = col->radius, span = col->kind == RBL_COLLISION_DROP ? col->h0 + 4.0 * r : 4.0 * r;
    for (int a = 0; a < 3; a++)
        cfg.lo[a] = -span, cfg.hi[a] = span;
    cfg.lo[2] = -2.0 * r;
    cfg.hi[2] = span + 2.0 * r;
    cfg.dt = dt;
    cfg.threads = 1;
    cfg.law = col->law;
    cfg.integrator = col->integrator;
    cfg.impact_velocity = impact;
    if (col->kind == RBL_COLLISION_DROP)
        cfg.gravity[2] = -col->gravity;
    int rc = rbl_sim_create(out, &cfg, err);
    if (rc != RBL_OK)
        return rc;
    rc = rbl_sim_add_material(*out, &col->material, NULL, err);
    rbl_grain g;
    memset(&g, 0, sizeof g);
    g.radius = r;
    if (rc == RBL_OK && col->kind == RBL_COLLISION_DROP) {
        rbl_wall floor = {.normal = {0, 0, 1}, .offset = 0.0};
        rc = rbl_sim_add_wall(*out, &floor, err);
        g.pos[2] = r + col->h0;
        if (rc == RBL_OK)
            rc = rbl_sim_add_grain(*out, &g, NULL, err);
    } else if (rc == RBL_OK) {
        /* the surfaces meet (1 + onset) steps after the start */
        double gap = 0.5 * col->v0 * (1.0 + col->onset) * dt;
        g.pos[0] = -(r + gap), g.vel[0] = 0.5 * col->v0;
        rc = rbl_sim_add_grain(*out, &g, NULL, err);
        g.pos[0] = r + gap, g.vel[0] = -0.5 * col->v0;
        if (rc == RBL_OK)
            rc = rbl_sim_add_grain(*out, &g, NULL, err);
    }
    if (rc != RBL_OK) {
        rbl_sim_destroy(*out);
        *out = NULL;
    }
    return rc;
}

int rbl_collision_run(const rbl_collision *col, double c, rbl_collision_result *res,
                      rbl_error *err)
{
    memset(res, 0, sizeof *res);
    if (!(col->radius > 0.0 && col->material.density > 0.0 && c > 0.0 && c <= 0.2))
        return rbl_error_set(err, RBL_EINVAL,
                             "collision: radius and density must be > 0 and C in (0, 0.2]: "
                             "r = %g, rho = %g, C = %g",
                             col->radius, col->material.density, c);
    int drop = col->kind == RBL_COLLISION_DROP;
    if (drop ? !(col->h0 > 0.0 && col->gravity > 0.0)
             : !(col->v0 > 0.0 && col->onset >= 0.0 && col->onset < 1.0))
        return rbl_error_set(err, RBL_EINVAL, "collision: %s",
                             drop ? "h0 and g must be > 0" : "v0 must be > 0, onset in [0, 1)");
    double v_in = drop ? sqrt(2.0 * col->gravity * col->h0) : col->v0;
    double m = col->material.density * 4.0 / 3.0 * M_PI * pow(col->radius, 3.0);
    double m_eff = drop ? m : 0.5 * m;
    /* dt = C pi / omega: the contact time of the law (pi / omega for the linear one) */
    rbl_sim *sim = NULL;
    int rc = make_sim(col, 1.0, v_in, &sim, err);
    if (rc == RBL_OK)
        rc = rbl_sim_check_law(sim, err);
    if (rc != RBL_OK) {
        rbl_sim_destroy(sim);
        return rc;
    }
    double t_c = rbl_sim_contact_time(sim);
    rbl_sim_destroy(sim);
    res->dt = col->dt > 0.0 ? col->dt : c * t_c;
    if ((rc = make_sim(col, res->dt, v_in, &sim, err)) != RBL_OK)
        return rc;
    int linear = col->law.normal == RBL_NORMAL_LINEAR && col->law.damping == RBL_DAMPING_LINEAR &&
                 !col->law.from_materials;
    res->e_closed = linear ? rbl_restitution_linear(col->law.gamma_n, m_eff, col->law.kn) : NAN;
    res->e_exact = !linear ? NAN
                   : drop  ? rbl_restitution_linear_gravity(col->law.gamma_n, m, col->law.kn,
                                                            col->gravity, v_in)
                           : res->e_closed;
    /* Step until the contact has ended (and, for the drop, the bounce has peaked). The
     * contact's start and end are interpolated between the steps around them. */
    int phase = 0; /* 0 approach, 1 contact, 2 after, 3 done */
    double h_max = -INFINITY, z_prev = 0.0, r = col->radius, prev_overlap = -INFINITY;
    double t_start = 0.0, t_end = 0.0;
    double flight = drop ? 3.0 * sqrt(2.0 * col->h0 / col->gravity) : 2.0 * res->dt;
    uint64_t limit = (uint64_t)((flight + 50.0 * t_c) / res->dt) + 1000;
    for (uint64_t s = 0; s < limit && phase < 3 && rc == RBL_OK; s++) {
        rc = rbl_sim_step(sim, 1, err);
        res->steps++;
        rbl_grains_view v;
        rbl_sim_grains(sim, &v);
        size_t a = 0, b = v.n > 1 ? 1 : 0;
        if (v.n > 1 && v.id[0] != 0)
            a = 1, b = 0;
        double overlap = drop ? r - v.pos[2] : 2.0 * r - (v.pos[3 * b] - v.pos[3 * a]);
        double t = (double)res->steps * res->dt;
        int touching = overlap > 0.0;
        if (overlap > res->max_overlap)
            res->max_overlap = overlap;
        if (phase == 0 && touching) {
            phase = 1;
            t_start = t - res->dt * overlap / (overlap - prev_overlap);
        }
        if (phase == 1 && !touching) {
            phase = 2;
            t_end = t - res->dt * overlap / (overlap - prev_overlap);
            if (drop) {
                double vz = v.vel[2], dz = v.pos[2] - r;
                res->e_velocity = sqrt(vz * vz + 2.0 * col->gravity * dz) / v_in;
                z_prev = v.pos[2];
            } else {
                res->e_velocity = (v.vel[3 * b] - v.vel[3 * a]) / col->v0;
                phase = 3;
            }
        } else if (phase == 2) {
            if (v.pos[2] > h_max)
                h_max = v.pos[2];
            if (v.pos[2] < z_prev)
                phase = 3;
            z_prev = v.pos[2];
        }
        prev_overlap = overlap;
    }
    rbl_sim_destroy(sim);
    if (rc != RBL_OK)
        return rc;
    res->separated = phase >= 2;
    if (phase < 2) {
        res->e_velocity = res->e_height = 0.0;
        res->contact_time = INFINITY;
        return RBL_OK;
    }
    res->contact_time = t_end - t_start;
    res->e_height = drop ? sqrt((h_max - r) / col->h0) : NAN;
    return RBL_OK;
}
