# Plot of validation/silo.sh. dir: docs/validation; n: the grains in the hopper.
set datafile separator ','
set terminal pngcairo size 1000,650 font 'DejaVu Sans,11'
set grid
set output dir.'/silo.png'
set title sprintf('A wedge hopper from an STL surface empties: %d glass beads, 12 mm slot', n)
set xlabel 't  [s]'
set ylabel 'grains out'
set key bottom right
plot dir.'/silo-rubble.csv' using 1:2 with lines lw 2 lc rgb 'blue' title 'rubble', \
     dir.'/silo-liggghts.csv' using 1:2 with points pt 6 ps 0.8 lc rgb 'red' title 'LIGGGHTS 3.8'
