"""Coarse-graining's cost (issue 43): one sample of a frame of N grains pressed together in a
periodic box (a jittered cubic lattice 1 mm apart, radii 0.50 to 0.52 mm: about 2.5
contacts per grain), Lucy kernel of radius 2 mm, grids with the nodes c and c/2 apart, on 1
and 2 threads. Prints grains, contacts, nodes, seconds per sample and the grain-samples per
second; writes docs/bench/cg.csv.

    PYTHONPATH=build/python /usr/bin/python3 bench/cg.py [N]
"""
import os
import resource
import sys
import tempfile
import time

import numpy as np

import rubble

n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000000
side = round(n ** (1 / 3))
box = side * 0.001
SCENE = f"""\
domain: {{min: [0, 0, 0], max: [{box}, {box}, {box}], periodic: [x, y, z]}}
materials: [{{name: glass, density: 2500}}]
contact: {{normal: linear, tangential: spring, kn: 2000, restitution: 0.5, friction: 0.5}}
grains: []
run: {{steps: 1, dt: 2.0e-6}}
health: {{check: false}}
"""
rows = []
work = tempfile.mkdtemp()
for threads in (1, 2):
    run = rubble.Run.from_yaml(SCENE, name=os.path.join(work, "cg.yaml"),
                               output=os.path.join(work, "out"), threads=threads)
    k = (np.arange(side) + 0.5) * 0.001
    x, y, z = np.meshgrid(k, k, k, indexing="ij")
    rng = np.random.default_rng(1)
    pos = np.column_stack([x.ravel(), y.ravel(), z.ravel()])
    run.add_grains(pos + rng.uniform(-2e-5, 2e-5, pos.shape), rng.uniform(5e-4, 5.2e-4, len(pos)))
    run.step(1)  # the contacts' forces
    contacts = len(run.contacts().ids)
    for per in (1, 2):  # nodes c / per apart
        cells = int(round(box / (0.002 / per)))
        cg = rubble.CoarseGrain((0, 0, 0), (box, box, box), (cells,) * 3, 0.002)
        best = float("inf")
        for _ in range(3):
            cg.clear()
            t = time.perf_counter()
            cg.add(run)
            best = min(best, time.perf_counter() - t)
        rows.append((len(pos), contacts, cells**3, threads, best))
        print(f"grains {len(pos)}  contacts {contacts}  nodes {cells}^3  threads {threads}:  "
              f"{best:.2f} s per sample, {len(pos) / best:.3g} grain-samples/s", flush=True)
    run.close()
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"peak memory {peak:.0f} MiB")
os.makedirs("docs/bench", exist_ok=True)
with open("docs/bench/cg.csv", "w") as f:
    f.write("grains,contacts,nodes,threads,seconds_per_sample\n")
    for r in rows:
        f.write(",".join(str(v) for v in r[:4]) + f",{r[4]:.3f}\n")
