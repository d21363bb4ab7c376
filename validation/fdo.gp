# Plots of validation/fdo.sh. dir: docs/validation.
set terminal pngcairo size 1300,900 font 'DejaVu Sans,11'
set output dir.'/fdo-heaps.png'
set multiplot layout 3,1 title 'The same 1000 ellipsoids (1.5 x 1.0 x 0.75 mm) poured into a slab 12 mm deep, friction 0.5, e = 0.3 (side view)'
set size ratio -1
set xrange [0:120]
set yrange [0:30]
set xlabel 'x [mm]'
set ylabel 'z [mm]'
set grid
unset key
set style fill solid 0.5 noborder
set title 'impulse dynamics: rigid ellipsoids (their shadows on the x-z plane)'
plot dir.'/fdo-heap-shadows.txt' using 1:2:3:4:5 with ellipses units xy lc rgb 'steelblue'
set title 'soft-sphere clumps of 10 spheres'
plot dir.'/fdo-heap-clumps.txt' using ($1*1000):($3*1000):($4*1000) with circles lc rgb '#a0522d'
set title 'surface profiles (highest grain top in 2 mm bins)'
set size noratio
set key top right
set datafile separator ','
plot dir.'/fdo-heap-profile-ellipsoids.csv' using ($1*1000):($2*1000) with steps lw 2 lc rgb 'steelblue' title 'impulse ellipsoids', \
     dir.'/fdo-heap-profile-clumps.csv' using ($1*1000):($2*1000) with steps lw 2 lc rgb '#a0522d' title 'clumps'
unset multiplot
