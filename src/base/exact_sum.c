/* exact_sum.c — sums of doubles that do not depend on the order of their terms: each term is
 * added into a fixed-point integer wide enough for any double (2^-1074 .. 2^1024, and 2^64
 * terms more), in 32-bit limbs kept in 64-bit words, so that 2^29 terms go in before their
 * carries need propagating. Used where a sum over grains must give the same bits whatever
 * the process or thread that holds each grain (a servo wall's load, a centre of mass). */
#include "base_internal.h"

#include <math.h>
#include <string.h>

#define LIMB_BITS 32
#define LIMB_MASK 0xffffffffLL
#define ADDS_BEFORE_CARRY (1u << 29) /* 2^29 terms of < 2^33 each per limb: < 2^62 */

void rbl_exact_clear(rbl_exact_sum *s) { memset(s, 0, sizeof *s); }

void rbl_exact_normalize(rbl_exact_sum *s)
{
    for (int i = 0; i + 1 < RBL_EXACT_LIMBS; i++) {
        const int64_t carry = s->limb[i] >> LIMB_BITS; /* floor: the limb ends in [0, 2^32) */
        s->limb[i] -= carry * ((int64_t)1 << LIMB_BITS);
        s->limb[i + 1] += carry;
    }
    s->adds = 0;
}

void rbl_exact_add(rbl_exact_sum *s, double x)
{
    if (!isfinite(x)) {
        s->special += x;
        return;
    }
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    const unsigned biased = (unsigned)(bits >> 52) & 0x7ff;
    uint64_t mantissa = bits & ((UINT64_C(1) << 52) - 1);
    if (mantissa == 0 && biased == 0)
        return; /* +-0 */
    /* x = +-mantissa 2^(pos - 1074): a normal number's implicit bit restored */
    unsigned pos = 0;
    if (biased) {
        mantissa |= UINT64_C(1) << 52;
        pos = biased - 1;
    }
    if (++s->adds >= ADDS_BEFORE_CARRY)
        rbl_exact_normalize(s);
    /* the mantissa's low 32 and high 21 bits, each shifted within 64 bits, dealt to three
       limbs (i + 2 <= 65: the top limbs are the terms' headroom); a limb gains < 2^33 */
    const int i = (int)(pos / LIMB_BITS);
    const unsigned shift = pos % LIMB_BITS;
    const uint64_t lo = (mantissa & LIMB_MASK) << shift, hi = (mantissa >> 32) << shift;
    const int64_t sign = 1 - 2 * (int64_t)(bits >> 63);
    s->limb[i] += sign * (int64_t)(lo & LIMB_MASK);
    s->limb[i + 1] += sign * (int64_t)((lo >> 32) + (hi & LIMB_MASK));
    s->limb[i + 2] += sign * (int64_t)(hi >> 32);
}

void rbl_exact_merge(rbl_exact_sum *into, const rbl_exact_sum *from)
{
    rbl_exact_normalize(into);
    rbl_exact_sum f = *from;
    rbl_exact_normalize(&f);
    for (int i = 0; i < RBL_EXACT_LIMBS; i++)
        into->limb[i] += f.limb[i];
    into->special += f.special;
}

void rbl_exact_subtract(rbl_exact_sum *into, const rbl_exact_sum *from)
{
    rbl_exact_normalize(into);
    rbl_exact_sum f = *from;
    rbl_exact_normalize(&f);
    for (int i = 0; i < RBL_EXACT_LIMBS; i++)
        into->limb[i] -= f.limb[i];
    into->special -= f.special;
}

int rbl_exact_equal(const rbl_exact_sum *a, const rbl_exact_sum *b)
{
    rbl_exact_sum d = *a;
    rbl_exact_subtract(&d, b);
    rbl_exact_normalize(&d);
    for (int i = 0; i < RBL_EXACT_LIMBS; i++)
        if (d.limb[i] != 0)
            return 0;
    return a->special == 0.0 && b->special == 0.0;
}

double rbl_exact_value(const rbl_exact_sum *s)
{
    if (s->special != 0.0) /* true of NaN too */
        return s->special;
    rbl_exact_sum a = *s;
    rbl_exact_normalize(&a);
    double sign = 1.0;
    if (a.limb[RBL_EXACT_LIMBS - 1] < 0) { /* the magnitude of a negative sum */
        for (int i = 0; i < RBL_EXACT_LIMBS; i++)
            a.limb[i] = -a.limb[i];
        rbl_exact_normalize(&a);
        sign = -1.0;
    }
    int t = RBL_EXACT_LIMBS - 1;
    while (t >= 0 && a.limb[t] == 0)
        t--;
    if (t < 0)
        return 0.0;
    /* the three highest limbs (96 bits), shifted so that the leading bit is bit 127 */
    unsigned __int128 w = (unsigned __int128)(uint64_t)a.limb[t] << 64;
    if (t >= 1)
        w |= (unsigned __int128)(uint64_t)a.limb[t - 1] << 32;
    if (t >= 2)
        w |= (uint64_t)a.limb[t - 2];
    int lead = 63; /* the leading bit of limb t, from bit 0 of the limb */
    while (!(((uint64_t)a.limb[t] >> lead) & 1))
        lead--;
    if (lead >= LIMB_BITS) /* only the top limb grows past 32 bits: beyond 2^1070 */
        return sign * INFINITY;
    const int shift = 127 - (64 + lead);
    w <<= shift;
    uint64_t top = (uint64_t)(w >> 64);
    int sticky = (uint64_t)w != 0;
    for (int i = 0; i + 2 < t && !sticky; i++)
        sticky = a.limb[i] != 0;
    /* bit 0 as the sticky bit: the conversion rounds at bit 11 to nearest, ties to even */
    top |= (uint64_t)sticky;
    /* top's bit 63 is bit 32 t + lead of the integer, which weighs 2^-1074 per unit */
    const int exponent = LIMB_BITS * t + lead - 63 - 1074;
    return sign * ldexp((double)top, exponent);
}
