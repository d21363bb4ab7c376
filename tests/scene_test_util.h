/* scene_test_util.h — a scene given as text in a test, written to a file in the test's folder
 * and loaded (the messages of a refusal printed). */
#ifndef RBL_SCENE_TEST_UTIL_H
#define RBL_SCENE_TEST_UTIL_H

#include "rubble.h"
#include "test_util.h"

/* text written as dir/file and loaded. */
static inline rbl_scene *test_scene_file(const char *dir, const char *file, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    FILE *f = fopen(path, "w");
    ASSERT_TRUE(f != NULL);
    fputs(text, f);
    fclose(f);
    rbl_scene *s = NULL;
    rbl_error err = {0};
    int rc = rbl_scene_load(path, &s, &err);
    if (rc != RBL_OK)
        fprintf(stderr, "%s\n", err.message);
    ASSERT_OK(rc);
    return s;
}

#endif
