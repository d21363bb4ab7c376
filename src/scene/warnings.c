/* warnings.c — legal but likely mistaken settings (issue 44, docs/scenes.md "Warnings"): a
 * list of messages, each naming where (file:line:column, or the output folder) and the number
 * that looks wrong. A scene gathers the ones its text shows as it is read (scene_yaml.c), a
 * run those that need the grains built or the folder looked at (run.c, grain_run.c); the
 * program prints them, Python raises them as warnings; nothing stops. Each has a name by
 * which a scene whose value is meant turns it off: `warnings: {off: [density, ...]}`. */
#include "yaml_read.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int rbl_warnings_add(rbl_warnings *w, const char *fmt, ...)
{
    char text[RBL_ERROR_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    char **grown = realloc(w->text, (w->n + 1) * sizeof *grown);
    if (!grown)
        return 0;
    w->text = grown;
    if (!(w->text[w->n] = strdup(text)))
        return 0;
    w->n++;
    return 1;
}

int rbl_warnings_copy(rbl_warnings *to, const rbl_warnings *from)
{
    for (size_t k = 0; k < from->n; k++)
        if (!rbl_warnings_add(to, "%s", from->text[k]))
            return 0;
    return 1;
}

void rbl_warnings_free(rbl_warnings *w)
{
    for (size_t k = 0; k < w->n; k++)
        free(w->text[k]);
    free(w->text);
    w->text = NULL, w->n = 0;
}

static const char *const names[RBL_WARN_COUNT] = {
    "density",       "friction", "soft_contacts", "periodic_wall", "mesh_size", "crowded",
    "output_folder", "gravity",  "omega",         "long_run",  "cg_width"};

const char *rbl_warning_name(rbl_warning_id id)
{
    return id < RBL_WARN_COUNT ? names[id] : "?";
}

int rbl_scene_warns(const rbl_scene *s, rbl_warning_id id)
{
    return !(s->warnings_off >> id & 1u);
}

int rbl_scene_parse_warnings(rbl_yaml_ctx *c, yaml_node_t *n)
{
    static const char *const keys[] = {"off", NULL};
    if (!n)
        return RBL_OK;
    int rc = rbl_yaml_keys_known(c, n, "warnings", keys);
    yaml_node_t *off = rbl_yaml_get(c, n, "off");
    if (rc != RBL_OK || !off)
        return rc;
    if (off->type != YAML_SEQUENCE_NODE)
        return rbl_yaml_fail(c, off, RBL_EPARSE, "'warnings.off' must be a list of warning "
                             "names, as [density, gravity]");
    for (yaml_node_item_t *it = off->data.sequence.items.start; it < off->data.sequence.items.top;
         it++) {
        yaml_node_t *item = rbl_yaml_node(c, *it);
        const char *name = rbl_yaml_scalar(item);
        int id = 0;
        while (id < RBL_WARN_COUNT && !(name && strcmp(name, names[id]) == 0))
            id++;
        if (id == RBL_WARN_COUNT) {
            char list[256] = "";
            for (int k = 0; k < RBL_WARN_COUNT; k++)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", k ? ", " : "",
                         names[k]);
            char hint[RBL_DID_YOU_MEAN_MAX];
            return rbl_yaml_fail(c, item, RBL_EPARSE, "unknown warning in 'warnings.off' "
                                 "(known: %s): '%s'%s", list, name ? name : "?",
                                 rbl_did_you_mean(hint, name, names, RBL_WARN_COUNT));
        }
        c->s->warnings_off |= 1u << id;
    }
    return RBL_OK;
}
