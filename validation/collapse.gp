# Cold collapse (collapse.sh): the virial ratios of the K = 1 run, the energy error and the
# compactness W/W0 for the field every K steps, against time in free-fall times
set datafile separator ','
set terminal pngcairo size 1000,1100 font 'DejaVu Sans,11'
set output dir.'/collapse.png'
set multiplot layout 3,1 title 'Cold collapse of 1e4 boulders (tree, theta 0.5; elastic frictionless contacts)'
rows(k) = sprintf("< awk -F, '$1 == %d' %s/collapse.csv", k, dir)
set grid
set xrange [0:3]
set key top right
set ylabel 'virial ratio'
plot rows(1) using 2:3 with lines lw 2 title '2K / |W|', \
     rows(1) using 2:4 with lines lw 2 title '(2K + {/Symbol S} f.l) / |W|', \
     1 with lines dt 2 lc rgb 'black' title 'virial equilibrium'
set ylabel 'W / W_0'
set key top left
plot for [k in "1 5 20 100"] rows(k+0) using 2:7 with lines lw 2 title 'field every '.k.' steps'
set ylabel '(E - E_0) / |W_0|'
set xlabel 't / t_{ff}'
set key bottom left
plot for [k in "1 5 20 100"] rows(k+0) using 2:5 with lines lw 2 title 'field every '.k.' steps'
unset multiplot
