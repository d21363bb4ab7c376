/* io_internal.h — a line reader that knows its file and line, for error messages of the form
 * "file:line: what is wrong: 'value'", and an atomic file writer (temporary name + rename). */
#ifndef RBL_IO_INTERNAL_H
#define RBL_IO_INTERNAL_H

#include "../base/base_internal.h"
#include "../parallel/parallel_internal.h" /* rbl_comm, rbl_domain: files written by all ranks */
#include "../dem/law_table.h"                /* the law's fields in CFG_DOUBLES, CFG_INTS */

#include <stdio.h>

typedef struct rbl_line_reader {
    FILE *file;
    const char *path;
    char *buf;
    size_t cap;
    long line;    /* number of the line last read (1-based) */
    char *cursor; /* next unread character of the current line */
    size_t max_line; /* bytes a line may hold (RBL_MAX_LINE_BYTES, read at open) */
    uint64_t offset, end; /* where the next line starts; the part's end (a line starting there
                             is the next part's) */
} rbl_line_reader;

int rbl_reader_open(rbl_line_reader *r, const char *path, rbl_error *err);
/* A part of a text file, as one of several processes reads it: the lines that start in bytes
 * [start, end) (a line starts at 0 or after a newline; one begun before start is the part
 * before's), numbered on from lines_before (the lines that start before start). */
int rbl_reader_open_part(rbl_line_reader *r, const char *path, uint64_t start, uint64_t end,
                         uint64_t lines_before, rbl_error *err);
/* The size of a regular file, which can be read in parts (another kind of file is refused). */
int rbl_text_size(const char *path, uint64_t *bytes, rbl_error *err);
/* Of the lines that start in bytes [start, end): how many (*lines) and how many hold
 * something other than blanks and a '#' comment (*meaningful; a line with a NUL byte counts,
 * as the reader refuses it), without parsing them. */
int rbl_text_part_count(const char *path, uint64_t start, uint64_t end, uint64_t *lines,
                        uint64_t *meaningful, rbl_error *err);
void rbl_reader_close(rbl_line_reader *r);
/* Advance to the next line holding something other than blanks and a '#' comment.
 * Returns 1 if found, 0 at end of file, negative on a read error. */
int rbl_reader_next(rbl_line_reader *r, rbl_error *err);
/* Count the numbers left on the current line (does not consume them). */
int rbl_reader_count_tokens(const rbl_line_reader *r);
/* Read the next token of the line as a finite double / a non-negative integer; what names
 * the quantity in the message. */
/* The next meaningful line, which must start with the word key (a keyword file's "key ..."
 * line); the cursor is left after it. */
int rbl_reader_key(rbl_line_reader *r, const char *key, rbl_error *err);
/* The next token of the line, cut out in place. */
int rbl_reader_word(rbl_line_reader *r, const char *what, char **out, rbl_error *err);
int rbl_reader_double(rbl_line_reader *r, const char *what, double *out, rbl_error *err);
int rbl_reader_size(rbl_line_reader *r, const char *what, size_t *out, rbl_error *err);
/* A count a header announces, checked before anything is allocated for it: beyond
 * RBL_VOUCH_FREE_ITEMS (whose allocation is small, and whose reader then names the line where
 * the data ends), the bytes left in a regular file must hold count items of at least
 * min_bytes each (separated: the last may lack its one-byte separator), and a stream whose
 * size cannot be told (a pipe) vouches for at most RBL_STREAM_ITEMS_MAX items. Names the line
 * and what. */
#define RBL_VOUCH_FREE_ITEMS 4096
#define RBL_STREAM_ITEMS_MAX ((uint64_t)1 << 24)
int rbl_reader_vouch(rbl_line_reader *r, uint64_t count, size_t min_bytes, int separated,
                     const char *what, rbl_error *err);

/* Atomic writer: everything goes to "<path>.tmp.<pid>.<n>" in the same folder; commit renames it
 * over path, abort (or any failure) removes it. */
typedef struct rbl_atomic_file {
    FILE *file;
    char *final_path;
    char *temp_path;
} rbl_atomic_file;

int rbl_atomic_open(rbl_atomic_file *f, const char *path, rbl_error *err);
int rbl_atomic_commit(rbl_atomic_file *f, rbl_error *err);
void rbl_atomic_abort(rbl_atomic_file *f);
/* The last `replace` bytes of the file at path, which must be `size` bytes long and end in
 * old_tail (replace <= RBL_PATCH_MAX), replaced in place by bytes[0..n), n >= replace, in one
 * write that stays inside one 4096-byte page of the file: the kernel copies such a write whole
 * or not at all, so a process killed at any point leaves the file as it was or as it is to be,
 * as a rename would, without a new file (a series grown by a frame at a time: rewriting it
 * whole made and deleted a file per frame, and ext4's inode allocation slows with the deleted
 * ones: 10,000 one-step stages took a minute). 1: done; 0: not done (another size or tail, a
 * write across a page, an error), the caller writes the file whole instead. */
#define RBL_PATCH_MAX 256
int rbl_file_patch_tail(const char *path, uint64_t size, const char *old_tail, size_t replace,
                        const char *bytes, size_t n);
/* A file a writer grows (a run's .pvd, thermo.csv), as it last left it: zeroed at first;
 * whole and patched count the writes of each kind (tests: what a run of many frames costs). */
typedef struct rbl_grown_file {
    uint64_t size;            /* its bytes; 0: not written yet, or unknown */
    size_t n;                 /* the items it holds (a .pvd's frames) */
    uint64_t whole, patched;
} rbl_grown_file;
/* data[0..len) into path, whose first g->size bytes it begins with where g->size > 0: the
 * rest appended in place when it stays in the file's last page (rbl_file_patch_tail, which
 * checks the file's last bytes against data's), else the whole written atomically. */
int rbl_file_grow(const char *path, rbl_grown_file *g, const char *data, size_t len,
                  rbl_error *err);
/* Files that appear together or not at all (a command's outputs): each is written, by any
 * atomic writer, under its staged name ("<path>.staged"); publish renames them all into place
 * when rc is RBL_OK and every one was written, else removes them (and any it had already
 * renamed), so a failure leaves none of them. Returns rc, or the failure of a rename. */
#define RBL_FILE_GROUP_MAX 8
typedef struct rbl_file_group {
    int n;
    char *final_path[RBL_FILE_GROUP_MAX];
    char *staged_path[RBL_FILE_GROUP_MAX];
} rbl_file_group;

/* The name to write path under (*staged, owned by the group). */
int rbl_group_stage(rbl_file_group *g, const char *path, const char **staged, rbl_error *err);
int rbl_group_publish(rbl_file_group *g, int rc, rbl_error *err);
/* mkdir -p */
int rbl_make_dirs(const char *path, rbl_error *err);
/* "dir/name", malloc'd (NULL: out of memory). */
char *rbl_path_join(const char *dir, const char *name);
/* 1 when a run writes a file of this name into its output folder (a series, thermo.csv, the
 * walls, the checkpoints, the coarse-grained fields): output.final must not take it. */
int rbl_run_output_name(const char *name);
/* Removes from dir the staging files ("NAME.tmp.PID.K") of a run's outputs (and of the file
 * final_name, output.final, unless NULL) whose process is gone (killed while writing); those
 * of a live process stay. Their count. */
size_t rbl_remove_stale_temps(const char *dir, const char *final_name);
/* 1 when both paths exist and name the same file. */
int rbl_same_file(const char *a, const char *b);

/* vtk.c — a VTK XML PolyData file: points, per-point arrays, and either one vertex per point
 * (cells = NULL) or polygons (lines: polylines): of cell_size corners each, or, with
 * cell_ends, cell k's corners are cells[cell_ends[k - 1] .. cell_ends[k]) (cell_ends[-1] read
 * as 0); cell_arrays hold one entry per cell (per point for vertices). */
typedef struct rbl_vtp_array {
    const char *type, *name; /* VTK type ("Float64", "UInt32"), array name */
    int components;
    size_t elem;             /* bytes per component */
    const void *data;
} rbl_vtp_array;

typedef struct rbl_vtp_polydata {
    size_t n_points;
    const double *points; /* 3 per point */
    const rbl_vtp_array *arrays;
    int n_arrays;
    const uint32_t *cells; /* NULL: vertices */
    size_t n_cells;
    int cell_size;
    const uint32_t *cell_ends; /* NULL: every cell has cell_size corners */
    int lines;                 /* the cells are Lines, not Polys */
    const rbl_vtp_array *cell_arrays;
    int n_cell_arrays;
} rbl_vtp_polydata;

int rbl_vtp_polydata_write(const char *path, const rbl_vtp_polydata *pd, rbl_error *err);
/* file_bytes.c — the file at path read whole (*bytes malloc'd, size + 1 bytes, NUL after the
 * last), at the size the file system gives; messages name the file. */
int rbl_file_bytes(const char *path, unsigned char **bytes, size_t *size, rbl_error *err);
/* vtp_read.c — a .vtp rubble wrote, read back whole: its points' and cells' counts (lines, or
 * else vertices) and, by section ("PointData", "CellData", "Points") and name, an array of the
 * given type and components holding count entries, copied out (malloc'd). Messages name the
 * file, the byte and the value. */
typedef struct rbl_vtp_file {
    const char *path;
    unsigned char *bytes;
    size_t size, data; /* the file's bytes; where its appended data starts */
    size_t n_points, n_cells;
} rbl_vtp_file;
int rbl_vtp_read(const char *path, rbl_vtp_file *f, rbl_error *err);
int rbl_vtp_array_read(const rbl_vtp_file *f, const char *section, const char *name,
                       const char *type, int components, size_t count, void **out,
                       rbl_error *err);
int rbl_vtp_has_array(const rbl_vtp_file *f, const char *section, const char *name);
void rbl_vtp_file_free(rbl_vtp_file *f);
/* The pieces a .pvtp lists (several processes' frame), as paths beside it (malloc'd, each and
 * the array); a piece named with a '/' is refused. */
int rbl_pvtp_pieces(const char *path, char ***pieces, size_t *n, rbl_error *err);
/* The arrays of a kind of frame (its point and cell arrays), with or without their data. */
#define RBL_VTP_MAX_ARRAYS 16
typedef struct rbl_vtp_layout {
    rbl_vtp_array point[RBL_VTP_MAX_ARRAYS], cell[RBL_VTP_MAX_ARRAYS];
    int n_point, n_cell;
} rbl_vtp_layout;
/* A frame over several processes: the .pvtp that gathers their pieces (.vtp files of the
 * layout's arrays, names relative to the .pvtp's folder; the layout's data is not read). */
int rbl_pvtp_write(const char *path, const rbl_vtp_layout *layout, char *const *pieces, int n,
                   rbl_error *err);

/* checkpoint.c — a checkpoint file: magic, format version, byte-order mark, payload size, the
 * payload and its FNV-1a checksum, written atomically; reading checks each (the magic names
 * a checkpoint of the other kind) and allocates no more than the file holds. */
#define RBL_FDO_CKPT_MAGIC "RUBBLEFO" /* an impulse scene's (fdo_checkpoint.c) */
int rbl_checkpoint_file_write(const char *path, const char magic[8], uint32_t version,
                              const void *payload, size_t len, rbl_error *err);
int rbl_checkpoint_file_read(const char *path, const char magic_wanted[8], uint32_t version_wanted,
                             uint32_t *version_got, void **payload, size_t *payload_len,
                             rbl_error *err);
/* The file opened, its header checked (magic, version, byte order, the payload's size against
 * the file's), at the payload's first byte; the checksum not read. A grains checkpoint of a
 * format from CKPT_VERSION_OLDEST on is read too; *version_got (when not NULL) the file's. */
int rbl_checkpoint_file_open(const char *path, const char magic_wanted[8],
                             uint32_t version_wanted, uint32_t *version_got, FILE **f,
                             uint64_t *payload_len, rbl_error *err);
/* The configuration a checkpoint holds, field by field: doubles, then integers (checkpoint.c
 * writes them, restart_check.c compares them with the scene's); the contact law's models from
 * the law's table (src/dem/law_table.h). Its block models' coefficients follow by name
 * (format 26: those the law's models take, "family.key" and value each), so that a model
 * added to the table shifts no field; format 24 and older held ABI 1's three here, after
 * CFG_DOUBLES (CKPT_V24_LAW_DOUBLES, read only). */
#define CFG_LAW_FAMILY(X, family, models, key, block) X(law.family)
#define CFG_DOUBLES(X)                                                                         \
    X(lo[0]) X(lo[1]) X(lo[2]) X(hi[0]) X(hi[1]) X(hi[2]) X(gravity[0]) X(gravity[1])          \
    X(gravity[2]) X(dt) X(skin) X(cell_factor) X(law.kn) X(law.kt) X(law.gamma_n)              \
    X(law.gamma_t) X(law.friction) X(impact_velocity) X(self_gravity.G) X(self_gravity.theta)     \
    X(self_gravity.lattice) X(escape)
#define CKPT_V24_LAW_DOUBLES(X)                                                                \
    X(law.rolling_friction) X(law.cohesion_energy_density) X(law.surface_energy)
#define CFG_INTS(X)                                                                            \
    X(periodic[0]) X(periodic[1]) X(periodic[2]) X(integrator) X(law.from_materials)           \
    X(threads) X(sort_every) X(self_gravity.method) X(self_gravity.cells)                      \
    X(self_gravity.every) X(open) X(law.collisions) RBL_LAW_FAMILIES_WITH(CFG_LAW_FAMILY, X)

/* Grains: the simulation plus an opaque block of the caller's run state. */
/* checkpoint_ranks.c — over several processes: the same checkpoint written by all at once,
 * each its own grains (domain d's), none holding the others'. Collective. */
int rbl_checkpoint_write_ranks(const char *path, rbl_comm *c, rbl_domain *d,
                               const rbl_sim *sim, const void *extra, size_t extra_len,
                               rbl_error *err);
/* A file whose pieces every process writes at once (rbl_comm_write_pieces) into a temporary
 * name, renamed into place when all have written. Collective. */
int rbl_ranks_write_file(rbl_comm *c, const char *path, const rbl_file_piece *pieces, size_t n,
                         rbl_error *err);
int rbl_checkpoint_write(const char *path, const rbl_sim *sim, const void *extra,
                         size_t extra_len, rbl_error *err);
int rbl_checkpoint_read(const char *path, rbl_sim **sim, void **extra, size_t *extra_len,
                        rbl_error *err);
/* checkpoint_read_ranks.c — over several processes: each reads only its share of the file's
 * grains and clumps (the shares rbl_domain_create keeps of a whole read: a clump's members
 * with it) and, in pairs and walls, the histories of their contacts (a pair's at both of its
 * grains' holders); none holds the others'. Then rbl_domain_create_apart. Collective. */
struct rbl_history_rows;
int rbl_checkpoint_read_ranks(const char *path, rbl_comm *c, rbl_sim **sim, void **extra,
                              size_t *extra_len, struct rbl_history_rows *pairs,
                              struct rbl_history_rows *walls, rbl_error *err);

/* stl.c — an STL surface (open or closed) for a mesh wall: every corner scaled, then moved
 * by offset, welded (rbl_mesh_weld: facets without area refused). */
int rbl_stl_read_surface(const char *path, double scale, const double offset[3], rbl_mesh *mesh,
                         rbl_error *err);

/* The files a run writes and rubble cg reads: frames, contact networks, CG fields, series,
 * walls, thermo.csv, grain and object text (they take the engine's state, never a scene). */
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
#define RBL_NETWORK_BIN 4
struct rbl_contact_row;    /* dem_internal.h */
struct rbl_contact_filter; /* dem_internal.h */
/* What a scene asks of its contact files (issue 74): the columns beyond the force's
 * (RBL_CONTACT_*), the contacts kept (NULL: all). */
#define RBL_CONTACT_SPRING 1u
#define RBL_CONTACT_SLIDING 2u
#define RBL_CONTACT_ROLLING 4u
#define RBL_CONTACT_AGE 8u
typedef struct rbl_contact_output {
    unsigned columns;
    const struct rbl_contact_filter *filter;
} rbl_contact_output;
void rbl_contact_frame_layout(unsigned columns, rbl_vtp_layout *layout);
int rbl_contact_frame_write(const char *path, const rbl_sim *sim, const rbl_contact_output *o,
                            rbl_error *err);
int rbl_contact_table_write(const char *path, const rbl_sim *sim, const rbl_contact_output *o,
                            rbl_error *err);
int rbl_contact_bin_write(const char *path, const rbl_sim *sim, const rbl_contact_output *o,
                          rbl_error *err);
/* The same from rows (rbl_sim_contact_rows'), with the columns asked for. */
int rbl_contact_rows_vtp_write(const char *path, const struct rbl_contact_row *rows, size_t n,
                               unsigned columns, rbl_error *err);
int rbl_contact_rows_csv_write(const char *path, const struct rbl_contact_row *rows, size_t n,
                               unsigned columns, rbl_error *err);
/* contact_bin.c: the binary table, docs/formats.md "Contact table": RBL_CONTACT_BIN_MAGIC,
 * then uint32 version, uint32 columns, uint64 rows, uint64 grain pairs among them; per column
 * a 32-byte record (name NUL-padded in 24 bytes, type 'i' / 'u' / 'f', bytes per value,
 * uint16 components, 4 bytes 0); then each column's values, row by row; little-endian. */
#define RBL_CONTACT_BIN_MAGIC "RBLCONTS"
#define RBL_CONTACT_BIN_VERSION 1
#define RBL_CONTACT_BIN_NAME 24
int rbl_contact_rows_bin_write(const char *path, const struct rbl_contact_row *rows, size_t n,
                               unsigned columns, rbl_error *err);
/* contact_bin_read.c: such a table read back, checked against its file's size before
 * anything is taken by a count (a refusal names the file and the byte); the columns' values
 * left in the file's bytes (t->bytes), taken out by name as doubles or integers (rows x
 * components of them). parse: from bytes held by the caller (t->bytes stays NULL). */
#define RBL_CONTACT_BIN_MAX_COLUMNS 64
typedef struct rbl_contact_bin_column {
    char name[RBL_CONTACT_BIN_NAME];
    char type;                    /* 'i' signed, 'u' unsigned, 'f' double */
    int bytes, components;        /* per value (8, 4, 1); 1 or 3 */
    const unsigned char *values;  /* rows x components values, little-endian */
} rbl_contact_bin_column;
typedef struct rbl_contact_bin {
    size_t rows, pairs;           /* contacts; grain pairs among them (first) */
    int n_columns;
    rbl_contact_bin_column column[RBL_CONTACT_BIN_MAX_COLUMNS];
    unsigned char *bytes;         /* the file's (rbl_contact_bin_read's) */
} rbl_contact_bin;
int rbl_contact_bin_read(const char *path, rbl_contact_bin *t, rbl_error *err);
int rbl_contact_bin_parse(const char *path, const unsigned char *bytes, size_t size,
                          rbl_contact_bin *t, rbl_error *err);
void rbl_contact_bin_free(rbl_contact_bin *t);
int rbl_contact_bin_doubles(const rbl_contact_bin *t, const char *path, const char *name,
                            int components, double *out, rbl_error *err);
int rbl_contact_bin_integers(const rbl_contact_bin *t, const char *path, const char *name,
                             int64_t *out, rbl_error *err);
/* contact_columns.c — the columns, described once (the .vtp's, .csv's and binary table's). */
typedef struct rbl_contact_column {
    int id;
    const char *name, *csv, *vtk; /* .vtp and binary; the .csv's stem (_x, _y, _z); VTK type */
    int components;
    size_t size;  /* bytes per value */
    int integer;  /* printed as an integer */
    unsigned bit; /* RBL_CONTACT_*, 0: always */
} rbl_contact_column;
typedef struct rbl_contact_value {
    int64_t i;
    double d;
} rbl_contact_value;
int rbl_contact_column_count(void);
const rbl_contact_column *rbl_contact_column_at(int k);
int rbl_contact_column_wanted(const rbl_contact_column *c, unsigned asked);
unsigned rbl_contact_column_bit(const char *name); /* a study column by name, 0: none */
const char *rbl_contact_column_names(void);         /* the study columns, for messages */
rbl_contact_value rbl_contact_column_value(const rbl_contact_column *c, const struct rbl_contact_row *r,
                                           int component);
/* The column's values over the rows, n x components of its type (malloc'd; NULL: no memory). */
void *rbl_contact_column_array(const rbl_contact_column *c, const struct rbl_contact_row *rows,
                               size_t n);
/* bonds_frame.c (issue 72): bonds_NNNNNN.vtp, the bonds as lines with their loads, and
 * breaks.csv, every breakage so far by its step. */
int rbl_bonds_frame_write(const char *path, const rbl_bond_view *view, size_t n, rbl_error *err);
int rbl_bonds_breaks_write(const char *path, const rbl_bond_view *view, size_t n, double dt,
                           rbl_error *err);
/* bond_file.c (issue 72): bonds listed in a file, n of them: their ids (pairs, lower first),
 * radius (0: lambda min(R_i, R_j)) and line; refused at a bad line. */
typedef struct rbl_bond_file {
    uint32_t *pairs;
    double *radius;
    long *line;
    size_t n;
} rbl_bond_file;
int rbl_bond_file_read(const char *path, rbl_bond_file *f, rbl_error *err);
void rbl_bond_file_free(rbl_bond_file *f);
/* motion_file.c (issue 73): a wall's motion table from a text file, its rows and each row's
 * line; refused at a bad line (the engine's checks of the rows included). */
typedef struct rbl_motion_file {
    rbl_motion_row *rows;
    long *line;
    size_t n;
} rbl_motion_file;
int rbl_motion_file_read(const char *path, rbl_motion_file *f, rbl_error *err);
void rbl_motion_file_free(rbl_motion_file *f);
/* fragments_csv.c (issue 72): a frame's fragments (by label) and their size distribution. */
int rbl_fragments_write(const char *path, const char *sizes_path, const rbl_fragment *f,
                        size_t n, rbl_error *err);
/* The same from a list already made (the impulse engine's: rbl_fdo_sim_contacts). */
int rbl_contact_list_vtp_write(const char *path, const rbl_contact_list *list, rbl_error *err);
int rbl_contact_list_csv_write(const char *path, const rbl_contact_list *list, rbl_error *err);
/* ... in one format, RBL_NETWORK_VTP, _CSV or _BIN. */
int rbl_contact_list_write(const char *path, const rbl_contact_list *list, int format,
                           rbl_error *err);
/* The files output.contacts writes, for the run's report ("contacts.pvd, contacts_NNNNNN.csv"). */
void rbl_contact_files_name(int network, char *out, size_t size);

/* cg_frame_read.c — a frame of the grains and its contact file (.vtp, .csv or .bin, by its name)
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
/* wall_force: rbl_cg_wall_force_get's 3 per node, written after the fields as `wall_force` */
int rbl_cg_vti_write(const char *path, const rbl_cg_fields *f, const double *wall_force,
                     rbl_error *err);
/* labels: the grid's axes and components, "xyz", or "rtz" / "rtp" (cylindrical, spherical) */
int rbl_cg_profile_write(const char *path, const rbl_cg_fields *f, const double *wall_force,
                         int axis,
                         const int average[3], const char *labels, double time,
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
 * now, as one .vtp, with load_sums (rbl_walls_load_sums of every wall: NULL none) their
 * cells' loads and the meshes' wear; whether they need one per frame (some wall
 * moves, an open domain's planes, drawn within the grains' extent, the loads asked for, or a
 * mesh that wears) or one walls.vtp serves the run. */
int rbl_walls_vtp_write(const rbl_sim *sim, const char *path, const double *load_sums,
                        const double *grains_box, rbl_error *err);
/* An open domain's planes are drawn by the grains' extent: grains_box, this process's grains'
 * lo (3), hi (3) and largest radius (rbl_walls_grains_box; over several processes their
 * minima and maxima), or NULL for this process's. */
void rbl_walls_grains_box(const rbl_sim *sim, double box[7]);
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
    int bonds;              /* the bonds' counts, before the stage (issue 72) */
    size_t bonds_intact, bonds_broken; /* this row's */
    int shear;              /* a sheared cell's columns (docs/shear.md) */
    rbl_shear_state shear_state; /* this row's */
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
/* Whether the rows have the bonds' counts; the columns added to rows that lack them (bonds
 * made from outside a scene's `bonds:`, issue 72): 0 in each row but the last, which gets
 * the counts given (the caller's: those of its step, or 0); log->bonds set. */
int rbl_thermo_log_has_bonds(const rbl_thermo_log *log);
int rbl_thermo_log_add_bonds(rbl_thermo_log *log, size_t intact, size_t broken,
                             rbl_error *err);
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

#endif
