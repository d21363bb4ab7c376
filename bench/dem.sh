#!/bin/sh
# Soft-sphere benchmark (issue 3): rubble, LIGGGHTS and LAMMPS on the same scene, the same
# initial state (a file of grains), the same law (Hookean spring-dashpot with tangential
# history, absolute damping) and the same step count, on 1 and 2 cores. Prints and records
# particle-steps per second (per core), peak memory and the ratios.
#   settle N: a bed of N glass beads (d = 1 mm) settled by rubble on a floor between periodic
#             sides; every program then steps the settled bed.
#   gas N:    N beads at 5 % solid fraction, random velocities, no gravity, periodic box.
# Usage: bench/dem.sh RUBBLE [sizes: 1e4,1e5] [steps per run] [repeats]
set -eu
RUBBLE=$1
SIZES=${2:-1e4,1e5}
STEPS=${3:-2000}
REPEAT=${4:-3}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DOCS=$ROOT/docs/bench
mkdir -p "$DOCS"
CSV=$DOCS/dem.csv
work=${RBL_BENCH_WORK:-$(mktemp -d)}
mkdir -p "$work"
cd "$work"
MPI="mpirun --allow-run-as-root --bind-to core"
KN=2000; GN=0.01; GT=0.005; MU=0.5; DT=2.5e-6; SKIN=0.0001; R=0.0005; RHO=2500
KT=$(awk "BEGIN { printf \"%.15g\", 2.0 / 7.0 * $KN }")
# thermo output every 1000 steps in every program (LAMMPS/LIGGGHTS: thermo 1000)
THERMO_EVERY=$(awk "BEGIN { printf \"%.10g\", 1000 * $DT }")
# gran/hooke/history damping is per unit effective mass: m_eff = m/2 for two equal beads
GN_LMP=$(awk "BEGIN { m = $RHO * 4 / 3 * 3.141592653589793 * $R^3; printf \"%.10g\", $GN / (m / 2) }")

echo "scene,n,program,cores,steps,seconds,particle_steps_per_s,per_core,peak_mib,contacts_per_grain" > "$CSV.tmp"

# box: 20 d square for the settle; the gas box from its volume
box_for() { # kind n -> "L H"
    if [ "$1" = settle ]; then
        awk -v n="$2" 'BEGIN { L = (n >= 50000) ? 0.04 : 0.02; layers = n / ((L / 0.00102) ^ 2);
                               printf "%g %g", L, layers * 0.00102 * 1.3 + 0.005 }'
    else
        awk -v n="$2" -v r=$R 'BEGIN { v = n * 4 / 3 * 3.141592653589793 * r^3 / 0.05;
                                       L = v ^ (1 / 3); printf "%.6g %.6g", L, L }'
    fi
}

prepare() { # kind n: writes $kind_$n.txt (grains) via rubble
    kind=$1; n=$2
    [ -s "${kind}_$n.txt" ] && return 0
    set -- $(box_for "$kind" "$n"); L=$1; H=$2
    if [ "$kind" = settle ]; then
        cat > prep.yaml <<YAML
domain: {min: [0, 0, -0.001], max: [$L, $L, $H], periodic: [x, y]}
gravity: [0, 0, -9.81]
materials: [{name: glass, density: $RHO}]
contact: {normal: linear, damping: linear, tangential: spring, kn: $KN, gamma_n: $GN, gamma_t: $GT, friction: $MU}
walls: [{point: [0, 0, 0], normal: [0, 0, 1]}]
grains:
  - lattice: {min: [0, 0, 0.0001], max: [$L, $L, $H], spacing: 0.00102, count: $n}
    radius: $R
    velocity_spread: 0.2
run: {time: 0.1, dt: $DT, skin: $SKIN}
output: {folder: prep_${kind}_$n, final: grains.txt}
YAML
    else
        cat > prep.yaml <<YAML
domain: {min: [0, 0, 0], max: [$L, $L, $H], periodic: [x, y, z]}
materials: [{name: glass, density: $RHO}]
contact: {normal: linear, damping: linear, tangential: spring, kn: $KN, gamma_n: $GN, gamma_t: $GT, friction: $MU}
grains:
  - random: {min: [0, 0, 0], max: [$L, $L, $H], count: $n}
    radius: $R
    velocity_spread: 0.5
run: {steps: 1, dt: $DT, skin: $SKIN}
output: {folder: prep_${kind}_$n, final: grains.txt}
YAML
    fi
    echo "preparing $kind $n (rubble) ..."
    "$RUBBLE" run prep.yaml --quiet > /dev/null
    cp "prep_${kind}_$n/grains.txt" "${kind}_$n.txt"
}

write_inputs() { # kind n
    kind=$1; n=$2
    set -- $(box_for "$kind" "$n"); L=$1; H=$2
    zlo=-0.001; [ "$kind" = gas ] && zlo=0
    for style in lmp lig; do
        awk -v L="$L" -v H="$H" -v zlo=$zlo -v rho=$RHO -v style=$style '
            !/^#/ { n++; x[n]=$1; y[n]=$2; z[n]=$3; r[n]=$4; vx[n]=$5; vy[n]=$6; vz[n]=$7 }
            END { print "rubble grains\n"; print n " atoms"; print "1 atom types\n";
                  print "0 " L " xlo xhi"; print "0 " L " ylo yhi"; print zlo " " H " zlo zhi\n";
                  print (style == "lmp" ? "Atoms # sphere\n" : "Atoms\n");
                  for (i = 1; i <= n; i++) printf "%d 1 %.17g %g %.17g %.17g %.17g\n", i, 2 * r[i], rho, x[i], y[i], z[i];
                  print "\nVelocities\n";
                  for (i = 1; i <= n; i++) printf "%d %.17g %.17g %.17g 0 0 0\n", i, vx[i], vy[i], vz[i] }' \
            "${kind}_$n.txt" > "${kind}_$n.$style.data"
    done
    if [ "$kind" = settle ]; then bnd="p p f"; grav=1; else bnd="p p p"; grav=0; fi
    cat > "${kind}_$n.lmp.in" <<LMP
units si
atom_style sphere
boundary $bnd
comm_modify vel yes
processors * * 1
read_data ${kind}_$n.lmp.data
pair_style gran/hooke/history $KN $KT $GN_LMP NULL $MU 1
pair_coeff * *
neighbor $SKIN bin
neigh_modify delay 0
fix 1 all nve/sphere
timestep $DT
LMP
    [ $grav = 1 ] && cat >> "${kind}_$n.lmp.in" <<LMP
fix wall all wall/gran hooke/history $KN $KT $GN_LMP NULL $MU 1 zplane 0.0 NULL
fix 2 all gravity 9.81 vector 0 0 -1
LMP
    echo "thermo 1000" >> "${kind}_$n.lmp.in"
    echo "run $STEPS" >> "${kind}_$n.lmp.in"
    cat > "${kind}_$n.lig.in" <<LIG
atom_style granular
atom_modify map array
boundary $bnd
newton off
communicate single vel yes
processors * * 1
units si
read_data ${kind}_$n.lig.data
neighbor $SKIN bin
neigh_modify delay 0
fix m1 all property/global kn peratomtypepair 1 $KN
fix m2 all property/global kt peratomtypepair 1 $KT
fix m3 all property/global gamman_abs peratomtypepair 1 $GN
fix m4 all property/global gammat_abs peratomtypepair 1 $GT
fix m5 all property/global coefficientFriction peratomtypepair 1 $MU
pair_style gran model hooke/stiffness tangential history absolute_damping on
pair_coeff * *
timestep $DT
fix integr all nve/sphere
LIG
    [ $grav = 1 ] && cat >> "${kind}_$n.lig.in" <<LIG
fix zwall all wall/gran model hooke/stiffness tangential history primitive type 1 zplane 0.0 absolute_damping on
fix gravi all gravity 9.81 vector 0.0 0.0 -1.0
LIG
    echo "thermo 1000" >> "${kind}_$n.lig.in"
    echo "run $STEPS" >> "${kind}_$n.lig.in"
    if [ $grav = 1 ]; then
        extra="gravity: [0, 0, -9.81]
walls: [{point: [0, 0, 0], normal: [0, 0, 1]}]"; per="[x, y]"
    else
        extra=""; per="[x, y, z]"
    fi
    cat > "${kind}_$n.yaml" <<YAML
domain: {min: [0, 0, $zlo], max: [$L, $L, $H], periodic: $per}
$extra
materials: [{name: glass, density: $RHO}]
contact: {normal: linear, damping: linear, tangential: spring, kn: $KN, gamma_n: $GN, gamma_t: $GT, friction: $MU}
grains:
  - file: ${kind}_$n.txt
run: {steps: $STEPS, dt: $DT, skin: $SKIN}
output: {folder: out_${kind}_$n, thermo_every: $THERMO_EVERY}
YAML
}

# one run: program cores kind n -> "seconds peak_kib"
run_one() {
    prog=$1; cores=$2; kind=$3; n=$4
    case $prog in
        rubble) /usr/bin/time -f "%M" -o mem.txt "$RUBBLE" run "${kind}_$n.yaml" --quiet --threads "$cores" > out.txt 2>&1
                sec=$(awk '/^stages/ { print $3 + $6 + $11 }' out.txt) ;;
        lammps) if [ "$cores" = 1 ]; then /usr/bin/time -f "%M" -o mem.txt lmp -log none -in "${kind}_$n.lmp.in" > out.txt 2>&1
                else /usr/bin/time -f "%M" -o mem.txt $MPI -np "$cores" lmp -log none -in "${kind}_$n.lmp.in" > out.txt 2>&1; fi
                sec=$(awk '/^Loop time/ { print $4 }' out.txt) ;;
        liggghts) if [ "$cores" = 1 ]; then /usr/bin/time -f "%M" -o mem.txt liggghts -log none -in "${kind}_$n.lig.in" > out.txt 2>&1
                else /usr/bin/time -f "%M" -o mem.txt $MPI -np "$cores" liggghts -log none -in "${kind}_$n.lig.in" > out.txt 2>&1; fi
                sec=$(awk '/^Loop time/ { print $4 }' out.txt) ;;
    esac
    [ -n "$sec" ] || { echo "FAILED: $prog $cores $kind $n"; tail -5 out.txt; exit 1; }
    echo "$sec $(tail -1 mem.txt)"
}

for n_text in $(echo "$SIZES" | tr ',' ' '); do
    n=$(awk "BEGIN { printf \"%d\", $n_text }")
    for kind in settle gas; do
        [ "$kind" = gas ] && [ "$n" -lt 100000 ] && continue   # the issue's gas is 1e5
        prepare $kind $n
        write_inputs $kind $n
        "$RUBBLE" run "${kind}_$n.yaml" --quiet --threads 1 --steps 1 > contacts.txt
        cpg=$(sed -n 's/^contacts.*(\([0-9.]*\) and.*/\1/p' contacts.txt)
        for cores in 1 2; do
            for prog in rubble liggghts lammps; do : > "times_$prog"; : > "mem_$prog"; done
            for rep in $(seq "$REPEAT"); do
                for prog in rubble liggghts lammps; do   # interleaved: the machine drifts
                    set -- $(run_one $prog $cores $kind $n)
                    echo "$1" >> "times_$prog"; echo "$2" >> "mem_$prog"
                done
            done
            for prog in rubble liggghts lammps; do
                med=$(sort -g "times_$prog" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
                mem=$(sort -g "mem_$prog" | tail -1)
                awk -v k=$kind -v n=$n -v p=$prog -v c=$cores -v s=$STEPS -v t="$med" -v m="$mem" -v cpg="$cpg" \
                    'BEGIN { r = n * s / t; printf "%s,%d,%s,%d,%d,%.4f,%.4g,%.4g,%.1f,%s\n", k, n, p, c, s, t, r, r / c, m / 1024, cpg }' >> "$CSV.tmp"
                tail -1 "$CSV.tmp"
            done
        done
    done
done
mv "$CSV.tmp" "$CSV"
# one row per scene/size/cores for the bar chart: label, rubble, LIGGGHTS, LAMMPS (per core)
awk -F, 'NR > 1 { key = $1 " " $2 ", " $4 " core" ($4 > 1 ? "s" : ""); r[key "," $3] = $8;
                  if (!(key in seen)) { seen[key] = 1; order[++k] = key } }
    END { for (i = 1; i <= k; i++) printf "\"%s\" %s %s %s\n", order[i], r[order[i] ",rubble"],
                                         r[order[i] ",liggghts"], r[order[i] ",lammps"] }' "$CSV" > "$DOCS/dem-speed.dat"
gnuplot -e "dir='$DOCS'" "$ROOT/bench/dem.gp"
"$ROOT/bench/dem_tables.sh" "$CSV" > "$DOCS/dem.md"
echo "written: $CSV, $DOCS/dem.md"
