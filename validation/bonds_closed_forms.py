"""Closed forms for the bonded-sphere cantilever of validation/bonds.sh (docs/validation/
bonds.md): Euler-Bernoulli's tip deflection F L^3 / 3EI and first bending frequency, bare and
with the half grain of mass the chain carries beyond L (a tip mass m/2: each grain stands for
2R of beam, the last one for [L - R, L + R]); and the frequency read off a tip trace. SI units."""
import math

import numpy as np

R, RHO = 1e-3, 2500.0


def beam_constants(n, E):
    """the beam of n bonds of E_bond: EI = E pi R^4 / 4 (the bending spring k_n I over a bond
    length 2R), mu = m / 2R, the tip force for a deflection of L / 100, a step dt well inside
    the bonds' limit (0.2 sqrt(m*/k))"""
    m = RHO * 4.0 / 3.0 * math.pi * R ** 3
    L, EI, mu = 2.0 * R * n, E * math.pi * R ** 4 / 4.0, m / (2.0 * R)
    F = 3.0 * EI * 0.01 * L / L ** 3
    kn_area = E / (2.0 * R) * math.pi * R * R
    dt = 0.1 * math.sqrt(0.5 * m / kn_area)
    lam0 = eb_root(0.0)
    lam1 = eb_root(0.5 * m / (mu * L))
    w = lambda lam: lam * lam * math.sqrt(EI / (mu * L ** 4))
    return {"R": R, "rho": RHO, "m": m, "L": L, "EI": EI, "mu": mu, "F": F, "dt": dt,
            "tip_eb": F * L ** 3 / (3.0 * EI), "f_eb": w(lam0) / (2 * math.pi),
            "f_eb_tip_mass": w(lam1) / (2 * math.pi), "period_tip_mass": 2 * math.pi / w(lam1)}


def eb_root(alpha):
    """the first root lambda of 1 + cos l cosh l + alpha l (cos l sinh l - sin l cosh l) = 0
    (a cantilever with a tip mass alpha mu L; alpha = 0: 1.8751), by bisection"""
    f = lambda l: 1 + math.cos(l) * math.cosh(l) + alpha * l * (
        math.cos(l) * math.sinh(l) - math.sin(l) * math.cosh(l))
    a, b = 0.5, 1.8751041
    if f(b) > 0:
        b = 1.8751041 + 1e-9
    for _ in range(200):
        mid = 0.5 * (a + b)
        a, b = (mid, b) if f(mid) > 0 else (a, mid)
    return 0.5 * (a + b)


def frequency_from_trace(trace):
    """the first mode's frequency from a tip trace (t, y) oscillating about 0: the mean
    spacing of its upward zero crossings (linearly interpolated), over every whole period"""
    t, y = trace[:, 0], trace[:, 1]
    up = np.nonzero((y[:-1] < 0) & (y[1:] >= 0))[0]
    tc = t[up] - y[up] * (t[up + 1] - t[up]) / (y[up + 1] - y[up])
    if len(tc) < 2:
        return float("nan")
    return (len(tc) - 1) / (tc[-1] - tc[0])
