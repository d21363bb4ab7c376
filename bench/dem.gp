# Bar chart of docs/bench/dem.csv (bench/dem.sh): particle-steps per second per core for
# rubble, LIGGGHTS and LAMMPS, one group per scene, size and core count.
set terminal pngcairo size 1100,600 font 'DejaVu Sans,11'
set output dir.'/dem-speed.png'
set title 'Particle-steps per second per core (same scene, same state, same law and dt)'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set ylabel 'particle-steps / s / core'
set format y '%.0s%c'
set yrange [0:*]
set grid ytics
set key top left
set xtics rotate by -20
plot dir.'/dem-speed.dat' using 2:xtic(1) title 'rubble' lc rgb '#c0392b', \
     '' using 3 title 'LIGGGHTS' lc rgb '#7f8c8d', \
     '' using 4 title 'LAMMPS' lc rgb '#2c3e50'
