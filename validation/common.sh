# common.sh — sourced by the validation scripts (after setting ROOT, the repository):
#   validation_workspace RUBBLE [BUILD_DIR]
#                          RUBBLE and BUILD from the arguments (BUILD made absolute; empty
#                          when not given),
#                          DOCS=docs/validation (made), a temporary folder to work in (cd'd
#                          into, removed at exit)
#   asteroid_law           prints the scene keys the asteroid scripts share (asteroid.sh,
#                          spin.sh, drop.sh: examples/asteroid.yaml's space, gravity and law)
#   thermo_last NAME FILE  prints the last row's value of thermo.csv's column NAME (by header)
#   liggghts_preamble BOUNDARY DATA [PROCESSORS]
#                          prints a LIGGGHTS input's opening lines (granular atoms, SI units, the
#                          boundary and the particles of the data file DATA)
#   liggghts_hertz_materials E NU E_REST MU
#                          prints the properties of LIGGGHTS' hertz model for one atom type
#   liggghts_hooke_absolute KN GN GT MU
#                          prints LIGGGHTS' linear law with absolute damping for one atom type
#                          (k_t = 2/7 k_n) and its neighbour settings (skin 0.4 mm): rubble's
#                          normal: linear, tangential: spring with kn, gamma_n, gamma_t, friction
#   from_start START STEPS OUTPUT
#                          prints the start scene START (a lattice source with its radius and
#                          velocity_spread lines, run: {steps: 1, dt: DT}, output into the folder
#                          start) made to run STEPS steps from the grains it wrote
#                          (start/grains.txt), with output: {OUTPUT}
#   stl_slice STL          prints examples' STL (y from -2 to 12 mm) cut to the periodic slice
#                          y in [0, 10 mm], so that LIGGGHTS takes it inside its box
#   liggghts_data GRAINS XLO XHI YLO YHI ZLO ZHI
#                          prints a LIGGGHTS data file (one atom type, density 2500) of the
#                          grains of a rubble grains file (x y z r vx vy vz), in that box
#   replace_section FILE HEADING NEW
#                          drops the section of FILE that starts with the line "## HEADING..."
#                          (up to the next "## " heading) and appends the file NEW, so a script
#                          can be re-run alone without duplicating its section.

# OpenMP threads that wait sleep instead of spinning: a script's runs with --threads 2 share
# the cores with the peers it drives and with whatever else runs (docs/parallel.md, "Shared
# cores")
export OMP_WAIT_POLICY="${OMP_WAIT_POLICY:-passive}"

validation_workspace() {
    RUBBLE=${1:?usage: $0 RUBBLE [BUILD_DIR]}
    BUILD=${2:+$(cd "$2" && pwd)}
    DOCS=$ROOT/docs/validation
    mkdir -p "$DOCS"
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    cd "$work"
}

thermo_last() {
    awk -F, -v name="$1" 'NR == 1 { for (c = 1; c <= NF; c++) if ($c == name) col = c; next }
        { v = $col } END { if (!col) exit 1; print v }' "$2"
}

liggghts_preamble() {
    printf 'atom_style granular\natom_modify map array\nboundary %s\nnewton off\n' "$1"
    printf 'communicate single vel yes\n'
    [ -z "${3:-}" ] || printf 'processors %s\n' "$3"
    printf 'units si\nread_data %s\n' "$2"
}

liggghts_data() {
    awk -v xlo="$2" -v xhi="$3" -v ylo="$4" -v yhi="$5" -v zlo="$6" -v zhi="$7" '
        !/^#/ { n++; x[n] = $1; y[n] = $2; z[n] = $3; r[n] = $4; vx[n] = $5; vy[n] = $6; vz[n] = $7 }
        END { print "rubble grains\n"; print n " atoms"; print "1 atom types\n"
              print xlo " " xhi " xlo xhi"; print ylo " " yhi " ylo yhi"; print zlo " " zhi " zlo zhi\n"
              print "Atoms\n"
              for (i = 1; i <= n; i++) printf "%d 1 %.17g 2500 %.17g %.17g %.17g\n", i, 2 * r[i], x[i], y[i], z[i]
              print "\nVelocities\n"
              for (i = 1; i <= n; i++) printf "%d %.17g %.17g %.17g 0 0 0\n", i, vx[i], vy[i], vz[i] }' "$1"
}

liggghts_hooke_absolute() {
    printf 'neighbor 0.0004 bin\nneigh_modify delay 0\n'
    printf 'fix m1 all property/global kn peratomtypepair 1 %s\n' "$1"
    printf 'fix m2 all property/global kt peratomtypepair 1 %s\n' \
        "$(awk -v k="$1" 'BEGIN { printf "%.15g", 2 * k / 7 }')"
    printf 'fix m3 all property/global gamman_abs peratomtypepair 1 %s\n' "$2"
    printf 'fix m4 all property/global gammat_abs peratomtypepair 1 %s\n' "$3"
    printf 'fix m5 all property/global coefficientFriction peratomtypepair 1 %s\n' "$4"
    printf 'pair_style gran model hooke/stiffness tangential history absolute_damping on\n'
    printf 'pair_coeff * *\n'
}

from_start() {
    sed "s|  - lattice: .*|  - file: start/grains.txt|; /^    radius: /d; /^    velocity_spread/d;
         s|run: {steps: 1, dt: \([^}]*\)}|run: {steps: $2, dt: \1}|; s|^output: {.*}|output: {$3}|" "$1"
}

stl_slice() {
    awk '{ if ($1 == "vertex") { y = $3 == -2 ? 0 : ($3 == 12 ? 10 : $3); print "      vertex", $2, y, $4 } else print }' "$1"
}

liggghts_hertz_materials() {
    printf 'fix m1 all property/global youngsModulus peratomtype %s\n' "$1"
    printf 'fix m2 all property/global poissonsRatio peratomtype %s\n' "$2"
    printf 'fix m3 all property/global coefficientRestitution peratomtypepair 1 %s\n' "$3"
    printf 'fix m4 all property/global coefficientFriction peratomtypepair 1 %s\n' "$4"
}

replace_section() {
    [ -f "$1" ] || return 0
    awk -v h="## $2" 'index($0, h) == 1 { skip = 1; next } /^## / { skip = 0 } !skip' "$1" > "$1.new"
    cat "$3" >> "$1.new"
    mv "$1.new" "$1"
}

asteroid_law() {
    cat <<'YAML'
domain: {open: true, escape: 500}
self_gravity: {method: tree, theta: 0.5, every: 10}
materials:
  - {name: rock, density: 3000}
contact: {normal: linear, damping: linear, tangential: seed, kn: 1.8e5, gamma_n: 3.0e4,
          friction: 0.5}
YAML
}
