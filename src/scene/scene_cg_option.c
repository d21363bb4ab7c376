/* scene_cg_option.c — output.cg's mapping given apart from its scene (`rubble cg --cg '{cells:
 * [4, 4, 16], width: 0.002}'`, issue 74): read as YAML and checked by the scene's own reader
 * (rbl_scene_parse_cg), against the scene's domain; its messages name the option. */
#include "yaml_read.h"

#include <string.h>

int rbl_scene_set_cg(rbl_scene *s, const char *text, const char *name, rbl_error *err)
{
    yaml_parser_t parser;
    yaml_document_t doc;
    if (!yaml_parser_initialize(&parser))
        return rbl_error_set(err, RBL_ENOMEM, "out of memory");
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, strlen(text));
    int rc = RBL_OK;
    if (!yaml_parser_load(&parser, &doc)) {
        rc = rbl_error_set(err, RBL_EPARSE, "%s:%d:%d: %s%s%s", name,
                           (int)parser.problem_mark.line + 1,
                           (int)parser.problem_mark.column + 1,
                           parser.problem ? parser.problem : "YAML syntax error",
                           parser.context ? " " : "", parser.context ? parser.context : "");
        yaml_parser_delete(&parser);
        return rc;
    }
    yaml_parser_delete(&parser);
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    if (!root || root->type != YAML_MAPPING_NODE) {
        yaml_document_delete(&doc);
        return rbl_error_set(err, RBL_EPARSE, "%s: output.cg's keys as a mapping, as "
                             "'{cells: [4, 4, 16], width: 0.002}': '%.60s'", name, text);
    }
    rbl_yaml_ctx c = {.s = s, .doc = &doc, .err = err};
    char *path = s->path;
    const double every = s->cg_every;
    s->path = (char *)name; /* the messages' place */
    s->cg_every = 1.0;      /* not used after the run: the inputs are the samples */
    memset(&s->cg_opt, 0, sizeof s->cg_opt);
    rc = rbl_scene_parse_cg(&c, root);
    s->path = path, s->cg_every = every;
    yaml_document_delete(&doc);
    return rc;
}
