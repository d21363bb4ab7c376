"""check71: rubble's spin history (twist_spin.yaml's thermo.csv, omega_z = L_z / I) against
LAMMPS's (twist_spin.lmp's print file), and both against the slip phase's closed form."""
import csv, math, sys
R, RHO, G, KN, MU = 1e-3, 2500.0, 9.81, 2000.0, 0.5
m = RHO * 4 / 3 * math.pi * R**3
I = 0.4 * m * R * R
a = math.sqrt(R * m * G / KN)
alpha = 2 / 3 * a * MU * m * G / I
rub = {round(float(r['time']), 6): float(r['angular_momentum_z']) / I
       for r in csv.DictReader(open(sys.argv[1]))}
lmp = {}
for line in open(sys.argv[2]):
    if line.startswith('#'):
        continue
    t, w = map(float, line.split())
    lmp[round(t, 6)] = w
common = sorted(set(rub) & set(lmp))
worst = max(abs(rub[t] - lmp[t]) for t in common)
print(f"{len(common)} common times; max |w_rubble - w_lammps| = {worst:.3g} rad/s (w0 = 5)")
for t in common[::30]:
    print(f"t={t:.3f} rubble {rub[t]: .9f} lammps {lmp[t]: .9f}  slip closed form {5 - alpha * t: .9f}")
# slip deceleration from the two between 0.01 and 0.05 s
for name, d in (("rubble", rub), ("lammps", lmp)):
    print(name, "deceleration", (d[0.01] - d[0.05]) / 0.04, "closed form", alpha)
