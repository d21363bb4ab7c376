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

# The tilted pile: kinetic energy at 0.2 s against the tilt, both integrators, both laws
set output dir.'/dem-incline.png'
set title 'The settled pile under gravity tilted by {/Symbol q}: kinetic + rotational energy after 0.2 s'
set xlabel '{/Symbol q} [degrees]'
set ylabel 'energy at 0.2 s [J]'
set logscale y
set key top left
rows(l, i) = sprintf("< awk -F, '$1 == \"%s\" && $2 == \"%s\"' %s/dem-incline.csv", l, i, dir)
plot rows('spring', 'midstep') using 3:5 with linespoints lw 2 pt 7 title 'spring, mid-step (seed 002)', \
     rows('spring', 'synchronized') using 3:5 with linespoints lw 2 pt 5 dt 2 title 'spring, synchronized', \
     rows('seed', 'midstep') using 3:5 with linespoints lw 2 pt 9 title 'D_H, mid-step', \
     rows('seed', 'synchronized') using 3:5 with linespoints lw 2 pt 11 dt 2 title 'D_H, synchronized'
