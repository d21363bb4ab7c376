"""Coarse-graining from Python (docs/cg.md): continuum fields of a run's grains on a grid,
averaged over the samples added.

    cg = rubble.CoarseGrain(lo=(0, 0, 0), hi=(0.02, 0.02, 0.04), cells=(1, 1, 40),
                            width=0.002, kernel="lucy")
    for _ in range(10):
        run.step(100)
        cg.add(run)
    f = cg.fields()            # arrays shaped (nz, ny, nx[, 3 | 3, 3])
    f.stress[:, 0, 0, 2, 2]    # sigma_zz along z (Pa, tension positive)

After the run, from its frames (with their contact files) or checkpoints, as `rubble cg`:

    out = rubble.coarse_grain("bed.yaml", sorted(glob.glob("out/grains_*.vtp")), output="cg",
                              cg={"cells": [4, 4, 16], "width": 0.002})
    f = rubble.frames.read_vti(out.files[-1])
"""
import os
import types
import warnings

from . import _rubble

__all__ = ["CoarseGrain", "coarse_grain"]


def _flow(value):
    """A value as YAML flow text: mappings, sequences, numbers and words."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    if isinstance(value, float):
        return repr(value)
    return str(value)


def coarse_grain(scene, inputs, output="cg", cg=None, threads=1):
    """Coarse-grains a finished run's frames (grains_NNNNNN.vtp, each with its contact .vtp or
    .csv beside it) or checkpoints, in time order, as `rubble cg` does (docs/cg.md "After the
    run"): on the scene's output.cg grid, or on `cg` (output.cg's keys, a dict or YAML text:
    cells, width, kernel, min, max, samples, profile), `samples` inputs averaged per output;
    writes cg_NNNNNN.vti, cg_profile_NNNNNN.csv and cg.pvd into `output`, the bytes output.cg
    writes on the same states. Returns .outputs (their count), .files (the .vti paths) and
    .times (s) in order, .inexact (branch vectors taken from an old .vtp's lines' ends). The
    grid's warnings come as rubble.Warning."""
    if isinstance(inputs, (str, os.PathLike)):
        inputs = [inputs]
    text = None if cg is None else cg if isinstance(cg, str) else _flow(cg)
    outputs, inexact, said = _rubble._cg_job(os.fspath(scene), [os.fspath(p) for p in inputs],
                                             text, os.fspath(output), int(threads))
    if said:
        from . import Warning as _Warning
        for w in said:
            warnings.warn(w, _Warning, stacklevel=2)
    from .frames import read_pvd
    series = read_pvd(os.path.join(os.fspath(output), "cg.pvd"))
    return types.SimpleNamespace(outputs=outputs, inexact=bool(inexact),
                                 files=[f for _, f in series], times=[t for t, _ in series])


class CoarseGrain:
    """A grid of cells[0] x cells[1] x cells[2] nodes at the centres of the cells of the box
    lo..hi, a Lucy kernel of support radius `width` or a Gaussian of standard deviation
    `width` (cut at 3 width); add(run) takes a sample of the run's grains and contacts.
    average: the axes averaged over, e.g. "y" or ("x", "y") (one cell across each): the mean
    over lo..hi, the kernel integrated exactly along them (docs/cg.md). coordinates:
    "cartesian", "cylindrical" (lo, hi, cells in r, theta, z about the line through `centre`
    along `axis`; average="z": along it) or "spherical" (r, theta, phi about `centre`, theta
    from `axis`), angles in radians; vectors and tensors then in those components."""

    def __init__(self, lo, hi, cells, width, kernel="lucy", average=(),
                 coordinates="cartesian", axis="z", centre=(0, 0, 0)):
        axes = tuple(average)
        if any(a not in ("x", "y", "z") for a in axes):
            raise ValueError(f"average: axes x, y or z, not {average!r}")
        kinds = ("cartesian", "cylindrical", "spherical")
        if coordinates not in kinds or axis not in ("x", "y", "z"):
            raise ValueError(f"coordinates: one of {kinds}, axis x, y or z")
        self._cg = _rubble._cg_create(tuple(map(float, lo)), tuple(map(float, hi)),
                                      tuple(int(n) for n in cells), str(kernel), float(width),
                                      tuple(a in axes for a in "xyz"), kinds.index(coordinates),
                                      "xyz".index(axis), tuple(map(float, centre)))

    def add(self, run):
        """A sample: the grains of `run` and the contacts of its last force evaluation."""
        run._run._cg_add(self._cg)
        return self

    def clear(self):
        _rubble._cg_clear(self._cg)
        return self

    @property
    def samples(self):
        return _rubble._cg_samples(self._cg)

    def fields(self):
        """The mean over the samples (new arrays, node [k, j, i] at origin + (i, j, k) *
        spacing): density, volume_fraction, velocity, stress = contact_stress +
        kinetic_stress (Pa, tension positive), fabric, wall_force (N/m^3: the force density
        on the walls, docs/cg.md "Next to a wall"); and origin, spacing, samples."""
        return types.SimpleNamespace(**_rubble._cg_fields(self._cg))
