#!/bin/sh
# docs/bench/dem.md from docs/bench/dem.csv (bench/dem.sh).
#   bench/dem_tables.sh CSV "the command that made it"
CSV=$1
COMMAND=$2
cat <<HEAD
# Soft-sphere benchmark: rubble, LIGGGHTS, LAMMPS on the states of a granular system

Made by \`make bench\` (\`bench/dem.sh\`) on $(date -u +%Y-%m-%d), $(nproc) cores
($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')). Each state is made once by
rubble at 10⁴ grains in a box periodic in x and y and tiled side by side to 10⁵ and 10⁶ grains;
all three programs then start from the same file of grains with the same law, the same dt
(2.5e-6 s), skin (0.1 mm) and step count (5·10⁷ particle-steps a run: 5000 steps at 10⁴,
50 at 10⁶). The states (bench/dem_states.sh):

- **collapse**: a loose lattice (spacing 1.02 d) with random velocities, just released onto the
  floor: most listed pairs do not touch (the first steps of a pour);
- **settle**: the same after 0.1 s, a bed at rest;
- **flow**: the settled bed on a chute, gravity tilted 35°, after 0.05 s of flow;
- **gas**: 5 % solid fraction, 0.5 m/s, no gravity;
- **poly3**: a settled bed of radii uniform in 0.5–1.5 mm;
- **poly10**: a settled bed of 9,900 grains of 0.5 mm and 100 of 5 mm (LAMMPS bins it with
  \`neighbor multi\` and size collections, as it is meant to be run);
- **hertz**: the settled bed under Hertz–Mindlin from materials (E = 50 MPa, ν = 0.3, e = 0.5,
  μ = 0.5): LIGGGHTS \`hertz\`, LAMMPS \`granular hertz/material\` with \`damping tsuji\` and
  \`tangential mindlin\`.

The others use the Hookean spring-dashpot with tangential history (k_n = 2000 N/m,
k_t = 2/7 k_n, γ_n = 0.01 N s/m, γ_t = 0.005 N s/m, μ = 0.5): rubble \`linear\`, LIGGGHTS
\`hooke/stiffness\` with \`absolute_damping on\`, LAMMPS \`gran/hooke/history\` (its fastest
granular style; its damping is per unit effective mass, set for two 1 mm beads, so in the
polydisperse beds its damping differs from the other two's). Time: the stepping loop only
(LAMMPS/LIGGGHTS "Loop time"; rubble's force + neighbour + integrate stages), median of
interleaved repeats. Each program's setup (the first neighbour build and force evaluation,
before the first step) is outside that time: LAMMPS and LIGGGHTS report it apart from their
loop time, and since 2026-11-24 rubble does too (its report's "setup" line; before, rubble's
stages included it, which at 10⁶ grains and 50 steps was up to a fifth of its time).
2 cores are 2 MPI ranks for the peers and 2 OpenMP threads for rubble.
Rates are particle-steps per second **per core**; contacts and listed pairs per grain are
rubble's at the end of its run. Peak memory: largest process RSS. Load average when the
table was written (1, 5, 15 min): $(cut -d' ' -f1-3 /proc/loadavg)${RBL_BENCH_CONDITIONS:+; $RBL_BENCH_CONDITIONS}.

*Cores apart*: on 2 cores, the time to hand a cache line from core 0 to core 1 measured right
before each of rubble's runs (\`bench/core_latency.c\`, median). The host of these virtual
machines keeps their two cores near each other (about 35 ns) for minutes, then apart (about
170 ns) for minutes; threads that share grains are slowed by the second more than ranks that
exchange messages (docs/dem.md, issue 16), so read a 2-core row with its latency.

| state | N | contacts / grain | listed / grain | cores | cores apart | rubble | LIGGGHTS | LAMMPS | rubble / faster peer |
|---|---|---|---|---|---|---|---|---|---|
HEAD
awk -F, 'NR > 1 { key = $1 "," $2 "," $4; rate[key "," $3] = $8; mem[key "," $3] = $9; cpg[key] = $10; lpg[key] = $11;
                  if ($3 == "rubble") lat[key] = $12 == "" ? "–" : $12 " ns";
                  if (!(key in seen)) { seen[key] = 1; order[++k] = key } }
    END { for (i = 1; i <= k; i++) { split(order[i], f, ",");
            r = rate[order[i] ",rubble"]; g = rate[order[i] ",liggghts"]; l = rate[order[i] ",lammps"];
            best = g > l ? g : l;
            printf "| %s | %d | %s | %s | %d | %s | %.3g/s (%.0f MiB) | %.3g/s (%.0f MiB) | %.3g/s (%.0f MiB) | %s%.2f%s |\n",
                f[1], f[2], cpg[order[i]], lpg[order[i]], f[3], lat[order[i]], r, mem[order[i] ",rubble"], g,
                mem[order[i] ",liggghts"], l, mem[order[i] ",lammps"], r < best ? "**" : "", r / best,
                r < best ? "**" : "" } }' "$CSV"
echo
awk -F, 'NR > 1 { key = $1 "," $2 "," $4; rate[key "," $3] = $8; cores[key] = $4;
                  if (!(key in seen)) { seen[key] = 1; order[++k] = key } }
    END { for (i = 1; i <= k; i++) { o = order[i]; g = rate[o ",liggghts"]; l = rate[o ",lammps"];
            x = rate[o ",rubble"] / (g > l ? g : l); c = cores[o];
            s[c] += log(x); n[c]++; all += log(x); m++; if (x < worst || worst == "") worst = x }
          for (c in n) printf "Geometric mean of rubble / faster peer on %d core%s: **%.2f** (%d rows).\n", c, (c > 1 ? "s" : ""), exp(s[c] / n[c]), n[c];
          printf "Over the whole matrix: **%.2f**; the lowest row: %.2f.\n", exp(all / m), worst }' "$CSV"
cat <<TAIL

![rubble / faster peer](dem-speed.png)

The target of issue 16: on every row at least as fast per core as the faster of LIGGGHTS and
LAMMPS (ratio ≥ 1, rows below it in bold), over the matrix at least 1.5 (geometric mean), the
goal beyond it 2.

Command: \`$COMMAND\`
TAIL
