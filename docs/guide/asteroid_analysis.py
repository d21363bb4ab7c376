"""A rubble pile gathered by its own gravity (docs/guide/asteroid.md): from the run's last
frame, how many grains gathered into one body (those within twice the radius that holds half
of them, about the centre of mass), the body's radius (the sphere about the centre of mass
that holds 90 % of them) and its packing inside 7.5 m (the shells of the last frame,
output.shells, out to the last shell boundary within that radius); thermo.csv's grains lost (escaped). Writes asteroid.png beside the frames:
the body seen from the side, and its packing per shell at the start and at the end.

    PYTHONPATH=build/python /usr/bin/python3 docs/guide/asteroid_analysis.py output/asteroid
"""
import glob
import os
import sys

import numpy as np

from rubble import frames


def shells(path):
    t = np.genfromtxt(path, delimiter=",", skip_header=1, names=True)
    return t


def main(folder="output/asteroid", inner=7.5):
    last = sorted(glob.glob(os.path.join(folder, "grains_*.vtp")))[-1]
    g = frames.read(last)
    p, r = g.points, g.point_data["radius"]
    m = r ** 3
    com = (p * m[:, None]).sum(0) / m.sum()
    d = np.linalg.norm(p - com, axis=1)
    half = np.percentile(d, 50)
    body = d <= 2 * half
    r90 = np.percentile(d[body], 90)
    sh = shells(sorted(glob.glob(os.path.join(folder, "shells_*.csv")))[-1])
    first = shells(sorted(glob.glob(os.path.join(folder, "shells_*.csv")))[0])
    vol = sh["r_out"] ** 3 - sh["r_in"] ** 3
    keep = sh["r_out"] <= inner + 1e-9
    packing = (sh["packing"][keep] * vol[keep]).sum() / vol[keep].sum()
    with open(os.path.join(folder, "thermo.csv")) as f:
        names = f.readline().strip().split(",")
        row = f.readlines()[-1].split(",")
    lost = int(float(row[names.index("lost")]))
    print("grains %d, in the body %d, escaped %d" % (len(r), int(body.sum()), lost))
    print("body radius (90 %% of its grains) %.2f m; packing inside %g m %.3f" %
          (r90, sh["r_out"][keep].max(), packing))
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (a, b) = plt.subplots(1, 2, figsize=(9, 4))
    order = np.argsort(p[:, 1])
    a.scatter(p[order, 0] - com[0], p[order, 2] - com[2], s=6, c=p[order, 1] - com[1],
              cmap="viridis")
    a.set_aspect("equal")
    a.set_xlim(-3 * r90, 3 * r90)
    a.set_ylim(-3 * r90, 3 * r90)
    a.set_xlabel("x (m)")
    a.set_ylabel("z (m)")
    a.set_title("the pile at the end, seen along y")
    mid = 0.5 * (sh["r_in"] + sh["r_out"])
    b.step(mid, first["packing"], where="mid", label="start")
    b.step(mid, sh["packing"], where="mid", label="end")
    b.set_xlabel("distance from the centre of mass (m)")
    b.set_ylabel("packing fraction of the shell")
    b.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(folder, "asteroid.png"), dpi=100)
    return len(r), int(body.sum()), lost, r90, packing


if __name__ == "__main__":
    main(*sys.argv[1:2])
