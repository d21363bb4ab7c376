/* test_dem_pair_coefs.c — a pair of materials' own coefficients, the table of them
 * (src/dem/law_table.h's RBL_PAIR_COEFS, issue 71): every slot the law takes, set by name
 * (rbl_sim_set_pair_coef), reaches the kernels' copy of that pair alone (the others keep the
 * mixing rule's); rbl_pair_props sets the same as the names do; a slot the law does not take,
 * a value out of range and an unknown name are refused with the name and value; and a
 * checkpoint carries every slot back bit for bit. Driven by the table: a coefficient added to
 * it is checked here without an edit. */
#include "dem/dem_internal.h"
#include "dem_test_util.h"

#include <string.h>
#include <unistd.h>

/* Two materials under the linear law (with_materials 0) or Hertz-Mindlin (1), each block
 * family with a model that takes a pair coefficient (cdt's mu_r; sjkr's k_c or jkr's w). */
static rbl_sim *two_materials(int hertz)
{
    rbl_sim_config c = dem_config(0.0, 0.01, 2000.0, 0.001, 1e-6);
    c.law.tangent = RBL_TANGENT_SPRING;
    c.law.friction = 0.4;
    c.law.rolling = RBL_ROLLING_CDT;
    c.law.rolling_friction = 0.05;
    c.law.cohesion = hertz ? RBL_COHESION_JKR : RBL_COHESION_SJKR;
    c.law.cohesion_energy_density = 2e4;
    c.law.surface_energy = 0.05;
    if (hertz) {
        c.law.normal = RBL_NORMAL_HERTZ;
        c.law.from_materials = 1;
    }
    rbl_sim *sim = dem_create(&c, 2500.0);
    rbl_material m = {.density = 7800, .youngs_modulus = 2e7, .poisson_ratio = 0.25,
                      .restitution = 0.8, .friction = 0.3};
    ASSERT_OK(rbl_sim_add_material(sim, &m, NULL, &err_));
    return sim;
}

/* two_materials' law, where it has no model that takes block slot k, with the first model
 * of the first row that does (its coefficient mid-range): so a model added to the table with
 * a pair coefficient is checked here too. */
static rbl_sim *law_for_slot(int hertz, int k)
{
    rbl_sim *sim = two_materials(hertz);
    const rbl_law_coef_row *any;
    if (!rbl_pair_coefs[k].block || rbl_pair_block_row(&sim->cfg.law, k, &any) || !any)
        return sim;
    int model = 0;
    while (model < 31 && !(any->models >> model & 1u))
        model++;
    rbl_law_set_model(&sim->cfg.law, rbl_law_family(any->family), model);
    rbl_law_coef_put(&sim->cfg.law, sim->law_held, any,
                     any->lo + 0.25 * (fmin(any->hi, any->lo + 1.0) - any->lo));
    ASSERT_OK(rbl_contact_law_check_models(&sim->cfg.law, &err_));
    return sim;
}

/* A value within the slot's range under sim's law (the row of the law's model for a block
 * model's), and whether the law takes the slot at all. */
static int in_range(const rbl_sim *sim, int slot, double *x)
{
    const rbl_pair_coef_row *p = &rbl_pair_coefs[slot];
    double lo = p->lo, hi = p->hi;
    if (p->block) {
        const rbl_law_coef_row *row = rbl_pair_block_row(&sim->cfg.law, slot, NULL);
        if (!row)
            return 0;
        lo = row->lo, hi = row->hi;
    } else {
        rbl_error err = {0};
        rbl_sim *probe = two_materials(sim->cfg.law.from_materials);
        int rc = rbl_sim_set_pair_coef(probe, 0, 1, p->name, 0.5 * (lo + fmin(hi, lo + 1.0)),
                                       &err);
        rbl_sim_destroy(probe);
        if (rc != RBL_OK)
            return 0;
    }
    *x = 0.5 * (lo + fmin(hi, lo + 1.0)); /* inside (lo, hi], whichever bound is open */
    return 1;
}

/* The kernels' value of slot k from a pair's own x (the table's `own`). */
static double kernel_value(int k, double x)
{
#define OWN(slot, name, unit, lo, lo_ok, hi, takes, why, rule, from_own)                      \
    if (k == RBL_PAIR_##slot)                                                                 \
        return (from_own);
    RBL_PAIR_LAW_COEFS(OWN)
#undef OWN
    return x;
}

static double slot_of(const rbl_pair_coef *c, int k)
{
    double v[RBL_PAIR_N];
#define AT(slot, ...) v[RBL_PAIR_##slot] = c->slot;
    RBL_PAIR_COEFS(AT)
#undef AT
    return v[k];
}

static void prepare_law(rbl_sim *sim)
{
    ASSERT_OK(rbl_sim_check_law(sim, &err_));
}

/* Each slot the law takes, set by name for the pair (0, 1): that pair's kernel copy holds it
 * (through the table's `own`), the pairs (0, 0) and (1, 1) keep the rule's, and the other
 * slots stay the rule's. */
static void each_slot_reaches_its_pair(int hertz)
{
    int taken = 0;
    for (int k = 0; k < RBL_PAIR_N; k++) {
        rbl_sim *plain = law_for_slot(hertz, k), *sim = law_for_slot(hertz, k);
        double x;
        if (!in_range(sim, k, &x)) {
            rbl_sim_destroy(plain), rbl_sim_destroy(sim);
            continue;
        }
        taken++;
        ASSERT_OK(rbl_sim_set_pair_coef(sim, 1, 0, rbl_pair_coefs[k].name, x, &err_));
        prepare_law(plain), prepare_law(sim);
        for (int ab = 0; ab < 4; ab++) {
            const rbl_pair_coef *c = &sim->coef[ab], *rule = &plain->coef[ab];
            const int cross = ab == 1 || ab == 2;
            for (int s = 0; s < RBL_PAIR_N; s++) {
                const double want = cross && s == k ? kernel_value(k, x) : slot_of(rule, s);
                if (memcmp(&want, &(double){slot_of(c, s)}, sizeof want) != 0) {
                    fprintf(stderr, "%s law, '%s' = %g set for materials 0 and 1: pair %d's "
                            "slot '%s' is %.17g, not %.17g\n", hertz ? "Hertz-Mindlin" : "linear",
                            rbl_pair_coefs[k].name, x, ab, rbl_pair_coefs[s].name,
                            slot_of(c, s), want);
                    exit(1);
                }
            }
            ASSERT_TRUE(c->y_star == rule->y_star && c->g_star == rule->g_star);
        }
        /* the rule differs from the pair's own, or the check above could not fail */
        ASSERT_TRUE(slot_of(&plain->coef[1], k) != kernel_value(k, x));
        rbl_sim_destroy(plain), rbl_sim_destroy(sim);
    }
    printf("%s law: %d of %d pair coefficients taken, each reaching its pair alone\n",
           hertz ? "Hertz-Mindlin" : "linear", taken, RBL_PAIR_N);
    ASSERT_EQ_INT(taken, RBL_PAIR_N - 1); /* all but gamma_n (Hertz-Mindlin) or restitution */
}

/* rbl_pair_props (ABI 1's five) sets what the names set, and a checkpoint carries every slot
 * back bit for bit (NAN where the pair has none of its own). */
static void props_names_and_checkpoint(void)
{
    rbl_sim *a = two_materials(0), *b = two_materials(0);
    const rbl_pair_props p = {0.2, NAN, 0.003, 0.04, 3e4};
    ASSERT_OK(rbl_sim_set_pair(a, 0, 1, &p, &err_));
    ASSERT_OK(rbl_sim_set_pair(a, 1, 1, &(rbl_pair_props){NAN, NAN, NAN, 0.3, NAN}, &err_));
    ASSERT_OK(rbl_sim_set_pair_coef(b, 1, 0, "cohesion", 3e4, &err_));
    ASSERT_OK(rbl_sim_set_pair_coef(b, 0, 1, "friction", 0.2, &err_));
    ASSERT_OK(rbl_sim_set_pair_coef(b, 0, 1, "rolling_friction", 0.04, &err_));
    ASSERT_OK(rbl_sim_set_pair_coef(b, 0, 1, "gamma_n", 0.003, &err_));
    ASSERT_OK(rbl_sim_set_pair_coef(b, 1, 1, "rolling_friction", 0.3, &err_));
    prepare_law(a), prepare_law(b);
    ASSERT_TRUE(memcmp(a->coef, b->coef, 4 * sizeof *a->coef) == 0);
    ASSERT_EQ_INT(a->n_pair_set, 2);
    ASSERT_TRUE(memcmp(a->pair_set, b->pair_set, 2 * sizeof *a->pair_set) == 0);

    rbl_sim *back = dem_saved_loaded(a);
    ASSERT_EQ_INT(back->n_pair_set, a->n_pair_set);
    for (int k = 0; k < a->n_pair_set; k++) {
        ASSERT_EQ_INT(back->pair_set[k].a, a->pair_set[k].a);
        ASSERT_EQ_INT(back->pair_set[k].b, a->pair_set[k].b);
        ASSERT_TRUE(memcmp(back->pair_set[k].own, a->pair_set[k].own,
                           sizeof a->pair_set[k].own) == 0);
    }
    prepare_law(back);
    ASSERT_TRUE(memcmp(a->coef, back->coef, 4 * sizeof *a->coef) == 0);
    printf("rbl_pair_props and the names set the same; a checkpoint carries every slot back\n");
    rbl_sim_destroy(a), rbl_sim_destroy(b), rbl_sim_destroy(back);
}

static void refused(rbl_sim *sim, const char *name, double x, const char *what)
{
    rbl_error err = {0};
    int rc = rbl_sim_set_pair_coef(sim, 0, 1, name, x, &err);
    if (rc == RBL_OK || !strstr(err.message, what)) {
        fprintf(stderr, "'%s' = %g: rc %d, '%s' lacks '%s'\n", name, x, rc, err.message, what);
        exit(1);
    }
    printf("refused: %s\n", err.message);
}

static void refusals(void)
{
    rbl_sim *lin = two_materials(0), *hm = two_materials(1);
    refused(lin, "frction", 0.2, "no pair coefficient 'frction' (known: friction, restitution");
    refused(lin, "restitution", 0.5, "restitution is the Hertz-Mindlin law's");
    refused(hm, "gamma_n", 0.5, "gamma_n is not the Hertz-Mindlin law's");
    refused(lin, "friction", -0.1, "friction must be in [0, inf]: '-0.1'");
    refused(lin, "cohesion", -1.0, "energy_density must be in [0, 1e+12]: '-1'");
    refused(hm, "cohesion", 0.0, "surface_energy must be in (0, 1e+06]: '0'");
    refused(hm, "rolling_friction", 2.0, "rolling_friction must be in [0, 1]: '2'");
    lin->cfg.law.rolling = RBL_ROLLING_NONE;
    refused(lin, "rolling_friction", 0.1, "rolling_friction needs a rolling model");
    ASSERT_EQ_INT(lin->n_pair_set, 0);
    ASSERT_EQ_INT(hm->n_pair_set, 0);
    rbl_sim_destroy(lin), rbl_sim_destroy(hm);
}

int main(void)
{
    each_slot_reaches_its_pair(0);
    each_slot_reaches_its_pair(1);
    props_names_and_checkpoint();
    refusals();
    return 0;
}
