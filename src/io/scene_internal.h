/* scene_internal.h — a scene as loaded from its YAML file (BY1): everything needed to build
 * and run a simulation, with the file position of each part for error messages. */
#ifndef RBL_SCENE_INTERNAL_H
#define RBL_SCENE_INTERNAL_H

#include "io_internal.h"

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
    rbl_pair_props p; /* NAN: the mixing rule's; without materials, gamma_n from restitution
                         when the pair is set (rbl_scene_set_pairs) */
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

/* A pour source's schedule as a run leaves it (pour_schedule.c); checkpoints carry it. */
typedef struct rbl_pour_state {
    double next_time, owed;
    uint64_t placed;
    uint64_t batch;
} rbl_pour_state;

/* The batch due at `now` of a pour of `count` at `rate` per second, one batch each `every`
 * seconds: 1 with *want (perhaps 0) to place now from the batch's own *batch_seed, else 0;
 * the next batch's time set (the batches due by now, when every < dt, come as one).
 * rbl_pour_placed then books what was placed. */
int rbl_pour_due(rbl_pour_state *p, size_t count, double rate, double every, uint64_t seed,
                 double now, size_t *want, uint64_t *batch_seed);
void rbl_pour_placed(rbl_pour_state *p, size_t placed);
/* The first step whose time, step * dt, reaches `time` (UINT64_MAX beyond 1e15 steps): where
 * a batch of that time is placed, whatever else the run stops for. */
uint64_t rbl_pour_step(double time, double dt);
/* The step of the pour's next batch (UINT64_MAX: all `count` placed). */
uint64_t rbl_pour_next_step(const rbl_pour_state *p, size_t count, double dt);
/* The grains (objects) a pour of `count` owes now: due in its batches so far, yet not placed
 * for want of room in its region (walls or grains in the way, or the region outside the domain).
 * A batch that fits leaves a fraction below 1 owed, so this is 0 while every batch fits. */
uint64_t rbl_pour_waiting(const rbl_pour_state *p, size_t count);
/* 1 if a state read from a file is one a run of `count` can leave. */
int rbl_pour_state_valid(const rbl_pour_state *p, size_t count);

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
} rbl_scene_motion;

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
    int network;              /* output.contacts: RBL_NETWORK_VTP | RBL_NETWORK_CSV, or 0 */
    int wall_loads;           /* output.wall_loads: each frame's walls with their facets' loads */
    rbl_flow_counter *flows;  /* output.flow: the surfaces counted through */
    rbl_mesh *flow_meshes;    /* theirs where a mesh (flows[k].mesh points here) */
    int n_flows;
    rbl_mark at_flow;
    rbl_scene_pair *pairs;    /* contact.pairs: a pair of materials' own coefficients */
    int n_pairs;
    rbl_mark at_pairs;
    rbl_size_bin **size_tables; /* the bins of the sources' size distributions (scene_sizes.c) */
    size_t n_size_tables;
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
    rbl_mark at_cg;
    int collisions;           /* output.collisions: collision statistics (collision_output.c) */
    int collision_bins;       /* log-spaced bins of impact energy from energy[0] to [1], J */
    double collision_every, collision_energy[2]; /* every: s between rows (0: output.every) */
    rbl_mark at_collisions;
    rbl_mark at_contact, at_dt, at_walls, at_grains, at_domain;
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
 * *len), or NULL. */
const char *rbl_changes_refused(const char *changes, size_t *len);
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
/* The stage's scene (0: the scene itself, k: stage k's), for 0 <= k <= n_stages. */
const rbl_scene *rbl_scene_stage_scene(const rbl_scene *s, int k);
/* scene_yaml.c — an empty scene with the defaults, named path; the scene a document holds
 * (as_stage: a stage's merged document, whose length is the stage's). */
rbl_scene *rbl_scene_new(const char *path);
int rbl_scene_parse_document(rbl_scene *s, struct yaml_document_s *doc, int as_stage,
                             rbl_error *err);

/* fdo_surfaces.c — each perturbed object's surface F' = 0 (its shape's mesh, built once)
 * placed by its pose into surfaces_NNNNNN.vtp for frame n_frames - 1, and surfaces.pvd listing
 * the frames the folder holds. */
typedef struct rbl_fdo_surfaces {
    rbl_fdo_shape *shape;
    rbl_quad_mesh *mesh;
    size_t n, cap_shape, cap_mesh;
} rbl_fdo_surfaces;
int rbl_fdo_surfaces_write(rbl_fdo_surfaces *c, const char *dir, const rbl_fdo_sim *sim,
                           const double *times, size_t n_frames, rbl_error *err);
void rbl_fdo_surfaces_free(rbl_fdo_surfaces *c);

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

/* grain_frame.c — one .vtp frame of the grains with the chosen fields (output.fields: bits
 * 1 << RBL_FIELD_*), in id order; its arrays for a .pvtp (no data). */
enum {
    RBL_FIELD_RADIUS, RBL_FIELD_VELOCITY, RBL_FIELD_ANGULAR_VELOCITY, RBL_FIELD_ID,
    RBL_FIELD_CONTACT_FORCE, RBL_FIELD_CONTACTS, RBL_FIELD_CLUMP, RBL_FIELD_STRESS,
    RBL_FIELD_MASS, RBL_FIELD_MATERIAL, RBL_FIELD_CONTACT_TORQUE, RBL_FIELD_KINETIC_ENERGY,
    RBL_GRAIN_FIELD_COUNT
};
#define RBL_GRAIN_FIELDS_DEFAULT 0x1ffu /* radius .. stress, mass (issue 74: what rubble cg needs) */
unsigned rbl_grain_field_bit(const char *name); /* 0: no field of that name */
const char *rbl_grain_field_names(void);        /* all, for messages */
void rbl_grain_frame_layout(unsigned fields, rbl_vtp_layout *layout);
int rbl_grain_frame_write(const char *path, const rbl_sim *sim, unsigned fields, rbl_error *err);

/* contact_frame.c — the contact network of a frame (output.contacts): contacts_NNNNNN.vtp, a
 * line per contact between the centres (a wall contact: to its point on the wall) with the
 * contact's ids, point, normal, forces and overlap, and contacts_NNNNNN.csv, the same as a
 * table; in id order (rbl_sim_contacts). */
#define RBL_NETWORK_VTP 1
#define RBL_NETWORK_CSV 2
void rbl_contact_frame_layout(rbl_vtp_layout *layout);
int rbl_contact_frame_write(const char *path, const rbl_sim *sim, rbl_error *err);
int rbl_contact_table_write(const char *path, const rbl_sim *sim, rbl_error *err);
/* The same from a list already made (the impulse engine's: rbl_fdo_sim_contacts). */
int rbl_contact_list_vtp_write(const char *path, const rbl_contact_list *list, rbl_error *err);
int rbl_contact_list_csv_write(const char *path, const rbl_contact_list *list, rbl_error *err);

/* scene_cg_option.c — output.cg's mapping from text (YAML), replacing the scene's; messages
 * name `name` (an option) where they would name the scene. */
int rbl_scene_set_cg(rbl_scene *s, const char *text, const char *name, rbl_error *err);

/* cg_frame_read.c — a frame of the grains and its contact file (.vtp or .csv, by its name)
 * as rbl_cg_frame's arrays (owned here; frame.lo, hi, periodic and threads left for the
 * caller); inexact: a .vtp written before it held the branch vectors, taken from its lines'
 * ends. rbl_frame_time: a frame's time from the grains.pvd in its folder. */
typedef struct rbl_cg_frame_data {
    rbl_cg_frame frame;
    uint32_t *id;
    double *pos, *vel, *radius, *mass, *normal, *branch, *fn, *ft;
    int64_t *id1, *id2;
    int32_t *wall; /* a contact's wall number (-1: two grains) */
    int inexact;
} rbl_cg_frame_data;
int rbl_cg_frame_read(const char *grains, const char *contacts, rbl_cg_frame_data *d,
                      rbl_error *err);
/* A frame in n pieces (a .pvtp's, several processes'), each with its contact file: joined
 * and put in one process's order (rbl_cg_pieces_order). */
int rbl_cg_pieces_read(char *const *grains, char *const *contacts, size_t n,
                       rbl_cg_frame_data *d, rbl_error *err);
void rbl_cg_frame_data_free(rbl_cg_frame_data *d);
int rbl_frame_time(const char *frame, double *time, rbl_error *err);

/* cg_files.c — coarse-grained fields: a .vti of the grid's nodes, and a CSV profile along
 * an axis (each node layer's mean over the other two axes). */
int rbl_cg_vti_write(const char *path, const rbl_cg_fields *f, rbl_error *err);
int rbl_cg_profile_write(const char *path, const rbl_cg_fields *f, int axis, double time,
                         rbl_error *err);

/* vtk.c — the .pvd series listing a run's frames (files[k] NULL: frame k is left out). */
int rbl_pvd_write(const char *path, const double *times, char *const *files, size_t n,
                  rbl_error *err);
/* The same for a series that grows by a frame at a time: frame n - 1 added in place where the
 * file is as g says this writer left it, with n - 1 frames, and the line stays in the file's
 * last page (rbl_file_patch_tail), else written whole; either way a whole file at any moment. */
int rbl_pvd_add(const char *path, rbl_grown_file *g, const double *times, char *const *files,
                size_t n, rbl_error *err);
/* Which frames PREFIX_000000.vtp (or .pvtp, over several processes' pieces, or .vti: cg)
 * .. of a series the folder holds (a restart may write elsewhere): files[k] the name, or NULL where it is missing;
 * *missing counts those. */
int rbl_series_present(const char *dir, const char *prefix, size_t n, char **files,
                       size_t *missing, rbl_error *err);

/* walls_vtp.c — the walls (planes cut to the domain's box, mesh walls' facets) where they are
 * now, as one .vtp, with_loads their cells' loads; whether they need one per frame (some wall
 * moves, an open domain's planes, drawn within the grains' extent, the loads asked for, or a
 * mesh that wears) or one walls.vtp serves the run. */
int rbl_walls_vtp_write(const rbl_sim *sim, const char *path, int with_loads, rbl_error *err);
int rbl_walls_drawn_per_frame(const rbl_sim *sim, int loads);
/* An impulse scene's planes and tubes as walls.vtp (they do not move); *written 0 where it has
 * none (nothing written). */
int rbl_fdo_walls_vtp_write(const rbl_fdo_sim *sim, const char *path, int *written,
                            rbl_error *err);

/* thermo_csv.c — thermo.csv: a header and one row per sample, rewritten whole (atomically). */
typedef struct rbl_thermo_log {
    char *rows;
    size_t len, cap;
    size_t n_walls;
    int stage;              /* > 0: a staged run's stage now, its last column */
    int travel;             /* the walls' travel columns even before any wall moves (a stage
                               sets one moving later) */
} rbl_thermo_log;

/* A row: t, then, if n_layers, each layer's mean velocity along the axis (0-2) and kinetic
 * energy (output.layers). */
int rbl_thermo_log_add(rbl_thermo_log *log, const rbl_thermo *t, const rbl_layer_row *layers,
                       size_t n_layers, int axis, rbl_error *err);
/* Any text appended to the log (impulse scenes' own columns); 0 when out of memory. */
RBL_PRINTF(2, 3)
int rbl_thermo_log_append(rbl_thermo_log *log, const char *fmt, ...);
/* The log into path, whole, or (g not NULL) the rows added since g's write appended in place
 * where they can be (rbl_file_grow: the rows before must be as written then). */
int rbl_thermo_log_write(const rbl_thermo_log *log, const char *path, rbl_grown_file *g,
                         rbl_error *err);
/* Whether the rows (a checkpoint's) have the walls' travel columns; the columns added to rows
 * that lack them, each 0 (no wall had moved: a restart that changes physics sets one moving). */
int rbl_thermo_log_has_travel(const rbl_thermo_log *log);
int rbl_thermo_log_add_travel(rbl_thermo_log *log, rbl_error *err);
/* Rows read from a checkpoint (path) as a run writes them: a header of names, then rows of as
 * many numbers, each line ended; RBL_EPARSE naming the first that is not. */
int rbl_thermo_log_check(const rbl_thermo_log *log, const char *path, rbl_error *err);
void rbl_thermo_log_free(rbl_thermo_log *log);

/* grains_text.c */
int rbl_grains_read_text(rbl_sim *sim, const char *path, int material, size_t *placed,
                         rbl_error *err);
/* One process's part of the file, as several read it at once (a start over several
 * processes): the lines that start in bytes [start, end), numbered on from lines_before; the
 * grains of the parts before (grains_before) and of all (grains_total) take their ids, so each
 * process's get one process's ids; *placed counts all. Every part is checked as the whole. */
typedef struct rbl_text_part {
    uint64_t start, end, lines_before, grains_before, grains_total;
} rbl_text_part;
int rbl_grains_read_text_part(rbl_sim *sim, const char *path, int material,
                              const rbl_text_part *part, size_t *placed, rbl_error *err);
int rbl_grains_write_text(const rbl_sim *sim, const char *path, rbl_error *err);
/* Its header line and one grain's line (what a writer over several processes puts together
 * from each one's slice of the grains in id order): the bytes written, at most
 * RBL_GRAINS_TEXT_LINE - 1. */
#define RBL_GRAINS_TEXT_LINE 192
size_t rbl_grains_text_header(char out[RBL_GRAINS_TEXT_LINE], size_t n);
size_t rbl_grains_text_line(char out[RBL_GRAINS_TEXT_LINE], const double pos[3], double radius,
                            const double vel[3]);
/* fdo_final.c — an impulse scene's objects as text (output.final). */
int rbl_fdo_objects_write_text(const rbl_fdo_sim *sim, const char *path, rbl_error *err);

/* fdo_checkpoint.c — checkpoints of impulse scenes: the engine's state and the run's (step,
 * the pour sources' schedules, one per object source, frame times, thermo.csv so far);
 * reading fills a simulation made with the scene's parameters and walls and no objects, and
 * the caller's pours (s->n_objects of them), after checking the scene's digest. */
int rbl_fdo_checkpoint_write(const char *path, const rbl_scene *s, const rbl_fdo_sim *sim,
                             uint64_t step, const rbl_pour_state *pours, const double *times,
                             size_t n_frames, const rbl_thermo_log *log, rbl_error *err);
int rbl_fdo_checkpoint_read(const char *path, const rbl_scene *s, rbl_fdo_sim *sim,
                            uint64_t *step, rbl_pour_state *pours, double **times,
                            size_t *n_frames, rbl_thermo_log *log, rbl_error *err);

#endif
