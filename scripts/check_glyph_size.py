"""Checks the ParaView recipe for impulse objects (docs/scenes.md: Tensor Glyph of the
9-component "shape" tensor with a sphere, scale factor 2) draws each object at its size: the
glyphs' bounds against the ellipsoids' own, computed from the tensor R diag(a, b, c) R^T (an
ellipsoid reaches sqrt(S_ii^2-sum) = sqrt((R diag(a^2) R^T)_ii) from its centre along axis i).
scripts/render_examples.sh runs it on the ellipsoids example's last frame.

    pvpython scripts/check_glyph_size.py OUTPUT_FOLDER

Prints both boxes; exits 1 when they differ by more than 2 % of the longest reach (the
sphere's facets take 0.2 %; a scale factor of 1 would take half)."""
import glob
import sys

from paraview import servermanager
from paraview.simple import OpenDataFile, TensorGlyph
from vtk.util.numpy_support import vtk_to_numpy
import numpy as np

folder = sys.argv[1]
frame = sorted(glob.glob(folder + "/objects_*.vtp"))[-1]
source = OpenDataFile(frame)
glyphs = TensorGlyph(Input=source, GlyphType="Sphere")
glyphs.Tensors = ["POINTS", "shape"]
glyphs.ScaleFactor = 2.0
glyphs.GlyphType.ThetaResolution = 48
glyphs.GlyphType.PhiResolution = 32
glyphs.UpdatePipeline()
drawn = servermanager.Fetch(glyphs).GetBounds()

data = servermanager.Fetch(source)
centres = vtk_to_numpy(data.GetPoints().GetData())
shapes = vtk_to_numpy(data.GetPointData().GetArray("shape")).reshape(-1, 3, 3)
reach = np.sqrt(np.einsum("kij,kij->ki", shapes, shapes))  # sqrt(sum_j S_ij^2) per axis
lo, hi = (centres - reach).min(axis=0), (centres + reach).max(axis=0)
own = [v for a in range(3) for v in (lo[a], hi[a])]
longest = reach.max()
worst = max(abs(drawn[i] - own[i]) for i in range(6)) / longest
print("check_glyph_size: %d objects; glyphs span %s, the ellipsoids %s: largest difference "
      "%.3g of the longest reach %.4g m" % (len(centres), np.round(drawn, 5), np.round(own, 5),
                                            worst, longest))
sys.exit(0 if worst < 0.02 else 1)
