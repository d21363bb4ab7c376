"""The contact network of a settled bed: coordination number and fabric tensor.

Runs examples/settle.yaml for a while, then reads the contacts (run.contacts(): every touching
pair and grain-wall contact, ordered by ids) and computes the mean coordination number and the
fabric tensor F = <n n> over the grain contacts, against what the frames hold (each grain's
`contacts`, grain and wall contacts together, as ParaView shows them). A bed settled under
gravity has more vertical contacts than horizontal: F_zz above 1/3. Writes fabric.csv and a
rose of the contact normals' inclinations, fabric.png.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/contact_network.py [folder]
"""
import os
import sys

import numpy as np

import rubble

HERE = os.path.dirname(os.path.abspath(__file__))


def network(run):
    c, g = run.contacts(), run.grains()
    n_grains = g.id.size
    # per grain: its grain contacts (both ends) and its wall contacts
    index = {int(i): k for k, i in enumerate(g.id)}
    count = np.zeros(n_grains, dtype=int)
    for col in (0, 1):
        np.add.at(count, [index[int(i)] for i in c.ids[:, col]], 1)
    np.add.at(count, [index[int(i)] for i in c.wall_grain], 1)
    fabric = np.einsum("ki,kj->ij", c.normal, c.normal) / len(c.normal)
    return {"grains": n_grains, "contacts": len(c.ids), "wall_contacts": len(c.wall_grain),
            "z": 2.0 * len(c.ids) / n_grains, "count": count, "frames_count": g.contacts.copy(),
            "fabric": fabric, "normals": c.normal}


def main(folder="output/contact_network", steps=20000):
    os.makedirs(folder, exist_ok=True)
    run = rubble.Run(os.path.join(HERE, "..", "settle.yaml"), output=folder, steps=steps)
    run.step(steps)
    run.write_frame()
    net = network(run)
    run.close()
    same = bool(np.array_equal(net["count"], net["frames_count"]))
    F = net["fabric"]
    print("%d grains, %d grain contacts, %d wall contacts: coordination number %.3f (grain "
          "contacts); each grain's count the same as the frame's: %s"
          % (net["grains"], net["contacts"], net["wall_contacts"], net["z"], same))
    print("fabric tensor <n n>:\n%s\ntrace %.6f, F_zz %.3f" % (np.array2string(F, precision=4),
                                                            np.trace(F), F[2, 2]))
    with open(os.path.join(folder, "fabric.csv"), "w") as f:
        f.write("component,value\n")
        for a, name in enumerate("xyz"):
            for b, other in enumerate("xyz"):
                f.write("F_%s%s,%.6f\n" % (name, other, F[a, b]))
        f.write("coordination,%.6f\n" % net["z"])
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    inclination = np.degrees(np.arccos(np.abs(net["normals"][:, 2])))
    fig, ax = plt.subplots(figsize=(5, 3.5))
    ax.hist(inclination, bins=18, range=(0, 90))
    ax.set_xlabel("contact normal from vertical (degrees)")
    ax.set_ylabel("contacts")
    ax.set_title("settle.yaml: Z = %.2f, F_zz = %.2f" % (net["z"], F[2, 2]))
    fig.tight_layout()
    fig.savefig(os.path.join(folder, "fabric.png"), dpi=100)
    return net, same


if __name__ == "__main__":
    main(*sys.argv[1:2])
