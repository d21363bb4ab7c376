/* law_table.h — the contact law's sub-models described once (issue 71; STYLE 5): each family
 * (normal, damping, tangential, cohesion, rolling, twisting) and each of its models with its
 * name in scenes and the doubles of contact history it owns, and each coefficient a block
 * sub-model takes with its key, range, unit and the pair key that overrides it per pair of
 * materials. The scene's parser (scene/law_parse.c), the set-up checks, the bounds on dt
 * and the pair table (law.c), the checkpoint and the restart check (io_internal.h's CFG lists), the history's
 * layout and its swap (dem_internal.h, history.c) and the force loops' dispatch (pair_pass.c)
 * are expanded from these lists. X-macros, not a table of function pointers: the kernels are
 * inlined into the SIMD loops compiled for each combination (a call would end vectorisation),
 * so the table is expanded by the compiler where it is used (docs/architecture.md). */
#ifndef RBL_LAW_TABLE_H
#define RBL_LAW_TABLE_H

#include "rubble.h"

#include <math.h>
#include <stddef.h>

/* Each family's models: X(family, ENUM, "name in scenes", history doubles, "what it is").
 * The tangential family's 3 doubles are there under every model (the slices' places stay).
 * ENUM is rubble.h's for the models of ABI 1; a model added since has its constant here,
 * beside its family's list (`enum { RBL_TWISTING_VISCOUS = 2 };`, the next value), not in
 * rubble.h: C callers set it by name (rbl_contact_law_set_model), scenes by the same name. */
#define RBL_NORMAL_MODELS(X)                                                                  \
    X(normal, RBL_NORMAL_LINEAR, "linear", 0, "F = k_n xi")                                   \
    X(normal, RBL_NORMAL_HERTZ, "hertz", 0, "F = k_H xi^(3/2)")
#define RBL_DAMPING_MODELS(X)                                                                 \
    X(damping, RBL_DAMPING_LINEAR, "linear", 0, "F = -gamma_n v_n")                           \
    X(damping, RBL_DAMPING_TSUJI, "tsuji", 0, "F = -gamma_n v_n xi^(1/4)")
#define RBL_TANGENT_MODELS(X)                                                                 \
    X(tangent, RBL_TANGENT_NONE, "none", 3, "frictionless")                                   \
    X(tangent, RBL_TANGENT_SEED, "seed", 3, "seed 002's D_H = sum |v_t| dt")                  \
    X(tangent, RBL_TANGENT_SPRING, "spring", 3, "Cundall-Strack spring, Coulomb cap")
#define RBL_COHESION_MODELS(X)                                                                \
    X(cohesion, RBL_COHESION_NONE, "none", 0, "none")                                         \
    X(cohesion, RBL_COHESION_SJKR, "sjkr", 0, "an attraction k_c pi a^2")                     \
    X(cohesion, RBL_COHESION_JKR, "jkr", 0, "JKR in place of the Hertz spring")
#define RBL_ROLLING_MODELS(X)                                                                 \
    X(rolling, RBL_ROLLING_NONE, "none", 0, "none")                                           \
    X(rolling, RBL_ROLLING_CDT, "cdt", 0, "constant directional torque")                      \
    X(rolling, RBL_ROLLING_EPSD2, "epsd2", 4, "elastic-plastic spring (torque, k_r)")
#define RBL_TWISTING_MODELS(X)                                                                \
    X(twisting, RBL_TWISTING_NONE, "none", 0, "none")                                         \
    X(twisting, RBL_TWISTING_MARSHALL, "marshall", 3,                                         \
      "spring-dashpot-slider on the twist (angle, k, dashpot torque)")

/* The families in the order the kernel composes them: X(family, its models, "key in the
 * scene's contact mapping", block). A block family is a mapping {model: NAME, coefficients}
 * (its coefficients in RBL_LAW_COEFS), the others a name at contact's top (their
 * coefficients kn, kt, gamma_n, gamma_t, friction are the law's own, parsed with it). */
#define RBL_LAW_FAMILIES_WITH(X, A)                                                           \
    X(A, normal, RBL_NORMAL_MODELS, "normal", 0)                                              \
    X(A, damping, RBL_DAMPING_MODELS, "damping", 0)                                           \
    X(A, tangent, RBL_TANGENT_MODELS, "tangential", 0)                                        \
    X(A, cohesion, RBL_COHESION_MODELS, "cohesion", 1)                                        \
    X(A, rolling, RBL_ROLLING_MODELS, "rolling", 1)                                           \
    X(A, twisting, RBL_TWISTING_MODELS, "twisting", 1)
/* (the lists with a context A handed to each row: RBL_LAW_FAMILIES_WITH(ROW, X) lets ROW call
 * X, as the checkpoint's field lists do) */
#define RBL_LAW_ROW_ALONE(A, ...) A(__VA_ARGS__)
#define RBL_LAW_FAMILIES(X) RBL_LAW_FAMILIES_WITH(RBL_LAW_ROW_ALONE, X)

/* A set of models of one family, for the coefficients' and the needs' rows. */
#define RBL_MODELS1(a) (1u << (a))
#define RBL_MODELS2(a, b) ((1u << (a)) | (1u << (b)))

/* The block families' coefficients: X(family, models that take it, "key", field of
 * rbl_contact_law or `held`, "unit", lo, lo_ok, hi, "note on its range", "pair key" (NULL: a
 * pair has none of its own), pair_lo_ok, slot). Within (lo, hi] (lo too where lo_ok); a pair's
 * own value within the same range, lo allowed where pair_lo_ok (0: this pair without it). The
 * kernels read it from their per-pair copy, at `slot` (RBL_PAIR_BLOCK_COEFS below): the law's
 * value unless the pair of materials has its own (the mixing rule). A model that does not take
 * a key refuses it. The coefficients of ABI 1 are fields of the public rbl_contact_law; a
 * model's added since is `held`: no field (the law's layout is frozen), the simulation holds
 * its value by its row (rbl_sim_set_law_coef, "family.key" or its pair key; the scene through
 * the same call), read by the mixing rule, the checks, stages, the checkpoint and the restart
 * check as the fields are (rbl_law_coef_get). */
#define RBL_LAW_COEFS_WITH(X, A)                                                               \
    X(A, rolling, RBL_MODELS2(RBL_ROLLING_CDT, RBL_ROLLING_EPSD2), "friction", rolling_friction, \
      "", 0.0, 0, 1.0, " (a lever of mu_r R*)", "rolling_friction", 1, mu_r)                     \
    X(A, cohesion, RBL_MODELS1(RBL_COHESION_SJKR), "energy_density", cohesion_energy_density,    \
      "J/m^3", 0.0, 0, 1e12, " (beyond any material: real ones 1e3 to 1e7 J/m^3)",             \
      "energy_density", 1, cohesion)                                                          \
    X(A, cohesion, RBL_MODELS1(RBL_COHESION_JKR), "surface_energy", surface_energy, "J/m^2",     \
      0.0, 0, 1e6, " (beyond any material: real ones 0.01 to 10 J/m^2)", "surface_energy",     \
      0, cohesion)

#define RBL_LAW_COEFS(X) RBL_LAW_COEFS_WITH(RBL_LAW_ROW_ALONE, X)
/* The rows' count: a simulation's and a scene's held values are RBL_LAW_N_COEFS doubles, by row
 * (a field's row unused there). */
#define RBL_LAW_COEF_ONE(...) +1
enum { RBL_LAW_N_COEFS = 0 RBL_LAW_COEFS(RBL_LAW_COEF_ONE) };
#undef RBL_LAW_COEF_ONE
/* A row's offset in rbl_contact_law, or RBL_LAW_HELD for a `held` row (the pasted probe turns
 * `held` into two arguments, so the pick takes the second: no offsetof of it is compiled). */
#define RBL_LAW_HELD ((size_t)-1)
#define RBL_LAW_PROBE_held ~, RBL_LAW_HELD
#define RBL_LAW_PICK_(a, b, ...) b
#define RBL_LAW_PICK(...) RBL_LAW_PICK_(__VA_ARGS__)
#define RBL_LAW_FIELD_OFFSET(field)                                                           \
    RBL_LAW_PICK(RBL_LAW_PROBE_##field, offsetof(rbl_contact_law, field), ~)
/* The law's value of the row numbered `row` whose field is `field`, compiled as a read of the
 * field, or of held[row] for a `held` row (rbl_law_coef_get without the table's lookup: the
 * mixing rule's, which runs per grain in the contact time's scan). */
#define RBL_LAW_VALUE_OF_FIELD(law, held, field, row) ((law)->field)
#define RBL_LAW_VALUE_OF_HELD(law, held, field, row) ((held)[row])
#define RBL_LAW_VPROBE_held ~, RBL_LAW_VALUE_OF_HELD
#define RBL_LAW_VALUE(law, held, field, row)                                                  \
    RBL_LAW_PICK(RBL_LAW_VPROBE_##field, RBL_LAW_VALUE_OF_FIELD, ~)(law, held, field, row)

/* ---- The pair coefficients (issue 71): the coefficients a pair of materials may have its
 * own of, each declared once. Each is a slot: a field of the kernels' per-pair copy
 * (rbl_pair_coef, dem_internal.h, with the materials' E* and G*) and an index of a pair's own
 * values (RBL_PAIR_<slot>; NAN: not its own). From these lists come rbl_pair_coef, the pair
 * pass's columns, the mixing rule and the pair's checks (law.c), rbl_sim_set_pair_coef's
 * names, the scene's pairs (scene_yaml.c, law_parse.c), the checkpoint's pairs and the
 * restart check's. A new model's pair coefficient: a slot row in RBL_PAIR_BLOCK_COEFS and its
 * coefficient's row in RBL_LAW_COEFS naming the slot (docs/architecture.md counts the files).
 *
 * The law's own coefficients a pair may override: X(slot, "name", "unit", lo, lo_ok, hi,
 * takes, "why not", rule, own). Within (lo, hi] (lo too where lo_ok). `takes`: whether a pair
 * may set it under `law` (else refused: "NAME WHY NOT"); `rule`: the kernels' value where the
 * pair has none, from `law` and the two materials `A`, `B` (Hertz-Mindlin: the mean of their
 * e and mu, as LIGGGHTS); `own`: the kernels' value from the pair's own `x`. */
#define RBL_PAIR_LAW_COEFS(X)                                                                 \
    X(mu, "friction", "", 0.0, 1, INFINITY, 1, "",                                            \
      law->from_materials ? 0.5 * (A->friction + B->friction) : law->friction, x)             \
    X(beta, "restitution", "", 0.0, 0, 1.0, law->from_materials,                              \
      "is the Hertz-Mindlin law's; this law's damping is gamma_n",                            \
      law->from_materials ? rbl_beta_of_restitution(0.5 * (A->restitution + B->restitution))  \
                          : 0.0,                                                              \
      rbl_beta_of_restitution(x))                                                             \
    X(gn, "gamma_n", "N s/m", 0.0, 1, INFINITY, !law->from_materials,                         \
      "is not the Hertz-Mindlin law's (its damping follows the restitution)",                 \
      law->from_materials ? 0.0 : law->gamma_n, x)
/* The block models' coefficients a pair may override: X(slot, "name"). Their keys, ranges,
 * units and rule (the law's value, for the models that take it; else 0) are those of the
 * RBL_LAW_COEFS rows that name the slot (sjkr's and jkr's cohesion share one). */
#define RBL_PAIR_BLOCK_COEFS(X) X(mu_r, "rolling_friction") X(cohesion, "cohesion")
/* All of them, in slot order (the checkpoint's order) */
#define RBL_PAIR_COEFS(X) RBL_PAIR_LAW_COEFS(X) RBL_PAIR_BLOCK_COEFS(X)
#define RBL_PAIR_SLOT(slot, ...) RBL_PAIR_##slot,
enum { RBL_PAIR_COEFS(RBL_PAIR_SLOT) RBL_PAIR_N };
#undef RBL_PAIR_SLOT
/* rbl_pair_props (include/rubble.h; ABI 1, its layout frozen) holds the first five slots'
 * values as its fields, in this order: X(slot, field). A later pair coefficient is set by its
 * name (rbl_sim_set_pair_coef). */
#define RBL_PAIR_PROPS(X)                                                                     \
    X(mu, friction) X(beta, restitution) X(gn, gamma_n) X(mu_r, rolling_friction)             \
    X(cohesion, cohesion)

/* beta = ln e / sqrt(ln^2 e + pi^2), the damping's share from restitution e (LIGGGHTS hertz) */
static inline double rbl_beta_of_restitution(double e)
{
    const double l = log(e);
    return l / sqrt(l * l + 3.14159265358979323846 * 3.14159265358979323846);
}

/* What a model needs of the rest of the law: X(family, models, condition on `law`, "what it
 * needs", "key whose value the scene's message quotes"). */
#define RBL_LAW_NEEDS(X)                                                                      \
    X(cohesion, RBL_MODELS1(RBL_COHESION_JKR), law->from_materials,                           \
      "normal: hertz-mindlin (E* from the materials)", "normal")                              \
    X(twisting, RBL_MODELS1(RBL_TWISTING_MARSHALL), law->tangent == RBL_TANGENT_SPRING,       \
      "tangential: spring (its stiffness, damping and friction set the twist's)",             \
      "tangential")

/* The bounds on dt that a model's own coefficients set for the explicit step, beside the
 * normal spring's (rbl_sim_check_dt: 5 steps a contact): X(family, models, "key", field of
 * rbl_contact_law, "unit", rate, "what bounds it"), rate (1/s) from the law and the lightest
 * contact's mass m (kg), 0 where the model has none; dt must stay below 2 / rate (a spring of
 * frequency omega: omega dt < 2, velocity Verlet's limit; an explicit dashpot c on a mass m:
 * c dt / m < 2, beyond which each kick reverses the velocity it damps and grows it). The
 * tangential spring and dashpot act on the contact point, whose mass is 2/7 of m (a solid
 * sphere's turn about its centre takes 5/2 of the translation's share). Checked for the
 * law's own coefficients (Hertz-Mindlin's from the materials follow the overlap, their
 * damping below critical): kt where it is a stiffness (a linear spring), gamma_t where it
 * is a constant (linear damping). epsd2's rolling spring (k_t R*^2 against I = 2/5 m r^2:
 * rate^2 = 5/2 k_t / m) and marshall's twist (k_t a^2 / 2 against I, a < r) stay below the
 * tangential spring's 7/2 k_t / m, and so need no row of their own. */
#define RBL_LAW_STEP_LIMITS(X)                                                                \
    X(tangent, RBL_MODELS1(RBL_TANGENT_SPRING), "kt", kt, "N/m",                              \
      law->normal == RBL_NORMAL_LINEAR ? sqrt(3.5 * law->kt / m) : 0.0,                       \
      "the tangential spring on the contact point")                                           \
    X(tangent, RBL_MODELS2(RBL_TANGENT_SEED, RBL_TANGENT_SPRING), "gamma_t", gamma_t, "N s/m", \
      law->damping == RBL_DAMPING_LINEAR ? 3.5 * law->gamma_t / m : 0.0,                      \
      "the tangential dashpot on the contact point")

/* The combinations the force loops compile to SIMD code, each its own loop:
 * X(normal, damping, tangent, from_materials, rolling, cohesion, twisting). Any other
 * combination the table allows runs the loop that reads the models as they come (the same
 * kernels, not vectorised): a model added to the table works there before it has a row here. */
#define RBL_LAW_COMPILED_TANGENTS(X, N, D, M)                                                 \
    X(N, D, RBL_TANGENT_NONE, M, RBL_ROLLING_NONE, RBL_COHESION_NONE, RBL_TWISTING_NONE)      \
    X(N, D, RBL_TANGENT_SEED, M, RBL_ROLLING_NONE, RBL_COHESION_NONE, RBL_TWISTING_NONE)      \
    X(N, D, RBL_TANGENT_SPRING, M, RBL_ROLLING_NONE, RBL_COHESION_NONE, RBL_TWISTING_NONE)
#define RBL_LAW_COMPILED_SPRING(X, N, D, M)                                                   \
    X(N, D, RBL_TANGENT_SPRING, M, RBL_ROLLING_NONE, RBL_COHESION_SJKR, RBL_TWISTING_NONE)    \
    X(N, D, RBL_TANGENT_SPRING, M, RBL_ROLLING_CDT, RBL_COHESION_NONE, RBL_TWISTING_NONE)     \
    X(N, D, RBL_TANGENT_SPRING, M, RBL_ROLLING_CDT, RBL_COHESION_SJKR, RBL_TWISTING_NONE)     \
    X(N, D, RBL_TANGENT_SPRING, M, RBL_ROLLING_EPSD2, RBL_COHESION_NONE, RBL_TWISTING_NONE)   \
    X(N, D, RBL_TANGENT_SPRING, M, RBL_ROLLING_EPSD2, RBL_COHESION_SJKR, RBL_TWISTING_NONE)
#define RBL_LAW_COMPILED_NORMALS(X, F)                                                        \
    F(X, RBL_NORMAL_HERTZ, RBL_DAMPING_LINEAR, 1)                                             \
    F(X, RBL_NORMAL_LINEAR, RBL_DAMPING_LINEAR, 0)                                            \
    F(X, RBL_NORMAL_LINEAR, RBL_DAMPING_TSUJI, 0)                                             \
    F(X, RBL_NORMAL_HERTZ, RBL_DAMPING_LINEAR, 0)                                             \
    F(X, RBL_NORMAL_HERTZ, RBL_DAMPING_TSUJI, 0)
#define RBL_LAW_COMPILED(X)                                                                   \
    RBL_LAW_COMPILED_NORMALS(X, RBL_LAW_COMPILED_TANGENTS)                                    \
    RBL_LAW_COMPILED_NORMALS(X, RBL_LAW_COMPILED_SPRING)                                      \
    X(RBL_NORMAL_HERTZ, RBL_DAMPING_LINEAR, RBL_TANGENT_SPRING, 1, RBL_ROLLING_NONE,          \
      RBL_COHESION_JKR, RBL_TWISTING_NONE)                                                    \
    X(RBL_NORMAL_HERTZ, RBL_DAMPING_LINEAR, RBL_TANGENT_SPRING, 1, RBL_ROLLING_CDT,           \
      RBL_COHESION_JKR, RBL_TWISTING_NONE)                                                    \
    X(RBL_NORMAL_HERTZ, RBL_DAMPING_LINEAR, RBL_TANGENT_SPRING, 1, RBL_ROLLING_EPSD2,         \
      RBL_COHESION_JKR, RBL_TWISTING_NONE)

/* ---- what the lists give at run time (law_table.c): the parser's, the checks' and the
 * docs' view of the table. */
typedef struct rbl_law_model_row {
    int value;
    const char *name, *doc;
    unsigned hist;
} rbl_law_model_row;

typedef struct rbl_law_family_row {
    const char *name; /* the family's, as in messages: "rolling" */
    const char *key;  /* in the scene's contact mapping */
    int block;
    size_t offset; /* of its model's enum in rbl_contact_law */
    const rbl_law_model_row *models;
    int n_models;
} rbl_law_family_row;

typedef struct rbl_law_coef_row {
    const char *family, *key, *unit, *note, *pair_key;
    unsigned models;
    size_t offset; /* in rbl_contact_law; RBL_LAW_HELD: held by the simulation, by row */
    int slot;      /* RBL_PAIR_<slot>: where the kernels and a pair's own values hold it */
    double lo, hi;
    int lo_ok, pair_lo_ok;
} rbl_law_coef_row;

/* A pair coefficient's row: its name; for the law's own (block 0) its unit and range; for a
 * block model's (block 1) those of the RBL_LAW_COEFS rows naming its slot. */
typedef struct rbl_pair_coef_row {
    const char *name, *unit;
    double lo, hi;
    int lo_ok, block;
} rbl_pair_coef_row;

/* The families (RBL_LAW_FAMILIES' order), the block families' coefficients. */
extern const rbl_law_family_row rbl_law_families[];
extern const int rbl_law_n_families;
extern const rbl_law_coef_row rbl_law_coefs[];
extern const int rbl_law_n_coefs;
extern const rbl_pair_coef_row rbl_pair_coefs[RBL_PAIR_N];

/* The family named `name` (its row), or NULL. */
const rbl_law_family_row *rbl_law_family(const char *name);
/* The law's model of family f. */
int rbl_law_model_of(const rbl_contact_law *law, const rbl_law_family_row *f);
void rbl_law_set_model(rbl_contact_law *law, const rbl_law_family_row *f, int value);
/* The model's name, or "?" beyond the family's. */
const char *rbl_law_model_name(const rbl_law_family_row *f, int value);
/* Whether coefficient row c applies to the law (its family's model takes it). */
int rbl_law_coef_applies(const rbl_law_coef_row *c, const rbl_contact_law *law);
/* The law's value of row c: its field in law, or for a held row held[its row] (held: the
 * RBL_LAW_N_COEFS values a simulation or a scene holds; NULL: 0). put: sets it there. */
double rbl_law_coef_get(const rbl_contact_law *law, const double *held, const rbl_law_coef_row *c);
void rbl_law_coef_put(rbl_contact_law *law, double *held, const rbl_law_coef_row *c, double x);
/* The row named "family.key" (the scene's nesting: "rolling.friction") or by its pair key
 * ("rolling_friction"), or NULL; rbl_law_coef_name: its "family.key" into out. */
const rbl_law_coef_row *rbl_law_coef_named(const char *name);
#define RBL_LAW_COEF_NAME_MAX 64
const char *rbl_law_coef_name(const rbl_law_coef_row *c, char out[RBL_LAW_COEF_NAME_MAX]);
/* The slot of the pair coefficient named `name`, or -1. */
int rbl_pair_coef_slot(const char *name);
/* The RBL_LAW_COEFS row of the law's model that takes block slot `slot` (NULL: none); with
 * any_row, *any_row the first row naming it (for messages). */
const rbl_law_coef_row *rbl_pair_block_row(const rbl_contact_law *law, int slot,
                                           const rbl_law_coef_row **any_row);
/* What the law's model of family f lacks of the rest of the law (RBL_LAW_NEEDS): NULL, or
 * what it needs, with *key the scene key whose value explains why. */
const char *rbl_law_unmet_need(const rbl_contact_law *law, const rbl_law_family_row *f,
                               const char **key);

/* ---- the history's layout (dem_internal.h has the slices of the common families). The
 * slices past the dashpots' (the twisting family's) hold at most RBL_HIST_FURTHER_MAX doubles:
 * the pair pass's rows for them (law_table.c checks every row against it at compile time). */
#define RBL_HIST_FURTHER_MAX 3
#define RBL_HIST_CASE(F, en, name, hist, doc)                                                 \
    case en:                                                                                  \
        return hist;
/* The doubles the law's twisting model owns: they follow the dashpots' (the slices of the
 * older families keep their places, so their checkpoints and loops stay as they were). */
static inline size_t rbl_twisting_hist(int model)
{
    switch (model) {
        RBL_TWISTING_MODELS(RBL_HIST_CASE)
    default:
        return 0;
    }
}
static inline size_t rbl_rolling_hist(int model)
{
    switch (model) {
        RBL_ROLLING_MODELS(RBL_HIST_CASE)
    default:
        return 0;
    }
}

#endif
