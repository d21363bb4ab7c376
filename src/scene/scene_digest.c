/* scene_digest.c — what a checkpoint does not carry of its scene, as text: every setting of the
 * scene file as a sorted "path: value" line (so key order, layout and comments do not matter),
 * less those a restart may change (the run's length and threads, the output folder and event
 * intervals, the health check), plus a hash of each clump file's spheres and of each mesh
 * wall's welded mesh (its STL may change under the same scene text). A restart compares it
 * with its scene's and names the first setting that differs. */
#include "scene_internal.h"
#include "../dem/law_table.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

/* A restart may change these: how long it runs, with how many threads, what it writes where
 * (not output.flow: its counters count from the start, and thermo.csv's rows so far have its
 * columns), how closely its health is checked, how far an impulse scene's solve goes, and
 * which warnings it says. */
static const char *const may_change[] = {"run.time", "run.steps", "run.threads",
                                         "output.folder", "output.every", "output.thermo_every",
                                         "output.checkpoint_every", "output.checkpoint_keep",
                                         "output.final", "output.fields", "output.contacts",
                                         "output.cg", "output.wall_loads", "output.collisions",
                                         "health", "impulse.iterations", "impulse.tolerance",
                                         "impulse.solver", "warnings", NULL};

typedef struct lines {
    char **v;
    size_t n, cap;
    int failed;
} lines;

static void add(lines *l, char *line)
{
    if (!line || !rbl_grow_array((void **)&l->v, &l->cap, l->n + 1, sizeof *l->v)) {
        free(line);
        l->failed = 1;
        return;
    }
    l->v[l->n++] = line;
}

static char *join(const char *a, const char *sep, const char *b)
{
    size_t n = strlen(a) + strlen(sep) + strlen(b) + 1;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s%s%s", a, sep, b);
    return s;
}

static void walk(yaml_document_t *doc, yaml_node_t *n, const char *path, lines *out)
{
    if (!n || out->failed)
        return;
    for (int i = 0; may_change[i]; i++)
        if (strcmp(path, may_change[i]) == 0)
            return;
    if (n->type == YAML_SCALAR_NODE) {
        add(out, join(path, ": ", (const char *)n->data.scalar.value));
    } else if (n->type == YAML_SEQUENCE_NODE) {
        size_t k = 0;
        for (yaml_node_item_t *it = n->data.sequence.items.start;
             it < n->data.sequence.items.top; it++, k++) {
            char index[32];
            snprintf(index, sizeof index, "[%zu]", k);
            char *sub = join(path, "", index);
            if (!sub) {
                out->failed = 1;
                return;
            }
            walk(doc, yaml_document_get_node(doc, *it), sub, out);
            free(sub);
        }
    } else if (n->type == YAML_MAPPING_NODE) {
        for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top;
             p++) {
            yaml_node_t *key = yaml_document_get_node(doc, p->key);
            const char *name = key && key->type == YAML_SCALAR_NODE
                                   ? (const char *)key->data.scalar.value : "?";
            char *sub = join(path, *path ? "." : "", name);
            if (!sub) {
                out->failed = 1;
                return;
            }
            walk(doc, yaml_document_get_node(doc, p->value), sub, out);
            free(sub);
        }
    }
}

static int by_text(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int rbl_scene_digest(rbl_scene *s, struct yaml_document_s *doc, rbl_error *err)
{
    lines l = {0};
    walk(doc, yaml_document_get_root_node(doc), "", &l);
    for (int k = 0; k < s->n_sources && !l.failed; k++) {
        const rbl_clump *c = &s->sources[k].clump;
        if (!s->sources[k].clump_file)
            continue;
        char line[96];
        snprintf(line, sizeof line, "grains[%d].clump spheres: %zu, hash %016llx", k, c->n,
                 (unsigned long long)rbl_fnv1a(RBL_FNV1A_START, c->sphere,
                                               c->n * 4 * sizeof *c->sphere));
        add(&l, strdup(line));
    }
    /* a mesh wall's STL may change under the same scene text: its welded mesh, hashed */
    for (int k = 0; k < s->n_meshes && !l.failed; k++) {
        const rbl_mesh *m = &s->meshes[k];
        uint64_t h = rbl_fnv1a(RBL_FNV1A_START, m->vertex, 3 * m->n_vertices * sizeof *m->vertex);
        h = rbl_fnv1a(h, m->triangle, 3 * m->n_triangles * sizeof *m->triangle);
        char line[128];
        snprintf(line, sizeof line, "mesh wall %d: %zu corners, %zu facets, hash %016llx",
                 k + 1, m->n_vertices, m->n_triangles, (unsigned long long)h);
        add(&l, strdup(line));
    }
    size_t bytes = 1;
    for (size_t k = 0; k < l.n; k++)
        bytes += strlen(l.v[k]) + 1;
    char *text = l.failed ? NULL : malloc(bytes);
    if (text) {
        qsort(l.v, l.n, sizeof *l.v, by_text);
        char *at = text;
        for (size_t k = 0; k < l.n; k++) {
            size_t len = strlen(l.v[k]);
            memcpy(at, l.v[k], len);
            at += len;
            *at++ = '\n';
        }
        *at = '\0';
    }
    for (size_t k = 0; k < l.n; k++)
        free(l.v[k]);
    free(l.v);
    if (!text)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory");
    free(s->digest);
    s->digest = text;
    return RBL_OK;
}

/* The next line of text at *at (without its newline), or NULL at the end. */
static const char *next_line(const char **at, size_t *len)
{
    if (!**at)
        return NULL;
    const char *line = *at, *end = strchr(line, '\n');
    *len = end ? (size_t)(end - line) : strlen(line);
    *at = line + *len + (end != NULL);
    return line;
}

/* Whether line a sorts before line b (as strcmp sorted them). */
static int line_before(const char *a, size_t na, const char *b, size_t nb)
{
    int c = memcmp(a, b, na < nb ? na : nb);
    return c < 0 || (c == 0 && na < nb);
}

/* Length of the "path" of a "path: value" line. */
static int key_length(const char *line, size_t n)
{
    const char *colon = memchr(line, ':', n);
    return (int)(colon ? (size_t)(colon - line) : n);
}

static int under(const char *path, size_t len, const char *prefix);

/* Whether a digest (n bytes) has a line of the scene's `stages`. */
static int has_stages(const char *digest, size_t n)
{
    for (const char *at = digest, *end = digest + n; at < end;) {
        const char *eol = memchr(at, '\n', (size_t)(end - at));
        const size_t len = eol ? (size_t)(eol - at) : (size_t)(end - at);
        if (under(at, (size_t)key_length(at, len), "stages"))
            return 1;
        at += len + 1;
    }
    return 0;
}

/* The digest less its `stages` lines (malloc'd; NULL when out of memory). */
static char *without_stages(const char *digest)
{
    char *out = malloc(strlen(digest) + 1), *to = out;
    const char *at = digest, *line;
    size_t n = 0;
    while (out && (line = next_line(&at, &n)) != NULL)
        if (!under(line, (size_t)key_length(line, n), "stages")) {
            memcpy(to, line, n);
            to += n;
            *to++ = '\n';
        }
    if (out)
        *to = '\0';
    return out;
}

int rbl_scene_digest_compare(const rbl_scene *s, const char *theirs, size_t theirs_len,
                             const char *checkpoint, rbl_error *err)
{
    const char *mine = s->digest ? s->digest : "";
    if (strlen(mine) == theirs_len && memcmp(mine, theirs, theirs_len) == 0)
        return RBL_OK;
    /* a checkpoint of the scene without its stages, whose run made the changes itself (from
     * Python or C between steppings): its scene is this one less `stages` (the physics its
     * simulation holds are checked against the stage of its step: rbl_checkpoint_matches_scene) */
    if (s->n_stages && !has_stages(theirs, theirs_len)) {
        char *unstaged = without_stages(mine);
        if (!unstaged)
            return rbl_error_set(err, RBL_ENOMEM, "out of memory");
        const int same = strlen(unstaged) == theirs_len &&
                         memcmp(unstaged, theirs, theirs_len) == 0;
        free(unstaged);
        if (same)
            return RBL_OK;
    }
    /* both are sorted lines: the first line one has and the other has not */
    char *copy = malloc(theirs_len + 1);
    if (!copy)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory");
    memcpy(copy, theirs, theirs_len);
    copy[theirs_len] = '\0';
    const char *a = copy, *b = mine, *la, *lb;
    size_t na = 0, nb = 0;
    for (;;) {
        la = next_line(&a, &na), lb = next_line(&b, &nb);
        if (!la || !lb || na != nb || memcmp(la, lb, na) != 0)
            break;
    }
    /* the same setting with two values, or a setting only one of them has (the lesser line
     * in sort order is the one the other lacks) */
    int ka = la ? key_length(la, na) : 0, kb = lb ? key_length(lb, nb) : 0;
    int wa = la ? (int)(na < 200 ? na : 200) : 0, wb = lb ? (int)(nb < 200 ? nb : 200) : 0;
    char what[512];
    if (la && lb && ka == kb && memcmp(la, lb, (size_t)ka) == 0)
        snprintf(what, sizeof what, "its scene has '%.*s' where %s has '%.*s'", wa, la, s->path,
                 wb, lb);
    else if (la && (!lb || line_before(la, na, lb, nb)))
        snprintf(what, sizeof what, "its scene has '%.*s', which %s has not", wa, la, s->path);
    else
        snprintf(what, sizeof what, "%s has '%.*s', which its scene has not", s->path, wb,
                 lb ? lb : "");
    int rc = rbl_error_set(err, RBL_EPARSE,
                           "%s: this checkpoint was written for another scene: %s (a restart "
                           "may change the run's length and threads, health, impulse's solve "
                           "and the outputs but flow; with --change-physics what a stage may "
                           "change: docs/scenes.md \"Checkpoints and restart\")",
                           checkpoint, what);
    free(copy);
    return rc;
}

/* A line's "path" and its value (after ": "). */
static void split_line(const char *line, size_t n, size_t *key, const char **value,
                       size_t *value_len)
{
    *key = (size_t)key_length(line, n);
    size_t v = *key + (*key + 1 < n && line[*key + 1] == ' ' ? 2 : 1);
    *value = line + (v < n ? v : n);
    *value_len = v < n ? n - v : 0;
}

typedef struct text {
    char *s;
    size_t n, cap;
    int failed;
} text;

RBL_PRINTF(2, 3)
static void text_add(text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char buf[1024];
    int len = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (len < 0)
        len = 0;
    if ((size_t)len >= sizeof buf)
        len = (int)sizeof buf - 1;
    if (t->failed || !rbl_grow_array((void **)&t->s, &t->cap, t->n + (size_t)len + 1, 1)) {
        t->failed = 1;
        return;
    }
    memcpy(t->s + t->n, buf, (size_t)len + 1);
    t->n += (size_t)len;
}

int rbl_digest_changes(const char *before, size_t before_len, const char *after,
                       int with_stages, char **out, rbl_error *err)
{
    *out = NULL;
    char *copy = malloc(before_len + 1);
    if (!copy)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory");
    memcpy(copy, before, before_len);
    copy[before_len] = '\0';
    text t = {0};
    text_add(&t, "%s", "");
    const char *a = copy, *b = after ? after : "", *la, *lb;
    size_t na = 0, nb = 0;
    la = next_line(&a, &na), lb = next_line(&b, &nb);
    /* both sorted: walk them together; a path on both sides with two values is one change */
    while (la || lb) {
        size_t ka = 0, kb = 0, va_len = 0, vb_len = 0;
        const char *va = NULL, *vb = NULL;
        if (la)
            split_line(la, na, &ka, &va, &va_len);
        if (lb)
            split_line(lb, nb, &kb, &vb, &vb_len);
        if (la && !with_stages && under(la, ka, "stages")) { /* a stage's own, not the scene it makes */
            la = next_line(&a, &na);
            continue;
        }
        if (lb && !with_stages && under(lb, kb, "stages")) {
            lb = next_line(&b, &nb);
            continue;
        }
        if (la && lb && na == nb && memcmp(la, lb, na) == 0) {
            la = next_line(&a, &na), lb = next_line(&b, &nb);
        } else if (la && lb && ka == kb && memcmp(la, lb, ka) == 0) {
            text_add(&t, "%.*s: %.*s -> %.*s\n", (int)ka, la, (int)va_len, va, (int)vb_len, vb);
            la = next_line(&a, &na), lb = next_line(&b, &nb);
        } else if (la && (!lb || line_before(la, na, lb, nb))) {
            text_add(&t, "%.*s: %.*s -> (none)\n", (int)ka, la, (int)va_len, va);
            la = next_line(&a, &na);
        } else {
            text_add(&t, "%.*s: (none) -> %.*s\n", (int)kb, lb, (int)vb_len, vb);
            lb = next_line(&b, &nb);
        }
    }
    free(copy);
    if (t.failed) {
        free(t.s);
        return rbl_error_set(err, RBL_ENOMEM, "out of memory");
    }
    *out = t.s;
    return RBL_OK;
}

/* Whether path (len bytes) is prefix followed by its end, '.', or '['. */
static int under(const char *path, size_t len, const char *prefix)
{
    size_t n = strlen(prefix);
    return len >= n && memcmp(path, prefix, n) == 0 &&
           (len == n || path[n] == '.' || path[n] == '[');
}

/* The key after "list[K]." in path, or NULL: "walls[2].servo.force" -> "servo.force". */
static const char *item_key(const char *path, size_t len, const char *list)
{
    size_t n = strlen(list);
    if (len <= n || memcmp(path, list, n) != 0 || path[n] != '[')
        return NULL;
    const char *close = memchr(path + n, ']', len - n);
    return close && close + 1 < path + len && close[1] == '.' ? close + 2 : NULL;
}

int rbl_scene_change_allowed(const char *path, size_t len)
{
    if (under(path, len, "gravity") ||
        under(path, len, "health") || under(path, len, "stages"))
        return 1;
    if (under(path, len, "contact")) {
        /* the law's models stay (each family's, from the law's table: a model sets the
           contacts' history's layout); their coefficients may change */
        for (int f = 0; f < rbl_law_n_families; f++) {
            char fixed[64];
            snprintf(fixed, sizeof fixed, "contact.%s%s", rbl_law_families[f].key,
                     rbl_law_families[f].block ? ".model" : "");
            if (under(path, len, fixed))
                return 0;
        }
        return 1;
    }
    const char *key = item_key(path, len, "materials");
    if (key) {
        size_t rest = len - (size_t)(key - path);
        return under(key, rest, "friction") || under(key, rest, "restitution") ||
               under(key, rest, "youngs_modulus") || under(key, rest, "poisson_ratio");
    }
    key = item_key(path, len, "outlets");
    if (key) {
        size_t rest = len - (size_t)(key - path);
        return under(key, rest, "open") || under(key, rest, "name");
    }
    key = item_key(path, len, "walls");
    if (key) {
        size_t rest = len - (size_t)(key - path);
        return under(key, rest, "velocity") || under(key, rest, "rotate") ||
               under(key, rest, "vibrate") || under(key, rest, "servo") ||
               under(key, rest, "name") || under(key, rest, "present") ||
               under(key, rest, "table");
    }
    return 0;
}

int rbl_changes_touch(const char *changes, const char *key)
{
    for (const char *line = changes; *line;) {
        const char *end = strchr(line, '\n');
        const size_t n = end ? (size_t)(end - line) : strlen(line);
        const char *colon = memchr(line, ':', n);
        if (under(line, colon ? (size_t)(colon - line) : n, key))
            return 1;
        line += n + (end != NULL);
    }
    return 0;
}

const char *rbl_changes_refused(const char *changes, int stage, size_t *len)
{
    for (const char *line = changes; *line;) {
        const char *end = strchr(line, '\n');
        const size_t n = end ? (size_t)(end - line) : strlen(line);
        const char *colon = memchr(line, ':', n);
        const size_t key = colon ? (size_t)(colon - line) : n;
        /* a stage's `bonds` block makes bonds as it begins (issue 72); a restart's is refused */
        if (!rbl_scene_change_allowed(line, key) && !(stage && under(line, key, "bonds"))) {
            *len = n;
            return line;
        }
        line += n + (end != NULL);
    }
    return NULL;
}

/* Item K of "list[K]..." (len bytes of path), or -1. */
static long item_index(const char *path, size_t len, const char *list)
{
    size_t n = strlen(list);
    if (len < n + 3 || memcmp(path, list, n) != 0 || path[n] != '[')
        return -1;
    long k = 0;
    size_t at = n + 1;
    for (; at < len && path[at] >= '0' && path[at] <= '9' && k < 1000000; at++)
        k = 10 * k + (path[at] - '0');
    return at > n + 1 && at < len && path[at] == ']' ? k : -1;
}

/* Whether the digest (n bytes) has a line of item k of list. */
static int has_item(const char *digest, size_t n, const char *list, long k)
{
    for (const char *at = digest, *end = digest + n; at < end;) {
        const char *eol = memchr(at, '\n', (size_t)(end - at));
        const size_t len = eol ? (size_t)(eol - at) : (size_t)(end - at);
        if (item_index(at, (size_t)key_length(at, len), list) == k)
            return 1;
        at += len + 1;
    }
    return 0;
}

int rbl_changes_new_items(const char *changes, const char *before, size_t before_len,
                          const char *list, unsigned char *added, int n, char **rest,
                          rbl_error *err)
{
    static const char none[] = ": (none) -> ";
    char *out = malloc(strlen(changes) + 1), *to = out;
    if (!out)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory");
    for (const char *line = changes; *line;) {
        const char *end = strchr(line, '\n');
        const size_t len = end ? (size_t)(end - line) + 1 : strlen(line);
        const size_t key = (size_t)key_length(line, len);
        const long k = item_index(line, key, list);
        if (k >= 0 && k < n && len >= key + sizeof none - 1 &&
            memcmp(line + key, none, sizeof none - 1) == 0 && !has_item(before, before_len, list, k)) {
            added[k] = 1;
        } else {
            memcpy(to, line, len);
            to += len;
        }
        line += len;
    }
    *to = '\0';
    *rest = out;
    return RBL_OK;
}
