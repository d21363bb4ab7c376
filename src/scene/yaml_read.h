/* yaml_read.h — reading a scene's values from its libyaml document (yaml_read.c). Each reader
 * returns RBL_OK or sets c->err to "file:line:column: message: 'value'". Internal. */
#ifndef RBL_YAML_READ_H
#define RBL_YAML_READ_H

#include "scene_internal.h"

#include <yaml.h>

typedef struct rbl_yaml_ctx {
    rbl_scene *s;
    yaml_document_t *doc;
    rbl_error *err;
    int staged;             /* the scene has stages, or is a stage's: the stages' length */
    int grains;             /* the sources' node (0: the root's `grains`): with stages, the
                               scene's and every stage's */
    const int *grain_stage; /* per item of it: 0, or the stage that pours it */
} rbl_yaml_ctx;

rbl_mark rbl_yaml_mark(const yaml_node_t *n);
RBL_PRINTF(4, 5)
int rbl_yaml_fail(rbl_yaml_ctx *c, const yaml_node_t *n, int code, const char *fmt, ...);
/* A warning at node n (file:line:column), into the scene's list; RBL_ENOMEM only. */
RBL_PRINTF(3, 4)
int rbl_yaml_warn(rbl_yaml_ctx *c, const yaml_node_t *n, const char *fmt, ...);
const char *rbl_yaml_scalar(const yaml_node_t *n);
yaml_node_t *rbl_yaml_node(rbl_yaml_ctx *c, int index);
/* Every key of mapping n is one of allowed (NULL-terminated), none twice. */
int rbl_yaml_keys_known(rbl_yaml_ctx *c, yaml_node_t *n, const char *what,
                        const char *const *allowed);
/* The value of key in mapping map, or NULL. */
yaml_node_t *rbl_yaml_get(rbl_yaml_ctx *c, yaml_node_t *map, const char *key);
/* A finite number. */
int rbl_yaml_number(rbl_yaml_ctx *c, yaml_node_t *n, const char *key, double *out);
/* Optional number with a range: lo/hi inclusive unless lo_strict. */
int rbl_yaml_opt_number(rbl_yaml_ctx *c, yaml_node_t *map, const char *key, double *out,
                        double lo, int lo_strict, double hi);
int rbl_yaml_req_number(rbl_yaml_ctx *c, yaml_node_t *map, const char *key, double *out,
                        double lo, int lo_strict, const char *what);
int rbl_yaml_vector3(rbl_yaml_ctx *c, yaml_node_t *n, const char *key, double out[3]);
int rbl_yaml_req_vector3(rbl_yaml_ctx *c, yaml_node_t *map, const char *key, double out[3],
                         const char *what);
/* A cylinder or a tube, {from: [x, y, z], to: [x, y, z], radius: r} (what: its name in
 * messages): from and to apart, r > 0. */
int rbl_yaml_axis(rbl_yaml_ctx *c, yaml_node_t *n, const char *what, double from[3],
                  double to[3], double *radius);
/* An optional key whose value is one of names (NULL-terminated): its index in *out. */
int rbl_yaml_choice(rbl_yaml_ctx *c, yaml_node_t *map, const char *key,
                    const char *const *names, int *out);
/* The scene's material named by map's 'material' (the only one when there is one). */
int rbl_yaml_material_index(rbl_yaml_ctx *c, yaml_node_t *map, const char *what, int *out);
/* An optional true/false. */
int rbl_yaml_opt_flag(rbl_yaml_ctx *c, yaml_node_t *map, const char *key, int *out);

/* scene_motion.c: the motion keys of a wall's entry (velocity, rotate, vibrate, servo); a
 * plane's normal is a servo's direction unless given (a mesh's: NULL, it must be given). */
int rbl_scene_parse_motion(rbl_yaml_ctx *c, yaml_node_t *wall, const double *normal,
                           rbl_scene_motion *out);

/* scene_yaml.c: a surface from an STL file, {mesh: FILE.stl, scale, offset} (a mesh wall's,
 * a flow counter's). */
int rbl_scene_read_surface(rbl_yaml_ctx *c, yaml_node_t *n, rbl_mesh *mesh);
/* scene_yaml.c: mesh wall k's `wear` in wall entry w. */
int rbl_scene_parse_mesh_wear(rbl_yaml_ctx *c, yaml_node_t *w, int k);
/* scene_primitives.c: wall entry w's primitive (rectangle, disk, cylinder, cone, box: the
 * first it names; *kind its RBL_PRIM_*), or NULL; and the wall it makes, mesh wall k. */
yaml_node_t *rbl_scene_primitive_node(rbl_yaml_ctx *c, yaml_node_t *w, int *kind);
int rbl_scene_parse_primitive_wall(rbl_yaml_ctx *c, yaml_node_t *w, yaml_node_t *n, int kind);

/* A path the scene names (key), relative to its folder, into *out (malloc'd). */
int rbl_scene_path(rbl_yaml_ctx *c, yaml_node_t *n, const char *key, char **out);
/* scene_sizes.c: a source's `radius` (a number or a distribution), bins owned by the scene. */
int rbl_scene_parse_size(rbl_yaml_ctx *c, yaml_node_t *n, rbl_size_dist *d);

/* scene_surfaces.c: output.flow's surfaces and the scene's outlets. */
int rbl_scene_parse_flow(rbl_yaml_ctx *c, yaml_node_t *n);
int rbl_scene_parse_outlets(rbl_yaml_ctx *c, yaml_node_t *n);
/* scene_bonds.c: the top-level `bonds` block (issue 72, docs/bonds.md). */
int rbl_scene_parse_bonds(rbl_yaml_ctx *c, yaml_node_t *n);

/* A region's shape (a box, cylinder or sphere) into spec: grain sources, output.contacts. */
int rbl_scene_region_shape(rbl_yaml_ctx *c, yaml_node_t *n, const char *what,
                           rbl_insert_spec *spec);
/* scene_output.c: the 'output' section. */
int rbl_scene_parse_output(rbl_yaml_ctx *c, yaml_node_t *n);
/* Its `cg` mapping (docs/cg.md), also read from `rubble cg --cg` (scene_cg_option.c). */
int rbl_scene_parse_cg(rbl_yaml_ctx *c, yaml_node_t *n);
/* scene_cg_average.c — output.cg's 'average' (after its 'cells'): average[3]. */
int rbl_scene_parse_cg_average(rbl_yaml_ctx *c, yaml_node_t *n, const rbl_cg_options *o,
                               int average[3]);
/* scene_cg_coords.c — output.cg's 'coordinates', 'axis', 'centre'; the grid's lengths (an
 * angle's spacing as an arc) for the width's check. */
int rbl_scene_parse_cg_coords(rbl_yaml_ctx *c, yaml_node_t *n);
void rbl_scene_cg_lengths(const rbl_scene *s, const double lo[3], const double hi[3],
                          const size_t cells[3], double extent[3], double spacing[3]);

/* warnings.c: `warnings: {off: [NAME, ...]}`, the warnings a scene turns off (n may be NULL). */
int rbl_scene_parse_warnings(rbl_yaml_ctx *c, yaml_node_t *n);
/* density_warning.c: a material's density (at its node) that reads as another unit. */
int rbl_scene_density_warning(rbl_yaml_ctx *c, yaml_node_t *at, const char *name, double rho);
/* scene_objects.c: the sections of an impulse scene, 'impulse' (the engine's parameters) and
 * 'objects' (the sources). */
int rbl_scene_parse_impulse(rbl_yaml_ctx *c, yaml_node_t *impulse, yaml_node_t *objects);

/* law_parse.c — the law's block sub-models (contact.cohesion, .rolling, .twisting), read
 * from the law's table (src/dem/law_table.h) into law, whose other models are set, and held
 * (the coefficients without a field in the law, by row); and a pair's own values of their
 * coefficients (contact.pairs) into own, by slot. */
int rbl_scene_parse_law_blocks(rbl_yaml_ctx *c, yaml_node_t *contact, rbl_contact_law *law,
                               double held[RBL_LAW_N_COEFS]);
int rbl_scene_parse_pair_blocks(rbl_yaml_ctx *c, yaml_node_t *p, const rbl_contact_law *law,
                                double own[RBL_PAIR_N]);
/* "'energy_density' (cohesion: sjkr), ..." : the pairs' keys of the block models'
 * coefficients, for a message (into text, size bytes). */
void rbl_scene_pair_block_keys(char *text, size_t size);
/* keys[n..] gets the block families' keys (blocks) and the pairs' keys of their coefficients
 * (pairs), up to cap in all; returns the new count. */
int rbl_scene_law_keys(const char **keys, int n, int cap, int blocks, int pairs);

#endif
