"""A frame's grains drawn from the side (x-z, seen along y) with matplotlib, each a disc of its
own radius coloured by its height (or speed), the nearest in front: a quick look without
ParaView (docs/guide/).

    PYTHONPATH=build/python /usr/bin/python3 docs/guide/picture.py FRAME.vtp OUT.png [speed]
"""
import sys

import numpy as np

from rubble import frames


def main(frame, out, colour="height", title=None):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.collections import PatchCollection
    from matplotlib.patches import Circle
    g = frames.read(frame)
    p, r = g.points, g.point_data["radius"]
    value = (np.linalg.norm(g.point_data["velocity"], axis=1) if colour == "speed"
             else p[:, 2])
    order = np.argsort(-p[:, 1])  # the farthest first, the nearest drawn over them
    discs = PatchCollection([Circle((p[i, 0], p[i, 2]), r[i]) for i in order], cmap="viridis",
                            edgecolor="k", linewidth=0.2)
    discs.set_array(value[order])
    fig, ax = plt.subplots(figsize=(5, 4))
    ax.add_collection(discs)
    pad = r.max()
    ax.set_xlim(p[:, 0].min() - pad, p[:, 0].max() + pad)
    ax.set_ylim(p[:, 2].min() - pad, p[:, 2].max() + pad)
    ax.set_aspect("equal")
    ax.set_xlabel("x (m)")
    ax.set_ylabel("z (m)")
    fig.colorbar(discs, ax=ax, label="speed (m/s)" if colour == "speed" else "z (m)", shrink=0.8)
    ax.set_title(title or frame.split("/")[-1])
    fig.tight_layout()
    fig.savefig(out, dpi=100)


if __name__ == "__main__":
    main(*sys.argv[1:4])
