"""A rotating drum's dynamic angle of repose and velocity field from its frames
(docs/guide/drum.md): every frame from t0 on gives the free surface's angle (the recipe of
validation/drum_angle.awk, run on the frame) and the grains' velocities, averaged in 2 mm cells
of the x-z plane. Prints the mean angle and its spread, and the bed's turn against the drum's:
the median of |v| / (omega r) over the cells of the bed against the drum's wall (within 4 mm
of it, below z = -20 mm): 1 where the grains there turn with the drum, below 1 where they slip
on it. Writes drum.png beside the frames.

    PYTHONPATH=build/python /usr/bin/python3 docs/guide/drum_analysis.py output/drum [t0] [rpm]
"""
import math
import os
import re
import subprocess
import sys

import numpy as np

from rubble import frames

HERE = os.path.dirname(os.path.abspath(__file__))
AWK = os.path.join(HERE, "..", "..", "validation", "drum_angle.awk")
CELL = 0.002


def series(folder):
    """(time, path) of every frame in grains.pvd."""
    with open(os.path.join(folder, "grains.pvd")) as f:
        found = re.findall(r'timestep="([^"]+)"[^>]*file="([^"]+)"', f.read())
    return [(float(t), os.path.join(folder, p)) for t, p in found]


def surface_angle(g):
    """Degrees: drum_angle.awk's fit of the free surface, on this frame's grains."""
    p, r = g.points, g.point_data["radius"]
    text = "".join("%.9g %.9g %.9g %.9g\n" % (x, y, z, s) for (x, y, z), s in zip(p, r))
    out = subprocess.run(["awk", "-f", AWK], input=text, capture_output=True, text=True,
                         check=True)
    return float(out.stdout.split()[0])


def main(folder="output/drum", t0=1.0, rpm=20.0):
    angles, sums, counts = [], {}, {}
    for t, path in series(folder):
        if t < t0 - 1e-9:
            continue
        g = frames.read(path)
        angles.append(surface_angle(g))
        v = g.point_data["velocity"]
        for (x, _, z), (vx, _, vz) in zip(g.points, v):
            key = (int(math.floor(x / CELL)), int(math.floor(z / CELL)))
            s = sums.setdefault(key, np.zeros(2))
            s += (vx, vz)
            counts[key] = counts.get(key, 0) + 1
    if not angles:
        raise SystemExit("no frame at t >= %g s in %s" % (t0, folder))
    angles = np.array(angles)
    keys = [k for k in sums if counts[k] >= len(angles)]  # cells the bed fills
    cx = np.array([(k[0] + 0.5) * CELL for k in keys])
    cz = np.array([(k[1] + 0.5) * CELL for k in keys])
    mean = np.array([sums[k] / counts[k] for k in keys])
    omega = rpm * 2 * math.pi / 60
    r = np.hypot(cx, cz)
    deep = (r >= 0.036) & (cz < -0.02)
    turn = np.hypot(mean[deep, 0], mean[deep, 1]) / (omega * r[deep])
    print("frames %d (t >= %g s): dynamic angle of repose %.1f deg, spread %.1f deg" %
          (len(angles), t0, angles.mean(), angles.std()))
    print("bed's turn: v / (omega r) = %.2f (spread %.2f) over %d cells against the wall" %
          (np.median(turn), turn.std(), int(deep.sum())))
    print("fastest cell: %.3f m/s at x = %.0f mm, z = %.0f mm" %
          (np.hypot(mean[:, 0], mean[:, 1]).max(),
           1e3 * cx[np.argmax(np.hypot(mean[:, 0], mean[:, 1]))],
           1e3 * cz[np.argmax(np.hypot(mean[:, 0], mean[:, 1]))]))
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(5, 5))
    speed = np.hypot(mean[:, 0], mean[:, 1])
    q = ax.quiver(cx * 1e3, cz * 1e3, mean[:, 0], mean[:, 1], speed, cmap="viridis")
    fig.colorbar(q, ax=ax, label="mean speed (m/s)", shrink=0.8)
    a = np.linspace(0, 2 * math.pi, 200)
    ax.plot(40 * np.cos(a), 40 * np.sin(a), "k-", lw=1)
    ax.set_aspect("equal")
    ax.set_xlabel("x (mm)")
    ax.set_ylabel("z (mm)")
    ax.set_title("Drum at %g rpm, t >= %g s: surface at %.1f deg" % (rpm, t0, angles.mean()))
    fig.tight_layout()
    fig.savefig(os.path.join(folder, "drum.png"), dpi=100)
    return angles.mean(), angles.std(), float(np.median(turn))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "output/drum",
         *(float(a) for a in sys.argv[2:4]))
