# Plots of the contact-detection study (bench/contacts.sh). Columns of contacts.csv:
# 1 dim, 2 n, 3 algorithm, 4 box_factor, 5 radius_ratio, 6 status, 7 median_s, 8 min_s,
# 9 cold_s, 10 ns_per_element, 11 work_bytes, 12 pairs, 13 checks_per_element
set datafile separator ','
set terminal pngcairo size 1000,700 font 'DejaVu Sans,11'
csv = dir.'/contacts.csv'
rows(d, a) = sprintf('< grep "^%d,[0-9]*,%s," %s', d, a, csv)
algorithms = 'screening nbs direct sorting tree cgrid'
set grid

# Fig. 12 of seed 000: T = t / max(t_3D) against N; dashed 2D, solid 3D; red screening,
# black Munjiza-NBS. The seed normalises by the 3D time at N = 6e6; we use the largest N run.
set output dir.'/contacts-fig12.png'
set title 'Detection time T = t / max(t_{3D}) vs N (after seed 000, Fig. 12)'
set xlabel 'N, number of elements'
set ylabel 'T'
set key top left
stats '< grep -E "^3,[0-9]*,(screening|nbs)," '.csv using 7 name 'T3' nooutput
plot rows(3,'screening') using 2:($7/T3_max) with linespoints lc rgb 'red' lw 2 dt 1 title 'screening 3D', \
     rows(2,'screening') using 2:($7/T3_max) with linespoints lc rgb 'red' lw 2 dt 2 title 'screening 2D', \
     rows(3,'nbs') using 2:($7/T3_max) with linespoints lc rgb 'black' lw 2 dt 1 title 'NBS 3D', \
     rows(2,'nbs') using 2:($7/T3_max) with linespoints lc rgb 'black' lw 2 dt 2 title 'NBS 2D'

set output dir.'/contacts-ns-per-element.png'
set title 'Detection time per element (median of warm runs), elements numbered in random order'
set logscale xy
set ylabel 'ns per element'
set key outside right
plot for [i=1:words(algorithms)] rows(3,word(algorithms,i)) using 2:10 with linespoints lc i lw 2 dt 1 title word(algorithms,i).' 3D', \
     for [i=1:words(algorithms)] rows(2,word(algorithms,i)) using 2:10 with linespoints lc i lw 2 dt 2 title word(algorithms,i).' 2D'

set output dir.'/contacts-memory.png'
set title 'Working memory of each algorithm (beyond input and output)'
set ylabel 'bytes per element'
plot for [i=1:words(algorithms)] rows(3,word(algorithms,i)) using 2:($11/$2) with linespoints lc i lw 2 dt 1 title word(algorithms,i).' 3D', \
     for [i=1:words(algorithms)] rows(2,word(algorithms,i)) using 2:($11/$2) with linespoints lc i lw 2 dt 2 title word(algorithms,i).' 2D'

set output dir.'/contacts-sparse-memory.png'
sparse = dir.'/contacts-sparse.csv'
sp(a) = sprintf('< grep ",%s," %s', a, sparse)
set title 'Sparse domain: 10^5 elements in a box of growing edge (3D)'
set xlabel 'box edge / edge of the dense box'
set ylabel 'working memory, bytes (screening: what it needs; refused above the limit)'
set key top left inside
plot sp('screening') using 4:11 with linespoints lc rgb 'red' lw 2 title 'screening (dense array C)', \
     '< grep ",screening,.*refused" '.sparse using 4:11 with points pt 6 ps 3 lc rgb 'red' title 'screening refused', \
     sp('nbs') using 4:11 with linespoints lc rgb 'black' lw 2 title 'NBS', \
     sp('sorting') using 4:11 with linespoints lc rgb 'blue' lw 2 title 'sorting'

set output dir.'/contacts-polydisperse.png'
poly = dir.'/contacts-polydisperse.csv'
pp(a) = sprintf('< grep ",%s," %s', a, poly)
set title 'Size range: 10^6 random centres in 3D, 1% of the elements at r, 99% at r/Q, solid share 0.3'
set xlabel 'Q = r_{max} / r_{min}'
set ylabel 'ns per element'
set logscale xy
set key outside right
plot for [i=1:words(algorithms)] pp(word(algorithms,i)) using 5:10 with linespoints lc i lw 2 title word(algorithms,i)
