# Plot of validation/drum.sh. dir: docs/validation; n: the grains; rpm: the drum's speed.
set datafile separator ','
set terminal pngcairo size 1000,650 font 'DejaVu Sans,11'
set grid
set output dir.'/drum.png'
set multiplot layout 1,2 title sprintf('A drum of radius 40 mm at %g rpm, %d glass beads', rpm, n)
set xlabel 't  [s]'
set ylabel 'dynamic angle of repose  [deg]'
set key bottom right
set yrange [0:40]
plot dir.'/drum-rubble.csv' using 1:2 with linespoints lw 2 pt 7 lc rgb 'blue' title 'rubble', \
     dir.'/drum-liggghts.csv' using 1:2 with linespoints pt 6 ps 1.2 lc rgb 'red' title 'LIGGGHTS 3.8'
set ylabel "bed's centre of mass x  [mm]"
set autoscale y
plot dir.'/drum-rubble.csv' using 1:($3*1000) with linespoints lw 2 pt 7 lc rgb 'blue' title 'rubble', \
     dir.'/drum-liggghts.csv' using 1:($3*1000) with linespoints pt 6 ps 1.2 lc rgb 'red' title 'LIGGGHTS 3.8'
unset multiplot
