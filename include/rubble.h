/* rubble.h — the one public header of librubble, a discrete element method (DEM) toolkit.
 * Units are SI. Element numbers shown to users are 1-based; the library works 0-based.
 * Every fallible call returns RBL_OK (0) or a negative RBL_E* code and fills an rbl_error
 * with a message naming the file, line and offending value; the library never prints or exits. */
#ifndef RUBBLE_H
#define RUBBLE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(RBL_BUILDING_LIBRARY)
#define RBL_API __attribute__((visibility("default")))
#else
#define RBL_API
#endif

/* The release, and the ABI's number: the shared library's SONAME is librubble.so.RBL_ABI_VERSION,
 * raised whenever a public struct's layout or a call's signature changes (CHANGELOG.md;
 * tests/test_abi_layout.c records the structs' sizes). CMake and setup.py read both from here. */
#define RBL_VERSION_STRING "0.2.0"
#define RBL_ABI_VERSION 1

/* ---------------------------------------------------------------- errors ---------------- */

/* X-macro list: one place for codes and their generic messages. */
#define RBL_ERRNO_MAP(XX)                                                       \
    XX(ENOMEM, -1, "out of memory")                                             \
    XX(EINVAL, -2, "invalid argument")                                          \
    XX(EIO, -3, "input/output error")                                           \
    XX(EPARSE, -4, "malformed input")                                           \
    XX(ERANGE, -5, "value out of range")                                        \
    XX(ETOOBIG, -6, "problem too large for the available memory")               \
    XX(ENOTFOUND, -7, "not found")                                             \
    XX(EUNSTABLE, -8, "the run's physics broke down (health check)")                \
    XX(EINTERRUPT, -9, "interrupted: the caller asked the stepping to stop")

enum {
    RBL_OK = 0,
#define RBL_XX_(name, value, text) RBL_##name = value,
    RBL_ERRNO_MAP(RBL_XX_)
#undef RBL_XX_
};

#define RBL_ERROR_MESSAGE_MAX 512

typedef struct rbl_error {
    int code;                           /* RBL_OK or a negative RBL_E* code */
    char message[RBL_ERROR_MESSAGE_MAX]; /* "file:line: what is wrong: 'value'" */
} rbl_error;

RBL_API const char *rbl_strerror(int code);

/* ---------------------------------------------------------------- elements --------------- */

/* A set of spherical (3D) or circular (2D) elements inside an axis-aligned domain.
 * pos holds 3 doubles per element (z = 0 in 2D); radius one double per element. */
typedef struct rbl_elements {
    int dim;        /* 2 or 3 */
    size_t n;       /* number of elements */
    double *pos;    /* 3*n: x, y, z of each centre */
    double *radius; /* n */
    double lo[3];   /* domain minimum per axis (lo[2] = hi[2] = 0 in 2D) */
    double hi[3];   /* domain maximum per axis */
} rbl_elements;

/* Allocate pos and radius for n elements (zeroed); lo/hi/dim are left to the caller. */
RBL_API int rbl_elements_alloc(rbl_elements *e, int dim, size_t n, rbl_error *err);
RBL_API void rbl_elements_free(rbl_elements *e);
/* The touch test compares squared distances: coordinates and radii are kept where their squares
 * (and those of sums of two) are normal doubles, so that no algorithm's answer depends on an
 * overflow to infinity or an underflow to zero. */
#define RBL_CD_COORD_MAX 1e150
#define RBL_CD_RADIUS_MIN 1e-150
#define RBL_CD_RADIUS_MAX 1e150
/* Check dim, bounds (max > min, |bound| <= RBL_CD_COORD_MAX), every radius within
 * [RBL_CD_RADIUS_MIN, RBL_CD_RADIUS_MAX], every centre inside the bounds. Messages name the
 * element (1-based) and value. */
RBL_API int rbl_elements_check(const rbl_elements *e, rbl_error *err);

/* ---------------------------------------------------------------- contact detection ------- */

/* Two elements touch when |x_i - x_j| <= (r_i + r_j) * (1 + RBL_TOUCH_REL_TOL).
 * The tolerance absorbs round-off in coordinates such as 3 * 0.1, so that elements placed
 * exactly at the sum of their radii (seed 000, Test 1) are reported as touching. */
#define RBL_TOUCH_REL_TOL 1e-9

typedef enum rbl_cd_algorithm {
    RBL_CD_SCREENING = 1, /* CD1: dense screening array C over all cells + next array E   */
    RBL_CD_NBS = 2,       /* CD2: Munjiza-NBS, row/layer lists, O(N) memory               */
    RBL_CD_DIRECT = 3,    /* CD3: direct mapping, sorted integer coordinates, binary search */
    RBL_CD_SORTING = 4,   /* CD4: radix-sorted cell keys, linear merge sweep              */
    RBL_CD_TREE = 5,      /* CD4: Munjiza's binary tree of successive bisections          */
    RBL_CD_CGRID = 6,     /* CD4: Williams C-grid, 1D sub-dividers x, then y, then z      */
    RBL_CD_BRUTE = 7      /* CD4: all pairs, O(N^2), the reference                        */
} rbl_cd_algorithm;

#define RBL_CD_ALGORITHM_COUNT 7

/* Name <-> algorithm. Accepts the names above and the Demcda numbers "1" and "2". */
RBL_API int rbl_cd_algorithm_parse(const char *text, rbl_cd_algorithm *out, rbl_error *err);
RBL_API const char *rbl_cd_algorithm_name(rbl_cd_algorithm algorithm);

/* A growable list of unordered contact pairs. Pair k is packed as
 * ((uint64_t)i << 32) | j with i > j, both 0-based element indices. */
typedef struct rbl_pairs {
    uint64_t *ij;
    size_t n;
    size_t cap;
} rbl_pairs;

RBL_API void rbl_pairs_free(rbl_pairs *pairs);
static inline uint32_t rbl_pair_i(uint64_t packed) { return (uint32_t)(packed >> 32); }
static inline uint32_t rbl_pair_j(uint64_t packed) { return (uint32_t)packed; }
/* Order pairs as Demcda's contacts.txt (seed 000, Table 2): i descending, then j descending.
 * Linear time (radix sort). */
RBL_API int rbl_pairs_sort_descending(rbl_pairs *pairs, size_t n_elements, rbl_error *err);

/* Buffers kept between detection calls (a simulation detects contacts every step): with a
 * workspace, the second and later calls reuse the memory of the first instead of asking the
 * system for fresh, zeroed pages. One workspace per thread; it is not shared. */
typedef struct rbl_cd_workspace rbl_cd_workspace;

RBL_API rbl_cd_workspace *rbl_cd_workspace_create(void);
RBL_API void rbl_cd_workspace_destroy(rbl_cd_workspace *workspace);

typedef struct rbl_cd_options {
    /* Refuse (RBL_ETOOBIG) when the algorithm's working memory would exceed this many bytes;
     * 0 means no limit. The CLI sets it to the machine's physical memory. */
    size_t memory_limit;
    /* NULL: allocate and free the working memory within the call. */
    rbl_cd_workspace *workspace;
} rbl_cd_options;

typedef struct rbl_cd_stats {
    double seconds;         /* wall time of the detection alone (no I/O, no output sort)  */
    size_t work_bytes_peak; /* peak working memory of the algorithm, excluding the input
                               elements and the output pair list                         */
    size_t candidates;      /* distance checks performed                                  */
    double cell_edge;       /* edge of the square/cubic cells used                        */
    size_t cells[3];        /* number of cells per axis                                   */
} rbl_cd_stats;

/* Find every touching pair once. pairs is appended to (it may start empty). */
RBL_API int rbl_contacts_detect(const rbl_elements *elements, rbl_cd_algorithm algorithm,
                                const rbl_cd_options *options, rbl_pairs *pairs,
                                rbl_cd_stats *stats, rbl_error *err);

/* ---------------------------------------------------------------- Demcda files (CD5) ----- */

/* Read bounds.txt and elements.txt (layout in docs/demcda.md) into e; checks everything
 * rbl_elements_check checks and reports file:line:value on failure. */
RBL_API int rbl_demcda_read(const char *bounds_path, const char *elements_path, rbl_elements *e,
                            rbl_error *err);
/* Write contacts.txt: one "i j" per line, 1-based, in the order pairs holds. Written to a
 * temporary file in the same folder and renamed, so no partial file is ever left behind. */
RBL_API int rbl_demcda_write_contacts(const char *path, const rbl_pairs *pairs, rbl_error *err);
/* Write bounds.txt + elements.txt (used by `rubble generate` and the benchmarks). */
RBL_API int rbl_demcda_write_elements(const char *bounds_path, const char *elements_path,
                                      const rbl_elements *e, rbl_error *err);

/* ---------------------------------------------------------------- generators ------------- */

typedef enum rbl_packing {
    RBL_PACKING_LATTICE = 1, /* square/simple-cubic lattice, spacing = diameter (seed 000)   */
    RBL_PACKING_RANDOM = 2,  /* uniform random centres (overlaps allowed), given fill share */
    RBL_PACKING_CLUSTERED = 3 /* random centres gathered in a few dense clusters              */
} rbl_packing;

typedef struct rbl_generate_options {
    int dim;              /* 2 or 3 */
    size_t n;             /* number of elements */
    rbl_packing packing;
    double radius;        /* (largest) radius */
    double radius_ratio;  /* r_max / r_min >= 1; 1 = monodisperse */
    double large_share;   /* 0: radii uniform in [radius/ratio, radius]; in (0, 1]: bimodal,
                             this share of the elements (by number) has radius, the rest
                             radius/ratio — a few large grains among many small ones */
    double solid_share;   /* RANDOM/CLUSTERED: volume share of the elements, e.g. 0.3 */
    int shuffle;          /* number the elements in random order */
    uint64_t seed;
} rbl_generate_options;

RBL_API int rbl_elements_generate(const rbl_generate_options *options, rbl_elements *e,
                                  rbl_error *err);

/* ---------------------------------------------------------------- soft-sphere DEM -------- */
/* Seed 002 §2 ("AstroDEM"): spheres of radius r and density rho, normal spring-dashpot,
 * tangential friction, plane walls, periodic sides, gravity, mid-step velocity Verlet. */

typedef enum rbl_normal_model {
    RBL_NORMAL_LINEAR = 0, /* F_e = k_n xi                                   (SD2) */
    RBL_NORMAL_HERTZ = 1   /* F_e = k_H xi^(3/2)                             (SD2) */
} rbl_normal_model;

typedef enum rbl_damping_model {
    RBL_DAMPING_LINEAR = 0, /* F_d = -gamma xi_dot                           (SD2) */
    RBL_DAMPING_TSUJI = 1   /* F_d = -gamma xi_dot xi^(1/4)                  (SD2) */
} rbl_damping_model;

typedef enum rbl_tangent_model {
    RBL_TANGENT_NONE = 0,   /* frictionless */
    RBL_TANGENT_SEED = 1,   /* seed 002 §2.3.2: D_H = sum |v_t| dt, F = -min(k_t D_H, mu|F_n|) t */
    RBL_TANGENT_SPRING = 2  /* Cundall-Strack incremental spring, Coulomb limit, history projected
                               onto the tangent plane (LIGGGHTS "tangential_history")        */
} rbl_tangent_model;

/* Rolling resistance: a torque against the relative rolling of two bodies (LIGGGHTS
 * "rolling_friction"), its torsional part removed. */
typedef enum rbl_rolling_model {
    RBL_ROLLING_NONE = 0,
    RBL_ROLLING_CDT = 1,  /* constant directional torque: M = mu_r F_e R* w_t / |w_t|, with F_e
                             the elastic normal force and w the relative spin (LIGGGHTS cdt) */
    RBL_ROLLING_EPSD2 = 2 /* elastic-plastic spring: M += k_r w_t dt with k_r = k_t R*^2, capped
                             at mu_r |F_n| R* (Iwashita and Oda; LIGGGHTS epsd2)               */
} rbl_rolling_model;

/* Cohesion between touching bodies. */
typedef enum rbl_cohesion_model {
    RBL_COHESION_NONE = 0,
    RBL_COHESION_SJKR = 1, /* simplified JKR: an attraction k_c A, with A the area of the
                              bodies' intersection circle (LIGGGHTS cohesion sjkr)            */
    RBL_COHESION_JKR = 2   /* JKR (Johnson, Kendall, Roberts 1971) in place of the Hertz
                              spring, surface energy w: the contact holds in tension down to
                              the overlap -3/4 (pi^2 w^2 R* / E*^2)^(1/3) (hysteresis), pull-off
                              force 3/2 pi w R*; only with from_materials (E*)               */
} rbl_cohesion_model;

/* Twisting resistance: a torque against the relative spin of two bodies about their contact's
 * normal (the part rolling resistance leaves out). */
typedef enum rbl_twisting_model {
    RBL_TWISTING_NONE = 0,
    RBL_TWISTING_MARSHALL = 1 /* Marshall (2009), as LAMMPS' "twisting marshall": a spring,
                                 dashpot and slider on the relative twist, with the tangential
                                 spring's stiffness and damping times a^2 / 2 and a cap of
                                 2/3 a mu times the normal load (a: the contact radius); needs
                                 the tangential spring. No coefficient of its own. */
} rbl_twisting_model;

typedef enum rbl_integrator {
    RBL_INTEGRATOR_MIDSTEP = 0,     /* seed 002 §2.5: forces from half-step velocities        */
    RBL_INTEGRATOR_SYNCHRONIZED = 1 /* forces from velocities predicted at t + dt             */
} rbl_integrator;

/* One contact law per simulation, composed of sub-models: normal (spring and damping),
 * cohesion, tangential, rolling. Explicit coefficients apply to every pair unless
 * rbl_sim_set_pair gives a pair of materials its own friction, damping, rolling friction or
 * cohesion; with from_materials the normal and tangential models are Hertz-Mindlin with
 * Tsuji-type damping, their stiffness and damping computed per pair from the materials' E,
 * nu, e, mu exactly as LIGGGHTS' "hertz" model does. */
typedef struct rbl_contact_law {
    rbl_normal_model normal;
    rbl_damping_model damping;
    rbl_tangent_model tangent;
    int from_materials;
    double kn;       /* N/m (linear) or N/m^1.5 (Hertz k_H)                                 */
    double kt;       /* N/m; 0 = 2/7 kn. With Hertz, k_t sqrt(xi) is the spring (as LAMMPS). */
    double gamma_n;  /* N s/m; Tsuji: N s/m^1.25                                            */
    double gamma_t;  /* N s/m, damping of the tangential spring                             */
    double friction; /* Coulomb mu                                                          */
    rbl_rolling_model rolling;
    /* contacts keep their event for collision statistics: set by rbl_sim_collisions, not by
       hand (in the padding after rolling: the law's size and its other fields' places stay) */
    int collisions;
    double rolling_friction; /* mu_r, dimensionless (a lever of mu_r R*)                     */
    rbl_cohesion_model cohesion;
    rbl_twisting_model twisting; /* (in the padding after cohesion: the law's size and its
                                    other fields' places stay) */
    double cohesion_energy_density; /* sjkr: k_c, J/m^3 (the attraction is k_c A)            */
    double surface_energy;          /* jkr: w, J/m^2 (the work of adhesion per area)         */
} rbl_contact_law;

typedef struct rbl_material {
    double density;        /* kg/m^3 */
    double youngs_modulus; /* Pa     (from_materials) */
    double poisson_ratio;  /*        (from_materials) */
    double restitution;    /* (0, 1] (from_materials) */
    double friction;       /*        (from_materials) */
} rbl_material;

/* A plane wall n . x + offset = 0; grains live on the side where n . x + offset > 0. */
typedef struct rbl_wall {
    double normal[3]; /* need not be unit length */
    double offset;
    int material;     /* index of a material (from_materials) */
} rbl_wall;

/* Self-gravity between grains (SPEC SD5, seed 002 §2.4 and §2.6.2). Every method gives each
 * grain the field of all the others; a clump attracts, and is attracted, as its members.
 * Grains closer than r_i + r_j (touching, overlapping) attract as a point mass inside a uniform
 * sphere of radius r_i + r_j: the force is continuous at touching and bounded (docs/gravity.md). */
typedef enum rbl_gravity_method {
    RBL_GRAVITY_OFF = 0,
    RBL_GRAVITY_DIRECT = 1, /* every pair: the reference, O(N^2)                               */
    RBL_GRAVITY_CELLS = 2,  /* the seed's scheme: exact within a Cell of Nc^3 lattices, the
                               other Cells as monopoles at their centres of mass              */
    RBL_GRAVITY_TREE = 3    /* Barnes-Hut octree with quadrupoles, opening angle theta        */
} rbl_gravity_method;

#define RBL_GRAVITY_G 6.67430e-11 /* CODATA 2018, m^3 kg^-1 s^-2 */

typedef struct rbl_self_gravity {
    rbl_gravity_method method;
    double G;        /* m^3 kg^-1 s^-2; 0 = RBL_GRAVITY_G                                    */
    double theta;    /* tree: opening angle in (0, 1.5]; 0 = 0.5                              */
    int cells;       /* cells: Nc, lattices per Cell edge (>= 1); 0 = 5 (seed §3.2)           */
    double lattice;  /* cells: lattice edge d1, m; 0 = 2.5 r_max (seed §2.6.1)                */
    uint32_t every;  /* evaluate every K steps and hold the field in between; 0 = 1           */
} rbl_self_gravity;

/* Checks a self-gravity configuration (method known, G >= 0 and finite, theta in (0, 1.5],
 * Nc >= 0, d1 >= 0); the message names the field and the value. */
RBL_API int rbl_self_gravity_check(const rbl_self_gravity *cfg, rbl_error *err);

/* The field of n point masses (positions 3 per grain, masses, radii for touching pairs) at
 * every grain: acc (3 per grain, m/s^2) and, if phi is not NULL, the potential per unit mass
 * (J/kg). interactions, if not NULL, receives the mean number of grain-grain and grain-node
 * interactions per grain. Deterministic: the same bits for any thread count. */
RBL_API int rbl_gravity_field(const rbl_self_gravity *cfg, size_t n, const double *pos,
                              const double *mass, const double *radius, int threads, double *acc,
                              double *phi, double *interactions, rbl_error *err);

typedef struct rbl_sim_config {
    double lo[3], hi[3]; /* the domain; a grain leaving it across a side that is not periodic
                            is removed (counted as lost); not used when open */
    int periodic[3];
    int open;            /* no bounds (an asteroid in space): lo, hi ignored, no axis periodic;
                            the neighbour search's memory stays O(N) however far grains fly */
    double escape;       /* open domain: a grain farther than this from the centre of mass is
                            removed (counted as lost) at the next neighbour build; 0 = never */
    double gravity[3];   /* m/s^2 */
    double dt;           /* s */
    double skin;         /* Verlet skin, m; 0 = 0.2 r_max (of the grains at each build) */
    double cell_factor;  /* 0: cell edge = 2 r_max + skin; else cell_factor * r_max (seed 2.5) */
    rbl_integrator integrator;
    rbl_contact_law law;
    double impact_velocity; /* largest expected impact speed, m/s, for the contact time of
                               Hertz laws (dt check, dt: auto); 0 = 1 m/s */
    int threads;         /* OpenMP threads, 0 to RBL_MAX_THREADS; 0 = as many as the machine
                            offers */
    uint64_t sort_every; /* steps between reorderings of the grains by cell (at the next
                            neighbour build); 0 = 1000 */
    rbl_self_gravity self_gravity; /* off unless method is set; no periodic axis with it */
} rbl_sim_config;

typedef struct rbl_grain {
    double pos[3], vel[3], omega[3];
    double radius;
    int material;
} rbl_grain;

typedef struct rbl_sim rbl_sim;

/* Read-only view of the grains in their current (cell-sorted) order; valid until the next
 * call that changes the simulation. */
typedef struct rbl_grains_view {
    size_t n;
    const uint32_t *id;
    const double *pos, *vel, *omega, *force; /* 3 per grain; force = contacts + walls */
    const double *radius, *mass;
    const uint32_t *contacts; /* touching contacts (grains and walls) per grain */
    const int32_t *body;      /* the clump a grain belongs to (rbl_sim_bodies index), or -1 */
    const double *torque;     /* 3 per grain, about its centre */
    const int32_t *material;  /* index into the materials, in the order they were added */
} rbl_grains_view;

/* The energy account (issue 70; docs/dem.md "The energy account"). Where energy was put in:
 * the work of moving walls and servos, of the caller's external forces (hooks), the energy
 * grains brought as they were added (pours, sources, the caller) and, negative, carried out as
 * they were removed (outlets, escapes, the caller), and the changes made between steps
 * (stages, the caller's writes, spin steps, periodic wraps along gravity). */
enum { RBL_IN_WALLS, RBL_IN_EXTERNAL, RBL_IN_ADDED, RBL_IN_REMOVED, RBL_IN_CHANGES, RBL_IN_N };
/* Where it went out: the contacts' dashpots (normal, and tangential while sticking), sliding
 * friction (what the Coulomb limit took from the tangential spring, and the spring a contact
 * held as it parted), rolling resistance, and broken cohesive contacts (JKR's hysteresis). */
enum { RBL_LOSS_DAMPING, RBL_LOSS_FRICTION, RBL_LOSS_ROLLING, RBL_LOSS_COHESION, RBL_LOSS_N };

typedef struct rbl_thermo {
    double time;
    uint64_t step;
    size_t grains;
    uint64_t lost;             /* grains removed since the start */
    double kinetic, rotational;/* J */
    double potential;          /* gravitational, J: the uniform field relative to the origin,
                                  plus the self-gravity energy W = 1/2 sum m_i phi_i */
    double self_potential;     /* W alone, J (0 without self-gravity) */
    double contact_virial;     /* rbl_sim_contact_virial, J */
    double gravity_virial;     /* sum m x . a_self over the grains, J (= W for point masses) */
    double elastic;            /* stored in the springs (normal, tangential, rolling) plus
                                  the cohesion's potential (negative when bound), J */
    size_t contacts;           /* touching pairs (grain-grain) */
    size_t pairs_listed;       /* pairs in the Verlet list (within r_i + r_j + skin) */
    size_t wall_contacts;
    double max_overlap_ratio;  /* max xi / r_min of the pair */
    uint32_t max_overlap_ids[2]; /* its grains' ids (a wall contact: the grain's, UINT32_MAX) */
    double momentum[3];        /* total, kg m/s */
    double energy_in;          /* put in since creation (rbl_health), J */
    double angular_momentum[3];/* total about the origin, orbital m x × v plus spin, kg m²/s */
    size_t n_walls;            /* plane walls, then mesh walls */
    const double *wall_force;  /* 3 per wall: force the grains exert on it, N */
    const double *wall_torque; /* 3 per wall: their torque on it about the origin, N m */
    const double *wall_travel; /* 3 per wall: its translation since t = 0 (rbl_wall_motion's
                                  terms but the turn), m; NULL when no wall moves */
    size_t n_flows;            /* flow counters (rbl_sim_add_flow_counter) */
    const double *flow;        /* 4 per counter, since it was added: grains that crossed it
                                  along its normal, against it, and their mass (kg) */
    size_t n_outlets;          /* outlets (rbl_sim_add_outlet) */
    const double *outlet;      /* 2 per outlet, since it was added: grains taken out, mass */
    /* The energy account, J, since creation (docs/dem.md "The energy account"): */
    double cohesive;           /* the cohesion's part of elastic (sjkr's potential, JKR's
                                  surface energy) */
    double kick;               /* kinetic + rotational less the leapfrog's kinetic energy
                                  m v(t - dt/2) . v(t + dt/2) / 2: dt^2 |F|^2 / 8m and the
                                  torques' like term, summed over the grains and clumps */
    double dissipated[RBL_LOSS_N]; /* by mechanism (RBL_LOSS_*) */
    double put_in[RBL_IN_N];   /* energy_in by source (RBL_IN_*) */
    double self_work;          /* the work self-gravity's forces did on the grains since
                                  creation: W's change where the field is exact (W - W_0 +
                                  self_work is the field's error: a tree, a field held) */
    double balance;            /* kinetic + rotational - kick + the uniform field's potential
                                  + elastic + the sum of dissipated - energy_in - self_work:
                                  stays what it was at the start while every joule is booked
                                  (its drift is the integration's error) */
} rbl_thermo;

/* Time spent per stage since creation, seconds. */
typedef struct rbl_sim_timers {
    double neighbor, force, integrate; /* while stepping */
    /* the first neighbour build and force evaluation, before the first step (as LAMMPS's
     * "setup", outside its loop time); its build is counted in rebuilds, as setup_builds */
    double setup;
    uint64_t setup_builds;
    double gravity;            /* self-gravity evaluations */
    uint64_t gravity_evaluations;
    double gravity_interactions; /* mean per grain, at the last evaluation */
    uint64_t rebuilds;
    /* listed pairs whose two grains lie in two threads' ranges, at the last build: each hands
     * cache lines between cores every step (0 on one thread) */
    uint64_t pairs_across_threads;
} rbl_sim_timers;

RBL_API int rbl_sim_create(rbl_sim **sim, const rbl_sim_config *config, rbl_error *err);
RBL_API void rbl_sim_destroy(rbl_sim *sim);
RBL_API int rbl_sim_add_material(rbl_sim *sim, const rbl_material *m, int *index, rbl_error *err);
RBL_API int rbl_sim_add_wall(rbl_sim *sim, const rbl_wall *w, rbl_error *err);
typedef struct rbl_mesh rbl_mesh; /* below, with the clumps' meshes */
/* A pair of materials' own coefficients; NAN keeps the rule's (a grain's material against a
 * wall's, or two grains'). Each overrides, for contacts between the two materials:
 * - friction: the Coulomb mu (the rule: the mean of the two materials' under Hertz-Mindlin,
 *   the law's friction otherwise);
 * - restitution: Hertz-Mindlin only (the rule: the mean of the two materials');
 * - gamma_n: the linear or hertz law's normal damping (the rule: the law's gamma_n);
 * - rolling_friction: mu_r in [0, 1], with a rolling model (the rule: the law's);
 * - cohesion: the cohesion model's strength, sjkr's energy density k_c (J/m^3, >= 0) or jkr's
 *   surface energy w (J/m^2, > 0) (the rule: the law's). */
typedef struct rbl_pair_props {
    double friction, restitution, gamma_n, rolling_friction, cohesion;
} rbl_pair_props;
/* Materials a and b (their indices, either order; a wall's material counts as any) take the
 * coefficients p sets (law.c). Set again: replaced. */
RBL_API int rbl_sim_set_pair(rbl_sim *sim, int a, int b, const rbl_pair_props *p,
                             rbl_error *err);
/* Materials a and b take their own value of one pair coefficient, by its name: those of
 * rbl_pair_props ("friction", "restitution", "gamma_n", "rolling_friction", "cohesion") and any
 * a later contact model adds (src/dem/law_table.h's RBL_PAIR_COEFS; rbl_pair_props keeps
 * ABI 1's five). The pair's other values stay; NAN takes the rule's again. Checked as
 * rbl_sim_set_pair checks them; an unknown name is refused, naming the known ones. */
RBL_API int rbl_sim_set_pair_coef(rbl_sim *sim, int a, int b, const char *name, double value,
                                  rbl_error *err);
/* Adds a wall made of a triangle mesh (copied; open or closed, two-sided: a grain on either
 * side is pushed away from it), of material `material`. Its contacts are those of a plane wall
 * at each point where a grain touches it: each face, edge or corner once, a flat patch of
 * facets as one plane (src/dem/mesh_contact.c). */
RBL_API int rbl_sim_add_mesh_wall(rbl_sim *sim, const rbl_mesh *mesh, int material,
                                  rbl_error *err);
/* A primitive wall (issue 73): a finite surface in closed form, two-sided like a mesh wall
 * (a grain on either side is pushed away: a cylinder holds grains inside or keeps them out).
 *   RBL_PRIM_RECTANGLE: centre, normal `axis`, first side along `side` (made perpendicular),
 *                       size[0] x size[1];
 *   RBL_PRIM_DISK:      centre, normal `axis`, radius[0], a hole of radius[1] (0: none; an
 *                       orifice);
 *   RBL_PRIM_CYLINDER:  from `center` along `axis` (its length the height), radius[0]; caps
 *                       (bit 1 the end at center, bit 2 the far end) closed;
 *   RBL_PRIM_CONE:      as the cylinder, radius[0] at center and radius[1] at the far end
 *                       (a frustum, a hopper; one of them 0: a cone with its apex);
 *   RBL_PRIM_BOX:       centre, edges size[0..2] along `side`, axis x side, `axis` (a box's six
 *                       faces, closed).
 * Its contacts are a mesh wall's (src/dem/primitive.c): each face, rim, edge or corner touched
 * once, a contact's history following it from one to the next. It is a mesh wall (numbered
 * among them, moved, drawn, loaded and worn per facet as they are), the mesh only drawn:
 * facets whose chords lie within 1e-4 of the radius of the true surface. */
enum { RBL_PRIM_RECTANGLE = 1, RBL_PRIM_DISK, RBL_PRIM_CYLINDER, RBL_PRIM_CONE, RBL_PRIM_BOX };
typedef struct rbl_primitive {
    int kind;
    double center[3], axis[3], side[3];
    double size[3];   /* m */
    double radius[2]; /* m */
    int caps;         /* cylinder, cone: 1 the end at center, 2 the far end, 3 both */
} rbl_primitive;
/* Adds primitive wall p of material `material` (as a mesh wall: its index among them is the
 * meshes added before it). Refused, naming the value: a radius or size not positive and
 * finite, a hole not smaller than the disk, a zero height, a zero or parallel axis and side. */
RBL_API int rbl_sim_add_primitive_wall(rbl_sim *sim, const rbl_primitive *p, int material,
                                       rbl_error *err);
/* The facets that draw primitive p (malloc'd into *mesh; rbl_mesh_free frees it), checked as
 * rbl_sim_add_primitive_wall checks it. */
RBL_API int rbl_primitive_mesh(const rbl_primitive *p, rbl_mesh *mesh, rbl_error *err);
/* Makes mesh wall `mesh` (0 .. meshes - 1, in the order added) wear, its facets worn to a depth
 * (m) from then on, each step (docs/walls.md):
 *   Archard: archard |F_n| |v_t| dt / A    (F_n the contact's normal force, v_t its sliding
 *            velocity, A the facet's area; archard = K / H, the wear coefficient over the
 *            hardness, 1/Pa);
 *   Finnie, as LIGGGHTS's `wear finnie`: 2 finnie |v| |F| E(g) dt / A while the grain does not
 *            move away from the wall (v its centre's velocity relative to the wall, g the angle
 *            of v to the wall, E(g) = sin 2g - 3 sin^2 g for tan g <= 1/3, cos^2 g / 3 beyond;
 *            finnie in 1/Pa).
 * Both 0: it does not wear (its depths are dropped). Each coefficient finite, >= 0, at most 1. */
RBL_API int rbl_sim_set_mesh_wear(rbl_sim *sim, int mesh, double archard, double finnie,
                                  rbl_error *err);
/* The load on each facet of mesh wall `mesh` at the last force evaluation, from the grains
 * touching it (each contact on the facet its point lies on): force (3 per facet, N, what the
 * grains exert on it; over the facets, the wall's force in rbl_thermo), pressure (per facet,
 * Pa: the contacts' normal forces over the facet's area, positive pressing, negative pulling)
 * and shear (per facet, Pa: the magnitude of the sum of their tangential forces over the area);
 * wear (per facet, m: the depth worn so far; 0 where the mesh does not wear). Any may be NULL.
 * Summed in the list's order: the same bits for any number of threads. */
/* A surface the grains' flow is counted through (as LIGGGHTS's massflow/mesh): the plane
 * through `point` across unit `normal` (it is made unit), or the disk of `radius` (> 0; 0: the
 * whole plane) about `point` on it; or, with `mesh` (copied; point, normal and radius unused),
 * a triangle mesh, each facet's forward side the one its winding's normal (b - a) x (c - a)
 * points to. A grain crosses it in a step when its centre goes from one side to the other
 * (periodic axes: by its displacement, not its wrap; a plane or disk by its nearest image, a
 * mesh as it lies), through the disk where it has one, through a facet of a mesh (counted
 * once if it passes where facets meet); a clump member counts as a grain of its own mass. */
typedef struct rbl_flow_counter {
    double point[3], normal[3], radius;
    const rbl_mesh *mesh;
} rbl_flow_counter;
/* Adds a counter (counting from the next step); its number (from 0) into *index. */
RBL_API int rbl_sim_add_flow_counter(rbl_sim *sim, const rbl_flow_counter *c, size_t *index,
                                     rbl_error *err);
/* Counter k since it was added: grains and mass (kg) across along its normal (forward) and
 * against it; net = forward - backward. (Over several processes, this process's grains':
 * rbl_thermo's flow holds the whole.) */
RBL_API int rbl_sim_flow(const rbl_sim *sim, size_t k, double *grains_forward,
                         double *grains_backward, double *mass_forward, double *mass_backward,
                         rbl_error *err);

/* An outlet (issue 44): where grains are taken out of the run, as they reach it: a surface
 * crossed forward (`surface`: a plane along its normal, a disk, a mesh along its facets'
 * winding normals, as rbl_flow_counter), or a region their centre enters (region 1: the box
 * lo..hi; 2: the cylinder from..to of radius). A clump goes as a whole when one of its spheres
 * does. Taken out in the step they reach it, before its forces. */
typedef struct rbl_outlet {
    rbl_flow_counter surface;
    int region;
    double lo[3], hi[3], from[3], to[3], radius;
    int closed;      /* takes nothing out while set (a stage opens or closes it) */
} rbl_outlet;
RBL_API int rbl_sim_add_outlet(rbl_sim *sim, const rbl_outlet *o, size_t *index,
                               rbl_error *err);
/* Outlet k closed (nothing taken out) or open from the next step. */
RBL_API int rbl_sim_set_outlet_closed(rbl_sim *sim, size_t k, int closed, rbl_error *err);
/* Outlet k since it was added: grains taken out (a clump counts as one) and their mass (kg);
 * over several processes, this process's (rbl_thermo's outlet holds the whole). */
RBL_API int rbl_sim_outlet(const rbl_sim *sim, size_t k, double *grains, double *mass,
                           rbl_error *err);

/* The facets of mesh wall `mesh` (0 where there is no such mesh). */
RBL_API size_t rbl_sim_mesh_facets(const rbl_sim *sim, int mesh);
RBL_API int rbl_sim_mesh_loads(const rbl_sim *sim, int mesh, double *force, double *pressure,
                               double *shear, double *wear, rbl_error *err);
/* How a wall moves, planes and meshes alike (all zero: it stays). A point x0 of the wall as it
 * was added is at time t at
 *     x(t) = c + R(t) (x0 - c) + velocity t + amplitude sin(2 pi frequency t) + s(t) servo_axis,
 * R(t) the turn by omega t (rad/s, right-handed) about `axis` through c = `center`, and s(t) a
 * servo's travel: it moves along servo_axis at u = gain (servo_force - P), |u| <= servo_speed,
 * where P is the grains' push against its travel (the force on the wall along -servo_axis).
 * A piston that presses a sample to servo_force; gain 0 means servo_speed / servo_force (full
 * speed when nothing resists). The gain is lowered where the wall's contacts are too stiff for
 * it: to at most 1 / (2 (K dt + 2 G)), K and G their summed stiffness and damping, a quarter
 * of the bound beyond which the servo would swing from one speed limit to the other. */
typedef struct rbl_wall_motion {
    double velocity[3];           /* m/s */
    double amplitude[3];          /* m */
    double frequency;             /* Hz (with an amplitude) */
    double axis[3];               /* need not be unit length; zero: no rotation */
    double center[3];             /* a point on the axis at t = 0, m */
    double omega;                 /* rad/s */
    int servo;                    /* servo_* are used */
    double servo_axis[3];         /* the direction it advances in (into the grains) */
    double servo_force;           /* N, > 0 */
    double servo_speed;           /* m/s, > 0 */
    double servo_gain;            /* m/(N s); 0: servo_speed / servo_force */
} rbl_wall_motion;
/* Sets how wall `wall` moves: walls numbered as in rbl_thermo (planes in the order added, then
 * meshes), so call it once every wall is added. Its motion starts from where it was added, at
 * t = 0 (a run that starts later finds it where the motion has taken it). */
RBL_API int rbl_sim_set_wall_motion(rbl_sim *sim, int wall, const rbl_wall_motion *motion,
                                    rbl_error *err);
/* The same between the stages of a run: the motion starts now from where the wall is (its
 * `center` a point on the axis now, its vibration continuing in phase with the run's time, so
 * the wall does not move at the change but its velocity may jump). The wall is re-based: a
 * checkpoint of the run then restarts only under a scene that says so (issue 44). */
RBL_API int rbl_sim_set_wall_motion_now(rbl_sim *sim, int wall, const rbl_wall_motion *motion,
                                        rbl_error *err);
/* A wall moved by a table (issue 73; LIGGGHTS' move/mesh driven by a table): row k holds a
 * time t (s, from the motion's start, >= 0, increasing), the wall's displacement shift (m) and
 * its orientation quat (a unit quaternion w, x, y, z) turned about `pivot` (a point of the
 * wall where it stands when the motion starts, m). A point x of the wall as the motion starts
 * is then at pivot + R(q) (x - pivot) + shift, taken relative to the first row (the wall stands
 * where it is until the first row's time, and rests at the last row's pose after it). Between
 * rows the displacement is linear in time and the orientation turns at a constant angular
 * velocity (slerp, the shorter way: two rows' orientations less than 179 degrees apart); the
 * contacts see the velocity and spin of that motion (averaged over the step, as the grains'
 * velocities are, under the mid-step integrator), so the wall's work matches its force's. */
typedef struct rbl_motion_row {
    double t;        /* s */
    double shift[3]; /* m */
    double quat[4];  /* w, x, y, z: unit to 1e-6 (then normalised) */
} rbl_motion_row;
typedef struct rbl_wall_table {
    size_t n;                  /* rows, at least 2 */
    const rbl_motion_row *rows;
    double pivot[3];           /* m */
} rbl_wall_table;
/* Wall `wall` (numbered as in rbl_sim_set_wall_motion) moved by `table` from now on, in place
 * of any other motion: from t = 0 and the wall as added (now 0: call it as
 * rbl_sim_set_wall_motion), or from the run's time and where the wall is (now 1: between
 * stages). The table is copied. RBL_EINVAL naming the row at fault: fewer than 2 rows, a value
 * not finite, a time below 0 or not after the row before, a quaternion not unit, a turn
 * between two rows of 179 degrees or more. */
RBL_API int rbl_sim_set_wall_table(rbl_sim *sim, int wall, const rbl_wall_table *table, int now,
                                   rbl_error *err);
/* Wall `wall` taken away (present 0) or put back (1) between steps (issue 73: a gate). Taken
 * away, it touches nothing and is not drawn, though it goes on moving with its motion; the
 * energy its contacts held is booked as taken out by the change (docs/dem.md). Put back, it
 * must touch no grain (RBL_EINVAL naming one). */
RBL_API int rbl_sim_set_wall_present(rbl_sim *sim, int wall, int present, rbl_error *err);
/* 1 where wall `wall` is there (not taken away), 0 where it is away or no such wall. */
RBL_API int rbl_sim_wall_present(const rbl_sim *sim, int wall);
/* Where n points x0 of wall `wall` (in the frame it was added in) are now, into x (3 n). */
RBL_API void rbl_sim_wall_place(const rbl_sim *sim, int wall, const double *x0, size_t n,
                                double *x);
/* Adds a grain and returns its id (stable for the whole run). */
RBL_API int rbl_sim_add_grain(rbl_sim *sim, const rbl_grain *g, uint32_t *id, rbl_error *err);
/* The checks of the set-up, each on its own so that a scene can say which part is wrong:
 * the law (coefficients in range, damping below critical for the lightest pair), dt (at least
 * 5 steps in the shortest contact), dt against the models' own coefficients (a linear kt, a
 * constant gamma_t: dt below 2 / their rate on the lightest contact, src/dem/law_table.h; the
 * message names the key, its value and the limit), placement (grains inside the domain, none
 * through a wall). */
RBL_API int rbl_sim_check_law(rbl_sim *sim, rbl_error *err);
RBL_API int rbl_sim_check_dt(rbl_sim *sim, rbl_error *err);
RBL_API int rbl_sim_check_dt_models(const rbl_sim *sim, rbl_error *err);
RBL_API int rbl_sim_check_placement(const rbl_sim *sim, rbl_error *err);
/* All three checks, then the first neighbour list and forces; rbl_sim_step does it on first
 * use. */
RBL_API int rbl_sim_prepare(rbl_sim *sim, rbl_error *err);
RBL_API int rbl_sim_step(rbl_sim *sim, uint64_t steps, rbl_error *err);
RBL_API void rbl_sim_grains(const rbl_sim *sim, rbl_grains_view *view);

/* Bonded particles (issue 72, docs/bonds.md): Potyondy & Cundall's parallel bond between two
 * grains, a cylinder of cement of radius lambda * min(R_i, R_j) carrying normal and shear
 * force, twist and bending moment, with dashpots, broken for good when its tensile stress
 * F_n/A + |M_b| R/I passes the tensile strength or its shear stress |F_s|/A + |M_t| R/J the
 * shear strength. Strengths may be spread, drawn per bond from the seed and the bond's two
 * ids (the same on any thread or process count). */
enum { RBL_BOND_SPREAD_NONE, RBL_BOND_SPREAD_NORMAL, RBL_BOND_SPREAD_WEIBULL };
typedef struct rbl_bond_params {
    double youngs_modulus;    /* E_b, Pa (> 0): k_n = E_b / (R_i + R_j) per unit area */
    double stiffness_ratio;   /* k_n / k_s (> 0; P&C 2004: 1 to 3) */
    double radius_multiplier; /* lambda (> 0): the bond's radius over the smaller grain's */
    double tensile_strength;  /* sigma_c, Pa (> 0; INFINITY: never breaks in tension) */
    double shear_strength;    /* tau_c, Pa (> 0; INFINITY: never breaks in shear) */
    double damping;           /* each spring's dashpot, a fraction of critical, 0 to 1 */
    double gap;               /* bonds join grains whose gap (distance less the radii) is at
                                 most this, m (>= 0; at most the neighbour skin) */
    int spread;               /* RBL_BOND_SPREAD_*: the strengths' spread */
    double spread_value;      /* NORMAL: the coefficient of variation (0 to 0.5, drawn values
                                 cut at 3 of them); WEIBULL: the modulus m (> 0), the strength
                                 then the distribution's mean */
    uint64_t seed;            /* the spread's */
} rbl_bond_params;
/* Bonds between the listed grains (ids, n_ids of them; NULL: every grain) whose gap is at most
 * p->gap, each pair once and never twice (a pair already bonded, intact or broken, is passed
 * over); *made (may be NULL) gets how many were made. Over several processes (src/parallel/)
 * every process passes every chosen id and makes the bonds of its grains (a bond with another
 * process's grain on both). Not between members of clumps. */
RBL_API int rbl_sim_add_bonds(rbl_sim *sim, const rbl_bond_params *p, const uint32_t *ids,
                              size_t n_ids, size_t *made, rbl_error *err);
/* Bonds between the n pairs of grain ids listed (pairs: 2 n ids), each with its own radius
 * (radius NULL, or radius[k] 0: p->radius_multiplier min(R_i, R_j)), whatever p->gap; a pair
 * already bonded is passed over. Refused (none made, *failed the pair's index): a grain not
 * there, bonded to itself, or farther from the other (surface to surface) than the neighbour
 * skin; over several processes each makes the bonds of its own grains. */
RBL_API int rbl_sim_add_bond_pairs(rbl_sim *sim, const rbl_bond_params *p, const uint32_t *pairs,
                                   const double *radius, size_t n, size_t *made, size_t *failed,
                                   rbl_error *err);
/* The bonds' counts: intact and broken. */
RBL_API void rbl_sim_bond_counts(const rbl_sim *sim, size_t *intact, size_t *broken);
/* Bond k's state (0 <= k < intact + broken, in order of its ids): ids, intact, its loads on
 * the first grain (force, N; moment, N m), normal force (tension positive), stresses, Pa. */
typedef struct rbl_bond_view {
    uint32_t id[2];
    int intact;
    double force[3], moment[3];
    double normal_force, sigma, tau;
    double energy;            /* held in its springs, J */
    double ends[6];           /* its grains' centres at its last evaluation (a broken bond's:
                                 where it broke), the second the first's nearest image, m */
    uint64_t broke_step;      /* the step it broke at (0: intact, or its grain taken out) */
    int mode;                 /* broken in tension (1), in shear (2), its grain gone (0) */
} rbl_bond_view;
RBL_API int rbl_sim_bond(const rbl_sim *sim, size_t k, rbl_bond_view *out);
/* The fragments (docs/bonds.md "Fragments"): connected components of the intact bonds, a grain
 * without one alone, a clump's members together, in order of their labels (each its least
 * grain id). *out (rbl_fragments_free) holds *n of them; this process's grains only. */
typedef struct rbl_fragment {
    uint32_t label;           /* its least grain id */
    uint32_t grains;          /* how many */
    double mass;              /* kg */
    double diameter;          /* of the sphere of its spheres' volume, m */
    double centre[3];         /* its centre of mass (its grains carried across periodic sides
                                 along its bonds from the label's grain), m */
    double velocity[3];       /* its centre of mass's, m/s */
} rbl_fragment;
RBL_API int rbl_sim_fragments(const rbl_sim *sim, rbl_fragment **out, size_t *n, rbl_error *err);
RBL_API void rbl_fragments_free(rbl_fragment *f);
/* The arrays of rbl_sim_grains stay where they are while held: adding grains beyond their
 * room then moves the grains into new arrays and keeps the old ones (and any view of them,
 * Python's numpy arrays) readable until the hold ends, which frees them. Reordering is in
 * place and never moves them. */
RBL_API void rbl_sim_hold_arrays(rbl_sim *sim, int hold);
RBL_API void rbl_sim_thermo(rbl_sim *sim, rbl_thermo *out);
RBL_API void rbl_sim_timers_get(const rbl_sim *sim, rbl_sim_timers *out);
RBL_API const rbl_sim_config *rbl_sim_config_get(const rbl_sim *sim);
/* Threads the force and neighbour passes use. */
RBL_API int rbl_sim_threads(const rbl_sim *sim);
/* The deepest overlap, relative to the smaller radius, that a simulation accepts at its start
 * (grains on walls in rbl_sim_prepare; grains on grains in a scene's run). A stiff bed
 * overlaps by ~1e-4, a bed under soft springs by a few per cent (the 1:10 bed of bench/dem.sh,
 * k_n = 2000 N/m: 6 %); grains placed into each other by mistake overlap by tens of per
 * cent. */
#define RBL_START_OVERLAP_MAX 0.1
/* The most threads a simulation accepts (a configuration or a checkpoint asking for more is
 * refused before OpenMP sees the number). */
#define RBL_MAX_THREADS 1024
/* Use `threads` from now on (0: all cores): the results do not depend on it. RBL_EINVAL
 * outside 0..RBL_MAX_THREADS. */
RBL_API int rbl_sim_set_threads(rbl_sim *sim, int threads, rbl_error *err);
/* At most max_grains grains from now on (0: no limit, the default): adding one more, or a
 * lattice of more sites, is refused with RBL_ETOOBIG instead of filling the memory (a scene
 * whose radius is a typo; a fuzzer). */
RBL_API void rbl_sim_set_max_grains(rbl_sim *sim, size_t max_grains);
/* For tests of invariance only: with seed != 0, every neighbour build stores the grains in a
 * random order (drawn from seed and the step) instead of by cell, so that what depends on the
 * grains' order in memory shows (docs/testing.md); 0, the default, turns it off. Slow. */
RBL_API void rbl_sim_set_test_shuffle(rbl_sim *sim, uint64_t seed);
/* A sheared periodic cell (docs/shear.md): Lees-Edwards boundaries, the box's images across
 * the gradient axis shifted along the flow axis by rate L_gradient t (mod L_flow) and moving
 * along it at rate L_gradient, so that the mean flow is u_flow = rate (x_gradient - centre). */
typedef struct rbl_shear {
    double rate;   /* 1/s, finite and not 0 */
    int flow;      /* 0 (x) or 1 (y) */
    int gradient;  /* 2 (z): the only one yet */
} rbl_shear;
/* Shear the box from now on (both axes periodic, a closed box, one process, spheres): the
 * shift follows the simulation's time. RBL_EINVAL for what is refused, with the reason. */
RBL_API int rbl_sim_set_shear(rbl_sim *sim, const rbl_shear *shear, rbl_error *err);
/* A sheared cell at imposed normal stress (docs/shear.md): the gradient axis's length L follows
 * dL/dt = L (sigma_gg - pressure) / (K time), sigma_gg the cell's normal stress along the
 * gradient (stress[gradient][gradient] of rbl_shear_state), K its affine stiffness measured
 * from the contacts each step, the strain rate at most |shear rate|; the grains' positions
 * remapped affinely about the box's centre, the change of what the contacts hold booked as
 * the boundary's work. */
typedef struct rbl_shear_servo {
    double pressure; /* Pa, finite and > 0 */
    double time;     /* s, the servo's relaxation time (0: 1000 steps) */
} rbl_shear_servo;
/* From now on (after rbl_sim_set_shear; grains alone: no walls, no bonds): RBL_EINVAL for what
 * is refused. A checkpoint carries the height, the shift and the servo's strain rate. */
RBL_API int rbl_sim_set_shear_pressure(rbl_sim *sim, const rbl_shear_servo *servo,
                                       rbl_error *err);
/* Add the mean flow rate (x_gradient - centre of the box) to every grain's flow velocity
 * (a start from the linear profile); RBL_EINVAL unless sheared. */
RBL_API int rbl_sim_shear_profile(rbl_sim *sim, rbl_error *err);
/* What a sheared cell's grains carry, from the last force evaluation and the velocities now
 * (docs/shear.md): the stress tensor, Pa, compressive positive, row a column b of
 * 1/V (sum over contacts of d_a f_b + sum over grains of m c_a c_b), d = x_i - x_j, f the force
 * on i, c the velocity less the mean flow; pressure P = trace / 3, shear stress tau =
 * -stress[flow][gradient] (positive where the grains resist the shear), mu = tau / P,
 * the inertial number I = |rate| d_mean / sqrt(P / rho) (the grains' mean diameter, their
 * mass over their volume), volume fraction, and the shift now. */
typedef struct rbl_shear_state {
    double stress[9], contact[9], kinetic[9];
    double pressure, shear_stress, mu, inertial, volume_fraction;
    double delta;
} rbl_shear_state;
RBL_API int rbl_sim_shear_state(const rbl_sim *sim, rbl_shear_state *out, rbl_error *err);
/* Set a grain's velocity by id (e.g. a kick); RBL_ENOTFOUND if it is gone. */
RBL_API int rbl_sim_set_velocity(rbl_sim *sim, uint32_t id, const double vel[3], rbl_error *err);
/* Between two steppings of a staged study: the uniform gravity from now on (m/s^2); grains
 * (by id, spheres not in a clump) taken out at the next step, which rebuilds its lists without
 * them (RBL_ENOTFOUND naming an id no grain has; nothing is taken out then). Neither counts
 * as lost. Under rbl_run, what they do to the energy is booked as work put in. */
RBL_API int rbl_sim_set_gravity(rbl_sim *sim, const double gravity[3], rbl_error *err);
RBL_API int rbl_sim_remove_grains(rbl_sim *sim, const uint32_t *ids, size_t n, rbl_error *err);
/* A servo wall's target force (N, > 0) from now on (walls indexed from 0 as in rbl_thermo;
 * messages name wall index K as "wall K + 1", as thermo.csv and walls.vtp do);
 * it travels on from where it is. */
RBL_API int rbl_sim_set_servo_force(rbl_sim *sim, int wall, double force, rbl_error *err);
/* Grains (by id, spheres not in a clump) put at new positions (3 per grain, m); the next step
 * builds its lists anew (contacts that no longer touch end there). A moved grain starts with
 * the force of a grain just added (its weight, its external force); the grains it touched
 * keep its push for the first half step. RBL_ENOTFOUND naming an id no grain has; RBL_EINVAL
 * naming the grain and the wall (from 1) for a position in or behind a wall by more than
 * RBL_START_OVERLAP_MAX of its radius, or outside a closed domain, as the scene's placement
 * check refuses them (rbl_sim_check_placement); nothing is moved then. */
RBL_API int rbl_sim_move_grains(rbl_sim *sim, const uint32_t *ids, size_t n, const double *pos,
                                rbl_error *err);
/* The contacts of the last force evaluation (between steps: those whose forces the grains
 * now hold), ordered by the grains' ids, so the same for any thread count. Grain pairs: the
 * ids (the smaller first), the contact point (on the line of centres, where the seed puts
 * it), the unit normal from the first centre towards the second, the normal and tangential
 * parts of the contact's force on the first grain (the second feels the opposite), and the
 * overlap (m). Wall contacts: the grain's id, the wall (numbered as in rbl_thermo: planes,
 * then meshes, from 0), the point on the wall, the wall's unit normal there (towards the
 * grain), the force on the grain (normal and tangential parts) and the overlap. A grain's
 * contact forces sum to its force less gravity and the external force. centre is the first
 * grain's centre (wall contacts: the grain's) and branch the vector from it to the second
 * grain's centre (its nearest periodic image) or to the point on the wall. Over several
 * processes: the contacts whose first grain (a wall contact's grain) is this process's own,
 * so that the processes' lists together hold each contact once. */
typedef struct rbl_contact_list {
    size_t n;
    uint32_t *ids;                                       /* 2 per contact */
    double *point, *normal, *fn, *ft, *centre, *branch; /* 3 per contact */
    double *overlap;
    size_t n_wall;
    uint32_t *wall_grain;
    int32_t *wall;
    double *wall_point, *wall_normal, *wall_fn, *wall_ft, *wall_centre; /* 3 per contact */
    double *wall_overlap;
} rbl_contact_list;
RBL_API int rbl_sim_contacts(const rbl_sim *sim, rbl_contact_list *list, rbl_error *err);

/* Collision statistics (issue 70, docs/dem.md "Collision statistics"): every contact event
 * (grain against grain or wall, from its first force evaluation to its parting) is booked as
 * it ends, by its pair of materials (a wall by its material), into a histogram of its impact
 * energy m_eff v_n^2 / 2 (v_n the normal speed of the contact point at its first evaluation):
 * `bins` log-spaced bins from e_min to e_max (J), with one below e_min and one from e_max.
 * bins 0: off (the contacts' histories lose the slots the events take). Ask before the first
 * step; contacts touching when asked (a restart) are not counted. */
RBL_API int rbl_sim_collisions(rbl_sim *sim, int bins, double e_min, double e_max,
                               rbl_error *err);
typedef struct rbl_collision_bin {
    uint64_t count;    /* events that ended in this bin                                   */
    double impact;     /* the sum of their impact energies, J                              */
    double dissipated; /* the sum of what they dissipated (damping, friction, rolling, and
                          what their parting took: a spring's energy, JKR's), J            */
    double normal_speed, tangential_speed; /* the sums of their speeds at first touch, m/s */
} rbl_collision_bin;
/* The events booked since the last clear (over several processes, this process's: those of
 * pairs whose first grain it owns) of materials a and b (wall: b is a wall's material), in
 * bin `bin`: -1 below e_min, 0 .. bins - 1, bins from e_max. */
RBL_API int rbl_sim_collision_bin(const rbl_sim *sim, int a, int b, int wall, int bin,
                                  rbl_collision_bin *out, rbl_error *err);
RBL_API void rbl_sim_collisions_clear(rbl_sim *sim);
RBL_API void rbl_contact_list_free(rbl_contact_list *list);

/* The external force on each grain (N, 3 per grain, in the grains' order: rbl_sim_grains's),
 * zero when first asked for, added to every step's forces until changed; its work is booked
 * as energy put in. Ask again after stepping: the array follows its grains when they are
 * reordered and may move when they grow (rbl_sim_hold_arrays). NULL with err: out of memory,
 * or over several processes. */
RBL_API double *rbl_sim_external_forces(rbl_sim *sim, rbl_error *err);

/* The run's health check (issue 41, docs/dem.md "Health check"): a run whose physics breaks
 * down stops with RBL_EUNSTABLE and a message naming the step, the grains or wall, the
 * number and the likely cause, instead of ending with nonsense and exit 0.
 *   overlap: a contact's overlap beyond this share of the smaller radius (grains, walls);
 *   move:    a grain moving farther in one step than this share of its radius (tunnelling);
 *   energy:  the energy grown beyond what walls, grains added and removed and periodic wraps
 *            along gravity put in, by more than this share of the energy scale (the largest
 *            kinetic + rotational + |elastic| + |self-gravity| seen), checked by the caller
 *            with rbl_sim_check_energy (rubble run: at each thermo row).
 * Zero takes the default (RBL_HEALTH_*); checks are on unless off is set. The peaks are
 * measured either way (rbl_sim_health). Not part of the physics: a restart may change them. */
typedef struct rbl_health_options {
    int off;
    double overlap, move, energy;
} rbl_health_options;
#define RBL_HEALTH_OVERLAP 0.5
#define RBL_HEALTH_MOVE 0.5
#define RBL_HEALTH_ENERGY 0.05
RBL_API int rbl_sim_set_health(rbl_sim *sim, const rbl_health_options *opt, rbl_error *err);

/* What the health check measured since the simulation was created (or read): the deepest
 * overlap over every step's force evaluation, not only the last one's, and the energy put in. */
typedef struct rbl_health {
    double peak_overlap;         /* xi / r_min of the pair, or xi / r against a wall */
    uint64_t peak_overlap_step;  /* the step whose forces had it */
    uint32_t peak_overlap_ids[2];/* the grains' ids; a wall contact: the grain's, UINT32_MAX */
    int peak_overlap_wall;       /* a wall contact: the wall's number from 1 (planes, then
                                    meshes); 0 for two grains */
    double peak_move;            /* the farthest one step took a grain, over its radius */
    uint64_t peak_move_step;
    uint32_t peak_move_id;
    double energy_in;            /* J put in since creation: moving walls' work, grains added
                                    less grains removed, periodic wraps along gravity */
} rbl_health;
RBL_API void rbl_sim_health(const rbl_sim *sim, rbl_health *out);
/* The energy check at this state, whose diagnostics (over every process of a run) are t
 * (t->energy_in the energy put in): the first call takes the reference;
 * later ones return RBL_EUNSTABLE when the energy grew beyond the tolerance (RBL_OK with the
 * checks off). *excess, when not NULL: the growth beyond what was put in, over the scale. */
RBL_API int rbl_sim_check_energy(rbl_sim *sim, const rbl_thermo *t, double *excess,
                                 rbl_error *err);

/* What asteroid users measure (issue 11; seed 002 §3.3-3.4), from the state after the last
 * step and the contact forces of its evaluation. Sums over grains are exact (independent of
 * the grains' order); in a run over several processes these calls, rbl_sim_layers and
 * rbl_sim_spin are collective (every process calls them, each for its own grains). */
/* Centre of mass, its velocity (may be NULL) and the total mass (may be NULL) of the grains. */
RBL_API void rbl_sim_centre_of_mass(const rbl_sim *sim, double com[3], double vcom[3],
                                    double *mass);
/* Radius of the smallest sphere about the centre of mass holding every grain whole. */
RBL_API double rbl_sim_body_radius(const rbl_sim *sim);
/* sigma_p = 1/V_p sum_c (x_c - x_p) (x) f_c over the grain's touching contacts (grains and
 * walls): 9 per grain (row-major), in the order of rbl_sim_grains, Pa; tension positive, so a
 * compressed grain has -tr(sigma)/3 > 0. */
RBL_API int rbl_sim_grain_stress(const rbl_sim *sim, double *stress, rbl_error *err);
/* Each grain's net contact force, 3 per grain in the view's order: the sum of its contacts
 * with grains and walls, no gravity of any kind (0 exactly for a grain that touches nothing). */
RBL_API void rbl_sim_contact_forces(const rbl_sim *sim, double *force);
/* sum over touching grain pairs of (x_i - x_j) . f_ij (f_ij the force on i): in a body at
 * rest it balances the gravitational virial, sum f . l = -W (W the self-gravity energy). */
RBL_API double rbl_sim_contact_virial(const rbl_sim *sim);

typedef struct rbl_shell_options {
    size_t shells;   /* spherical shells of equal thickness about the centre of mass */
    double radius;   /* out to this distance, m */
    double axis[3];  /* the spin axis for the angular velocity; zero: z */
    double band;     /* half-height of the equatorial band about the axis, m; 0: radius / 2 */
} rbl_shell_options;

typedef struct rbl_shell_row {
    double r_in, r_out;     /* m */
    size_t count;           /* grains whose centre lies in the shell */
    double solid_volume;    /* their volume, m^3 */
    double packing;         /* solid_volume / shell volume */
    double pressure_seed;   /* seed 002 §3.3 at r_out: P_k = 1/S_k sum f_ij . r_i over contacts
                               of a grain i outside the sphere r_out with a grain j inside, r_i
                               the outward unit vector of i, S_k = 4 pi r_out^2; Pa */
    double pressure_stress; /* the bulk pressure of the shell: -tr(sum V_p sigma_p) / (3 V_shell)
                               over its grains (Love-Weber), Pa */
    double omega;           /* angular velocity about the axis: L / I of the shell's grains */
    size_t band_count;      /* the shell's grains within opt->band of the equatorial plane */
    double band_force;      /* their mean contact force away from the axis (seed 002 §3.4: it
                               supports them against gravity, and falls to 0 at the critical
                               spin), N */
} rbl_shell_row;

/* Slabs across an axis (a wave's arrival, a bed's profile, seed 002 §3.2): count slabs of
 * equal thickness from lo to hi along axis (0, 1, 2), each with its grains' (by centre) mean
 * velocity and kinetic energy of translation. */
typedef struct rbl_layer_options {
    int axis;
    double lo, hi;   /* m */
    size_t count;
} rbl_layer_options;

typedef struct rbl_layer_row {
    size_t count;        /* grains whose centre lies in the slab */
    double velocity[3];  /* their mean velocity, m/s */
    double kinetic;      /* their kinetic energy of translation, J */
} rbl_layer_row;

RBL_API int rbl_sim_layers(const rbl_sim *sim, const rbl_layer_options *opt, rbl_layer_row *rows,
                           rbl_error *err);

/* Radial profiles about the centre of mass (written to com). rows holds opt->shells rows. */
RBL_API int rbl_sim_shells(const rbl_sim *sim, const rbl_shell_options *opt,
                           rbl_shell_row *rows, double com[3], rbl_error *err);
/* Add a rigid rotation omega (rad/s) about the axis through the centre of mass to every grain:
 * v += w x (x - com), spin += w (seed 002 §3.4). Spheres only for now (clumps are refused). */
RBL_API int rbl_sim_spin(rbl_sim *sim, const double axis[3], double omega, rbl_error *err);

/* Keep only the grains whose centres lie within radius of the centre of mass (seed 002 §3.3
 * keeps 10 m); *kept says how many. Contact lists are built anew, without history. Spheres
 * only for now. A radius that keeps no grain is an error. */
RBL_API int rbl_sim_keep_within(rbl_sim *sim, double radius, size_t *kept, rbl_error *err);

/* Checkpoints: the whole state in a versioned binary file with a checksum, written
 * atomically; a loaded simulation continues bit for bit as the one that was saved. Corrupt,
 * truncated or foreign files are refused with a message. */
RBL_API int rbl_sim_save(const rbl_sim *sim, const char *path, rbl_error *err);
RBL_API int rbl_sim_load(const char *path, rbl_sim **sim, rbl_error *err);

/* Parameter helpers (SD9, seed 002 §2.7). m_eff = m1 m2 / (m1 + m2). */
RBL_API double rbl_kn_from_velocity(double m_eff, double v0, double xi_max);
RBL_API double rbl_kn_from_pressure(double solid_share, double density, double gravity,
                                    double height, double radius, double xi_max);
RBL_API double rbl_gamma_from_restitution(double e, double m_eff, double kn);
RBL_API double rbl_restitution_linear(double gamma, double m_eff, double kn);
/* The same law with a weight m g pressing during the contact (a drop on a plane): the exact
 * solution of m xi'' + gamma xi' + kn xi = m g from xi = 0, xi' = v0, at its return to 0. */
RBL_API double rbl_restitution_linear_gravity(double gamma, double m, double kn, double g,
                                              double v0);
/* omega = sqrt(kn/m_eff - gamma^2/(4 m_eff^2)); 0 when overdamped. */
RBL_API double rbl_contact_omega(double kn, double gamma, double m_eff);
/* dt = C pi / omega (seed eq. 2). */
RBL_API double rbl_dt_from_c(double c, double kn, double gamma, double m_eff);
/* The smallest grain-grain and grain-wall contact duration of the current grains and law. */
RBL_API double rbl_sim_contact_time(const rbl_sim *sim);
/* The shortest time pi / rate that the contact models' own coefficients set (a linear kt, a
 * constant gamma_t: src/dem/law_table.h's RBL_LAW_STEP_LIMITS, the rates rbl_sim_check_dt_models
 * holds dt below 2 / rate for) on the lightest grain against its like: the time of a spring
 * of that frequency's half swing, as the shortest contact is the normal spring's. `dt: auto`
 * takes c times the shorter of the two. INFINITY where no model sets one; *key ("kt") and
 * *what (what it bounds) name the one that does (each may be NULL). */
RBL_API double rbl_sim_model_time(const rbl_sim *sim, const char **key, const char **what);

/* Grain sources (BY2): size distributions, lattices and random non-overlapping packings. */
typedef enum rbl_size_kind {
    RBL_SIZE_CONSTANT = 0, /* radius                                          */
    RBL_SIZE_UNIFORM = 1,  /* uniform in [min, max]                           */
    RBL_SIZE_NORMAL = 2,   /* normal (mean, std) truncated to [min, max]      */
    RBL_SIZE_BINS = 3      /* bins (sizes.c): any table, mixture, law, list   */
} rbl_size_kind;

/* A bin of radii [lo, hi] (lo = hi: that radius alone) holding a share `weight` of the
 * grains by number, their number density in it proportional to r^power: 0 uniform in size,
 * -3 uniform in mass (a sieve bin's mass spread evenly over its sizes). */
typedef struct rbl_size_bin {
    double lo, hi, weight, power;
} rbl_size_bin;

typedef struct rbl_size_dist {
    rbl_size_kind kind;
    double radius, min, max, mean, std;
    const rbl_size_bin *bins; /* RBL_SIZE_BINS: n_bins of them, weights summing to 1 */
    size_t n_bins;
} rbl_size_dist;

/* Largest radius the distribution can draw; its mean radius and mean r^3 by number. */
RBL_API double rbl_size_max(const rbl_size_dist *d);
RBL_API double rbl_size_mean(const rbl_size_dist *d, int power);

typedef struct rbl_insert_spec {
    double lo[3], hi[3]; /* region the grains lie in entirely */
    rbl_size_dist size;
    int material;
    double vel[3];
    double vel_spread;   /* each velocity component gets a uniform random part in [-s, s] */
    size_t count;        /* random: how many; lattice: at most this many (0 = fill) */
    double spacing;      /* lattice: centre distance; 0 = twice the largest radius */
    uint64_t seed;
    /* Clumps instead of spheres (KL6): the spheres in the body frame and their mass
     * properties; each is placed as its bounding sphere (size is ignored) with a uniformly
     * random orientation. NULL: spheres. */
    const struct rbl_clump *clump;
    const struct rbl_mass_properties *clump_props;
    /* The region's shape within the box lo..hi (which must hold it): 0 the box itself,
     * RBL_REGION_CYLINDER (axis from..to, radius), RBL_REGION_SPHERE (centre, radius); a
     * grain lies in it entirely. RBL_REGION_FACE (random addition only): an inflow through
     * the surface `mesh` (open or closed): a centre is drawn on it by area and moved off its
     * facet, along the facet's normal to the side vel points to (the STL's own normal where
     * vel runs along the facet), by r to depth - r (depth >= the largest diameter). */
    int shape;
    double from[3], to[3], centre[3], shape_radius;
    const struct rbl_mesh *mesh; /* RBL_REGION_MESH: a closed mesh, the inside (rbl_stl_read);
                                    RBL_REGION_FACE: the face */
    double depth;                /* RBL_REGION_FACE: the slab's thickness off the face, m */
} rbl_insert_spec;
enum {
    RBL_REGION_BOX = 0,
    RBL_REGION_CYLINDER = 1,
    RBL_REGION_SPHERE = 2,
    RBL_REGION_MESH = 3,
    RBL_REGION_FACE = 4
};
/* The volume of a source's region (m^3). */
RBL_API double rbl_insert_region_volume(const rbl_insert_spec *spec);

/* Radius of the smallest sphere about the body origin holding every sphere of a clump. */
RBL_API double rbl_clump_bounding_radius(const struct rbl_clump *clump);
/* Grains on a simple cubic lattice filling the region (they may not overlap others). */
RBL_API int rbl_sim_insert_lattice(rbl_sim *sim, const rbl_insert_spec *spec, size_t *placed,
                                   rbl_error *err);
/* Random sequential addition: up to count grains at random places where they overlap neither
 * a grain nor a wall; *placed says how many fitted (a full region places fewer). */
RBL_API int rbl_sim_insert_random(rbl_sim *sim, const rbl_insert_spec *spec, size_t *placed,
                                  rbl_error *err);
/* A dense packing (issue 73): the grains whose volume makes volume_fraction of the region
 * (0: spec->count of them), their radii drawn as the distribution asks, placed at
 * random overlapping and pushed apart until none overlaps another grain, a wall or the
 * region's side (docs/scenes.md "How a dense packing is made"). A packing that cannot be
 * freed of its overlaps is refused (RBL_ERANGE) and nothing is added. info (may be NULL): what
 * was reached. */
#define RBL_PACK_MOST 0.64 /* the largest volume fraction asked */
typedef struct rbl_pack_info {
    double volume_fraction; /* the grains' volume over the region's */
    double overlap;         /* the largest overlap left with the radii padded by 1e-6, over the
                               smaller radius (below 1e-6: none without the padding) */
    uint64_t iterations, builds; /* the relaxation's, and its neighbour lists' */
    double seconds;
} rbl_pack_info;
RBL_API int rbl_sim_insert_pack(rbl_sim *sim, const rbl_insert_spec *spec,
                                double volume_fraction, size_t *placed, rbl_pack_info *info,
                                rbl_error *err);

/* Restitution of one collision simulated with the engine (SD9, SD11a, seed 002 §3.1): two
 * equal spheres meeting head-on without gravity, or one sphere dropped on a plane under
 * gravity. The seed's C iteration and its (k_n, gamma) map are built on it. */
typedef enum rbl_collision_kind {
    RBL_COLLISION_PAIR = 0, /* head-on, relative speed v0, no gravity   */
    RBL_COLLISION_DROP = 1  /* dropped from height h0 onto a plane, g   */
} rbl_collision_kind;

typedef struct rbl_collision {
    rbl_collision_kind kind;
    rbl_contact_law law;  /* normally linear spring-dashpot, no friction */
    rbl_material material;/* density; E, nu, e too when law.from_materials */
    double radius;
    double v0;            /* pair: relative speed, m/s */
    double onset;         /* pair: the contact begins this fraction of a step into the second
                             step, in [0, 1): the discretisation error of e depends on it */
    double h0, gravity;   /* drop: height of the lowest point above the plane, m; g > 0 */
    rbl_integrator integrator;
    double dt;            /* > 0: use this time step instead of c pi / omega */
} rbl_collision;

typedef struct rbl_collision_result {
    double e_velocity;    /* v / v0 after the contact */
    double e_height;      /* drop: sqrt(h / h0) of the bounce */
    double e_closed;      /* exp(-pi gamma / sqrt(4 m_eff k_n - gamma^2)), linear law, g = 0 */
    double e_exact;       /* the exact solution of the linear law with the weight (drop), or
                             e_closed (pair) */
    double contact_time;  /* simulated, s */
    double max_overlap;   /* m */
    double dt;
    uint64_t steps;
    int separated;        /* 0: still in contact after 50 contact times (near-critical
                             damping can make the discrete contact end never): e = 0 */
} rbl_collision_result;

/* Simulate one collision with time step dt = c * pi / omega (seed eq. 2; omega of the law
 * with its damping), or col->dt if set. */
RBL_API int rbl_collision_run(const rbl_collision *col, double c, rbl_collision_result *out,
                              rbl_error *err);

/* ---------------------------------------------------------------- coarse-graining --------- */
/* Continuum fields of the grains on a regular grid (issue 43; Weinhart, Thornton, Luding &
 * Bokhove, Granular Matter 14, 2012, as MercuryCG): each grain spread by a kernel phi about
 * its centre, each contact's force along its branch vector (the line integral of phi from the
 * first grain's centre to the second's, or to the point on a wall), averaged over samples.
 * docs/cg.md. The grid's nodes are the centres of cells[0] x cells[1] x cells[2] cells of the
 * box lo..hi, x fastest (VTK ImageData's order); periodic images of grains and contacts are
 * taken where the kernel reaches across a periodic side. */
typedef enum { RBL_CG_LUCY, RBL_CG_GAUSSIAN } rbl_cg_kernel;
typedef enum { RBL_CG_CARTESIAN, RBL_CG_CYLINDRICAL, RBL_CG_SPHERICAL } rbl_cg_coordinates;
typedef struct rbl_cg_options {
    double lo[3], hi[3];
    size_t cells[3];
    rbl_cg_kernel kernel;
    double width; /* Lucy: its support radius c; Gaussian: its standard deviation w, the kernel
                     cut at 3 w and scaled to integrate to 1 */
} rbl_cg_options;
typedef struct rbl_cg rbl_cg;
/* RBL_EINVAL naming the option for an empty box, a cell count of 0, a width <= 0 or not finite,
 * or more than RBL_CG_MAX_NODES nodes. */
#define RBL_CG_MAX_NODES ((size_t)1 << 22) /* 4.2 million (161^3): 1 GiB of sums */
RBL_API int rbl_cg_create(const rbl_cg_options *opt, rbl_cg **out, rbl_error *err);
/* Averages the grid over the axes where axes[a] is nonzero (issue 74, docs/cg.md "Averaged
 * axes"; output.cg's `average`), each with one cell across it: the fields' mean over lo..hi
 * along them, each grain (contact) whose centre (first grain's centre) lies in lo..hi there
 * spread by the kernel integrated exactly along the whole axis, over the length hi - lo (so
 * the density integrates to the mass; a periodic axis of the domain's length: exactly the
 * mean of the unaveraged field). A grid is created unaveraged; this sets which axes are, before
 * any sample. RBL_EINVAL for an axis with more than one cell or a grid holding samples. */
RBL_API int rbl_cg_average(rbl_cg *cg, const int axes[3], rbl_error *err);
/* Cylindrical or spherical grids (issue 74, docs/cg.md "Cylindrical and spherical grids"):
 * the grid's lo..hi and cells are then in (r, theta, z) about the line through centre along
 * axis (0, 1, 2: x, y, z; z the coordinate along it, theta from the next axis towards the one
 * after: from z towards x about y), or (r, theta, phi) about centre (theta the polar angle from
 * axis, phi the azimuth), in m and radians; r >= 0, an angle's span at most 2 pi (theta within
 * 0..pi on a sphere). The fields are the same kernel sums at the nodes' places, their vectors
 * and tensors in the nodes' local basis (r, theta, z) or (r, theta, phi). Set before any sample
 * and before rbl_cg_average (a cylinder may be averaged along its axis, index 2: exactly, as a
 * Cartesian axis). RBL_EINVAL naming what is wrong. */
RBL_API int rbl_cg_coordinates_set(rbl_cg *cg, rbl_cg_coordinates kind, int axis,
                                   const double centre[3], rbl_error *err);
/* One sample: the grains and the contacts of the last force evaluation, now (the kernel may
 * not be wider than half a periodic side). On this process's grains only: over several
 * processes, RBL_EINVAL (a run's output.cg gathers its samples on rank 0 instead: docs/cg.md).
 * Same bits on any thread count. */
RBL_API int rbl_cg_add(rbl_cg *cg, const rbl_sim *sim, rbl_error *err);
/* A saved state to coarse-grain (issue 74: `rubble cg`, from a run's frames and contact
 * files; docs/cg.md "After the run"): the grains in ascending id order, spheres only, and the
 * contacts in the contact files' order (grain pairs by ids, then wall contacts), each contact's
 * first grain centre taken from the grains. Over the same state as rbl_cg_add, the same bits.
 * RBL_EINVAL naming the grain or contact for ids out of order, a contact's grain missing, a
 * value not finite, a radius <= 0 or a mass < 0; arrays are read, not kept. */
typedef struct rbl_cg_frame {
    size_t n;
    const uint32_t *id;                      /* ascending */
    const double *pos, *vel;                 /* 3 per grain */
    const double *radius, *mass;
    size_t n_contacts;
    const int64_t *id1, *id2;                /* id2 < 0: a wall contact */
    const double *normal, *branch, *fn, *ft; /* 3 per contact: from the first grain */
    double lo[3], hi[3];                     /* the domain's box */
    int periodic[3];
    int threads;                             /* 0: one */
} rbl_cg_frame;
RBL_API int rbl_cg_add_frame(rbl_cg *cg, const rbl_cg_frame *frame, rbl_error *err);
/* Coarse-graining after the run (issue 74, `rubble cg`; docs/cg.md "After the run"): a run's
 * frames (grains_NNNNNN.vtp or a .pvtp of pieces, each with its contacts_NNNNNN[_R].vtp or
 * .csv beside it) or its checkpoints, each one sample, `samples` consecutive ones averaged
 * per output, on output.cg's grid and kernel: the scene's, or cg's when given (output.cg's
 * keys as YAML text, checked as the scene's are; `every` is not used). Writes into output_dir what output.cg writes:
 * cg_NNNNNN.vti and cg_profile_NNNNNN.csv (NNNNNN: the last frame's number, or the output's
 * place for checkpoints) and cg.pvd; the same bits as output.cg over the same states.
 * *outputs: the outputs written; *inexact: 1 when a contact .vtp written before the branch
 * vectors were in it gave them from its lines' ends (to their rounding). */
typedef struct rbl_cg_job {
    const char *scene;               /* the run's scene file: its domain and output.cg */
    const char *cg;                  /* NULL, or "{cells: [4, 4, 16], width: 0.002, ...}" */
    const char *const *inputs;       /* frames (.vtp) or checkpoints, in time order */
    size_t n_inputs;
    const char *output_dir;
    int threads;                     /* 0: one (the bits do not depend on it) */
    void (*warning)(const char *text, void *userdata); /* the grid's warnings; may be NULL */
    void *userdata;
} rbl_cg_job;
RBL_API int rbl_cg_job_run(const rbl_cg_job *job, size_t *outputs, int *inexact,
                           rbl_error *err);
RBL_API size_t rbl_cg_samples(const rbl_cg *cg);
RBL_API void rbl_cg_clear(rbl_cg *cg); /* no samples */
RBL_API void rbl_cg_free(rbl_cg *cg);
/* The mean over the samples, per node (malloc'd arrays; rbl_cg_fields_free):
 *   density rho = sum m phi (kg/m^3); volume_fraction = sum V phi;
 *   velocity = <sum m v phi> / <rho> (3 per node; 0 where rho = 0);
 *   contact_stress = sum_contacts b (x) f int_0^1 phi(r - x_1 - s b) ds (9, row-major, Pa),
 *     b the branch vector from the first grain, f the force on it: tension positive, as the
 *     frames' stress, so a bed under its weight has sigma_zz < 0;
 *   kinetic_stress = -(<sum m v (x) v phi> - <rho> V (x) V) (9, Pa), V the velocity above;
 *   stress = contact_stress + kinetic_stress;
 *   fabric = sum_grains V phi sum_{contacts c of the grain} n_c (x) n_c (9; its trace is the
 *     volume fraction times the coordination number). */
typedef struct rbl_cg_fields {
    size_t cells[3], nodes, samples;
    double origin[3], spacing[3]; /* the first node, the nodes' spacing */
    double *density, *volume_fraction, *velocity;
    double *stress, *contact_stress, *kinetic_stress, *fabric;
} rbl_cg_fields;
RBL_API int rbl_cg_fields_get(const rbl_cg *cg, rbl_cg_fields *f, rbl_error *err);
RBL_API void rbl_cg_fields_free(rbl_cg_fields *f);
/* The wall force density (Weinhart et al. 2012's boundary interaction force density t; issue
 * 74, docs/cg.md "Next to a wall"): t = sum_wall contacts (-f) phi(r - c), the force each wall
 * contact's grain puts on the wall (f the force on the grain) spread about the contact point c,
 * N/m^3, the mean over the samples: 3 per node into out (count = 3 x nodes), in the nodes'
 * local basis on cylindrical and spherical grids. With it, at rest, div stress + rho g = t at
 * every node, next to walls too (the contact stress holds each wall contact along its branch
 * from the grain's centre to c), and t integrates to the walls' loads. RBL_EINVAL for another
 * count. */
RBL_API int rbl_cg_wall_force_get(const rbl_cg *cg, double *out, size_t count, rbl_error *err);

/* ---------------------------------------------------------------- scenes and runs -------- */
/* A scene file (YAML, docs/scenes.md) describes a whole run: domain, materials, contact law,
 * walls, grain sources, run length, output. Errors name file:line:column. */
typedef struct rbl_scene rbl_scene;

RBL_API int rbl_scene_load(const char *path, rbl_scene **scene, rbl_error *err);
/* A scene from text in memory (YAML, or JSON, which is YAML): `name` stands for the file in
 * messages (NULL: "<scene>") and its folder is where the files the scene names are found
 * (none: the current folder), as if the text were read from a file of that name. */
RBL_API int rbl_scene_parse(const char *text, size_t len, const char *name, rbl_scene **scene,
                            rbl_error *err);
RBL_API void rbl_scene_free(rbl_scene *scene);

typedef struct rbl_run_status {
    uint64_t step, total_steps;
    double time, end_time;   /* simulated, s */
    size_t grains;
    double wall_seconds;     /* since the start of the run */
    double steps_per_second; /* over the last 10 s or so of wall time (a restart's steps done
                                before the checkpoint do not count): for an ETA */
} rbl_run_status;

typedef void (*rbl_progress_fn)(const rbl_run_status *status, void *userdata);
/* A warning (docs/scenes.md "Warnings"): a legal setting that is likely a mistake, the text
 * naming where (file:line:column, or the output folder) and the number. */
typedef void (*rbl_warning_fn)(const char *text, void *userdata);

typedef struct rbl_run_options {
    const char *output_dir;  /* NULL: the scene's output.folder */
    int threads;             /* 0: the scene's (or all cores) */
    uint64_t steps;          /* > 0: run this many steps instead of the scene's length */
    const char *restart;     /* a checkpoint of this scene to continue from, or NULL */
    rbl_progress_fn progress;/* called about every progress_interval wall seconds; may be NULL */
    void *userdata;
    double progress_interval;
    size_t max_grains;       /* > 0: refuse a scene that would hold more grains */
    uint64_t test_shuffle;   /* tests only: rbl_sim_set_test_shuffle's seed (0: off) */
    rbl_warning_fn warning;  /* called with each warning as the run opens (on rank 0), with
                                userdata; may be NULL (rbl_run_warnings has them) */
    rbl_warning_fn notice;   /* called (on rank 0) as each stage begins and as a restart
                                changes physics, with a line saying what changed; may be NULL */
    /* a restart (restart) may run under a scene whose physics differ from its checkpoint's:
     * gravity, the contact law's coefficients, materials' friction, restitution and
     * elasticity, pairs, walls' motions and servos, the health check (docs/scenes.md
     * "Stages"); what changed is given to notice. Grains, spins and contact histories kept. */
    int change_physics;
} rbl_run_options;

/* A quantity over the processes of a run: the least, mean and largest of their values. */
typedef struct rbl_rank_spread {
    double min, mean, max;
} rbl_rank_spread;

/* This process's peak resident memory so far, bytes (getrusage; 0 where unknown). */
RBL_API size_t rbl_peak_memory_bytes(void);

typedef struct rbl_run_report {
    uint64_t steps;               /* stepped in this call; also when it failed (0: it failed
                                     before stepping: a refused scene, checkpoint or option) */
    size_t grains;                /* spheres, clump members included */
    size_t clumps;
    uint64_t lost;                /* grains removed: left a closed domain, escaped an open one */
    uint64_t taken_out;           /* grains (a clump: one) the outlets took out, since t = 0 */
    /* the pour sources together, since t = 0: grains (objects) placed, asked for, and due in
     * their batches so far yet not placed, for want of room in the region (0: all fitted) */
    uint64_t poured, pour_asked, pour_waiting;
    int outlets;                  /* the scene's outlets (0: none) */
    int open;                     /* the domain was open */
    double escape;                /* its escape distance, m (0: none) */
    double dt, contact_time;
    double seconds;               /* wall time of the stepping */
    double particle_steps_per_second;
    double energy_start, energy_end; /* kinetic + rotational + potential + elastic, J */
    double energy_in;             /* put in over the run (rbl_health.energy_in), J */
    double max_overlap_ratio;     /* at the end */
    /* the deepest overlap over the run (rbl_health): its share of the smaller radius, step,
     * ids (a wall contact: the grain's, then UINT32_MAX) and wall (from 1; 0: two grains) */
    double peak_overlap;
    uint64_t peak_overlap_step;
    uint32_t peak_overlap_ids[2];
    int peak_overlap_wall;
    size_t contacts, pairs_listed; /* at the end */
    size_t frames;                /* in grains.pvd */
    size_t frames_elsewhere;      /* a restart into another folder: earlier frames it lacks */
    char walls_file[16];          /* the walls for ParaView in output_dir: "walls.pvd" (they
                                     move: a file per frame), "walls.vtp", or "" (no walls) */
    char network_files[48];       /* the contact network's (output.contacts): "contacts.pvd",
                                     "contacts_NNNNNN.csv", both (", " between), or "" */
    int threads;
    int threads_fewest;           /* with the default count, fewer while the cores were shared */
    /* over several processes (mpirun, docs/parallel.md): their count (1 otherwise), the most
     * time one spent in exchanges and waits, the slowest one's stepping over the mean, the
     * bytes and messages the ranks sent each other, grains that moved rank, partitions made,
     * the ghosts (copies of other ranks' grains) all ranks held at the end; the most other
     * ranks one rank exchanged with at once (its neighbours), and the exchanges made among
     * all ranks instead (after a new partition) */
    int ranks;
    double comm_seconds, imbalance;
    uint64_t comm_bytes, comm_messages, migrated, partitions, ghosts;
    int neighbours;
    uint64_t exchanges_all;
    /* self-gravity over several processes: evaluations with the tree built apart (each
     * process its own grains' range and what the others' trees its walks need) and with every
     * grain gathered on every process (the Cell scheme, the direct sum, too few grains a
     * process); the bytes its exchanges sent, all processes (in comm_bytes too) */
    uint64_t gravity_apart, gravity_gathers, gravity_bytes;
    uint64_t gravity_tree_bytes; /* of gravity_bytes, the trees' (the rest: the grains sorted
                                    into ranges and their fields sent back, or gathered) */
    /* each process's share, as its least, mean and largest over the processes (one process:
     * its own, three times): the grains it owns, the ghosts and listed pairs it holds at the
     * end (a pair with a ghost is listed on both its processes), the seconds of its force,
     * neighbour, integration and self-gravity stages and of its exchanges and waits, and its
     * peak resident memory in bytes (over several, `rubble run` reports the largest) */
    rbl_rank_spread rank_grains, rank_ghosts, rank_pairs, rank_force, rank_neighbor,
        rank_integrate, rank_gravity, rank_comm, rank_memory;
    rbl_sim_timers timers;
    char output_dir[1024];       /* where the files went */
    size_t checkpoints;           /* this run's checkpoints still there (output.checkpoint_keep) */
    char last_checkpoint[64];     /* the latest one's name in output_dir, or "" */
    char final_file[256];         /* output.final's name in output_dir, or "" */
    /* an impulse scene (objects, seed 003): grains, clumps and the timers above stay 0 */
    int impulse;
    size_t objects;
    double phase_seconds[4];      /* the seed's four phases over the run, s */
    size_t fallbacks;             /* contact constructions that fell back, over the run */
    size_t capped;                /* bounces held to the energy they may return, over the run */
    /* the contact solve: steps that spent their budget of passes (impulse.iterations per
     * phase) before converging, the largest residual a step ended with (m/s), the tolerance
     * of that step and its number */
    size_t unconverged;
    int iterations;
    double worst_residual, worst_tolerance;
    uint64_t worst_step;
    double largest_overlap;       /* m: the deepest contact any step found */
    /* a staged scene (stages:): how many stages it has, the one the run ended in (from 1)
     * and its name; 0 and "" without stages */
    int stages, stage;
    char stage_name[72];
    /* the energy account over the run (rbl_thermo's, docs/dem.md "The energy account"):
     * dissipated by mechanism (RBL_LOSS_*) and put in by source (RBL_IN_*), J; how far its
     * balance moved (the integration's own error, J) and the health check's energy scale
     * it is judged against (J; 0 in impulse runs) */
    double dissipated[RBL_LOSS_N], put_in[RBL_IN_N];
    double balance_drift, energy_scale;
} rbl_run_report;

/* How many processes the job's launcher (Open MPI's mpirun, MPICH's or Intel MPI's mpiexec,
 * MVAPICH, SLURM's srun) started this one among, from its environment (1 when none), and this
 * one's rank (docs/parallel.md); the launcher's name for messages, or NULL. */
RBL_API int rbl_launched_ranks(int *rank);
RBL_API const char *rbl_launcher_name(void);
/* A program that runs over several processes may hold MPI itself across rbl_scene_run (which
 * otherwise starts and ends it): begin before, end after it has reported, on every rank, so
 * that no rank exits before rank 0 has said why a run stopped. No-ops without MPI. */
RBL_API int rbl_parallel_begin(void);
RBL_API void rbl_parallel_end(void);
/* Between them, on every process: an error on any one an error on all, with the first failing
 * process's code and message (rc itself without MPI or with one process). A process that
 * fails alone before the run (its scene's STL missing, its memory short) would otherwise leave
 * the others waiting for it in the run's first collective call. */
RBL_API int rbl_parallel_agree(int rc, rbl_error *err);

/* The whole run, as `rubble run` makes it: rbl_run_open, rbl_run_step to the run's end,
 * rbl_run_finish, rbl_run_summary, rbl_run_close. On failure report->steps still says how many
 * steps were made (0: refused before the first). */
RBL_API int rbl_scene_run(const rbl_scene *scene, const rbl_run_options *options,
                          rbl_run_report *report, rbl_error *err);

/* A run as an object (docs/python.md has the same in Python): opened from a scene, stepped
 * in pieces of any size, asked for frames and checkpoints, summarised, closed. Its events
 * (frames, thermo rows, pours, checkpoints, spin steps) fall on the steps the scene sets
 * whatever pieces it is stepped in, so a run stepped 1 + 7 + 1000 steps writes the same bytes
 * as one stepped 1008 at once, and as `rubble run`. Grain and impulse scenes alike; over
 * several processes every call is made on every one (collective). */
typedef struct rbl_run rbl_run;
/* Build the simulation the scene describes (or load options->restart), make the output folder
 * and, for a fresh run, place the pours due at time 0 and write the first thermo row and
 * frame. The scene must outlive the run. */
RBL_API int rbl_run_open(const rbl_scene *scene, const rbl_run_options *options,
                         rbl_run **run, rbl_error *err);
/* `steps` more steps (at most 1e15, as rbl_run_until: RBL_ERANGE beyond). The run may go past
 * the scene's length (its last frame and thermo row are written at that step, and events go
 * on at their intervals after it). After a failure (an error, or the health check's
 * RBL_EUNSTABLE) the run steps no more; after RBL_EINTERRUPT (rbl_run_set_interrupt) it
 * may. */
RBL_API int rbl_run_step(rbl_run *run, uint64_t steps, rbl_error *err);
/* A function rbl_run_step (and rbl_run_until) calls between the pieces it steps in: at each
 * stop it makes to look at the events, at most 200 steps apart for grains and every step for
 * impulse objects. Nonzero stops the stepping there with RBL_EINTERRUPT, the run whole at
 * that step (its events done): it may step on, in the same bits as a run never stopped (a
 * Ctrl-C in a script: python/rubble_module.c). Over several processes every process must
 * answer the same at each stop. NULL fn: none (the default). */
typedef int (*rbl_run_interrupt)(rbl_run *run, void *userdata);
RBL_API void rbl_run_set_interrupt(rbl_run *run, rbl_run_interrupt fn, void *userdata);
/* A flag a signal handler sets (the signal's number; 0: none), for a clean stop (a batch
 * system's SIGTERM, `rubble run`'s Ctrl-C): read at every step's end, on every process, and
 * agreed through the step's own exchange, so all processes stop after the same step. There
 * rbl_run_step writes a checkpoint into the output folder (as output.checkpoint_every names
 * them; none again if one fell on that step), thermo.csv with its rows so far, and returns
 * RBL_EINTERRUPT naming the step and the checkpoint (rbl_run_summary's last_checkpoint). The
 * run may step on. NULL: none (the default). docs/scenes.md "Restarts". */
RBL_API void rbl_run_set_stop(rbl_run *run, const volatile sig_atomic_t *flag);
/* The signal that stopped the run (the largest flag over the processes); 0: not stopped. */
RBL_API int rbl_run_stopped(const rbl_run *run);
/* Step until the simulated time is at least `time` (nothing if it is already). */
RBL_API int rbl_run_until(rbl_run *run, double time, rbl_error *err);
/* Where the run is: step, the scene's last step, time, grains (or objects), wall time. Over
 * several processes collective (the grains are summed over them). */
RBL_API void rbl_run_progress(const rbl_run *run, rbl_run_status *status);
/* Where the run is, from this process alone (no communication: any process may ask at any
 * time, one alone too): steps done, the scene's last step, and the time step (s); the
 * simulated time is step * dt. Any pointer may be NULL. */
RBL_API void rbl_run_clock(const rbl_run *run, uint64_t *step, uint64_t *total_steps,
                           double *dt);
/* A frame now, added to the series (grains.pvd or objects.pvd) with thermo.csv rewritten; a
 * checkpoint now (checkpoint_NNNNNNNNN.bin, counted in output.checkpoint_keep), from which
 * --restart continues in the same bits as the run that wrote it. */
RBL_API int rbl_run_write_frame(rbl_run *run, rbl_error *err);
/* A thermo row now, thermo.csv rewritten with it (the health check's energy balance is
 * checked there too, as at every row). */
RBL_API int rbl_run_write_thermo(rbl_run *run, rbl_error *err);
RBL_API int rbl_run_write_checkpoint(rbl_run *run, rbl_error *err);
/* output.final, if the scene asks for it, written from the grains as they are now. */
RBL_API int rbl_run_finish(rbl_run *run, rbl_error *err);
/* The report of `rubble run` as of now (steps, seconds: those of this object's rbl_run_step
 * calls); over several processes collective (it sums over them). */
RBL_API void rbl_run_summary(rbl_run *run, rbl_run_report *report);
/* A function the run calls at once and then at every multiple of `every` steps (after that
 * step's other events), between steps: to read the grains and set what a script sets (the
 * external forces of a drag law, rbl_sim_external_forces, held until its next call). An error
 * it returns stops the run as a failed step does. NULL fn removes it, and the external forces
 * with it (zero from the next step: what the hook set stops acting; a hook replaced by another
 * keeps them until the new one sets its own). A restart at any step continues in the same
 * bits when the hook is set again with the same `every` before its first step: a checkpoint
 * (format 15) holds the hook's schedule and the external forces it asked for, and the hook so
 * set resumes: those forces act again, and it is called first where the run that went on
 * would have called it (at once only where the checkpoint was written at its step before its
 * call). Another `every`, a hook set after the restart has stepped, or one on a run whose
 * checkpoint had none is called at once; a restart without the hook has no external forces
 * from its first kick. The C library never calls the caller's code but through fn. */
typedef int (*rbl_run_hook)(rbl_run *run, void *userdata, rbl_error *err);
RBL_API int rbl_run_set_hook(rbl_run *run, uint64_t every, rbl_run_hook fn, void *userdata,
                             rbl_error *err);
/* The simulation inside: the grains' engine (NULL for an impulse scene), stepped by the run.
 * Its grains may be read and changed between steps (docs/python.md says what a change asks). */
RBL_API rbl_sim *rbl_run_sim(rbl_run *run);
/* Collision statistics (output.collisions) of materials a and b (wall: b a wall's material):
 * the events since collisions.csv's last row, bins -1 .. bins (rbl_sim_collision_bin's) into
 * out[0 .. n - 1], n = bins + 2, summed over the processes (collective: every process asks
 * alike and gets the run's whole tally; rbl_sim_collision_bin reads this process's share). */
RBL_API int rbl_run_collision_bins(rbl_run *run, int a, int b, int wall, rbl_collision_bin *out,
                                   int n, rbl_error *err);
/* The impulse engine's objects of an impulse scene (NULL for grains): rbl_fdo_sim_count,
 * rbl_fdo_sim_get and rbl_fdo_sim_semi_axes read them between steps. */
RBL_API struct rbl_fdo_sim *rbl_run_objects(rbl_run *run);
/* How many processes the run is spread over (1 without mpirun), and this one's rank. */
RBL_API int rbl_run_processes(const rbl_run *run, int *rank);
/* The run's warnings (its scene's and its set-up's), valid while the run is open. */
RBL_API size_t rbl_run_warnings(const rbl_run *run, const char *const **text);
RBL_API void rbl_run_close(rbl_run *run);


/* ---------------------------------------------------------------- shapes and clumps (KL) -- */

/* A signed distance field (KL1): samples on a Cartesian grid of cubic voxels, x fastest.
 * Sample (i, j, k) sits at origin + h * (i, j, k); its value is the distance to the surface,
 * positive inside the body, negative outside. */
typedef struct rbl_sdf {
    size_t n[3];      /* samples per axis */
    double h;         /* voxel edge */
    double origin[3]; /* position of sample (0, 0, 0) */
    float *value;     /* n[0] * n[1] * n[2] */
} rbl_sdf;

/* Allocate a field; RBL_ETOOBIG when it would need more than memory_limit bytes (0: none). */
RBL_API int rbl_sdf_alloc(rbl_sdf *sdf, const size_t n[3], double h, const double origin[3],
                          size_t memory_limit, rbl_error *err);
RBL_API void rbl_sdf_free(rbl_sdf *sdf);
/* Trilinear interpolation; outside the grid the nearest boundary sample. */
RBL_API double rbl_sdf_sample(const rbl_sdf *sdf, const double p[3]);

/* Built-in solids for tests and demos, centred at the origin. Sizes (metres):
 *   box: edge lengths a, b, c          sphere: radius r
 *   ellipsoid: semi-axes a, b, c       octahedron: |x| + |y| + |z| <= s
 *   cylinder: radius r, height h along z */
typedef enum rbl_shape_kind {
    RBL_SHAPE_BOX,
    RBL_SHAPE_SPHERE,
    RBL_SHAPE_ELLIPSOID,
    RBL_SHAPE_OCTAHEDRON,
    RBL_SHAPE_CYLINDER
} rbl_shape_kind;

typedef struct rbl_shape {
    rbl_shape_kind kind;
    double size[3];
} rbl_shape;

/* "box:4,4,4", "sphere:1", "ellipsoid:2,1,0.5", "octahedron:1", "cylinder:0.5,2". */
RBL_API int rbl_shape_parse(const char *text, rbl_shape *shape, rbl_error *err);
/* Exact signed distance to the surface, positive inside. */
RBL_API double rbl_shape_distance(const rbl_shape *shape, const double p[3]);
RBL_API void rbl_shape_bounds(const rbl_shape *shape, double lo[3], double hi[3]);

/* Mass properties of a solid of uniform density. inertia is about the centre of mass, in the
 * input frame; principal moments ascend, axes[k] is the unit axis of moment k (a right-handed
 * frame). */
typedef struct rbl_mass_properties {
    double volume, mass, density;
    double centre[3];
    double inertia[3][3];
    double principal[3];
    double axes[3][3];
} rbl_mass_properties;

/* Closed forms of the built-in solids. */
RBL_API void rbl_shape_mass_properties(const rbl_shape *shape, double density,
                                       rbl_mass_properties *out);
/* Principal moments and axes of props->inertia (Jacobi rotations). */
RBL_API void rbl_mass_properties_principal(rbl_mass_properties *props);

/* Sample a solid on a grid of edge h covering it with pad voxels to spare on every side. */
RBL_API int rbl_sdf_from_shape(rbl_sdf *sdf, const rbl_shape *shape, double h, int pad,
                               size_t memory_limit, rbl_error *err);

/* A binary voxel image (nonzero = inside) turned into a signed distance field by an exact
 * Euclidean distance transform. The surface is taken halfway between an inside and an outside
 * voxel centre: inside, value = distance to the nearest outside centre - h/2; outside,
 * -(distance to the nearest inside centre - h/2). */
RBL_API int rbl_sdf_from_voxels(rbl_sdf *sdf, const uint8_t *inside, const size_t n[3], double h,
                                const double origin[3], size_t memory_limit, rbl_error *err);

/* A closed, consistently oriented triangle mesh. */
typedef struct rbl_mesh {
    size_t n_vertices, n_triangles;
    double *vertex;     /* 3 per vertex */
    uint32_t *triangle; /* 3 vertex indices per triangle, counter-clockwise seen from outside */
} rbl_mesh;

/* Read an STL file (ASCII or binary), weld equal vertices, and check that the surface is
 * closed (every edge shared by exactly two triangles) and consistently oriented; an inward
 * oriented mesh is turned outward. Errors name the file and the offending edge or facet. */
RBL_API int rbl_stl_read(const char *path, rbl_mesh *mesh, rbl_error *err);
RBL_API void rbl_mesh_free(rbl_mesh *mesh);
/* Enclosed volume (divergence theorem; exact for the polyhedron). */
RBL_API double rbl_mesh_volume(const rbl_mesh *mesh);
/* Exact signed distance to the mesh at every sample: distance to the nearest triangle
 * (bounding volume hierarchy), sign by the crossing number along x with a watertight
 * tie rule, so that rays through edges and vertices count once. */
RBL_API int rbl_sdf_from_mesh(rbl_sdf *sdf, const rbl_mesh *mesh, double h, int pad,
                              size_t memory_limit, rbl_error *err);

/* Volume files (docs/clumps.md): a text header, then the values, ASCII or raw little-endian.
 *   rubble-sdf 1 | rubble-voxels 1
 *   dims NX NY NZ
 *   spacing H
 *   origin X Y Z
 *   data ascii | float32 | uint8
 * rbl_volume_read returns a signed distance field for either kind (voxels through the
 * distance transform). */
RBL_API int rbl_volume_read(const char *path, rbl_sdf *sdf, size_t memory_limit, rbl_error *err);
RBL_API int rbl_sdf_write(const char *path, const rbl_sdf *sdf, rbl_error *err);

/* A clump: spheres (x, y, z, r). */
typedef struct rbl_clump {
    size_t n;
    double *sphere; /* 4 per sphere */
} rbl_clump;

RBL_API void rbl_clump_free(rbl_clump *clump);

typedef struct rbl_clump_options {
    double ratio;    /* the seed's R: no new centre closer than R * r_phi to a sphere's centre */
    size_t max_spheres; /* P_max; 0 = no limit */
} rbl_clump_options;

/* Algorithm 1 of seed 001 (KL2): inside samples by decreasing distance, each a sphere of that
 * radius unless it lies inside an existing sphere or closer than R r_phi to a centre. Ties in
 * distance keep the grid order (x fastest). */
RBL_API int rbl_clump_build(const rbl_sdf *sdf, const rbl_clump_options *options,
                            rbl_clump *clump, rbl_error *err);

/* Algorithm 2 (KL3): volume, mass, centre and inertia of the union of the spheres by counting
 * the centres of a grid of cells of edge step that fall inside (midpoint rule). */
RBL_API int rbl_clump_mass_properties(const rbl_clump *clump, double step, double density,
                                      rbl_mass_properties *out, rbl_error *err);
/* Volume of {sdf > 0} by the same counting on the trilinear interpolant. */
RBL_API double rbl_sdf_volume(const rbl_sdf *sdf, double step);

/* A quad mesh of the iso-surface sdf = alpha (surface nets on a grid of edge step, values
 * interpolated from the field). */
typedef struct rbl_quad_mesh {
    size_t n_vertices, n_quads;
    double *vertex;  /* 3 per vertex */
    uint32_t *quad;  /* 4 per quad */
} rbl_quad_mesh;

RBL_API int rbl_isosurface_build(const rbl_sdf *sdf, double alpha, double step,
                                 rbl_quad_mesh *mesh, rbl_error *err);
RBL_API void rbl_quad_mesh_free(rbl_quad_mesh *mesh);
/* Algorithm 3 (KL4): Q_r, the share of points (3 per point) not inside any sphere. */
RBL_API int rbl_clump_outside_share(const rbl_clump *clump, const double *points, size_t n,
                                    double *share, rbl_error *err);

/* The spheres in the body frame: centre of mass at the origin, axes along the principal axes
 * (x_body = axes . (x - centre)). out is allocated; free it with rbl_clump_free. */
RBL_API int rbl_clump_to_body_frame(const rbl_clump *clump, const rbl_mass_properties *props,
                                    rbl_clump *out, rbl_error *err);

/* Clump files (docs/clumps.md): mass properties, then the spheres in the body frame (centre of
 * mass at the origin, axes along the principal axes). rbl_clump_write moves the spheres there. */
RBL_API int rbl_clump_write(const char *path, const rbl_clump *clump,
                            const rbl_mass_properties *props, rbl_error *err);
RBL_API int rbl_clump_read(const char *path, rbl_clump *clump, rbl_mass_properties *props,
                           rbl_error *err);
/* ParaView: the spheres as points with a radius array; a quad mesh as polygons. */
RBL_API int rbl_clump_vtp_write(const char *path, const rbl_clump *clump, rbl_error *err);
RBL_API int rbl_quad_mesh_vtp_write(const char *path, const rbl_quad_mesh *mesh,
                                    rbl_error *err);


/* Clumps as rigid bodies in a simulation (KL6). The clump's spheres become grains that move
 * with the body; members of one clump never collide with each other; their contact forces
 * and torques are summed at the centre of mass; the body moves by the velocity Verlet of the
 * engine for translation and a symplectic splitting of the free rotation (exact rotations
 * about the principal axes) for orientation. */
typedef struct rbl_clump_body {
    const rbl_clump *clump;            /* spheres in the body frame (rbl_clump_read) */
    const rbl_mass_properties *props;  /* volume and principal moments of that frame */
    int material;                      /* density: mass = density * props->volume */
    double pos[3];                     /* centre of mass */
    double quat[4];                    /* orientation body -> space, (w, x, y, z); normalised */
    double vel[3], omega[3];           /* omega in the space frame, rad/s */
} rbl_clump_body;

RBL_API int rbl_sim_add_clump(rbl_sim *sim, const rbl_clump_body *body, uint32_t *index,
                              rbl_error *err);

typedef struct rbl_bodies_view {
    size_t n;
    const double *pos, *vel, *angmom; /* 3 per body; angular momentum in the space frame */
    const double *quat;               /* 4 per body */
    const double *moment;             /* 3 per body: principal moments */
    const double *mass;
} rbl_bodies_view;

RBL_API void rbl_sim_bodies(const rbl_sim *sim, rbl_bodies_view *view);

/* The whole of `rubble clump`: a body from a built-in shape, a volume file or an STL, its
 * field, the clump (Algorithm 1), its mass properties (Algorithm 2), the iso-surface and Q_r
 * (Algorithm 3), and the files. */
typedef enum rbl_clump_source {
    RBL_CLUMP_FROM_SHAPE,
    RBL_CLUMP_FROM_VOLUME, /* rubble-sdf or rubble-voxels file */
    RBL_CLUMP_FROM_STL
} rbl_clump_source;

typedef struct rbl_clump_job {
    rbl_clump_source source;
    rbl_shape shape;         /* FROM_SHAPE */
    const char *path;        /* FROM_VOLUME, FROM_STL */
    double voxel;            /* h for shapes and meshes; 0: the longest extent / 100 */
    int pad;                 /* empty voxels around shapes and meshes */
    rbl_clump_options build;
    double k;                /* sampling step k h of Algorithms 2 and 3 (seed: 0.5) */
    double alpha;            /* iso-level of Algorithm 3, in voxels (alpha h metres) */
    double density;          /* kg/m^3 */
    const char *output_dir;  /* clump.txt, spheres.vtp, surface.vtp; NULL: no files */
    const char *sdf_out;     /* also write the field here, or NULL */
    size_t memory_limit;     /* bytes for the field; 0: none */
} rbl_clump_job;

typedef struct rbl_clump_report {
    size_t grid[3];
    double h, alpha_length;
    size_t spheres;
    double volume_clump, volume_body; /* V_P, V_T (closed form / mesh / field count) */
    double q_v, q_r;                   /* V_P / V_T; share of surface vertices outside */
    size_t surface_vertices, surface_quads;
    double min_radius, max_radius;
    rbl_mass_properties clump;         /* of the spheres, Algorithm 2 */
    double seconds_field, seconds_build, seconds_mass, seconds_surface;
} rbl_clump_report;

RBL_API int rbl_clump_job_run(const rbl_clump_job *job, rbl_clump_report *report,
                              rbl_error *err);

/* ---------------------------------------------------------------- functionally defined objects (FO) */
/* Seed 003 (Vyatkin & Dolgovesov): an object F'(x) = F(x) + sum_i R_i(x), inside where F' >= 0,
 * with F = 1 - (x/a)^2 - (y/b)^2 - (z/c)^2 the base ellipsoid in its own frame and each
 * perturbation R_i = amplitude_i Q_i^3 where the quadric Q_i >= 0, else 0 (eqs. 1-2). The seed
 * writes amplitude 1; its reference [13] scales each by a form factor, negative for a dent. */
#define RBL_FDO_MAX_PERTURBATIONS 8

typedef struct rbl_fdo_perturbation {
    /* Q(x) = q0 x^2 + q1 y^2 + q2 z^2 + 2 (q3 xy + q4 xz + q5 yz + q6 x + q7 y + q8 z) + q9,
     * in the base ellipsoid's frame, metres */
    double q[10];
    double amplitude;
} rbl_fdo_perturbation;

typedef struct rbl_fdo_shape {
    double semi[3]; /* semi-axes of the base ellipsoid, m */
    size_t n_perturbations;
    rbl_fdo_perturbation perturbation[RBL_FDO_MAX_PERTURBATIONS];
} rbl_fdo_shape;

/* The perturbation Q = 1 - sum_k ((x_k - centre_k) / semi_k)^2: a bump (amplitude > 0) or a
 * dent (< 0) of height |amplitude| at centre, spread over the ellipsoid centre, semi. */
RBL_API void rbl_fdo_bump(const double centre[3], const double semi[3], double amplitude,
                          rbl_fdo_perturbation *out);
/* Semi-axes positive and finite; every perturbation bounded (its quadratic part negative
 * definite: otherwise F' grows without end), positive somewhere, with a finite non-zero
 * amplitude, its positive region no thinner than the longest semi-axis / RBL_FDO_FLATNESS_MAX
 * (as the ellipsoid's flatness); the bumps' positive regions within RBL_FDO_MAX_REACH times
 * the longest semi-axis of the centre (rbl_fdo_bounding_radius). The message names the part
 * at fault. */
#define RBL_FDO_MAX_REACH 1000.0
/* What scenes and checkpoints accept of an object: semi-axes from a nanometre to a kilometre,
 * no flatter than 1:1000 (the narrow phase is exact to 1e-13 of the smallest semi-axis, tested
 * to 1:5), speeds to 1e6 m/s and spins to 1e7 rad/s (as of grains and walls). */
#define RBL_FDO_SEMI_MIN 1e-9
#define RBL_FDO_SEMI_MAX 1e3
#define RBL_FDO_FLATNESS_MAX 1e3
#define RBL_FDO_SPEED_MAX 1e6
#define RBL_FDO_SPIN_MAX 1e7
RBL_API int rbl_fdo_shape_check(const rbl_fdo_shape *shape, rbl_error *err);
/* F'(x) at a point of the base frame: positive inside, 0 on the surface. */
RBL_API double rbl_fdo_field(const rbl_fdo_shape *shape, const double x[3]);
/* Mass properties in the base frame: closed form for an ellipsoid (no perturbation); otherwise
 * Algorithm 2 of seed 001 on a grid of the given step (0: the shortest semi-axis / 40), the
 * clumps' sampler. RBL_EINVAL if no sample is inside (an empty object). */
RBL_API int rbl_fdo_mass_properties(const rbl_fdo_shape *shape, double density, double step,
                                    rbl_mass_properties *out, rbl_error *err);
/* Radius about `from` (base frame) of a sphere holding the whole object. */
RBL_API double rbl_fdo_bounding_radius(const rbl_fdo_shape *shape, const double from[3]);
/* The surface F' = 0 as a quad mesh in the shape's frame (surface nets on F' sampled with the
 * given step; 0: half the smallest feature, the shortest semi-axis or bump). */
RBL_API int rbl_fdo_surface(const rbl_fdo_shape *shape, double step, rbl_quad_mesh *mesh,
                            rbl_error *err);

/* An ellipsoid placed in space: centre, orientation (unit quaternion w, x, y, z, body -> space)
 * and semi-axes along its body axes. */
typedef struct rbl_ellipsoid {
    double centre[3];
    double quat[4];
    double semi[3];
} rbl_ellipsoid;

/* Exact separation test of Wang, Wang and Kim (CAGD 18, 2001), the seed's characteristic
 * polynomial: with X^T A X < 0 inside, f(lambda) = det(lambda A + B) has two distinct positive
 * roots iff the ellipsoids are separated, a positive double root iff they touch. `tolerance`
 * (relative, >= 0) widens "touching": separated means separated even when both are grown by
 * the factor 1 + tolerance, overlapping means overlapping when both are shrunk by 1 - tolerance. */
enum { RBL_ELLIPSOIDS_OVERLAP = -1, RBL_ELLIPSOIDS_TOUCH = 0, RBL_ELLIPSOIDS_SEPARATE = 1 };
RBL_API int rbl_ellipsoids_classify(const rbl_ellipsoid *a, const rbl_ellipsoid *b,
                                    double tolerance);

/* Contact geometry of a pair. normal is the unit normal from a towards b; depth > 0 is an
 * overlap, < 0 a gap, measured along the normal line through the point where the two
 * ellipsoids, scaled about their centres by the same factor `scale`, touch (Perram and
 * Wertheim, J. Comput. Phys. 58, 409, 1985: scale = sqrt of their contact function); point is
 * the middle of that overlap or gap. lambda is the maximiser of the contact function, the warm
 * start of the next call. fallback is nonzero when the exact construction could not be used
 * (coincident centres; a normal line that misses an ellipsoid of a far pair, then depth is a
 * lower bound of the gap from the scale). */
typedef struct rbl_fdo_contact {
    double point[3];
    double normal[3];
    double depth;
    double scale;
    double lambda;
    int iterations;
    int fallback;
} rbl_fdo_contact;

/* lambda_start in (0, 1) warm-starts the solve; anything else starts from the middle. */
RBL_API void rbl_ellipsoid_contact(const rbl_ellipsoid *a, const rbl_ellipsoid *b,
                                   double lambda_start, rbl_fdo_contact *out);
/* Ellipsoid against the plane n . x = offset (n unit, the free side n . x > offset), in closed
 * form: normal = n (from the plane into the ellipsoid), point on the plane below the deepest
 * point, depth > 0 when the ellipsoid crosses the plane. */
RBL_API void rbl_ellipsoid_plane_contact(const rbl_ellipsoid *a, const double n[3], double offset,
                                         rbl_fdo_contact *out);
/* Ellipsoid against a tube: the open cylinder of the given radius about the segment from
 * `from` along the unit `axis` for `length`, a thin wall with two faces (seed 003's inclined
 * tube). An ellipsoid whose centre is nearer the axis than the radius is inside: its point
 * farthest from the axis gives the contact; otherwise its nearest. normal: radial, into the
 * ellipsoid's side; depth > 0 across the wall, exact (the normal is common); point midway.
 * Returns 0, and no contact, when that point lies beyond the tube's ends (its rims are not
 * modelled). scale is not given (0). fallback: an outside ellipsoid across the axis. */
RBL_API int rbl_ellipsoid_cylinder_contact(const rbl_ellipsoid *a, const double from[3],
                                           const double axis[3], double length, double radius,
                                           rbl_fdo_contact *out);

/* A functionally defined object placed in space: its shape's own frame (the base ellipsoid's
 * centre and axes) at centre, turned by quat (w, x, y, z, body -> space). */
typedef struct rbl_fdo_object {
    const rbl_fdo_shape *shape;
    double centre[3];
    double quat[4];
} rbl_fdo_object;

/* The object's point farthest along the unit direction dir (space frame), its support point:
 * closed form for an ellipsoid; for a perturbed object the farthest of the local maxima of
 * dir . x on F' = 0 (ascents on the surface, Newton on the Lagrange conditions) started from
 * the base ellipsoid's support point, from each bump and around each dent that could reach
 * farther. Where the object is not convex this is the support point of its convex hull.
 * Returns 0 when no start converged (x is then the best point found). */
RBL_API int rbl_fdo_support(const rbl_fdo_object *a, const double dir[3], double x[3]);
/* Contacts of placed objects, as the ellipsoid functions above (which they call when no
 * perturbation is present). With a perturbed object the base ellipsoids' contact is refined:
 * the normal n minimises n . (s_a(n) - s_b(-n)), s the support points (for convex bodies the
 * signed depth: the overlap, or minus the gap), descending from the base contact's normal;
 * point midway between the two support points. iterations: the descent's steps; fallback:
 * a support point or the descent did not converge. The convex hulls of non-convex objects
 * are what touch. */
RBL_API void rbl_fdo_object_contact(const rbl_fdo_object *a, const rbl_fdo_object *b,
                                    rbl_fdo_contact *out);
RBL_API void rbl_fdo_object_plane_contact(const rbl_fdo_object *a, const double n[3],
                                          double offset, rbl_fdo_contact *out);
RBL_API int rbl_fdo_object_cylinder_contact(const rbl_fdo_object *a, const double from[3],
                                            const double axis[3], double length, double radius,
                                            rbl_fdo_contact *out);

/* ---- impulse-based contact dynamics of functionally defined objects (SPEC FO3) ----
 * Seed 003 after Kaufman, Edmunds and Pai (SIGGRAPH 2005) and the energy-tracking impulse
 * method (seed ref. [16]): each object is a system of its own; every contact gives it an affine
 * velocity-level constraint whose offset is the partner's motion; the passes over the objects
 * are repeated (Jacobi, masses split over contacts) until each contact's one impulse agrees, so
 * momentum is kept and results do not depend on order or threads. Bounces leave at e times the
 * approach (seed eq. 8's mean at maximal compression for one contact), held per cluster to the
 * energy they may return; friction impulses lie in a polygon of the tangent plane sampled in
 * `tangent_samples` directions, sliding and rolling, the one of least kinetic energy (maximal
 * dissipation). docs/fdo.md says what was chosen where the seed is vague. */
/* The impulse engine's solvers: projected Gauss-Seidel over coloured contacts (converges in
 * fewer passes), or the seed's own: each object a system of its own, Jacobi passes with the
 * masses split over contacts. Both give the same bits on any thread count. */
enum { RBL_FDO_GAUSS_SEIDEL = 0, RBL_FDO_JACOBI = 1 };

typedef struct rbl_fdo_params {
    double dt;             /* step, s (> 0) */
    double gravity[3];     /* m/s^2 */
    double restitution;    /* normal restitution e in [0, 1] */
    double friction;       /* sliding friction coefficient mu >= 0 */
    double rolling;        /* rolling friction length, m >= 0: rolling torque <= rolling * normal */
    int tangent_samples;   /* directions sampled in the tangent plane, >= 3 (0: 8) */
    int iterations;        /* solver passes at most per phase and step (0: 50) */
    int solver;            /* RBL_FDO_GAUSS_SEIDEL (0, the default) or RBL_FDO_JACOBI */
    double tolerance;      /* m/s: the passes stop when no contact's relative velocity changes
                              by more (0: 1e-4 g dt + 1e-9 of the fastest speed) */
    double correction;     /* share of an overlap beyond `slop` removed per step (0: 0.2) */
    double slop;           /* overlap left alone, m (0: 1e-4 of the smallest semi-axis) */
    double margin;         /* gap within which contacts are kept, m (0: from speeds each step) */
    int threads;           /* 0: OpenMP's default */
    double patch_radius;   /* m, drilling friction: the moment about a contact's normal is at
                              most (3 pi / 16) friction patch_radius times its normal force (a
                              Hertzian patch sliding in twist); 0: RBL_FDO_PATCH of the pair's
                              shortest semi-axis (docs/fdo.md) */
} rbl_fdo_params;
/* The default patch radius, as a share of the shortest semi-axis of a contact's objects. */
#define RBL_FDO_PATCH 1e-2

typedef struct rbl_fdo_sim rbl_fdo_sim;

typedef struct rbl_fdo_stats {
    size_t objects, candidate_pairs, contacts;
    size_t active;      /* contacts that acted (not dropped as open) */
    size_t fallbacks;   /* contact constructions that fell back (rbl_fdo_contact.fallback) */
    size_t passes;      /* Jacobi passes of the last step's velocity solve (both phases) */
    size_t unconverged; /* 1 when that solve ran out of `iterations` before converging */
    double residual;    /* m/s: the largest change one more pass would make to a contact's
                           relative velocity (0 when solved; the natural residual of the
                           normal, friction and rolling conditions), after either phase */
    double violation;   /* m/s: the fastest a contact still closes beyond its target */
    double tolerance;   /* m/s: the residual the passes stop at */
    double largest_overlap; /* m: the deepest of the step's contacts (as the step found it) */
    size_t capped;      /* clusters whose bounce was held to the energy it may return */
    size_t taken_in;    /* sides of open contacts the contacts' answer closed, taken in */
    double seconds[4]; /* the seed's four phases: precomputation, contact detection, contact
                          resolution, final computation (this step, wall time) */
} rbl_fdo_stats;

/* Checks every parameter (messages name it and its value). */
RBL_API int rbl_fdo_params_check(const rbl_fdo_params *params, rbl_error *err);
RBL_API int rbl_fdo_sim_create(const rbl_fdo_params *params, rbl_fdo_sim **out, rbl_error *err);
RBL_API void rbl_fdo_sim_free(rbl_fdo_sim *sim);
/* A fixed plane n . x = offset, objects on the side n . x > offset (n is normalised). */
RBL_API int rbl_fdo_sim_add_plane(rbl_fdo_sim *sim, const double n[3], double offset,
                                  rbl_error *err);
/* A tube wall: the open cylinder of this radius about the segment from -> to, two-faced (an
 * object inside stays inside, one outside stays out; the rims are not modelled). */
RBL_API int rbl_fdo_sim_add_tube(rbl_fdo_sim *sim, const double from[3], const double to[3],
                                 double radius, rbl_error *err);
/* An object of this shape (ellipsoids only for now) and density, its centre at pos, its axes
 * turned by quat (w, x, y, z), moving at vel with spin omega (rad/s, space frame). */
RBL_API int rbl_fdo_sim_add(rbl_fdo_sim *sim, const rbl_fdo_shape *shape, double density,
                            const double pos[3], const double quat[4], const double vel[3],
                            const double omega[3], rbl_error *err);
RBL_API int rbl_fdo_sim_step(rbl_fdo_sim *sim, size_t steps, rbl_error *err);
RBL_API size_t rbl_fdo_sim_count(const rbl_fdo_sim *sim);
/* Any argument may be NULL. */
RBL_API void rbl_fdo_sim_get(const rbl_fdo_sim *sim, size_t k, double pos[3], double quat[4],
                             double vel[3], double omega[3]);
/* Kinetic energy (translation + rotation) and potential energy in the uniform field, J. */
RBL_API void rbl_fdo_sim_energy(const rbl_fdo_sim *sim, double *kinetic, double *potential);
/* Total linear momentum (kg m/s) and angular momentum about the origin (kg m^2/s: orbital plus
 * spin); either may be NULL. */
RBL_API void rbl_fdo_sim_momentum(const rbl_fdo_sim *sim, double linear[3], double angular[3]);
RBL_API void rbl_fdo_sim_stats(const rbl_fdo_sim *sim, rbl_fdo_stats *stats);
/* The contacts that acted in the last step, each once, as the grains' contact list: the
 * first object's (or the wall's object's) index, the other's (walls: the plane's index, then
 * the tubes'), the point and normal (into the first object) where the step found them, the
 * mean normal and friction forces on the first object over the step (impulses / dt, N), the
 * overlap (m; < 0 a gap the step closed), the centres at the step's end. Free it with
 * rbl_contact_list_free. */
RBL_API int rbl_fdo_sim_contacts(const rbl_fdo_sim *sim, rbl_contact_list *list, rbl_error *err);
/* The semi-axes of object k's base ellipsoid, m. */
RBL_API void rbl_fdo_sim_semi_axes(const rbl_fdo_sim *sim, size_t k, double semi[3]);
/* Object k's shape (valid while the simulation lives and gains no objects). */
RBL_API const rbl_fdo_shape *rbl_fdo_sim_shape(const rbl_fdo_sim *sim, size_t k);
/* The threads the engine's phases use; changing them changes no result. */
RBL_API int rbl_fdo_sim_threads(const rbl_fdo_sim *sim);
RBL_API int rbl_fdo_sim_set_threads(rbl_fdo_sim *sim, int threads, rbl_error *err);
/* The state a restart needs, as bytes (malloc'd, the caller frees): every object's shape,
 * mass, moments, pose and motion, and the impulses kept for the next step's warm start. Loaded
 * into a simulation made with the same parameters and walls and no objects, it continues bit
 * for bit. Loading checks every count against the bytes before allocating and every value. */
RBL_API int rbl_fdo_sim_save_state(const rbl_fdo_sim *sim, void **out, size_t *len,
                                   rbl_error *err);
RBL_API int rbl_fdo_sim_load_state(rbl_fdo_sim *sim, const void *data, size_t len,
                                   rbl_error *err);

#ifdef __cplusplus
}
#endif
#endif /* RUBBLE_H */
