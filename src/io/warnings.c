/* warnings.c — legal but likely mistaken settings (issue 44, docs/scenes.md "Warnings"): a
 * list of messages, each naming where (file:line:column, or the output folder) and the number
 * that looks wrong. A scene gathers the ones its text shows as it is read (scene_yaml.c), a
 * run those that need the grains built or the folder looked at (run.c, grain_run.c); the
 * program prints them, Python raises them as warnings; nothing stops. */
#include "scene_internal.h"

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
