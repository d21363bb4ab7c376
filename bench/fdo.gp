# The seed's four phases against the contacts of the step (bench/fdo.sh): each sampled step of
# the tube scene, seconds of precomputation, detection, resolution and final computation.
set datafile separator ','
set terminal pngcairo size 1000,650 font 'DejaVu Sans,11'
set output dir.'/fdo-phases.png'
set title "Impulse dynamics, 1000 ellipsoids into an inclined tube: time per step of each phase"
set xlabel 'contacts in the step'
set ylabel 'seconds'
set logscale y
set format y '10^{%L}'
set grid
set key top left
f = dir.'/fdo-thermo.csv'
plot f every ::1 using 7:20 with points pt 7 ps 0.4 title 'contact resolution', \
     f every ::1 using 7:19 with points pt 5 ps 0.4 title 'contact detection', \
     f every ::1 using 7:21 with points pt 9 ps 0.4 title 'final computation', \
     f every ::1 using 7:18 with points pt 11 ps 0.4 title 'precomputation'
