"""roofline.py -- the roofline of the soft-sphere step (issue 75) from bench/roofline.sh's
measurements: per state, size and phase (force pass, neighbour build, integrate = drift +
gather + kick), bytes and flops per particle-step counted from the data layout
(src/dem/dem_internal.h, pair_pass.c, integrator.c), bytes measured by cachegrind's cache
simulation (lines filled into the first level and from memory, times 64 B), the achieved
rate, and its fraction of the machine's limit (bench/stream.c's triad, STREAM's count).
Usage: roofline.py WORK SRC DOCS -> DOCS/roofline.csv, roofline-tables.md, roofline.png
       roofline.py --difference SRC SHORT.out LONG.out PARTICLE_STEPS (bench/cg_ab.sh)"""
import csv
import glob
import os
import re
import sys

LINE = 64
LL_BYTES = 32 << 20  # the last-level cache of this machine (lscpu: L3 32 MiB)

# The phases, as rubble's stage timers book them (src/dem/step.c), by the source file that
# defines each function; what lies elsewhere (thermo rows, health, libc) is "other".
PHASE_FILES = {
    "force": ["dem/pair_pass.c", "dem/contact_lanes.c", "dem/forces.c", "dem/wall_pass.c",
              "dem/mesh_contact.c", "dem/account.c"],
    "integrate": ["dem/integrator.c", "dem/bodies.c", "dem/flow.c"],
    "neighbour": ["dem/neighbor.c", "dem/history_carry.c", "dem/history.c", "dem/grains.c",
                  "dem/walls.c", "dem/wall_motion.c", "grid/*.c", "base/radix_sort.c"],
}
EVENTS = ["Ir", "Dr", "Dw", "D1mr", "D1mw", "DLmr", "DLmw"]


def functions_of(path):
    """Names of the functions defined in a C file (a name and '(' at the start of a line, after
    its return type and attributes, not ending in ';')."""
    names = set()
    text = re.sub(r"__attribute__\s*\(\(.*?\)\)", "", open(path).read())
    for line in text.splitlines():
        if not line or line[0] in " \t#/*}{" or line.rstrip().endswith(";"):
            continue
        if line.startswith(("typedef", "return", "struct", "enum")):
            continue
        m = re.match(r"^(?:[A-Za-z_][\w\s\*]*?[\s\*])?([A-Za-z_]\w*)\s*\(", line)
        if m:
            names.add(m.group(1))
    return names


def phase_map(src):
    m = {}
    for phase, pats in PHASE_FILES.items():
        for pat in pats:
            for path in glob.glob(os.path.join(src, pat)):
                for name in functions_of(path):
                    m[name] = phase
    return m


def cachegrind_functions(path):
    """Per function (its name without the compiler's suffixes), the sums of EVENTS."""
    sums = {}
    events, fn = None, None
    for line in open(path):
        if line.startswith("events:"):
            events = line.split()[1:]
            idx = [events.index(e) if e in events else len(events) for e in EVENTS]
        elif line.startswith("fn="):
            fn = line[3:].strip().split(".")[0]  # block_compute.arch_x86_64_v3, ._omp_fn.0
        elif line[:1].isdigit() and events:
            v = line.split()[1:]
            f = sums.setdefault(fn, dict.fromkeys(EVENTS, 0))
            for e, k in zip(EVENTS, idx):
                f[e] += int(v[k]) if k < len(v) else 0
    return sums


def cachegrind_phases(funcs, fmap):
    """Per phase, the sums of EVENTS over the functions."""
    sums = {p: dict.fromkeys(EVENTS, 0) for p in list(PHASE_FILES) + ["other"]}
    for fn, ev in funcs.items():
        ph = sums[fmap.get(fn, "other")]
        for e in EVENTS:
            ph[e] += ev[e]
    return sums


def counted(state, c, l):
    """Bytes and flops per particle-step counted from the layout, per phase (per build for the
    neighbour build): c touching pairs and l listed pairs per grain (half list), a Hookean law's
    6 doubles of history or Hertz-Mindlin's 7. Reads and writes named by the code, STREAM's
    count (no write-allocate)."""
    h = 8 * (7 if state == "hertz" else 6)
    few = 3 * c < l  # rbl_few_touch: slots of pairs that do not touch are not read
    # grains first in some listed pair, whose records some pair reads, in some touching pair
    # (all of them in a bed; in a gas few: the passes skip the others' arrays)
    first, read, touched = min(1.0, l), min(1.0, 2 * l), min(1.0, 2 * c)
    # force pass (pair_pass.c): per grain i_start (8); for those first in a pair the force
    # and torque zeroed and summed (48) and contacts (4); the packed record read (64); for
    # those touching the spin (24) and the losses read and written (48); per listed pair i, j,
    # image, touch (10) and, dense, jpos for the slot's prefetch (4); per touching pair the
    # history read and written (2h), the slot written (48), touch_j (1)
    force_b = (8 + first * 52 + read * 64 + touched * (24 + 48) + l * (10 + (0 if few else 4))
               + c * (2 * h + 48 + 1))
    # integrate (integrator.c, the gather inlined): i_start and j_start (16), wall start (8),
    # vel, omega, pos read and written (144), pos_build (24), inv_mass, inv_inertia, radius,
    # mass (32); for grains first in a pair force, torque (48) and contacts (4); the packed
    # record written (64) for those some pair reads; per slot its touch_j (1), and the slot's
    # 48 bytes for the touching ones (few) or all (dense)
    integ_b = (16 + 8 + 144 + 24 + 32 + first * 52 + read * 64 + l * 1
               + 48 * (c if few else l))
    # a build (neighbor.c, grains.c, history_carry.c): the grains reordered (each SoA array
    # read and written: id, material, 18 doubles of vectors, 4 scalars, losses, contacts: 212
    # bytes), binned and sorted (2 keys of 8 read and written: 32), the pair list written (i,
    # j, image, touch, jpos, touch_j: 15, history h, slot 48) and the history carried (read
    # and written, with its key: 2 (h + 8) per touching pair)
    build_b = 2 * 212 + 32 + l * (15 + h + 48) + 2 * c * (h + 8)
    # flops (contact_kernel.h, counted by hand, about +-20 %): the separation test 10 per listed
    # pair; rbl_pair_frame 47, the linear normal force 9, the tangential spring 94, dashpots
    # and losses 28, torques 15, the sums 9: about 200 per touching pair (Hertz-Mindlin about
    # 40 more: the contact radius, its stiffnesses from materials)
    force_f = 10 * l + (240 if state == "hertz" else 200) * c
    # the kicks and drift: about 42 per grain, gravity 6, the gather 6 per slot summed
    integ_f = 48 + 6 * (c if few else l)
    build_f = 10 * 3 * l  # the distance test over the stencil's candidates (about 3 per pair)
    return {"force": (force_b, force_f), "integrate": (integ_b, integ_f),
            "neighbour": (build_b, build_f)}


def limits_of(path):
    lim = {}
    for line in open(path):
        kind, size, threads, value = line.split()[:4]
        lim[(kind, int(size), int(threads))] = float(value)
    return lim


def main():
    work, src, docs = sys.argv[1:4]
    lim = limits_of(os.path.join(work, "limits.txt"))
    sizes = sorted({s for (k, s, t) in lim if k == "triad"})
    peak = lim[("fma_vector8", 0, 1)]
    fmap = phase_map(src)
    times = list(csv.DictReader(open(os.path.join(work, "times.csv"))))
    cg, per_fn = {}, {}
    for r in csv.DictReader(open(os.path.join(work, "cachegrind.csv"))):
        funcs = cachegrind_functions(os.path.join(work, r["file"]))
        key = (r["state"], int(r["n"]))
        cg.setdefault(key, []).append((int(r["steps"]), int(r["builds"]),
                                       cachegrind_phases(funcs, fmap)))
        per_fn.setdefault(key, []).append((int(r["steps"]), funcs))
    # the functions' part of a step: the difference of the two runs, per particle-step
    hot = {}
    for (state, n), runs in per_fn.items():
        runs.sort(key=lambda x: x[0])
        (s1, f1), (s2, f2) = runs[0], runs[-1]
        d = {fn: {e: (ev[e] - f1.get(fn, dict.fromkeys(EVENTS, 0))[e]) / (s2 - s1) / n
                  for e in EVENTS} for fn, ev in f2.items()}
        total = sum(v["Ir"] for v in d.values())
        hot[(state, n)] = sorted(((fn, fmap.get(fn, "other"), v) for fn, v in d.items()
                                  if v["Ir"] > 0.03 * total), key=lambda x: -x[2]["Ir"])
    rows = []
    for t in times:
        state, n, threads = t["state"], int(t["n"]), int(t["threads"])
        steps, builds = int(t["steps"]), int(t["builds"])
        c, l = float(t["contacts_per_grain"]), float(t["listed_per_grain"])
        cnt = counted(state, c, l)
        per_step_builds = builds / steps
        # the working set: grains' arrays, records, pair list and history
        h = 8 * (7 if state == "hertz" else 6)
        working = n * (212 + 64 + 64 + l * (15 + h + 48))
        level = "dram" if working > LL_BYTES else "l3"
        # two threads' limit is at least one's (the 2-thread figure is the more disturbed)
        limit = max(lim[("triad", sizes[-1] if level == "dram" else sizes[1], t)]
                    for t in range(1, threads + 1))
        meas = {}
        if (state, n) in cg and threads == 1:
            runs = sorted(cg[(state, n)])
            (s1, b1, e1), (s2, b2, e2) = runs[0], runs[-1]
            for ph in ["force", "integrate", "other"]:
                meas[ph] = {e: (e2[ph][e] - e1[ph][e]) / (s2 - s1) / n for e in EVENTS}
            # a build's cost: the neighbour functions over the longer run's builds (and the
            # setup's), amortised over the native run's steps between builds
            meas["neighbour"] = {e: e2["neighbour"][e] / (b2 + 1) / n * per_step_builds
                                 for e in EVENTS}
        # on one thread the stages' wall times scaled by the run's CPU time over its wall time
        # (the machine is shared: a run set aside by the others' programs waits, uncounted)
        cpu = float(t["cpu_share"]) if threads == 1 else 1.0
        secs = {"force": float(t["force_s"]) * cpu, "neighbour": float(t["neighbor_s"]) * cpu,
                "integrate": float(t["integrate_s"]) * cpu}
        total_s = sum(secs.values())
        for ph in ["force", "neighbour", "integrate", "step"]:
            if ph == "step":
                b = sum(cnt[p][0] * (per_step_builds if p == "neighbour" else 1) for p in cnt)
                f = sum(cnt[p][1] * (per_step_builds if p == "neighbour" else 1) for p in cnt)
                s = total_s
                m = {e: sum(meas[p][e] for p in meas) for e in EVENTS} if meas else None
            else:
                amort = per_step_builds if ph == "neighbour" else 1.0
                b, f = cnt[ph][0] * amort, cnt[ph][1] * amort
                s = secs[ph]
                m = meas.get(ph)
            if s <= 0.0 or b == 0.0:  # no build in the run: nothing to say of it
                continue
            rate = n * steps / s  # particle-steps/s of the phase
            row = {"state": state, "n": n, "threads": threads, "phase": ph,
                   "builds_per_1000_steps": round(1000 * per_step_builds, 2),
                   "contacts_per_grain": c, "listed_per_grain": l, "level": level,
                   "seconds": s, "psteps_per_s": rate,
                   "counted_bytes": b, "counted_flops": f,
                   "intensity": f / b if b else 0.0,
                   "counted_GBps": b * rate * 1e-9, "GFLOPps": f * rate * 1e-9,
                   "limit_GBps": limit,
                   "fraction_of_limit": b * rate * 1e-9 / limit}
            if m:
                row.update({"instructions": m["Ir"], "refs": m["Dr"] + m["Dw"],
                            "l1_fill_bytes": LINE * (m["D1mr"] + m["D1mw"]),
                            "memory_fill_bytes": LINE * (m["DLmr"] + m["DLmw"])})
                mb = row["memory_fill_bytes"] if level == "dram" else row["l1_fill_bytes"]
                row["measured_GBps"] = mb * rate * 1e-9
                row["measured_fraction"] = row["measured_GBps"] / limit
            rows.append(row)
    keys = list(rows[0].keys()) + [k for k in ["instructions", "refs", "l1_fill_bytes",
                                               "memory_fill_bytes", "measured_GBps",
                                               "measured_fraction"] if k not in rows[0]]
    with open(os.path.join(docs, "roofline.csv"), "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=keys)
        w.writeheader()
        for r in rows:
            w.writerow({k: (f"{v:.4g}" if isinstance(v, float) else v) for k, v in r.items()})
    write_tables(rows, hot, lim, sizes, peak, os.path.join(docs, "roofline-tables.md"))
    plot(rows, lim, sizes, peak, os.path.join(docs, "roofline.png"))


def fmt(v, d=3):
    return "-" if v is None else f"{v:.{d}g}"


def write_tables(rows, hot, lim, sizes, peak, path):
    out = ["<!-- made by bench/roofline.sh (bench/roofline.py): do not edit -->", "",
           "## The machine's limits (bench/stream.c, best of repeats, STREAM's count)", "",
           "| arrays | threads | read GB/s | copy GB/s | triad GB/s |", "|---|---|---|---|---|"]
    for s in sizes:
        for t in (1, 2):
            out.append(f"| 3 x {s >> 10} KiB | {t} | {lim[('read', s, t)]:.1f} | "
                       f"{lim[('copy', s, t)]:.1f} | {lim[('triad', s, t)]:.1f} |")
    out += ["", f"Peak of 8-wide FMAs on one core: {peak:.1f} GFLOP/s.", ""]
    out += ["## Per state and phase, one thread", "",
            "bytes and flops per particle-step (the neighbour build's amortised over the steps "
            "between builds); counted from the layout, and measured by cachegrind (lines filled "
            "into the first level, L1, and from memory, mem, times 64 B); the phase's rate in "
            "particle-steps/s; the counted bytes at that rate against the limit (triad in L3 "
            "for working sets under 32 MiB, else in memory).", "",
            "| state | n | phase | bytes | flops | flops/byte | L1 fill B | mem fill B | instr | "
            "rate /s | GB/s | limit | fraction |", "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        if r["threads"] != 1:
            continue
        out.append(f"| {r['state']} | {r['n']:.0e} | {r['phase']} | {r['counted_bytes']:.0f} | "
                   f"{r['counted_flops']:.0f} | {r['intensity']:.2f} | "
                   f"{fmt(r.get('l1_fill_bytes'))} | {fmt(r.get('memory_fill_bytes'))} | "
                   f"{fmt(r.get('instructions'))} | {r['psteps_per_s']:.3g} | "
                   f"{r['counted_GBps']:.2f} | {r['limit_GBps']:.0f} ({r['level']}) | "
                   f"{r['fraction_of_limit']:.2f} |")
    out += ["", "## The whole step on 1 and 2 threads", "",
            "| state | n | contacts/grain | listed/grain | builds/1000 steps | threads | rate /s | "
            "bytes | GB/s | fraction of limit | bound rate /s |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        if r["phase"] != "step":
            continue
        bound = r["limit_GBps"] * 1e9 / r["counted_bytes"]
        out.append(f"| {r['state']} | {r['n']:.0e} | {r['contacts_per_grain']} | "
                   f"{r['listed_per_grain']} | {r['builds_per_1000_steps']} | {r['threads']} | "
                   f"{r['psteps_per_s']:.3g} | {r['counted_bytes']:.0f} | "
                   f"{r['counted_GBps']:.2f} | {r['fraction_of_limit']:.2f} | {bound:.3g} |")
    out += ["", "## Where a step's instructions go (cachegrind, one thread)", "",
            "Functions with at least 3 % of a step's instructions (the difference of the two "
            "runs: no builds in it where the runs made the same number), per particle-step. "
            "block_flush fills the touching pairs' lanes and puts the results out, "
            "rbl_pair_pass is the filter loop over every listed pair, block_compute the "
            "contact law in SIMD lanes; rbl_integrate_first_half the gather, kicks and drift.",
            "", "| state | n | function | phase | instructions | L1 fill B | mem fill B |",
            "|---|---|---|---|---|---|---|"]
    for (state, n), fns in sorted(hot.items(), key=lambda x: (x[0][1], x[0][0])):
        for fn, ph, v in fns:
            out.append(f"| {state} | {n:.0e} | {fn} | {ph} | {v['Ir']:.0f} | "
                       f"{LINE * (v['D1mr'] + v['D1mw']):.0f} | "
                       f"{LINE * (v['DLmr'] + v['DLmw']):.1f} |")
    open(path, "w").write("\n".join(out) + "\n")


def plot(rows, lim, sizes, peak, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(8, 5.5))
    x = [10 ** (k / 20) for k in range(-60, 41)]
    for s, name, style in [(sizes[-1], "memory", "-"), (sizes[1], "L3", "--"),
                           (sizes[0], "L2", ":")]:
        bw = lim[("triad", s, 1)]
        ax.plot(x, [min(peak, bw * a) for a in x], "k" + style, lw=1,
                label=f"{name} triad {bw:.0f} GB/s, FMA peak {peak:.0f} GFLOP/s")
    marks = {"force": "o", "integrate": "s", "neighbour": "^"}
    states = sorted({r["state"] for r in rows})
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for r in rows:
        if r["threads"] != 1 or r["phase"] == "step" or r["counted_bytes"] == 0:
            continue
        col = colors[states.index(r["state"]) % len(colors)]
        ax.loglog(r["intensity"], r["GFLOPps"], marks[r["phase"]], color=col,
                  mfc=col if r["n"] >= 1e5 else "none", ms=7)
    for st in states:
        ax.plot([], [], "o", color=colors[states.index(st) % len(colors)], label=st)
    for ph, mk in marks.items():
        ax.plot([], [], mk, color="gray", mfc="none", label=f"{ph} (open 1e4, filled 1e5)")
    ax.set_xscale("log"), ax.set_yscale("log")
    ax.set_xlabel("arithmetic intensity, flops per byte (counted from the layout)")
    ax.set_ylabel("GFLOP/s achieved (one thread)")
    ax.set_title("rubble's soft-sphere step against this machine's roofline")
    ax.legend(fontsize=7, loc="lower right", ncol=2)
    ax.grid(True, which="both", lw=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def difference(src, short, long, particle_steps):
    """bench/cg_ab.sh: per phase and per neighbour-build function, the instructions of the
    longer cachegrind run less the shorter's, per particle-step of the difference."""
    fmap = phase_map(src)
    a, b = cachegrind_functions(short), cachegrind_functions(long)
    diff = {fn: b[fn]["Ir"] - a.get(fn, {"Ir": 0})["Ir"] for fn in b}
    phases = dict.fromkeys(list(PHASE_FILES) + ["other"], 0)
    for fn, ir in diff.items():
        phases[fmap.get(fn, "other")] += ir
    phases["step"] = sum(diff.values())
    for ph, ir in phases.items():
        print("%s,%.1f" % (ph, ir / particle_steps))
    for fn, ir in sorted(diff.items(), key=lambda kv: -kv[1]):
        if fmap.get(fn) == "neighbour" and ir > 0.2 * particle_steps:
            print("neighbour:%s,%.1f" % (fn, ir / particle_steps))


if __name__ == "__main__":
    if sys.argv[1] == "--difference":
        difference(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]))
    else:
        main()
