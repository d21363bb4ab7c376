/* run_internal.h — the run as an object (issue 42): run.c holds what every run does (the
 * schedule of events, stepping in pieces, progress, the checkpoints kept, the report's common
 * figures); a kind holds what its engine does: grain_run.c (the soft-sphere engine, over one
 * or several processes) and object_run.c (impulse dynamics of objects, seed 003). */
#ifndef RBL_RUN_INTERNAL_H
#define RBL_RUN_INTERNAL_H

#include "run_ranks.h"
#include "../io/io_internal.h"
#include "../scene/scene_internal.h"

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

/* checkpoint_series.c — the checkpoints a run writes, the last `keep` of them kept (0: all). */
typedef struct rbl_checkpoint_series {
    uint64_t *steps;    /* of this run, in order */
    size_t n, cap, first; /* steps[first..n) are still on disk */
    size_t keep;
} rbl_checkpoint_series;
/* "checkpoint_NNNNNNNNN.bin" for the step */
void rbl_checkpoint_name(char *buf, size_t size, uint64_t step);
/* After the checkpoint of step is written whole into dir: removes those beyond keep. */
int rbl_checkpoint_series_add(rbl_checkpoint_series *cs, const char *dir, uint64_t step,
                              rbl_error *err);
/* How many of this run's are on disk; the last one's name into last. */
size_t rbl_checkpoint_series_kept(const rbl_checkpoint_series *cs, char *last, size_t size);
void rbl_checkpoint_series_free(rbl_checkpoint_series *cs);

/* progress.c — a run's progress calls (rbl_run_options.progress), with a recent rate. */
#define RBL_PROGRESS_WINDOW 20 /* calls in the rate's window: 10 s at the default 0.5 s */
typedef struct rbl_progress {
    rbl_progress_fn fn;
    void *userdata;
    double interval, start, last;
    uint64_t step[RBL_PROGRESS_WINDOW];
    double time[RBL_PROGRESS_WINDOW];
    size_t n;
} rbl_progress;
void rbl_progress_start(rbl_progress *p, const rbl_run_options *opt, uint64_t step, double now);
/* Calls the progress function if the interval has passed or step == total. */
void rbl_progress_update(rbl_progress *p, uint64_t step, uint64_t total, double time,
                         double end_time, size_t grains, double now);
/* The status the progress function is given, as of now. */
void rbl_progress_status(const rbl_progress *p, uint64_t step, uint64_t total, double time,
                         double end_time, size_t grains, double now, rbl_run_status *st);

/* cg_output.c — a run's coarse-grained fields (output.cg): sampled every `sample` steps,
 * written at every `window` (0: none). */
typedef struct rbl_cg_output {
    rbl_cg *cg; /* NULL: the scene asks for none */
    const char *dir;
    int axis;
    double dt;
    uint64_t sample, window;
    uint64_t key; /* its grid, kernel and window, hashed: a checkpoint's open window is taken
                     up only by the same (a restart may change output.cg) */
    rbl_comm *comm; /* over several processes: the samples gathered on rank 0, which writes */
    int rank;
} rbl_cg_output;
int rbl_cg_output_start(rbl_cg_output *o, const rbl_scene *s, const rbl_sim *sim,
                        const char *dir, double dt, uint64_t *sample, rbl_error *err);
/* At step: a sample if it falls on one, the window's mean written if it ends there. */
int rbl_cg_output_sample(rbl_cg_output *o, const rbl_sim *sim, uint64_t step, rbl_error *err);
/* The scene's output.cg grid (its box the domain's unless given), its kernel checked against
 * the periodic sides; and one output's files, cg_KKKKKK.vti and cg_profile_KKKKKK.csv (the
 * mean of cg's samples at `time`): also `rubble cg`'s (cg_job.c). */
int rbl_cg_output_grid(const rbl_scene *s, rbl_cg_options *opt, rbl_error *err);
int rbl_cg_files_write(const rbl_cg *cg, const char *dir, size_t k, int axis, double time,
                       rbl_error *err);
/* A checkpoint's share: the open window's sums (size bytes); restore returns 0 for bytes that
 * are not such a share (a window of another grid, kernel or window, or of none, is dropped, not
 * refused: the window open at a restart that changes output.cg starts there). */
size_t rbl_cg_output_state_size(const rbl_cg_output *o);
void rbl_cg_output_state(const rbl_cg_output *o, unsigned char *at);
int rbl_cg_output_restore(rbl_cg_output *o, const unsigned char *at, size_t len);
/* The length of the share that begins at `at` (len bytes follow), from its header; 0 where
 * the bytes cannot begin one. */
size_t rbl_cg_output_state_length(const unsigned char *at, size_t len);
void rbl_cg_output_free(rbl_cg_output *o);

/* collision_output.c — output.collisions: the engine's tally of contact events written as
 * collisions.csv rows every `every` steps and at the run's end (rows kept in memory, as
 * thermo.csv's, and carried by checkpoints with the open interval's tally). */
typedef struct rbl_collision_output {
    int on;
    const char *dir;
    char *path;
    const char *const *names; /* the scene's materials */
    double dt;
    uint64_t every, last; /* steps between rows; the step the open interval began */
    uint64_t key;         /* the bins and energies, hashed: a checkpoint's tally is taken up
                             only by the same */
    char *rows;           /* collisions.csv so far, its header first */
    size_t len, cap;
    rbl_grown_file file;
} rbl_collision_output;
/* The engine's statistics set as the scene asks (on or off: a checkpoint's slots re-laid). */
int rbl_collision_output_start(rbl_collision_output *o, const rbl_scene *s, rbl_sim *sim,
                               const char *dir, double dt, uint64_t *every, rbl_error *err);
/* The interval that ends at step: its rows (rank 0) and the tally cleared (collective). */
int rbl_collision_output_write(rbl_collision_output *o, rbl_run_ranks *ranks, rbl_sim *sim,
                               uint64_t step, rbl_error *err);
/* A checkpoint's share (size bytes: 0 when off; state is collective) and its restore. */
size_t rbl_collision_output_state_size(const rbl_collision_output *o, const rbl_sim *sim);
void rbl_collision_output_state(rbl_collision_output *o, rbl_run_ranks *ranks, rbl_sim *sim,
                                unsigned char *at);
size_t rbl_collision_output_state_length(const unsigned char *at, size_t len);
int rbl_collision_output_restore(rbl_collision_output *o, rbl_run_ranks *ranks, rbl_sim *sim,
                                 const unsigned char *at, size_t len, const char *path,
                                 rbl_error *err);
void rbl_collision_output_free(rbl_collision_output *o);
/* run_share.c — rows of text grown in memory (rows, len, cap: the text NUL-ended; `file` for
 * the message); n exact sums as bytes, (RBL_EXACT_LIMBS + 1) * 8 each, at `at`, returning
 * where they end; a checkpoint share's length from its header (magic, length: 0 where the
 * bytes cannot begin one of `head` bytes or more). */
#define RBL_EXACT_BYTES (RBL_EXACT_LIMBS * 8 + 8)
int rbl_rows_append(char **rows, size_t *len, size_t *cap, const char *text, size_t n,
                    const char *file, rbl_error *err);
unsigned char *rbl_exact_put(unsigned char *at, const rbl_exact_sum *sums, size_t n);
const unsigned char *rbl_exact_get(const unsigned char *at, rbl_exact_sum *sums, size_t n);
size_t rbl_share_length(const unsigned char *at, size_t len, uint64_t magic, size_t head);

/* flow_output.c — output.flow_window (issue 74): the flow counters' and outlets' crossings
 * over windows, flow.csv's rows, every `every` steps and at the run's end (rows kept in memory
 * and carried by checkpoints with the sums at the open window's start). */
typedef struct rbl_flow_output {
    int on;
    char *path;
    double dt;
    uint64_t every, last; /* steps a window; the step the open window began */
    size_t n;             /* sums: 4 per counter, then 2 per outlet */
    rbl_exact_sum *start, *now; /* the run's at `last` (over the processes); scratch */
    char *rows;           /* flow.csv so far, its header first */
    size_t len, cap;
    rbl_grown_file file;
} rbl_flow_output;
/* Starts the windows at the run's step (collective: the sums over the processes). */
int rbl_flow_output_start(rbl_flow_output *o, const rbl_scene *s, rbl_run_ranks *ranks,
                          rbl_sim *sim, const char *dir, double dt, uint64_t *every,
                          rbl_error *err);
/* The window that ends at step: its rows (rank 0; collective). */
int rbl_flow_output_write(rbl_flow_output *o, rbl_run_ranks *ranks, rbl_sim *sim,
                          uint64_t step, rbl_error *err);
/* A checkpoint's share (0 bytes when off) and its restore. */
size_t rbl_flow_output_state_size(const rbl_flow_output *o);
void rbl_flow_output_state(const rbl_flow_output *o, unsigned char *at);
size_t rbl_flow_output_state_length(const unsigned char *at, size_t len);
int rbl_flow_output_restore(rbl_flow_output *o, const rbl_sim *sim, const unsigned char *at,
                            size_t len, const char *path, rbl_error *err);
void rbl_flow_output_free(rbl_flow_output *o);
/* The engine's tally of materials a and b (wall: b a wall's), bins -1 .. bins into out[0 ..
 * n - 1] (n = bins + 2), summed over the processes in exact sums and left as it was on each
 * (collective; rbl_run_collision_bins). */
int rbl_collision_output_bins(rbl_run_ranks *ranks, const rbl_sim *sim, int a, int b, int wall,
                              rbl_collision_bin *out, int n, rbl_error *err);

typedef struct rbl_run_kind rbl_run_kind;

/* When the scene's events fall, in steps (each a multiple of its interval; 0: none). */
typedef struct rbl_run_events {
    uint64_t total;       /* the scene's last step (run.time, run.steps or --steps) */
    uint64_t frame, thermo, checkpoint;
    /* the last step an interval the scene did not set (frames: first and last; thermo rows:
     * a share of the run) falls on: past the scene's end such events stop (UINT64_MAX: set) */
    uint64_t frame_until, thermo_until;
    uint64_t spin, n_spin; /* a spin step at every multiple of `spin`, n_spin of them */
    uint64_t hook;         /* the caller's hook (rbl_run_set_hook) at every multiple */
    uint64_t cg;           /* a coarse-graining sample at every multiple (kind->cg) */
    uint64_t collisions;   /* collisions.csv's rows at every multiple and at the end */
    uint64_t flows;        /* flow.csv's rows at every multiple and at the end */
    uint64_t base;         /* the stage's first step: its frames and rows fall on multiples of
                              their intervals from there (0 without stages) */
} rbl_run_events;

/* A restart's hook as its checkpoint left it (format 15): its `every` (0: it had none), the
 * step it was last called at, and the external forces it had asked for, by grain id (n of
 * them; none where all were zero). A hook of that `every` set again before the first step
 * resumes it: the forces back, and no call before its next step (rbl_run_set_hook). */
typedef struct rbl_run_resume {
    uint64_t every, last;
    size_t n;
    uint32_t *id;
    double *fext;
} rbl_run_resume;

/* The restart's hook held (grain_run.c) is dropped: a hook of another `every` or a step. */
void rbl_run_resume_drop(rbl_run_resume *h);

struct rbl_run {
    const rbl_scene *scene;
    rbl_run_options opt;  /* the caller's; its strings copied below */
    char *dir;            /* the output folder */
    char *restart;        /* the checkpoint it started from, or NULL */
    const rbl_run_kind *kind;
    void *engine;         /* the kind's state */
    rbl_sim *sim;         /* the grains' engine (NULL: impulse dynamics) */
    rbl_fdo_sim *objects; /* the impulse engine (NULL: grains) */
    rbl_run_ranks ranks;  /* the processes (one: no communicator) */
    double dt;
    uint64_t step;        /* done: the engine's step count */
    uint64_t first_step;  /* where this object started (a restart's step) */
    rbl_run_events events;
    rbl_progress progress;
    rbl_checkpoint_series checkpoints;
    double seconds;       /* wall time in rbl_run_step */
    double particle_steps;
    int failed;           /* a step or an event failed: the run steps no more */
    rbl_run_hook hook;    /* rbl_run_set_hook's, or NULL */
    int stepping;         /* inside rbl_run_step: its hook may not step the run again */
    void *hook_data;
    uint64_t hook_last;   /* the step the hook was last called at (checkpoints carry it) */
    rbl_run_resume resume; /* a restart's hook, until the caller sets one or steps */
    const volatile sig_atomic_t *stop; /* rbl_run_set_stop's flag, or NULL */
    int stopped;           /* the signal that stopped the run (the largest over the ranks) */
    rbl_run_interrupt interrupt; /* rbl_run_set_interrupt's, or NULL */
    void *interrupt_data;
    rbl_warnings warnings; /* the scene's and the set-up's (setup_warnings.c) */
    int stage;             /* the stage now (from 1; 0: the scene has none) */
    uint64_t *stage_start; /* stage k runs from stage_start[k - 1] to stage_start[k] */
};

/* setup_warnings.c — the scene's warnings and those of the run's set-up (an output folder
 * holding an earlier run's files; with the grains, on one process: contacts too soft for the
 * first impacts) into r->warnings. */
int rbl_run_setup_warnings(rbl_run *r, rbl_error *err);
/* plausibility.c — with the grains built (a fresh run): values that read as other units,
 * gravity pointing away from every wall, a mesh wall off from the grains by a factor of units,
 * a drum's omega meant as rpm; into r->warnings. 0: out of memory. */
int rbl_run_plausibility(rbl_run *r);
/* work_estimate.c — the run's wall time before its first step (its events scheduled): a
 * notice from a minute, a warning from an hour into r->warnings. Every process calls it.
 * 0: out of memory. */
int rbl_run_work_estimate(rbl_run *r);

/* What a kind of engine does for the run; each returns RBL_OK or an error in err. */
struct rbl_run_kind {
    /* Steps between two looks at the events and progress (with no event nearer): the
     * grains' engine steps in runs of 200 (and stops at each pour's batch: pour_next),
     * objects one at a time (pours checked each step). */
    uint64_t stride;
    /* Thermo rows over the scene's length when it sets neither output.thermo_every nor
     * output.every (grains 100, objects 10). */
    double thermo_rows;
    /* Build the engine from the scene, or load r->restart: r->engine, r->dt, r->step; checks
     * that need the engine before anything is written (a pour beyond --max-grains). */
    int (*open)(rbl_run *r, rbl_error *err);
    /* After the output folder is made and before the first step: files written once, the
     * health check's energy reference (the state now). */
    int (*begin)(rbl_run *r, rbl_error *err);
    /* Grains (objects) now, over every process. */
    size_t (*count)(rbl_run *r);
    int (*advance)(rbl_run *r, uint64_t steps, rbl_error *err);
    /* What the caller did to the engine between two rbl_run_step calls (velocities set from
     * Python) is work put in, for the health check's energy balance: remembered as the
     * stepping ends (entering 0), booked as the next begins (entering 1). NULL: nothing. */
    void (*outside)(rbl_run *r, int entering);
    /* What a caller may write between steps and a hook may set (velocities, spins, external
     * forces) checked before each stepping and after each hook call: a value that is not a
     * number refused, naming the grain. NULL: nothing to check. */
    int (*written)(rbl_run *r, rbl_error *err);
    int (*spin)(rbl_run *r, rbl_error *err); /* NULL: the kind has no spin steps */
    int (*thermo)(rbl_run *r, rbl_error *err);
    int (*thermo_file)(rbl_run *r, rbl_error *err); /* thermo.csv rewritten with the rows */
    int (*frame)(rbl_run *r, rbl_error *err);
    int (*pour)(rbl_run *r, double now, rbl_error *err);
    /* The first step after `step` at which a pour's next batch falls due (rbl_pour_step),
     * for the stepping to stop at (UINT64_MAX: none); NULL: the kind stops at every step. */
    uint64_t (*pour_next)(const rbl_run *r, uint64_t step);
    /* output.cg's sample at this step (and its output, ending a window); NULL: none. Sets
     * r->events.cg when the run begins. */
    int (*cg)(rbl_run *r, rbl_error *err);
    /* output.collisions' rows of the interval that ends at this step; NULL: none. Sets
     * r->events.collisions when the run begins. */
    int (*collisions)(rbl_run *r, rbl_error *err);
    /* output.flow_window's rows of the window that ends at this step; NULL: none. Sets
     * r->events.flows when the run begins. */
    int (*flows)(rbl_run *r, rbl_error *err);
    int (*checkpoint)(rbl_run *r, rbl_error *err);
    /* Stage r->stage begins now: its scene's physics taken by the engine (stage_change.c);
     * NULL: the kind has no stages. */
    int (*stage)(rbl_run *r, rbl_error *err);
    int (*final)(rbl_run *r, const char *path, rbl_error *err);
    /* The kind's figures of the report (the common ones are filled by run.c). */
    void (*summary)(rbl_run *r, rbl_run_report *rep);
    void (*close)(rbl_run *r);
};

extern const rbl_run_kind rbl_grain_run;  /* grain_run.c */
extern const rbl_run_kind rbl_object_run; /* object_run.c */

/* The steps in `seconds` of simulated time at dt: rounded up for the run's length, to the
 * nearest for an event's interval, at least 1; beyond 1e15 steps refused at the scene's key
 * (at; its line 0: the run's length). Grain and impulse scenes alike (run.c). */
int rbl_scene_steps_in(const rbl_scene *s, rbl_mark at, const char *key, double seconds,
                       double dt, int round_up, uint64_t *out, rbl_error *err);
/* Where each of the scene's stages starts at dt, in steps (starts[n_stages]: where the last
 * ends); errors at the stage's entry. The stage (from 1) that holds step. */
int rbl_scene_stage_starts(const rbl_scene *s, double dt, uint64_t *starts, rbl_error *err);
int rbl_scene_stage_of(const rbl_scene *s, const uint64_t *starts, uint64_t step);
/* The caller's notice (rank 0): head, then the changes ("path: before -> after" lines) on one
 * line. */
void rbl_run_notice(const rbl_run *r, const char *head, const char *changes);
/* A pour source's schedule of `count` added to the report's poured, pour_asked and
 * pour_waiting (grain and impulse runs alike, run.c). */
void rbl_run_report_pour(rbl_run_report *rep, const rbl_pour_state *p, size_t count);
/* output.final in dir must not be the scene file or a file the scene reads (run.c). */
int rbl_scene_final_clear(const rbl_scene *s, const char *dir, rbl_error *err);

/* stage_change.c — sim taken from scene before's physics to scene after's: gravity, the law's
 * and materials' coefficients, pairs, the health check, and each wall whose motion differs
 * (going on from where it is; moved[k] set where wall k was re-based, if moved). before NULL
 * (a restart that changes physics): every wall that moves is re-based. */
int rbl_stage_change(const rbl_scene *before, const rbl_scene *after, rbl_sim *sim,
                     unsigned char *moved, rbl_error *err);
/* err (rbl_sim_check_dt's: dt above the stability limit) at the scene's line, with what sets
 * the contacts and what would fit: when 0 at the start (at 'dt'), 1 as a stage begins, 2 at a
 * restart that changes physics (at what sets the stiffness). Returns err's code. */
int rbl_scene_dt_refused(const rbl_scene *s, int when, rbl_error *err);
/* err (rbl_sim_check_dt_models': dt above a limit a model's own coefficient sets, the key
 * named) at the scene's 'dt' (a stage's own where it gives one), with the contact's line.
 * Returns err's code. */
int rbl_scene_dt_models_refused(const rbl_scene *s, rbl_error *err);

/* grain_build.c — the grains' simulation a scene makes. */
/* Its configuration: gamma_n from the restitution and dt: auto resolved, as a fresh run
 * creates it (threads: 0 keeps the scene's); in *m_eff (when not NULL) the contact mass the
 * scene's restitutions are for without materials (NAN where none is). */
int rbl_scene_config(const rbl_scene *s, int threads, rbl_sim_config *cfg, double *m_eff,
                     rbl_error *err);
/* The scene's contact.pairs set on sim (a restitution without materials as its gamma_n for
 * the contact mass m_eff; m_eff NAN: left to the law's); errors at the scene's line. */
int rbl_scene_set_pairs(const rbl_scene *s, rbl_sim *sim, double m_eff, rbl_error *err);
/* The scene's law coefficients, those its law's models take, into sim (whose law has the
 * scene's models) through rbl_sim_set_law_coef, as a C caller sets them; the others 0. */
int rbl_scene_set_law_coefs(const rbl_scene *s, rbl_sim *sim, rbl_error *err);
/* The source (index into s->sources, -1: none, or a grains file's) whose smallest grain
 * makes the shortest contact under the scene's own physics, the one `dt: auto` follows; its
 * contact time in *t_c. */
int rbl_scene_dt_source(const rbl_scene *s, int *source, double *t_c, rbl_error *err);
/* A simulation of cfg with the scene's materials, pairs (m_eff: as rbl_scene_set_pairs'),
 * walls and their motions, without grains. */
int rbl_scene_probe(const rbl_scene *s, const rbl_sim_config *cfg, double m_eff,
                    rbl_sim **probe, rbl_error *err);
/* The whole simulation at the start, spread over the processes (ranks), checked (placement,
 * law, dt, overlaps); *unit: the spin's unit, *contact_time: the shortest contact then; what
 * the sources could not do as asked (a random source too crowded to keep its sizes) into
 * warnings. */
int rbl_scene_build(const rbl_scene *s, rbl_run_ranks *ranks, int threads, size_t max_grains,
                    rbl_sim **out, double *unit, double *contact_time, rbl_warnings *warnings,
                    rbl_error *err);

/* restart_check.c — a checkpoint's simulation holds what its scene makes: the configuration,
 * materials, walls, meshes and motions the scene digest stands for (a crafted file that
 * passes its checksum and the digest but carries other values is refused, naming the first),
 * as the stages up to `stage` (0: none) and, where changed is not NULL, a restart's change of
 * physics at step changed_at (in its place among them) left it; walls marked in changed (the
 * changes of physics re-based them) and those the stages re-based are compared by their
 * motion, not their place. */
int rbl_checkpoint_matches_scene(const rbl_scene *s, const rbl_sim *sim, const char *path,
                                 int stage, const unsigned char *changed, uint64_t changed_at,
                                 rbl_error *err);

/* object_build.c — an impulse scene's engine: its parameters and walls, then (fresh) every
 * source's objects placed, or (pours) a batch placed when due. An object costs about
 * RBL_OBJECT_BYTES with its contacts' rows (about 2 KiB each, both sides) in a pile of some
 * ten contacts each; the sources' count is refused before anything is allocated when the
 * machine's memory cannot hold it. rbl_objects_asked: the count the sources ask for. */
#define RBL_OBJECT_BYTES 32768
double rbl_objects_asked(const rbl_scene *s);
int rbl_objects_engine(const rbl_scene *s, int threads, rbl_fdo_sim **out, rbl_error *err);
int rbl_objects_build(const rbl_scene *s, int threads, size_t max_objects, rbl_fdo_sim **out,
                      rbl_error *err);
int rbl_objects_pour(const rbl_scene *s, rbl_fdo_sim *sim, rbl_pour_state *ps, double now,
                     rbl_error *err);

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

/* grain_build.c: the bonds of scene s's `bonds` block (issue 72), made now between its chosen
 * grains (at the start, or as a stage that brings the block begins); errors at the block. */
int rbl_run_add_bonds(const rbl_scene *s, rbl_run_ranks *ranks, rbl_sim *sim, rbl_error *err);

#endif
