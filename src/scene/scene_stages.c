/* scene_stages.c — a staged study in one scene (issue 44, docs/scenes.md "Stages"):
 *
 *   stages:
 *     - {name: fill, time: 0.5}
 *     - name: shear
 *       time: 1.0
 *       gravity: [0, 0, -9.81]
 *       walls: [{name: lid, velocity: [0.01, 0, 0]}]
 *
 * Each stage runs for its time (or steps) and may change the scene: its keys are merged into
 * the scene as the stage before left it (a mapping key by key; a list of mappings item by
 * item, by `name` where the stage's item has one, else by place; `none` takes a key out; any
 * other value replaces), and the merged document is parsed as a whole scene, so a stage's
 * values are read and checked as the scene's are, at their own line. What a stage changes is
 * the difference of the two scenes' digests (scene_digest.c), each line of which must be
 * something a running simulation can take (rbl_scene_change_allowed). A stage's `grains` are
 * pours that begin at its start: they join the scene's sources (scene_yaml.c), not the merge. */
#include "yaml_read.h"
#include "../dem/law_table.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a stage entry may hold besides its length and name. */
static const char *const stage_keys[] = {"name",    "time",   "steps",   "gravity",
                                         "contact", "materials", "walls", "output",
                                         "health",  "grains", "outlets", "bonds", NULL};
/* The keys of a stage that are its own, not merged into the scene. */
static const char *const own_keys[] = {"name", "time", "steps", "grains", NULL};

static int is_none(const yaml_node_t *n)
{
    return n && n->type == YAML_SCALAR_NODE && strcmp((const char *)n->data.scalar.value,
                                                      "none") == 0;
}

static int listed(const char *name, const char *const *list)
{
    for (int k = 0; name && list[k]; k++)
        if (strcmp(name, list[k]) == 0)
            return 1;
    return 0;
}

static const char *key_name(yaml_document_t *doc, int key)
{
    yaml_node_t *k = yaml_document_get_node(doc, key);
    return k && k->type == YAML_SCALAR_NODE ? (const char *)k->data.scalar.value : NULL;
}

/* The new node keeps its original's place in the file, for messages. */
static int placed(yaml_document_t *dst, int id, const yaml_node_t *from)
{
    if (id) {
        dst->nodes.start[id - 1].start_mark = from->start_mark;
        dst->nodes.start[id - 1].end_mark = from->end_mark;
    }
    return id;
}

/* Node `at` of doc `src` copied into dst; its index there (0: out of memory). */
static int copy_node(yaml_document_t *dst, yaml_document_t *src, int at)
{
    yaml_node_t *n = yaml_document_get_node(src, at);
    if (!n)
        return 0;
    if (n->type == YAML_SCALAR_NODE)
        return placed(dst, yaml_document_add_scalar(dst, NULL, n->data.scalar.value,
                                                    (int)n->data.scalar.length,
                                                    n->data.scalar.style), n);
    if (n->type == YAML_SEQUENCE_NODE) {
        int id = placed(dst, yaml_document_add_sequence(dst, NULL, n->data.sequence.style), n);
        for (yaml_node_item_t *it = n->data.sequence.items.start;
             id && it < n->data.sequence.items.top; it++) {
            int item = copy_node(dst, src, *it);
            if (!item || !yaml_document_append_sequence_item(dst, id, item))
                return 0;
        }
        return id;
    }
    int id = placed(dst, yaml_document_add_mapping(dst, NULL, n->data.mapping.style), n);
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; id && p < n->data.mapping.pairs.top;
         p++) {
        int k = copy_node(dst, src, p->key), v = k ? copy_node(dst, src, p->value) : 0;
        if (!v || !yaml_document_append_mapping_pair(dst, id, k, v))
            return 0;
    }
    return id;
}

/* The value of `key` in mapping node m of doc (0: none). */
static int value_of(yaml_document_t *doc, yaml_node_t *m, const char *key)
{
    for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
        const char *name = key_name(doc, p->key);
        if (name && strcmp(name, key) == 0)
            return p->value;
    }
    return 0;
}

static const char *item_name(yaml_document_t *doc, int item)
{
    yaml_node_t *n = yaml_document_get_node(doc, item);
    if (!n || n->type != YAML_MAPPING_NODE)
        return NULL;
    yaml_node_t *v = yaml_document_get_node(doc, value_of(doc, n, "name"));
    return v && v->type == YAML_SCALAR_NODE ? (const char *)v->data.scalar.value : NULL;
}

static int merge(yaml_document_t *dst, yaml_document_t *da, int a, yaml_document_t *db, int b);

static int is_list_of_maps(yaml_node_t *n, yaml_document_t *doc)
{
    if (!n || n->type != YAML_SEQUENCE_NODE)
        return 0;
    for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top;
         it++)
        if (yaml_document_get_node(doc, *it)->type != YAML_MAPPING_NODE)
            return 0;
    return 1;
}

/* Lists of mappings, item by item: a stage's item with a `name` merges into the scene's item
 * of that name, one without into the item in its place; the others are added at the end. */
static int merge_items(yaml_document_t *dst, yaml_document_t *da, yaml_node_t *a,
                       yaml_document_t *db, yaml_node_t *b)
{
    int id = placed(dst, yaml_document_add_sequence(dst, NULL, a->data.sequence.style), b);
    const int nb = (int)(b->data.sequence.items.top - b->data.sequence.items.start);
    char *used = calloc((size_t)nb + 1, 1);
    if (!used)
        return 0;
    int i = 0;
    for (yaml_node_item_t *it = a->data.sequence.items.start;
         id && it < a->data.sequence.items.top; it++, i++) {
        const char *name = item_name(da, *it);
        int match = -1;
        for (int j = 0; name && match < 0 && j < nb; j++) {
            const char *other = item_name(db, b->data.sequence.items.start[j]);
            if (!used[j] && other && strcmp(other, name) == 0)
                match = j;
        }
        if (match < 0 && i < nb && !used[i] && !item_name(db, b->data.sequence.items.start[i]))
            match = i;
        if (match >= 0)
            used[match] = 1;
        int item = match >= 0 ? merge(dst, da, *it, db, b->data.sequence.items.start[match])
                              : copy_node(dst, da, *it);
        if (!item || !yaml_document_append_sequence_item(dst, id, item))
            id = 0;
    }
    for (int j = 0; id && j < nb; j++) {
        int item = used[j] ? -1 : copy_node(dst, db, b->data.sequence.items.start[j]);
        if (!item || (item > 0 && !yaml_document_append_sequence_item(dst, id, item)))
            id = 0;
    }
    free(used);
    return id;
}

/* Node a of da with node b of db merged over it (b 0: a as it is), into dst; at this level,
 * keys of a in drop and keys of b in skip are left out. Its index in dst (0: out of memory). */
static int merge_keys(yaml_document_t *dst, yaml_document_t *da, int a, yaml_document_t *db,
                      int b, const char *const *drop, const char *const *skip)
{
    static const char *const nothing[] = {NULL};
    drop = drop ? drop : nothing, skip = skip ? skip : nothing;
    yaml_node_t *na = yaml_document_get_node(da, a), *nb = yaml_document_get_node(db, b);
    if (nb && na->type == YAML_SEQUENCE_NODE && is_list_of_maps(na, da) &&
        is_list_of_maps(nb, db))
        return merge_items(dst, da, na, db, nb);
    if (nb && (na->type != YAML_MAPPING_NODE || nb->type != YAML_MAPPING_NODE))
        return copy_node(dst, db, b);
    if (na->type != YAML_MAPPING_NODE)
        return copy_node(dst, da, a);
    int id = placed(dst, yaml_document_add_mapping(dst, NULL, na->data.mapping.style), na);
    for (yaml_node_pair_t *p = na->data.mapping.pairs.start; id && p < na->data.mapping.pairs.top;
         p++) {
        const char *name = key_name(da, p->key);
        if (listed(name, drop))
            continue;
        int over = nb && name && !listed(name, skip) ? value_of(db, nb, name) : 0;
        if (is_none(yaml_document_get_node(db, over)))
            continue;
        int k = copy_node(dst, da, p->key), v = k ? merge(dst, da, p->value, db, over) : 0;
        if (!v || !yaml_document_append_mapping_pair(dst, id, k, v))
            id = 0;
    }
    for (yaml_node_pair_t *p = nb ? nb->data.mapping.pairs.start : NULL;
         id && nb && p < nb->data.mapping.pairs.top; p++) {
        const char *name = key_name(db, p->key);
        if (!name || value_of(da, na, name) || is_none(yaml_document_get_node(db, p->value)) ||
            listed(name, skip))
            continue;
        int k = copy_node(dst, db, p->key), v = k ? copy_node(dst, db, p->value) : 0;
        if (!v || !yaml_document_append_mapping_pair(dst, id, k, v))
            id = 0;
    }
    return id;
}

static int merge(yaml_document_t *dst, yaml_document_t *da, int a, yaml_document_t *db, int b)
{
    return merge_keys(dst, da, a, db, b, NULL, NULL);
}

/* The first change a stage makes that a running simulation cannot take, as an error at the
 * stage's entry. */
static int changes_allowed(rbl_scene *s, const rbl_scene_stage *st, int k, rbl_error *err)
{
    size_t len = 0;
    const char *line = rbl_changes_refused(st->changes, 1, &len);
    if (line) {
        rbl_error_set(err, RBL_EPARSE,
                      "stage %d ('%s') changes '%.*s', which a running simulation cannot take: "
                      "a stage may change gravity, the contact law's coefficients (not its "
                      "models), materials' friction, restitution and elasticity, walls' motions "
                      "and servos, walls taken away or put in (present), outlets opened or "
                      "closed, the health check, output's every and thermo_every, and make "
                      "bonds (a `bonds` block) "
                      "(docs/scenes.md \"Stages\")",
                      k + 1, st->name, (int)(len < 300 ? len : 300), line);
        return rbl_scene_error_at(s, st->at, err);
    }
    return RBL_OK;
}

/* The lists whose items a stage changes by name, and what one item is called. */
static const char *const named_lists[][2] = {
    {"walls", "wall"}, {"materials", "material"}, {"outlets", "outlet"}};

/* A stage's item of walls, materials or outlets with a `name` that no item of the scene as
 * the stage finds it (base: the root of that document) has, or without a name at a place
 * beyond the scene's list: refused at the item, naming the name or place and the items there
 * are (merged, it would be added as a new item and read by that item's grammar: "an outlet is
 * one of a plane ..." or "'wall' needs 'point'" instead of what is wrong; a stage adds none). */
static int names_known(rbl_yaml_ctx *c, yaml_document_t *base, yaml_node_t *root,
                       yaml_node_t *entry, int k, const rbl_scene_stage *st)
{
    for (size_t l = 0; l < sizeof named_lists / sizeof *named_lists; l++) {
        const char *list = named_lists[l][0], *what = named_lists[l][1];
        yaml_node_t *ours = yaml_document_get_node(c->doc, value_of(c->doc, entry, list));
        yaml_node_t *theirs = yaml_document_get_node(base, value_of(base, root, list));
        if (!ours || ours->type != YAML_SEQUENCE_NODE)
            continue;
        const int n = theirs && theirs->type == YAML_SEQUENCE_NODE
                          ? (int)(theirs->data.sequence.items.top -
                                  theirs->data.sequence.items.start)
                          : 0;
        for (yaml_node_item_t *it = ours->data.sequence.items.start;
             it < ours->data.sequence.items.top; it++) {
            const char *name = item_name(c->doc, *it);
            const int place = (int)(it - ours->data.sequence.items.start);
            int found = !name && place < n;
            for (int j = 0; name && !found && j < n; j++) {
                const char *other = item_name(base, theirs->data.sequence.items.start[j]);
                found = other && strcmp(other, name) == 0;
            }
            if (found)
                continue;
            char there[600] = "none"; /* the first 8, each name at most 64 bytes */
            size_t used = 0;
            for (int j = 0; j < n && j < 8; j++) {
                const char *other = item_name(base, theirs->data.sequence.items.start[j]);
                int w = other ? snprintf(there + used, sizeof there - used, "%s'%.64s'",
                                         j ? ", " : "", other)
                              : snprintf(there + used, sizeof there - used,
                                         "%s%s %d (no name)", j ? ", " : "", what, j + 1);
                used += w > 0 ? (size_t)w : 0;
            }
            if (n > 8)
                snprintf(there + used, sizeof there - used, " and %d more", n - 8);
            char missing[160];
            if (name)
                snprintf(missing, sizeof missing, "no %s named '%.64s'", what, name);
            else
                snprintf(missing, sizeof missing, "no %s %d (its entry %d has no 'name', and "
                         "the scene has %d)", what, place + 1, place + 1, n);
            return rbl_yaml_fail(c, yaml_document_get_node(c->doc, *it), RBL_EPARSE,
                                 "stage %d ('%s'): %s: the scene's %s are %s; a stage finds an "
                                 "item by the 'name' the scene gives it, or, without 'name', by "
                                 "its place in the list (it adds none%s)",
                                 k + 1, st->name, missing, list, there,
                                 strcmp(list, "walls") == 0
                                     ? "; a wall a stage puts in is in the scene's walls, "
                                       "named, with present: false, and the stage sets "
                                       "present: true"
                                     : "");
        }
    }
    return RBL_OK;
}

/* The scalar node id of doc names, or NULL. */
static const char *scalar_of(yaml_document_t *doc, int id)
{
    yaml_node_t *v = id ? yaml_document_get_node(doc, id) : NULL;
    return v && v->type == YAML_SCALAR_NODE ? (const char *)v->data.scalar.value : NULL;
}

/* A stage's contact block families (cohesion, rolling, twisting: law_table.h) keep the
 * scene's models, checked before the merge, where the stage's own lines are known: a stage
 * naming another model, or `none` for the block (which the merge reads as taking the key
 * out, leaving a block without its model: it was refused at the scene's `contact` line as
 * "'twisting' needs 'model'"), is refused at its line as the change it is; an empty block is
 * refused (it changes nothing, as a mistake would: the top's is refused as needing 'model'). */
static int blocks_kept(rbl_yaml_ctx *c, yaml_document_t *base, yaml_node_t *root,
                       yaml_node_t *entry, int k, const rbl_scene_stage *st)
{
    yaml_node_t *ours = yaml_document_get_node(c->doc, value_of(c->doc, entry, "contact"));
    yaml_node_t *theirs = yaml_document_get_node(base, value_of(base, root, "contact"));
    if (!ours || ours->type != YAML_MAPPING_NODE)
        return RBL_OK;
    for (int f = 0; f < rbl_law_n_families; f++) {
        const rbl_law_family_row *fam = &rbl_law_families[f];
        yaml_node_t *block = fam->block ? yaml_document_get_node(c->doc,
                                                                 value_of(c->doc, ours, fam->key))
                                        : NULL;
        if (!block)
            continue;
        yaml_node_t *was = theirs && theirs->type == YAML_MAPPING_NODE
                               ? yaml_document_get_node(base, value_of(base, theirs, fam->key))
                               : NULL;
        const char *scene_model = was && was->type == YAML_MAPPING_NODE
                                      ? scalar_of(base, value_of(base, was, "model"))
                                      : NULL;
        if (!scene_model)
            scene_model = "none";
        if (block->type == YAML_MAPPING_NODE &&
            block->data.mapping.pairs.top == block->data.mapping.pairs.start)
            return rbl_yaml_fail(c, block, RBL_EPARSE,
                                 "stage %d ('%s'): 'contact.%s' is empty, which changes nothing: "
                                 "give the coefficients it changes (its model stays the "
                                 "scene's, %s)",
                                 k + 1, st->name, fam->key, scene_model);
        yaml_node_t *at = block;
        const char *model = is_none(block) ? "none" : NULL;
        if (block->type == YAML_MAPPING_NODE) {
            const int id = value_of(c->doc, block, "model");
            model = scalar_of(c->doc, id);
            at = id ? yaml_document_get_node(c->doc, id) : block;
        }
        if (model && strcmp(model, scene_model) != 0)
            return rbl_yaml_fail(c, at, RBL_EPARSE,
                                 "stage %d ('%s') changes contact.%s's model from %s to %s, "
                                 "which a running simulation cannot take: a stage keeps the "
                                 "scene's models and may change their coefficients "
                                 "(docs/scenes.md \"Stages\")",
                                 k + 1, st->name, fam->key, scene_model, model);
    }
    return RBL_OK;
}

/* One stage's entry: its keys, name and length. */
static int stage_entry(rbl_yaml_ctx *c, yaml_node_t *n, int k, rbl_scene_stage *st)
{
    static const char *const output_keys[] = {"every", "thermo_every", NULL};
    int rc = rbl_yaml_keys_known(c, n, "stages", stage_keys);
    if (rc != RBL_OK)
        return rc;
    st->at = rbl_yaml_mark(n);
    const char *name = rbl_yaml_scalar(rbl_yaml_get(c, n, "name"));
    char fallback[32];
    snprintf(fallback, sizeof fallback, "stage %d", k + 1);
    if (rbl_yaml_get(c, n, "name") && (!name || !*name || strlen(name) > 64))
        return rbl_yaml_fail(c, rbl_yaml_get(c, n, "name"), RBL_EPARSE,
                             "a stage's 'name' is a word or a few (at most 64 characters)");
    st->name = strdup(name ? name : fallback);
    if (!st->name)
        return rbl_error_set(c->err, RBL_ENOMEM, "out of memory");
    double steps = 0.0;
    if ((rc = rbl_yaml_opt_number(c, n, "time", &st->time, 0.0, 1, INFINITY)) != RBL_OK ||
        (rc = rbl_yaml_opt_number(c, n, "steps", &steps, 1.0, 0, 1e15)) != RBL_OK)
        return rc;
    if (!!rbl_yaml_get(c, n, "time") + !!rbl_yaml_get(c, n, "steps") != 1)
        return rbl_yaml_fail(c, n, RBL_EPARSE, "stage %d ('%s') needs exactly one of 'time' (s) "
                             "and 'steps'", k + 1, st->name);
    if (steps != floor(steps))
        return rbl_yaml_fail(c, rbl_yaml_get(c, n, "steps"), RBL_ERANGE,
                             "'steps' must be a whole number: '%s'",
                             rbl_yaml_scalar(rbl_yaml_get(c, n, "steps")));
    st->steps = (uint64_t)steps;
    yaml_node_t *out = rbl_yaml_get(c, n, "output");
    if (out && (rc = rbl_yaml_keys_known(c, out, "a stage's output", output_keys)) != RBL_OK)
        return rc;
    for (int j = 0; j < k; j++)
        if (strcmp(c->s->stages[j].name, st->name) == 0)
            return rbl_yaml_fail(c, n, RBL_EPARSE, "two stages are named '%s'", st->name);
    return RBL_OK;
}

int rbl_scene_parse_stages(rbl_scene *s, yaml_document_t *doc, int stages_node, rbl_error *err)
{
    rbl_yaml_ctx c = {s, doc, err, 0, 0, NULL};
    yaml_node_t *n = rbl_yaml_node(&c, stages_node);
    s->at_stages = rbl_yaml_mark(n);
    if (s->impulse)
        return rbl_yaml_fail(&c, n, RBL_EPARSE, "stages are for grains; an impulse scene runs "
                             "as one stage");
    if (n->type != YAML_SEQUENCE_NODE || n->data.sequence.items.top == n->data.sequence.items.start)
        return rbl_yaml_fail(&c, n, RBL_EPARSE, "'stages' must be a list of stages, each with "
                             "its 'time' or 'steps'");
    const int count = (int)(n->data.sequence.items.top - n->data.sequence.items.start);
    if (count > 10000)
        return rbl_yaml_fail(&c, n, RBL_ERANGE, "%d stages: a scene holds at most 10000", count);
    s->stages = calloc((size_t)count, sizeof *s->stages);
    if (!s->stages)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory");
    /* the scene each stage leaves, merged step by step from the scene's own (less `stages`) */
    static const char *const drop[] = {"stages", NULL};
    yaml_document_t prev = {0}, next;
    int have_prev = 0, rc = RBL_OK;
    const rbl_scene *before = s;
    for (int k = 0; rc == RBL_OK && k < count; k++) {
        const int entry = n->data.sequence.items.start[k];
        rbl_scene_stage *st = &s->stages[k];
        s->n_stages = k + 1;
        if ((rc = stage_entry(&c, rbl_yaml_node(&c, entry), k, st)) != RBL_OK)
            break;
        yaml_document_t *base = have_prev ? &prev : doc;
        yaml_node_t *root = yaml_document_get_root_node(base);
        if ((rc = names_known(&c, base, root, rbl_yaml_node(&c, entry), k, st)) != RBL_OK ||
            (rc = blocks_kept(&c, base, root, rbl_yaml_node(&c, entry), k, st)) != RBL_OK)
            break;
        yaml_tag_directive_t none = {0};
        if (!yaml_document_initialize(&next, NULL, &none, &none, 1, 1)) {
            rc = rbl_error_set(err, RBL_ENOMEM, "out of memory");
            break;
        }
        if (!merge_keys(&next, base, (int)(root - base->nodes.start) + 1, doc, entry, drop,
                        own_keys)) {
            yaml_document_delete(&next);
            rc = rbl_error_set(err, RBL_ENOMEM, "out of memory");
            break;
        }
        if (have_prev)
            yaml_document_delete(&prev);
        prev = next, have_prev = 1;
        if (!(st->scene = rbl_scene_new(s->path)))
            rc = rbl_error_set(err, RBL_ENOMEM, "out of memory");
        else
            rc = rbl_scene_parse_document(st->scene, &prev, 1, err);
        if (rc == RBL_OK)
            rc = rbl_digest_changes(before->digest, strlen(before->digest), st->scene->digest, 0,
                                    &st->changes, err);
        if (rc == RBL_OK)
            rc = changes_allowed(s, st, k, err);
        before = st->scene;
    }
    if (have_prev)
        yaml_document_delete(&prev);
    return rc;
}

int rbl_scene_bonded(const rbl_scene *s)
{
    int bonded = s->bonds;
    for (int k = 0; k < s->n_stages && !bonded; k++)
        bonded = s->stages[k].scene && s->stages[k].scene->bonds;
    return bonded;
}

const rbl_scene *rbl_scene_stage_scene(const rbl_scene *s, int k)
{
    return k <= 0 || k > s->n_stages ? s : s->stages[k - 1].scene;
}
