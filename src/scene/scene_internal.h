/* scene_internal.h — a scene as loaded from its YAML file (BY1): everything needed to build
 * and run a simulation, with the file position of each part for error messages. */
#ifndef RBL_SCENE_INTERNAL_H
#define RBL_SCENE_INTERNAL_H

#include "../io/io_internal.h"
#include "../dem/dem_internal.h" /* rbl_contact_filter (output.contacts) */

/* warnings.c — messages for legal but likely mistaken settings (docs/scenes.md "Warnings"). */
typedef struct rbl_warnings {
    char **text;
    size_t n;
} rbl_warnings;
RBL_PRINTF(2, 3)
int rbl_warnings_add(rbl_warnings *w, const char *fmt, ...); /* 0: out of memory */
int rbl_warnings_copy(rbl_warnings *to, const rbl_warnings *from);
void rbl_warnings_free(rbl_warnings *w);
/* Each warning's name, by which a scene whose value is meant turns it off
 * (`warnings: {off: [NAME, ...]}`, docs/scenes.md "Warnings"); a warning's text ends with it. */
typedef enum rbl_warning_id {
    RBL_WARN_DENSITY, RBL_WARN_FRICTION, RBL_WARN_SOFT_CONTACTS, RBL_WARN_PERIODIC_WALL,
    RBL_WARN_MESH_SIZE, RBL_WARN_CROWDED, RBL_WARN_OUTPUT_FOLDER, RBL_WARN_GRAVITY,
    RBL_WARN_OMEGA, RBL_WARN_LONG_RUN, RBL_WARN_CG_WIDTH, RBL_WARN_COUNT
} rbl_warning_id;
const char *rbl_warning_name(rbl_warning_id id);

typedef struct rbl_scene_pair {
    int a, b;
    double own[RBL_PAIR_N]; /* by slot (law_table.h); NAN: the mixing rule's; without
                               materials, gamma_n from restitution when the pair is set
                               (rbl_scene_set_pairs) */
} rbl_scene_pair;

typedef struct rbl_mark {
    int line, column; /* 1-based; 0 = unknown */
} rbl_mark;

typedef enum rbl_source_kind {
    RBL_SOURCE_LATTICE,
    RBL_SOURCE_RANDOM,
    RBL_SOURCE_POUR,
    RBL_SOURCE_FILE,
    RBL_SOURCE_PACK
} rbl_source_kind;

typedef struct rbl_source {
    rbl_source_kind kind;
    rbl_insert_spec spec;
    double rate;   /* pour: grains per second */
    double every;  /* pour: seconds between batches */
    double pack_fraction; /* pack: the volume fraction (0: spec.count grains) */
    char *file;    /* file: grains as text (grains_text.c) */
    char *clump_file;                 /* clumps instead of spheres (clump_file.c), or NULL */
    rbl_clump clump;                  /* its spheres in the body frame */
    rbl_mass_properties clump_props;
    rbl_mesh region_mesh;             /* a region inside a closed STL (spec.mesh points here) */
    int stage;                        /* 0: the scene's; k: poured from stage k's start */
    rbl_mark at;
} rbl_source;

/* An impulse scene's source of objects (seed 003, docs/fdo.md): ellipsoids on a lattice, at
 * random places in a region (each whole inside it, the bounding spheres apart), poured into a
 * region in batches during the run, or read from a file of poses and motions. */
typedef enum rbl_object_placement {
    RBL_OBJECTS_LATTICE,
    RBL_OBJECTS_RANDOM, /* random sequential addition */
    RBL_OBJECTS_POUR,   /* random sequential addition, a batch every `every` seconds */
    RBL_OBJECTS_FILE    /* one per line of a text file, as placed there (they may touch) */
} rbl_object_placement;

typedef struct rbl_object_source {
    rbl_object_placement placement;
    double lo[3], hi[3];
    size_t count;             /* random, pour: how many; lattice: at most this many (0 = fill) */
    double spacing;           /* lattice: centre distance (0: the bounding diameter) */
    double rate, every;       /* pour: objects per second, seconds between batches */
    rbl_fdo_shape shape;
    double density;
    int random_orientation;   /* else quat */
    double quat[4];
    double vel[3];
    double spin[3];           /* rad/s, space frame */
    char *file;               /* file: its path (the scene's folder joined) */
    uint64_t seed;
    rbl_mark at;
} rbl_object_source;

/* A tube wall of an impulse scene: the open cylinder about the segment from -> to. */
typedef struct rbl_scene_tube {
    double from[3], to[3], radius;
    rbl_mark at;
} rbl_scene_tube;

/* A wall's motion as the scene gives it (scene_motion.c); a servo's pressure becomes a force
 * when the simulation is built. */
typedef struct rbl_scene_motion {
    int moves;
    rbl_wall_motion m;
    double pressure, area;    /* pressure > 0: the servo's force is pressure times area */
    rbl_mark at, at_servo;    /* the wall's entry, its servo */
    rbl_mark at_omega;        /* rotate's `omega` (line 0: none, or given as `rpm`) */
    int absent;               /* present: false, a wall a stage puts in later (issue 73) */
    rbl_motion_row *table;    /* `table`: its rows (owned; NULL: none), n_table of them, */
    size_t n_table;
    double pivot[3];          /* turned about pivot */
} rbl_scene_motion;
/* scene_motion.c: the rows a scene motion holds freed. */
void rbl_scene_motion_free(rbl_scene_motion *sm);

/* A stage of a staged study (scene_stages.c, docs/scenes.md "Stages"): its length, and the
 * scene as it stands from its start on (the scene with every stage up to it merged in), from
 * which the run takes what the stage changes. */
typedef struct rbl_scene_stage {
    char *name;
    double time;              /* s; or steps > 0 */
    uint64_t steps;
    struct rbl_scene *scene;  /* the whole scene from this stage on */
    char *changes;            /* what it changes, as lines "path: before -> after" */
    rbl_mark at;
} rbl_scene_stage;

/* Which entry of the scene's `walls` list each wall is: a plane (index into walls), a mesh
 * (into meshes) or a tube; the simulation numbers planes first, then meshes. */
typedef struct rbl_wall_entry {
    char kind;                /* 'p', 'm' or 't' */
    int index;
} rbl_wall_entry;

struct rbl_scene {
    char *path;
    rbl_warnings warnings;    /* what reading it found likely mistaken (warnings.c) */
    unsigned warnings_off;    /* 1 << rbl_warning_id: those `warnings: {off}` turns off */
    rbl_sim_config cfg;
    int dt_auto;
    double dt_c;              /* dt = C * contact time when auto */
    double restitution;       /* > 0: gamma_n from e for the mean grain of the first source */
    rbl_material *materials;
    char **material_names;
    int n_materials;
    rbl_wall *walls;
    rbl_scene_motion *wall_motion; /* per plane wall */
    int n_walls;
    rbl_wall_entry *wall_entries; /* per entry of `walls`, in the file's order */
    int n_wall_entries;
    rbl_mesh *meshes;         /* mesh walls, read, scaled, moved and welded at load */
    rbl_scene_motion *mesh_motion;
    rbl_primitive *mesh_prims; /* kind 0: an STL; else a primitive wall, meshes[k] its facets */
    int *mesh_materials;
    double (*mesh_wear)[2];   /* wear: {archard, finnie} per mesh wall (1/Pa; 0: none) */
    rbl_mark *at_meshes;
    int n_meshes;
    rbl_scene_tube *tubes;    /* impulse scenes only */
    int n_tubes;
    rbl_source *sources;
    int n_sources;
    int sources_allocated;    /* entries of sources (zeroed beyond n_sources) */
    double end_time;          /* s; or steps > 0 */
    uint64_t steps;
    char *output_dir;
    double frame_every;       /* s of simulated time; 0 = no frames */
    double thermo_every;
    double checkpoint_every;  /* s; 0 = none */
    size_t checkpoint_keep;   /* the last K checkpoints of a run are kept; 0 = all */
    char *final_grains;       /* file name in the output folder, or NULL */
    unsigned frame_fields;    /* output.fields: 1 << RBL_FIELD_* (grain_frame.c) */
    int network;              /* output.contacts: RBL_NETWORK_VTP | _CSV | _BIN, or 0 */
    unsigned contact_columns; /* output.contacts' columns: RBL_CONTACT_* (issue 74) */
    int contact_filtered;     /* output.contacts keeps only the contacts contact_filter keeps */
    rbl_contact_filter contact_filter;
    int wall_loads;           /* output.wall_loads: each frame's walls with their facets' loads */
    rbl_flow_counter *flows;  /* output.flow: the surfaces counted through */
    rbl_mesh *flow_meshes;    /* theirs where a mesh (flows[k].mesh points here) */
    int n_flows;
    rbl_mark at_flow;
    double flow_window;       /* output.flow_window: s, flow.csv's windows; 0: none */
    rbl_mark at_flow_window;
    rbl_scene_pair *pairs;    /* contact.pairs: a pair of materials' own coefficients */
    int n_pairs;
    rbl_mark at_pairs;
    rbl_size_bin **size_tables; /* the bins of the sources' size distributions (scene_sizes.c) */
    size_t n_size_tables;
    int bonds;                /* `bonds`: bonds made at the start (scene_bonds.c, issue 72) */
    rbl_bond_params bond;     /* their parameters */
    int bond_material;        /* only between grains of this material (-1: any) */
    int bond_box;             /* only between grains whose centres are in [bond_lo, bond_hi] */
    double bond_lo[3], bond_hi[3];
    rbl_mark at_bonds, at_bond_gap;
    char *bond_path;          /* `bonds.file`: the pairs listed there instead (bond_file.c) */
    rbl_bond_file bond_list;
    rbl_outlet *outlets;      /* `outlets`: where grains are taken out (scene_surfaces.c) */
    rbl_mesh *outlet_meshes;  /* theirs where a mesh */
    rbl_mark *at_outlets;
    int n_outlets;
    int cg;                   /* output.cg: coarse-grained fields (src/cg/, cg_files.c) */
    rbl_cg_options cg_opt;    /* its grid (lo, hi: the domain's unless given) and kernel */
    double cg_every;          /* s between outputs, each the mean of cg_samples samples taken
                                 at equal steps over the interval that ends there */
    size_t cg_samples;
    int cg_axis;              /* the profile's axis */
    int cg_average[3];        /* the axes averaged over (rbl_cg_average; scene_cg_average.c) */
    int cg_coords, cg_coords_axis; /* rbl_cg_coordinates and its axis (scene_cg_coords.c) */
    double cg_centre[3];
    rbl_mark at_cg;
    int collisions;           /* output.collisions: collision statistics (collision_output.c) */
    int collision_bins;       /* log-spaced bins of impact energy from energy[0] to [1], J */
    double collision_every, collision_energy[2]; /* every: s between rows (0: output.every) */
    rbl_mark at_collisions;
    rbl_mark at_contact, at_dt, at_walls, at_grains, at_domain;
    int sheared;              /* domain.shear: Lees-Edwards boundaries (docs/shear.md) */
    rbl_shear shear;
    int shear_profile;        /* domain.shear.profile: a fresh run starts on the linear profile */
    int shear_pressured;      /* domain.shear.pressure: the height servoed to that stress */
    rbl_shear_servo shear_servo;
    rbl_mark at_shear;
    rbl_mark at_gravity;      /* the scene's `gravity` (line 0: none) */
    rbl_mark at_stiffness;    /* what sets the contacts' stiffness: contact.kn, or the stiffest
                                 material's youngs_modulus under hertz-mindlin */
    rbl_mark at_output;       /* output.folder, else the scene's start */
    rbl_mark at_length;       /* run.time or run.steps */
    rbl_mark at_frame_every, at_thermo_every, at_checkpoint_every; /* the key, else output */
    double select_within;     /* > 0: keep the grains within this distance of the centre of mass */
    rbl_mark at_select;
    int spin;                 /* a rigid spin about the centre of mass (seed 002 §3.4) */
    double spin_axis[3];
    double spin_omega;        /* at the start, in spin units */
    double spin_step, spin_every, spin_until; /* + step every `every` s until `until` */
    int spin_critical;        /* the unit is w_c = sqrt(G M / R^3) of the grains at the start */
    rbl_mark at_spin;
    rbl_health_options health; /* health: the run's health check (zero: the defaults, on) */
    rbl_mark at_health;
    size_t shells;            /* > 0: shells_NNNNNN.csv with each frame */
    double shells_radius;
    double shells_band;       /* half-height of the equatorial band; 0: shells_radius / 2 */
    rbl_layer_options layers; /* count > 0: layer columns in thermo.csv */
    char *digest;             /* what a checkpoint does not carry (scene_digest.c) */
    rbl_scene_stage *stages;  /* `stages` (none: one stage, the scene itself) */
    int n_stages;
    rbl_mark at_stages;
    /* an impulse scene (key 'impulse'): rigid ellipsoids with impulse dynamics, no grains */
    int impulse;
    rbl_fdo_params fdo;
    rbl_object_source *objects;
    int n_objects;
    rbl_mark at_impulse, at_objects;
};

/* scene_digest.c — the scene's settings a checkpoint does not carry, as sorted "path: value"
 * lines in s->digest; compared on restart with the checkpoint's (theirs), naming the first
 * setting that differs. */
struct yaml_document_s;
int rbl_scene_digest(rbl_scene *s, struct yaml_document_s *doc, rbl_error *err);
int rbl_scene_digest_compare(const rbl_scene *s, const char *theirs, size_t theirs_len,
                             const char *checkpoint, rbl_error *err);
/* The lines two digests differ in, as "path: before -> after" lines ("(none)" for a side
 * that lacks the setting), into *out (malloc'd; "" when none); the `stages` lines only
 * with_stages (a stage's own scene has none). */
int rbl_digest_changes(const char *before, size_t before_len, const char *after,
                       int with_stages, char **out, rbl_error *err);
/* Whether a stage (or a restart with changes) may change the setting at `path` of a digest
 * line: gravity, the contact law's coefficients (not its models), materials' elastic and
 * friction coefficients, walls' motions and servos and the health check. */
int rbl_scene_change_allowed(const char *path, size_t len);
/* The first line of rbl_digest_changes's text that is not such a change (its length in
 * *len), or NULL; stage: a stage's changes, which may also bring a `bonds` block. */
const char *rbl_changes_refused(const char *changes, int stage, size_t *len);
/* Whether the changes touch the setting key or what is under it. */
int rbl_changes_touch(const char *changes, const char *key);
/* The items of `list` (its lines "list[K]...") that the changes add whole, none of whose lines
 * the digest before (before_len bytes) has: added[K] set for K < n; the other lines of the
 * changes in *rest (malloc'd), for rbl_changes_refused. A restart that changes physics adds
 * pours so (`grains`). */
int rbl_changes_new_items(const char *changes, const char *before, size_t before_len,
                          const char *list, unsigned char *added, int n, char **rest,
                          rbl_error *err);

/* scene_stages.c — the scene's `stages`, each stage's whole scene parsed from the scene with
 * the stages up to it merged in, and what each changes checked against what a running
 * simulation can take. */
struct yaml_document_s;
int rbl_scene_parse_stages(rbl_scene *s, struct yaml_document_s *doc, int stages_node,
                           rbl_error *err);
/* Whether the scene or one of its stages has a `bonds` block (its run writes the bonds). */
int rbl_scene_bonded(const rbl_scene *s);
/* The stage's scene (0: the scene itself, k: stage k's), for 0 <= k <= n_stages. */
const rbl_scene *rbl_scene_stage_scene(const rbl_scene *s, int k);
/* scene_yaml.c — an empty scene with the defaults, named path; the scene a document holds
 * (as_stage: a stage's merged document, whose length is the stage's). */
rbl_scene *rbl_scene_new(const char *path);
int rbl_scene_parse_document(rbl_scene *s, struct yaml_document_s *doc, int as_stage,
                             rbl_error *err);

/* scene_motion.c — the scene's wall motions set on sim (its walls added, planes then
 * meshes), servos' pressures made forces; errors name the wall's entry. */
int rbl_scene_set_motions(const rbl_scene *s, rbl_sim *sim, rbl_error *err);
/* Wall k's motion (planes, then meshes) as the scene sets it, a servo's pressure made a force. */
int rbl_scene_wall_motion(const rbl_scene *s, const rbl_sim_config *cfg, int k,
                          rbl_wall_motion *m, rbl_error *err);

/* Values no granular system has (speeds, spins, dt; scene_limits.c), refused at their entry. */
int rbl_scene_check_limits(const rbl_scene *s, rbl_error *err);

/* 1 unless the scene turns the warning off (`warnings: {off: [...]}`, warnings.c). */
int rbl_scene_warns(const rbl_scene *s, rbl_warning_id id);

/* Prefix err's message with "path:line:column: ". */
int rbl_scene_error_at(const rbl_scene *s, rbl_mark at, rbl_error *err);

/* scene_cg_option.c — output.cg's mapping from text (YAML), replacing the scene's; messages
 * name `name` (an option) where they would name the scene. */
int rbl_scene_set_cg(rbl_scene *s, const char *text, const char *name, rbl_error *err);

#endif
