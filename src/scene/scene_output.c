/* scene_output.c — a scene's `output` section (docs/scenes.md): the folder, the intervals of
 * frames, thermo rows and checkpoints, the end state's file, the shells and layers, the
 * grains' fields in each frame and the contact network. */
#include "yaml_read.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A name or a list of names (a scalar is a list of one), each passed to take(); an empty list
 * is refused. */
static int names(rbl_yaml_ctx *c, yaml_node_t *n, const char *key,
                 int (*take)(rbl_yaml_ctx *c, yaml_node_t *name, void *out), void *out)
{
    if (n->type == YAML_SCALAR_NODE)
        return take(c, n, out);
    if (n->type != YAML_SEQUENCE_NODE || n->data.sequence.items.start == n->data.sequence.items.top)
        return rbl_yaml_fail(c, n, RBL_EPARSE, "'%s' must be a name or a list of names", key);
    for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top;
         it++) {
        yaml_node_t *item = rbl_yaml_node(c, *it);
        int rc = item && item->type == YAML_SCALAR_NODE
                     ? take(c, item, out)
                     : rbl_yaml_fail(c, item ? item : n, RBL_EPARSE,
                                     "'%s' must be a list of names", key);
        if (rc != RBL_OK)
            return rc;
    }
    return RBL_OK;
}

static int take_field(rbl_yaml_ctx *c, yaml_node_t *name, void *out)
{
    unsigned *fields = out, bit = rbl_grain_field_bit(rbl_yaml_scalar(name));
    char hint[RBL_DID_YOU_MEAN_MAX];
    if (!bit)
        return rbl_yaml_fail(c, name, RBL_EPARSE, "no grain field of this name: '%s' (fields: %s)%s",
                             rbl_yaml_scalar(name), rbl_grain_field_names(),
                             rbl_did_you_mean_list(hint, rbl_yaml_scalar(name),
                                                   rbl_grain_field_names()));
    if (*fields & bit)
        return rbl_yaml_fail(c, name, RBL_EPARSE, "'%s' is listed twice",
                             rbl_yaml_scalar(name));
    *fields |= bit;
    return RBL_OK;
}

/* fields: the grains' arrays in each frame (their position is always there). */
static int parse_fields(rbl_yaml_ctx *c, yaml_node_t *n)
{
    unsigned fields = 0;
    int rc = names(c, n, "fields", take_field, &fields);
    if (rc == RBL_OK)
        c->s->frame_fields = fields;
    return rc;
}

static int take_format(rbl_yaml_ctx *c, yaml_node_t *name, void *out)
{
    int *network = out;
    const char *v = rbl_yaml_scalar(name);
    const int bit = strcmp(v, "vtp") == 0   ? RBL_NETWORK_VTP
                    : strcmp(v, "csv") == 0 ? RBL_NETWORK_CSV
                    : strcmp(v, "bin") == 0 ? RBL_NETWORK_BIN
                                            : 0;
    if (!bit)
        return rbl_yaml_fail(c, name, RBL_EPARSE,
                             "'contacts' takes vtp, csv, bin, a list of them or false: '%s'", v);
    if (*network & bit)
        return rbl_yaml_fail(c, name, RBL_EPARSE, "'%s' is listed twice", v);
    *network |= bit;
    return RBL_OK;
}

static int take_column(rbl_yaml_ctx *c, yaml_node_t *name, void *out)
{
    unsigned *columns = out, bit = rbl_contact_column_bit(rbl_yaml_scalar(name));
    char hint[RBL_DID_YOU_MEAN_MAX];
    if (!bit)
        return rbl_yaml_fail(c, name, RBL_EPARSE, "no contact column of this name: '%s' "
                             "(columns: %s)%s", rbl_yaml_scalar(name), rbl_contact_column_names(),
                             rbl_did_you_mean_list(hint, rbl_yaml_scalar(name),
                                                   rbl_contact_column_names()));
    if (*columns & bit)
        return rbl_yaml_fail(c, name, RBL_EPARSE, "'%s' is listed twice", rbl_yaml_scalar(name));
    *columns |= bit;
    return RBL_OK;
}

static int take_material(rbl_yaml_ctx *c, yaml_node_t *name, void *out)
{
    rbl_contact_filter *f = out;
    const char *v = rbl_yaml_scalar(name);
    for (int i = 0; i < c->s->n_materials; i++)
        if (strcmp(v, c->s->material_names[i]) == 0) {
            for (int k = 0; k < f->n_materials; k++)
                if (f->materials[k] == i)
                    return rbl_yaml_fail(c, name, RBL_EPARSE, "'%s' is listed twice", v);
            if (f->n_materials == RBL_CONTACT_FILTER_MATERIALS)
                return rbl_yaml_fail(c, name, RBL_ERANGE, "contacts: more than %d materials",
                                     RBL_CONTACT_FILTER_MATERIALS);
            f->materials[f->n_materials++] = i;
            return RBL_OK;
        }
    char hint[RBL_DID_YOU_MEAN_MAX];
    return rbl_yaml_fail(c, name, RBL_EPARSE, "no material of this name: '%s'%s", v,
                         rbl_did_you_mean(hint, v, (const char *const *)c->s->material_names,
                                          c->s->n_materials));
}

/* contacts: {format, columns, region, materials, only, min_normal_force} (issue 74). */
static int parse_contacts_map(rbl_yaml_ctx *c, yaml_node_t *n)
{
    static const char *const keys[] = {"format", "columns", "region", "materials", "only",
                                       "min_normal_force", NULL};
    rbl_scene *s = c->s;
    rbl_contact_filter *f = &s->contact_filter;
    memset(f, 0, sizeof *f);
    int network = 0, rc;
    unsigned columns = 0;
    yaml_node_t *format = rbl_yaml_get(c, n, "format"), *cols = rbl_yaml_get(c, n, "columns");
    yaml_node_t *region = rbl_yaml_get(c, n, "region"), *mats = rbl_yaml_get(c, n, "materials");
    yaml_node_t *only = rbl_yaml_get(c, n, "only");
    if ((rc = rbl_yaml_keys_known(c, n, "contacts", keys)) != RBL_OK ||
        (format && (rc = names(c, format, "format", take_format, &network)) != RBL_OK) ||
        (cols && (rc = names(c, cols, "columns", take_column, &columns)) != RBL_OK) ||
        (mats && (rc = names(c, mats, "materials", take_material, f)) != RBL_OK) ||
        (rc = rbl_yaml_opt_number(c, n, "min_normal_force", &f->fn_min, 0.0, 0, INFINITY)))
        return rc;
    if (region) {
        if (region->type != YAML_MAPPING_NODE)
            return rbl_yaml_fail(c, region, RBL_EPARSE, "contacts: 'region' is a box (min, max), "
                                 "a 'cylinder' or a 'sphere'");
        static const char *const region_keys[] = {"min", "max", "cylinder", "sphere", NULL};
        if ((rc = rbl_yaml_keys_known(c, region, "region", region_keys)) != RBL_OK ||
            (rc = rbl_scene_region_shape(c, region, "contacts: region", &f->region)) != RBL_OK)
            return rc;
        f->has_region = 1;
    }
    if (only) {
        const char *v = rbl_yaml_scalar(only);
        f->only = v && strcmp(v, "grains") == 0 ? RBL_CONTACTS_GRAINS
                  : v && strcmp(v, "walls") == 0 ? RBL_CONTACTS_WALLS
                                                 : 0;
        if (!f->only)
            return rbl_yaml_fail(c, only, RBL_EPARSE, "contacts: 'only' takes grains or walls: "
                                 "'%s'", v ? v : "?");
    }
    s->network = network ? network : RBL_NETWORK_VTP;
    s->contact_columns = columns;
    s->contact_filtered = region || mats || only || f->fn_min > 0.0;
    return RBL_OK;
}

/* contacts: the contact network with each frame, as vtp (ParaView), csv (a table), bin (a
 * binary table) or several; true is vtp, false none; a mapping adds columns and filters. */
static int parse_contacts(rbl_yaml_ctx *c, yaml_node_t *n)
{
    const char *v = rbl_yaml_scalar(n);
    c->s->contact_columns = 0, c->s->contact_filtered = 0;
    if (n->type == YAML_MAPPING_NODE)
        return parse_contacts_map(c, n);
    if (v && (strcmp(v, "true") == 0 || strcmp(v, "false") == 0)) {
        c->s->network = strcmp(v, "true") == 0 ? RBL_NETWORK_VTP : 0;
        return RBL_OK;
    }
    int network = 0;
    int rc = names(c, n, "contacts", take_format, &network);
    if (rc == RBL_OK)
        c->s->network = network;
    return rc;
}

/* layers: {axis, count, min, max}: slabs across an axis, as columns of thermo.csv */
static int parse_layers(rbl_yaml_ctx *c, yaml_node_t *n)
{
    static const char *const keys[] = {"axis", "count", "min", "max", NULL};
    rbl_layer_options *lo = &c->s->layers;
    double count = 0.0;
    int rc;
    if ((rc = rbl_yaml_keys_known(c, n, "layers", keys)) ||
        (rc = rbl_yaml_req_number(c, n, "count", &count, 1.0, 0, "layers")) ||
        (rc = rbl_yaml_opt_number(c, n, "count", &count, 1.0, 0, 1000.0)) ||
        (rc = rbl_yaml_req_number(c, n, "min", &lo->lo, -INFINITY, 0, "layers")) ||
        (rc = rbl_yaml_req_number(c, n, "max", &lo->hi, -INFINITY, 0, "layers")))
        return rc;
    if (count != floor(count))
        return rbl_yaml_fail(c, rbl_yaml_get(c, n, "count"), RBL_ERANGE,
                             "'count' must be a whole number: '%s'",
                             rbl_yaml_scalar(rbl_yaml_get(c, n, "count")));
    if (!(lo->hi > lo->lo))
        return rbl_yaml_fail(c, rbl_yaml_get(c, n, "max"), RBL_ERANGE,
                             "layers: 'max' must exceed 'min': '%s'",
                             rbl_yaml_scalar(rbl_yaml_get(c, n, "max")));
    yaml_node_t *a = rbl_yaml_get(c, n, "axis");
    const char *v = a ? rbl_yaml_scalar(a) : "z";
    if (!v || strlen(v) != 1 || v[0] < 'x' || v[0] > 'z')
        return rbl_yaml_fail(c, a, RBL_EPARSE, "layers: 'axis' must be x, y or z: '%s'",
                             v ? v : "?");
    lo->axis = v[0] - 'x';
    lo->count = (size_t)count;
    return RBL_OK;
}

/* cg: {cells, width, kernel, min, max, every, samples, profile, average}: coarse-grained fields
 * (docs/cg.md). The grid's box defaults to the domain's (an open domain must give it). */
/* The kernel's reach against the grid (docs/cg.md "Choosing the width"): wider than the grid's
 * box, every node weighs every grain alike and the fields are the grains spread over a ball
 * larger than the box (width 1e9: 4e-31 kg/m^3), refused; narrower than two node spacings, the
 * grid's sums are not the kernel's integrals (a grain's mass on the grid measured 0.98-1.01 of
 * it at a reach of 2 spacings, 0.16-2.0 at 1, and nothing at all below half a cell's diagonal:
 * width 1e-12 gives fields of zeros), warned. */
static int cg_width_check(rbl_yaml_ctx *c, yaml_node_t *n, const rbl_cg_options *o, int given)
{
    const rbl_scene *s = c->s;
    if (!given && s->cfg.open)
        return RBL_OK; /* no box yet: refused when the run starts */
    const double *lo = given ? o->lo : s->cfg.lo, *hi = given ? o->hi : s->cfg.hi;
    const double reach = o->kernel == RBL_CG_LUCY ? o->width : 3.0 * o->width;
    double diagonal = 0.0, half_cell = 0.0, spacing = 0.0, extent[3], step[3];
    int axis = 0;
    rbl_scene_cg_lengths(s, lo, hi, o->cells, extent, step);
    for (int a = 0; a < 3; a++) {
        const double h = s->cg_average[a] ? 0.0 : step[a];
        diagonal += extent[a] * extent[a];
        half_cell += 0.25 * h * h;
        if (h > spacing)
            spacing = h, axis = a;
    }
    diagonal = sqrt(diagonal), half_cell = sqrt(half_cell);
    const char *what = o->kernel == RBL_CG_LUCY ? "" : " (3 standard deviations)";
    yaml_node_t *at = rbl_yaml_get(c, n, "width");
    if (reach > diagonal)
        return rbl_yaml_fail(c, at, RBL_ERANGE,
                             "cg: the kernel reaches %g m%s, beyond the grid's whole box (its "
                             "diagonal is %g m): every node would weigh every grain alike and "
                             "the fields would be the grains spread over a ball wider than the "
                             "box; a reach up to the box's diagonal is accepted (from 2 node spacings, %g m, "
                             "without a warning), "
                             "1 to 2 grain diameters is usual (docs/cg.md)",
                             reach, what, diagonal, 2.0 * spacing);
    if (!rbl_scene_warns(s, RBL_WARN_CG_WIDTH) || spacing == 0.0) /* 0: averaged over all */
        return RBL_OK;
    if (reach < 2.0 * spacing && reach <= half_cell)
        return rbl_yaml_warn(c, at,
                             "cg: the kernel reaches %g m%s, not even half a cell's diagonal "
                             "(%g m; nodes %g m apart along %c): a grain between nodes reaches "
                             "none and is missing from the fields; a reach of 2 node spacings "
                             "(%g m) or more: a wider 'width' or more 'cells' (docs/cg.md) (if "
                             "meant: warnings: {off: [cg_width]})",
                             reach, what, half_cell, spacing, (s->cg_coords ? "rtz" : "xyz")[axis], 2.0 * spacing);
    if (reach < 2.0 * spacing)
        return rbl_yaml_warn(c, at,
                             "cg: the kernel reaches %g m%s, less than 2 node spacings (%g m "
                             "along %c): the grid's sums are not the kernel's integrals (Lucy's, "
                             "measured: a grain's mass on the grid 0.16 to 2.0 of it at 1 "
                             "spacing, within 1.5 %% at 2); a reach of %g m or more: a wider 'width' or "
                             "more 'cells' (docs/cg.md) (if meant: warnings: {off: [cg_width]})",
                             reach, what, spacing, (s->cg_coords ? "rtz" : "xyz")[axis], 2.0 * spacing);
    return RBL_OK;
}

int rbl_scene_parse_cg(rbl_yaml_ctx *c, yaml_node_t *n)
{
    static const char *const keys[] = {"cells", "width", "kernel", "min", "max", "every",
                                       "samples", "profile", "average", "coordinates", "axis",
                                       "centre", NULL};
    static const char *const kernels[] = {"lucy", "gaussian", NULL};
    static const char *const axes[] = {"x", "y", "z", "r", "theta", "phi", NULL};
    rbl_scene *s = c->s;
    rbl_cg_options *o = &s->cg_opt;
    double cells[3], samples = 1.0;
    int kernel = 0, axis = 2, rc;
    s->at_cg = rbl_yaml_mark(n);
    if ((rc = rbl_yaml_keys_known(c, n, "cg", keys)) ||
        (rc = rbl_yaml_req_vector3(c, n, "cells", cells, "cg")) ||
        (rc = rbl_yaml_req_number(c, n, "width", &o->width, 0.0, 1, "cg")) ||
        (rc = rbl_yaml_choice(c, n, "kernel", kernels, &kernel)) ||
        (rc = rbl_yaml_choice(c, n, "profile", axes, &axis)) ||
        (rc = rbl_yaml_opt_number(c, n, "every", &s->cg_every, 0.0, 1, INFINITY)) ||
        (rc = rbl_yaml_opt_number(c, n, "samples", &samples, 1.0, 0, 1e6)) ||
        (rc = rbl_scene_parse_cg_coords(c, n)))
        return rc;
    axis = axis == 3 ? 0 : axis == 4 ? 1 : axis == 5 ? 2 : axis; /* r, theta, phi: 0, 1, 2 */
    size_t nodes = 1;
    for (int a = 0; a < 3; a++) {
        if (!(cells[a] >= 1.0 && cells[a] == floor(cells[a]) && cells[a] <= 1e7))
            return rbl_yaml_fail(c, rbl_yaml_get(c, n, "cells"), RBL_ERANGE,
                                 "cg: 'cells' must be 3 whole numbers >= 1: %g along %c",
                                 cells[a], 'x' + a);
        o->cells[a] = (size_t)cells[a];
        nodes = nodes > RBL_CG_MAX_NODES ? nodes : nodes * o->cells[a];
    }
    if (nodes > RBL_CG_MAX_NODES)
        return rbl_yaml_fail(c, rbl_yaml_get(c, n, "cells"), RBL_ERANGE,
                             "cg: %g x %g x %g cells are more than %zu nodes", cells[0], cells[1],
                             cells[2], RBL_CG_MAX_NODES);
    if ((rc = rbl_scene_parse_cg_average(c, n, o, s->cg_average)) != RBL_OK)
        return rc;
    if (samples != floor(samples))
        return rbl_yaml_fail(c, rbl_yaml_get(c, n, "samples"), RBL_ERANGE,
                             "'samples' must be a whole number: '%s'",
                             rbl_yaml_scalar(rbl_yaml_get(c, n, "samples")));
    const int given = !!rbl_yaml_get(c, n, "min") + !!rbl_yaml_get(c, n, "max");
    if (given == 1)
        return rbl_yaml_fail(c, n, RBL_EPARSE, "cg: give both 'min' and 'max', or neither (the "
                             "domain's box)");
    if (given && ((rc = rbl_yaml_req_vector3(c, n, "min", o->lo, "cg")) ||
                  (rc = rbl_yaml_req_vector3(c, n, "max", o->hi, "cg"))))
        return rc;
    for (int a = 0; given && a < 3; a++)
        if (!(o->hi[a] > o->lo[a]))
            return rbl_yaml_fail(c, rbl_yaml_get(c, n, "max"), RBL_ERANGE,
                                 "cg: 'max' must exceed 'min' along %c", 'x' + a);
    if (!(s->cg_every > 0.0 || s->frame_every > 0.0))
        return rbl_yaml_fail(c, n, RBL_EPARSE, "cg needs 'every' (or output.every): the "
                             "seconds between its outputs");
    s->cg = given ? 1 : 2; /* 2: the domain's box, filled in when the run starts */
    o->kernel = kernel == 0 ? RBL_CG_LUCY : RBL_CG_GAUSSIAN;
    if ((rc = cg_width_check(c, n, o, given)) != RBL_OK)
        return rc;
    s->cg_samples = (size_t)samples;
    s->cg_axis = axis;
    return RBL_OK;
}

/* collisions: true, or {every: s, bins: N, energy: [min, max]} (J): collision statistics */
static int parse_collisions(rbl_yaml_ctx *c, yaml_node_t *n)
{
    static const char *const keys[] = {"every", "bins", "energy", NULL};
    rbl_scene *s = c->s;
    s->at_collisions = rbl_yaml_mark(n);
    s->collision_bins = 70; /* 5 a decade from 1e-12 J (a 0.1 mm glass bead at 1 mm/s) */
    s->collision_energy[0] = 1e-12, s->collision_energy[1] = 100.0; /* to a 4 cm ore at 30 m/s */
    const char *v = rbl_yaml_scalar(n);
    if (v) {
        if (strcmp(v, "true") != 0 && strcmp(v, "false") != 0)
            return rbl_yaml_fail(c, n, RBL_EPARSE, "'collisions' must be true, false or "
                                 "{every, bins, energy: [min, max]}: '%s'", v);
        s->collisions = strcmp(v, "true") == 0;
        return RBL_OK;
    }
    int rc = rbl_yaml_keys_known(c, n, "collisions", keys);
    if (rc != RBL_OK)
        return rc;
    yaml_node_t *every = rbl_yaml_get(c, n, "every"), *bins = rbl_yaml_get(c, n, "bins");
    yaml_node_t *energy = rbl_yaml_get(c, n, "energy");
    if (every && ((rc = rbl_yaml_number(c, every, "every", &s->collision_every)) != RBL_OK ||
                  !(s->collision_every > 0.0)))
        return rc ? rc : rbl_yaml_fail(c, every, RBL_ERANGE, "collisions: 'every' must be > 0 "
                                       "(s): '%s'", rbl_yaml_scalar(every));
    if (bins) {
        double b = 0.0;
        if ((rc = rbl_yaml_number(c, bins, "bins", &b)) != RBL_OK)
            return rc;
        if (!(b >= 1.0 && b <= 100000.0 && b == floor(b)))
            return rbl_yaml_fail(c, bins, RBL_ERANGE, "collisions: 'bins' must be a whole "
                                 "number from 1 to 100000: '%s'", rbl_yaml_scalar(bins));
        s->collision_bins = (int)b;
    }
    if (energy) {
        if (energy->type != YAML_SEQUENCE_NODE ||
            energy->data.sequence.items.top - energy->data.sequence.items.start != 2)
            return rbl_yaml_fail(c, energy, RBL_EPARSE, "collisions: 'energy' must be [min, "
                                 "max] (J)");
        for (int k = 0; k < 2; k++) {
            yaml_node_t *e = rbl_yaml_node(c, energy->data.sequence.items.start[k]);
            if ((rc = rbl_yaml_number(c, e, "energy", &s->collision_energy[k])) != RBL_OK)
                return rc;
            if (!(s->collision_energy[k] > 0.0))
                return rbl_yaml_fail(c, e, RBL_ERANGE, "collisions: the energies must be > 0 "
                                     "(J; the bins are log-spaced): '%s'", rbl_yaml_scalar(e));
        }
        if (!(s->collision_energy[1] > s->collision_energy[0]))
            return rbl_yaml_fail(c, energy, RBL_ERANGE, "collisions: 'energy' [min, max] needs "
                                 "min < max: [%g, %g]", s->collision_energy[0],
                                 s->collision_energy[1]);
    }
    s->collisions = 1;
    return RBL_OK;
}

int rbl_scene_parse_output(rbl_yaml_ctx *c, yaml_node_t *n)
{
    static const char *const keys[] = {"folder", "every", "thermo_every", "checkpoint_every",
                                       "checkpoint_keep",
                                       "final", "shells", "layers", "fields", "contacts",
                                       "wall_loads", "flow", "flow_window", "cg", "collisions",
                                       NULL};
    rbl_scene *s = c->s;
    int rc = rbl_yaml_keys_known(c, n, "output", keys);
    if (rc != RBL_OK)
        return rc;
    const char *folder = rbl_yaml_scalar(rbl_yaml_get(c, n, "folder"));
    if (rbl_yaml_get(c, n, "folder") && (!folder || !*folder))
        return rbl_yaml_fail(c, rbl_yaml_get(c, n, "folder"), RBL_EPARSE,
                             "'folder' must be a path");
    if (folder) {
        s->at_output = rbl_yaml_mark(rbl_yaml_get(c, n, "folder"));
        free(s->output_dir);
        s->output_dir = strdup(folder);
        if (!s->output_dir)
            return rbl_error_set(c->err, RBL_ENOMEM, "out of memory");
    }
    const char *final = rbl_yaml_scalar(rbl_yaml_get(c, n, "final"));
    if (rbl_yaml_get(c, n, "final") && (!final || !*final || strchr(final, '/') ||
                                        !strcmp(final, ".") || !strcmp(final, "..")))
        return rbl_yaml_fail(c, rbl_yaml_get(c, n, "final"), RBL_EPARSE,
                    "'final' must be a file name (written in the output folder)");
    if (final && rbl_run_output_name(final))
        return rbl_yaml_fail(c, rbl_yaml_get(c, n, "final"), RBL_EPARSE,
                             "'final' would overwrite the run's own '%s': choose another name "
                             "(e.g. final.txt)", final);
    if (final && !(s->final_grains = strdup(final)))
        return rbl_error_set(c->err, RBL_ENOMEM, "out of memory");
    if ((rc = rbl_yaml_opt_number(c, n, "every", &s->frame_every, 0.0, 1, INFINITY)) ||
        (rc = rbl_yaml_opt_number(c, n, "thermo_every", &s->thermo_every, 0.0, 1, INFINITY)) ||
        (rc =
             rbl_yaml_opt_number(c, n, "checkpoint_every", &s->checkpoint_every, 0.0, 1, INFINITY)))
        return rc;
    yaml_node_t *keep = rbl_yaml_get(c, n, "checkpoint_keep");
    if (keep) {
        double k = 0.0;
        if ((rc = rbl_yaml_number(c, keep, "checkpoint_keep", &k)) != RBL_OK)
            return rc;
        if (!(k >= 1.0 && k <= 1e6 && k == floor(k)))
            return rbl_yaml_fail(c, keep, RBL_ERANGE,
                                 "'checkpoint_keep' must be a whole number from 1 to 1000000: "
                                 "'%s'", rbl_yaml_scalar(keep));
        if (!rbl_yaml_get(c, n, "checkpoint_every"))
            return rbl_yaml_fail(c, keep, RBL_EPARSE,
                                 "'checkpoint_keep' needs 'checkpoint_every'");
        s->checkpoint_keep = (size_t)k;
    }
    s->at_frame_every =
        rbl_yaml_mark(rbl_yaml_get(c, n, "every") ? rbl_yaml_get(c, n, "every") : n);
    s->at_thermo_every =
        rbl_yaml_mark(rbl_yaml_get(c, n, "thermo_every") ? rbl_yaml_get(c, n, "thermo_every") : n);
    s->at_checkpoint_every = rbl_yaml_mark(
        rbl_yaml_get(c, n, "checkpoint_every") ? rbl_yaml_get(c, n, "checkpoint_every") : n);
    yaml_node_t *sh = rbl_yaml_get(c, n, "shells");
    if (sh) { /* shells: {count, radius, band}: radial profiles with each frame */
        static const char *const shell_keys[] = {"count", "radius", "band", NULL};
        double count = 0.0;
        if ((rc = rbl_yaml_keys_known(c, sh, "shells", shell_keys)) ||
            (rc = rbl_yaml_req_number(c, sh, "count", &count, 1.0, 0, "shells")) ||
            (rc = rbl_yaml_opt_number(c, sh, "count", &count, 1.0, 0, 10000.0)) ||
            (rc = rbl_yaml_req_number(c, sh, "radius", &s->shells_radius, 0.0, 1, "shells")) ||
            (rc = rbl_yaml_opt_number(c, sh, "band", &s->shells_band, 0.0, 1, INFINITY)))
            return rc;
        if (count != floor(count))
            return rbl_yaml_fail(c, rbl_yaml_get(c, sh, "count"), RBL_ERANGE,
                                 "'count' must be a whole number: "
                                 "'%s'",
                                 rbl_yaml_scalar(rbl_yaml_get(c, sh, "count")));
        s->shells = (size_t)count;
    }
    yaml_node_t *ly = rbl_yaml_get(c, n, "layers");
    if (ly && (rc = parse_layers(c, ly)) != RBL_OK)
        return rc;
    yaml_node_t *fields = rbl_yaml_get(c, n, "fields");
    if (fields && (rc = parse_fields(c, fields)) != RBL_OK)
        return rc;
    yaml_node_t *contacts = rbl_yaml_get(c, n, "contacts");
    if (contacts && (rc = parse_contacts(c, contacts)) != RBL_OK)
        return rc;
    if ((rc = rbl_yaml_opt_flag(c, n, "wall_loads", &s->wall_loads)) != RBL_OK)
        return rc;
    yaml_node_t *flow = rbl_yaml_get(c, n, "flow");
    if (flow && (rc = rbl_scene_parse_flow(c, flow)) != RBL_OK)
        return rc;
    if (rbl_yaml_get(c, n, "flow_window")) { /* flow.csv's windows (issue 74) */
        s->at_flow_window = rbl_yaml_mark(rbl_yaml_get(c, n, "flow_window"));
        if ((rc = rbl_yaml_opt_number(c, n, "flow_window", &s->flow_window, 0.0, 1,
                                      INFINITY)) != RBL_OK)
            return rc;
    }
    yaml_node_t *collisions = rbl_yaml_get(c, n, "collisions");
    if (collisions && (rc = parse_collisions(c, collisions)) != RBL_OK)
        return rc;
    yaml_node_t *cg = rbl_yaml_get(c, n, "cg");
    return cg ? rbl_scene_parse_cg(c, cg) : RBL_OK;
}

