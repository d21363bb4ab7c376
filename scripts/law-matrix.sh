#!/bin/sh
# law-matrix.sh — one small scene per combination of contact sub-models that the force loops
# compile (normal x damping x tangential, and with the tangential spring each rolling and
# cohesion model; Hertz-Mindlin with each rolling and cohesion model, JKR included): 42 beds
# settling on a floor, 2500 steps, with checkpoints and contact files. Used with
# scripts/same-outputs.sh to show that a change to the law's table or kernels leaves every
# law's bits as they were (docs/architecture.md, issue 71):
#   scripts/law-matrix.sh DIR && scripts/same-outputs.sh OLD NEW 2500 DIR/*.yaml
set -eu
dir=${1:?usage: law-matrix.sh DIR}
mkdir -p "$dir"
scene() { # name, contact mapping's body, materials' extra keys
    cat > "$dir/$1.yaml" <<END
domain: {min: [0, 0, -0.001], max: [0.008, 0.008, 0.03], periodic: [x, y]}
gravity: [0, 0, -9.81]
materials:
  - {name: glass, density: 2500$3}
contact: {$2}
walls:
  - {point: [0, 0, 0], normal: [0, 0, 1]}
grains:
  - lattice: {min: [0, 0, 0.0005], max: [0.008, 0.008, 0.02], spacing: 0.0011}
    radius: {distribution: uniform, min: 0.00045, max: 0.0005}
    velocity_spread: 0.1
run: {steps: 2500, dt: 2e-6}
output: {every: 500, checkpoint_every: 0.002, contacts: true}
END
}
for n in linear hertz; do
    kn=2000; [ $n = hertz ] && kn=3e5
    for d in linear tsuji; do
        for t in none seed spring; do
            fr=", friction: 0.5"; [ $t = none ] && fr=""
            scene "${n}_${d}_$t" "normal: $n, damping: $d, tangential: $t, kn: $kn, gamma_n: 0.0005, gamma_t: 0.0001$fr" ""
        done
        for r in none cdt epsd2; do
            for c in none sjkr; do
                [ $r = none ] && [ $c = none ] && continue
                ex=""
                [ $r != none ] && ex="$ex, rolling: {model: $r, friction: 0.2}"
                [ $c != none ] && ex="$ex, cohesion: {model: sjkr, energy_density: 2e4}"
                scene "${n}_${d}_spring_${r}_$c" "normal: $n, damping: $d, tangential: spring, kn: $kn, gamma_n: 0.0005, gamma_t: 0.0001, friction: 0.5$ex" ""
            done
        done
    done
done
hm=", youngs_modulus: 5.0e6, poisson_ratio: 0.3, restitution: 0.5, friction: 0.5"
for r in none cdt epsd2; do
    for c in none sjkr jkr; do
        ex=""
        [ $r != none ] && ex="$ex, rolling: {model: $r, friction: 0.2}"
        [ $c = sjkr ] && ex="$ex, cohesion: {model: sjkr, energy_density: 2e4}"
        [ $c = jkr ] && ex="$ex, cohesion: {model: jkr, surface_energy: 0.3}"
        scene "hm_${r}_$c" "normal: hertz-mindlin, tangential: spring$ex" "$hm"
    done
done
scene hm_seed "normal: hertz-mindlin, tangential: seed" "$hm"
echo "$(ls "$dir"/*.yaml | wc -l) scenes in $dir"
