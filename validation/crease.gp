# crease.gp — the wall's vertical force as the grain crosses the crease, both ways (crease.sh):
# rubble and LIGGGHTS on the same scene. Called with dir (docs/validation) and t1, t2 (s).
set terminal pngcairo size 1100,450 font ",11"
set output dir.'/crease.png'
set datafile separator ','
set multiplot layout 1,2 title "A 1 mm grain across a 178° crease of a mesh wall: the wall's vertical force"
set xlabel "time from the crossing (ms)"
set xrange [-3:6]
set ylabel 'force / mg'
set yrange [0.5:2.2]
set key top right
set title 'left to right'
plot dir.'/crease.csv' every ::1 using (($1 - t1) * 1000):3 with linespoints pt 6 ps 0.5 lc rgb '#d95f02' title 'LIGGGHTS 3.8', \
     '' every ::1 using (($1 - t1) * 1000):2 with linespoints pt 7 ps 0.5 lc rgb '#1b9e77' title 'rubble'
set title 'right to left'
plot dir.'/crease.csv' every ::1 using (($1 - t2) * 1000):3 with linespoints pt 6 ps 0.5 lc rgb '#d95f02' title 'LIGGGHTS 3.8', \
     '' every ::1 using (($1 - t2) * 1000):2 with linespoints pt 7 ps 0.5 lc rgb '#1b9e77' title 'rubble'
unset multiplot
