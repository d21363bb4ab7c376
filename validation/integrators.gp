# Kinetic energy of the settling polydisperse pile, mid-step vs synchronized (integrators.sh)
set datafile separator ','
set terminal pngcairo size 1000,650 font 'DejaVu Sans,11'
set output dir.'/dem-pile.png'
set title 'Polydisperse pile (radius ratio 4) settling: kinetic + rotational energy'
set xlabel 'time [s]'
set ylabel 'energy [J]'
set logscale y
set grid
set key top right
plot dir.'/dem-pile-midstep.csv' using 1:($5 + $6) every ::1 with lines lw 2 title 'mid-step (seed 002)', \
     dir.'/dem-pile-synchronized.csv' using 1:($5 + $6) every ::1 with lines lw 2 title 'synchronized'
