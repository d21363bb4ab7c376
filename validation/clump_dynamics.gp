# Plots of validation/clump_dynamics.sh. dir: docs/validation.
set datafile separator ','
set terminal pngcairo size 1300,800 font 'DejaVu Sans,11'
set grid

set output dir.'/clump-torque-free.png'
set multiplot layout 2,2 title 'A torque-free clump (ellipsoid 10 x 6 x 3.5 mm, 60 spheres), 50 rad/s about one principal axis'
set xlabel 'time [s]'
set ylabel '{/Symbol w} (body frame) / {/Symbol w}_0'
set yrange [-1.1:1.1]
set key bottom right
do for [a=1:3] {
    set title sprintf('spin about axis %d%s', a, a == 2 ? ' (intermediate: unstable)' : ' (stable)')
    plot dir.'/clump-torque-free.csv' using ($1 == a ? $2 : 1/0):3 every ::1 with lines lw 2 title '{/Symbol w}_1', \
         '' using ($1 == a ? $2 : 1/0):4 every ::1 with lines lw 2 title '{/Symbol w}_2', \
         '' using ($1 == a ? $2 : 1/0):5 every ::1 with lines lw 2 title '{/Symbol w}_3'
}
set title 'energy and angular momentum'
set yrange [*:*]
set logscale y
set format y '10^{%T}'
set ylabel 'relative error'
set key top left
plot dir.'/clump-torque-free.csv' using ($1 == 1 ? $2 : 1/0):($6 > 0 ? $6 : 1/0) every ::1 with lines lw 2 title '|{/Symbol D}E|/E, axis 1', \
     '' using ($1 == 2 ? $2 : 1/0):($6 > 0 ? $6 : 1/0) every ::1 with lines lw 2 title '|{/Symbol D}E|/E, axis 2', \
     '' using ($1 == 3 ? $2 : 1/0):($6 > 0 ? $6 : 1/0) every ::1 with lines lw 2 title '|{/Symbol D}E|/E, axis 3'
unset logscale y
unset multiplot

set output dir.'/clump-heaps.png'
set terminal pngcairo size 1300,700 font 'DejaVu Sans,11'
set datafile separator whitespace
set multiplot layout 2,1 title 'Heaps of 1000 grains, friction 0.5 (side view, slab 12 mm deep)'
set size ratio -1
set xrange [0:120]
set yrange [0:30]
set format y '%g'
set xlabel 'x [mm]'
set ylabel 'z [mm]'
unset key
set style fill solid 0.5 noborder
set title 'spheres'
plot dir.'/clump-heap-spheres.txt' using ($1*1000):($3*1000):($4*1000) with circles lc rgb 'steelblue'
set title 'clumps (ellipsoids of 10 spheres)'
plot dir.'/clump-heap-clumps.txt' using ($1*1000):($3*1000):($4*1000) with circles lc rgb '#a0522d'
unset multiplot
