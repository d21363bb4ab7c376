/* rotation.h — rigid-body rotation shared by clumps (src/dem/bodies.c) and functionally defined
 * objects (src/fdo/): unit quaternions (w, x, y, z) taking body to space, their matrices, and
 * the free rotation of a rigid body over dt by the symmetric splitting into exact turns about
 * its principal axes, R1(dt/2) R2(dt/2) R3(dt) R2(dt/2) R1(dt/2) (Dullweber, Leimkuhler,
 * McLachlan, J. Chem. Phys. 107, 5840, 1997): L is conserved exactly, the energy error stays
 * bounded. Internal. */
#ifndef RBL_ROTATION_H
#define RBL_ROTATION_H

#include <math.h>
#include <string.h>

/* A uniformly random rotation from three uniform numbers in [0, 1) (Shoemake 1992). */
static inline void rbl_quat_uniform(double u1, double u2, double u3, double q[4])
{
    q[0] = sqrt(1 - u1) * sin(2 * M_PI * u2);
    q[1] = sqrt(1 - u1) * cos(2 * M_PI * u2);
    q[2] = sqrt(u1) * sin(2 * M_PI * u3);
    q[3] = sqrt(u1) * cos(2 * M_PI * u3);
}

static inline void rbl_quat_rotate(const double q[4], const double v[3], double out[3])
{
    /* v + 2 w (u x v) + 2 u x (u x v), u = (x, y, z) */
    const double *u = q + 1;
    double t[3] = {2 * (u[1] * v[2] - u[2] * v[1]), 2 * (u[2] * v[0] - u[0] * v[2]),
                   2 * (u[0] * v[1] - u[1] * v[0])};
    out[0] = v[0] + q[0] * t[0] + (u[1] * t[2] - u[2] * t[1]);
    out[1] = v[1] + q[0] * t[1] + (u[2] * t[0] - u[0] * t[2]);
    out[2] = v[2] + q[0] * t[2] + (u[0] * t[1] - u[1] * t[0]);
}

static inline void rbl_quat_rotate_back(const double q[4], const double v[3], double out[3])
{
    const double c[4] = {q[0], -q[1], -q[2], -q[3]};
    rbl_quat_rotate(c, v, out);
}

/* out = q r: the rotation r, then q (out may not alias q or r). */
static inline void rbl_quat_multiply(const double q[4], const double r[4], double out[4])
{
    out[0] = q[0] * r[0] - q[1] * r[1] - q[2] * r[2] - q[3] * r[3];
    out[1] = q[0] * r[1] + q[1] * r[0] + q[2] * r[3] - q[3] * r[2];
    out[2] = q[0] * r[2] - q[1] * r[3] + q[2] * r[0] + q[3] * r[1];
    out[3] = q[0] * r[3] + q[1] * r[2] - q[2] * r[1] + q[3] * r[0];
}

/* q <- q * (cos(a/2), sin(a/2) e_axis): a turn by a about the body's own axis. */
static inline void rbl_quat_turn_body(double q[4], int axis, double angle)
{
    double c = cos(0.5 * angle), s = sin(0.5 * angle);
    double r[4] = {c, 0, 0, 0};
    r[1 + axis] = s;
    double p[4];
    rbl_quat_multiply(q, r, p);
    memcpy(q, p, sizeof p);
}

/* The rotation matrix of q: space = R body. */
static inline void rbl_quat_matrix(const double q[4], double R[3][3])
{
    double w = q[0], x = q[1], y = q[2], z = q[3];
    R[0][0] = 1 - 2 * (y * y + z * z), R[0][1] = 2 * (x * y - w * z), R[0][2] = 2 * (x * z + w * y);
    R[1][0] = 2 * (x * y + w * z), R[1][1] = 1 - 2 * (x * x + z * z), R[1][2] = 2 * (y * z - w * x);
    R[2][0] = 2 * (x * z - w * y), R[2][1] = 2 * (y * z + w * x), R[2][2] = 1 - 2 * (x * x + y * y);
}

/* The unit quaternion of a rotation matrix (space = R body), Shepperd's choice of the largest
 * component for accuracy. */
static inline void rbl_quat_from_matrix(const double R[3][3], double q[4])
{
    double tr = R[0][0] + R[1][1] + R[2][2];
    if (tr > 0) {
        double s = 2 * sqrt(tr + 1);
        q[0] = 0.25 * s, q[1] = (R[2][1] - R[1][2]) / s, q[2] = (R[0][2] - R[2][0]) / s;
        q[3] = (R[1][0] - R[0][1]) / s;
    } else if (R[0][0] > R[1][1] && R[0][0] > R[2][2]) {
        double s = 2 * sqrt(1 + R[0][0] - R[1][1] - R[2][2]);
        q[0] = (R[2][1] - R[1][2]) / s, q[1] = 0.25 * s, q[2] = (R[0][1] + R[1][0]) / s;
        q[3] = (R[0][2] + R[2][0]) / s;
    } else if (R[1][1] > R[2][2]) {
        double s = 2 * sqrt(1 + R[1][1] - R[0][0] - R[2][2]);
        q[0] = (R[0][2] - R[2][0]) / s, q[1] = (R[0][1] + R[1][0]) / s, q[2] = 0.25 * s;
        q[3] = (R[1][2] + R[2][1]) / s;
    } else {
        double s = 2 * sqrt(1 + R[2][2] - R[0][0] - R[1][1]);
        q[0] = (R[1][0] - R[0][1]) / s, q[1] = (R[0][2] + R[2][0]) / s;
        q[2] = (R[1][2] + R[2][1]) / s, q[3] = 0.25 * s;
    }
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int a = 0; a < 4; a++)
        q[a] /= n;
}

static inline void rbl_mat_apply(const double R[3][3], const double v[3], double out[3])
{
    for (int a = 0; a < 3; a++)
        out[a] = R[a][0] * v[0] + R[a][1] * v[1] + R[a][2] * v[2];
}

/* Angular velocity in the space frame: w = R I^-1 R^T L (moment: principal, body frame). */
static inline void rbl_spin_of(const double R[3][3], const double moment[3], const double L[3],
                               double w[3])
{
    double lb[3];
    for (int a = 0; a < 3; a++)
        lb[a] = (R[0][a] * L[0] + R[1][a] * L[1] + R[2][a] * L[2]) / moment[a];
    rbl_mat_apply(R, lb, w);
}

/* The free rotation over dt with L (space frame) fixed: the flow of L_k^2 / (2 I_k) turns the
 * body about its axis k at the constant rate L_k / I_k (L_k its body component). The body-frame
 * Euler equations I w' + w x I w = 0, gyroscopic (Coriolis) term included, are what this
 * splitting integrates. */
static inline void rbl_free_rotation(double q[4], const double moment[3], const double L[3],
                                     double dt)
{
    static const int axis[5] = {0, 1, 2, 1, 0};
    static const double share[5] = {0.5, 0.5, 1.0, 0.5, 0.5};
    for (int s = 0; s < 5; s++) {
        double lb[3];
        rbl_quat_rotate_back(q, L, lb);
        int k = axis[s];
        rbl_quat_turn_body(q, k, share[s] * dt * lb[k] / moment[k]);
    }
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int a = 0; a < 4; a++)
        q[a] /= n;
}

/* The kinetic energy of rotation, sum L_k^2 / (2 I_k) over the body components of L. */
static inline double rbl_rotation_energy(const double q[4], const double moment[3],
                                         const double L[3])
{
    double lb[3];
    rbl_quat_rotate_back(q, L, lb);
    return 0.5 * (lb[0] * lb[0] / moment[0] + lb[1] * lb[1] / moment[1] + lb[2] * lb[2] / moment[2]);
}

/* The Newton steps of rbl_rotation_hold_energy, at most; each turns L_body by at most 1e-2 rad. */
#define RBL_HOLD_STEPS 4

/* The body turned, L fixed in space, by the least rotation that brings its kinetic energy back
 * to `energy`: the splitting's energy error (bounded, of order (w dt)^2) removed, so that a free
 * body keeps L and its energy to round-off; the orientation moves by no more than that error.
 * Newton steps on the sphere |L_body| = |L| along the energy's gradient (w, less its part along
 * L), at most RBL_HOLD_STEPS of them, each at most 1e-2 rad; left alone where that gradient
 * vanishes (L along a principal axis: the energy is then extremal and the splitting keeps it)
 * or where the step would be large. Returns 1 when the energy is held (to 1e-14 of it), 0 when
 * not: q is then left as it was, or turned by the steps made, and the caller scales the spin. */
static inline int rbl_rotation_hold_energy(double q[4], const double moment[3], const double L[3],
                                           double energy)
{
    double lb[3], target[3];
    rbl_quat_rotate_back(q, L, lb);
    double len2 = lb[0] * lb[0] + lb[1] * lb[1] + lb[2] * lb[2];
    if (!(len2 > 0) || !(energy > 0))
        return len2 == 0 && energy == 0;
    memcpy(target, lb, sizeof target);
    int held = 0;
    for (int it = 0; it <= RBL_HOLD_STEPS; it++) {
        double w[3], e = 0, wl = 0;
        for (int a = 0; a < 3; a++) {
            w[a] = target[a] / moment[a];
            e += 0.5 * target[a] * w[a], wl += w[a] * target[a];
        }
        double miss = energy - e;
        held = fabs(miss) <= 1e-14 * energy;
        if (fabs(miss) <= 1e-16 * energy || it == RBL_HOLD_STEPS)
            break;
        double g[3], g2 = 0;
        for (int a = 0; a < 3; a++) {
            g[a] = w[a] - wl / len2 * target[a];
            g2 += g[a] * g[a];
        }
        if (!(g2 > 0) || fabs(miss) / sqrt(g2) > 1e-2 * sqrt(len2))
            return 0;
        double t2 = 0;
        for (int a = 0; a < 3; a++) {
            target[a] += miss / g2 * g[a];
            t2 += target[a] * target[a];
        }
        for (int a = 0; a < 3; a++)
            target[a] *= sqrt(len2 / t2);
    }
    /* q <- q s with s taking target to lb: then L in the body frame is target */
    double c[3], dot = 0;
    c[0] = target[1] * lb[2] - target[2] * lb[1];
    c[1] = target[2] * lb[0] - target[0] * lb[2];
    c[2] = target[0] * lb[1] - target[1] * lb[0];
    for (int a = 0; a < 3; a++)
        dot += target[a] * lb[a];
    double s[4] = {len2 + dot, c[0], c[1], c[2]}, p[4];
    double sn = sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2] + s[3] * s[3]);
    for (int a = 0; a < 4; a++)
        s[a] /= sn;
    rbl_quat_multiply(q, s, p);
    double n = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2] + p[3] * p[3]);
    for (int a = 0; a < 4; a++)
        q[a] = p[a] / n;
    return held;
}

#endif
