"""A rotating drum's dynamic angle of repose and velocity field from its output
(docs/guide/drum.md): every frame from t0 on gives the free surface's angle (the recipe of
validation/drum_angle.awk, run on the frame); the velocity field is the scene's own
coarse-graining (output.cg: cylindrical about the drum's axis y, averaged along it, docs/cg.md),
its outputs from t0 on averaged as momentum over density. Prints the mean angle and its spread,
and the bed's turn against the drum's: the median of v_theta / (omega r) over the nodes of the
bed next to the drum's wall (the nodes 1 mm from it, below z = -20 mm): 1 where the grains there
turn with the drum, below 1 where they slip on it. Writes drum.png beside the frames.

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


def velocity_field(folder, t0):
    """The coarse-grained velocity from t0 on, on the (r, theta) nodes: r, theta (each node's),
    the mean density (kg/m^3) and the mean velocity (m/s) as (v_r, v_theta), the momentum's
    mean over the density's; and the number of outputs averaged."""
    rho_sum, p_sum, n = 0.0, 0.0, 0
    for t, path in frames.read_pvd(os.path.join(folder, "cg.pvd")):
        if t < t0 - 1e-9:
            continue
        f = frames.read_vti(path)
        rho_sum = rho_sum + f.density[0]
        p_sum = p_sum + f.density[0][..., None] * f.velocity[0][..., :2]
        n += 1
    if not n:
        raise SystemExit("no coarse-grained output at t >= %g s in %s" % (t0, folder))
    rho = rho_sum / n
    with np.errstate(invalid="ignore", divide="ignore"):
        v = np.where(rho[..., None] > 0, p_sum / n / rho[..., None], 0.0)
    r = f.origin[0] + f.spacing[0] * np.arange(f.cells[0])
    theta = f.origin[1] + f.spacing[1] * np.arange(f.cells[1])
    return np.meshgrid(r, theta), rho, v, n


def main(folder="output/drum", t0=1.0, rpm=20.0):
    angles = []
    for t, path in series(folder):
        if t >= t0 - 1e-9:
            angles.append(surface_angle(frames.read(path)))
    if not angles:
        raise SystemExit("no frame at t >= %g s in %s" % (t0, folder))
    angles = np.array(angles)
    (r, theta), rho, v, n_cg = velocity_field(folder, t0)
    # theta is measured about y from z towards x: x = r sin(theta), z = r cos(theta)
    x, z = r * np.sin(theta), r * np.cos(theta)
    vx = v[..., 0] * np.sin(theta) + v[..., 1] * np.cos(theta)
    vz = v[..., 0] * np.cos(theta) - v[..., 1] * np.sin(theta)
    bed = rho > 0.3 * rho.max()  # the nodes the bed fills (half a packing's density and more)
    omega = rpm * 2 * math.pi / 60
    deep = bed & (r >= 0.039) & (z < -0.02)
    turn = v[deep, 1] / (omega * r[deep])
    speed = np.hypot(vx, vz)
    fast = np.unravel_index(np.argmax(np.where(bed, speed, 0.0)), speed.shape)
    print("frames %d (t >= %g s): dynamic angle of repose %.1f deg, spread %.1f deg" %
          (len(angles), t0, angles.mean(), angles.std()))
    print("bed's turn: v_theta / (omega r) = %.2f (spread %.2f) over %d nodes against the wall"
          % (np.median(turn), turn.std(), int(deep.sum())))
    print("fastest node: %.3f m/s at x = %.0f mm, z = %.0f mm (%d coarse-grained outputs)" %
          (speed[fast], 1e3 * x[fast], 1e3 * z[fast], n_cg))
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(5.5, 5))
    shown = np.ma.masked_where(~bed, speed)
    m = ax.pcolormesh(x * 1e3, z * 1e3, shown, shading="gouraud", cmap="viridis")
    fig.colorbar(m, ax=ax, label="mean speed (m/s)", shrink=0.8)
    every = (slice(None, None, 8), slice(None, None, 4))  # (theta, r): about 3.5 mm apart
    b = bed[every]
    ax.quiver(x[every][b] * 1e3, z[every][b] * 1e3, vx[every][b], vz[every][b], color="w",
              scale=0.6, width=0.004)
    a = np.linspace(0, 2 * math.pi, 200)
    ax.plot(40 * np.cos(a), 40 * np.sin(a), "k-", lw=1)
    ax.set_aspect("equal")
    ax.set_xlabel("x (mm)")
    ax.set_ylabel("z (mm)")
    ax.set_title("Drum at %g rpm, t >= %g s: surface at %.1f deg\n(output.cg, cylindrical "
                 "about y, averaged along it)" % (rpm, t0, angles.mean()), fontsize=10)
    fig.tight_layout()
    fig.savefig(os.path.join(folder, "drum.png"), dpi=100)
    return angles.mean(), angles.std(), float(np.median(turn))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "output/drum",
         *(float(a) for a in sys.argv[2:4]))
