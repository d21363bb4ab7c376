# Plots of validation/dem.sh. dir: docs/validation.
set datafile separator ','
set terminal pngcairo size 1000,650 font 'DejaVu Sans,11'
set grid

# Fig. 6 of seed 002: e against C, drop (v/v0 and sqrt(h/h0)) and head-on pair
set output dir.'/dem-c-iteration.png'
set title 'C iteration (after seed 002, Fig. 6): k_n = 1e5, {/Symbol g} = 100, {/Symbol r} = 2000, r = 0.1'
set logscale x
set xlabel 'C  (dt = C {/Symbol p} / {/Symbol w})'
set ylabel 'e'
set key bottom right
stats dir.'/dem-c-drop.csv' using 5 name 'D' nooutput
stats dir.'/dem-c-pair.csv' using 5 name 'P' nooutput
plot dir.'/dem-c-drop.csv' using 1:3 every ::1 with linespoints lw 2 pt 7 title 'drop, v/v_0', \
     dir.'/dem-c-drop.csv' using 1:4 every ::1 with linespoints lw 2 pt 6 dt 2 title 'drop, (h/h_0)^{1/2}', \
     D_mean with lines lw 1 lc rgb 'black' title 'drop, exact with gravity', \
     dir.'/dem-c-drop.csv' using 1:6 every ::1 with lines lw 1 dt 3 lc rgb 'gray40' title 'drop, closed form g = 0', \
     dir.'/dem-c-pair.csv' using 1:3 every ::1 with linespoints lw 2 pt 5 title 'head-on pair, v/v_0', \
     P_mean with lines lw 1 lc rgb 'red' title 'pair, closed form'
unset logscale x

# Fig. 7 of seed 002: e over (k_n, gamma) and the difference from theory
set output dir.'/dem-map.png'
set terminal pngcairo size 1300,950 font 'DejaVu Sans,10'
set multiplot layout 2,2 title 'e over (k_n, {/Symbol g}), head-on pairs, v_0 = 0.01 m/s (after seed 002, Fig. 7); white: overdamped'
set view map
set logscale x
set xlabel 'k_n  [N/m]'
set ylabel '{/Symbol g}  [N s/m]'
set palette rgbformulae 33,13,10
unset key
set title 'e_{sim}, C from {/Symbol g} = 0 (the seed)'
plot dir.'/dem-map-seed.csv' using 1:2:4 every ::1 with points pt 5 ps 1.6 palette
set title '|e_{sim} - e_{theory}|, C from {/Symbol g} = 0'
plot dir.'/dem-map-seed.csv' using 1:2:6 every ::1 with points pt 5 ps 1.6 palette
set title 'e_{sim}, C = 0.01'
plot dir.'/dem-map-c001.csv' using 1:2:4 every ::1 with points pt 5 ps 1.6 palette
set title '|e_{sim} - e_{theory}|, C = 0.01'
plot dir.'/dem-map-c001.csv' using 1:2:6 every ::1 with points pt 5 ps 1.6 palette
unset multiplot
unset logscale x

# the elastic gas: relative energy error over time
set terminal pngcairo size 1000,650 font 'DejaVu Sans,11'
set output dir.'/dem-gas-energy.png'
set title 'Elastic gas, 1000 grains, {/Symbol g} = 0, {/Symbol m} = 0, periodic: total energy'
set xlabel 'time [s]'
set ylabel '(E(t) - E(0)) / E(0)'
set key top right
rel(c) = dir.'/dem-gas-thermo-'.c.'.csv'
stats rel('0.02') using 9 every ::1::1 name 'A' nooutput
stats rel('0.01') using 9 every ::1::1 name 'B' nooutput
stats rel('0.005') using 9 every ::1::1 name 'C' nooutput
plot rel('0.02') using 1:(($9 - A_mean) / A_mean) every ::1 with lines lw 1 title 'C = 0.02', \
     rel('0.01') using 1:(($9 - B_mean) / B_mean) every ::1 with lines lw 1 title 'C = 0.01', \
     rel('0.005') using 1:(($9 - C_mean) / C_mean) every ::1 with lines lw 1 title 'C = 0.005', \
     1e-5 with lines dt 2 lc rgb 'red' title '10^{-5}', -1e-5 with lines dt 2 lc rgb 'red' notitle
