# A boulder dropped on the settled body (drop.sh): its height against time, and radial infall
# onto a point mass of the body's mass
set datafile separator ','
set terminal pngcairo size 1000,650 font 'DejaVu Sans,11'
set output dir.'/drop.png'
set title 'A boulder released 30 m above the rubble pile'
set xlabel 'time [s]'
set ylabel 'height above the centre of mass [m]'
set grid
set key top right
plot dir.'/drop.csv' every ::1 using 1:2 with points pt 7 ps 0.6 title 'rubble (0.1 m slabs, every 10 s)', \
     dir.'/drop.csv' every ::1 using 3:2 with lines lw 2 lc rgb 'black' title 'point mass M: radial infall'
