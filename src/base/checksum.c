/* checksum.c — FNV-1a: the checksum of checkpoints and the digest of a scene's clumps. */
#include "base_internal.h"

uint64_t rbl_fnv1a(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t k = 0; k < n; k++)
        h = (h ^ b[k]) * 0x100000001b3ULL;
    return h;
}
