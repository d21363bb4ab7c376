"""A mound's shape from a run's last frame: the height of its top surface (the 95th percentile
of the grains' tops) in rings of 2 mm about a vertical axis, the largest height, and the flank's
angle fitted between 20 % and 80 % of it (examples/cohesive.yaml's figures).

    PYTHONPATH=build/python python3 scripts/mound_profile.py OUTPUT_FOLDER [X Y]

X, Y: the axis (default 0.03 0.03, the cohesive example's box centre)."""
import glob
import os
import sys

import numpy as np

from rubble import frames

folder = sys.argv[1]
centre = [float(v) for v in sys.argv[2:4]] if len(sys.argv) > 3 else [0.03, 0.03]
frame = sorted(glob.glob(os.path.join(folder, "grains_[0-9]*.vtp")))[-1]
f = frames.read(frame)
x, r = f.points, f.point_data["radius"].ravel()
rho = np.hypot(x[:, 0] - centre[0], x[:, 1] - centre[1])
top = x[:, 2] + r
edges = np.arange(0, 0.03, 0.002)
mid = 0.5 * (edges[:-1] + edges[1:])
h = np.array([np.percentile(top[(rho >= a) & (rho < b)], 95)
              if ((rho >= a) & (rho < b)).sum() > 5 else 0.0
              for a, b in zip(edges[:-1], edges[1:])])
height = h.max()
flank = (h > 0.2 * height) & (h < 0.8 * height)
slope = np.polyfit(mid[flank], h[flank], 1)[0] if flank.sum() >= 2 else float("nan")
print("%s: %d grains, height %.4f m, flank %.1f degrees" %
      (frame, len(x), height, np.degrees(np.arctan(-slope))))
print("height per 2 mm ring (mm):", " ".join("%.1f" % (1000 * v) for v in h))
