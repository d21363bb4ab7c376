/* law_table.c — the contact law's table (law_table.h) as rows the parser, the set-up checks
 * and the messages read: each family's models with their names, each block family's
 * coefficients with their ranges and names, where the law's value of each is (a field of
 * rbl_contact_law, or held by the simulation), and what a model needs of the rest of the law. */
#include "law_table.h"

#include <stdio.h>
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

#define COEF_ROW(family, models, key, field, unit, lo, lo_ok, hi, note, pair_key, pair_lo_ok,   \
                 slot)                                                                        \
    {#family, key, unit, note, pair_key, models, RBL_LAW_FIELD_OFFSET(field),                 \
     RBL_PAIR_##slot, lo, hi, lo_ok, pair_lo_ok},
const rbl_law_coef_row rbl_law_coefs[] = {RBL_LAW_COEFS(COEF_ROW)};
#undef COEF_ROW
const int rbl_law_n_coefs = (int)(sizeof rbl_law_coefs / sizeof rbl_law_coefs[0]);

#define LAW_PAIR_ROW(slot, name, unit, lo, lo_ok, hi, takes, why, rule, own)                  \
    {name, unit, lo, hi, lo_ok, 0},
#define BLOCK_PAIR_ROW(slot, name) {name, "", 0.0, 0.0, 0, 1},
const rbl_pair_coef_row rbl_pair_coefs[RBL_PAIR_N] = {
    RBL_PAIR_LAW_COEFS(LAW_PAIR_ROW) RBL_PAIR_BLOCK_COEFS(BLOCK_PAIR_ROW)};
#undef LAW_PAIR_ROW
#undef BLOCK_PAIR_ROW

/* rbl_pair_props's fields are the first slots' values, in slot order (law.c copies them). */
#define PROPS_AT(slot, field)                                                                 \
    _Static_assert(offsetof(rbl_pair_props, field) == RBL_PAIR_##slot * sizeof(double),       \
                   "rbl_pair_props." #field " is slot " #slot);
RBL_PAIR_PROPS(PROPS_AT)
#undef PROPS_AT
#define ONE(slot, field) +1
_Static_assert(sizeof(rbl_pair_props) == (0 RBL_PAIR_PROPS(ONE)) * sizeof(double),
               "RBL_PAIR_PROPS names every field of rbl_pair_props");
#undef ONE

int rbl_pair_coef_slot(const char *name)
{
    for (int k = 0; name && k < RBL_PAIR_N; k++)
        if (strcmp(rbl_pair_coefs[k].name, name) == 0)
            return k;
    return -1;
}

const rbl_law_coef_row *rbl_pair_block_row(const rbl_contact_law *law, int slot,
                                           const rbl_law_coef_row **any_row)
{
    const rbl_law_coef_row *row = NULL;
    if (any_row)
        *any_row = NULL;
    for (int k = 0; k < rbl_law_n_coefs; k++) {
        const rbl_law_coef_row *c = &rbl_law_coefs[k];
        if (c->slot != slot || !c->pair_key)
            continue;
        if (any_row && !*any_row)
            *any_row = c;
        if (!row && rbl_law_coef_applies(c, law))
            row = c;
    }
    return row;
}

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

double rbl_law_coef_get(const rbl_contact_law *law, const double *held, const rbl_law_coef_row *c)
{
    double x = 0.0;
    if (c->offset != RBL_LAW_HELD)
        memcpy(&x, (const char *)law + c->offset, sizeof x);
    else if (held)
        x = held[c - rbl_law_coefs];
    return x;
}

void rbl_law_coef_put(rbl_contact_law *law, double *held, const rbl_law_coef_row *c, double x)
{
    if (c->offset != RBL_LAW_HELD)
        memcpy((char *)law + c->offset, &x, sizeof x);
    else if (held)
        held[c - rbl_law_coefs] = x;
}

const char *rbl_law_coef_name(const rbl_law_coef_row *c, char out[RBL_LAW_COEF_NAME_MAX])
{
    snprintf(out, RBL_LAW_COEF_NAME_MAX, "%s.%s", rbl_law_family(c->family)->key, c->key);
    return out;
}

const rbl_law_coef_row *rbl_law_coef_named(const char *name)
{
    char full[RBL_LAW_COEF_NAME_MAX];
    for (int k = 0; name && k < rbl_law_n_coefs; k++) {
        const rbl_law_coef_row *c = &rbl_law_coefs[k];
        if (strcmp(rbl_law_coef_name(c, full), name) == 0 ||
            (c->pair_key && strcmp(c->pair_key, name) == 0))
            return c;
    }
    return NULL;
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

/* Every family's models have distinct values (rbl_law_model_name finds a model by its value;
 * a model added since ABI 1 takes its constant beside its row): checked by test_dem_law_names. */
