/* contact_columns.c — the columns of a contact file (output.contacts, issue 74), described
 * once for the .vtp's cell arrays, the .csv's header and rows and the binary table's
 * (contact_bin.c): name, type, components and how a row gives each value. Units: m, N, N m;
 * `sliding` 0 or 1, `age` force evaluations (-1: unknown); ids and wall numbers as thermo.csv counts walls (K of wallK_*). */
#include "io_internal.h"
#include "../dem/dem_internal.h"

#include <stdlib.h>
#include <string.h>

enum { ID1, ID2, WALL, POINT, NORMAL, FN, FT, OVERLAP, BRANCH, SPRING, SLIDING, ROLLING, AGE };

/* {name (vtp, bin), csv stem, VTK type, components, bytes, integer, bit (0: always)} */
static const rbl_contact_column columns[] = {
    {ID1, "id1", "id1", "Int64", 1, 8, 1, 0},
    {ID2, "id2", "id2", "Int64", 1, 8, 1, 0},
    {WALL, "wall", "wall", "Int32", 1, 4, 1, 0},
    {POINT, "point", "point", "Float64", 3, 8, 0, 0},
    {NORMAL, "normal", "normal", "Float64", 3, 8, 0, 0},
    {FN, "normal_force", "fn", "Float64", 3, 8, 0, 0},
    {FT, "tangential_force", "ft", "Float64", 3, 8, 0, 0},
    {OVERLAP, "overlap", "overlap", "Float64", 1, 8, 0, 0},
    {BRANCH, "branch", "branch", "Float64", 3, 8, 0, 0},
    {SPRING, "spring", "spring", "Float64", 3, 8, 0, RBL_CONTACT_SPRING},
    {SLIDING, "sliding", "sliding", "UInt8", 1, 1, 1, RBL_CONTACT_SLIDING},
    {ROLLING, "rolling_torque", "rolling_torque", "Float64", 3, 8, 0, RBL_CONTACT_ROLLING},
    {AGE, "age", "age", "Int64", 1, 8, 1, RBL_CONTACT_AGE},
};

int rbl_contact_column_count(void) { return (int)(sizeof columns / sizeof columns[0]); }

const rbl_contact_column *rbl_contact_column_at(int k) { return &columns[k]; }

int rbl_contact_column_wanted(const rbl_contact_column *c, unsigned asked)
{
    return c->bit == 0 || (c->bit & asked) != 0;
}

unsigned rbl_contact_column_bit(const char *name)
{
    for (int k = 0; k < rbl_contact_column_count(); k++)
        if (columns[k].bit && strcmp(columns[k].name, name) == 0)
            return columns[k].bit;
    return 0;
}

const char *rbl_contact_column_names(void) { return "spring, sliding, rolling_torque, age"; }

rbl_contact_value rbl_contact_column_value(const rbl_contact_column *c, const rbl_contact_row *r,
                                           int a)
{
    const rbl_contact_item *it = &r->it;
    const int wall = it->wall >= 0;
    rbl_contact_value v = {0, 0.0};
    switch (c->id) {
    case ID1: v.i = it->id1; break;
    case ID2: v.i = wall ? -1 : (int64_t)it->id2; break;
    case WALL: v.i = wall ? it->wall + 1 : -1; break; /* thermo.csv's K of wallK_* */
    case POINT: v.d = it->point[a]; break;
    case NORMAL: v.d = it->normal[a]; break;
    case FN: v.d = it->fn[a]; break;
    case FT: v.d = it->ft[a]; break;
    case OVERLAP: v.d = it->overlap; break;
    case BRANCH: v.d = it->branch[a]; break;
    case SPRING: v.d = r->x.spring[a]; break;
    case SLIDING: v.i = r->x.sliding; break;
    case ROLLING: v.d = r->x.rolling[a]; break;
    case AGE: v.i = r->x.age; break;
    default: break;
    }
    return v;
}

void *rbl_contact_column_array(const rbl_contact_column *c, const rbl_contact_row *rows, size_t n)
{
    const size_t m = (n ? n : 1) * (size_t)c->components;
    unsigned char *out = malloc(m * c->size);
    for (size_t k = 0; out && k < n; k++)
        for (int a = 0; a < c->components; a++) {
            const rbl_contact_value v = rbl_contact_column_value(c, &rows[k], a);
            void *at = out + (k * (size_t)c->components + (size_t)a) * c->size;
            if (!c->integer) {
                memcpy(at, &v.d, 8);
            } else if (c->size == 8) {
                memcpy(at, &v.i, 8);
            } else if (c->size == 4) {
                const int32_t w = (int32_t)v.i;
                memcpy(at, &w, 4);
            } else {
                *(uint8_t *)at = (uint8_t)v.i;
            }
        }
    return out;
}
