# Self-gravity accuracy (bench/gravity.sh): rms and 99th percentile of |a - a_direct|/|a_direct|
# against interactions per grain, tree over theta and Cells over Nc, N = 1e4 and 1e5
set datafile separator ','
set terminal pngcairo size 1000,650 font 'DejaVu Sans,11'
set output dir.'/gravity-error.png'
set title 'Self-gravity force error against direct summation (grains in a sphere)'
set xlabel 'interactions per grain'
set ylabel 'relative force error'
set logscale xy
set format y '10^{%L}'
set grid
set key bottom left
rows(m, n) = sprintf("< awk -F, '$3 == \"%s\" && $1 == %d' %s/gravity.csv", m, n, dir)
plot rows('tree', 10000) using 9:5 with linespoints lw 2 pt 7 title 'tree, rms, N = 1e4', \
     rows('tree', 10000) using 9:6 with linespoints lw 1 pt 6 dt 2 title 'tree, p99, N = 1e4', \
     rows('tree', 100000) using 9:5 with linespoints lw 2 pt 5 title 'tree, rms, N = 1e5', \
     rows('tree', 100000) using 9:6 with linespoints lw 1 pt 4 dt 2 title 'tree, p99, N = 1e5', \
     rows('cells', 10000) using 9:5 with linespoints lw 2 pt 9 title 'Cells (seed), rms, N = 1e4', \
     rows('cells', 100000) using 9:5 with linespoints lw 2 pt 11 title 'Cells (seed), rms, N = 1e5'

set output dir.'/gravity-speed.png'
set title 'One self-gravity evaluation: grains per second (tree theta 0.5, Cells Nc 5)'
set xlabel 'N (grains)'
set ylabel 'grains per second'
set format y '10^{%L}'
set key top right
rows2(m, t) = sprintf("< awk -F, '$3 == \"%s\" && $2 == %d' %s/gravity-speed.csv", m, t, dir)
plot rows2('tree', 1) using 1:11 with linespoints lw 2 pt 7 title 'tree, 1 core', \
     rows2('tree', 2) using 1:11 with linespoints lw 2 pt 5 title 'tree, 2 cores', \
     rows2('cells', 1) using 1:11 with linespoints lw 2 pt 9 title 'Cells, 1 core', \
     rows2('cells', 2) using 1:11 with linespoints lw 2 pt 11 title 'Cells, 2 cores'

set output dir.'/gravity-step.png'
set title 'Contact + self-gravity, whole steps on a self-gravitating sphere (field every step)'
set xlabel 'N (grains)'
set ylabel 'particle-steps per second per core'
set key top right
set xrange [5e3:2e6]
set yrange [1e4:3e6]
rows3(m, t) = sprintf("< awk -F, '$3 == \"%s\" && $2 == %d' %s/gravity-step.csv", m, t, dir)
plot rows3('tree', 1) using 1:7 with linespoints lw 2 pt 7 title 'tree θ 0.5, 1 core', \
     rows3('tree', 2) using 1:7 with linespoints lw 2 pt 5 title 'tree θ 0.5, 2 cores', \
     rows3('cells', 1) using 1:7 with linespoints lw 2 pt 9 title 'Cells Nc 5, 1 core', \
     rows3('cells', 2) using 1:7 with linespoints lw 2 pt 11 title 'Cells Nc 5, 2 cores', \
     rows3('direct', 1) using 1:7 with points pt 13 ps 1.5 title 'direct, 1 core'
