# Plot of validation/heap_rolling.sh. dir: docs/validation.
set datafile separator ','
set terminal pngcairo size 1000,650 font 'DejaVu Sans,11'
set grid
set output dir.'/heap-rolling.png'
set title 'Heaps slumped from one column: rolling resistance off and on (epsd2, {/Symbol m}_r = 0.2)'
set xlabel 'x  [m]'
set ylabel 'surface height  [m]'
set key top right
plot dir.'/heap-rolling-rbl-off.csv' using 1:2 with lines lw 2 lc rgb 'blue' title 'rubble, off', \
     dir.'/heap-rolling-lig-off.csv' using 1:2 with points pt 6 lc rgb 'blue' title 'LIGGGHTS, off', \
     dir.'/heap-rolling-rbl-on.csv' using 1:2 with lines lw 2 lc rgb 'red' title 'rubble, on', \
     dir.'/heap-rolling-lig-on.csv' using 1:2 with points pt 4 lc rgb 'red' title 'LIGGGHTS, on'
