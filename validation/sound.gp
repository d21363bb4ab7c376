# Sound speed against height (sound.sh, seed 002 Fig. 8): mean speed from the kicked layer, per
# parameter set and gravity level, with the straight-chain speed d sqrt(kn/m) of each set
set datafile separator ','
set terminal pngcairo size 1000,650 font 'DejaVu Sans,11'
set output dir.'/sound.png'
set title 'Pulse speed in a bed of 0.5 mm glass beads (seed Table 1 sets, three gravity levels)'
set xlabel 'height above the floor [mm]'
set ylabel 'speed [m/s]'
set grid
set key outside right
set yrange [0:*]
f = dir.'/sound-speed.csv'
plot f using ($1 == 1 && $2 == 1 ? 1000 * $3 : 1/0):4 with linespoints pt 7 lc rgb '#08519c' title 'set 1, g = 1', \
     f using ($1 == 1 && $2 == 0.1 ? 1000 * $3 : 1/0):4 with linespoints pt 5 lc rgb '#3182bd' title 'set 1, g = 0.1', \
     f using ($1 == 1 && $2 == 0.01 ? 1000 * $3 : 1/0):4 with linespoints pt 9 lc rgb '#6baed6' title 'set 1, g = 0.01', \
     f using ($1 == 2 && $2 == 1 ? 1000 * $3 : 1/0):4 with linespoints pt 7 lc rgb '#a63603' title 'set 2, g = 1', \
     f using ($1 == 2 && $2 == 0.1 ? 1000 * $3 : 1/0):4 with linespoints pt 5 lc rgb '#e6550d' title 'set 2, g = 0.1', \
     f using ($1 == 2 && $2 == 0.01 ? 1000 * $3 : 1/0):4 with linespoints pt 9 lc rgb '#fd8d3c' title 'set 2, g = 0.01', \
     c1 with lines dt 2 lw 2 lc rgb '#08519c' title 'chain d (kn/m)^{1/2}, set 1', \
     c2 with lines dt 2 lw 2 lc rgb '#a63603' title 'chain d (kn/m)^{1/2}, set 2', \
     170 with lines dt 3 lw 2 lc rgb 'black' title 'seed: set 2 approaches 170 m/s'
