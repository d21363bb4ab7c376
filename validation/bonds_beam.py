"""The cantilever of bonded spheres (issue 72, docs/validation/bonds.md) run by rubble: N + 1
spheres of radius R along x, the first held (a material 1e12 times denser), the last pushed
along y by F. The static tip deflection (relaxed by kinetic damping) and, released from it with
no damping, the first bending frequency; written as key=value lines and the tip's trace
(t, y) CSV. SI units. Usage: bonds_beam.py N E_BOND KAPPA OUT_PREFIX"""
import json
import sys

import numpy as np
import rubble

from bonds_closed_forms import beam_constants, frequency_from_trace

N, E, KAPPA, OUT = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
c = beam_constants(N, E)
R, RHO, DT = c["R"], c["rho"], c["dt"]
scene = {
    "domain": {"min": [-0.01, -0.02, -0.02], "max": [2 * R * N + 0.01, 0.02, 0.02]},
    "materials": [{"name": "rock", "density": RHO}, {"name": "clamp", "density": RHO * 1e12}],
    # the contact law never acts: touching grains along a line, a transverse load (no axial
    # compression to first order)
    "contact": {"normal": "linear", "kn": 1000.0, "gamma_n": 0.0, "tangential": "none"},
    "grains": [
        {"lattice": {"min": [-R, -R, -R], "max": [R, R, R], "count": 1}, "radius": R,
         "material": "clamp"},
        {"lattice": {"min": [R, -R, -R], "max": [2 * R * N + R, R, R], "spacing": 2 * R,
                     "count": N}, "radius": R, "material": "rock"}],
    "bonds": {"youngs_modulus": E, "stiffness_ratio": KAPPA, "gap": 1e-9},
    "run": {"steps": 1, "dt": DT},
}
run = rubble.Run(scene, output=OUT + "-out")
assert len(run.bonds().intact) == N, "a bond per neighbour pair"
tip_id = int(run.grains().id.max())


def tip(run, force):
    """the tip's row, with the external force set on it alone (the rows move at builds)"""
    g = run.grains()
    k = int(np.nonzero(g.id == tip_id)[0][0])
    f = run.external_forces()
    f[:] = 0.0
    f[k, 1] = force
    return g, k


# static: kinetic damping (every velocity zeroed whenever the kinetic energy falls)
last, y_was, y = 0.0, 1.0, 0.0
for chunk in range(400000):
    g, k = tip(run, c["F"])
    ke = float(np.sum(g.mass[:, None] * g.velocity ** 2))
    if ke < last:
        g.velocity[:] = 0.0
        g.spin[:] = 0.0
        ke = 0.0
    last = ke
    if chunk % 500 == 499:
        y = float(g.position[k, 1])
        if abs(y - y_was) < 1e-8 * abs(y):
            break
        y_was = y
    run.step(5)
static_steps = chunk * 5

# free vibration: the force off, released at rest from the static shape, no damping
g, k = tip(run, 0.0)
g.velocity[:] = 0.0
g.spin[:] = 0.0
every, trace = 10, []
steps = int(6.0 * c["period_tip_mass"] / DT)
for s in range(0, steps, every):
    g, k = tip(run, 0.0)
    trace.append((s * DT, float(g.position[k, 1])))
    run.step(every)
trace = np.array(trace)
np.savetxt(OUT + "-trace.csv", trace, delimiter=",", header="t,y", comments="", fmt="%.9e")
f1 = frequency_from_trace(trace)
print(json.dumps({"program": "rubble", "N": N, "tip": y, "static_steps": static_steps,
                  "frequency": f1}))
