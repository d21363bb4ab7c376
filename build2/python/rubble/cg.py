"""Coarse-graining from Python (docs/cg.md): continuum fields of a run's grains on a grid,
averaged over the samples added.

    cg = rubble.CoarseGrain(lo=(0, 0, 0), hi=(0.02, 0.02, 0.04), cells=(1, 1, 40),
                            width=0.002, kernel="lucy")
    for _ in range(10):
        run.step(100)
        cg.add(run)
    f = cg.fields()            # arrays shaped (nz, ny, nx[, 3 | 3, 3])
    f.stress[:, 0, 0, 2, 2]    # sigma_zz along z (Pa, tension positive)
"""
import types

from . import _rubble

__all__ = ["CoarseGrain"]


class CoarseGrain:
    """A grid of cells[0] x cells[1] x cells[2] nodes at the centres of the cells of the box
    lo..hi, a Lucy kernel of support radius `width` or a Gaussian of standard deviation
    `width` (cut at 3 width); add(run) takes a sample of the run's grains and contacts."""

    def __init__(self, lo, hi, cells, width, kernel="lucy"):
        self._cg = _rubble._cg_create(tuple(map(float, lo)), tuple(map(float, hi)),
                                      tuple(int(n) for n in cells), str(kernel), float(width))

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
        kinetic_stress (Pa, tension positive), fabric; and origin, spacing, samples."""
        return types.SimpleNamespace(**_rubble._cg_fields(self._cg))
