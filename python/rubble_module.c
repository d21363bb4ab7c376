/* rubble_module.c — `rubble._rubble`, the CPython extension under `import rubble`
 * (python/rubble/__init__.py; docs/python.md says why an extension and not ctypes): a Run
 * over librubble's run object (rbl_run_*), and the grains as numpy arrays over the engine's
 * own memory. Every array handed out has a lease as its base: while any lease lives the
 * engine holds its arrays in place (rbl_sim_hold_arrays), so an array never points at freed
 * memory, and the run itself outlives every lease. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

#include "rubble.h"

#include <time.h>

static PyObject *error_class; /* rubble.Error, set by __init__.py */

typedef struct {
    PyObject_HEAD
    rbl_scene *scene;
    rbl_run *run;
    int closed;
    Py_ssize_t leases; /* arrays' leases alive */
    PyObject *hook;    /* called with no arguments by rbl_run_set_hook's trampoline */
    PyObject *hook_error; /* what it (or a signal handler: Ctrl-C) raised, (type, value,
                             traceback), re-raised by the call */
    int stepping;      /* inside rbl_run_step (its hook may call back): not freed then */
    double signals_checked; /* when the stepping last ran Python's signal handlers (s) */
} RunObject;

typedef struct {
    PyObject_HEAD
    RunObject *run; /* a strong reference */
} LeaseObject;

static PyObject *raise_error(const rbl_error *err, int rc)
{
    PyObject *cls = error_class ? error_class : PyExc_RuntimeError;
    PyObject *args = Py_BuildValue("(si)", err->message[0] ? err->message : rbl_strerror(rc), rc);
    if (args) {
        PyErr_SetObject(cls, args);
        Py_DECREF(args);
    }
    return NULL;
}

static int usable(RunObject *self)
{
    if (self->closed || !self->run) {
        PyErr_SetString(PyExc_ValueError, "the run is closed");
        return 0;
    }
    return 1;
}

/* The grains' engine of a run, for what reads it on every process alike. */
static rbl_sim *stage_sim(RunObject *self)
{
    if (!usable(self))
        return NULL;
    rbl_sim *sim = rbl_run_sim(self->run);
    if (!sim)
        PyErr_SetString(PyExc_ValueError, "an impulse scene has objects, not grains");
    return sim;
}

/* The same, for a change that one process alone would make wrongly (grains added, moved or
 * taken out by id, external forces): refused over several processes for now. */
static rbl_sim *one_process_sim(RunObject *self, const char *what)
{
    rbl_sim *sim = stage_sim(self);
    if (sim && rbl_run_processes(self->run, NULL) > 1) {
        PyErr_Format(PyExc_NotImplementedError, "%s: not yet over several processes (mpirun); "
                     "gravity, velocities, frames and checkpoints are", what);
        return NULL;
    }
    return sim;
}

/* ---- leases ---- */

static void lease_dealloc(LeaseObject *self)
{
    RunObject *run = self->run;
    if (--run->leases == 0 && run->run && rbl_run_sim(run->run))
        rbl_sim_hold_arrays(rbl_run_sim(run->run), 0); /* frees what growth retired */
    Py_DECREF(run);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyTypeObject LeaseType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "rubble._rubble.Lease",
    .tp_basicsize = sizeof(LeaseObject),
    .tp_dealloc = (destructor)lease_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "keeps the run and the arrays a view reads alive",
};

static PyObject *lease_new(RunObject *run)
{
    LeaseObject *l = PyObject_New(LeaseObject, &LeaseType);
    if (!l)
        return NULL;
    Py_INCREF(run);
    l->run = run;
    if (run->leases++ == 0)
        rbl_sim_hold_arrays(rbl_run_sim(run->run), 1);
    return (PyObject *)l;
}

/* An array over n rows of `width` values of type `type` at data, leased; writable or not. */
static PyObject *view(RunObject *run, const void *data, size_t n, int width, int type,
                      int writable)
{
    npy_intp dims[2] = {(npy_intp)n, width};
    PyObject *a = PyArray_New(&PyArray_Type, width > 1 ? 2 : 1, dims, type, NULL, (void *)data,
                              0, NPY_ARRAY_CARRAY, NULL);
    if (!a)
        return NULL;
    if (!writable)
        PyArray_CLEARFLAGS((PyArrayObject *)a, NPY_ARRAY_WRITEABLE);
    PyObject *lease = lease_new(run);
    if (!lease || PyArray_SetBaseObject((PyArrayObject *)a, lease) != 0) {
        Py_XDECREF(lease);
        Py_DECREF(a);
        return NULL;
    }
    return a;
}

/* A count (steps, grains, a seed) from a Python int: 0 .. 2^64 - 1, not wrapped ("K" would
 * take 2^64 as 0 without a word). For "O&". */
static int count_of(PyObject *obj, void *out)
{
    if (!PyLong_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "a count must be an int, not %s", Py_TYPE(obj)->tp_name);
        return 0;
    }
    unsigned long long v = PyLong_AsUnsignedLongLong(obj);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%R is not a count (0 to 2^64 - 1)", obj);
        return 0;
    }
    *(unsigned long long *)out = v;
    return 1;
}

/* ---- the run ---- */

static int interrupt_trampoline(rbl_run *run, void *data);

static int run_init(RunObject *self, PyObject *args, PyObject *kw)
{
    static char *names[] = {"path", "text", "name", "output", "threads", "restart", "steps",
                            "change_physics", "test_shuffle", NULL};
    const char *path = NULL, *text = NULL, *name = NULL, *output = NULL, *restart = NULL;
    Py_ssize_t text_len = 0;
    int threads = 0;
    unsigned long long steps = 0, test_shuffle = 0;
    int change_physics = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|zz#zzizO&pK", names, &path, &text, &text_len,
                                     &name, &output, &threads, &restart, count_of, &steps,
                                     &change_physics, &test_shuffle))
        return -1;
    if (self->run || self->scene) {
        PyErr_SetString(PyExc_RuntimeError, "a Run is opened once");
        return -1;
    }
    if (!path == !text) {
        PyErr_SetString(PyExc_TypeError, "a Run is made from a scene file (path) or text");
        return -1;
    }
    if (threads < 0) {
        PyErr_Format(PyExc_ValueError, "threads: %d is not a thread count", threads);
        return -1;
    }
    rbl_error err = {0};
    int rc = path ? rbl_scene_load(path, &self->scene, &err)
                  : rbl_scene_parse(text, (size_t)text_len, name, &self->scene, &err);
    if (rc == RBL_OK) {
        rbl_run_options opt;
        memset(&opt, 0, sizeof opt);
        opt.output_dir = output;
        opt.threads = threads;
        opt.restart = restart;
        opt.steps = steps;
        opt.change_physics = change_physics;
        opt.test_shuffle = (uint64_t)test_shuffle;
        Py_BEGIN_ALLOW_THREADS rc = rbl_run_open(self->scene, &opt, &self->run, &err);
        Py_END_ALLOW_THREADS
    }
    if (rc != RBL_OK) {
        raise_error(&err, rc);
        return -1;
    }
    /* Ctrl-C between the pieces it steps in; over several processes not (they would stop at
     * different steps, and mpirun ends them all) */
    if (rbl_run_processes(self->run, NULL) == 1)
        rbl_run_set_interrupt(self->run, interrupt_trampoline, self);
    return 0;
}

static int run_traverse(RunObject *self, visitproc visit, void *arg)
{
    Py_VISIT(self->hook);
    return 0;
}

static int run_clear(RunObject *self)
{
    Py_CLEAR(self->hook);
    Py_CLEAR(self->hook_error);
    return 0;
}

static void run_dealloc(RunObject *self)
{
    PyObject_GC_UnTrack(self);
    run_clear(self);
    rbl_run_close(self->run);
    rbl_scene_free(self->scene);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* A failure: the hook's own exception if it raised one; nothing if the hook closed the run
 * (the stepping ended there, as asked); else rubble.Error. */
static PyObject *failed(RunObject *self, const rbl_error *err, int rc)
{
    if (self->closed && !self->hook_error)
        Py_RETURN_NONE;
    if (self->hook_error) {
        PyObject *t, *v, *tb;
        if (!PyArg_ParseTuple(self->hook_error, "OOO", &t, &v, &tb))
            return NULL;
        Py_INCREF(t), Py_INCREF(v), Py_INCREF(tb);
        Py_CLEAR(self->hook_error);
        PyErr_Restore(t, v == Py_None ? NULL : v, tb == Py_None ? NULL : tb);
        return NULL;
    }
    return raise_error(err, rc);
}

/* The exception set now, kept in self->hook_error for the call that steps to raise. */
static void keep_exception(RunObject *self)
{
    PyObject *t, *v, *tb;
    PyErr_Fetch(&t, &v, &tb);
    PyErr_NormalizeException(&t, &v, &tb);
    Py_XDECREF(self->hook_error);
    self->hook_error = Py_BuildValue("(OOO)", t ? t : Py_None, v ? v : Py_None,
                                     tb ? tb : Py_None);
    Py_XDECREF(t), Py_XDECREF(v), Py_XDECREF(tb);
}

/* rbl_run_set_interrupt's function, between the pieces the run steps in: Python's signal
 * handlers run (at most every 20 ms of wall time; in the main thread), and an exception one
 * raises (Ctrl-C's KeyboardInterrupt) stops the stepping at that step. */
static int interrupt_trampoline(rbl_run *run, void *data)
{
    (void)run;
    RunObject *self = data;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    const double now = (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
    if (now - self->signals_checked < 0.02)
        return 0;
    self->signals_checked = now;
    PyGILState_STATE gil = PyGILState_Ensure();
    const int stop = PyErr_CheckSignals() < 0;
    if (stop)
        keep_exception(self);
    PyGILState_Release(gil);
    return stop;
}

/* rbl_run_set_hook's function: the Python hook, with the interpreter's lock. */
static int hook_trampoline(rbl_run *run, void *data, rbl_error *err)
{
    (void)run;
    RunObject *self = data;
    PyGILState_STATE gil = PyGILState_Ensure();
    PyObject *hook = self->hook; /* it may set another hook while it runs */
    Py_INCREF(hook);
    PyObject *r = PyObject_CallNoArgs(hook);
    Py_DECREF(hook);
    int rc = RBL_OK;
    if (!r) {
        keep_exception(self);
        rc = err->code = RBL_EINVAL;
        snprintf(err->message, sizeof err->message, "the hook raised an exception");
    } else if (self->closed) { /* it closed the run: the stepping ends here */
        rc = err->code = RBL_EINVAL;
        snprintf(err->message, sizeof err->message, "the hook closed the run");
    }
    Py_XDECREF(r);
    PyGILState_Release(gil);
    return rc;
}

static PyObject *run_set_hook(RunObject *self, PyObject *args)
{
    unsigned long long every;
    PyObject *fn;
    if (!PyArg_ParseTuple(args, "O&O", count_of, &every, &fn) || !usable(self))
        return NULL;
    if (fn != Py_None && !PyCallable_Check(fn))
        return PyErr_Format(PyExc_TypeError, "the hook must be callable");
    Py_XINCREF(fn == Py_None ? NULL : fn);
    Py_XSETREF(self->hook, fn == Py_None ? NULL : fn);
    rbl_error err = {0};
    self->stepping++; /* the hook runs now, and may close the run */
    int rc = rbl_run_set_hook(self->run, every, self->hook ? hook_trampoline : NULL, self, &err);
    self->stepping--;
    if (rc != RBL_OK)
        return failed(self, &err, rc);
    Py_RETURN_NONE;
}

/* The external forces (N, n x 3) over the engine's memory, writable, zero at first. */
static PyObject *run_external_forces(RunObject *self, PyObject *unused)
{
    (void)unused;
    rbl_sim *sim = stage_sim(self);
    if (!sim)
        return NULL;
    rbl_error err = {0};
    double *f = rbl_sim_external_forces(sim, &err);
    if (!f)
        return raise_error(&err, RBL_EINVAL);
    rbl_grains_view g;
    rbl_sim_grains(sim, &g);
    return view(self, f, g.n, 3, NPY_DOUBLE, 1);
}

static PyObject *run_step(RunObject *self, PyObject *args)
{
    long long n = 1;
    if (!PyArg_ParseTuple(args, "|L", &n) || !usable(self))
        return NULL;
    if (n < 0)
        return PyErr_Format(PyExc_ValueError, "step(%lld): a step count is >= 0", n);
    rbl_error err = {0};
    int rc;
    self->stepping++;
    Py_BEGIN_ALLOW_THREADS rc = rbl_run_step(self->run, (uint64_t)n, &err);
    Py_END_ALLOW_THREADS
    self->stepping--;
    if (rc != RBL_OK)
        return failed(self, &err, rc);
    Py_RETURN_NONE;
}

static PyObject *run_until(RunObject *self, PyObject *args)
{
    double t;
    if (!PyArg_ParseTuple(args, "d", &t) || !usable(self))
        return NULL;
    rbl_error err = {0};
    int rc;
    self->stepping++;
    Py_BEGIN_ALLOW_THREADS rc = rbl_run_until(self->run, t, &err);
    Py_END_ALLOW_THREADS
    self->stepping--;
    if (rc != RBL_OK)
        return failed(self, &err, rc);
    Py_RETURN_NONE;
}

typedef int (*run_call)(rbl_run *run, rbl_error *err);

static PyObject *call(RunObject *self, run_call fn)
{
    if (!usable(self))
        return NULL;
    rbl_error err = {0};
    int rc = fn(self->run, &err);
    if (rc != RBL_OK)
        return raise_error(&err, rc);
    Py_RETURN_NONE;
}

/* The methods that are one rbl_run call each. */
#define RUN_CALL(method, fn)                                                                   \
    static PyObject *method(RunObject *self, PyObject *unused)                                 \
    {                                                                                          \
        (void)unused;                                                                          \
        return call(self, fn);                                                                 \
    }
RUN_CALL(run_write_frame, rbl_run_write_frame)
RUN_CALL(run_write_thermo, rbl_run_write_thermo)
RUN_CALL(run_write_checkpoint, rbl_run_write_checkpoint)
RUN_CALL(run_finish, rbl_run_finish)

/* Closed: no more steps; the memory goes with the last array that reads it. */
static PyObject *run_close(RunObject *self, PyObject *unused)
{
    (void)unused;
    self->closed = 1;
    if (self->leases == 0 && !self->stepping) { /* else at the end, by dealloc */
        rbl_run_close(self->run);
        self->run = NULL;
    }
    Py_RETURN_NONE;
}

#define SET(d, key, value)                                                                     \
    do {                                                                                       \
        PyObject *v_ = (value);                                                                \
        if (!v_ || PyDict_SetItemString(d, key, v_) != 0) {                                   \
            Py_XDECREF(v_);                                                                    \
            Py_DECREF(d);                                                                      \
            return NULL;                                                                       \
        }                                                                                      \
        Py_DECREF(v_);                                                                         \
    } while (0)

static PyObject *run_summary(RunObject *self, PyObject *unused)
{
    (void)unused;
    if (!usable(self))
        return NULL;
    rbl_run_report r;
    rbl_run_summary(self->run, &r);
    PyObject *d = PyDict_New();
    if (!d)
        return NULL;
    SET(d, "steps", PyLong_FromUnsignedLongLong(r.steps));
    SET(d, "grains", PyLong_FromSize_t(r.grains));
    SET(d, "clumps", PyLong_FromSize_t(r.clumps));
    SET(d, "objects", PyLong_FromSize_t(r.objects));
    SET(d, "lost", PyLong_FromUnsignedLongLong(r.lost));
    SET(d, "poured", PyLong_FromUnsignedLongLong(r.poured));
    SET(d, "pour_asked", PyLong_FromUnsignedLongLong(r.pour_asked));
    SET(d, "pour_waiting", PyLong_FromUnsignedLongLong(r.pour_waiting));
    SET(d, "dt", PyFloat_FromDouble(r.dt));
    SET(d, "contact_time", PyFloat_FromDouble(r.contact_time));
    SET(d, "seconds", PyFloat_FromDouble(r.seconds));
    SET(d, "particle_steps_per_second", PyFloat_FromDouble(r.particle_steps_per_second));
    SET(d, "energy_start", PyFloat_FromDouble(r.energy_start));
    SET(d, "energy_end", PyFloat_FromDouble(r.energy_end));
    SET(d, "energy_in", PyFloat_FromDouble(r.energy_in));
    /* the energy account over the run (docs/dem.md "The energy account") */
    static const char *const losses[RBL_LOSS_N] = {"damping", "friction", "rolling", "cohesion"};
    static const char *const sources[RBL_IN_N] = {"walls", "external", "added", "removed",
                                                 "changes"};
    PyObject *lost = PyDict_New(), *put = PyDict_New();
    for (int m = 0; lost && m < RBL_LOSS_N; m++)
        SET(lost, losses[m], PyFloat_FromDouble(r.dissipated[m]));
    for (int k = 0; put && k < RBL_IN_N; k++)
        SET(put, sources[k], PyFloat_FromDouble(r.put_in[k]));
    if (!lost || !put) {
        Py_XDECREF(lost), Py_XDECREF(put), Py_DECREF(d);
        return NULL;
    }
    SET(d, "dissipated", lost);
    SET(d, "put_in", put);
    SET(d, "balance_drift", PyFloat_FromDouble(r.balance_drift));
    SET(d, "energy_scale", PyFloat_FromDouble(r.energy_scale));
    SET(d, "peak_overlap", PyFloat_FromDouble(r.peak_overlap));
    SET(d, "peak_overlap_step", PyLong_FromUnsignedLongLong(r.peak_overlap_step));
    SET(d, "max_overlap_ratio", PyFloat_FromDouble(r.max_overlap_ratio));
    SET(d, "contacts", PyLong_FromSize_t(r.contacts));
    SET(d, "pairs_listed", PyLong_FromSize_t(r.pairs_listed));
    SET(d, "frames", PyLong_FromSize_t(r.frames));
    SET(d, "threads", PyLong_FromLong(r.threads));
    SET(d, "ranks", PyLong_FromLong(r.ranks));
    SET(d, "output_dir", PyUnicode_DecodeFSDefault(r.output_dir));
    SET(d, "checkpoints", PyLong_FromSize_t(r.checkpoints));
    SET(d, "last_checkpoint", PyUnicode_DecodeFSDefault(r.last_checkpoint));
    SET(d, "final_file", PyUnicode_DecodeFSDefault(r.final_file));
    SET(d, "network_files", PyUnicode_DecodeFSDefault(r.network_files));
    SET(d, "impulse", PyBool_FromLong(r.impulse));
    /* each process's share: (least, mean, largest) over the processes */
    const struct {
        const char *name;
        const rbl_rank_spread *v;
    } spreads[] = {{"grains", &r.rank_grains},       {"ghosts", &r.rank_ghosts},
                   {"pairs", &r.rank_pairs},         {"force_s", &r.rank_force},
                   {"neighbor_s", &r.rank_neighbor}, {"integrate_s", &r.rank_integrate},
                   {"gravity_s", &r.rank_gravity},   {"comm_s", &r.rank_comm},
                   {"peak_memory", &r.rank_memory}};
    PyObject *per = PyDict_New();
    if (!per) {
        Py_DECREF(d);
        return NULL;
    }
    for (size_t k = 0; k < sizeof spreads / sizeof *spreads; k++) {
        PyObject *t =
            Py_BuildValue("(ddd)", spreads[k].v->min, spreads[k].v->mean, spreads[k].v->max);
        if (!t || PyDict_SetItemString(per, spreads[k].name, t) != 0) {
            Py_XDECREF(t);
            Py_DECREF(per);
            Py_DECREF(d);
            return NULL;
        }
        Py_DECREF(t);
    }
    SET(d, "per_process", per);
    return d;
}

/* The grains as arrays over the engine's memory: velocities and spins writable. */
static PyObject *run_grains(RunObject *self, PyObject *unused)
{
    (void)unused;
    rbl_sim *sim = stage_sim(self);
    if (!sim)
        return NULL;
    rbl_grains_view g;
    rbl_sim_grains(sim, &g);
    PyObject *d = PyDict_New();
    if (!d)
        return NULL;
    SET(d, "id", view(self, g.id, g.n, 1, NPY_UINT32, 0));
    SET(d, "position", view(self, g.pos, g.n, 3, NPY_DOUBLE, 0));
    SET(d, "velocity", view(self, g.vel, g.n, 3, NPY_DOUBLE, 1));
    SET(d, "spin", view(self, g.omega, g.n, 3, NPY_DOUBLE, 1));
    SET(d, "radius", view(self, g.radius, g.n, 1, NPY_DOUBLE, 0));
    SET(d, "mass", view(self, g.mass, g.n, 1, NPY_DOUBLE, 0));
    SET(d, "force", view(self, g.force, g.n, 3, NPY_DOUBLE, 0));
    SET(d, "torque", view(self, g.torque, g.n, 3, NPY_DOUBLE, 0));
    SET(d, "material", view(self, g.material, g.n, 1, NPY_INT32, 0));
    SET(d, "clump", view(self, g.body, g.n, 1, NPY_INT32, 0));
    SET(d, "contacts", view(self, g.contacts, g.n, 1, NPY_UINT32, 0));
    return d;
}

static PyObject *run_set_gravity(RunObject *self, PyObject *args)
{
    double g[3];
    if (!PyArg_ParseTuple(args, "(ddd)", &g[0], &g[1], &g[2]))
        return NULL;
    rbl_sim *sim = stage_sim(self);
    if (!sim)
        return NULL;
    rbl_error err = {0};
    int rc = rbl_sim_set_gravity(sim, g, &err);
    if (rc != RBL_OK)
        return raise_error(&err, rc);
    Py_RETURN_NONE;
}

static PyObject *run_set_servo_force(RunObject *self, PyObject *args)
{
    int wall;
    double force;
    if (!PyArg_ParseTuple(args, "id", &wall, &force))
        return NULL;
    rbl_sim *sim = stage_sim(self);
    if (!sim)
        return NULL;
    rbl_error err = {0};
    int rc = rbl_sim_set_servo_force(sim, wall, force, &err);
    if (rc != RBL_OK)
        return raise_error(&err, rc);
    Py_RETURN_NONE;
}

/* set_wall_motion(wall, velocity, omega, axis, center, amplitude, frequency): from now. */
static PyObject *run_set_wall_motion(RunObject *self, PyObject *args)
{
    int wall;
    rbl_wall_motion m;
    memset(&m, 0, sizeof m);
    if (!PyArg_ParseTuple(args, "i(ddd)d(ddd)(ddd)(ddd)d", &wall, &m.velocity[0], &m.velocity[1],
                          &m.velocity[2], &m.omega, &m.axis[0], &m.axis[1], &m.axis[2],
                          &m.center[0], &m.center[1], &m.center[2], &m.amplitude[0],
                          &m.amplitude[1], &m.amplitude[2], &m.frequency))
        return NULL;
    rbl_sim *sim = stage_sim(self);
    if (!sim)
        return NULL;
    rbl_error err = {0};
    int rc = rbl_sim_set_wall_motion_now(sim, wall, &m, &err);
    if (rc != RBL_OK)
        return raise_error(&err, rc);
    Py_RETURN_NONE;
}

static PyArrayObject *rows_of(PyObject *obj, int type, int width, const char *what);

/* set_wall_table(wall, rows (n x 8: t, x, y, z, qw, qx, qy, qz), pivot): from now, from where
 * the wall is (rbl_sim_set_wall_table). */
static PyObject *run_set_wall_table(RunObject *self, PyObject *args)
{
    int wall;
    PyObject *obj;
    rbl_wall_table tab = {0};
    if (!PyArg_ParseTuple(args, "iO(ddd)", &wall, &obj, &tab.pivot[0], &tab.pivot[1],
                          &tab.pivot[2]))
        return NULL;
    rbl_sim *sim = stage_sim(self);
    if (!sim)
        return NULL;
    PyArrayObject *rows = rows_of(obj, NPY_DOUBLE, 8, "rows");
    if (!rows)
        return NULL;
    /* rbl_motion_row is 8 doubles in that order (test_abi_layout: 64 bytes) */
    tab.n = (size_t)PyArray_DIM(rows, 0);
    tab.rows = (const rbl_motion_row *)PyArray_DATA(rows);
    rbl_error err = {0};
    int rc = rbl_sim_set_wall_table(sim, wall, &tab, 1, &err);
    Py_DECREF(rows);
    if (rc != RBL_OK)
        return raise_error(&err, rc);
    Py_RETURN_NONE;
}

static PyObject *run_gravity(RunObject *self, PyObject *unused)
{
    (void)unused;
    rbl_sim *sim = stage_sim(self);
    if (!sim)
        return NULL;
    const double *g = rbl_sim_config_get(sim)->gravity;
    return Py_BuildValue("(ddd)", g[0], g[1], g[2]);
}

/* obj as a C-contiguous array of `type` with `width` values a row (1: a vector). */
static PyArrayObject *rows_of(PyObject *obj, int type, int width, const char *what)
{
    PyArrayObject *a = (PyArrayObject *)PyArray_FROMANY(obj, type, 1, 2, NPY_ARRAY_CARRAY_RO);
    if (!a)
        return NULL;
    const int ok = width == 1 ? PyArray_NDIM(a) == 1
                              : PyArray_NDIM(a) == 2 && PyArray_DIM(a, 1) == width;
    if (!ok) {
        PyErr_Format(PyExc_ValueError, "%s: %s", what,
                     width == 1 ? "one value a grain" : "three values (x, y, z) a grain");
        Py_DECREF(a);
        return NULL;
    }
    return a;
}

static PyObject *run_remove_grains(RunObject *self, PyObject *args)
{
    PyObject *obj;
    if (!PyArg_ParseTuple(args, "O", &obj))
        return NULL;
    rbl_sim *sim = one_process_sim(self, "remove_grains");
    if (!sim)
        return NULL;
    PyArrayObject *ids = rows_of(obj, NPY_UINT32, 1, "ids");
    if (!ids)
        return NULL;
    rbl_error err = {0};
    int rc = rbl_sim_remove_grains(sim, PyArray_DATA(ids), (size_t)PyArray_DIM(ids, 0), &err);
    Py_DECREF(ids);
    if (rc != RBL_OK)
        return raise_error(&err, rc);
    Py_RETURN_NONE;
}

static PyObject *run_move_grains(RunObject *self, PyObject *args)
{
    PyObject *id_obj, *pos_obj;
    if (!PyArg_ParseTuple(args, "OO", &id_obj, &pos_obj))
        return NULL;
    rbl_sim *sim = one_process_sim(self, "move_grains");
    if (!sim)
        return NULL;
    PyArrayObject *ids = rows_of(id_obj, NPY_UINT32, 1, "ids");
    PyArrayObject *pos = ids ? rows_of(pos_obj, NPY_DOUBLE, 3, "position") : NULL;
    PyObject *out = NULL;
    if (pos && PyArray_DIM(pos, 0) != PyArray_DIM(ids, 0)) {
        PyErr_Format(PyExc_ValueError, "move_grains: %ld ids, %ld positions",
                     (long)PyArray_DIM(ids, 0), (long)PyArray_DIM(pos, 0));
    } else if (pos) {
        rbl_error err = {0};
        int rc = rbl_sim_move_grains(sim, PyArray_DATA(ids), (size_t)PyArray_DIM(ids, 0),
                                     PyArray_DATA(pos), &err);
        if (rc != RBL_OK)
            raise_error(&err, rc);
        else
            out = Py_NewRef(Py_None);
    }
    Py_XDECREF(ids), Py_XDECREF(pos);
    return out;
}

/* add_grains(position, radius, velocity, material): their ids. */
static PyObject *run_add_grains(RunObject *self, PyObject *args)
{
    PyObject *pos_obj, *rad_obj, *vel_obj = Py_None;
    int material = 0;
    if (!PyArg_ParseTuple(args, "OO|Oi", &pos_obj, &rad_obj, &vel_obj, &material))
        return NULL;
    rbl_sim *sim = one_process_sim(self, "add_grains");
    if (!sim)
        return NULL;
    PyArrayObject *pos = rows_of(pos_obj, NPY_DOUBLE, 3, "position");
    PyArrayObject *rad = pos ? rows_of(rad_obj, NPY_DOUBLE, 1, "radius") : NULL;
    PyArrayObject *vel = rad && vel_obj != Py_None ? rows_of(vel_obj, NPY_DOUBLE, 3, "velocity")
                                                   : NULL;
    PyObject *out = NULL;
    if (!rad || (vel_obj != Py_None && !vel))
        goto done;
    const npy_intp n = PyArray_DIM(pos, 0);
    if (PyArray_DIM(rad, 0) != n || (vel && PyArray_DIM(vel, 0) != n)) {
        PyErr_Format(PyExc_ValueError, "add_grains: %ld positions, %ld radii%s", (long)n,
                     (long)PyArray_DIM(rad, 0), vel ? " and velocities of another count" : "");
        goto done;
    }
    npy_intp dims[1] = {n};
    out = PyArray_SimpleNew(1, dims, NPY_UINT32);
    if (!out)
        goto done;
    const double *x = PyArray_DATA(pos), *r = PyArray_DATA(rad);
    const double *v = vel ? PyArray_DATA(vel) : NULL;
    for (npy_intp k = 0; k < n; k++) {
        rbl_grain gr;
        memset(&gr, 0, sizeof gr);
        for (int a = 0; a < 3; a++)
            gr.pos[a] = x[3 * k + a], gr.vel[a] = v ? v[3 * k + a] : 0.0;
        gr.radius = r[k];
        gr.material = material;
        rbl_error err = {0};
        int rc = rbl_sim_add_grain(sim, &gr, (uint32_t *)PyArray_GETPTR1((PyArrayObject *)out, k),
                                   &err);
        if (rc != RBL_OK) {
            Py_CLEAR(out);
            raise_error(&err, rc);
            goto done;
        }
    }
done:
    Py_XDECREF(pos), Py_XDECREF(rad), Py_XDECREF(vel);
    return out;
}

/* pour(lo, hi, count, radius, material, velocity, seed): random places where they fit. */
static PyObject *run_pour(RunObject *self, PyObject *args)
{
    rbl_insert_spec sp;
    memset(&sp, 0, sizeof sp);
    unsigned long long count = 0, seed = 1;
    if (!PyArg_ParseTuple(args, "(ddd)(ddd)O&d|i(ddd)O&", &sp.lo[0], &sp.lo[1], &sp.lo[2],
                          &sp.hi[0], &sp.hi[1], &sp.hi[2], count_of, &count, &sp.size.radius,
                          &sp.material, &sp.vel[0], &sp.vel[1], &sp.vel[2], count_of, &seed))
        return NULL;
    rbl_sim *sim = one_process_sim(self, "pour");
    if (!sim)
        return NULL;
    sp.size.kind = RBL_SIZE_CONSTANT;
    sp.count = (size_t)count;
    sp.seed = seed;
    size_t placed = 0;
    rbl_error err = {0};
    int rc = rbl_sim_insert_random(sim, &sp, &placed, &err);
    if (rc != RBL_OK)
        return raise_error(&err, rc);
    return PyLong_FromSize_t(placed);
}

/* A copy of n rows of `width` values at data into a new array. */
static PyObject *copied(const void *data, size_t n, int width, int type)
{
    npy_intp dims[2] = {(npy_intp)n, width};
    PyObject *a = PyArray_SimpleNew(width > 1 ? 2 : 1, dims, type);
    if (a && n)
        memcpy(PyArray_DATA((PyArrayObject *)a), data, PyArray_NBYTES((PyArrayObject *)a));
    return a;
}

/* The run's warnings (rbl_run_warnings), as a list of str. */
static PyObject *run_warnings(RunObject *self, PyObject *unused)
{
    (void)unused;
    if (!usable(self))
        return NULL;
    const char *const *text = NULL;
    const size_t n = rbl_run_warnings(self->run, &text);
    PyObject *list = PyList_New((Py_ssize_t)n);
    for (size_t k = 0; list && k < n; k++) {
        PyObject *t = PyUnicode_DecodeUTF8(text[k], (Py_ssize_t)strlen(text[k]), "replace");
        if (!t) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)k, t);
    }
    return list;
}

/* The contacts of the last force evaluation (rbl_sim_contacts), as new arrays. */
static PyObject *run_contacts(RunObject *self, PyObject *unused)
{
    (void)unused;
    if (!usable(self))
        return NULL;
    rbl_sim *sim = rbl_run_sim(self->run);
    rbl_fdo_sim *objects = rbl_run_objects(self->run);
    rbl_contact_list l;
    rbl_error err = {0};
    /* an impulse scene's: the last step's, with the impulses' mean forces */
    int rc = sim ? rbl_sim_contacts(sim, &l, &err) : rbl_fdo_sim_contacts(objects, &l, &err);
    if (rc != RBL_OK)
        return raise_error(&err, rc);
    PyObject *d = PyDict_New();
    if (d) {
#define PUT(key, value)                                                                        \
    do {                                                                                       \
        PyObject *v_ = (value);                                                                \
        if (!v_ || PyDict_SetItemString(d, key, v_) != 0) {                                    \
            Py_XDECREF(v_);                                                                    \
            Py_CLEAR(d);                                                                       \
            goto done;                                                                         \
        }                                                                                      \
        Py_DECREF(v_);                                                                         \
    } while (0)
        PUT("ids", copied(l.ids, l.n, 2, NPY_UINT32));
        PUT("point", copied(l.point, l.n, 3, NPY_DOUBLE));
        PUT("normal", copied(l.normal, l.n, 3, NPY_DOUBLE));
        PUT("fn", copied(l.fn, l.n, 3, NPY_DOUBLE));
        PUT("ft", copied(l.ft, l.n, 3, NPY_DOUBLE));
        PUT("overlap", copied(l.overlap, l.n, 1, NPY_DOUBLE));
        PUT("centre", copied(l.centre, l.n, 3, NPY_DOUBLE));
        PUT("branch", copied(l.branch, l.n, 3, NPY_DOUBLE));
        PUT("wall_grain", copied(l.wall_grain, l.n_wall, 1, NPY_UINT32));
        PUT("wall", copied(l.wall, l.n_wall, 1, NPY_INT32));
        PUT("wall_point", copied(l.wall_point, l.n_wall, 3, NPY_DOUBLE));
        PUT("wall_normal", copied(l.wall_normal, l.n_wall, 3, NPY_DOUBLE));
        PUT("wall_fn", copied(l.wall_fn, l.n_wall, 3, NPY_DOUBLE));
        PUT("wall_ft", copied(l.wall_ft, l.n_wall, 3, NPY_DOUBLE));
        PUT("wall_centre", copied(l.wall_centre, l.n_wall, 3, NPY_DOUBLE));
        PUT("wall_overlap", copied(l.wall_overlap, l.n_wall, 1, NPY_DOUBLE));
#undef PUT
    }
done:
    rbl_contact_list_free(&l);
    return d;
}

/* collisions(a, b, wall): the events booked since collisions.csv's last row (output.collisions
 * or rbl_sim_collisions) of materials a and b (wall: b a wall's), per bin from the one below
 * the range to the one above it, as new arrays: count, impact, dissipated, normal_speed and
 * tangential_speed (sums), the run's over every process (rbl_run_collision_bins: collective). */
static PyObject *run_collisions(RunObject *self, PyObject *args)
{
    int a = 0, b = 0, wall = 0;
    if (!PyArg_ParseTuple(args, "iip", &a, &b, &wall))
        return NULL;
    rbl_sim *sim = stage_sim(self);
    if (!sim)
        return NULL;
    rbl_collision_bin bin;
    rbl_error err = {0};
    int n = 1; /* the bins, from this process alone: the same on every one */
    while (rbl_sim_collision_bin(sim, a, b, wall, n - 1, &bin, &err) == RBL_OK)
        n++;
    rbl_collision_bin *bins = PyMem_Malloc((size_t)n * sizeof *bins);
    if (!bins)
        return PyErr_NoMemory();
    int rc;
    Py_BEGIN_ALLOW_THREADS rc = rbl_run_collision_bins(self->run, a, b, wall, bins, n, &err);
    Py_END_ALLOW_THREADS
    if (rc != RBL_OK) {
        PyMem_Free(bins);
        return raise_error(&err, rc);
    }
    npy_intp d1[1] = {n};
    PyObject *arr[5] = {PyArray_SimpleNew(1, d1, NPY_UINT64), PyArray_SimpleNew(1, d1, NPY_DOUBLE),
                        PyArray_SimpleNew(1, d1, NPY_DOUBLE), PyArray_SimpleNew(1, d1, NPY_DOUBLE),
                        PyArray_SimpleNew(1, d1, NPY_DOUBLE)};
    PyObject *out = NULL;
    if (arr[0] && arr[1] && arr[2] && arr[3] && arr[4]) {
        for (int k = 0; k < n; k++) {
            ((uint64_t *)PyArray_DATA((PyArrayObject *)arr[0]))[k] = bins[k].count;
            ((double *)PyArray_DATA((PyArrayObject *)arr[1]))[k] = bins[k].impact;
            ((double *)PyArray_DATA((PyArrayObject *)arr[2]))[k] = bins[k].dissipated;
            ((double *)PyArray_DATA((PyArrayObject *)arr[3]))[k] = bins[k].normal_speed;
            ((double *)PyArray_DATA((PyArrayObject *)arr[4]))[k] = bins[k].tangential_speed;
        }
        out = Py_BuildValue("{sOsOsOsOsO}", "count", arr[0], "impact", arr[1], "dissipated",
                            arr[2], "normal_speed", arr[3], "tangential_speed", arr[4]);
    }
    PyMem_Free(bins);
    for (int k = 0; k < 5; k++)
        Py_XDECREF(arr[k]);
    return out;
}

/* add_bonds(params, ids, pairs, radius): bonds made now (issue 72, docs/python.md "Bonds"):
 * params the rbl_bond_params as (E, k_n/k_s, lambda, sigma_c, tau_c, damping, gap, spread,
 * spread value, seed); ids None or the chosen grains (rbl_sim_add_bonds, by gap); or pairs
 * (n x 2 ids) with radius None or one a pair (rbl_sim_add_bond_pairs). Returns how many were
 * made. One process for now (a pair broken on another would not be known). */
static PyObject *run_add_bonds(RunObject *self, PyObject *args)
{
    rbl_bond_params p = {0};
    unsigned long long seed;
    PyObject *ids_obj, *pairs_obj, *radius_obj;
    if (!PyArg_ParseTuple(args, "(dddddddidK)OOO", &p.youngs_modulus, &p.stiffness_ratio,
                          &p.radius_multiplier, &p.tensile_strength, &p.shear_strength,
                          &p.damping, &p.gap, &p.spread, &p.spread_value, &seed, &ids_obj,
                          &pairs_obj, &radius_obj))
        return NULL;
    p.seed = (uint64_t)seed;
    rbl_sim *sim = one_process_sim(self, "add_bonds");
    if (!sim)
        return NULL;
    PyArrayObject *ids = NULL, *pairs = NULL, *radius = NULL;
    if (ids_obj != Py_None && !(ids = rows_of(ids_obj, NPY_UINT32, 1, "add_bonds: ids")))
        return NULL;
    if (pairs_obj != Py_None) {
        pairs = (PyArrayObject *)PyArray_FROMANY(pairs_obj, NPY_UINT32, 2, 2, NPY_ARRAY_CARRAY_RO);
        if (pairs && PyArray_DIM(pairs, 1) != 2) {
            PyErr_SetString(PyExc_ValueError, "add_bonds: pairs: two grain ids a row");
            Py_CLEAR(pairs);
        }
        if (pairs && radius_obj != Py_None &&
            (radius = rows_of(radius_obj, NPY_DOUBLE, 1, "add_bonds: radius")) &&
            PyArray_DIM(radius, 0) != PyArray_DIM(pairs, 0)) {
            PyErr_SetString(PyExc_ValueError, "add_bonds: radius: one a pair");
            Py_CLEAR(radius);
        }
        if (!pairs || (radius_obj != Py_None && !radius)) {
            Py_XDECREF(ids), Py_XDECREF(pairs);
            return NULL;
        }
    }
    rbl_error err = {0};
    size_t made = 0, failed = SIZE_MAX;
    int rc;
    if (pairs)
        rc = rbl_sim_add_bond_pairs(sim, &p, (const uint32_t *)PyArray_DATA(pairs),
                                    radius ? (const double *)PyArray_DATA(radius) : NULL,
                                    (size_t)PyArray_DIM(pairs, 0), &made, &failed, &err);
    else
        rc = rbl_sim_add_bonds(sim, &p, ids ? (const uint32_t *)PyArray_DATA(ids) : NULL,
                               ids ? (size_t)PyArray_DIM(ids, 0) : 0, &made, &err);
    Py_XDECREF(ids), Py_XDECREF(pairs), Py_XDECREF(radius);
    if (rc != RBL_OK) {
        if (failed != SIZE_MAX) { /* name the pair */
            rbl_error at = {.code = rc};
            snprintf(at.message, sizeof at.message, "add_bonds: pair %zu: %.400s", failed,
                     err.message);
            return raise_error(&at, rc);
        }
        return raise_error(&err, rc);
    }
    return PyLong_FromSize_t(made);
}

/* bonds(): every bond (issue 72, rbl_sim_bond) in the order of its ids, as new arrays: ids
 * (n x 2), intact, force and moment on the first grain (n x 3), normal_force, sigma, tau,
 * energy, broke_step. */
static PyObject *run_bonds(RunObject *self, PyObject *unused)
{
    (void)unused;
    rbl_sim *sim = stage_sim(self);
    if (!sim)
        return NULL;
    size_t intact, broken;
    rbl_sim_bond_counts(sim, &intact, &broken);
    const size_t n = intact + broken;
    npy_intp d1[1] = {(npy_intp)n}, d2[2] = {(npy_intp)n, 2}, d3[2] = {(npy_intp)n, 3};
    enum { IDS, INTACT, FORCE, MOMENT, FN, SIGMA, TAU, ENERGY, STEP, N_ARR };
    PyObject *arr[N_ARR] = {
        PyArray_SimpleNew(2, d2, NPY_UINT32), PyArray_SimpleNew(1, d1, NPY_BOOL),
        PyArray_SimpleNew(2, d3, NPY_DOUBLE), PyArray_SimpleNew(2, d3, NPY_DOUBLE),
        PyArray_SimpleNew(1, d1, NPY_DOUBLE), PyArray_SimpleNew(1, d1, NPY_DOUBLE),
        PyArray_SimpleNew(1, d1, NPY_DOUBLE), PyArray_SimpleNew(1, d1, NPY_DOUBLE),
        PyArray_SimpleNew(1, d1, NPY_UINT64)};
    PyObject *out = NULL;
    int made = 1;
    for (int k = 0; k < N_ARR; k++)
        made = made && arr[k];
    if (made) {
#define DATA(a, type) ((type *)PyArray_DATA((PyArrayObject *)arr[a]))
        for (size_t k = 0; k < n; k++) {
            rbl_bond_view v;
            rbl_sim_bond(sim, k, &v);
            DATA(IDS, uint32_t)[2 * k] = v.id[0], DATA(IDS, uint32_t)[2 * k + 1] = v.id[1];
            DATA(INTACT, npy_bool)[k] = (npy_bool)v.intact;
            for (int a = 0; a < 3; a++)
                DATA(FORCE, double)[3 * k + a] = v.force[a],
                DATA(MOMENT, double)[3 * k + a] = v.moment[a];
            DATA(FN, double)[k] = v.normal_force, DATA(SIGMA, double)[k] = v.sigma;
            DATA(TAU, double)[k] = v.tau, DATA(ENERGY, double)[k] = v.energy;
            DATA(STEP, uint64_t)[k] = v.broke_step;
        }
#undef DATA
        out = Py_BuildValue("{sOsOsOsOsOsOsOsOsO}", "ids", arr[IDS], "intact", arr[INTACT],
                            "force", arr[FORCE], "moment", arr[MOMENT], "normal_force", arr[FN],
                            "sigma", arr[SIGMA], "tau", arr[TAU], "energy", arr[ENERGY],
                            "broke_step", arr[STEP]);
    }
    for (int k = 0; k < N_ARR; k++)
        Py_XDECREF(arr[k]);
    return out;
}

/* fragments(): the fragments (issue 72, rbl_sim_fragments) by label, as new arrays: label,
 * grains, mass, diameter, centre (n x 3), velocity (n x 3). */
static PyObject *run_fragments(RunObject *self, PyObject *unused)
{
    (void)unused;
    rbl_sim *sim = stage_sim(self);
    if (!sim)
        return NULL;
    rbl_fragment *f = NULL;
    size_t n = 0;
    rbl_error err = {0};
    int rc = rbl_sim_fragments(sim, &f, &n, &err);
    if (rc != RBL_OK) {
        raise_error(&err, rc);
        return NULL;
    }
    npy_intp d1[1] = {(npy_intp)n}, d3[2] = {(npy_intp)n, 3};
    enum { LABEL, GRAINS, MASS, DIAMETER, CENTRE, VELOCITY, N_ARR };
    PyObject *arr[N_ARR] = {
        PyArray_SimpleNew(1, d1, NPY_UINT32), PyArray_SimpleNew(1, d1, NPY_UINT32),
        PyArray_SimpleNew(1, d1, NPY_DOUBLE), PyArray_SimpleNew(1, d1, NPY_DOUBLE),
        PyArray_SimpleNew(2, d3, NPY_DOUBLE), PyArray_SimpleNew(2, d3, NPY_DOUBLE)};
    PyObject *out = NULL;
    int made = 1;
    for (int k = 0; k < N_ARR; k++)
        made = made && arr[k];
    if (made) {
#define DATA(a, type) ((type *)PyArray_DATA((PyArrayObject *)arr[a]))
        for (size_t k = 0; k < n; k++) {
            DATA(LABEL, uint32_t)[k] = f[k].label, DATA(GRAINS, uint32_t)[k] = f[k].grains;
            DATA(MASS, double)[k] = f[k].mass, DATA(DIAMETER, double)[k] = f[k].diameter;
            for (int a = 0; a < 3; a++)
                DATA(CENTRE, double)[3 * k + a] = f[k].centre[a],
                DATA(VELOCITY, double)[3 * k + a] = f[k].velocity[a];
        }
#undef DATA
        out = Py_BuildValue("{sOsOsOsOsOsO}", "label", arr[LABEL], "grains", arr[GRAINS],
                            "mass", arr[MASS], "diameter", arr[DIAMETER], "centre",
                            arr[CENTRE], "velocity", arr[VELOCITY]);
    }
    for (int k = 0; k < N_ARR; k++)
        Py_XDECREF(arr[k]);
    rbl_fragments_free(f);
    return out;
}

/* mesh_loads(mesh): the load on each facet of a mesh wall (rbl_sim_mesh_loads), as new
 * arrays: force (facets x 3), pressure, shear, wear. */
static PyObject *run_mesh_loads(RunObject *self, PyObject *args)
{
    int mesh = 0;
    if (!PyArg_ParseTuple(args, "i", &mesh))
        return NULL;
    rbl_sim *sim = stage_sim(self);
    if (!sim)
        return NULL;
    const size_t nt = rbl_sim_mesh_facets(sim, mesh);
    npy_intp d2[2] = {(npy_intp)nt, 3}, d1[1] = {(npy_intp)nt};
    PyObject *force = PyArray_SimpleNew(2, d2, NPY_DOUBLE);
    PyObject *pressure = PyArray_SimpleNew(1, d1, NPY_DOUBLE);
    PyObject *shear = PyArray_SimpleNew(1, d1, NPY_DOUBLE);
    PyObject *wear = PyArray_SimpleNew(1, d1, NPY_DOUBLE);
    PyObject *out = NULL;
    if (force && pressure && shear && wear) {
        rbl_error err = {0};
        int rc = rbl_sim_mesh_loads(sim, mesh, PyArray_DATA((PyArrayObject *)force),
                                    PyArray_DATA((PyArrayObject *)pressure),
                                    PyArray_DATA((PyArrayObject *)shear),
                                    PyArray_DATA((PyArrayObject *)wear), &err);
        if (rc != RBL_OK)
            raise_error(&err, rc);
        else
            out = Py_BuildValue("{sOsOsOsO}", "force", force, "pressure", pressure, "shear",
                                shear, "wear", wear);
    }
    Py_XDECREF(force), Py_XDECREF(pressure), Py_XDECREF(shear), Py_XDECREF(wear);
    return out;
}

/* An impulse scene's objects, as new arrays: position, quaternion (scalar first), velocity,
 * spin, semi_axes. */
static PyObject *run_objects(RunObject *self, PyObject *unused)
{
    (void)unused;
    if (!usable(self))
        return NULL;
    rbl_fdo_sim *fs = rbl_run_objects(self->run);
    if (!fs)
        return PyErr_Format(PyExc_ValueError, "a scene of grains has grains, not objects");
    const size_t n = rbl_fdo_sim_count(fs);
    npy_intp d3[2] = {(npy_intp)n, 3}, d4[2] = {(npy_intp)n, 4};
    PyObject *x = PyArray_SimpleNew(2, d3, NPY_DOUBLE), *q = PyArray_SimpleNew(2, d4, NPY_DOUBLE);
    PyObject *v = PyArray_SimpleNew(2, d3, NPY_DOUBLE), *w = PyArray_SimpleNew(2, d3, NPY_DOUBLE);
    PyObject *a = PyArray_SimpleNew(2, d3, NPY_DOUBLE), *d = NULL;
    if (x && q && v && w && a) {
        double *px = PyArray_DATA((PyArrayObject *)x), *pq = PyArray_DATA((PyArrayObject *)q);
        double *pv = PyArray_DATA((PyArrayObject *)v), *pw = PyArray_DATA((PyArrayObject *)w);
        double *pa = PyArray_DATA((PyArrayObject *)a);
        for (size_t k = 0; k < n; k++) {
            rbl_fdo_sim_get(fs, k, px + 3 * k, pq + 4 * k, pv + 3 * k, pw + 3 * k);
            rbl_fdo_sim_semi_axes(fs, k, pa + 3 * k);
        }
        d = Py_BuildValue("{s:O,s:O,s:O,s:O,s:O}", "position", x, "quaternion", q, "velocity",
                          v, "spin", w, "semi_axes", a);
    }
    Py_XDECREF(x), Py_XDECREF(q), Py_XDECREF(v), Py_XDECREF(w), Py_XDECREF(a);
    return d;
}

static PyObject *run_where(RunObject *self, PyObject *unused)
{
    (void)unused;
    if (!usable(self))
        return NULL;
    rbl_run_status st;
    rbl_run_progress(self->run, &st);
    return Py_BuildValue("{s:K,s:K,s:d,s:d,s:n,s:d}", "step", (unsigned long long)st.step,
                         "total_steps", (unsigned long long)st.total_steps, "time", st.time,
                         "end_time", st.end_time, "count", (Py_ssize_t)st.grains,
                         "wall_seconds", st.wall_seconds);
}

/* step, total_steps, dt and time from this process alone (rbl_run_clock): any rank may ask,
 * one alone too (where() and summary() are collective over several processes). */
static PyObject *run_clock(RunObject *self, PyObject *unused)
{
    (void)unused;
    if (!usable(self))
        return NULL;
    uint64_t step = 0, total = 0;
    double dt = 0.0;
    rbl_run_clock(self->run, &step, &total, &dt);
    return Py_BuildValue("{s:K,s:K,s:d,s:d}", "step", (unsigned long long)step, "total_steps",
                         (unsigned long long)total, "dt", dt, "time", (double)step * dt);
}

/* Coarse-graining (rbl_cg_*, docs/cg.md): a grid of sums in a capsule, filled from runs. */
static void cg_capsule_free(PyObject *capsule)
{
    rbl_cg_free(PyCapsule_GetPointer(capsule, "rubble.cg"));
}

static PyObject *cg_create(PyObject *mod, PyObject *args)
{
    (void)mod;
    rbl_cg_options o;
    memset(&o, 0, sizeof o);
    Py_ssize_t n[3];
    const char *kernel;
    int average[3], coords, axis;
    double centre[3];
    if (!PyArg_ParseTuple(args, "(ddd)(ddd)(nnn)sd(ppp)ii(ddd)", &o.lo[0], &o.lo[1], &o.lo[2],
                          &o.hi[0], &o.hi[1], &o.hi[2], &n[0], &n[1], &n[2], &kernel, &o.width,
                          &average[0], &average[1], &average[2], &coords, &axis, &centre[0],
                          &centre[1], &centre[2]))
        return NULL;
    if (strcmp(kernel, "lucy") != 0 && strcmp(kernel, "gaussian") != 0)
        return PyErr_Format(PyExc_ValueError, "kernel: lucy or gaussian, not '%s'", kernel);
    o.kernel = strcmp(kernel, "lucy") == 0 ? RBL_CG_LUCY : RBL_CG_GAUSSIAN;
    for (int a = 0; a < 3; a++) {
        if (n[a] < 1)
            return PyErr_Format(PyExc_ValueError, "cells: 1 or more along each axis");
        o.cells[a] = (size_t)n[a];
    }
    rbl_cg *cg = NULL;
    rbl_error err = {0};
    int rc = rbl_cg_create(&o, &cg, &err);
    if (rc == RBL_OK &&
        ((rc = rbl_cg_coordinates_set(cg, (rbl_cg_coordinates)coords, axis, centre, &err)) !=
             RBL_OK ||
         (rc = rbl_cg_average(cg, average, &err)) != RBL_OK))
        rbl_cg_free(cg);
    if (rc != RBL_OK)
        return raise_error(&err, rc);
    PyObject *capsule = PyCapsule_New(cg, "rubble.cg", cg_capsule_free);
    if (!capsule)
        rbl_cg_free(cg);
    return capsule;
}

static PyObject *run_cg_add(RunObject *self, PyObject *capsule)
{
    rbl_cg *cg = PyCapsule_GetPointer(capsule, "rubble.cg");
    rbl_sim *sim = cg ? stage_sim(self) : NULL;
    if (!sim)
        return NULL;
    rbl_error err = {0};
    int rc;
    Py_BEGIN_ALLOW_THREADS rc = rbl_cg_add(cg, sim, &err);
    Py_END_ALLOW_THREADS
    if (rc != RBL_OK)
        return raise_error(&err, rc);
    Py_RETURN_NONE;
}

static PyObject *cg_clear(PyObject *mod, PyObject *capsule)
{
    (void)mod;
    rbl_cg *cg = PyCapsule_GetPointer(capsule, "rubble.cg");
    if (!cg)
        return NULL;
    rbl_cg_clear(cg);
    Py_RETURN_NONE;
}

/* The mean fields: a dict of new arrays shaped (nz, ny, nx[, 3 | 3, 3]), and the grid. */
static PyObject *cg_fields(PyObject *mod, PyObject *capsule)
{
    (void)mod;
    rbl_cg *cg = PyCapsule_GetPointer(capsule, "rubble.cg");
    if (!cg)
        return NULL;
    rbl_cg_fields f;
    rbl_error err = {0};
    int rc = rbl_cg_fields_get(cg, &f, &err);
    if (rc != RBL_OK)
        return raise_error(&err, rc);
    double *wall = malloc(3 * (f.nodes ? f.nodes : 1) * sizeof *wall);
    if (!wall) {
        rbl_cg_fields_free(&f);
        return PyErr_NoMemory();
    }
    rc = rbl_cg_wall_force_get(cg, wall, 3 * f.nodes, &err);
    if (rc != RBL_OK) {
        free(wall), rbl_cg_fields_free(&f);
        return raise_error(&err, rc);
    }
    PyObject *d = PyDict_New();
    struct {
        const char *name;
        double *data;
        int width;
    } arrays[] = {{"density", f.density, 1},        {"volume_fraction", f.volume_fraction, 1},
                  {"velocity", f.velocity, 3},      {"stress", f.stress, 9},
                  {"contact_stress", f.contact_stress, 9},
                  {"kinetic_stress", f.kinetic_stress, 9}, {"fabric", f.fabric, 9},
                  {"wall_force", wall, 3}};
    for (size_t k = 0; d && k < sizeof arrays / sizeof *arrays; k++) {
        npy_intp dims[5] = {(npy_intp)f.cells[2], (npy_intp)f.cells[1], (npy_intp)f.cells[0], 3,
                            3};
        int nd = arrays[k].width == 1 ? 3 : arrays[k].width == 3 ? 4 : 5;
        PyObject *a = PyArray_SimpleNew(nd, dims, NPY_DOUBLE);
        if (a)
            memcpy(PyArray_DATA((PyArrayObject *)a), arrays[k].data,
                   f.nodes * (size_t)arrays[k].width * sizeof(double));
        if (!a || PyDict_SetItemString(d, arrays[k].name, a) != 0)
            Py_CLEAR(d);
        Py_XDECREF(a);
    }
    PyObject *extra[] = {Py_BuildValue("(ddd)", f.origin[0], f.origin[1], f.origin[2]),
                         Py_BuildValue("(ddd)", f.spacing[0], f.spacing[1], f.spacing[2]),
                         PyLong_FromSize_t(f.samples)};
    const char *names[] = {"origin", "spacing", "samples"};
    for (int k = 0; k < 3; k++) {
        if (d && (!extra[k] || PyDict_SetItemString(d, names[k], extra[k]) != 0))
            Py_CLEAR(d);
        Py_XDECREF(extra[k]);
    }
    free(wall), rbl_cg_fields_free(&f);
    return d;
}

static PyObject *cg_samples(PyObject *mod, PyObject *capsule)
{
    (void)mod;
    rbl_cg *cg = PyCapsule_GetPointer(capsule, "rubble.cg");
    return cg ? PyLong_FromSize_t(rbl_cg_samples(cg)) : NULL;
}

/* Coarse-graining after the run (rbl_cg_job_run, `rubble cg`): (scene, [inputs], cg text or
 * None, output folder, threads) -> (outputs, inexact, [warnings]). */
static void cg_job_warning(const char *text, void *userdata)
{
    PyObject *s = PyUnicode_FromString(text);
    if (s)
        PyList_Append(userdata, s);
    Py_XDECREF(s);
}

static PyObject *cg_job(PyObject *mod, PyObject *args)
{
    (void)mod;
    const char *scene, *grid, *output;
    PyObject *list;
    int threads;
    if (!PyArg_ParseTuple(args, "sO!zsi", &scene, &PyList_Type, &list, &grid, &output, &threads))
        return NULL;
    const Py_ssize_t n = PyList_Size(list);
    const char **inputs = calloc((size_t)n + 1, sizeof *inputs);
    PyObject *warnings = PyList_New(0);
    if (!inputs || !warnings) {
        free(inputs);
        Py_XDECREF(warnings);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t k = 0; k < n; k++)
        if (!(inputs[k] = PyUnicode_AsUTF8(PyList_GetItem(list, k)))) {
            free(inputs);
            Py_DECREF(warnings);
            return NULL;
        }
    rbl_cg_job job = {.scene = scene, .cg = grid, .inputs = inputs, .n_inputs = (size_t)n,
                      .output_dir = output, .threads = threads, .warning = cg_job_warning,
                      .userdata = warnings};
    size_t outputs = 0;
    int inexact = 0, rc;
    rbl_error err = {0};
    rc = rbl_cg_job_run(&job, &outputs, &inexact, &err); /* (the warnings: Python objects) */
    free(inputs);
    if (rc != RBL_OK) {
        Py_DECREF(warnings);
        return raise_error(&err, rc);
    }
    return Py_BuildValue("(niN)", (Py_ssize_t)outputs, inexact, warnings);
}

static PyMethodDef run_methods[] = {
    {"step", (PyCFunction)run_step, METH_VARARGS, "step(n=1): n more steps"},
    {"until", (PyCFunction)run_until, METH_VARARGS, "until(t): step to simulated time t"},
    {"write_frame", (PyCFunction)run_write_frame, METH_NOARGS, "a frame now"},
    {"write_checkpoint", (PyCFunction)run_write_checkpoint, METH_NOARGS, "a checkpoint now"},
    {"write_thermo", (PyCFunction)run_write_thermo, METH_NOARGS, "a thermo row now"},
    {"finish", (PyCFunction)run_finish, METH_NOARGS, "output.final now"},
    {"summary", (PyCFunction)run_summary, METH_NOARGS, "the report of rubble run, as a dict"},
    {"grains", (PyCFunction)run_grains, METH_NOARGS, "the grains' arrays (no copy)"},
    {"where", (PyCFunction)run_where, METH_NOARGS, "step, total_steps, time, end_time, count"},
    {"clock", (PyCFunction)run_clock, METH_NOARGS, "step, total_steps, dt, time: local"},
    {"close", (PyCFunction)run_close, METH_NOARGS, "no more steps"},
    {"contacts", (PyCFunction)run_contacts, METH_NOARGS, "the contacts, as new arrays"},
    {"collisions", (PyCFunction)run_collisions, METH_VARARGS,
     "collisions(a, b, wall): the open interval's events per bin"},
    {"bonds", (PyCFunction)run_bonds, METH_NOARGS, "bonds(): every bond's state"},
    {"add_bonds", (PyCFunction)run_add_bonds, METH_VARARGS,
     "add_bonds(params, ids, pairs, radius): bonds made now; how many"},
    {"fragments", (PyCFunction)run_fragments, METH_NOARGS,
     "fragments(): the connected components of the intact bonds"},
    {"warnings", (PyCFunction)run_warnings, METH_NOARGS, "the run's warnings"},
    {"mesh_loads", (PyCFunction)run_mesh_loads, METH_VARARGS, "a mesh wall's facets' loads"},
    {"_cg_add", (PyCFunction)run_cg_add, METH_O, "a coarse-graining sample of the grains now"},
    {"objects", (PyCFunction)run_objects, METH_NOARGS, "an impulse scene's objects"},
    {"set_hook", (PyCFunction)run_set_hook, METH_VARARGS, "set_hook(every, fn): fn() now and "
     "every `every` steps"},
    {"external_forces", (PyCFunction)run_external_forces, METH_NOARGS,
     "the grains' external forces (writable)"},
    {"set_gravity", (PyCFunction)run_set_gravity, METH_VARARGS, "the uniform gravity now"},
    {"gravity", (PyCFunction)run_gravity, METH_NOARGS, "the uniform gravity"},
    {"set_servo_force", (PyCFunction)run_set_servo_force, METH_VARARGS, "a servo's target"},
    {"set_wall_motion", (PyCFunction)run_set_wall_motion, METH_VARARGS, "a wall's motion now"},
    {"set_wall_table", (PyCFunction)run_set_wall_table, METH_VARARGS,
     "a wall moved by a table from now"},
    {"remove_grains", (PyCFunction)run_remove_grains, METH_VARARGS, "grains out, by id"},
    {"move_grains", (PyCFunction)run_move_grains, METH_VARARGS, "grains to new places"},
    {"add_grains", (PyCFunction)run_add_grains, METH_VARARGS, "grains in: their ids"},
    {"pour", (PyCFunction)run_pour, METH_VARARGS, "grains in at random where they fit"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject RunType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "rubble._rubble.Run",
    .tp_basicsize = sizeof(RunObject),
    .tp_dealloc = (destructor)run_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "a rubble run (rbl_run): opened from a scene, stepped, closed",
    .tp_traverse = (traverseproc)run_traverse,
    .tp_clear = (inquiry)run_clear,
    .tp_methods = run_methods,
    .tp_init = (initproc)run_init,
    .tp_new = PyType_GenericNew,
};

static PyObject *set_error_class(PyObject *mod, PyObject *cls)
{
    (void)mod;
    Py_XDECREF(error_class);
    Py_INCREF(cls);
    error_class = cls;
    Py_RETURN_NONE;
}

/* MPI held by the module across runs when the launcher started several processes (a run
 * that started MPI itself would end it, and MPI cannot start twice); ended at exit. */
static PyObject *parallel_begin(PyObject *mod, PyObject *unused)
{
    (void)mod, (void)unused;
    int rank = 0;
    if (rbl_launched_ranks(&rank) > 1 && rbl_parallel_begin() != RBL_OK)
        return PyErr_Format(PyExc_RuntimeError, "MPI could not be initialised");
    return PyLong_FromLong(rank);
}

static PyObject *parallel_end(PyObject *mod, PyObject *unused)
{
    (void)mod, (void)unused;
    rbl_parallel_end();
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"_set_error_class", set_error_class, METH_O, "the exception errors are raised as"},
    {"_parallel_begin", parallel_begin, METH_NOARGS, "MPI held across runs; this rank"},
    {"_parallel_end", parallel_end, METH_NOARGS, "MPI ended"},
    {"_cg_create", cg_create, METH_VARARGS, "a coarse-graining grid (rbl_cg_create)"},
    {"_cg_clear", cg_clear, METH_O, "its samples dropped"},
    {"_cg_fields", cg_fields, METH_O, "its mean fields, as new arrays"},
    {"_cg_samples", cg_samples, METH_O, "its sample count"},
    {"_cg_job", cg_job, METH_VARARGS, "coarse-graining after the run (rbl_cg_job_run)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_rubble",
                                    "librubble's run object (rbl_run_*)", -1, module_methods,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__rubble(void)
{
    import_array();
    if (PyType_Ready(&RunType) < 0 || PyType_Ready(&LeaseType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m)
        return NULL;
    Py_INCREF(&RunType);
    if (PyModule_AddObject(m, "Run", (PyObject *)&RunType) < 0) {
        Py_DECREF(&RunType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
