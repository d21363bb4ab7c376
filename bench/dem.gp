# Bar chart of docs/bench/dem.csv (bench/dem.sh): rubble's particle-steps per second per core
# over the faster peer's (LIGGGHTS or LAMMPS), one group per state and size, 1 and 2 cores.
set terminal pngcairo size 1300,600 font 'DejaVu Sans,11'
set output dir.'/dem-speed.png'
set title 'rubble / faster of LIGGGHTS and LAMMPS, per core (same state, same law and dt)'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set ylabel 'rubble / faster peer'
set yrange [0:*]
set grid ytics
set key top right
set xtics rotate by -35
set rmargin 10
set bmargin 7
set arrow from graph 0, first 1 to graph 1, first 1 nohead lc rgb '#000000' lw 2
set arrow from graph 0, first 1.5 to graph 1, first 1.5 nohead lc rgb '#27ae60' lw 1 dt 2
plot dir.'/dem-speed.dat' using 2:xtic(1) title '1 core' lc rgb '#c0392b', \
     '' using 3 title '2 cores' lc rgb '#e67e22'
