/* law_parse.c — the contact law's block sub-models in a scene, read from the law's table
 * (src/dem/law_table.h): contact.<family>: {model: NAME, coefficients} for cohesion, rolling
 * and twisting, each coefficient checked against its row's range, a model's needs of the rest
 * of the law, and a pair of materials' own values of them (contact.pairs). A sub-model added
 * to the table is read here without an edit. */
#include "yaml_read.h"
#include "../dem/law_table.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MODELS_MAX 16

/* The family's model names (NULL-terminated) and, in `list`, those but "none" as "a, b or c". */
static void model_names(const rbl_law_family_row *f, const char *names[MODELS_MAX + 1],
                        char *list, size_t size)
{
    int n = 0, shown = 0, real = 0;
    for (int m = 0; m < f->n_models && m < MODELS_MAX; m++)
        names[n++] = f->models[m].name, real += strcmp(f->models[m].name, "none") != 0;
    names[n] = NULL;
    list[0] = '\0';
    for (int m = 0; m < n; m++) {
        if (strcmp(names[m], "none") == 0)
            continue;
        shown++;
        strncat(list, shown == 1 ? "" : shown == real ? " or " : ", ", size - strlen(list) - 1);
        strncat(list, names[m], size - strlen(list) - 1);
    }
}

/* The keys the family's model takes, as "'a'" or "'a', 'b'" (or "no coefficient"). */
static void keys_taken(const rbl_law_family_row *f, int model, char *out, size_t size)
{
    out[0] = '\0';
    for (int k = 0; k < rbl_law_n_coefs; k++) {
        const rbl_law_coef_row *c = &rbl_law_coefs[k];
        if (strcmp(c->family, f->name) != 0 || !(c->models >> model & 1u))
            continue;
        if (out[0])
            strncat(out, ", ", size - strlen(out) - 1);
        strncat(out, "'", size - strlen(out) - 1);
        strncat(out, c->key, size - strlen(out) - 1);
        strncat(out, "'", size - strlen(out) - 1);
    }
    if (!out[0])
        snprintf(out, size, "no coefficient");
}

/* Coefficient row c of the block `node` into the law: required where the model takes it,
 * refused where it does not. */
static int block_coefficient(rbl_yaml_ctx *c, yaml_node_t *node, const rbl_law_family_row *f,
                             int model, const rbl_law_coef_row *row, rbl_contact_law *law,
                             double *held)
{
    yaml_node_t *v = rbl_yaml_get(c, node, row->key);
    const int takes = model >= 0 && model < 32 && (row->models >> model & 1u);
    if (v && !takes) {
        char taken[160];
        keys_taken(f, model, taken, sizeof taken);
        return rbl_yaml_fail(c, v, RBL_EPARSE, "%s model %s takes %s, not '%s'", f->name,
                             rbl_law_model_name(f, model), taken, row->key);
    }
    if (!takes)
        return RBL_OK;
    if (!v)
        return rbl_yaml_fail(c, node, RBL_EPARSE, "'%s' needs '%s'", f->key, row->key);
    double x;
    char key[64]; /* as the scene nests it: 'rolling.friction' */
    snprintf(key, sizeof key, "%s.%s", f->key, row->key);
    int rc = rbl_yaml_number(c, v, key, &x);
    if (rc != RBL_OK)
        return rc;
    if (x > row->hi)
        return rbl_yaml_fail(c, v, RBL_ERANGE, "%s '%s' must be <= %g%s%s%s: '%g'", f->key,
                             row->key, row->hi, row->unit[0] ? " " : "", row->unit, row->note, x);
    if (!(x > row->lo || (row->lo_ok && x == row->lo)))
        return rbl_yaml_fail(c, v, RBL_ERANGE, "%s '%s' must be %s %g and <= %g%s%s: '%g'",
                             f->key, row->key, row->lo_ok ? ">=" : ">", row->lo, row->hi,
                             row->unit[0] ? " " : "", row->unit, x);
    rbl_law_coef_put(law, held, row, x);
    return RBL_OK;
}

/* One block family's mapping, where the scene has it. */
static int parse_block(rbl_yaml_ctx *c, yaml_node_t *contact, const rbl_law_family_row *f,
                       rbl_contact_law *law, double *held)
{
    yaml_node_t *node = rbl_yaml_get(c, contact, f->key);
    if (!node)
        return RBL_OK;
    const char *names[MODELS_MAX + 1];
    char list[200];
    model_names(f, names, list, sizeof list);
    if (node->type != YAML_MAPPING_NODE)
        return rbl_yaml_fail(c, node, RBL_EPARSE, "'%s' must be a mapping {model: %s, ...}",
                             f->key, list);
    const char *keys[2 + 16] = {"model"};
    int n_keys = 1;
    for (int k = 0; k < rbl_law_n_coefs && n_keys < 17; k++) {
        int seen = 0;
        for (int j = 1; j < n_keys; j++)
            seen |= strcmp(keys[j], rbl_law_coefs[k].key) == 0;
        if (strcmp(rbl_law_coefs[k].family, f->name) == 0 && !seen)
            keys[n_keys++] = rbl_law_coefs[k].key;
    }
    keys[n_keys] = NULL;
    int index = 0, rc;
    yaml_node_t *name = rbl_yaml_get(c, node, "model");
    if (name && name->type != YAML_SCALAR_NODE) /* (a mapping or list has no name to quote) */
        return rbl_yaml_fail(c, name, RBL_EPARSE, "%s's 'model' must be a name, one of %s, "
                             "not a %s", f->key, list,
                             name->type == YAML_MAPPING_NODE ? "mapping" : "list");
    if ((rc = rbl_yaml_keys_known(c, node, f->key, keys)) ||
        (rc = rbl_yaml_choice(c, node, "model", names, &index)))
        return rc;
    if (!rbl_yaml_get(c, node, "model"))
        return rbl_yaml_fail(c, node, RBL_EPARSE, "'%s' needs 'model' (%s)", f->key, list);
    const int model = f->models[index].value;
    rbl_law_set_model(law, f, model);
    for (int k = 0; k < rbl_law_n_coefs; k++)
        if (strcmp(rbl_law_coefs[k].family, f->name) == 0 &&
            (rc = block_coefficient(c, node, f, model, &rbl_law_coefs[k], law, held)) != RBL_OK)
            return rc;
    const char *why, *need = rbl_law_unmet_need(law, f, &why);
    if (need) {
        const char *given = why ? rbl_yaml_scalar(rbl_yaml_get(c, contact, why)) : NULL;
        return rbl_yaml_fail(c, node, RBL_EPARSE, "%s model %s needs %s%s%s%s", f->name,
                             f->models[index].name, need, given ? ", not '" : "",
                             given ? given : "", given ? "'" : "");
    }
    return RBL_OK;
}

int rbl_scene_parse_law_blocks(rbl_yaml_ctx *c, yaml_node_t *contact, rbl_contact_law *law,
                               double held[RBL_LAW_N_COEFS])
{
    for (int f = 0; f < rbl_law_n_families; f++) {
        int rc;
        if (rbl_law_families[f].block &&
            (rc = parse_block(c, contact, &rbl_law_families[f], law, held)) != RBL_OK)
            return rc;
    }
    return RBL_OK;
}

int rbl_scene_law_keys(const char **keys, int n, int cap, int blocks, int pairs)
{
    for (int f = 0; blocks && f < rbl_law_n_families && n < cap; f++)
        if (rbl_law_families[f].block)
            keys[n++] = rbl_law_families[f].key;
    for (int k = 0; pairs && k < rbl_law_n_coefs && n < cap; k++) {
        int seen = !rbl_law_coefs[k].pair_key;
        for (int j = 0; !seen && j < n; j++)
            seen = strcmp(keys[j], rbl_law_coefs[k].pair_key) == 0;
        if (!seen)
            keys[n++] = rbl_law_coefs[k].pair_key;
    }
    return n;
}

int rbl_scene_parse_pair_blocks(rbl_yaml_ctx *c, yaml_node_t *p, const rbl_contact_law *law,
                                double own[RBL_PAIR_N])
{
    for (int k = 0; k < rbl_law_n_coefs; k++) {
        const rbl_law_coef_row *row = &rbl_law_coefs[k];
        yaml_node_t *v = row->pair_key ? rbl_yaml_get(c, p, row->pair_key) : NULL;
        if (!v)
            continue;
        const rbl_law_family_row *f = rbl_law_family(row->family);
        const int model = rbl_law_model_of(law, f);
        int taken_by_another = 0;
        for (int o = 0; o < rbl_law_n_coefs; o++)
            taken_by_another |= o != k && rbl_law_coefs[o].pair_key &&
                                strcmp(rbl_law_coefs[o].pair_key, row->pair_key) == 0 &&
                                rbl_law_coef_applies(&rbl_law_coefs[o], law);
        if (taken_by_another)
            continue;
        if (!rbl_law_coef_applies(row, law)) {
            int first = 0; /* a model that takes it, for the message */
            while (first < 31 && !(row->models >> first & 1u))
                first++;
            return rbl_yaml_fail(c, v, RBL_EPARSE, "a pair's '%s' needs %s: {model: %s} "
                                 "(the law's is %s)", row->pair_key, f->key,
                                 rbl_law_model_name(f, first), rbl_law_model_name(f, model));
        }
        double x;
        int rc = rbl_yaml_number(c, v, row->pair_key, &x);
        if (rc != RBL_OK)
            return rc;
        if (!((x > row->lo || (row->pair_lo_ok && x == row->lo)) && x <= row->hi))
            return rbl_yaml_fail(c, v, RBL_ERANGE, "a pair's '%s' must be in %s%g, %g]%s%s: "
                                 "'%g'", row->pair_key, row->pair_lo_ok ? "[" : "(", row->lo,
                                 row->hi, row->unit[0] ? " " : "", row->unit, x);
        own[row->slot] = x;
    }
    return RBL_OK;
}

void rbl_scene_pair_block_keys(char *text, size_t size)
{
    text[0] = '\0';
    for (int k = 0; k < rbl_law_n_coefs; k++) {
        const rbl_law_coef_row *row = &rbl_law_coefs[k];
        if (!row->pair_key)
            continue;
        const rbl_law_family_row *f = rbl_law_family(row->family);
        int first = 0, count = 0; /* its models, named where it is one's alone */
        for (int m = 31; m >= 0; m--)
            if (row->models >> m & 1u)
                first = m, count++;
        const size_t n = strlen(text);
        snprintf(text + n, size - n, "%s'%s' (%s%s%s)", n ? ", " : "", row->pair_key, f->key,
                 count == 1 ? ": " : "", count == 1 ? rbl_law_model_name(f, first) : "");
    }
}
