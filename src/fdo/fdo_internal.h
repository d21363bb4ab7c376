/* fdo_internal.h — what the files of functionally defined objects share (seed 003, SPEC FO):
 * small 3x3 symmetric algebra and the quadric of a placed ellipsoid. Internal. */
#ifndef RBL_FDO_INTERNAL_H
#define RBL_FDO_INTERNAL_H

#include "../shape/shape_internal.h"

/* A symmetric 3x3 matrix as its six entries: xx, yy, zz, xy, xz, yz. */
typedef double rbl_sym3[6];

static inline void rbl_sym3_apply(const rbl_sym3 m, const double v[3], double out[3])
{
    out[0] = m[0] * v[0] + m[3] * v[1] + m[4] * v[2];
    out[1] = m[3] * v[0] + m[1] * v[1] + m[5] * v[2];
    out[2] = m[4] * v[0] + m[5] * v[1] + m[2] * v[2];
}

static inline double rbl_sym3_form(const rbl_sym3 m, const double v[3])
{
    double w[3];
    rbl_sym3_apply(m, v, w);
    return rbl_dot3(v, w);
}

static inline double rbl_sym3_det(const rbl_sym3 m)
{
    return m[0] * (m[1] * m[2] - m[5] * m[5]) - m[3] * (m[3] * m[2] - m[5] * m[4]) +
           m[4] * (m[3] * m[5] - m[1] * m[4]);
}

/* Solve m x = b for a symmetric positive definite m (Cholesky); 0 if m is not. */
int rbl_sym3_solve_spd(const rbl_sym3 m, const double b[3], double x[3]);

/* Two unit tangents t1, t2 completing the unit n to a right-handed frame (n, t1, t2). */
static inline void rbl_fdo_tangents(const double n[3], double t1[3], double t2[3])
{
    int axis = fabs(n[0]) < fabs(n[1]) ? (fabs(n[0]) < fabs(n[2]) ? 0 : 2)
                                       : (fabs(n[1]) < fabs(n[2]) ? 1 : 2);
    double e[3] = {0, 0, 0};
    e[axis] = 1;
    rbl_cross3(n, e, t1);
    double len = sqrt(rbl_dot3(t1, t1));
    for (int a = 0; a < 3; a++)
        t1[a] /= len;
    rbl_cross3(n, t1, t2);
}

/* R diag(d) R^T for the rotation of q (body -> space). */
void rbl_sym3_rotated_diagonal(const double q[4], const double d[3], rbl_sym3 out);

/* ---- shapes (fdo_shape.c, fdo_support.c) ---- */

/* The quadratic part P, linear part p and constant c of a perturbing quadric:
 * Q(x) = x^T P x + 2 p . x + c. */
static inline void rbl_fdo_quadric_parts(const rbl_fdo_perturbation *r, rbl_sym3 P, double p[3],
                                         double *c)
{
    P[0] = r->q[0], P[1] = r->q[1], P[2] = r->q[2];
    P[3] = r->q[3], P[4] = r->q[4], P[5] = r->q[5];
    p[0] = r->q[6], p[1] = r->q[7], p[2] = r->q[8];
    *c = r->q[9];
}

static inline double rbl_fdo_quadric_value(const rbl_fdo_perturbation *r, const double x[3])
{
    const double *q = r->q;
    return q[0] * x[0] * x[0] + q[1] * x[1] * x[1] + q[2] * x[2] * x[2] +
           2 * (q[3] * x[0] * x[1] + q[4] * x[0] * x[2] + q[5] * x[1] * x[2] + q[6] * x[0] +
                q[7] * x[1] + q[8] * x[2]) +
           q[9];
}

/* Where a bounded quadric (P negative definite) is positive: the ellipsoid (x - centre)^T (-P)
 * (x - centre) <= top, with top = Q(centre) its largest value. 0 if P is not negative definite. */
int rbl_fdo_positive_region(const rbl_fdo_perturbation *r, double centre[3], double *top,
                            rbl_sym3 minus_P);
/* The factor s >= 1 by which the base ellipsoid, scaled about its centre, holds the whole
 * object: inside, F = 1 - rho^2 >= -sum a_i Q_i^3 >= -sum_(a_i > 0) a_i top_i^3. */
double rbl_fdo_enclosing_scale(const rbl_fdo_shape *shape);
/* The same semi-axes and the same perturbations, bit for bit (unused slots not compared). */
int rbl_fdo_shape_equal(const rbl_fdo_shape *a, const rbl_fdo_shape *b);
/* rbl_fdo_object_contact descending from a given unit normal (from a to b) instead of the
 * base ellipsoids' (NULL): the last step's, for a pair that stays in contact. It stops as soon
 * as d(n) < -apart along some n: the objects are then further apart than that (their depth is
 * at most d(n), which out->depth gives), so a pair the broad phase let through but which is
 * not near costs a few supports instead of the whole descent. */
void rbl_fdo_object_contact_from(const rbl_fdo_object *a, const rbl_fdo_object *b,
                                 const double *normal, double apart, rbl_fdo_contact *out);
/* The smallest feature of a shape: the base's shortest semi-axis or a perturbation's positive
 * region's shortest axis (at least sqrt(top / trace(-P))). */
double rbl_fdo_feature_size(const rbl_fdo_shape *shape);
/* The support point of a shape along the unit u, both in its own frame; 0 if no start
 * converged (x is then the best point found). */
int rbl_fdo_support_local(const rbl_fdo_shape *shape, const double u[3], double x[3]);

/* ---- the impulse engine (fdo_sim.c, fdo_detect.c, fdo_resolve.c) ---- */

/* One side of a contact, as its object sees it: normal n points into the object (the way it
 * must move to separate), point p, depth > 0 overlap or < 0 gap. other is the partner's index,
 * or RBL_FDO_WALL + wall index (the planes, then the tubes). */
#define RBL_FDO_WALL 0x80000000u

static inline int rbl_fdo_is_wall(uint32_t other) { return other >= RBL_FDO_WALL; }

typedef struct rbl_fdo_side {
    uint32_t other;
    double point[3];
    double normal[3];
    double depth;
} rbl_fdo_side;

/* One contact as one of its objects sees it. "own" is the object, "other" its partner (absent
 * for a plane). Directions are generalised, [d; r x d], signed for the object they move. */
typedef struct rbl_fdo_row {
    uint32_t other;
    int active, bounce;
    double n[3], t1[3], t2[3];      /* the contact's normal (into big) and tangents: t1
                                       against the slip (contact_frame) */
    double r1[3], r2[3];            /* tangents of the rolling polygon: r1 against the roll */
    double Jn[6], Jt1[6], Jt2[6];   /* own directions */
    double On[6], Ot1[6], Ot2[6];   /* the other's directions */
    double Wn[6], Wt1[6], Wt2[6];   /* M^-1 J, own */
    double Wr1[3], Wr2[3];          /* I^-1 r, own: rolling */
    double Wd[3], OWd[3];           /* I^-1 n, own and the other's: drilling */
    double OWn[6], OWt1[6], OWt2[6]; /* M^-1 J, the other's (Gauss-Seidel moves both) */
    double OWr1[3], OWr2[3];
    size_t twin;                    /* the same contact's row on the other's side */
    size_t owner;                   /* the object whose row this is */
    int color;                      /* its colour (Gauss-Seidel) */
    double last_change;             /* its update's change in its last Gauss-Seidel pass */
    double own_n, own_t[3], own_r[3], own_d; /* own J M^-1 J^T: normal; tangential and rolling
                                                2x2; drilling */
    double oth_n, oth_t[3], oth_r[3], oth_d; /* the same, other */
    double sign;                    /* +1: own is big (or the contact is a plane), -1: small */
    double k_n, Kt[3], Kr[3], Kd;   /* mass-split: count_own own + count_other other */
    double drill;                   /* the drilling moment's bound per unit normal impulse, m:
                                       (3 pi / 16) mu a for the patch radius a */
    double target, bounce_target, push_target; /* closing; leaving after a bounce; push */
    double gap;                     /* of a contact left out as open, m (else 0) */
    double lambda, P[2], A[2], D, push; /* normal, friction, rolling, drilling (about n, on big),
                                           push impulses */
    const struct rbl_fdo_memory *memory; /* last step's record of this contact, or NULL */
} rbl_fdo_row;

/* What a contact leaves for the next step: its impulses as world vectors (`rolling` the whole
 * angular impulse: rolling across the normal, drilling along it), and its normal (into the
 * object of larger index), from which a perturbed pair's contact is refined next. */
typedef struct rbl_fdo_memory {
    uint32_t other;
    double lambda, friction[3], rolling[3], normal[3];
} rbl_fdo_memory;

struct rbl_fdo_sim {
    rbl_fdo_params p;
    size_t n, cap;
    /* per object */
    rbl_fdo_shape *shape;
    double *semi;       /* 3: base ellipsoid semi-axes */
    double *mass;       /* kg */
    double *moment;     /* 3: principal moments, body frame */
    double *bound;      /* radius of the bounding sphere about the centre */
    double *reach;      /* of this step: how far the object's surface may move in it, twice
                           over, plus 5 slops (precompute); a pair's margin is the sum of its
                           two, a wall's twice the object's */
    double *pos;        /* 3: centre of mass */
    double *quat;       /* 4: body -> space */
    double *vel;        /* 3 */
    double *angmom;     /* 3: angular momentum, space frame */
    double *vel_free;   /* 6: velocity and spin after the non-contact forces (eq. 4) */
    double *vel_new;    /* 6: after the contacts (eq. 5) */
    double *push;       /* 6: pseudo-velocity that removes overlaps (not kept) */
    double *spin_gain;  /* 3: angular momentum the push gives back (fdo_resolve.c) */
    double *vel_spare;  /* 6: the second buffer of the Jacobi passes */
    double *vel_compressed; /* 6: after the compression phase, before the bounces */
    double *end_quat;   /* 4: the orientation the step will end with (fdo_end_depth.c) */
    double *frame;      /* 7, perturbed objects: the shape's frame in the body's (the principal
                           axes about the centre of mass): its origin, its rotation */
    /* the last shape added and its sampled mass properties */
    int cached;
    rbl_fdo_shape cached_shape;
    double cached_density;
    rbl_mass_properties cached_props;
    /* planes */
    size_t n_planes;
    double *plane;      /* 4: n, offset */
    size_t n_tubes;
    double *tube;       /* 8: from, unit axis, length, radius */
    /* contacts of this step, grouped by object (CSR over start) */
    rbl_fdo_side *side;
    size_t n_sides, cap_sides;
    size_t *start;
    rbl_fdo_contact *found; /* narrow-phase results of this step: pairs, then planes */
    size_t cap_found;
    size_t *fill, cap_fill;
    /* the resolution's rows (one per side), active contacts per object, and the impulses
     * kept from the previous step for the warm start (CSR by object, memory_objects of them) */
    rbl_fdo_row *rows;
    size_t cap_rows;
    size_t *active_count, cap_active_count;
    rbl_fdo_memory *memory;
    size_t cap_memory;
    size_t *memory_start, cap_memory_start, memory_objects;
    size_t *cluster, cap_cluster;       /* union-find of the energy cap */
    double *cluster_sums;
    size_t cap_cluster_sums;
    unsigned char *settled;             /* 2 per object: settled in the last pass, the next */
    size_t cap_settled;
    /* Gauss-Seidel: the contacts (each once, by its row on the bigger object's side) in
     * colours that share no object, colour by colour (fdo_gauss_seidel.c) */
    size_t *colored, cap_colored, *color_start, cap_color_start, n_colors;
    uint64_t *color_mask;
    size_t cap_color_mask;
    double *moved;                      /* 2 per object: what the contacts changed, by pass */
    size_t parallel_colour;             /* contacts in a colour from which threads share it */
    size_t cap_moved;
    rbl_cd_workspace *workspace;
    rbl_elements spheres;
    rbl_pairs pairs;
    double smallest_semi;
    double slop; /* of this step, m */
    int threads;
    rbl_fdo_stats stats;
};

/* Contact detection: broad phase on bounding spheres through the library's grid, narrow phase
 * per pair and per plane; fills sim->side and sim->start (fdo_detect.c). */
int rbl_fdo_detect(rbl_fdo_sim *sim, rbl_error *err);
/* The restitution phase held to the energy it may return: in each cluster of touching objects
 * at most e^2 times what the compression phase took (fdo_energy.c). Returns the clusters held. */
size_t rbl_fdo_cap_restitution(rbl_fdo_sim *sim, int *failed);
/* Each object's contacts resolved into sim->vel_new and sim->push (fdo_resolve.c). */
int rbl_fdo_resolve(rbl_fdo_sim *sim, rbl_error *err);
/* One contact's update from the velocities Vk (the row's object's) and Vo (its partner's, NULL
 * for a wall), its changes added to Nk and No where not NULL; returns the largest change of
 * its relative velocity (fdo_resolve.c). The push's likewise. */
double rbl_fdo_contact_update(const rbl_fdo_sim *sim, rbl_fdo_row *w, const double *Vk,
                              const double *Vo, double *Nk, double *No);
double rbl_fdo_push_update(rbl_fdo_row *w, const double *Vk, const double *Vo, double *Nk,
                           double *No);
/* Jacobi passes of `which` (0: velocities, 1: push) from *result, alternating with
 * sim->vel_spare, until no contact changes by more than `tolerance` or `budget` passes are made;
 * *result ends as the buffer holding the answer. Returns the passes made (fdo_jacobi.c). */
int rbl_fdo_jacobi(rbl_fdo_sim *sim, int which, double tolerance, int budget, double **result,
                   int *converged);
/* The active contacts coloured so that no two of a colour share an object; 0 when out of
 * memory (fdo_gauss_seidel.c). */
int rbl_fdo_color(rbl_fdo_sim *sim);
/* Projected Gauss-Seidel passes of `which` (0: velocities, 1: push) over the coloured contacts,
 * in place on V, until no contact changes by more than `tolerance` or `budget` passes are
 * made; each contact's row on the other side then holds the same impulses. Returns the passes
 * made. */
int rbl_fdo_gauss_seidel(rbl_fdo_sim *sim, int which, double tolerance, int budget, double *V,
                         int *converged);

/* Room for twice the objects in every per-object array (fdo_sim.c); 0 when out of memory. */
int rbl_fdo_grow_objects(rbl_fdo_sim *sim);
/* The spin of object k from its angular momentum (space frame). */
void rbl_fdo_spin(const rbl_fdo_sim *sim, size_t k, double w[3]);
/* Object k placed by its shape's frame (for an ellipsoid, its centre and body frame). */
void rbl_fdo_object_of(const rbl_fdo_sim *sim, size_t k, rbl_fdo_object *o);
/* The same, its body turned to the orientation q (body -> space) about its centre of mass. */
void rbl_fdo_object_at(const rbl_fdo_sim *sim, size_t k, const double q[4], rbl_fdo_object *o);
/* Object k's orientation q and angular momentum L (space frame) at the end of the step, from
 * its spin w after the contacts, turned by the push's spin `push` and given back the angular
 * momentum `gain` (either NULL: none): the free rotation, then the energy of rotation the
 * contacts left held by a least turn at fixed L, or the spin scaled down to it (fdo_sim.c). */
void rbl_fdo_turn(const rbl_fdo_sim *sim, size_t k, const double w[3], const double *push,
                  const double *gain, double q[4], double L[3]);
/* Each contact's depth at the end of the step predicted from the velocities V with the
 * objects' turns (fdo_end_depth.c). Before the push: each active contact's push asked for
 * what would lie beyond the bound, and the contacts left out as open that would end beyond it
 * taken in for the push; returns the sides taken in. After it, with the push P and the angular
 * momentum it gives back: what still lies beyond (the energy hold turns back much of the
 * push's own turn) taken off by moving the objects apart along the normal, the centre of mass
 * kept, added to P; returns the contacts so moved, *taken counts the sides taken in. */
size_t rbl_fdo_hold_end_depths(rbl_fdo_sim *sim, const double *V);
size_t rbl_fdo_project_end_depths(rbl_fdo_sim *sim, const double *V, double *P, size_t *taken);
/* From a perturbed shape's mass properties: the shape's frame in the body frame (the
 * principal axes about the centre of mass) as its origin and rotation, frame[0..6], and the
 * rotation `principal` taking the body frame to the shape's (its inverse). */
void rbl_fdo_frame_of(const rbl_mass_properties *props, double frame[7], double principal[4]);

#endif
