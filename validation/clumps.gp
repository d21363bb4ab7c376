# Plots of validation/clumps.sh. dir: docs/validation.
set datafile separator ','
set terminal pngcairo size 1000,650 font 'DejaVu Sans,11'
set grid

set output dir.'/clumps-qr-alpha.png'
set title 'Q_r against the iso-level {/Symbol a}: the 4 m cube, h = 0.05 m (after seed 001, Table 1)'
set xlabel '{/Symbol a}  [voxels h]'
set ylabel 'Q_r  (share of iso-surface vertices outside the clump)'
set key top right
plot dir.'/clumps-alpha.csv' using 1:2 every ::1 with linespoints lw 2 pt 7 title 'P = 200, R = 0.85', \
     dir.'/clumps-alpha.csv' using 1:3 every ::1 with linespoints lw 2 pt 5 title 'P = 1000, R = 0.85', \
     dir.'/clumps-alpha.csv' using 1:4 every ::1 with linespoints lw 2 pt 9 title 'P = 15000, R = 0.5', \
     '+' using (0.2):(0.92) every ::0::0 with points pt 6 ps 2 lc rgb 'black' title 'seed, P = 200 (0.92)', \
     '+' using (0.2):(0.82) every ::0::0 with points pt 4 ps 2 lc rgb 'black' title 'seed, P = 1000 (0.82)', \
     '+' using (0.2):(0.12) every ::0::0 with points pt 8 ps 2 lc rgb 'black' title 'seed, P = 15000 (0.12)'

set output dir.'/clumps-resolution.png'
set title 'Q_V = V_P / V_T against the voxel size: the 4 m cube (seed 001, Table 1: 0.91, 0.95, 0.98)'
set xlabel 'voxels per edge (4 m / h)'
set ylabel 'Q_V'
set logscale x
set key bottom right
plot dir.'/clumps-resolution.csv' using 2:3 every ::1 with linespoints lw 2 pt 7 title 'P = 200, R = 0.85', \
     dir.'/clumps-resolution.csv' using 2:4 every ::1 with linespoints lw 2 pt 5 title 'P = 1000, R = 0.85', \
     dir.'/clumps-resolution.csv' using 2:5 every ::1 with linespoints lw 2 pt 9 title 'P = 15000, R = 0.5', \
     0.91 with lines dt 2 lc rgb 'gray30' title 'seed', 0.95 with lines dt 2 lc rgb 'gray30' notitle, \
     0.98 with lines dt 2 lc rgb 'gray30' notitle
unset logscale x

set output dir.'/clumps-sections.png'
set terminal pngcairo size 1500,540 font 'DejaVu Sans,11'
set multiplot layout 1,3 title 'Cross-sections z = 0 of the cube clumps (h = 0.05 m)'
set size ratio -1
unset grid
set xrange [-2.2:2.2]
set yrange [-2.2:2.2]
set xlabel 'x [m]'
set ylabel 'y [m]'
unset key
set style fill transparent solid 0.25 border lc rgb 'navy'
set object 1 rect from -2,-2 to 2,2 fillstyle empty border lc rgb 'red' lw 2 front
set title 'P = 200, R = 0.85'
plot dir.'/clumps-section-200.csv' using 1:2:3 with circles lc rgb 'steelblue'
set title 'P = 1000, R = 0.85'
plot dir.'/clumps-section-1000.csv' using 1:2:3 with circles lc rgb 'steelblue'
set title 'P = 15000, R = 0.5'
plot dir.'/clumps-section-15000.csv' using 1:2:3 with circles lc rgb 'steelblue'
unset multiplot
