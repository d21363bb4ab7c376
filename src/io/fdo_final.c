/* fdo_final.c — an impulse scene's `output.final`: one line per object, its centre (the shape's
 * frame), the half height it reaches above that centre (so that z + half_height is its top, as
 * z + radius is a grain's: validation/repose_angle.awk reads both), its base semi-axes,
 * orientation, velocity and spin: a file source of objects reads it back (object_build.c).
 * Written atomically. */
#include "io_internal.h"

int rbl_fdo_objects_write_text(const rbl_fdo_sim *sim, const char *path, rbl_error *err)
{
    rbl_atomic_file af;
    int rc = rbl_atomic_open(&af, path, err);
    if (rc != RBL_OK)
        return rc;
    size_t n = rbl_fdo_sim_count(sim);
    fprintf(af.file, "# x y z half_height a b c qw qx qy qz vx vy vz wx wy wz (m, m/s, rad/s): "
                     "%zu objects\n", n);
    for (size_t k = 0; k < n; k++) {
        rbl_fdo_object o = {.shape = rbl_fdo_sim_shape(sim, k)};
        double v[3], w[3], top[3], semi[3];
        rbl_fdo_sim_get(sim, k, o.centre, o.quat, v, w);
        rbl_fdo_sim_semi_axes(sim, k, semi);
        rbl_fdo_support(&o, (double[3]){0, 0, 1}, top);
        fprintf(af.file, "%.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g "
                "%.17g %.17g %.17g %.17g %.17g %.17g\n", o.centre[0], o.centre[1], o.centre[2],
                top[2] - o.centre[2], semi[0], semi[1], semi[2], o.quat[0], o.quat[1], o.quat[2],
                o.quat[3], v[0], v[1], v[2], w[0], w[1], w[2]);
    }
    return rbl_atomic_commit(&af, err);
}
