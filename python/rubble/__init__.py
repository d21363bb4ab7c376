"""rubble from Python: a run of a scene, stepped from a script, its grains as numpy arrays.

    import rubble
    run = rubble.Run("examples/settle.yaml", output="out")   # a file, a dict, or Run.from_yaml
    run.step(1000)                                            # events fall as `rubble run` makes them
    g = run.grains()                                          # arrays over the engine's memory
    print(g.position[:, 2].max(), run.time)
    run.finish(); run.close()

docs/python.md is the guide. Errors are rubble.Error, with the message `rubble run` prints and,
where it names one, the scene's file, line and column.
"""
import json
import math
import operator
import os
import re
import types
import warnings as _warnings

import numpy as np

from . import _rubble
from . import frames
from .cg import CoarseGrain, coarse_grain

__all__ = ["Run", "Error", "Warning", "frames", "CoarseGrain", "coarse_grain"]


class Error(Exception):
    """A rubble error: .message as the CLI prints it, .code (rbl_status), and .file, .line,
    .column when the message starts with `file:line:column:` (else None)."""

    _at = re.compile(r"^(?P<file>[^\n]*?):(?P<line>\d+):(?P<column>\d+): ")

    def __init__(self, message, code=0):
        super().__init__(message)
        self.message, self.code = message, code
        m = self._at.match(message)
        self.file = m.group("file") if m else None
        self.line = int(m.group("line")) if m else None
        self.column = int(m.group("column")) if m else None


_rubble._set_error_class(Error)


class Warning(UserWarning):  # noqa: A001 (rubble.Warning, as rubble.Error)
    """A legal setting that is likely a mistake (docs/scenes.md "Warnings"), raised through
    Python's warnings as a run opens; Run.warnings lists them."""


def _warn(run):
    for text in run._run.warnings():
        _warnings.warn(text, Warning, stacklevel=3)

_mpi = []


def _parallel():
    """Under mpirun every process runs its share of each Run (collective calls, the same on
    every rank); MPI is started once for all of them and ended at exit (or left to mpi4py)."""
    if not _mpi:
        import atexit
        _mpi.append(_rubble._parallel_begin())
        atexit.register(_rubble._parallel_end)
    return _mpi[0]


class Run:
    """A run of a scene (librubble's rbl_run): `scene` is a scene file's path or a dict of the
    scene's keys (docs/scenes.md; `folder` is where the files a dict names are found). Over
    output, threads, restart, steps, change_physics and test_shuffle as `rubble run`'s
    --output, --threads, --restart, --steps, --change-physics and --test-shuffle (tests only:
    the grains stored in a random order at every neighbour build, docs/testing.md)."""

    def __init__(self, scene, output=None, threads=0, restart=None, steps=0, folder=None,
                 change_physics=False, test_shuffle=0):
        kw = dict(output=_path(output), threads=threads, restart=_path(restart), steps=steps,
                  change_physics=bool(change_physics), test_shuffle=int(test_shuffle))
        _parallel()
        if isinstance(scene, dict):
            # JSON is YAML; one key a line for messages; numpy values as their numbers
            text = json.dumps(scene, indent=1, default=_scene_value)
            name = os.path.join(folder, "<dict>") if folder else "<dict>"
            self._run = _rubble.Run(text=text.encode(), name=name, **kw)
        elif isinstance(scene, (str, bytes, os.PathLike)):
            self._run = _rubble.Run(path=_path(scene), **kw)
        else:
            raise TypeError("a scene is a file's path or a dict, not %r" % type(scene).__name__)
        _warn(self)

    @classmethod
    def from_yaml(cls, text, name=None, **kw):
        """A run of a scene given as YAML text; `name` stands for its file in messages and its
        folder is where the files it names are found."""
        self = cls.__new__(cls)
        _parallel()
        kw = dict(kw)
        for k in ("output", "restart"):
            kw[k] = _path(kw.get(k))
        if isinstance(text, str):
            text = text.encode()
        self._run = _rubble.Run(text=text, name=name, **kw)
        _warn(self)
        return self

    @property
    def warnings(self):
        """The scene's and the set-up's warnings (docs/scenes.md "Warnings"), as str."""
        return self._run.warnings()

    def step(self, n=1):
        """n more steps, the scene's events (frames, thermo rows, pours, checkpoints) where
        they fall; the run may go past the scene's length. n is a whole number (an int, a
        numpy integer, or a float such as 1e6 that is whole), at most 1e15. Ctrl-C stops it
        between the pieces it steps in (KeyboardInterrupt; the run whole at that step, which
        step_count says: it may step on)."""
        self._run.step(_step_count(n))
        return self

    def until(self, time):
        """Step to the first step at or after simulated time `time` (s)."""
        self._run.until(float(time))
        return self

    def grains(self):
        """The grains as numpy arrays over the engine's memory (no copy): id, position,
        velocity, spin, radius, mass, force, torque, material, clump (-1: none), contacts.
        velocity and spin are writable (a clump's spheres: a rigid motion of all of them, which
        the clump takes at the next step; anything else is refused there, naming the sphere and
        the clump: docs/python.md). Rows are in the engine's order, which a step changes:
        take the arrays again after stepping (old ones stay readable, never dangle)."""
        return types.SimpleNamespace(**self._run.grains())

    # ---- changes between stages (a fill, a settling, a tilt...) ----

    @property
    def gravity(self):
        """The uniform gravity (m/s^2); set it to turn or switch it from the next step."""
        return self._run.gravity()

    @gravity.setter
    def gravity(self, g):
        self._run.set_gravity(tuple(float(x) for x in g))

    def set_servo_force(self, wall, force):
        """A servo wall's target force (N) from the next step (walls indexed from 0: planes,
        then meshes; messages, thermo.csv and walls.vtp count from 1: index 0 is wall 1); it
        travels on from where it is."""
        self._run.set_servo_force(int(wall), float(force))

    def set_wall_motion(self, wall, velocity=(0, 0, 0), omega=0.0, axis=(0, 0, 1),
                        center=(0, 0, 0), amplitude=(0, 0, 0), frequency=0.0):
        """Wall `wall` (indexed from 0: planes, then meshes; index 0 is "wall 1" in messages,
        thermo.csv and walls.vtp) moves from now on, from where it is: at
        `velocity` (m/s), turning at `omega` (rad/s) about `axis` through `center` (a point
        on the axis now), vibrating by `amplitude` at `frequency` (in phase with the run's
        time: the wall does not jump, its velocity may). All zero: it stops."""
        def v3(v):
            return tuple(float(x) for x in v)
        self._run.set_wall_motion(int(wall), v3(velocity), float(omega), v3(axis), v3(center),
                                  v3(amplitude), float(frequency))

    def set_wall_table(self, wall, t, shift=None, quat=None, pivot=(0, 0, 0)):
        """Wall `wall` (indexed from 0, as set_wall_motion) moved from now on, from where it
        is, by a table (docs/scenes.md `table`): at the times `t` (s from now, n increasing)
        its displacement `shift` (n x 3, m; default none) and orientation `quat` (n x 4 unit
        quaternions w, x, y, z; default none) about `pivot`, relative to the first row; linear
        between rows, turning at a constant rate (slerp)."""
        t = np.asarray(t, dtype=float).reshape(-1)
        rows = np.zeros((t.size, 8))
        rows[:, 0] = t
        rows[:, 4] = 1.0
        if shift is not None:
            rows[:, 1:4] = np.asarray(shift, dtype=float).reshape(-1, 3)
        if quat is not None:
            rows[:, 4:8] = np.asarray(quat, dtype=float).reshape(-1, 4)
        self._run.set_wall_table(int(wall), rows, tuple(float(x) for x in pivot))

    def add_grains(self, position, radius, velocity=None, material=0):
        """Grains at these positions (n x 3) with these radii (n), at rest or at these
        velocities; their ids (numpy). They are placed as given: no overlap check."""
        pos = np.asarray(position, dtype=float).reshape(-1, 3)
        rad = np.asarray(radius, dtype=float)
        if rad.ndim == 0:  # one radius for all
            rad = np.full(len(pos), float(rad))
        elif rad.shape != (len(pos),):
            raise ValueError("add_grains: %d positions, %s radii" % (len(pos), rad.shape))
        vel = None if velocity is None else np.asarray(velocity, dtype=float).reshape(-1, 3)
        return self._run.add_grains(pos, rad, vel, int(material))

    def pour(self, lo, hi, count, radius, material=0, velocity=(0, 0, 0), seed=1):
        """Up to `count` grains of `radius` at random places in the box lo..hi where they
        overlap neither a grain nor a wall; how many were placed."""
        return self._run.pour(tuple(map(float, lo)), tuple(map(float, hi)), int(count),
                              float(radius), int(material), tuple(map(float, velocity)),
                              int(seed))

    def move_grains(self, ids, position):
        """Put these grains (ids) at these positions (n x 3); the next step rebuilds its
        neighbour lists. (The position array of grains() is read-only: this is the way.) A
        position in or behind a wall by more than 0.1 of the radius, or outside a closed
        domain, is refused naming the grain and the wall; nothing is moved then."""
        self._run.move_grains(np.asarray(ids, dtype=np.uint32).ravel(),
                              np.asarray(position, dtype=float).reshape(-1, 3))

    def remove_grains(self, ids):
        """Take these grains (ids; spheres, not clumps) out at the next step."""
        self._run.remove_grains(np.asarray(ids, dtype=np.uint32).ravel())

    def objects(self):
        """An impulse scene's objects (new arrays, in their order): position, quaternion
        (scalar first, body to world), velocity, spin, semi_axes."""
        return types.SimpleNamespace(**self._run.objects())

    def contacts(self):
        """The contacts of the last force evaluation, ordered by ids (new arrays): ids (n x 2,
        the smaller first), point, normal (from the first towards the second), fn and ft (the
        normal and tangential force on the first grain), overlap; and the grains' contacts
        with walls: wall_grain, wall (planes then meshes, from 0), wall_point, wall_normal
        (towards the grain), wall_fn, wall_ft (on the grain), wall_overlap. In an impulse
        scene: the last step's contacts that acted, ids by object index (the first the bigger,
        or the wall's object), the normal into the first, fn and ft the mean forces of the
        step's impulses (impulse / dt), overlap (< 0: a gap the step closed)."""
        return types.SimpleNamespace(**self._run.contacts())

    def collisions(self, a=0, b=0, wall=False):
        """Collision statistics (output.collisions): the contact events that ended since
        collisions.csv's last row, between grains of materials a and b (wall=True: a grain of
        material a against a wall of material b; materials by index, from 0), per bin of
        impact energy from the one below the range to the one above it (bins + 2, as
        collisions.csv's bin -1 .. bins): count, and the sums impact, dissipated (J),
        normal_speed and tangential_speed (m/s, at first touch), new arrays. Over several
        processes the run's whole tally, summed over them (collective: every rank asks
        alike), the numbers collisions.csv's row for the interval will have."""
        return types.SimpleNamespace(**self._run.collisions(int(a), int(b), bool(wall)))

    _SPREADS = {None: 0, "normal": 1, "weibull": 2}

    def add_bonds(self, youngs_modulus, tensile_strength=math.inf, shear_strength=math.inf,
                  stiffness_ratio=2.0, radius_multiplier=1.0, damping=0.0, gap=0.0,
                  spread=None, spread_value=0.0, seed=0, ids=None, pairs=None, radius=None):
        """Bonds made now (issue 72, docs/bonds.md; the scene's `bonds:` keys, SI units):
        between the grains of `ids` (None: every grain) whose gap is at most `gap` m (the
        neighbour list's pairs: gap at most the skin), or between the listed `pairs` of ids
        (n x 2; `radius`: None, or each bond's own radius in m), whatever the gap. A pair bonded
        before, intact or broken, is passed over. Before the first step the bonds take part
        from it; between steps they start unloaded, the step's forces standing. Returns how
        many were made; bad values raise rubble.Error (a pair by its index). One process for
        now. The scene's outputs (bonds_NNNNNN.vtp, thermo's counts) follow the scene's own
        `bonds:`; read these back with bonds() and fragments()."""
        if spread not in self._SPREADS:
            raise ValueError("add_bonds: spread is None, 'normal' or 'weibull': %r" % (spread,))
        if ids is not None and pairs is not None:
            raise ValueError("add_bonds: ids (by gap) or pairs, not both")
        params = (float(youngs_modulus), float(stiffness_ratio), float(radius_multiplier),
                  float(tensile_strength), float(shear_strength), float(damping), float(gap),
                  self._SPREADS[spread], float(spread_value), int(seed))
        return self._run.add_bonds(params, None if ids is None else np.asarray(ids, np.uint32),
                                   None if pairs is None else np.asarray(pairs, np.uint32),
                                   None if radius is None else np.asarray(radius, float))

    def bonds(self):
        """Bonded particles (issue 72, docs/bonds.md): every bond, intact or broken, in the
        order of its grains' ids, as new arrays: ids (n x 2), intact, force and moment on the
        first grain (N, N m; n x 3), normal_force (N, tension positive), sigma and tau (Pa),
        energy (J, held in its springs), broke_step (0: intact)."""
        return types.SimpleNamespace(**self._run.bonds())

    def fragments(self):
        """The fragments (issue 72, docs/bonds.md "Fragments"): connected components of the
        intact bonds (a grain without one alone, a clump's members together), in order of
        their labels (each its least grain id), as new arrays: label, grains (how many),
        mass (kg), diameter (m, of the sphere of their volume), centre (m, n x 3: the centre
        of mass, carried across periodic sides along the bonds) and velocity (m/s, n x 3)."""
        return types.SimpleNamespace(**self._run.fragments())

    def mesh_loads(self, mesh):
        """Mesh wall `mesh`'s facets (meshes from 0, in the scene's order) at the last force
        evaluation (new arrays, one row per facet as in the STL): force (N, what the grains
        exert on it), pressure and shear (Pa: their normal force, positive pressing, and the
        magnitude of their tangential force, over the facet's area), wear (m, the depth worn
        so far; zero where the wall does not wear)."""
        return types.SimpleNamespace(**self._run.mesh_loads(int(mesh)))

    def external_forces(self):
        """The external force on each grain (N, n x 3), writable, over the engine's memory,
        zero at first: added to every step's forces until changed, in the order of
        grains() taken at the same time. Its work counts as energy put in."""
        return self._run.external_forces()

    def hook(self, every, fn):
        """Call fn(run) now and then every `every` steps (after the events of that step):
        to set external forces from the grains as they are (a drag law, buoyancy). An
        exception it raises comes out of step(). fn None removes it and its forces (the
        external forces are zero from the next step). On a restart, set again with the
        checkpoint's `every` before the first step, it resumes: the forces it had set act,
        and it is called next where the run that went on would have called it."""
        self._run.set_hook(int(every), None if fn is None else (lambda: fn(self)))

    def write_frame(self):
        self._run.write_frame()

    def write_thermo(self):
        """A thermo row now, thermo.csv rewritten with it."""
        self._run.write_thermo()

    def write_checkpoint(self):
        """A checkpoint now; Run(scene, restart=...) continues from it in the same bits."""
        self._run.write_checkpoint()
        return os.path.join(self.summary()["output_dir"], self.summary()["last_checkpoint"])

    def finish(self):
        """output.final, if the scene asks for it."""
        self._run.finish()

    def summary(self):
        """The report of `rubble run` as of now (a dict; over several processes, collective)."""
        return self._run.summary()

    @property
    def rank(self):
        """This process's rank under mpirun (0 alone)."""
        return _parallel()

    def close(self):
        self._run.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # these four are this process's own (no communication): one rank alone may read them
    step_count = property(lambda self: self._run.clock()["step"], doc="steps done")
    time = property(lambda self: self._run.clock()["time"], doc="simulated time, s")
    total_steps = property(lambda self: self._run.clock()["total_steps"],
                           doc="the scene's length in steps")
    dt = property(lambda self: self._run.clock()["dt"], doc="the time step, s")


def _scene_value(v):
    """A value json does not know, in a scene dict: numpy scalars and arrays as their numbers
    and lists (np.int64 from np.arange, an np.array corner), paths as str."""
    if isinstance(v, np.ndarray):
        return v.tolist()
    if isinstance(v, np.generic):
        return v.item()
    if isinstance(v, os.PathLike):
        return os.fspath(v)
    raise TypeError("a scene dict holds %r (%s): a scene's values are numbers, strings, "
                    "lists and dicts (numpy's too)" % (v, type(v).__name__))


def _step_count(n):
    """A step count from an int, a numpy integer or a whole float (1e6); else TypeError, or
    ValueError for a float that is not whole (step(2.5) ran 2 steps)."""
    if isinstance(n, (bool, np.bool_)):
        raise TypeError("step(%r): a step count is a number of steps, not a bool" % (n,))
    try:
        return operator.index(n)  # int, numpy integers
    except TypeError:
        pass
    if isinstance(n, (float, np.floating)):
        if math.isfinite(n) and float(n).is_integer():
            return int(n)
        raise ValueError("step(%r): a step count is a whole number of steps (for a time, "
                         "until(t))" % (n,))
    raise TypeError("step(%r): a step count is an int, not %s" % (n, type(n).__name__))


def _path(p):
    return None if p is None else os.fsdecode(p)
