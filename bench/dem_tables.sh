#!/bin/sh
# docs/bench/dem.md from docs/bench/dem.csv (bench/dem.sh).
CSV=$1
cat <<HEAD
# Soft-sphere benchmark: rubble, LIGGGHTS, LAMMPS

Made by \`make bench\` (\`bench/dem.sh\`) on $(date -u +%Y-%m-%d), $(nproc) cores
($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')). Same initial state (a
file of grains that rubble settled or scattered), same law (Hookean spring-dashpot,
k_n = 2000 N/m, k_t = 2/7 k_n, gamma_n = 0.01 N s/m, gamma_t = 0.005 N s/m, mu = 0.5, absolute
damping), same dt (2.5e-6 s), same skin (0.1 mm), beads of d = 1 mm, rho = 2500. Median of
interleaved repeats; time of the stepping loop only (LAMMPS/LIGGGHTS "Loop time"; rubble's
force + neighbour + integrate stages). LAMMPS runs \`gran/hooke/history\` (its fastest
granular style here), LIGGGHTS \`hooke/stiffness\` with \`tangential history\`; 2 cores are
2 MPI ranks for them and 2 OpenMP threads for rubble. Peak memory: largest process RSS.

| scene | N | contacts per grain | cores | rubble | LIGGGHTS | LAMMPS | rubble / best peer |
|---|---|---|---|---|---|---|---|
HEAD
awk -F, 'NR > 1 { key = $1 "," $2 "," $4; rate[key "," $3] = $8; mem[key "," $3] = $9; cpg[key] = $10;
                  if (!(key in seen)) { seen[key] = 1; order[++k] = key } }
    END { for (i = 1; i <= k; i++) { split(order[i], f, ",");
            r = rate[order[i] ",rubble"]; g = rate[order[i] ",liggghts"]; l = rate[order[i] ",lammps"];
            best = g > l ? g : l;
            printf "| %s | %d | %s | %d | %.3g/s (%.0f MiB) | %.3g/s (%.0f MiB) | %.3g/s (%.0f MiB) | %.2f |\n",
                f[1], f[2], cpg[order[i]], f[3], r, mem[order[i] ",rubble"], g, mem[order[i] ",liggghts"],
                l, mem[order[i] ",lammps"], r / best } }' "$CSV"
cat <<TAIL

![speed](dem-speed.png)

Rates are particle-steps per second **per core** (total / cores). The target of issue 3:
rubble at least as fast per core as the faster of LIGGGHTS and LAMMPS (ratio >= 1); the goal
beyond it, twice as fast.

Command: \`bench/dem.sh build/rubble 1e4,1e5 2000 3\` (sizes, steps per run, repeats).
TAIL
