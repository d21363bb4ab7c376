# The cantilever of validation/bonds_beam.py in Yade (docs/validation/bonds.md): the same
# spheres, clamp, load, dt and release, the bond as CohFrictMat's cohesive contact
# (Law2_ScGeom6D_CohFrictPhys_CohesionMoment, incremental moments). Parameters mapped from the
# parallel bond (docs/bonds.md): Yade's k_n = E_y R for equal spheres, so E_y = pi E_b / 2
# (k_n A); k_s = poisson k_n, so poisson = 1 / kappa; k_r = alphaKr k_s R^2 = k_n I, so
# alphaKr = kappa / 4; k_tw = alphaKtw k_s R^2 = k_s J, so alphaKtw = 1/2. Static tip by
# Yade's local damping (0.6), then released undamped. Run: yade -j1 -n -x bonds_beam_yade.py
# N E_BOND KAPPA OUT_PREFIX (the folder of this file on sys.path for bonds_closed_forms).
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(sys.argv[0])))
from bonds_closed_forms import beam_constants, frequency_from_trace  # noqa: E402
import numpy as np  # noqa: E402

from yade import O, utils  # noqa: E402
from yade.wrapper import *  # noqa: E402,F401,F403

N, E, KAPPA, OUT = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
c = beam_constants(N, E)
R = c["R"]
mat = O.materials.append(CohFrictMat(
    young=math.pi * E / 2.0, poisson=1.0 / KAPPA, density=c["rho"], frictionAngle=0.0,
    isCohesive=True, momentRotationLaw=True, alphaKr=KAPPA / 4.0, alphaKtw=0.5,
    normalCohesion=1e15, shearCohesion=1e15, etaRoll=-1, etaTwist=-1))
ids = [O.bodies.append(utils.sphere((2 * R * k, 0, 0), R, material=mat, fixed=False))
       for k in range(N + 1)]
O.bodies[ids[0]].state.blockedDOFs = "xyzXYZ"
tip = ids[-1]
newton = NewtonIntegrator(damping=0.6, gravity=(0, 0, 0))
O.engines = [
    ForceResetter(),
    InsertionSortCollider([Bo1_Sphere_Aabb(aabbEnlargeFactor=1.01)]),
    InteractionLoop([Ig2_Sphere_Sphere_ScGeom6D(interactionDetectionFactor=1.01)],
                    [Ip2_CohFrictMat_CohFrictMat_CohFrictPhys(setCohesionNow=True)],
                    [Law2_ScGeom6D_CohFrictPhys_CohesionMoment(useIncrementalForm=True)]),
    newton,
]
O.dt = c["dt"]
O.forces.setPermF(tip, (0, c["F"], 0))
O.run(1, True)
bonds = sum(1 for i in O.interactions if i.isReal)
assert bonds == N, "a bond per neighbour pair, found %d" % bonds
y_was, steps = 1.0, 0
while True:
    O.run(5000, True)
    steps += 5000
    y = O.bodies[tip].state.pos[1]
    if abs(y - y_was) < 2e-6 * abs(y) or steps > 2000000:
        break
    y_was = y
static = y
O.forces.setPermF(tip, (0, 0, 0))
newton.damping = 0.0
for b in O.bodies:
    b.state.vel = (0, 0, 0)
    b.state.angVel = (0, 0, 0)
trace, start = [], O.iter


def record():
    trace.append(((O.iter - start) * O.dt, O.bodies[tip].state.pos[1]))


O.engines = O.engines + [PyRunner(iterPeriod=10, command="record()")]
record()
O.run(int(6.0 * c["period_tip_mass"] / O.dt), True)
trace = np.array(trace)
np.savetxt(OUT + "-trace.csv", trace, delimiter=",", header="t,y", comments="", fmt="%.9e")
print(json.dumps({"program": "yade", "N": N, "tip": static, "static_steps": steps,
                  "frequency": frequency_from_trace(trace)}))
sys.stdout.flush()
os._exit(0)
