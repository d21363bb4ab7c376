# Pressure per shell of the settled rubble pile (asteroid.sh): the seed's shell formula and the
# grains' stress against P = 2/3 pi G rho_a^2 (R^2 - r^2), seed 002 Fig. 12
set datafile separator ','
set terminal pngcairo size 1000,650 font 'DejaVu Sans,11'
set output dir.'/asteroid-pressure.png'
set title 'Settled rubble pile: pressure against distance from the centre of mass'
set xlabel 'r [m]'
set ylabel 'pressure [Pa]'
set grid
set key top right
P(r, rho, R) = r < R ? 2.0 / 3.0 * pi * G * rho**2 * (R**2 - r**2) : 0
set xrange [0:12]
set samples 200
plot dir.'/asteroid-shells.csv' every ::2 using 2:5 with points pt 7 ps 1.3 title 'rubble: seed formula P_k (at the shell radius)', \
     dir.'/asteroid-shells.csv' every ::2 using (($1 + $2) / 2):6 with points pt 5 ps 1.3 title 'rubble: bulk stress -tr({/Symbol S} V_p {/Symbol s}_p)/(3 V_{shell})', \
     P(x, bulk, Rb) with lines lw 2 title sprintf('theory, measured bulk density %.0f kg/m^3, R = %.2f m', bulk, Rb), \
     P(x, seed, Rs) with lines lw 2 dt 2 title sprintf('theory, seed density {/Symbol p}/6 {/Symbol r} = %.0f kg/m^3, R = %.2f m', seed, Rs)

# the settled body seen along z (centres and radii from settled.txt)
set datafile separator whitespace
set output dir.'/asteroid-settled.png'
set title 'Settled rubble pile: the grains projected on the x-y plane (colour: z)'
set xlabel 'x [m]'
set ylabel 'y [m]'
set size ratio -1
unset key
set autoscale
set xrange [*:*]
plot dir.'/asteroid-settled.txt' using 1:2:4:3 with circles fill solid 0.5 lc palette
