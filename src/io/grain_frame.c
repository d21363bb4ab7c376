/* grain_frame.c — one frame of the grains (grains_NNNNNN.vtp): a point at each centre, in id
 * order whatever the grains' order in memory (the same bytes on any number of threads), with
 * the per-grain fields the scene chose (output.fields, docs/scenes.md). A field not chosen is
 * not computed: the stress tensor's pass over the contacts costs nothing when it is left out. */
#include "io_internal.h"
#include "../dem/dem_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The fields, in the order a frame holds them (the first eight are the defaults). */
typedef struct field_def {
    const char *name, *type;
    int components;
    size_t elem;
} field_def;

static const field_def fields[RBL_GRAIN_FIELD_COUNT] = {
    [RBL_FIELD_RADIUS] = {"radius", "Float64", 1, 8},
    [RBL_FIELD_VELOCITY] = {"velocity", "Float64", 3, 8},
    [RBL_FIELD_ANGULAR_VELOCITY] = {"angular_velocity", "Float64", 3, 8},
    [RBL_FIELD_ID] = {"id", "UInt32", 1, 4},
    [RBL_FIELD_CONTACT_FORCE] = {"contact_force", "Float64", 3, 8},
    [RBL_FIELD_CONTACTS] = {"contacts", "UInt32", 1, 4},
    [RBL_FIELD_CLUMP] = {"clump", "Int64", 1, 8},
    [RBL_FIELD_STRESS] = {"stress", "Float64", 9, 8},
    [RBL_FIELD_MASS] = {"mass", "Float64", 1, 8},
    [RBL_FIELD_MATERIAL] = {"material", "Int32", 1, 4},
    [RBL_FIELD_CONTACT_TORQUE] = {"contact_torque", "Float64", 3, 8},
    [RBL_FIELD_KINETIC_ENERGY] = {"kinetic_energy", "Float64", 1, 8},
};

unsigned rbl_grain_field_bit(const char *name)
{
    for (int f = 0; f < RBL_GRAIN_FIELD_COUNT; f++)
        if (strcmp(name, fields[f].name) == 0)
            return 1u << f;
    return 0;
}

const char *rbl_grain_field_names(void)
{
    return "radius, velocity, angular_velocity, id, contact_force, contacts, clump, stress, "
           "mass, material, contact_torque, kinetic_energy";
}

void rbl_grain_frame_layout(unsigned chosen, rbl_vtp_layout *l)
{
    memset(l, 0, sizeof *l);
    for (int f = 0; f < RBL_GRAIN_FIELD_COUNT; f++)
        if (chosen & 1u << f)
            l->point[l->n_point++] = (rbl_vtp_array){fields[f].type, fields[f].name,
                                                     fields[f].components, fields[f].elem, NULL};
}

/* What the chosen fields need beyond the view: per grain, in memory order. */
typedef struct grain_extras {
    double *net, *stress; /* contact forces (3), stress tensors (9) */
} grain_extras;

/* Field f of the grain at memory index k, into out. */
static void field_value(int f, const rbl_sim *sim, const rbl_grains_view *v,
                        const grain_extras *x, size_t k, void *out)
{
    double *d = out;
    switch (f) {
    case RBL_FIELD_RADIUS:
        d[0] = v->radius[k];
        break;
    case RBL_FIELD_VELOCITY:
        memcpy(d, v->vel + 3 * k, 3 * sizeof *d);
        break;
    case RBL_FIELD_ANGULAR_VELOCITY:
        memcpy(d, v->omega + 3 * k, 3 * sizeof *d);
        break;
    case RBL_FIELD_ID:
        *(uint32_t *)out = v->id[k];
        break;
    case RBL_FIELD_CONTACT_FORCE:
        memcpy(d, x->net + 3 * k, 3 * sizeof *d);
        break;
    case RBL_FIELD_CONTACTS:
        *(uint32_t *)out = v->contacts[k];
        break;
    case RBL_FIELD_CLUMP: { /* named by its first sphere's id: the same on every process */
        const rbl_bodies *b = &sim->bodies;
        *(int64_t *)out = v->body[k] >= 0 ? (int64_t)b->member_id[b->start[v->body[k]]] : -1;
        break;
    }
    case RBL_FIELD_STRESS:
        memcpy(d, x->stress + 9 * k, 9 * sizeof *d);
        break;
    case RBL_FIELD_MASS:
        d[0] = v->mass[k];
        break;
    case RBL_FIELD_MATERIAL:
        *(int32_t *)out = v->material[k];
        break;
    case RBL_FIELD_CONTACT_TORQUE: /* gravity and external forces act at the centre */
        memcpy(d, v->torque + 3 * k, 3 * sizeof *d);
        break;
    case RBL_FIELD_KINETIC_ENERGY: { /* the sphere's own: 1/2 m v^2 + 1/2 (2/5 m r^2) w^2 */
        const double *u = v->vel + 3 * k, *w = v->omega + 3 * k, m = v->mass[k];
        const double r = v->radius[k];
        if (v->body[k] >= 0) { /* a clump's sphere: its share (its mass's) of the clump's */
            const size_t b = (size_t)v->body[k];
            d[0] = m / sim->bodies.mass[b] * rbl_body_kinetic(sim, b);
            break;
        }
        d[0] = 0.5 * m * (u[0] * u[0] + u[1] * u[1] + u[2] * u[2]) +
               0.2 * m * r * r * (w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
        break;
    }
    }
}

int rbl_grain_frame_write(const char *path, const rbl_sim *sim, unsigned chosen, rbl_error *err)
{
    rbl_grains_view v;
    rbl_sim_grains(sim, &v);
    const size_t n = v.n, m = n ? n : 1;
    rbl_vtp_layout l;
    rbl_grain_frame_layout(chosen, &l);
    grain_extras x = {NULL, NULL};
    double *pos = malloc(3 * m * sizeof *pos);
    uint64_t *order = rbl_grains_id_order(&v);
    int rc = pos && order ? RBL_OK : RBL_ENOMEM;
    if (rc == RBL_OK && chosen & 1u << RBL_FIELD_CONTACT_FORCE) {
        if ((x.net = malloc(3 * m * sizeof *x.net)))
            rbl_sim_contact_forces(sim, x.net); /* contacts only: no gravity, uniform or self */
        else
            rc = RBL_ENOMEM;
    }
    if (rc == RBL_OK && chosen & 1u << RBL_FIELD_STRESS) {
        if ((x.stress = malloc(9 * m * sizeof *x.stress)))
            rc = rbl_sim_grain_stress(sim, x.stress, err);
        else
            rc = RBL_ENOMEM;
    }
    int a = 0;
    for (int f = 0; rc == RBL_OK && f < RBL_GRAIN_FIELD_COUNT; f++) {
        if (!(chosen & 1u << f))
            continue;
        const size_t width = (size_t)fields[f].components * fields[f].elem;
        unsigned char *data = malloc(m * width);
        if (!data) {
            rc = RBL_ENOMEM;
            break;
        }
        for (size_t o = 0; o < n; o++)
            field_value(f, sim, &v, &x, (size_t)(order[o] & UINT32_MAX), data + o * width);
        l.point[a++].data = data;
    }
    if (rc == RBL_OK) {
        for (size_t o = 0; o < n; o++)
            memcpy(pos + 3 * o, v.pos + 3 * (size_t)(order[o] & UINT32_MAX), 3 * sizeof *pos);
        rbl_vtp_polydata pd = {.n_points = n, .points = pos, .arrays = l.point,
                               .n_arrays = l.n_point};
        rc = rbl_vtp_polydata_write(path, &pd, err);
    } else if (rc == RBL_ENOMEM) {
        rc = rbl_error_set(err, RBL_ENOMEM, "%s: out of memory for %zu grains", path, n);
    }
    for (int k = 0; k < l.n_point; k++)
        free((void *)l.point[k].data);
    free(pos), free(order), free(x.net), free(x.stress);
    return rc;
}
