# Spin stability (spin.sh, seed 002 Fig. 13): the mean outward contact force on the grains of
# the equatorial band against the spin: the seed's 50 s steps and 1000 s steps
set datafile separator ','
set terminal pngcairo size 1000,650 font 'DejaVu Sans,11'
set output dir.'/spin.png'
set title 'Spinning rubble pile: contact force holding up the equatorial band (shell 9-12 m)'
set xlabel 'spin {/Symbol w} / {/Symbol w}_c   ({/Symbol w}_c = (G M / R^3)^{1/2})'
set ylabel 'mean contact force away from the axis [N]'
set grid
set key top right
set xrange [0:1.4]
set yrange [-0.02:0.065]
set samples 200
plot dir.'/spin.csv' every ::1 using ($2 + 0.08 * (($1 - 50 * int($1 / 50)) / 50.0 - 0.5)):7 with points pt 7 ps 0.3 lc rgb '#fdae6b' title '50 s steps (seed), every second, spread across the step', \
     dir.'/spin-steps.csv' every ::1 using 1:4 with linespoints pt 7 ps 1.5 lw 2 lc rgb '#e6550d' title '50 s steps (seed), mean over the step', \
     dir.'/spin-slow-steps.csv' every ::1 using 1:4 with linespoints pt 5 ps 1.5 lw 2 lc rgb '#08519c' title '1000 s steps, mean over the second half', \
     (x <= 1 ? F0 * (1 - x**2) : 0) with lines lw 2 dt 2 lc rgb 'black' title 'uniform sphere: F_0 (1 - ({/Symbol w}/{/Symbol w}_c)^2), F_0 fitted up to 0.5 {/Symbol w}_c', \
     A - B * x**2 with lines lw 2 dt 3 lc rgb '#31a354' title 'what rigid rotation of the settled body needs (its own gravity summed)'
