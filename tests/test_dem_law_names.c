/* test_dem_law_names.c — the contact law by name (issue 71): a model set by its family and
 * name (rbl_contact_law_set_model), each family's models distinct; every coefficient of the
 * law's table set by name on a simulation (rbl_sim_set_law_coef), read back by either of its
 * names and, for ABI 1's, from the law's field; refused where unknown (with the nearest
 * name), out of range, or not its model's; the mixing rule's pair copy holding it; a
 * checkpoint (format 26: the coefficients by name) carrying it back bit for bit and refusing a
 * name this build does not know, naming the file and the name; and a pile under rolling,
 * cohesion and a pair's own rolling friction, all set by name, restarted at an odd step in the
 * same bits. Driven by the table: a model or a `held` coefficient added to it is checked here
 * without an edit. */
#include "dem/dem_internal.h"
#include "dem_test_util.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void assert_refused(int rc, const rbl_error *err, const char *needle)
{
    printf("refused: %s\n", err->message);
    ASSERT_TRUE(rc != RBL_OK);
    ASSERT_TRUE(strstr(err->message, needle) != NULL);
}

static void models_by_name(void)
{
    rbl_contact_law law;
    memset(&law, 0, sizeof law);
    rbl_error err = {0};
    ASSERT_OK(rbl_contact_law_set_model(&law, "rolling", "epsd2", &err));
    ASSERT_EQ_INT(law.rolling, RBL_ROLLING_EPSD2);
    ASSERT_OK(rbl_contact_law_set_model(&law, "tangential", "spring", &err));
    ASSERT_EQ_INT(law.tangent, RBL_TANGENT_SPRING);
    ASSERT_OK(rbl_contact_law_set_model(&law, "tangent", "seed", &err)); /* its C name too */
    ASSERT_EQ_INT(law.tangent, RBL_TANGENT_SEED);
    const rbl_contact_law before = law;
    assert_refused(rbl_contact_law_set_model(&law, "rollin", "cdt", &err), &err,
                   "did you mean 'rolling'?");
    assert_refused(rbl_contact_law_set_model(&law, "rolling", "epsd", &err), &err,
                   "did you mean 'epsd2'?");
    assert_refused(rbl_contact_law_set_model(&law, "twisting", NULL, &err), &err, "marshall");
    ASSERT_TRUE(memcmp(&law, &before, sizeof law) == 0); /* refusals change nothing */
    /* every model of every family by its name, and the values distinct (a model added after
       ABI 1 takes its constant beside its row) */
    for (int f = 0; f < rbl_law_n_families; f++) {
        const rbl_law_family_row *fam = &rbl_law_families[f];
        for (int m = 0; m < fam->n_models; m++) {
            ASSERT_OK(rbl_contact_law_set_model(&law, fam->key, fam->models[m].name, &err));
            ASSERT_EQ_INT(rbl_law_model_of(&law, fam), fam->models[m].value);
            for (int o = 0; o < m; o++)
                ASSERT_TRUE(fam->models[o].value != fam->models[m].value);
        }
    }
}

/* The kernels' copy of the pair of material 0 with itself, at `slot`. */
static double pair_copy(const rbl_sim *sim, int slot)
{
#define SLOT_AT(s, ...) offsetof(rbl_pair_coef, s),
    static const size_t at[RBL_PAIR_N] = {RBL_PAIR_COEFS(SLOT_AT)};
#undef SLOT_AT
    double x;
    memcpy(&x, (const char *)&sim->coef[0] + at[slot], sizeof x);
    return x;
}

/* A simulation whose law has, in row c's family, the first model that takes c (the rest of
 * the law what that model needs), c's value x set in the configuration where it is a field. */
static rbl_sim *law_for_row(const rbl_law_coef_row *c, double x)
{
    const double hi[3] = {0.01, 0.01, 0.01};
    rbl_sim_config cfg = dem_floor_config(hi, 2e4, 0.0, 1e-6, 1);
    const rbl_law_family_row *f = rbl_law_family(c->family);
    int m = 0;
    while (!(c->models >> f->models[m].value & 1u))
        m++;
    ASSERT_OK(rbl_contact_law_set_model(&cfg.law, f->key, f->models[m].name, &err_));
    const char *key, *need = rbl_law_unmet_need(&cfg.law, f, &key);
    if (need && strcmp(key, "normal") == 0) /* jkr: Hertz-Mindlin */
        cfg.law.from_materials = 1, cfg.law.normal = RBL_NORMAL_HERTZ,
        cfg.law.damping = RBL_DAMPING_TSUJI;
    rbl_law_coef_put(&cfg.law, NULL, c, x);
    return dem_create(&cfg, 2500.0);
}

/* Every row of the table by name: set, read both ways, refused, mixed, carried. */
static void coefficients_by_name(void)
{
    for (int k = 0; k < rbl_law_n_coefs; k++) {
        const rbl_law_coef_row *c = &rbl_law_coefs[k];
        const double x0 = c->lo + 0.5 * (fmin(c->hi, c->lo + 1.0) - c->lo);
        const double x = c->lo + 0.25 * (fmin(c->hi, c->lo + 1.0) - c->lo);
        char name[RBL_LAW_COEF_NAME_MAX];
        rbl_law_coef_name(c, name);
        rbl_sim *sim = law_for_row(c, x0);
        rbl_error err = {0};
        double got = NAN;
        ASSERT_OK(rbl_sim_set_law_coef(sim, name, x, &err));
        ASSERT_OK(rbl_sim_law_coef(sim, name, &got, &err));
        ASSERT_TRUE(got == x);
        if (c->pair_key) {
            ASSERT_OK(rbl_sim_law_coef(sim, c->pair_key, &got, &err));
            ASSERT_TRUE(got == x);
        }
        if (c->offset != RBL_LAW_HELD) /* ABI 1's: the law's field too */
            ASSERT_TRUE(rbl_law_coef_get(&rbl_sim_config_get(sim)->law, NULL, c) == x);
        /* out of range, below and above: refused, the value kept */
        assert_refused(rbl_sim_set_law_coef(sim, name, c->hi * 2.0 + 1.0, &err), &err, c->key);
        assert_refused(rbl_sim_set_law_coef(sim, name, c->lo - 1.0, &err), &err, "must be in");
        assert_refused(rbl_sim_set_law_coef(sim, name, NAN, &err), &err, "must be in");
        ASSERT_OK(rbl_sim_law_coef(sim, name, &got, &err));
        ASSERT_TRUE(got == x);
        /* a slip of its name: the nearest named */
        char slip[RBL_LAW_COEF_NAME_MAX];
        snprintf(slip, sizeof slip, "%s", name);
        slip[strlen(slip) - 1] = slip[strlen(slip) - 1] == 'x' ? 'y' : 'x';
        char hint[RBL_LAW_COEF_NAME_MAX + 32];
        snprintf(hint, sizeof hint, "did you mean '%s'?", name);
        assert_refused(rbl_sim_set_law_coef(sim, slip, x, &err), &err, hint);
        /* the other rows of its family that its model does not take: refused */
        for (int o = 0; o < rbl_law_n_coefs; o++) {
            char other[RBL_LAW_COEF_NAME_MAX];
            if (!rbl_law_coef_applies(&rbl_law_coefs[o], &sim->cfg.law))
                assert_refused(rbl_sim_set_law_coef(sim, rbl_law_coef_name(&rbl_law_coefs[o],
                                                                            other), 0.5, &err),
                               &err, "model is");
        }
        /* the mixing rule: the pairs' copy holds it */
        dem_grain(sim, 0.005, 0.005, 0.005, 0, 0, 0, 0.001);
        ASSERT_OK(rbl_sim_check_law(sim, &err));
        ASSERT_TRUE(pair_copy(sim, c->slot) == x);
        /* held: the set-up check reads the simulation's value */
        if (c->offset == RBL_LAW_HELD) {
            sim->law_held[k] = c->hi * 2.0 + 1.0;
            assert_refused(rbl_sim_check_law(sim, &err), &err, c->key);
            sim->law_held[k] = x;
        }
        /* a checkpoint carries it by name, bit for bit */
        rbl_sim *back = dem_saved_loaded(sim);
        ASSERT_OK(rbl_sim_law_coef(back, name, &got, &err));
        ASSERT_TRUE(got == x);
        ASSERT_TRUE(memcmp(back->law_held, sim->law_held, sizeof sim->law_held) == 0);
        printf("%s (%s): set, read, refused, mixed and carried by name\n", name,
               c->offset == RBL_LAW_HELD ? "held by the simulation" : "a field of the law");
        rbl_sim_destroy(back);
        rbl_sim_destroy(sim);
    }
}

/* A frictional pile under epsd2 rolling and sjkr cohesion, the models and coefficients set by
 * name, a pair's own rolling friction by name. */
static rbl_sim *named_pile(void)
{
    const double hi[3] = {0.02, 0.02, 0.05};
    const double r = 0.001, m = 2500.0 * 4.0 / 3.0 * M_PI * r * r * r, kn = 2e4;
    const double gamma = rbl_gamma_from_restitution(0.5, 0.5 * m, kn);
    rbl_sim_config cfg =
        dem_floor_config(hi, kn, gamma, rbl_dt_from_c(0.05, kn, gamma, 0.5 * m), 1);
    ASSERT_OK(rbl_contact_law_set_model(&cfg.law, "rolling", "epsd2", &err_));
    ASSERT_OK(rbl_contact_law_set_model(&cfg.law, "cohesion", "sjkr", &err_));
    cfg.law.rolling_friction = 0.3; /* ABI 1's fields: rbl_sim_create wants them in range */
    cfg.law.cohesion_energy_density = 100.0;
    rbl_sim *sim = dem_create(&cfg, 2500.0);
    rbl_material other = {.density = 2500.0};
    ASSERT_OK(rbl_sim_add_material(sim, &other, NULL, &err_));
    ASSERT_OK(rbl_sim_set_law_coef(sim, "rolling.friction", 0.2, &err_));
    ASSERT_OK(rbl_sim_set_law_coef(sim, "energy_density", 500.0, &err_));
    ASSERT_OK(rbl_sim_set_pair_coef(sim, 0, 1, "rolling_friction", 0.05, &err_));
    rbl_wall floor = {.normal = {0, 0, 1}, .offset = 0.0};
    ASSERT_OK(rbl_sim_add_wall(sim, &floor, &err_));
    uint64_t seed = 3;
    for (int k = 0; k < 64; k++) {
        rbl_grain g;
        memset(&g, 0, sizeof g);
        g.pos[0] = (k % 4 + 0.5) * 0.005 + 0.001 * (rand01(&seed) - 0.5);
        g.pos[1] = (k / 4 % 4 + 0.5) * 0.005;
        g.pos[2] = 0.0015 + (k / 16) * 0.0025;
        g.vel[2] = -0.2;
        g.radius = r * (0.8 + 0.2 * rand01(&seed));
        g.material = k % 2;
        ASSERT_OK(rbl_sim_add_grain(sim, &g, NULL, &err_));
    }
    return sim;
}

static void restart_by_name(void)
{
    rbl_sim *one = named_pile(), *two = named_pile();
    dem_assert_restart_same(one, &two); /* saved at step 751 */
    double got;
    ASSERT_OK(rbl_sim_law_coef(two, "rolling.friction", &got, &err_));
    ASSERT_TRUE(got == 0.2);
    ASSERT_OK(rbl_sim_law_coef(two, "cohesion.energy_density", &got, &err_));
    ASSERT_TRUE(got == 500.0);
    printf("a pile under coefficients set by name: restarted at step 751 in the same bits\n");
    rbl_sim_destroy(one);
    rbl_sim_destroy(two);
}

/* The file's bytes with `from` replaced by `to` (as long) and a fresh checksum (the layout:
 * magic, version, byte-order mark, payload size, payload, FNV-1a of the payload). */
static void rename_in_file(const char *path, const char *from, const char *to)
{
    FILE *f = fopen(path, "rb");
    ASSERT_TRUE(f != NULL);
    unsigned char bytes[1 << 16];
    const size_t n = fread(bytes, 1, sizeof bytes, f);
    fclose(f);
    ASSERT_TRUE(n > 32 && n < sizeof bytes && strlen(from) == strlen(to));
    unsigned char *at = NULL;
    for (size_t k = 0; !at && k + strlen(from) <= n; k++)
        if (memcmp(bytes + k, from, strlen(from)) == 0)
            at = bytes + k;
    ASSERT_TRUE(at != NULL);
    memcpy(at, to, strlen(to));
    uint64_t len, sum;
    memcpy(&len, bytes + 16, sizeof len);
    ASSERT_TRUE(24 + len + 8 == n);
    sum = rbl_fnv1a(RBL_FNV1A_START, bytes + 24, len);
    memcpy(bytes + 24 + len, &sum, sizeof sum);
    f = fopen(path, "wb");
    ASSERT_TRUE(f != NULL && fwrite(bytes, 1, n, f) == n);
    fclose(f);
}

/* A checkpoint naming a law or pair coefficient this build lacks is refused, naming both. */
static void unknown_names_refused(void)
{
    static const char *const names[][2] = {{"rolling.friction", "rolling.frixtion"},
                                           {"rolling_friction", "rolling_frixtion"}};
    for (int k = 0; k < 2; k++) {
        rbl_sim *sim = named_pile();
        char path[] = "/tmp/test_dem_law_names_XXXXXX";
        int fd = mkstemp(path);
        ASSERT_TRUE(fd >= 0);
        close(fd);
        rbl_error err = {0};
        ASSERT_OK(rbl_sim_save(sim, path, &err));
        rename_in_file(path, names[k][0], names[k][1]);
        rbl_sim *back = NULL;
        int rc = rbl_sim_load(path, &back, &err);
        assert_refused(rc, &err, names[k][1]);
        ASSERT_TRUE(strstr(err.message, path) != NULL && back == NULL);
        unlink(path);
        rbl_sim_destroy(sim);
    }
}

int main(void)
{
    models_by_name();
    coefficients_by_name();
    restart_by_name();
    unknown_names_refused();
    printf("ok\n");
    return 0;
}
