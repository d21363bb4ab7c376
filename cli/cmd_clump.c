/* cmd_clump.c — `rubble clump`: a body (built-in shape, volume file, STL) approximated by a clump
 * of spheres as in seed 001 (Algorithms 1-3, SPEC KL1-KL4), with a summary table or one JSON
 * object, and the clump file and ParaView views in the output folder. */
#include "cli.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out,
            "usage: rubble clump (--shape KIND:SIZES | --volume FILE | --stl FILE) [options]\n"
            "  --shape KIND:SIZES  box:A,B,C  sphere:R  ellipsoid:A,B,C  octahedron:S\n"
            "                      cylinder:R,H (metres, centred at the origin)\n"
            "  --volume FILE       a rubble-sdf or rubble-voxels file (docs/clumps.md)\n"
            "  --stl FILE          a closed triangle mesh, ASCII or binary\n"
            "  --voxel H           voxel edge for --shape and --stl (default: extent / 100)\n"
            "  --pad N             empty voxels around the body (default 2)\n"
            "  --R VALUE           seed's R: no centre closer than R r_phi (default 0.85)\n"
            "  --P N               P_max, the most spheres (default 1000; 0: no limit)\n"
            "  --k VALUE           sampling step k h of Algorithms 2 and 3 (default 0.5)\n"
            "  --alpha VALUE       iso-level of Q_r, in voxels (default 0.2)\n"
            "  --density RHO       kg/m^3 (default 2500)\n"
            "  --output DIR        clump.txt, spheres.vtp, surface.vtp (default output/clump)\n"
            "  --save-sdf FILE     also write the distance field\n"
            "  --json              print the summary as one JSON object\n");
}

static void print_json(const rbl_clump_job *job, const rbl_clump_report *r)
{
    const rbl_mass_properties *p = &r->clump;
    printf("{\"spheres\": %zu, \"R\": %.17g, \"P_max\": %zu, \"voxel\": %.17g, "
           "\"grid\": [%zu, %zu, %zu], \"k\": %.17g, \"alpha\": %.17g, "
           "\"V_P\": %.17g, \"V_T\": %.17g, \"Q_V\": %.17g, \"Q_r\": %.17g, "
           "\"surface_vertices\": %zu, \"min_radius\": %.17g, \"max_radius\": %.17g, "
           "\"density\": %.17g, \"mass\": %.17g, \"centre\": [%.17g, %.17g, %.17g], "
           "\"principal_moments\": [%.17g, %.17g, %.17g], \"axes\": [",
           r->spheres, job->build.ratio, job->build.max_spheres, r->h, r->grid[0], r->grid[1],
           r->grid[2], job->k, job->alpha, r->volume_clump, r->volume_body, r->q_v, r->q_r,
           r->surface_vertices, r->min_radius, r->max_radius, p->density, p->mass, p->centre[0],
           p->centre[1], p->centre[2], p->principal[0], p->principal[1], p->principal[2]);
    for (int m = 0; m < 3; m++)
        printf("%s[%.17g, %.17g, %.17g]", m ? ", " : "", p->axes[m][0], p->axes[m][1],
               p->axes[m][2]);
    printf("], \"seconds\": {\"field\": %.6g, \"build\": %.6g, \"mass\": %.6g, "
           "\"surface\": %.6g}, \"output\": ",
           r->seconds_field, r->seconds_build, r->seconds_mass, r->seconds_surface);
    if (job->output_dir) {
        putchar('"');
        for (const char *c = job->output_dir; *c; c++) {
            if (*c == '"' || *c == '\\')
                putchar('\\');
            putchar(*c);
        }
        putchar('"');
    } else {
        printf("null");
    }
    printf("}\n");
}

static void print_table(const rbl_clump_job *job, const rbl_clump_report *r)
{
    const rbl_mass_properties *p = &r->clump;
    printf("field       %zu x %zu x %zu samples, voxel h = %.6g m (%.2f s)\n", r->grid[0],
           r->grid[1], r->grid[2], r->h, r->seconds_field);
    printf("clump       P = %zu spheres (P_max %zu, R = %g), radii %.6g .. %.6g m (%.2f s)\n",
           r->spheres, job->build.max_spheres, job->build.ratio, r->min_radius, r->max_radius,
           r->seconds_build);
    printf("V_P         %.6g m^3   (Algorithm 2, step k h = %g h; %.2f s)\n", r->volume_clump,
           job->k, r->seconds_mass);
    printf("V_T         %.6g m^3\n", r->volume_body);
    printf("Q_V         %.4f\n", r->q_v);
    printf("Q_r         %.4f       (%zu iso-surface vertices at alpha = %g h; %.2f s)\n", r->q_r,
           r->surface_vertices, job->alpha, r->seconds_surface);
    printf("mass        %.6g kg     (density %g kg/m^3)\n", p->mass, p->density);
    printf("centre      %.6g %.6g %.6g m\n", p->centre[0], p->centre[1], p->centre[2]);
    printf("principal   %.6g %.6g %.6g kg m^2\n", p->principal[0], p->principal[1],
           p->principal[2]);
    for (int m = 0; m < 3; m++)
        printf("axis %d      %+.6f %+.6f %+.6f\n", m + 1, p->axes[m][0], p->axes[m][1],
               p->axes[m][2]);
    if (job->output_dir)
        printf("wrote       %s/clump.txt, spheres.vtp, surface.vtp\n", job->output_dir);
}

int cmd_clump(int argc, char **argv)
{
    rbl_clump_job job = {.build = {.ratio = 0.85, .max_spheres = 1000}, .k = 0.5, .alpha = 0.2,
                         .density = 2500, .pad = 2, .output_dir = "output/clump",
                         .memory_limit = cli_physical_memory_bytes()};
    int json = 0, inputs = 0;
    for (int i = 1; i < argc; i++) {
        const char *v;
        double d;
        size_t z;
        rbl_error err = {0};
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(argv[i], "--json") == 0) {
            json = 1;
        } else if ((v = cli_option_value(argc, argv, &i, "--shape"))) {
            if (rbl_shape_parse(v, &job.shape, &err) != RBL_OK)
                return cli_fail("clump", EXIT_USAGE, "--shape: %s", err.message);
            job.source = RBL_CLUMP_FROM_SHAPE, inputs++;
        } else if ((v = cli_option_value(argc, argv, &i, "--volume"))) {
            job.source = RBL_CLUMP_FROM_VOLUME, job.path = v, inputs++;
        } else if ((v = cli_option_value(argc, argv, &i, "--stl"))) {
            job.source = RBL_CLUMP_FROM_STL, job.path = v, inputs++;
        } else if ((v = cli_option_value(argc, argv, &i, "--voxel"))) {
            if (cli_parse_double(v, &d) || !(d > 0))
                return cli_fail("clump", EXIT_USAGE, "--voxel '%s': expected a size > 0", v);
            job.voxel = d;
        } else if ((v = cli_option_value(argc, argv, &i, "--pad"))) {
            if (cli_parse_size(v, &z) || z < 1 || z > 1000)
                return cli_fail("clump", EXIT_USAGE, "--pad '%s': expected 1 to 1000", v);
            job.pad = (int)z;
        } else if ((v = cli_option_value(argc, argv, &i, "--R"))) {
            if (cli_parse_double(v, &d) || !(d > 0))
                return cli_fail("clump", EXIT_USAGE, "--R '%s': expected a ratio > 0", v);
            job.build.ratio = d;
        } else if ((v = cli_option_value(argc, argv, &i, "--P"))) {
            if (cli_parse_size(v, &z))
                return cli_fail("clump", EXIT_USAGE, "--P '%s': expected a whole number >= 0", v);
            job.build.max_spheres = z;
        } else if ((v = cli_option_value(argc, argv, &i, "--k"))) {
            if (cli_parse_double(v, &d) || !(d > 0 && d <= 1))
                return cli_fail("clump", EXIT_USAGE, "--k '%s': expected 0 < k <= 1", v);
            job.k = d;
        } else if ((v = cli_option_value(argc, argv, &i, "--alpha"))) {
            if (cli_parse_double(v, &d))
                return cli_fail("clump", EXIT_USAGE, "--alpha '%s': expected a number", v);
            job.alpha = d;
        } else if ((v = cli_option_value(argc, argv, &i, "--density"))) {
            if (cli_parse_double(v, &d) || !(d > 0))
                return cli_fail("clump", EXIT_USAGE, "--density '%s': expected a value > 0", v);
            job.density = d;
        } else if ((v = cli_option_value(argc, argv, &i, "--output"))) {
            if (!*v)
                return cli_fail("clump", EXIT_USAGE, "--output: expected a folder");
            job.output_dir = v;
        } else if ((v = cli_option_value(argc, argv, &i, "--save-sdf"))) {
            if (!*v)
                return cli_fail("clump", EXIT_USAGE, "--save-sdf: expected a file name");
            job.sdf_out = v;
        } else {
            usage(stderr);
            return cli_fail("clump", EXIT_USAGE, "unknown option '%s'", argv[i]);
        }
    }
    if (inputs != 1) {
        usage(stderr);
        return cli_fail("clump", EXIT_USAGE, inputs ? "give only one of --shape, --volume, --stl"
                                                    : "give one of --shape, --volume, --stl");
    }
    if ((job.source == RBL_CLUMP_FROM_VOLUME || job.source == RBL_CLUMP_FROM_STL) && !*job.path)
        return cli_fail("clump", EXIT_USAGE, "expected a file name");
    rbl_clump_report report;
    rbl_error err = {0};
    int rc = rbl_clump_job_run(&job, &report, &err);
    if (rc != RBL_OK)
        return cli_fail("clump", EXIT_INPUT,
                        "%s", err.message);
    if (json)
        print_json(&job, &report);
    else
        print_table(&job, &report);
    return 0;
}
