/* scene_cg_average.c — output.cg's `average: [y]` (issue 74, docs/cg.md "Averaged axes"):
 * the axes the fields are averaged over, each with one cell across it (the kernel integrated
 * exactly along it: src/cg/cg_kernel.c). */
#include "yaml_read.h"

#include <string.h>

int rbl_scene_parse_cg_average(rbl_yaml_ctx *c, yaml_node_t *n, const rbl_cg_options *o,
                               int average[3])
{
    memset(average, 0, 3 * sizeof *average);
    yaml_node_t *list = rbl_yaml_get(c, n, "average");
    if (!list)
        return RBL_OK;
    if (list->type != YAML_SEQUENCE_NODE)
        return rbl_yaml_fail(c, list, RBL_EPARSE, "cg: 'average' must be a list of axes, e.g. "
                             "[y]");
    for (yaml_node_item_t *it = list->data.sequence.items.start;
         it < list->data.sequence.items.top; it++) {
        yaml_node_t *axis = rbl_yaml_node(c, *it);
        const char *v = rbl_yaml_scalar(axis);
        const int a = v && strlen(v) == 1 ? v[0] - 'x' : -1;
        if (a < 0 || a > 2)
            return rbl_yaml_fail(c, axis, RBL_EPARSE, "cg: an axis to average over must be x, y "
                                 "or z: '%s'", v ? v : "?");
        if (average[a])
            return rbl_yaml_fail(c, axis, RBL_EPARSE, "cg: 'average' names %c twice", 'x' + a);
        if (o->cells[a] != 1)
            return rbl_yaml_fail(c, rbl_yaml_get(c, n, "cells"), RBL_ERANGE,
                                 "cg: averaged over %c, the grid has one cell across it: 'cells' "
                                 "%zu along %c, not 1", 'x' + a, o->cells[a], 'x' + a);
        average[a] = 1;
    }
    return RBL_OK;
}
