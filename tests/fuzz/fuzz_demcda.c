/* fuzz_demcda.c — bounds.txt and elements.txt (split at the first NUL byte): whatever is
 * accepted, all seven contact-detection algorithms must report brute force's pairs, at the
 * CLI's memory limit. */
#include "fuzz_util.h"
#include "rubble.h"

static void sorted_pairs(const rbl_elements *e, rbl_cd_algorithm alg, rbl_pairs *p, int *ok)
{
    rbl_error err = {0};
    rbl_cd_options limit = {.memory_limit = fuzz_cli_memory_limit()};
    memset(p, 0, sizeof *p);
    int rc = rbl_contacts_detect(e, alg, &limit, p, NULL, &err);
    *ok = rc == RBL_OK;
    if (rc == RBL_OK)
        rc = rbl_pairs_sort_descending(p, e->n, &err);
    if (rc != RBL_OK && rc != RBL_ETOOBIG && rc != RBL_ENOMEM) {
        fprintf(stderr, "%s refused an accepted set: %s\n", rbl_cd_algorithm_name(alg),
                err.message);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t first, second;
    fuzz_split(data, size, &first, &second);
    const char *bounds = fuzz_file(0, "bounds.txt", data, first);
    const char *elements = fuzz_file(1, "elements.txt", data + second, size - second);
    rbl_elements e;
    rbl_error err = {0};
    if (rbl_demcda_read(bounds, elements, &e, &err) != RBL_OK)
        return 0;
    if (e.n <= 3000) { /* brute force is O(N^2) */
        rbl_pairs ref;
        int ok;
        sorted_pairs(&e, RBL_CD_BRUTE, &ref, &ok);
        for (int alg = 1; ok && alg <= RBL_CD_ALGORITHM_COUNT; alg++) {
            rbl_pairs p;
            int done;
            sorted_pairs(&e, (rbl_cd_algorithm)alg, &p, &done);
            if (done && (p.n != ref.n || (p.n && memcmp(p.ij, ref.ij, p.n * sizeof *p.ij) != 0))) {
                fprintf(stderr, "%s: %zu pairs, brute force %zu\n",
                        rbl_cd_algorithm_name((rbl_cd_algorithm)alg), p.n, ref.n);
                abort();
            }
            rbl_pairs_free(&p);
        }
        rbl_pairs_free(&ref);
    }
    rbl_elements_free(&e);
    return 0;
}
