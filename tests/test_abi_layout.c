/* test_abi_layout.c — a public struct that changes layout without a new ABI version is caught
 * (issue 70: rbl_fdo_params grew two fields while the SONAME stayed librubble.so.0). The size of
 * every struct include/rubble.h defines is recorded for the ABI it belongs to (RBL_ABI_VERSION,
 * the SONAME's number, on LP64 platforms); a size that differs, or a struct not recorded, fails
 * with what to do. Sizes catch fields added, removed or widened, not two swapped. */
#include "rubble.h"
#include "test_util.h"

#include <string.h>

/* When the ABI changes: raise RBL_ABI_VERSION in include/rubble.h, say so in CHANGELOG.md, and
 * record the sizes anew (the failing run prints them). */
#define RECORDED_ABI 1
typedef struct layout {
    const char *name;
    size_t size, recorded;
} layout;
#define ROW(s, bytes) {#s, sizeof(struct s), bytes}
static const layout table[] = {
    ROW(rbl_error, 516),
    ROW(rbl_elements, 80),
    ROW(rbl_pairs, 24),
    ROW(rbl_cd_options, 16),
    ROW(rbl_cd_stats, 56),
    ROW(rbl_generate_options, 72),
    ROW(rbl_contact_law, 96),
    ROW(rbl_material, 40),
    ROW(rbl_wall, 40),
    ROW(rbl_self_gravity, 48),
    ROW(rbl_sim_config, 296),
    ROW(rbl_grain, 88),
    ROW(rbl_grains_view, 96),
    ROW(rbl_thermo, 352),
    ROW(rbl_sim_timers, 80),
    ROW(rbl_pair_props, 40),
    ROW(rbl_flow_counter, 64),
    ROW(rbl_primitive, 128),
    ROW(rbl_outlet, 184),
    ROW(rbl_wall_motion, 168),
    ROW(rbl_motion_row, 64),
    ROW(rbl_wall_table, 40),
    ROW(rbl_shear, 16),
    ROW(rbl_shear_servo, 16),
    ROW(rbl_shear_state, 264),
    ROW(rbl_contact_list, 144),
    ROW(rbl_health_options, 32),
    ROW(rbl_health, 64),
    ROW(rbl_shell_options, 48),
    ROW(rbl_shell_row, 80),
    ROW(rbl_layer_options, 32),
    ROW(rbl_layer_row, 40),
    ROW(rbl_size_bin, 32),
    ROW(rbl_size_dist, 64),
    ROW(rbl_insert_spec, 296),
    ROW(rbl_pack_info, 40),
    ROW(rbl_collision, 200),
    ROW(rbl_collision_result, 72),
    ROW(rbl_collision_bin, 40),
    ROW(rbl_cg_options, 88),
    ROW(rbl_cg_fields, 144),
    ROW(rbl_cg_frame, 168),
    ROW(rbl_cg_job, 64),
    ROW(rbl_bond_params, 80),
    ROW(rbl_bond_view, 160),
    ROW(rbl_fragment, 72),
    ROW(rbl_run_status, 56),
    ROW(rbl_run_options, 96),
    ROW(rbl_rank_spread, 24),
    ROW(rbl_run_report, 2320),
    ROW(rbl_sdf, 64),
    ROW(rbl_shape, 32),
    ROW(rbl_mass_properties, 216),
    ROW(rbl_mesh, 32),
    ROW(rbl_clump, 16),
    ROW(rbl_clump_options, 16),
    ROW(rbl_quad_mesh, 32),
    ROW(rbl_clump_body, 128),
    ROW(rbl_bodies_view, 56),
    ROW(rbl_clump_job, 128),
    ROW(rbl_clump_report, 360),
    ROW(rbl_fdo_perturbation, 88),
    ROW(rbl_fdo_shape, 736),
    ROW(rbl_ellipsoid, 80),
    ROW(rbl_fdo_contact, 80),
    ROW(rbl_fdo_object, 64),
    ROW(rbl_fdo_params, 120),
    ROW(rbl_fdo_stats, 136),
};
#define N_ROWS (sizeof table / sizeof *table)

static int recorded(const char *name, size_t len)
{
    for (size_t k = 0; k < N_ROWS; k++)
        if (strlen(table[k].name) == len && strncmp(table[k].name, name, len) == 0)
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    if (sizeof(void *) != 8 || sizeof(long) != 8) {
        printf("not an LP64 platform: the sizes recorded are LP64's; nothing checked\n");
        return 0;
    }
    int failures = 0;
    if (RBL_ABI_VERSION != RECORDED_ABI) {
        printf("FAIL: RBL_ABI_VERSION is %d, the sizes below are ABI %d's: record them anew\n",
               RBL_ABI_VERSION, RECORDED_ABI);
        failures++;
    }
    for (size_t k = 0; k < N_ROWS; k++)
        if (table[k].size != table[k].recorded) {
            printf("FAIL: struct %s is %zu bytes, %zu under ABI %d: a public struct changed "
                   "layout; raise RBL_ABI_VERSION (the SONAME) and record the sizes\n",
                   table[k].name, table[k].size, table[k].recorded, RECORDED_ABI);
            failures++;
        }
    /* every struct the header defines is in the table: a new one gets a row */
    FILE *f = argc > 1 ? fopen(argv[1], "r") : NULL;
    if (!f) {
        printf("FAIL: cannot open the header (argument 1: include/rubble.h)\n");
        return 1;
    }
    char line[512];
    int seen = 0;
    while (fgets(line, sizeof line, f)) {
        const char *p = line + strlen("typedef struct ");
        if (strncmp(line, "typedef struct ", strlen("typedef struct ")) != 0)
            continue;
        size_t len = strcspn(p, " ;{");
        if (strncmp(p + len, " {", 2) != 0) /* an opaque struct: no layout */
            continue;
        seen++;
        if (!recorded(p, len)) {
            printf("FAIL: struct %.*s is not recorded here: add its row\n", (int)len, p);
            failures++;
        }
    }
    fclose(f);
    if (failures) {
        printf("this build's sizes (ABI %d):\n", RBL_ABI_VERSION);
        for (size_t k = 0; k < N_ROWS; k++)
            printf("    ROW(%s, %zu),\n", table[k].name, table[k].size);
        return 1;
    }
    ASSERT_TRUE(seen == (int)N_ROWS);
    printf("the %zu public structs have ABI %d's sizes\n", N_ROWS, RBL_ABI_VERSION);
    return 0;
}
