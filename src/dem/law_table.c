/* law_table.c — the contact law's table (law_table.h) as rows the parser, the set-up checks
 * and the messages read: each family's models with their names, each block family's
 * coefficients with their ranges, and what a model needs of the rest of the law. */
#include "law_table.h"

#include <string.h>

#define MODEL_ROW(F, en, name, hist, doc) {en, name, doc, hist},
#define FAMILY_MODELS(family, MODELS, key, block)                                             \
    static const rbl_law_model_row family##_models[] = {MODELS(MODEL_ROW)};
RBL_LAW_FAMILIES(FAMILY_MODELS)
#undef FAMILY_MODELS

#define FAMILY_ROW(family, MODELS, key, block)                                                \
    {#family, key, block, offsetof(rbl_contact_law, family), family##_models,                 \
     (int)(sizeof family##_models / sizeof family##_models[0])},
const rbl_law_family_row rbl_law_families[] = {RBL_LAW_FAMILIES(FAMILY_ROW)};
#undef FAMILY_ROW
const int rbl_law_n_families = (int)(sizeof rbl_law_families / sizeof rbl_law_families[0]);

#define COEF_ROW(family, models, key, field, unit, lo, lo_ok, hi, note, pair_key, pair_field,  \
                 pair_lo_ok, coef_field)                                                      \
    {#family, key, unit, note, pair_key, models, offsetof(rbl_contact_law, field),            \
     offsetof(rbl_pair_props, pair_field), lo, hi, lo_ok, pair_lo_ok},
const rbl_law_coef_row rbl_law_coefs[] = {RBL_LAW_COEFS(COEF_ROW)};
#undef COEF_ROW
const int rbl_law_n_coefs = (int)(sizeof rbl_law_coefs / sizeof rbl_law_coefs[0]);

const rbl_law_family_row *rbl_law_family(const char *name)
{
    for (int f = 0; f < rbl_law_n_families; f++)
        if (strcmp(rbl_law_families[f].name, name) == 0)
            return &rbl_law_families[f];
    return NULL;
}

/* The enums are ints (C: an enum's type holds its values; every model's enum here is int
 * sized, as test_abi_layout holds the law's layout) */
int rbl_law_model_of(const rbl_contact_law *law, const rbl_law_family_row *f)
{
    int v;
    memcpy(&v, (const char *)law + f->offset, sizeof v);
    return v;
}

void rbl_law_set_model(rbl_contact_law *law, const rbl_law_family_row *f, int value)
{
    memcpy((char *)law + f->offset, &value, sizeof value);
}

const char *rbl_law_model_name(const rbl_law_family_row *f, int value)
{
    for (int m = 0; m < f->n_models; m++)
        if (f->models[m].value == value)
            return f->models[m].name;
    return "?";
}

int rbl_law_coef_applies(const rbl_law_coef_row *c, const rbl_contact_law *law)
{
    int m = rbl_law_model_of(law, rbl_law_family(c->family));
    return m >= 0 && m < 32 && (c->models >> m & 1u);
}

double *rbl_law_coef_at(rbl_contact_law *law, const rbl_law_coef_row *c)
{
    return (double *)(void *)((char *)law + c->offset);
}

const char *rbl_law_unmet_need(const rbl_contact_law *law, const rbl_law_family_row *f,
                               const char **key)
{
    const int m = rbl_law_model_of(law, f);
    const unsigned bit = m >= 0 && m < 32 ? 1u << m : 0u;
#define NEED(family, models, condition, what, why)                                            \
    if (strcmp(f->name, #family) == 0 && ((models) & bit) && !(condition)) {                  \
        *key = why;                                                                           \
        return what;                                                                          \
    }
    RBL_LAW_NEEDS(NEED)
#undef NEED
    *key = NULL;
    return NULL;
}

/* Every family's enum is an int in the law (what rbl_law_model_of reads). */
#define INT_SIZED(family, MODELS, key, block)                                                 \
    _Static_assert(sizeof(((rbl_contact_law *)0)->family) == sizeof(int), #family " is an int");
RBL_LAW_FAMILIES(INT_SIZED)
#undef INT_SIZED

/* The twisting family's slices fit the pair pass's rows (RBL_HIST_FURTHER_MAX). */
#define FURTHER_FITS(F, en, name, hist, doc)                                                  \
    _Static_assert((hist) <= RBL_HIST_FURTHER_MAX, "the " name " model's history is wider "  \
                                                   "than RBL_HIST_FURTHER_MAX");
RBL_TWISTING_MODELS(FURTHER_FITS)
#undef FURTHER_FITS
