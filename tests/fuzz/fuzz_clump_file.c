/* fuzz_clump_file.c — a clump file (clump.txt): read and checked. */
#include "fuzz_util.h"
#include "rubble.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(0, "clump.txt", data, size);
    rbl_clump clump;
    rbl_mass_properties props;
    rbl_error err = {0};
    if (rbl_clump_read(path, &clump, &props, &err) == RBL_OK)
        rbl_clump_free(&clump);
    return 0;
}
