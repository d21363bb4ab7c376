/* partition_zoltan.c — the cuts by Zoltan's recursive coordinate bisection (Debian's
 * libtrilinos-zoltan-dev): weighted by each grain's cost, kept so that each rank's box can be
 * read back (Zoltan_RCB_Box). Deterministic: the same grains on the same ranks give the same
 * cuts. */
#include "parallel_internal.h"

#include <math.h>
#include <mpi.h>
#include <stdlib.h>
#include <zoltan.h>

typedef struct grains_in {
    int rank;
    size_t n;
    const double *pos, *weight;
} grains_in;

static int count(void *data, int *ierr)
{
    *ierr = ZOLTAN_OK;
    return (int)((grains_in *)data)->n;
}

/* Global ids of two entries: the rank, then the grain's index there. */
static void list(void *data, int n_gid, int n_lid, ZOLTAN_ID_PTR gid, ZOLTAN_ID_PTR lid,
                 int wdim, float *w, int *ierr)
{
    (void)n_gid, (void)n_lid, (void)wdim;
    const grains_in *g = data;
    for (size_t k = 0; k < g->n; k++) {
        gid[2 * k] = (ZOLTAN_ID_TYPE)g->rank, gid[2 * k + 1] = (ZOLTAN_ID_TYPE)k;
        lid[k] = (ZOLTAN_ID_TYPE)k;
        w[k] = (float)g->weight[k];
    }
    *ierr = ZOLTAN_OK;
}

static int dimensions(void *data, int *ierr)
{
    (void)data;
    *ierr = ZOLTAN_OK;
    return 3;
}

static void coordinates(void *data, int n_gid, int n_lid, int n, ZOLTAN_ID_PTR gid,
                        ZOLTAN_ID_PTR lid, int dim, double *x, int *ierr)
{
    (void)n_gid, (void)n_lid, (void)gid, (void)dim;
    const grains_in *g = data;
    for (int k = 0; k < n; k++)
        for (int a = 0; a < 3; a++)
            x[3 * k + a] = g->pos[3 * (size_t)lid[k] + a];
    *ierr = ZOLTAN_OK;
}

int rbl_partition_boxes(rbl_comm *c, size_t n, const double *pos, const double *weight,
                        double *box_lo, double *box_hi, rbl_error *err)
{
    if (rbl_comm_size(c) == 1) { /* one rank: all of it (Zoltan keeps no cuts then) */
        for (int a = 0; a < 3; a++)
            box_lo[a] = -INFINITY, box_hi[a] = INFINITY;
        return RBL_OK;
    }
    static int initialised;
    float version;
    if (!initialised && Zoltan_Initialize(0, NULL, &version) != ZOLTAN_OK)
        return rbl_comm_agree(c, rbl_error_set(err, RBL_EIO, "Zoltan could not start"), err);
    initialised = 1;
    int rc = rbl_comm_agree(c, n > (size_t)INT32_MAX
                                   ? rbl_error_set(err, RBL_ETOOBIG, "%zu grains on one rank", n)
                                   : RBL_OK,
                            err);
    if (rc != RBL_OK)
        return rc;
    grains_in g = {rbl_comm_rank(c), n, pos, weight};
    struct Zoltan_Struct *z = Zoltan_Create(MPI_COMM_WORLD);
    if (!z)
        return rbl_comm_agree(c, rbl_error_set(err, RBL_ENOMEM, "Zoltan: out of memory"), err);
    static const char *const params[][2] = {
        {"DEBUG_LEVEL", "0"},     {"LB_METHOD", "RCB"},       {"NUM_GID_ENTRIES", "2"},
        {"NUM_LID_ENTRIES", "1"}, {"OBJ_WEIGHT_DIM", "1"},    {"RETURN_LISTS", "NONE"},
        {"KEEP_CUTS", "1"},       {"IMBALANCE_TOL", "1.02"},  {"RCB_OUTPUT_LEVEL", "0"},
        {"AVERAGE_CUTS", "1"},
    };
    for (size_t k = 0; k < sizeof params / sizeof *params; k++)
        Zoltan_Set_Param(z, params[k][0], params[k][1]);
    Zoltan_Set_Num_Obj_Fn(z, count, &g);
    Zoltan_Set_Obj_List_Fn(z, list, &g);
    Zoltan_Set_Num_Geom_Fn(z, dimensions, &g);
    Zoltan_Set_Geom_Multi_Fn(z, coordinates, &g);
    int changes, n_gid, n_lid, n_import, n_export;
    ZOLTAN_ID_PTR import_gid = NULL, import_lid = NULL, export_gid = NULL, export_lid = NULL;
    int *import_proc = NULL, *import_part = NULL, *export_proc = NULL, *export_part = NULL;
    int zrc = Zoltan_LB_Partition(z, &changes, &n_gid, &n_lid, &n_import, &import_gid,
                                  &import_lid, &import_proc, &import_part, &n_export,
                                  &export_gid, &export_lid, &export_proc, &export_part);
    Zoltan_LB_Free_Part(&import_gid, &import_lid, &import_proc, &import_part);
    Zoltan_LB_Free_Part(&export_gid, &export_lid, &export_proc, &export_part);
    for (int q = 0; zrc == ZOLTAN_OK && q < rbl_comm_size(c); q++) {
        int dim;
        double *l = box_lo + 3 * q, *h = box_hi + 3 * q;
        zrc = Zoltan_RCB_Box(z, q, &dim, l, l + 1, l + 2, h, h + 1, h + 2);
    }
    Zoltan_Destroy(&z);
    return rbl_comm_agree(
        c, zrc == ZOLTAN_OK ? RBL_OK : rbl_error_set(err, RBL_EIO, "Zoltan's RCB failed (%d)", zrc),
        err);
}
