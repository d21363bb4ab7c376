/* dem_internal.h — the soft-sphere engine's state: grains as structure of arrays with stable
 * ids, the Verlet pair list with per-contact history and forces, wall contacts, and the
 * stages of one step (seed 002 §2.3-2.6). Internal to librubble. */
#ifndef RBL_DEM_INTERNAL_H
#define RBL_DEM_INTERNAL_H

#include "../gravity/gravity_internal.h"
#include "../grid/grid_internal.h"
#include "law_table.h"

#ifdef _OPENMP
#include <omp.h>
#endif

/* Grains in structure-of-arrays form, reordered by cell at a neighbour build every
 * cfg.sort_every steps; id[k] is the stable id of the grain stored at index k. Vectors hold 3 doubles per grain. */
typedef struct rbl_grains {
    size_t n, cap;
    size_t ghosts;            /* copies of other processes' grains, stored after the n of this
                                 one (src/parallel/): read by contacts, never moved here */
    uint32_t *id;
    int32_t *material;
    double *pos, *vel, *omega;
    double *force, *torque;   /* total, gravity included */
    double *pos_build;        /* position at the last neighbour build */
    double *vel_eval;         /* velocities the forces are evaluated with: the synchronized
                                 integrator's (with_eval), else NULL */
    double *omega_eval;
    double *radius, *mass, *inv_mass, *inv_inertia;
    double *loss;             /* energy dissipated since the start at the contacts where the
                                 grain is first (3: RBL_LOSS_DAMPING, _FRICTION, _ROLLING), J:
                                 summed per grain in pair order, so the same bits anywhere */
    double *loss_cohesion;    /* and by broken cohesive contacts (JKR's hysteresis), J */
    uint32_t *contacts;       /* touching contacts, counted in the gather */
    int32_t *body;            /* the clump (index into rbl_bodies) a grain belongs to, or -1 */
    uint32_t *slot;           /* a clump member's slot in rbl_bodies' member arrays */
    double *gacc;             /* self-gravity: acceleration at the last evaluation (3) */
    double *gphi;             /* self-gravity: potential per unit mass there, J/kg; both NULL
                                 without self-gravity (with_gravity 0) */
    int with_eval, with_gravity; /* which optional arrays the simulation keeps (set before the
                                    first reserve): 80 bytes a grain that most runs never use */
    double *fext;             /* external force (rbl_sim_external_forces, 3), held between
                                 the caller's settings; NULL until asked for (with_fext) */
    double *fext_applied;     /* the fext that force holds (the caller may have changed fext
                                 since: rbl_external_refresh sets them equal as a call begins) */
    int with_fext;
    int hold;                 /* rbl_sim_hold_arrays: growth keeps the old arrays in retired */
    void **retired;
    size_t n_retired, cap_retired;
} rbl_grains;

/* Clumps as rigid bodies (seed 001, SPEC KL6): centre of mass, velocity, orientation
 * (quaternion body -> space, scalar first), angular momentum in the space frame, principal
 * moments. The member spheres are grains (body >= 0) whose positions and velocities follow
 * the body; their forces and torques are summed at the centre of mass. Members are listed per
 * body (CSR) by slot: grain id, the grain's current index, and the offset in the body frame. */
typedef struct rbl_bodies {
    size_t n, cap;
    double *pos, *vel, *angmom; /* 3 per body */
    double *quat;               /* 4 per body */
    double *moment;             /* 3 per body, principal, body frame */
    double *mass;
    double *force, *torque;     /* 3 per body: summed at the centre of mass */
    int32_t *material;
    size_t *start;              /* n + 1: slots of body b are start[b] .. start[b+1] */
    size_t members, members_cap;
    uint32_t *member_id;        /* per slot */
    uint32_t *member_index;     /* per slot: index in rbl_grains, refreshed after reorders */
    double *offset;             /* 3 per slot, body frame */
    double *arm;                /* 3 per slot: R(q) offset, the member's lever in space, as
                                   placed at the last drift (derived state) */
} rbl_bodies;

/* What a contact reads of a grain, packed into one cache line and refreshed before each force
 * pass for the grains that some listed pair reads: a neighbour then costs one line instead of
 * one per array (position, radius, velocity, mass). The spin is read from its array
 * (sim->packed_omega), only for the pairs that touch. The arrays of rbl_grains stay the
 * storage. (With the spin in a second line of the record, 128 bytes: the integrator's sweep
 * wrote twice the bytes, and the pair pass read two lines per neighbour.) */
typedef struct rbl_packed_grain {
    double pos[3], radius;
    double vel[3], mass;
} rbl_packed_grain;

/* Contact history, a slice per sub-model: the tangential model's 3 doubles (the spring
 * vector; the seed's D_H in [0]), and where the spring's stiffness follows the overlap
 * (Hertz, Mindlin, JKR) the k_t it had at the last step, 1 (the energy account: a spring that
 * stiffens while it holds its stretch stores energy no force put in); then with epsd2 rolling
 * its 4 (the spring's torque, in the tangent plane, and the stiffness k_r it had at the last
 * step: rbl_rolling_torque); then the dashpots' force on the first body at the last step, 3
 * (the energy account: their work over a step is the mean of its two ends', as the kicks
 * give it; account.c); then the twisting model's (law_table.h: marshall's 3, the twist, its
 * stiffness at the last step and its dashpot's torque; a model added to the table after the
 * older families takes its place here, so theirs stay where they were); then, with collision
 * statistics (law.collisions, collisions.c), the contact's event, RBL_HIST_COLLISION: a law
 * without them pays nothing for them. The widths are the table's (law_table.h). */
#define RBL_HIST_COLLISION 5
#define RBL_HIST_LAW_MAX (11 + RBL_HIST_FURTHER_MAX) /* the law's slices */
#define RBL_HIST_MAX (RBL_HIST_LAW_MAX + RBL_HIST_COLLISION + 1) /* and an event, an age */
static inline int rbl_hist_holds_kt(const rbl_contact_law *law)
{
    return law->tangent == RBL_TANGENT_SPRING &&
           (law->from_materials || law->normal == RBL_NORMAL_HERTZ);
}
static inline size_t rbl_hist_rolling(const rbl_contact_law *law)
{
    return 3 + (size_t)rbl_hist_holds_kt(law);
}
static inline size_t rbl_hist_dash(const rbl_contact_law *law)
{
    return rbl_hist_rolling(law) + rbl_rolling_hist(law->rolling);
}
/* The slices past the dashpots' (the twisting model's), and their width. */
static inline size_t rbl_hist_further(const rbl_contact_law *law)
{
    return rbl_hist_dash(law) + 3;
}
static inline size_t rbl_hist_further_width(const rbl_contact_law *law)
{
    return rbl_twisting_hist(law->twisting);
}
static inline size_t rbl_hist_collision(const rbl_contact_law *law)
{
    return rbl_hist_further(law) + rbl_hist_further_width(law);
}
/* law.collisions holds bits (ABI 1's int in the law's padding, set by the library alone):
 * the contacts keep their event for collision statistics (RBL_LAW_EVENTS) and their age
 * (RBL_LAW_AGES, issue 74: one double past the event's slice, the force evaluations it has
 * touched in, asked for by output.contacts' `age`; negative: touching before it was kept). */
#define RBL_LAW_EVENTS 1
#define RBL_LAW_AGES 2
static inline size_t rbl_hist_age(const rbl_contact_law *law)
{
    return rbl_hist_collision(law) + (law->collisions & RBL_LAW_EVENTS ? RBL_HIST_COLLISION : 0);
}
static inline size_t rbl_hist_width(const rbl_contact_law *law)
{
    return rbl_hist_age(law) + (law->collisions & RBL_LAW_AGES ? 1 : 0);
}
/* Per-contact results, written by the force pass for the gather: the force on the first
 * grain (the second gets its opposite) and the torque on the second; valid while touching. */
#define RBL_PAIR_OUT 6
#define RBL_WALL_OUT 6

/* Lees-Edwards images (shear.c, docs/shear.md): the box's images across the gradient axis
 * (z) are shifted along the flow axis by sz delta and move along it at sz speed (sz = -1, 0,
 * 1 the image's place along z). on == 0 (a zeroed simulation): no shear, every image still. */
typedef struct rbl_shear_image {
    int on;
    int flow;     /* 0 (x) or 1 (y) */
    double delta; /* the shift at the forces' time, in [-L/2, L/2) of the flow axis, m */
    double speed; /* rate times the gradient axis's length, m/s */
} rbl_shear_image;

/* A sheared periodic cell (shear.c): the rate, the images as the forces see them, and the
 * boundary's force that its work over a step starts from. */
typedef struct rbl_shear_cell {
    double rate;          /* 1/s (image.on: sheared) */
    rbl_shear_image image;
    double force_before;  /* sum of sz f_flow over the contacts across the gradient sides
                             at the last force evaluation (the boundary's work, shear.c) */
    /* the servo on the cell's height at imposed normal stress (shear_servo.c): servo set,
       the target sigma_zz (Pa) and the relaxation time (s); the strain rate of L_z it asks
       for the next step (1/s) and the shift as the integral of the images' speed (m, in
       [-L/2, L/2) of the flow axis; travel_kept: it holds the run's shift, summed on from
       then, a servo set or a servoed run's checkpoint read, even where the servo is then
       dropped) */
    int servo, travel_kept;
    double pressure, servo_time, strain_rate, travel;
} rbl_shear_cell;

/* Pairs closer than r_i + r_j + skin at the last build, grouped by first grain (in grain
 * order). j is seen from i through the periodic image `image` (code 13 = none). */
typedef struct rbl_pair_list {
    size_t n, cap;
    uint32_t *i, *j;
    uint8_t *image;
    uint8_t *touch;   /* touching at the last force evaluation */
    double *hist;     /* rbl_hist_width per pair, zero while not touching */
    size_t *i_start;  /* grains + 1: pairs whose first grain is g */
    /* The second grain's share, in slots grouped by second grain (CSR j_start), so the gather
     * reads them in order: pair q writes slot jpos[q]. */
    size_t *j_start;  /* grains + 1 */
    uint32_t *jpos;   /* per pair */
    uint8_t *touch_j; /* per slot: the pair touches */
    double *out;      /* RBL_PAIR_OUT per slot */
    size_t grains;    /* grains indexed by i_start and j_start */
    size_t grains_cap;
    size_t touching;  /* pairs touching at the last force evaluation */
    /* Per grain on several threads: 1 where a thread other than the one whose sweep writes the
     * grain's packed record reads it in the pair pass (set at each build; records_across of
     * them, 0 on one thread). The integrator writes those records past its cache: see there. */
    uint8_t *read_across;
    size_t records_across;
} rbl_pair_list;

/* Whether fewer than a third of the listed pairs touched at the last force pass (a loose
 * packing): then the gather reads the slots of the pairs that do not touch from a constant,
 * and the pair pass does not ask ahead for every pair's slot (only a touching pair writes it). */
static inline int rbl_few_touch(const rbl_pair_list *p) { return 3 * p->touching < p->n; }

/* Whether some listed pair reads grain k: only those grains need a packed record. */
static inline int rbl_grain_listed(const rbl_pair_list *p, size_t k)
{
    return k < p->grains &&
           (p->i_start[k + 1] > p->i_start[k] || p->j_start[k + 1] > p->j_start[k]);
}

/* Grain-wall pairs closer than r + skin, grouped by grain. A plane wall is one entry; a mesh
 * wall RBL_MESH_SLOTS entries in a row (the contacts a grain may have with it at once: a
 * crease, a corner), their `wall` codes RBL_MESH_CODE(mesh, slot), the mesh's facets within
 * r + skin of the grain in cand[cand_lo .. cand_hi) (the same range for the group). */
typedef struct rbl_wall_list {
    size_t n, cap;
    uint32_t *grain;
    uint32_t *wall;
    uint8_t *touch;
    double *hist;     /* rbl_wall_hist_width per contact */
    double *out;      /* RBL_WALL_OUT per contact: force, torque on the grain */
    size_t *cand_lo, *cand_hi;
    size_t *start;    /* grains + 1 */
    size_t grains_cap;
    uint32_t *cand;   /* facets */
    size_t n_cand, cand_cap, cand_max; /* cand_max: the largest group's */
    uint32_t *facet;  /* a touching mesh contact's facet (the one its point lies on) */
    double *worn;     /* a touching mesh contact's volume worn this step (wall_wear.c) */
} rbl_wall_list;

#define RBL_MESH_SLOTS 4
#define RBL_MESH_BIT 0x80000000u
#define RBL_MESH_CODE(mesh, slot) (RBL_MESH_BIT | (uint32_t)(mesh) << 2 | (uint32_t)(slot))
/* The coordinates (s, t) of the foot of w in the plane of u and v, w's part s u + t v there:
 * a point of the triangle with corner 0 and edges u, v when s, t >= 0 and s + t <= 1 (flow
 * counters' crossings of a mesh, an inflow face's slab). */
static inline void rbl_triangle_coordinates(const double u[3], const double v[3],
                                            const double w[3], double *s, double *t)
{
    const double uu = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
    const double uv = u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
    const double vv = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    const double wu = w[0] * u[0] + w[1] * u[1] + w[2] * u[2];
    const double wv = w[0] * v[0] + w[1] * v[1] + w[2] * v[2];
    const double det = uu * vv - uv * uv;
    *s = (vv * wu - uv * wv) / det, *t = (uu * wv - uv * wu) / det;
}

static inline int rbl_wall_is_mesh(uint32_t code) { return (code & RBL_MESH_BIT) != 0; }
static inline uint32_t rbl_wall_mesh(uint32_t code) { return (code & ~RBL_MESH_BIT) >> 2; }
static inline uint32_t rbl_wall_slot(uint32_t code) { return code & 3u; }
/* The wall's number as rbl_thermo counts them: planes (n_planes of them), then meshes. */
static inline size_t rbl_wall_number(uint32_t code, int n_planes)
{
    return rbl_wall_is_mesh(code) ? (size_t)n_planes + rbl_wall_mesh(code) : code;
}

/* A wall contact's history: the law's, then (mesh walls) the contact's normal and distance
 * from the surface at the last force evaluation, by which the next one is matched to it, and
 * the part of a crease's elastic energy its spring does not hold (rbl_mesh_touch.energy). */
#define RBL_WALL_HIST_MESH 5
static inline size_t rbl_wall_hist_width(const rbl_contact_law *law)
{
    return rbl_hist_width(law) + RBL_WALL_HIST_MESH;
}

/* A wall's motion from a table (wall_table.c, issue 73): the rows as given (the checkpoint's
 * and the restart check's), and made ready: relative to the first row, each orientation on the
 * side of the one before, each segment's velocity and angular velocity. */
typedef struct rbl_motion_table {
    size_t n;                /* rows, >= 2 */
    rbl_motion_row *rows;    /* as given */
    double pivot[3];
    double t0;               /* the run's time at the motion's start, s */
    int turns;               /* some row turns the wall */
    double *t, *d, *q;       /* n, 3 n, 4 n: times, displacements, orientations (unit) */
    double *slope, *spin;    /* 3 (n - 1) each: m/s, rad/s */
} rbl_motion_table;

/* How a wall moves (rbl_wall_motion, its axes made unit) and where it is now (wall_motion.c):
 * a point x0 of the wall as added is at rot (x0 - center) + center + shift, and the wall's
 * velocity at a point x is vel + spin × (x - center - shift). */
typedef struct rbl_wall_pose {
    rbl_wall_motion m;
    int moving, turning;
    double travel, speed;     /* a servo's, along m.servo_axis (checkpointed) */
    double rot[3][3], shift[3], vel[3], spin[3], angle;
    double build_shift[3], build_angle; /* at the last neighbour build */
    double reach;             /* turning: how far from the axis a point that matters lies */
    double shift0[3];         /* its displacement before its motion was last set between
                                 steppings (a stage): travel since t = 0 is shift0 + shift */
    double prev_rot[3][3], prev_shift[3]; /* rot and shift as the step being made began
                                 (rbl_walls_step): the work it does over the step (forces.c) */
    int off;                  /* taken away (wall_presence.c): no contacts, not drawn; it still
                                 moves with its motion (checkpointed) */
    int toggled;              /* its presence was changed in the run (walls.vtp each frame) */
    rbl_motion_table *table;  /* moved by a table (owned; NULL: by m): m.center its pivot, */
    double quat[4], build_quat[4]; /* rot's quaternion now and at the last build */
} rbl_wall_pose;

/* wall_table.c: a table checked and made ready to start at the run's time t0 (RBL_EINVAL
 * naming the row at fault, its index into *bad_row when not NULL: SIZE_MAX when none or the
 * table as a whole); freed with rbl_motion_table_free (NULL: nothing). */
int rbl_motion_table_make(const rbl_wall_table *in, double t0, rbl_motion_table **out,
                          size_t *bad_row, rbl_error *err);
void rbl_motion_table_free(rbl_motion_table *t);
/* The table's pose at the run's time t: displacement, orientation, and the velocity and
 * angular velocity the contacts see (dt > 0: their means over the step that ends at t, the
 * mid-step integrator's; 0: at t). */
void rbl_motion_table_at(const rbl_motion_table *t, double time, double dt, double shift[3],
                         double quat[4], double vel[3], double spin[3]);
/* Whether two tables are the same motion (rows, pivot and, with start, the run's time at
 * their start), bit for bit. */
int rbl_motion_table_same(const rbl_motion_table *a, const rbl_motion_table *b, int start);

/* A triangle mesh wall: the mesh (in the frame it was added in: a moving mesh is not moved,
 * the grains are taken into its frame), the hierarchy its facets are found through, a
 * material, its pose. */
struct rbl_prim_wall;
typedef struct rbl_mesh_wall {
    struct rbl_prim_wall *prim; /* a primitive wall (primitive.c; its mesh only drawn), or NULL */
    rbl_mesh mesh;
    rbl_triangle_bvh bvh;
    int material;
    rbl_wall_pose pose;
    double archard, finnie; /* wear coefficients, 1/Pa (0: none; wall_wear.c) */
    double *wear;           /* per facet: the depth worn, m (NULL: it does not wear) */
} rbl_mesh_wall;

/* A plane wall normalised: unit normal n, offset so that d = n . x + offset (now; n0 and
 * offset0 as added). */
typedef struct rbl_plane {
    double n[3];
    double offset;
    int material;
    double n0[3], offset0;
    rbl_wall_pose pose;
} rbl_plane;

/* Per material pair, the kernels' copy: Hertz-Mindlin constants of LIGGGHTS' "hertz" model
 * (from_materials: E*, G*), then each pair coefficient's slot (law_table.h's RBL_PAIR_COEFS:
 * friction mu, damping's beta from restitution, without materials normal damping gn, rolling
 * friction mu_r, cohesion: sjkr's k_c or jkr's w): the mixing rule's, or the pair's own. */
#define RBL_PAIR_COEF_FIELD(slot, ...) double slot;
typedef struct rbl_pair_coef {
    double y_star, g_star;
    RBL_PAIR_COEFS(RBL_PAIR_COEF_FIELD)
} rbl_pair_coef;
#undef RBL_PAIR_COEF_FIELD

/* History carried across a neighbour build, keyed by grain ids: entries grouped by the first
 * id, CSR over the slots of an open-addressing hash of that id (key[s], FREE_SLOT when empty);
 * the second id (or wall number) in `other`. Its size follows the contacts, not the ids. */
typedef struct rbl_history_map {
    size_t n;
    size_t mask;     /* slots - 1 */
    int shift;       /* 64 - log2(slots) */
    uint32_t *key;   /* slots */
    size_t *start;   /* slots + 1 */
    uint32_t *other;
    double *hist;    /* width per entry, oriented from the first id */
    size_t width;
} rbl_history_map;

/* The grains' mass, its first moments (m x) and, with_velocity, their momentum (m v): 4 or 7
 * exact sums, so a centre of mass is the same whatever the grains' order (and, summed over
 * the processes, their decomposition). With skip, grains whose position is not finite are
 * left out and marked there (measure.c). */
void rbl_mass_moments(const rbl_sim *sim, uint8_t *skip, int with_velocity, rbl_exact_sum *sum);

/* The other processes of a run over several (src/parallel/ sets them; NULL for one). Each is
 * collective: every process calls it at the same point of the same step. */
typedef struct rbl_sim_peers {
    void *ctx;
    /* The largest of each of the count values over all processes, in place. */
    void (*max)(void *ctx, double *values, int count);
    /* Each of the count exact sums summed over all processes, in place (one process's bits). */
    void (*sum_exact)(void *ctx, rbl_exact_sum *sums, int count);
    /* An error on any process an error on all, with the first failing process's message. */
    int (*agree)(void *ctx, int rc, rbl_error *err);
    /* At a neighbour build, after the grains that left the domain were removed: the grains
     * whose place is another process's go there with their contact histories (taken from and
     * added to the maps), and those of others come here. */
    int (*migrate)(rbl_sim *sim, void *ctx, rbl_history_map *pairs, rbl_history_map *walls,
                   rbl_error *err);
    /* Then, with sim->cutoff_max known: the ghosts, copies of the other processes' grains
     * that a pair with one of this one's may need (g.ghosts of them after g.n). */
    int (*ghosts)(rbl_sim *sim, void *ctx, rbl_error *err);
    /* Before each force evaluation: the ghosts' positions and the velocities the forces read
     * (and their packed records when sim->packed_fresh). */
    int (*refresh)(rbl_sim *sim, void *ctx, rbl_error *err);
    /* Self-gravity: the field (G-scaled, rbl_gravity_eval's) at this process's grains (in:
     * their ids, positions, masses, radii) from every process's, with one process's bits;
     * *interactions per grain. */
    int (*gravity)(void *ctx, const rbl_self_gravity *cfg, const rbl_gravity_input *in,
                   int threads, double *acc, double *phi, double *interactions, rbl_error *err);
    /* At a neighbour build, before the grains that leave are removed: each ghost's value from
     * its owner's own[] (the ghosts as the last build sent them). Collective. */
    int (*ghost_values)(void *ctx, const double *own, double *ghost, rbl_error *err);
    /* Every process's n doubles from mine, in rank order, into *all (grown as needed: *cap
     * doubles); *first: where this process's begin, *total: how many in all. Collective (the
     * walls' loads and wear, wall_wear.c). */
    int (*allgather)(void *ctx, const double *mine, size_t n, double **all, size_t *cap,
                     size_t *first, size_t *total, rbl_error *err);
} rbl_sim_peers;

/* The health check's state (health.c): its options with the defaults filled in, the peaks
 * over the run, the energy put in, and the energy balance. */
typedef struct rbl_health_state {
    rbl_health_options opt;
    rbl_health peak;          /* energy_in unused: see in below */
    rbl_exact_sum in[RBL_IN_N];    /* the energy put in by source, this process's share */
    rbl_exact_sum lost[RBL_LOSS_N]; /* what grains since removed had dissipated (g->loss) */
    rbl_exact_sum self_work;  /* the work self-gravity did on this process's grains over the
                                 steps (rbl_account_self_gravity) */
    rbl_exact_sum wall_through; /* moving walls' work, each contact's |work| a step: the energy
                                   that went through driven contacts (the check's scale) */
    double prev_disp2;        /* max_disp2 after the step before (0 after a build; at first
                                 and after a restart infinite: unknown) */
    rbl_energy_watch energy;
} rbl_health_state;

/* One thread's deepest overlap of a force pass (health.c merges them in a fixed order). */
typedef struct rbl_overlap_peak {
    double ratio;
    uint32_t ids[2];
    int wall; /* from 1; 0 for two grains */
} rbl_overlap_peak;

/* Loads that a room beside the engine adds between grains (src/bonds/: bonded particles,
 * issue 72), through this table so that the engine needs nothing of theirs: after each force
 * pass, forces() writes every grain's sums, 6 a grain (force, then torque), into sum (grains
 * 0 .. n-1, in an order of its own that depends on ids alone), which the gather adds after the
 * walls; energy() adds what they hold to the account's elastic energy; release() frees them. */
typedef struct rbl_sim_bonded {
    int (*forces)(rbl_sim *sim, int advance, rbl_error *err); /* advance: the step's increments
                                                                  (0: the first evaluation) */
    void (*energy)(const rbl_sim *sim, rbl_exact_sum *elastic);
    void (*release)(rbl_sim *sim);
    /* At a build, before the grains that left are taken out: gone[k] for the grains, then the
       ghosts; their bonds end, what they held booked as taken out (once over the processes). */
    int (*gone)(rbl_sim *sim, const uint8_t *gone, rbl_error *err);
    /* Over several processes, at a build's migration (src/parallel/): of the count bonds, put
       gives bond q's grain ids and its record of record_doubles() (rec NULL: ids only), 0 for
       one that stays (broken); take adds the n records that came (after the grains came) and
       drops the bonds of none of this process's grains (and with drop_broken the broken). */
    size_t (*count)(const rbl_sim *sim);
    size_t (*record_doubles)(void);
    int (*put)(const rbl_sim *sim, size_t q, uint32_t ids[2], double *rec);
    int (*take)(rbl_sim *sim, const double *recs, size_t n, int drop_broken, rbl_error *err);
} rbl_sim_bonded;

struct rbl_sim {
    rbl_sim_config cfg;
    const rbl_sim_peers *peers;
    const volatile sig_atomic_t *stop; /* rbl_run_set_stop's flag: rbl_sim_step ends after the
                                          step it is seen in (by any process) */
    int threads;
    rbl_material *materials;
    int n_materials;
    rbl_pair_coef *coef;     /* n_materials^2 (grain materials) */
    int coef_uniform;        /* every pair's coefficients the same (the pair pass reads one) */
    struct rbl_pair_set {    /* rbl_sim_set_pair's, applied over the mixing rule (law.c) */
        int a, b;            /* a <= b */
        double own[RBL_PAIR_N]; /* by slot (law_table.h); NAN: the rule's */
    } *pair_set;
    int n_pair_set;
    /* the law's coefficients without a field in rbl_contact_law (law_table.h's `held` rows),
       by row; rbl_law_coef_get reads the law's value of any row from cfg.law and these */
    double law_held[RBL_LAW_N_COEFS];
    rbl_plane *walls;
    int n_walls;
    rbl_mesh_wall *meshes;
    int n_meshes;
    struct rbl_mesh_touch *mesh_work; /* the wall pass's workspace: per thread, the wall list's
                                  cand_max candidates; sized at each neighbour build */
    size_t mesh_work_cap;
    rbl_flow_counter *flows; /* flow.c: the surfaces counted through (a mesh: a copy, */
    rbl_triangle_bvh *flow_bvh; /* and its hierarchy) */
    rbl_exact_sum *flow_sums;/* 4 per counter: grains forward, backward, mass forward, back */
    double *flow_values;     /* the same rounded, for rbl_thermo */
    double *pos_before;      /* the positions before this step's drift (with counters, or
                                where a build may take grains out: rbl_flow_before) */
    size_t n_flows, pos_before_cap; /* (doubles) */
    int drift_into_before;   /* this step's drift writes into pos_before and the two arrays
                                trade places (rbl_flow_before: no copy) */
    uint64_t pos_before_step; /* the step whose drift pos_before is from (0: none) */
    rbl_outlet *outlets;     /* outlets.c: where grains are taken out (a mesh: a copy, */
    rbl_triangle_bvh *outlet_bvh; /* and its hierarchy) */
    rbl_exact_sum *outlet_sums; /* 2 per outlet: grains (clumps) taken out, their mass */
    double *outlet_values;   /* the same rounded, for rbl_thermo */
    size_t n_outlets;
    double *wall_force;      /* per wall (planes then meshes) 3 of force, then per wall 3 of
                                torque about the origin, then 3 of travel; rbl_sim_thermo's */
    int walls_moving;        /* some wall has a motion */
    rbl_grains g;
    rbl_bodies bodies;
    rbl_pair_list pairs;
    rbl_wall_list wpairs;
    rbl_grid grid;
    double skin, cutoff_max;
    double radius_min;       /* of every grain at the last build (0: none) */
    double box[3];           /* periodic lengths */
    rbl_shear_cell shear;    /* Lees-Edwards boundaries (shear.c); shear.image.on: sheared */
    uint32_t next_id;
    uint32_t fresh_from; /* grains from this id on came since the last force evaluation: their
                            contacts' energy is booked as put in with them (account.c) */
    size_t max_grains;       /* 0: no limit */
    uint64_t step;
    double time;
    uint64_t lost;
    uint32_t *removing;      /* ids rbl_sim_remove_grains asked for, sorted: gone at the next
                                build (not counted as lost) */
    size_t n_removing;
    uint64_t removed;        /* by rbl_sim_remove_grains, since the start */
    int prepared;
    int set_up;              /* the first preparation is done (its time is timers.setup) */
    double max_disp2;        /* since the last build */
    size_t *cell_start;      /* grid.n_cells + 1: cell c holds cell_grains[start[c]..start[c+1]) */
    size_t cell_start_cap;
    uint32_t *cell_grains;   /* the grains cell by cell, each cell's in grain order */
    uint64_t *keys, *keys_tmp; /* after a build: keys[k] is grain k's cell (its slot in
                                  cell_table when hashed) */
    int hashed;              /* the cells of this build are in cell_table, not cell_start */
    int by_size;             /* this build's cells fit the smallest grains (neighbor.c) */
    rbl_cell_table cell_table;
    int64_t *cell_xyz;       /* hashed: each grain's integer cell coordinates, 3 per grain */
    size_t cell_xyz_cap;
    double open_origin[3];   /* open domain: cell (0,0,0) starts here (set at the first build) */
    double open_edge;        /* open domain: the pair search's cell edge */
    int open_origin_set;
    uint32_t *perm, *perm_tmp;
    uint64_t next_sort_step; /* the first build at or after this step reorders the grains */
    uint64_t test_shuffle;   /* rbl_sim_set_test_shuffle's seed (0: off) */
    /* the last random packing's radius draws that found no room (their block was full) and were
       drawn again, and their r^3 summed in units of r_max^3 / 2^32 (insert_random.c): what
       a crowded region took from the size distribution */
    uint64_t insert_dropped, insert_dropped_r3;
    size_t sort_cap;
    double *scratch;         /* permutation scratch, 4 (sort_cap + 4) doubles (the pair search's
                                binned positions and radii, neighbor.c) */
    rbl_sim_timers timers;
    rbl_packed_grain *packed; /* see rbl_packed_grain */
    const double *packed_omega; /* the spins that go with the records (g.omega or g.omega_eval) */
    size_t packed_cap;
    int packed_fresh;         /* packed holds this step's positions and force velocities */
    int forces_partial;       /* force/torque hold only the first-grain sums: gather first */
    rbl_self_gravity gravity; /* cfg.self_gravity with its defaults filled in */
    rbl_gravity_work gravity_work;
    int gravity_valid;        /* gacc and gphi hold the field of the current grains */
    rbl_exact_sum *thermo_sums; /* rbl_sim_thermo's workspace */
    size_t thermo_sums_cap;
    rbl_health_state health;
    struct rbl_collision_tally *collisions; /* collisions.c: the events booked since the last
                                               clear; NULL: none asked for */
    const rbl_sim_bonded *bonded; /* NULL: no bonds */
    struct rbl_bonds *bonds;  /* src/bonds/'s state */
    double *bond_sum;         /* 6 per grain: the bonds' force and torque, as the gather adds */
};

/* Every sweep over the grains gives each thread one contiguous range of them, the same in
 * every sweep of a step, so a grain's data stays in one core's cache. The ranges balance an
 * estimated cost, 5 per listed pair where the grain is first plus 7 per grain (settled bed
 * 10^4, one thread: 16 ns per listed pair in the force pass, 22 ns per grain in the
 * integrator's sweep), read off the pair list's index (monotone in k) by bisection, so they
 * need no state of their own; before the list covers the grains, equal counts. Results do
 * not depend on the ranges (each grain's sums have a fixed order).
 * Each pair across two ranges moves cache lines between the cores every step, which costs
 * most when the host places the two cores apart (bench/core_latency.c). Contiguous ranges
 * have few: a settled bed of 10^4 grains on 2 threads has 944 listed pairs across them, where
 * the chunks of 1667 grains dealt round robin before had 4594 (docs/dem.md: 2 threads,
 * 5000 steps, 4.5 -> 2.8 s with the cores apart, 2.57 -> 2.53 s with them near). */
static inline size_t rbl_sweep_cut(const rbl_sim *sim, size_t n, int t, int nt)
{
    const rbl_pair_list *p = &sim->pairs;
    if (t <= 0)
        return 0;
    if (t >= nt)
        return n;
    if (p->grains < n || !p->i_start) /* no list of these grains: equal counts */
        return n * (size_t)t / (size_t)nt;
    const double goal = (5.0 * (double)p->i_start[n] + 7.0 * (double)n) * t / nt;
    size_t lo = 0, hi = n; /* the first k whose cost before it reaches the goal */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (5.0 * (double)p->i_start[mid] + 7.0 * (double)mid < goal)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* This thread's number and the team's size (0 of 1 outside a parallel region). */
static inline void rbl_thread_of_team(int *t, int *nt)
{
    *t = 0, *nt = 1;
#ifdef _OPENMP
    *t = omp_get_thread_num();
    *nt = omp_get_num_threads();
#endif
}

/* This thread's range of grains 0..n-1 (called inside a parallel region). */
static inline void rbl_sweep_range(const rbl_sim *sim, size_t n, size_t *begin, size_t *end)
{
    int t, nt;
    rbl_thread_of_team(&t, &nt);
    *begin = rbl_sweep_cut(sim, n, t, nt);
    *end = rbl_sweep_cut(sim, n, t + 1, nt);
}

/* This thread's equal share of 0..n-1 (called inside a parallel region). */
static inline void rbl_equal_share(size_t n, size_t *begin, size_t *end)
{
    int t, nt;
    rbl_thread_of_team(&t, &nt);
    *begin = n * (size_t)t / (size_t)nt;
    *end = n * (size_t)(t + 1) / (size_t)nt;
}

/* grains.c */
int rbl_grains_reserve(rbl_grains *g, size_t cap, rbl_error *err);
void rbl_grains_free(rbl_grains *g);
/* A grain of this id and radius at p as the scene's placement check takes it: inside a closed
 * domain, in no wall by more than RBL_START_OVERLAP_MAX of its radius; else RBL_EINVAL naming
 * the grain and the wall (from 1), `when` ("at the start") in the message. */
/* Wall k's distance (planes, then meshes; a plane's signed, a mesh's at least `within` where
 * it is farther) from the point p (m), the wall where it is now. */
double rbl_wall_distance(const rbl_sim *sim, int k, const double p[3], double within);
int rbl_grain_placement_check(const rbl_sim *sim, uint32_t id, const double p[3],
                              double radius, const char *when, rbl_error *err);
/* For a wall index out of range (the API's walls are indexed from 0, planes then meshes; its
 * messages, thermo.csv and walls.vtp count them from 1): what the n walls' indices are, as a
 * phrase (a static buffer per thread). */
const char *rbl_wall_indices(int n);
/* The external forces zero from the next stepping on (a hook removed: rbl_run_set_hook). */
void rbl_sim_external_clear(rbl_sim *sim);
/* Before a stepping: the forces made to hold the external forces as the caller left them (a
 * change takes effect from the step's first kick, not the next evaluation's). */
void rbl_external_refresh(rbl_sim *sim);
/* The work of the external forces over the drift just made (x moved by v dt, v the half-step
 * velocity), booked as energy put in (stages.c). */
void rbl_external_work(rbl_sim *sim);
/* qsort/bsearch order of uint32_t (stages.c). */
int rbl_u32_compare(const void *a, const void *b);
/* The grains' indices in id order, each as id << 32 | index (malloc'd; NULL: out of memory):
 * files that list grains the same whatever their order in memory, ids looked up (grains.c). */
uint64_t *rbl_grains_id_order(const rbl_grains_view *v);
/* contact_list.c — one contact of the last force evaluation, as rbl_sim_contacts lists it
 * (a wall contact: id2 UINT32_MAX, wall >= 0; a pair: wall -1). */
typedef struct rbl_contact_item {
    uint32_t id1, id2;
    int32_t wall;
    double point[3], normal[3], fn[3], ft[3], centre[3], branch[3], overlap;
} rbl_contact_item;
/* The slots of the contacts listed (pairs whose first grain is this process's, in id order,
 * then the wall contacts of its grains, in id order): *n_pairs pair slots, then *n_walls
 * wall slots (malloc'd); 0 when out of memory. */
int rbl_contacts_order(const rbl_sim *sim, size_t **slots, size_t *n_pairs, size_t *n_walls);
void rbl_contact_pair_item(const rbl_sim *sim, size_t q, rbl_contact_item *it);
void rbl_contact_wall_item(const rbl_sim *sim, size_t q, rbl_contact_item *it);
/* Entry q of such an order: a pair's below n_pairs, a wall contact's from there. */
void rbl_contact_item_of(const rbl_sim *sim, const size_t *slots, size_t n_pairs, size_t q,
                         rbl_contact_item *it);
/* contact_study.c (issue 74) — what studies read of a contact beyond its force: the
 * tangential spring as seen from the first grain (m; the seed's D_H in [0]), whether it slides
 * (its force at the Coulomb limit), the rolling resistance's torque on the first grain (N m),
 * the grains' materials (a wall contact: the wall's second). */
typedef struct rbl_contact_extra {
    double spring[3], rolling[3];
    int sliding;
    int32_t material1, material2;
    int64_t age; /* the force evaluations it touched in (rbl_sim_contact_ages); -1: unknown */
} rbl_contact_extra;
void rbl_contact_pair_extra(const rbl_sim *sim, size_t q, const rbl_contact_item *it,
                            rbl_contact_extra *x);
void rbl_contact_wall_extra(const rbl_sim *sim, size_t q, const rbl_contact_item *it,
                            rbl_contact_extra *x);
/* Which contacts a file keeps (output.contacts): all, grain pairs or wall contacts only;
 * |F_n| >= fn_min; one of its grains of a listed material (none listed: any); its point in
 * the region (a box lo..hi, a cylinder or a sphere of rbl_insert_spec). */
#define RBL_CONTACTS_GRAINS 1
#define RBL_CONTACTS_WALLS 2
#define RBL_CONTACT_FILTER_MATERIALS 64
typedef struct rbl_contact_filter {
    int only;
    double fn_min;
    int n_materials;
    int materials[RBL_CONTACT_FILTER_MATERIALS];
    int has_region;
    rbl_insert_spec region;
} rbl_contact_filter;
int rbl_contact_filter_keeps(const rbl_contact_filter *f, const rbl_contact_item *it,
                             const rbl_contact_extra *x);
/* The contacts rbl_sim_contacts lists, in its order (the grain pairs first: *n_pairs of the
 * *n), those f keeps (NULL: all), with what studies read (malloc'd; 0: out of memory). */
typedef struct rbl_contact_row {
    rbl_contact_item it;
    rbl_contact_extra x;
} rbl_contact_row;
int rbl_sim_contact_rows(const rbl_sim *sim, const rbl_contact_filter *f, rbl_contact_row **rows,
                         size_t *n, size_t *n_pairs);
/* The index of grain `id` in an order of rbl_grains_id_order over n grains, or SIZE_MAX. */
size_t rbl_grains_index_of(const uint64_t *order, size_t n, uint32_t id);
/* The external forces' array, zero, from now on (kept, grown and reordered with the rest). */
int rbl_grains_external(rbl_grains *g, rbl_error *err);
/* Hold the arrays in place (1) or end the hold (0), freeing the arrays growth retired. */
void rbl_grains_hold(rbl_grains *g, int hold);
/* Reorder every array so that new index k holds old index perm[k]; keeps n = count (the
 * permutation may drop grains). scratch holds at least 3 * n doubles. */
void rbl_grains_permute(rbl_grains *g, const uint32_t *perm, size_t count, double *scratch);

/* sim.c — a grain of mass m appended (validated); body -1 for a free grain, else the clump
 * and the member slot. */
/* The values a grain may have, wherever it comes from (added, inserted, loaded): a radius in
 * [RBL_RADIUS_MIN, RBL_RADIUS_MAX] m, coordinates within RBL_COORD_MAX m of the origin, a
 * speed and a surface speed (|omega| r) of at most RBL_SPEED_MAX m/s (meteoroid impacts: 7e4
 * m/s; scene_limits.c refuses the same in a scene's sources and walls). Far beyond any
 * granular material, and small enough that every square and product the contact tests form
 * stays finite and normal. */
#define RBL_RADIUS_MIN 1e-12
#define RBL_RADIUS_MAX 1e12
#define RBL_COORD_MAX 1e15
#define RBL_SPEED_MAX 1e6
int rbl_grain_values_check(const double pos[3], const double vel[3], const double omega[3],
                           double radius, rbl_error *err);
/* The mass of a free grain of this material and radius, as rbl_sim_add_grain gives it. */
static inline double rbl_free_grain_mass(const rbl_sim *sim, int material, double r)
{
    return sim->materials[material].density * 4.0 / 3.0 * M_PI * r * r * r;
}
/* Grain k's mass, inverse mass and inverse inertia as adding it made them (a loaded state):
 * a free grain's those of its material and radius, bit for bit; a clump member's positive,
 * its inverses 0. */
int rbl_grain_mass_check(const rbl_sim *sim, size_t k, rbl_error *err);
int rbl_sim_append_grain(rbl_sim *sim, const rbl_grain *gr, double m, int32_t body,
                         uint32_t slot, uint32_t *id, rbl_error *err);

/* bodies.c — clumps as rigid bodies. */
void rbl_bodies_free(rbl_bodies *b);
/* Room for n bodies and members slots; 0 on out-of-memory. */
int rbl_bodies_reserve(rbl_bodies *b, size_t n, size_t members);
/* Each member's lever arm from the body's orientation (after a checkpoint load). */
void rbl_bodies_refresh_arms(rbl_bodies *b);
/* Each clump sphere's mass, its body's shared by volume (derived: set after a read). */
void rbl_bodies_member_masses(const rbl_bodies *b, rbl_grains *g);
/* After grains were reordered: each slot's grain index again. (Sorting the bodies by the memory
 * position of their first member as well was measured: no gain.) */
void rbl_bodies_reindex(rbl_sim *sim);
/* Rebuild the bodies in the order `order` (count of them; bodies not listed are dropped): the
 * per-body arrays, the member slots (each body's slots stay contiguous), and the body and slot
 * of every member grain 0 .. g.n - 1 (-1 for a dropped body's). */
int rbl_bodies_keep(rbl_sim *sim, const uint32_t *order, size_t count, rbl_error *err);
/* A body's record as it moves to another process (src/parallel/): position, velocity, angular
 * momentum, orientation, principal moments, force, torque, mass, material, member count (25
 * doubles), then each member's id, offset and lever arm (7). rbl_body_get appends one to b
 * (its members' grain indices UINT32_MAX, for the caller to set) and tells the doubles read. */
#define RBL_BODY_DOUBLES 25
#define RBL_BODY_MEMBER_DOUBLES 7
size_t rbl_body_record_doubles(const rbl_bodies *b, size_t k);
void rbl_body_put(const rbl_bodies *b, size_t k, double *o);
int rbl_body_get(rbl_bodies *b, const double *o, size_t *used, rbl_error *err);
/* Drop the bodies with a member flagged in gone_grain (by grain index) and flag all their
 * members; renumbers the bodies and slots of the grains that stay. */
int rbl_bodies_drop(rbl_sim *sim, uint8_t *gone_grain, rbl_error *err);
/* Each body's force and torque summed at its centre of mass from its members' (gathered), as
 * the step's first half sums them: what a force evaluation leaves, for the energy account's
 * kick terms read before the next step (a body made before the run's first forces held none). */
void rbl_bodies_sum_forces(rbl_sim *sim);
/* The integrator's part for bodies, after the grains' sweep has gathered every member's force:
 * sum at the centre of mass, (close the previous step,) kick, drift, rotate, place the members
 * and pack them. Returns the largest squared member displacement since the last build. */
double rbl_bodies_first_half(rbl_sim *sim, int close_previous, rbl_packed_grain *pk);
/* Half kick of the bodies into the members' vel_dst / omega_dst; store keeps the body's new
 * velocity and angular momentum (the closing kick), otherwise it is a prediction. */
void rbl_bodies_half_kick(rbl_sim *sim, double *vel_dst, double *omega_dst, int store);
/* Velocities and spins written to clumps' spheres from outside the steps (a script): a rigid
 * motion of a clump's spheres (to RBL_RIGID_WRITE_TOLERANCE of their speed) becomes its body's
 * velocity and angular momentum, and the spheres take the body's motion again; any other is
 * refused, naming the sphere and the clump (its first sphere's id). Bodies not written to
 * keep every bit. */
#define RBL_RIGID_WRITE_TOLERANCE 1e-9
int rbl_bodies_take_writes(rbl_sim *sim, rbl_error *err);
/* A lower bound of the mass a contact on grain k moves: the grain's own mass, or for a clump
 * member 1 / (1/M + (|offset| + r)^2 / I_min). Used by the time step and damping checks. */
double rbl_contact_mass(const rbl_sim *sim, size_t k);
/* thermo.c — the diagnostics' sums, exact (so that summed over several processes they are one
 * process's bits), in this order, then per wall (planes, then meshes) 3 of force and 3 of
 * torque about the origin. rbl_sim_thermo is rbl_thermo_partial (this process's grains and
 * contacts: the sums, and every other field of t) then rbl_thermo_finish (the values). */
enum {
    RBL_T_KINETIC,
    RBL_T_ROTATIONAL,
    RBL_T_POTENTIAL,
    RBL_T_MOMENTUM,                /* 3 */
    RBL_T_ANGMOM = RBL_T_MOMENTUM + 3, /* 3, about the origin */
    RBL_T_SELF = RBL_T_ANGMOM + 3,
    RBL_T_GRAVITY_VIRIAL,
    RBL_T_ELASTIC,
    RBL_T_CONTACT_VIRIAL,
    RBL_T_IN,                      /* rbl_health_state.in: RBL_IN_N */
    RBL_T_LOSS = RBL_T_IN + RBL_IN_N, /* dissipated by mechanism: RBL_LOSS_N */
    RBL_T_KICK = RBL_T_LOSS + RBL_LOSS_N, /* the kinetic energy's half-kick term (account.c) */
    RBL_T_COHESIVE,                /* the cohesive part of the contacts' energy */
    RBL_T_SELF_WORK,               /* rbl_health_state.self_work */
    RBL_T_SUMS
};
/* account.c — the energy account (issue 70): where the energy put in went, booked where it
 * happens. */
/* x joules put in from source src (RBL_IN_*), this process's. */
static inline void rbl_account_in(rbl_sim *sim, int src, double x)
{
    rbl_exact_add(&sim->health.in[src], x);
}
/* Half the work self-gravity does over the step being made, with the field the grains hold now
 * (called with the field the step began with and again with the one it ends with: the mean of
 * the two, as the kicks give it), on this process's grains moving at the drift's velocities. */
void rbl_account_self_gravity(rbl_sim *sim);
/* What this process's grains and contacts hold now (kinetic less the kick term, the uniform
 * field's potential, the contacts' energy; self-gravity's is its work, kept apart), exactly
 * (summed over processes, one process's bits): a change made between steps is booked as the
 * difference of this before and after it. 0 when out of memory. */
int rbl_account_held(rbl_sim *sim, rbl_exact_sum *held);
/* The same from thermo's sums (RBL_T_*): the one place the held terms are named. */
void rbl_account_held_of(const rbl_exact_sum *sums, rbl_exact_sum *held);
/* A change made between steps: what the grains and contacts hold now less `before`
 * (rbl_account_held's) is booked as put in (RBL_IN_CHANGES). */
void rbl_account_changed(rbl_sim *sim, const rbl_exact_sum *before);
/* Grain k's force changed between steps by a change of its external force (it held
 * old_force): the kick term's change is booked (RBL_IN_EXTERNAL). */
void rbl_account_external_changed(rbl_sim *sim, size_t k, const double old_force[3]);
/* This process's energy put in since creation, all sources. */
double rbl_account_in_total(const rbl_sim *sim);
/* The grains flagged gone leave: what they dissipated goes into the account's removed share. */
void rbl_account_drop(rbl_sim *sim, const uint8_t *gone);
struct rbl_contact_geom; /* contact_kernel.h */
/* The energy listed pair q (wall contact q) holds with geometry geo (dist: the centres'
 * distance), its cohesive part in *cohesive (may be NULL): what thermo's elastic sums. */
double rbl_account_pair_energy(const rbl_sim *sim, size_t q, const struct rbl_contact_geom *geo,
                               double dist, double *cohesive);
double rbl_account_wall_energy(const rbl_sim *sim, size_t q, const struct rbl_contact_geom *geo,
                               double *cohesive);
/* The grains flagged gone (g.n + g.ghosts flags: a ghost's as its owner flagged it) leave at a
 * build: what their contacts held at the last force evaluation (this process's grains at x,
 * ghosts as received, planes where that evaluation had them) is carried out (RBL_IN_REMOVED),
 * each pair booked where its first grain is, as thermo counts it; their collision events end
 * there (counted once, what they held not dissipated). */
void rbl_account_gone_contacts(rbl_sim *sim, const uint8_t *gone, const double *x);
/* After a force evaluation: the contacts of grains added since the last one (ids from
 * sim->fresh_from) hold energy no step put in (a grain placed overlapping others or a wall):
 * what they hold, elastic and cohesive, is booked as added with the grains (RBL_IN_ADDED),
 * each pair once, as thermo counts it, and what their first forces bring into the leapfrog's
 * kinetic energy (in_step: an evaluation within a step, after its drift; else before a step,
 * a preparation: account.c). */
void rbl_account_fresh_contacts(rbl_sim *sim, int in_step);
/* The run's first force evaluation (step 0, the first preparation): what the contacts hold
 * and the kick term of the first forces (the leapfrog's kinetic energy, K - kick) are booked
 * as added with the grains, so that the balance starts at round-off whatever the grains'
 * overlaps. */
void rbl_account_start(rbl_sim *sim);
/* A contact of grain i (with grain j, or with a wall of material wall_material >= 0) ends
 * holding its history h, in the geometry geo of the step just made (its contact point's
 * velocity and relative spin: first body's less the second's): what its springs held then is
 * lost, and its dashpots' last force and its rolling spring's last torque did work over half
 * of that step; booked on grain i
 * (loss: 3 per grain, loss_cohesion: 1, the grains' columns). */
struct rbl_contact_geom;
void rbl_account_contact_end(const rbl_sim *sim, size_t i, size_t j, int wall_material,
                             const double *h, const struct rbl_contact_geom *geo, double *loss,
                             double *loss_cohesion);
/* collisions.c — collision statistics (issue 70): a contact's event, from its first force
 * evaluation to its parting, kept in its history's last RBL_HIST_COLLISION doubles (hc): hc[0] 1
 * once begun (-1: it touched before the statistics were asked for, not counted), hc[1] its
 * impact energy m_eff v_n^2 / 2, hc[2] |v_n| and hc[3] |v_t| at its first evaluation, hc[4] the
 * losses of its steps. At its end (rbl_account_contact_end) the event goes into the tally, by
 * its pair of materials (a wall by its material), in a histogram of impact energies, log-spaced
 * bins from e_min to e_max and one either side; counts and exact sums, so the same bits on any
 * thread or process count, in any order. */
typedef struct rbl_collision_tally {
    int bins, materials;
    double e_min, e_max, per_log; /* bins / ln(e_max / e_min) */
    size_t pairs;                 /* materials (materials + 1) / 2 grain pairs, then m x m walls */
    uint64_t *count;              /* pairs x (bins + 2): below e_min, the bins, from e_max */
    rbl_exact_sum *sum;           /* RBL_COLLISION_SUMS per count, in that order */
} rbl_collision_tally;
enum { RBL_COLLISION_IMPACT, RBL_COLLISION_DISSIPATED, RBL_COLLISION_VN, RBL_COLLISION_VT,
       RBL_COLLISION_SUMS };
/* rbl_collision_begin and rbl_collision_step: contact_kernel.h. */
/* The tally's index of (material a, material b or a wall's), or SIZE_MAX. */
size_t rbl_collision_pair(const rbl_collision_tally *t, int a, int b, int wall);
/* The bin of impact energy e: 0 below e_min, 1 .. bins, bins + 1 from e_max. */
int rbl_collision_bin_of(const rbl_collision_tally *t, double e);
/* The event of history slice hc between materials a and b (wall: b a wall's) ends, its end
 * having booked end_loss: into the tally (thread-safe). */
void rbl_collision_end(const rbl_sim *sim, int a, int b, int wall, const double *hc,
                       double end_loss);
/* The histories re-laid for law.collisions = on (a restart that asks for the statistics or no
 * longer does): contacts touching now are marked not counted. */
int rbl_collision_relay(rbl_sim *sim, int on, rbl_error *err);
/* Each contact's age kept in its history (on) or not (issue 74, output.contacts' `age`): the
 * histories re-laid; a contact touching when they are asked for has an unknown age. */
int rbl_sim_contact_ages(rbl_sim *sim, int on, rbl_error *err);
void rbl_collision_tally_free(rbl_collision_tally *t);
/* The half-kick term of grain (or body) of mass m, inertia about its centre (isotropic) i_rot,
 * under force F and torque T: dt^2 (|F|^2 / m + |T|^2 / I) / 8, what its kinetic energy
 * exceeds the leapfrog's m v(t - dt/2) . v(t + dt/2) / 2 by (account.c). */
static inline double rbl_kick_term(double dt, double m, double i_rot, const double *F,
                                   const double *T)
{
    double f2 = F[0] * F[0] + F[1] * F[1] + F[2] * F[2];
    double t2 = T ? T[0] * T[0] + T[1] * T[1] + T[2] * T[2] : 0.0;
    return 0.125 * dt * dt * (f2 / m + (t2 > 0.0 ? t2 / i_rot : 0.0));
}

/* health.c — the run's health check (issue 41). */
/* A deeper overlap than *peak (ties: the lower ids), kept there. */
static inline void rbl_overlap_peak_take(rbl_overlap_peak *peak, double ratio, uint32_t a,
                                         uint32_t b, int wall)
{
    uint32_t lo = a < b ? a : b, hi = a < b ? b : a;
    if (ratio > peak->ratio ||
        (ratio == peak->ratio && (lo < peak->ids[0] || (lo == peak->ids[0] && hi < peak->ids[1])))) {
        peak->ratio = ratio;
        peak->ids[0] = wall ? a : lo, peak->ids[1] = wall ? UINT32_MAX : hi;
        peak->wall = wall;
    }
}
/* The run's deepest overlap so far, where a force pass's threads start. */
rbl_overlap_peak rbl_health_overlap_start(const rbl_sim *sim);
/* A thread's deepest overlap of the force evaluation of step `step`, merged into the run's. */
void rbl_health_overlap_merge(rbl_sim *sim, const rbl_overlap_peak *p, uint64_t step);
/* After the drift of step sim->step + 1: RBL_EUNSTABLE when a grain moved beyond opt.move or
 * the last force evaluation's overlap went beyond opt.overlap (the message names them). */
int rbl_health_after_drift(rbl_sim *sim, rbl_error *err);
/* After the walls stepped (rbl_walls_step): RBL_EUNSTABLE when a moving wall's step moved a
 * point of it farther than opt.move of the smallest grain's radius. */
int rbl_health_walls_moved(rbl_sim *sim, rbl_error *err);
/* Energy that grains k (kinetic, rotational, uniform gravity's potential) or body b carry:
 * what adding them puts in and removing them takes out. */
double rbl_grain_energy(const rbl_sim *sim, size_t k);
double rbl_body_energy(const rbl_sim *sim, size_t b);
/* Its kinetic energy, translation and rotation, J. */
double rbl_body_kinetic(const rbl_sim *sim, size_t b);
size_t rbl_thermo_sum_count(const rbl_sim *sim);
void rbl_thermo_partial(rbl_sim *sim, rbl_thermo *t, rbl_exact_sum *sums);
void rbl_thermo_finish(rbl_sim *sim, rbl_thermo *t, const rbl_exact_sum *sums);
/* The contact virial sum_c d . f over the touching pairs whose first grain is this
 * process's, added to s (measure.c). */
void rbl_contact_virial_add(const rbl_sim *sim, rbl_exact_sum *s);
/* The bodies' kinetic and rotational energy, potential energy, momentum and angular momentum
 * about the origin, added to the thermo sums. */
void rbl_bodies_energy(const rbl_sim *sim, rbl_exact_sum *sums);

/* insert_random.c, insert_lattice.c — rbl_sim_insert_random and rbl_sim_insert_lattice over
 * several processes (src/parallel/domain.c): each places the blocks or sites of its share and
 * the grains go to the processes holding them, one process's grains and ids on any number.
 * The calls are collective over the processes. */
typedef struct rbl_insert_ranks {
    int rank, size;
    void *ctx;
    /* each process sends bytes[q] bytes (from send, rank after rank) to process q and gets
       *recv (malloc'd) of *recv_bytes from all, in rank order */
    int (*exchange)(void *ctx, const void *send, const size_t *bytes, void **recv,
                    size_t *recv_bytes, rbl_error *err);
    /* every process's n doubles, in rank order, into *all (malloc'd): *first where this
       process's begin, *total how many */
    int (*gather)(void *ctx, const double *mine, size_t n, double **all, size_t *first,
                  size_t *total, rbl_error *err);
    uint64_t (*exscan)(void *ctx, uint64_t v); /* the sum over the processes before */
    uint64_t (*sum)(void *ctx, uint64_t v);
    int (*agree)(void *ctx, int rc, rbl_error *err); /* every process's rc, the first message */
    int (*holder)(void *ctx, const double p[3]);    /* the process to hold a grain at p */
    void (*before_adding)(void *ctx);
} rbl_insert_ranks;
int rbl_insert_random_ranks(rbl_sim *sim, const rbl_insert_spec *spec,
                            const rbl_insert_ranks *ranks, size_t *placed, rbl_error *err);
int rbl_insert_lattice_ranks(rbl_sim *sim, const rbl_insert_spec *spec,
                             const rbl_insert_ranks *ranks, size_t *placed, rbl_error *err);
/* insert_pack.c: every process computes the one packing and adds its share. */
int rbl_insert_pack_ranks(rbl_sim *sim, const rbl_insert_spec *spec, double volume_fraction,
                          const rbl_insert_ranks *ranks, size_t *placed, rbl_pack_info *info,
                          rbl_error *err);
/* The sites a lattice with a count may try before it says how many fit (grains here, an
 * impulse scene's objects in object_build.c): a thousand per one asked, at least `least`. A
 * region 1e100 m long whose sites the walls block would otherwise be visited for ever. */
static inline double rbl_lattice_site_budget(double count, double least)
{
    return count * 1000.0 > least ? count * 1000.0 : least;
}

/* insert_face.c — an inflow face's draws (RBL_REGION_FACE): the facets' running areas. For
 * another shape init leaves it empty. */
typedef struct rbl_face_sampler {
    double *cum;
    size_t n;
} rbl_face_sampler;
int rbl_face_sampler_init(rbl_face_sampler *f, const rbl_insert_spec *spec, rbl_error *err);
void rbl_face_sampler_free(rbl_face_sampler *f);
/* A centre for a grain of radius r (the face's slab, on the side spec->vel points to). */
void rbl_face_sampler_draw(const rbl_face_sampler *f, const rbl_insert_spec *spec,
                           rbl_rng *rng, double r, double p[3]);
/* The surface's area (m^2). */
double rbl_mesh_area(const rbl_mesh *m);

/* neighbor.c — the Verlet pair list from the shared grid; reorders grains by cell. */
int rbl_neighbor_build(rbl_sim *sim, rbl_error *err);
/* The lists of the last build made again, for the grains where they were then (pos_build) and
 * the walls where they were then, with the histories held, the grains left where they are now
 * and the rebuild schedule kept: the run goes on as if nothing happened. So a simulation is
 * spread over processes, or gathered onto one, at any step (src/parallel/domain.c), where a
 * build of its own would wrap periodic positions when one process would not. */
int rbl_neighbor_rebuild_as_built(rbl_sim *sim, rbl_error *err);
/* Room for n pairs and grains grains (growing, never shrinking). */
int rbl_pair_list_reserve(rbl_pair_list *p, size_t n, size_t grains, size_t hist_width,
                          rbl_error *err);
/* From i, j, touch of the p->n pairs: i_start, j_start, jpos, touch_j. */
int rbl_pair_list_index(rbl_pair_list *p, size_t grains, const uint32_t *id, int threads,
                        rbl_error *err);
void rbl_pair_list_free(rbl_pair_list *p);
/* Periodic image shift of code c (0..26) for the box lengths. */
static inline void rbl_image_shift(const double box[3], uint8_t c, double s[3])
{
    s[0] = (double)((int)(c % 3) - 1) * box[0];
    s[1] = (double)((int)((c / 3) % 3) - 1) * box[1];
    s[2] = (double)((int)(c / 9) - 1) * box[2];
}
#define RBL_IMAGE_NONE 13


/* The image's place along the gradient axis (z) of code c: -1, 0 or 1. */
static inline int rbl_image_sz(uint8_t c) { return (int)(c / 9) - 1; }

/* The image shift of code c with Lees-Edwards' shift along the flow axis. */
static inline void rbl_image_shift_le(const double box[3], const rbl_shear_image *le, uint8_t c,
                                      double s[3])
{
    rbl_image_shift(box, c, s);
    if (le->on)
        s[le->flow] += rbl_image_sz(c) * le->delta;
}

/* d = x_i - x_j less the image shift of code c (not RBL_IMAGE_NONE). Across a sheared side the
 * flow component is then taken to its nearest image (the shift moves on between builds and
 * wraps at L/2: the code's flow part was the build's), so the separation is the time's alone. */
static inline __attribute__((always_inline)) void
rbl_image_sub(const double box[3], const rbl_shear_image *le, uint8_t c, double d[3])
{
    double sh[3];
    rbl_image_shift(box, c, sh);
    d[0] -= sh[0], d[1] -= sh[1], d[2] -= sh[2];
    if (le->on && rbl_image_sz(c) != 0) { /* (no call in the force loop: no libm rounding) */
        const int f = le->flow;
        d[f] -= rbl_image_sz(c) * le->delta;
        const double k = d[f] / box[f]; /* within (-2, 2): the shift's and the code's */
        d[f] -= box[f] * (double)(int)(k + (k < 0.0 ? -0.5 : 0.5));
    }
}

/* dv = v_i - v_j less the velocity of image c's frame (its flow component sz speed). */
static inline __attribute__((always_inline)) void rbl_image_dv(const rbl_shear_image *le, uint8_t c, double dv[3])
{
    if (le->on)
        dv[le->flow] -= rbl_image_sz(c) * le->speed;
}

/* shear.c — Lees-Edwards boundaries (docs/shear.md). The shift at time t into
 * sim->shear.image (nothing unless sheared). */
void rbl_shear_move_to(rbl_sim *sim, double t);
/* At a build, grain k beyond the gradient sides (before its wrap): moved by the shift along
 * the flow, its velocity by the images' speed, the kinetic energy's change booked. */
void rbl_shear_wrap(rbl_sim *sim, size_t k);
/* A build is due: the shift since the last may have closed the skin (a build at least every
 * skin / (4 U dt) steps, and the displacement's test with the shift since the last such step). */
int rbl_shear_build_due(const rbl_sim *sim);
/* The step's rows: before the build (the last evaluation's boundary force; the shift at the
 * step's end) and after the forces (the boundary's work over the step booked, RBL_IN_WALLS). */
void rbl_shear_before(rbl_sim *sim);
void rbl_shear_after(rbl_sim *sim);
/* shear_servo.c — the servo on a sheared cell's height (docs/shear.md). Before the drift
 * and after it: L_z changed by half the step's strain, positions remapped affinely about the
 * box's centre, the contacts' elastic energy's change booked as the boundary's work
 * (RBL_IN_WALLS); 0 on out-of-memory. After the forces: the strain rate for the next step
 * from sigma_zz. */
int rbl_shear_servo_move(rbl_sim *sim, int after_drift);
void rbl_shear_servo_update(rbl_sim *sim);
/* The shift wrapped into [-L/2, L/2) of the flow axis. */
double rbl_shear_wrap_shift(const rbl_sim *sim, double d);

/* history.c — carry contact history across a rebuild, keyed by the pair of ids. with_out:
 * each entry holds after the history the last force evaluation's results, a pair's
 * RBL_PAIR_OUT doubles (its slot), a wall contact's RBL_WALL_KEPT (its RBL_WALL_OUT, then its
 * facet), so that lists made again as built (rbl_neighbor_rebuild_as_built: a checkpoint
 * restarted over several processes) read as they did (contact_list.c, wall loads). */
#define RBL_WALL_KEPT (RBL_WALL_OUT + 1)
int rbl_history_collect_pairs(const rbl_sim *sim, rbl_history_map *map, int with_out,
                              rbl_error *err);
int rbl_history_collect_walls(const rbl_sim *sim, rbl_history_map *map, int with_out,
                              rbl_error *err);
/* After a build from maps collected with_out (or rows as wide): each touching pair's slot and
 * wall contact's results and facet as the maps hold them (maps of the law's width: nothing). */
void rbl_history_outs_restore(rbl_sim *sim, const rbl_history_map *pairs,
                              const rbl_history_map *walls);
/* history_carry.c — the same within one process, by the grains' old indices: the touching
 * pairs of the old list grouped by old first grain, and where each grain was (origin) and is
 * (now_of), followed through the build's permutations. */
typedef struct rbl_history_carry {
    size_t old;         /* grains of the old list */
    size_t now;         /* grains now */
    size_t width;
    size_t *start;      /* old + 1: old first grain o's entries */
    uint32_t *other;    /* per entry: the partner's old index */
    double *hist;       /* width per entry */
    uint32_t *origin;   /* per grain now: its old index, or UINT32_MAX (new) */
    uint32_t *spare;    /* scratch for follow; then now_of */
    const uint32_t *now_of; /* per old grain: its index now, or UINT32_MAX (after settle) */
} rbl_history_carry;
/* From the pair list as it stands (before the build changes anything). */
int rbl_history_carry_take(const rbl_sim *sim, rbl_history_carry *c, rbl_error *err);
/* The grains were permuted: new index k holds old index perm[k], count kept. */
void rbl_history_carry_follow(rbl_history_carry *c, const uint32_t *perm, size_t count);
/* After the last permutation, before the first find. */
void rbl_history_carry_settle(rbl_history_carry *c);
/* The history of the pair of grains a (lower id) and b, by their indices now, or NULL. */
const double *rbl_history_carry_find(const rbl_history_carry *c, uint32_t a, uint32_t b);
void rbl_history_carry_free(rbl_history_carry *c);
/* Contact histories as rows (first id, other id or wall code, history oriented from the first),
 * as they travel with a grain that moves to another process (src/parallel/). */
typedef struct rbl_history_rows {
    size_t n, cap, width;
    uint32_t *first, *other;
    double *hist;
} rbl_history_rows;
int rbl_history_rows_push(rbl_history_rows *r, uint32_t first, uint32_t other, const double *h,
                          rbl_error *err);
void rbl_history_rows_free(rbl_history_rows *r); /* keeps the width */
/* Every entry of the map. */
void rbl_history_map_each(const rbl_history_map *map,
                          void (*fn)(void *ctx, uint32_t first, uint32_t other, const double *h),
                          void *ctx);
/* The map with the rows added (found before its own entries of the same contact). */
int rbl_history_map_add(const rbl_contact_law *law, rbl_history_map *map,
                        const rbl_history_rows *rows, rbl_error *err);
/* The history of (id_a, other), or NULL. */
/* wall_wear.c — the volume a mesh contact wears off its wall over dt: Archard's
 * archard |F_n| |v_t| dt (v_t the sliding velocity at the contact point) and, as LIGGGHTS's
 * `wear finnie`, 2 finnie |v| |F| E(gamma) dt (v the grain centre's velocity relative to the
 * wall there, gamma its angle to the wall, E Finnie's function), the latter while the grain
 * does not move away. n from the wall to the grain, f the force on the grain. */
double rbl_wear_volume(const rbl_mesh_wall *mw, const double n[3], const double v_contact[3],
                       const double v_centre[3], const double f[3], double dt);
/* After a step's wall pass: each touching mesh contact's worn volume onto its facet's depth,
 * per facet in the order of the grains' ids (the same bits for any number of threads and any
 * order of the grains in memory); RBL_ENOMEM. */
int rbl_walls_wear_add(rbl_sim *sim, rbl_error *err);
/* sizes.c — bins of a size distribution: the mean r^k of one bin (by number), a radius drawn
 * from them, their check. */
double rbl_size_bin_moment(const rbl_size_bin *b, int k);
double rbl_size_draw_bins(const rbl_size_dist *d, rbl_rng *rng);
int rbl_size_bins_check(const rbl_size_dist *d, rbl_error *err);

/* flow.c — before a step's drift: the positions kept (with counters, or where a build may
 * take grains out), by the drift itself where the arrays are not held (sim->drift_into_before:
 * it writes the new positions into pos_before, and the arrays trade places), else by a copy;
 * after it: each grain whose centre crossed a counter's surface counted. 0: out of memory. */
int rbl_flow_before(rbl_sim *sim);
void rbl_flow_after(rbl_sim *sim);
void rbl_flow_free(rbl_sim *sim); /* the counters and their meshes */
/* outlets.c — after a step's drift (the positions before it kept by rbl_flow_before): the
 * grains that reached an outlet put on the list of those taken out at this step's build;
 * whether any was (the build must then happen now). */
int rbl_outlets_after(rbl_sim *sim);
void rbl_outlets_free(rbl_sim *sim);
/* A surface grains cross (a flow counter's, an outlet's): set from c into k checked, its normal
 * made unit and its point into the box along periodic axes, a mesh copied with its hierarchy
 * into bvh; freed. */
int rbl_surface_set(const rbl_sim *sim, const rbl_flow_counter *c, rbl_flow_counter *k,
                    rbl_triangle_bvh *bvh, rbl_error *err);
void rbl_surface_free(rbl_flow_counter *k, rbl_triangle_bvh *bvh);
/* half: half the period along each axis (INFINITY where not periodic). plain: a plane or disk
 * across no periodic axis (rbl_surface_plain), looked at quickly first. The crossing of the
 * surface by a centre moving from x0 to x1: +1 along its normal (a facet's winding's), -1
 * against it, 0 none. */
void rbl_periodic_half(const rbl_sim *sim, double half[3]);
int rbl_surface_plain(const rbl_flow_counter *f, const double half[3]);
int rbl_surface_crossing(const rbl_flow_counter *f, const rbl_triangle_bvh *bvh,
                         const double half[3], int plain, const double *x0, const double *x1);
int rbl_walls_wearing(const rbl_sim *sim);
/* The walls' loads at the last force evaluation, from every process's contacts (collective
 * over several processes): 7 sums a cell, the force the grains exert on it (3), the sum of
 * their normal forces (positive pressing) and of their tangential forces (3), each cell's in
 * the order of the grains' ids. The cells of wall `wall` (planes from 0, then the meshes) from
 * sums[0], or (wall < 0) every mesh's facets, mesh after mesh, then every plane's one cell. */
int rbl_walls_load_sums(const rbl_sim *sim, int wall, double *sums, rbl_error *err);
/* A cell's pressure and shear (Pa) from its 7 sums over its area (0 for no area). */
void rbl_load_cell(const double s[7], double area, double *pressure, double *shear);
/* Facet t of mesh wall `mesh`: its area where it is now, within the domain's box along the
 * periodic axes (m^2). */
double rbl_mesh_facet_area(const rbl_sim *sim, int mesh, size_t t);

/* mesh_contact.c — a sphere against a triangle mesh (the closest points: grid's triangles.c).
 * Where a sphere at p touches a mesh: a point q on it nearer than reach, the unit normal from q
 * to p (the facet's where p lies on it), the distance, and the feature. */
typedef struct rbl_mesh_touch {
    double q[3], n[3], dist;
    double share; /* of its own force it gives (share_creases: < 1 across a crease), 1 else */
    double energy; /* across a crease, the elastic energy it holds beyond its spring's (a
                      spring whose force is overlap^power), per unit of the spring's
                      stiffness (force / overlap^power); 0 else */
    uint32_t tri;
    int feature;
    /* the feature as the set of corners (a mesh's vertices; a primitive's corners, rims and
       apex) it spans, and its rank (0 a face, 1 an edge or rim, 2 a corner or apex): a feature
       lies within another of lower rank whose set holds its own */
    uint32_t fv[4];
    int nfv, rank;
} rbl_mesh_touch;
/* The touches work[0 .. n) taken nearest first (faces before edges before corners, then by
 * facet), each kept unless one kept already covers it (mesh_contact.c): at most cap into out.
 * m: the mesh whose triangles they are (two faces across an edge judged by their normals), or
 * NULL (a primitive's pieces). */
size_t rbl_touches_keep(const rbl_mesh *m, rbl_mesh_touch *work, size_t n, double reach,
                        rbl_mesh_touch *out, size_t cap);
/* The contacts among the candidate triangles, each feature once and none within another
 * touched (mesh_contact.c, the rules there), nearest first, at most cap (<= RBL_MESH_MAX_TOUCH);
 * work holds n_candidates. Two faces across a concave crease whose edge the sphere of `radius`
 * overlaps share it: their distances are raised so that their elastic forces, overlap^power
 * (1 linear, 1.5 Hertz), count the edge's once, each growing from 0 (`share`: the part of its
 * own force each keeps, by which the caller scales its dashpot). */
#define RBL_MESH_MAX_TOUCH 8
size_t rbl_mesh_contacts(const rbl_mesh *m, const uint32_t *candidates, size_t n_candidates,
                         const double p[3], double reach, double radius, double power,
                         rbl_mesh_touch *work, rbl_mesh_touch *out, size_t cap);

/* primitive.c — primitive walls (issue 73) in closed form, in their own frame: origin o, unit
 * axes e[0], e[1], e[2] (the axis or normal). A piece is a band (the segment (ra, za)-(rb, zb)
 * of the (rho, z) half-plane swept about e[2]; fa, fb its ends' feature ids, -1 where an end
 * is the centre of a flat disk) or a rectangle (about c, unit u, v, normal w, half sides a, b,
 * corner ids in the order (-,-), (+,-), (+,+), (-,+)). */
#define RBL_PRIM_PIECES 6
typedef struct rbl_prim_piece {
    int band;
    double ra, za, rb, zb;
    int fa, fb, rank_a, rank_b;
    double c[3], u[3], v[3], w[3], a, b;
    uint32_t corner[4];
    uint32_t face_v[4];
    int face_nv;
} rbl_prim_piece;
typedef struct rbl_prim_wall {
    rbl_primitive p; /* as added */
    double o[3], e[3][3];
    int n_pieces;
    rbl_prim_piece piece[RBL_PRIM_PIECES];
} rbl_prim_wall;
int rbl_prim_wall_init(rbl_prim_wall *w, const rbl_primitive *p, rbl_error *err);
/* Its drawing (facets numbered piece by piece, as rbl_prim_contacts gives a touch's `tri`). */
int rbl_prim_wall_mesh(const rbl_prim_wall *w, rbl_mesh *mesh, rbl_error *err);
size_t rbl_prim_wall_facets(const rbl_prim_wall *w); /* the facets it draws */
/* Where a sphere at own (the wall's own frame) touches it nearer than reach: as
 * rbl_mesh_contacts (no crease is shared: a primitive's creases are sharp). */
size_t rbl_prim_contacts(const rbl_prim_wall *w, const double own[3], double reach,
                         rbl_mesh_touch *out, size_t cap);
double rbl_prim_distance(const rbl_prim_wall *w, const double own[3]);
/* The frame from the origin and the tips of its three axes (a wall re-based at a stage). */
void rbl_prim_wall_set_frame(rbl_prim_wall *w, const double at[4][3]);
/* The squared distance from own to mesh wall mw (its primitive's where it is one), or bound2
 * when none is nearer. */
double rbl_mesh_wall_distance2(const rbl_mesh_wall *mw, const double own[3], double bound2);

/* What a grain costs in memory, its arrays with its pairs and their histories: 630-732 MiB at
 * 10^6 grains of one size, 456 in a gas, 972 in the 1:10 bed (peak resident, one core,
 * docs/bench/dem-1core-2026-11-23b.csv). A source that would hold more than the machine has
 * is refused before anything is allocated. */
#define RBL_GRAIN_BYTES 800.0

/* Materials a and b take the pair's own values own[slot] (law_table.h's RBL_PAIR_COEFS; NAN:
 * the rule's), all of them replaced, each checked against the law (law.c). */
int rbl_sim_set_pair_own(rbl_sim *sim, int a, int b, const double own[RBL_PAIR_N],
                         rbl_error *err);
/* The law's models are known ones and their parameters in range (law.c): those of its
 * fields; the coefficients a simulation holds (law_table.h's `held`) by rbl_sim_check_law. */
int rbl_contact_law_check_models(const rbl_contact_law *law, rbl_error *err);
/* x within coefficient row c's range, or an error naming it, the range and x. */
int rbl_law_coef_check(const rbl_law_coef_row *c, double x, rbl_error *err);
/* The farthest beyond touching a JKR contact of grains up to r_max can hold (0 without JKR). */
double rbl_jkr_reach_max(const rbl_sim *sim, double r_max);
const double *rbl_history_find(const rbl_history_map *map, uint32_t id_a, uint32_t other);
/* A pair's history seen with its bodies' order swapped: the vector slices (tangential spring,
 * rolling spring) change sign, the seed's scalar D_H does not. dst may be src. */
void rbl_history_swap(const rbl_contact_law *law, const double *src, double *dst);
void rbl_history_free(rbl_history_map *map);

/* wall_motion.c — the walls' poses at time t (planes' n and offset follow); a step's: the
 * servos travel on at their speeds, then the poses at t; after a force evaluation, the servos'
 * speeds from their loads; how far the walls may have moved towards a grain since the last
 * neighbour build (rbl_walls_built). */
void rbl_walls_move_to(rbl_sim *sim, double t);
void rbl_walls_step(rbl_sim *sim, double t);
void rbl_walls_servo(rbl_sim *sim);
double rbl_walls_moved(const rbl_sim *sim);
void rbl_walls_built(rbl_sim *sim);
/* The walls where they were at the last neighbour build (rbl_neighbor_rebuild_as_built). */
void rbl_walls_at_build(rbl_sim *sim);
/* Moving planes where the step being made began (prev_rot, prev_shift: the last force
 * evaluation's pose) and the step's pose kept in prev; called again, back (the same bits). */
void rbl_walls_planes_swap_step_start(rbl_sim *sim);
/* A wall's pose by its number (planes, then meshes). */
rbl_wall_pose *rbl_wall_pose_of(rbl_sim *sim, int wall);
/* Wall `wall` moved by `table` from the run's time t0 (its start), the wall's geometry as it
 * stands (rbl_sim_set_wall_table re-bases it first between stages; a checkpoint's read holds
 * it re-based). */
int rbl_wall_table_install(rbl_sim *sim, int wall, const rbl_wall_table *table, double t0,
                           rbl_error *err);

/* x (world) in the frame a wall was added in. */
static inline void rbl_pose_to_own(const rbl_wall_pose *p, const double x[3], double out[3])
{
    if (!p->moving) {
        out[0] = x[0], out[1] = x[1], out[2] = x[2];
        return;
    }
    double y[3] = {x[0] - p->shift[0], x[1] - p->shift[1], x[2] - p->shift[2]};
    if (!p->turning) {
        out[0] = y[0], out[1] = y[1], out[2] = y[2];
        return;
    }
    const double *c = p->m.center;
    for (int a = 0; a < 3; a++)
        y[a] -= c[a];
    for (int a = 0; a < 3; a++) /* rot^T y */
        out[a] = p->rot[0][a] * y[0] + p->rot[1][a] * y[1] + p->rot[2][a] * y[2] + c[a];
}

/* A direction of the wall's own frame (a facet's normal) in the world. */
/* The world position, at the start of the step being made, of the wall's point whose own
 * (as added) coordinates are own. */
static inline void rbl_pose_at_step_start(const rbl_wall_pose *p, const double own[3],
                                          double out[3])
{
    const double *c = p->m.center;
    double d[3] = {own[0] - c[0], own[1] - c[1], own[2] - c[2]};
    for (int a = 0; a < 3; a++)
        out[a] = (p->turning ? p->prev_rot[a][0] * d[0] + p->prev_rot[a][1] * d[1] +
                                   p->prev_rot[a][2] * d[2]
                             : d[a]) +
                 c[a] + p->prev_shift[a];
}

static inline void rbl_pose_turn(const rbl_wall_pose *p, const double v[3], double out[3])
{
    if (!p->turning) {
        out[0] = v[0], out[1] = v[1], out[2] = v[2];
        return;
    }
    for (int a = 0; a < 3; a++)
        out[a] = p->rot[a][0] * v[0] + p->rot[a][1] * v[1] + p->rot[a][2] * v[2];
}

/* walls.c */
int rbl_walls_build(rbl_sim *sim, const rbl_history_map *old, rbl_error *err);
/* Room for n contacts and grains grains; 0 on out-of-memory. */
int rbl_wall_list_reserve(rbl_wall_list *w, size_t n, size_t grains, size_t hist_width);
/* start[] from the grains of the w->n contacts (grouped by grain). */
void rbl_wall_list_index(rbl_wall_list *w, size_t grains);
void rbl_walls_free(rbl_wall_list *w);

/* forces.c — contact forces (pairs, walls). They are left partial: each grain's force and
 * torque hold the sums of the pairs where it is first, and rbl_gather_grain adds, in a fixed
 * order, its second-grain slots, its walls and gravity. The integrator does that in its own
 * sweep (one pass over the grains less per step); rbl_forces_gather does it on its own. */
int rbl_forces_compute(rbl_sim *sim, rbl_error *err);
void rbl_forces_gather(rbl_sim *sim);

/* Ask for the second-grain slots of grain k, a few grains before they are gathered: they were
 * written in pair order, scattered, and read back here grain by grain. */
static inline void rbl_gather_prefetch(const rbl_sim *sim, size_t k)
{
    const rbl_pair_list *p = &sim->pairs;
    if (!p->out) /* no pair list yet: nothing to ask for (and NULL + 0 is undefined) */
        return;
    const double *o = p->out + RBL_PAIR_OUT * p->j_start[k];
    __builtin_prefetch(o);
    __builtin_prefetch(o + 8);
    __builtin_prefetch(o + 16);
    /* and its force and torque, if it is first in a pair (a gas: a few grains, far apart) */
    const int first = p->i_start[k + 1] > p->i_start[k];
    __builtin_prefetch(first ? sim->g.force + 3 * k : o);
    __builtin_prefetch(first ? sim->g.torque + 3 * k : o);
}

/* Grain k's second-grain slots subtracted from f and added to t; returns how many touch.
 * Inlined with skip constant, so that each caller gets a loop of its own: with skip, a slot
 * of a pair that does not touch is read from a constant instead (see rbl_gather_sums). */
static inline __attribute__((always_inline)) uint32_t
rbl_gather_slots(const rbl_pair_list *p, size_t k, int skip, double f[3], double t[3])
{
    static const double no_force[RBL_PAIR_OUT];
    const double *out = p->out;
    const uint8_t *touch_j = p->touch_j;
    uint32_t count = 0;
    for (size_t e = p->j_start[k]; e < p->j_start[k + 1]; e++) {
        const double *o = skip && !touch_j[e] ? no_force : out + RBL_PAIR_OUT * e;
        f[0] -= o[0], f[1] -= o[1], f[2] -= o[2];
        t[0] += o[3], t[1] += o[4], t[2] += o[5];
        count += touch_j[e];
    }
    return count;
}

/* Grain k's complete force and torque into f, t (its contacts counted in g->contacts); the
 * force arrays are left as they are. */
static inline __attribute__((always_inline)) void rbl_gather_sums(rbl_sim *sim, size_t k,
                                                                  double f[3], double t[3])
{
    rbl_grains *g = &sim->g;
    const rbl_pair_list *p = &sim->pairs;
    const rbl_wall_list *w = &sim->wpairs;
    const double *grav = sim->cfg.gravity;
    /* A grain that is first in no listed pair has nothing in the force arrays: the pair pass
     * does not write them, and they are not read here (in a gas, most grains). */
    static const double zeros[3];
    static const uint32_t no_contacts;
    const int first = p->i_start[k + 1] > p->i_start[k];
    const double *F = first ? g->force + 3 * k : zeros, *T = first ? g->torque + 3 * k : zeros;
    f[0] = F[0], f[1] = F[1], f[2] = F[2];
    t[0] = T[0], t[1] = T[1], t[2] = T[2];
    uint32_t count = *(first ? g->contacts + k : &no_contacts);
    /* A slot of a pair that does not touch holds zeros: no branch on touching (a coin toss
     * in a dense bed), and f - 0 = f, so the sums are those of the touching slots alone. When
     * few listed pairs touch (a loose packing), the zeros are read from a constant instead:
     * most slots are then not fetched from memory. The same bits either way; the choice is
     * by speed (collapsing lattice, 2 % touching, 10^5 grains: 2.86 -> 2.27 s of integrator;
     * settled bed, 60 %: 0.23 -> 0.35 s, as each slot's address then waits on its flag). */
    if (rbl_few_touch(p))
        count += rbl_gather_slots(p, k, 1, f, t);
    else
        count += rbl_gather_slots(p, k, 0, f, t);
    for (size_t q = w->start[k]; q < w->start[k + 1]; q++) {
        if (!w->touch[q])
            continue;
        const double *o = w->out + RBL_WALL_OUT * q;
        f[0] += o[0], f[1] += o[1], f[2] += o[2];
        t[0] += o[3], t[1] += o[4], t[2] += o[5];
        count++;
    }
    double m = g->mass[k];
    if (sim->gravity.method != RBL_GRAVITY_OFF) {
        const double *ga = g->gacc + 3 * k;
        f[0] += m * (grav[0] + ga[0]), f[1] += m * (grav[1] + ga[1]);
        f[2] += m * (grav[2] + ga[2]);
    } else {
        f[0] += m * grav[0], f[1] += m * grav[1], f[2] += m * grav[2];
    }
    if (sim->bond_sum) { /* the bonds' (src/bonds/), each grain's in bond order */
        const double *b = sim->bond_sum + 6 * k;
        f[0] += b[0], f[1] += b[1], f[2] += b[2];
        t[0] += b[3], t[1] += b[4], t[2] += b[5];
    }
    if (g->with_fext) { /* the caller's (rbl_sim_external_forces), unchanged within a call */
        const double *fe = g->fext + 3 * k;
        f[0] += fe[0], f[1] += fe[1], f[2] += fe[2];
    }
    g->contacts[k] = count;
}

/* The same, stored in the force arrays. */
static inline void rbl_gather_grain(rbl_sim *sim, size_t k)
{
    double f[3], t[3];
    rbl_gather_sums(sim, k, f, t);
    double *F = sim->g.force + 3 * k, *T = sim->g.torque + 3 * k;
    F[0] = f[0], F[1] = f[1], F[2] = f[2];
    T[0] = t[0], T[1] = t[1], T[2] = t[2];
}

/* A grain's record from these values. */
static inline void rbl_pack_grain_store(rbl_packed_grain *d, const double pos[3], double radius,
                                        const double vel[3], double mass)
{
    for (int a = 0; a < 3; a++)
        d->pos[a] = pos[a], d->vel[a] = vel[a];
    d->radius = radius;
    d->mass = mass;
}

/* The mass a contact on grain k moves (its damping's effective mass): a clump sphere's is its
 * body's, as LIGGGHTS's multisphere takes it (the sphere's own, g->mass, is its share); a
 * ghost's came with it (src/parallel/ sends this). */
static inline double rbl_grain_contact_mass(const rbl_sim *sim, size_t k)
{
    const int32_t b = sim->g.body && k < sim->g.n ? sim->g.body[k] : -1;
    return b >= 0 ? sim->bodies.mass[b] : sim->g.mass[k];
}

/* Grain k of sim, with these velocities, into its packed record. */
static inline void rbl_pack_grain(rbl_packed_grain *d, const rbl_sim *sim, size_t k,
                                  const double *vel)
{
    const rbl_grains *g = &sim->g;
    rbl_pack_grain_store(d, g->pos + 3 * k, g->radius[k], vel + 3 * k,
                         rbl_grain_contact_mass(sim, k));
}

/* The same with streaming (non-temporal) stores of whole cache lines: the record is not read
 * before it is written (no read for ownership), which saves a sixth of the integrator's memory
 * traffic when the records do not fit in cache. But the records then leave the cache, and the
 * force pass reads them back from memory: worth it only for records beyond the caches
 * (RBL_STREAM_BYTES). The caller fences (rbl_stream_fence) before another thread reads them. */
#define RBL_STREAM_BYTES (16u << 20)
#if defined(__SSE2__)
static inline void rbl_pack_grain_stream(rbl_packed_grain *d, const double pos[3], double radius,
                                         const double vel[3], double mass)
{
    double *o = (double *)d;
    _mm_stream_pd(o + 0, _mm_set_pd(pos[1], pos[0]));
    _mm_stream_pd(o + 2, _mm_set_pd(radius, pos[2]));
    _mm_stream_pd(o + 4, _mm_set_pd(vel[1], vel[0]));
    _mm_stream_pd(o + 6, _mm_set_pd(mass, vel[2]));
}
#else
static inline void rbl_pack_grain_stream(rbl_packed_grain *d, const double pos[3], double radius,
                                         const double vel[3], double mass)
{
    rbl_pack_grain_store(d, pos, radius, vel, mass);
}
#endif

/* Refresh sim->packed with these velocities; 0 on out-of-memory. */
int rbl_pack_grains(rbl_sim *sim, const double *vel, const double *omega);

/* pair_pass.c — grain-grain contacts from the packed records: the first grain's force and
 * torque complete, the second grain's share in the pairs' slots (sim->forces_partial). */
void rbl_pair_pass(rbl_sim *sim);

/* wall_pass.c — grain-wall contacts: each contact's force and torque on its grain in its
 * slot (the gather adds them), histories, losses, wear, the walls' work. */
void rbl_wall_pass(rbl_sim *sim);

/* self_gravity.c — the field of the grains at the positions of step `at_step`, when it is
 * due (every cfg.every steps, or the grains changed since the last evaluation). */
int rbl_self_gravity_update(rbl_sim *sim, uint64_t at_step, rbl_error *err);

/* integrator.c */
/* Half kick and drift; with close_previous, first the previous step's closing half kick (one
 * sweep instead of two between steps; the same arithmetic, so the same bits). into: NULL, the
 * positions moved in place; else *into (room for g.cap grains) gets the new positions and
 * trades places with g.pos, so that *into then holds the positions before the drift. */
void rbl_integrate_first_half(rbl_sim *sim, int close_previous, double **into);
void rbl_integrate_predict(rbl_sim *sim);
void rbl_integrate_second_half(rbl_sim *sim);


#endif
