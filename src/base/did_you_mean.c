/* did_you_mean.c — the known name nearest to an unknown one, for "did you mean 'friction'?" in
 * the scene's messages and the C API's (a contact model, a law coefficient by name): the edit
 * distance (insertions, deletions, changes and two letters swapped each count one; case
 * ignored), suggested only when close enough to be a slip. */
#include "base_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define NAME_MAX_LEN 63 /* longer words are no slip of a known name: no suggestion */

/* The optimal string alignment distance between a and b (both at most NAME_MAX_LEN long). */
static int distance(const char *a, const char *b)
{
    const int la = (int)strlen(a), lb = (int)strlen(b);
    int rows[3][NAME_MAX_LEN + 1]; /* rows i-2, i-1 and i of the table */
    for (int j = 0; j <= lb; j++)
        rows[1][j] = j;
    for (int i = 1; i <= la; i++) {
        int *cur = rows[(i + 1) % 3], *prev = rows[i % 3], *prev2 = rows[(i + 2) % 3];
        cur[0] = i;
        for (int j = 1; j <= lb; j++) {
            const int ca = tolower((unsigned char)a[i - 1]), cb = tolower((unsigned char)b[j - 1]);
            int d = prev[j - 1] + (ca != cb);
            if (prev[j] + 1 < d)
                d = prev[j] + 1;
            if (cur[j - 1] + 1 < d)
                d = cur[j - 1] + 1;
            if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
                tolower((unsigned char)a[i - 2]) == cb && prev2[j - 2] + 1 < d)
                d = prev2[j - 2] + 1;
            cur[j] = d;
        }
    }
    return rows[(la + 1) % 3][lb];
}

const char *rbl_nearest_name(const char *word, const char *const *names, int count)
{
    if (!word || !*word || strlen(word) > NAME_MAX_LEN)
        return NULL;
    /* one slip in a word of up to four letters, two in a longer one */
    int best = strlen(word) <= 4 ? 1 : 2;
    const char *found = NULL;
    for (int i = 0; count < 0 ? names[i] != NULL : i < count; i++) {
        if (!names[i] || strlen(names[i]) > NAME_MAX_LEN)
            continue;
        const int d = distance(word, names[i]);
        if (d < best || (d == best && !found)) {
            best = d;
            found = names[i];
        }
    }
    return found;
}

const char *rbl_did_you_mean(char out[RBL_DID_YOU_MEAN_MAX], const char *word,
                             const char *const *names, int count)
{
    const char *near = rbl_nearest_name(word, names, count);
    if (near)
        snprintf(out, RBL_DID_YOU_MEAN_MAX, "; did you mean '%s'?", near);
    else
        out[0] = '\0';
    return out;
}

const char *rbl_did_you_mean_list(char out[RBL_DID_YOU_MEAN_MAX], const char *word,
                                  const char *list)
{
    char copy[512];
    const char *names[64];
    int count = 0;
    snprintf(copy, sizeof copy, "%s", list);
    for (char *p = copy; *p && count < 64;) { /* "a, b, c": cut at each ", " */
        names[count++] = p;
        char *end = strstr(p, ", ");
        if (!end)
            break;
        *end = '\0';
        p = end + 2;
    }
    return rbl_did_you_mean(out, word, names, count);
}
