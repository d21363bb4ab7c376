# Plot of validation/contact_models.sh. dir: docs/validation; m, v0, a: the sphere's mass, its
# starting speed and the deceleration 5 mu_r g / 7.
set datafile separator ','
set terminal pngcairo size 1000,650 font 'DejaVu Sans,11'
set grid
set output dir.'/contact-models-rolling.png'
set title 'A sphere rolling on a floor with rolling friction {/Symbol m}_r = 0.1 (Hertz-Mindlin, r = 1 mm)'
set xlabel 't  [s]'
set ylabel 'kinetic energy, translation + rotation  [J]'
set key top right
set xrange [0:0.1]
theory(t) = t < v0 / a ? 0.7 * m * (v0 - a * t)**2 : 0
plot theory(x) with lines lw 6 lc rgb 'gray80' title '0.7 m (v_0 - a t)^2, a = 5 {/Symbol m}_r g / 7', \
     dir.'/contact-models-roll-cdt-rubble.csv' using 1:2 with lines lw 2 lc rgb 'blue' title 'cdt, rubble', \
     dir.'/contact-models-roll-cdt-liggghts.csv' using 1:2 with points pt 6 ps 1 lc rgb 'blue' title 'cdt, LIGGGHTS', \
     dir.'/contact-models-roll-epsd2-rubble.csv' using 1:2 with lines lw 2 dt 2 lc rgb 'red' title 'epsd2, rubble', \
     dir.'/contact-models-roll-epsd2-liggghts.csv' using 1:2 with points pt 4 ps 1 lc rgb 'red' title 'epsd2, LIGGGHTS'

# JKR: the force on the sphere from the floor over the contact; fc: the pull-off force
set output dir.'/contact-models-jkr.png'
set title 'JKR: a bead (r = 1 mm, w = 0.05 J/m^2) bouncing off a floor, no damping'
set xlabel 't  [s]'
set ylabel 'force on the bead from the floor  [N]'
set key top right
set xrange [0:0.001]
set yrange [*:*]
plot dir.'/contact-models-jkr.csv' using 1:($2 != 0 ? $2 : 1/0) with lines lw 2 lc rgb 'blue' title 'rubble', \
     -fc with lines lw 1 dt 2 lc rgb 'black' title '-3/2 {/Symbol p} w R (pull-off force)'
