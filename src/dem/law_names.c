/* law_names.c — the contact law's models and coefficients by name for C callers (issue 71):
 * a model by its family and its name in scenes, a coefficient by "family.key" or its pair key,
 * each from the law's table (law_table.h), so that a model or a coefficient added after ABI 1
 * needs no enum value or field in include/rubble.h. Units: each row's own (law_table.h). */
#include "dem_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define NAMES_MAX 64

/* text appended to out (size bytes), cut where it does not fit. */
static void append(char *out, size_t size, const char *text)
{
    const size_t have = strlen(out), room = size - 1 - have, n = strlen(text);
    memcpy(out + have, text, n < room ? n : room);
    out[have + (n < room ? n : room)] = '\0';
}

int rbl_contact_law_set_model(rbl_contact_law *law, const char *family, const char *name,
                              rbl_error *err)
{
    const char *keys[NAMES_MAX] = {0};
    char known[256] = "", hint[RBL_DID_YOU_MEAN_MAX];
    const rbl_law_family_row *f = NULL;
    int n = 0;
    for (int k = 0; k < rbl_law_n_families && n < NAMES_MAX; k++) {
        const rbl_law_family_row *r = &rbl_law_families[k];
        if (family && (strcmp(r->key, family) == 0 || strcmp(r->name, family) == 0))
            f = r;
        keys[n++] = r->key;
        append(known, sizeof known, k ? ", " : "");
        append(known, sizeof known, r->key);
    }
    if (!law || !f)
        return rbl_error_set(err, RBL_EINVAL, "contact law: no model family '%s' (known: %s)%s",
                             family ? family : "(null)", known,
                             rbl_did_you_mean(hint, family, keys, n));
    known[0] = '\0', n = 0;
    for (int m = 0; m < f->n_models && n < NAMES_MAX; m++) {
        if (name && strcmp(f->models[m].name, name) == 0) {
            rbl_law_set_model(law, f, f->models[m].value);
            return RBL_OK;
        }
        keys[n++] = f->models[m].name;
        append(known, sizeof known, m ? ", " : "");
        append(known, sizeof known, f->models[m].name);
    }
    return rbl_error_set(err, RBL_EINVAL, "contact law: no %s model '%s' (known: %s)%s", f->key,
                         name ? name : "(null)", known, rbl_did_you_mean(hint, name, keys, n));
}

/* The row named `name`, or an error naming the known names and the nearest. */
static const rbl_law_coef_row *named_row(const char *name, rbl_error *err)
{
    const rbl_law_coef_row *c = rbl_law_coef_named(name);
    if (c)
        return c;
    char full[NAMES_MAX][RBL_LAW_COEF_NAME_MAX], known[512] = "", hint[RBL_DID_YOU_MEAN_MAX];
    const char *names[2 * NAMES_MAX] = {0};
    int n = 0;
    for (int k = 0; k < rbl_law_n_coefs && k < NAMES_MAX; k++) {
        const rbl_law_coef_row *r = &rbl_law_coefs[k];
        names[n++] = rbl_law_coef_name(r, full[k]);
        if (r->pair_key)
            names[n++] = r->pair_key;
        append(known, sizeof known, k ? ", " : "");
        append(known, sizeof known, full[k]);
        if (r->pair_key) {
            append(known, sizeof known, " (");
            append(known, sizeof known, r->pair_key);
            append(known, sizeof known, ")");
        }
    }
    rbl_error_set(err, RBL_EINVAL, "contact law: no coefficient '%s' (known: %s)%s",
                  name ? name : "(null)", known, rbl_did_you_mean(hint, name, names, n));
    return NULL;
}

int rbl_sim_set_law_coef(rbl_sim *sim, const char *name, double value, rbl_error *err)
{
    const rbl_law_coef_row *c = named_row(name, err);
    if (!c)
        return RBL_EINVAL;
    char full[RBL_LAW_COEF_NAME_MAX];
    rbl_law_coef_name(c, full);
    const rbl_law_family_row *f = rbl_law_family(c->family);
    rbl_contact_law *law = &sim->cfg.law;
    if (!rbl_law_coef_applies(c, law)) {
        char models[160] = "";
        for (int m = 0; m < f->n_models; m++)
            if (f->models[m].value >= 0 && f->models[m].value < 32 &&
                c->models >> f->models[m].value & 1u)
                append(models, sizeof models, models[0] ? " or " : ""),
                    append(models, sizeof models, f->models[m].name);
        return rbl_error_set(err, RBL_EINVAL, "contact law: %s is the %s %s model's; this "
                             "law's %s model is %s (rbl_contact_law_set_model before "
                             "rbl_sim_create)", full, models, f->key, f->key,
                             rbl_law_model_name(f, rbl_law_model_of(law, f)));
    }
    int rc = rbl_law_coef_check(c, value, err);
    if (rc != RBL_OK)
        return rc;
    rbl_law_coef_put(law, sim->law_held, c, value);
    sim->prepared = 0; /* the pairs' copies take it (the mixing rule, law.c) */
    return RBL_OK;
}

int rbl_sim_law_coef(const rbl_sim *sim, const char *name, double *value, rbl_error *err)
{
    const rbl_law_coef_row *c = named_row(name, err);
    if (!c)
        return RBL_EINVAL;
    *value = rbl_law_coef_get(&sim->cfg.law, sim->law_held, c);
    return RBL_OK;
}
