/* collisions.c — collision statistics (issue 70, docs/dem.md "Collision statistics"): the
 * tally of contact events by pair of materials and bin of impact energy (J, log-spaced), each
 * event booked as it ends with the losses its steps and its end booked; the histories re-laid
 * when a restart asks for the statistics or drops them. */
#include "contact_kernel.h"

#include <stdlib.h>
#include <string.h>

void rbl_collision_tally_free(rbl_collision_tally *t)
{
    if (!t)
        return;
    free(t->count), free(t->sum), free(t);
}

size_t rbl_collision_pair(const rbl_collision_tally *t, int a, int b, int wall)
{
    const int m = t->materials;
    if (a < 0 || b < 0 || a >= m || b >= m)
        return SIZE_MAX;
    if (wall)
        return (size_t)m * (size_t)(m + 1) / 2 + (size_t)a * (size_t)m + (size_t)b;
    if (a > b) {
        const int c = a;
        a = b, b = c;
    }
    /* rows a' < a hold m - a' pairs each */
    return (size_t)a * (size_t)m - (size_t)a * (size_t)(a - 1) / 2 + (size_t)(b - a);
}

int rbl_collision_bin_of(const rbl_collision_tally *t, double e)
{
    if (!(e >= t->e_min))
        return 0;
    if (e >= t->e_max)
        return t->bins + 1;
    const int k = (int)floor(log(e / t->e_min) * t->per_log);
    return 1 + (k < 0 ? 0 : k >= t->bins ? t->bins - 1 : k);
}

void rbl_collision_end(const rbl_sim *sim, int a, int b, int wall, const double *hc,
                       double end_loss)
{
    rbl_collision_tally *t = sim->collisions;
    if (!t || hc[0] != 1.0) /* none asked for, or touching before they were */
        return;
    const size_t p = rbl_collision_pair(t, a, b, wall);
    if (p == SIZE_MAX)
        return;
    const size_t at = p * (size_t)(t->bins + 2) + (size_t)rbl_collision_bin_of(t, hc[1]);
    const double v[RBL_COLLISION_SUMS] = {hc[1], hc[4] + end_loss, hc[2], hc[3]};
    rbl_exact_sum *s = t->sum + RBL_COLLISION_SUMS * at;
#pragma omp critical(rbl_collisions)
    {
        t->count[at]++;
        for (int k = 0; k < RBL_COLLISION_SUMS; k++)
            rbl_exact_add(&s[k], v[k]);
    }
}

/* hist (n rows laid out by law `from`) into rows laid out by `to` (their law.collisions
 * bits differ): the law's slices kept, the event's and the age's where both have them, a
 * wall's tail of `tail` doubles; where only `to` has them, a touching contact's event marked
 * not counted and its age unknown (negative). */
static double *relay(const double *hist, const uint8_t *touch, size_t n,
                     const rbl_contact_law *from, const rbl_contact_law *to, size_t tail,
                     size_t cap)
{
    const size_t law_w = rbl_hist_collision(from), fw = rbl_hist_width(from) + tail,
                 tw = rbl_hist_width(to) + tail;
    double *h = calloc((cap > n ? cap : n) + 1, tw * sizeof *h);
    if (!h)
        return NULL;
    const int had = from->collisions, has = to->collisions;
    for (size_t q = 0; q < n; q++) {
        const double *s = hist + fw * q;
        double *d = h + tw * q;
        memcpy(d, s, law_w * sizeof *d);
        memcpy(d + tw - tail, s + fw - tail, tail * sizeof *d);
        if (had & has & RBL_LAW_EVENTS)
            memcpy(d + law_w, s + law_w, RBL_HIST_COLLISION * sizeof *d);
        else if (has & RBL_LAW_EVENTS && touch[q])
            d[law_w] = -1.0;
        if (had & has & RBL_LAW_AGES)
            d[rbl_hist_age(to)] = s[rbl_hist_age(from)];
        else if (has & RBL_LAW_AGES && touch[q])
            d[rbl_hist_age(to)] = -1e300;
    }
    return h;
}

/* The histories re-laid for law.collisions = bits. */
static int relay_to(rbl_sim *sim, int bits, rbl_error *err)
{
    rbl_contact_law *law = &sim->cfg.law;
    if (law->collisions == bits)
        return RBL_OK;
    rbl_contact_law other = *law;
    other.collisions = bits;
    rbl_pair_list *p = &sim->pairs;
    rbl_wall_list *w = &sim->wpairs;
    double *ph = p->hist ? relay(p->hist, p->touch, p->n, law, &other, 0, p->cap) : NULL;
    double *wh = w->hist ? relay(w->hist, w->touch, w->n, law, &other, RBL_WALL_HIST_MESH,
                                 w->cap)
                         : NULL;
    if ((p->hist && !ph) || (w->hist && !wh)) {
        free(ph), free(wh);
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for the contacts' histories");
    }
    if (p->hist)
        free(p->hist), p->hist = ph;
    if (w->hist)
        free(w->hist), w->hist = wh;
    law->collisions = bits;
    return RBL_OK;
}

int rbl_collision_relay(rbl_sim *sim, int on, rbl_error *err)
{
    const int bits = sim->cfg.law.collisions;
    return relay_to(sim, on ? bits | RBL_LAW_EVENTS : bits & ~RBL_LAW_EVENTS, err);
}

int rbl_sim_contact_ages(rbl_sim *sim, int on, rbl_error *err)
{
    const int bits = sim->cfg.law.collisions;
    return relay_to(sim, on ? bits | RBL_LAW_AGES : bits & ~RBL_LAW_AGES, err);
}

int rbl_sim_collisions(rbl_sim *sim, int bins, double e_min, double e_max, rbl_error *err)
{
    if (bins < 0 || bins > 100000)
        return rbl_error_set(err, RBL_ERANGE, "collisions: 'bins' must be from 1 to 100000: %d",
                             bins);
    if (bins > 0 && !(e_min > 0.0 && isfinite(e_max) && e_max > e_min))
        return rbl_error_set(err, RBL_ERANGE, "collisions: the energies must be 0 < min < max "
                             "(J): %g, %g", e_min, e_max);
    rbl_collision_tally_free(sim->collisions);
    sim->collisions = NULL;
    int rc = rbl_collision_relay(sim, bins > 0, err);
    if (rc != RBL_OK || bins == 0)
        return rc;
    rbl_collision_tally *t = calloc(1, sizeof *t);
    const int m = sim->n_materials > 0 ? sim->n_materials : 1;
    if (t) {
        t->bins = bins, t->materials = m, t->e_min = e_min, t->e_max = e_max;
        t->per_log = bins / log(e_max / e_min);
        t->pairs = (size_t)m * (size_t)(m + 1) / 2 + (size_t)m * (size_t)m;
        const size_t n = t->pairs * (size_t)(bins + 2);
        t->count = calloc(n, sizeof *t->count);
        t->sum = malloc(n * RBL_COLLISION_SUMS * sizeof *t->sum);
    }
    if (!t || !t->count || !t->sum) {
        rbl_collision_tally_free(t);
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for collision statistics");
    }
    sim->collisions = t;
    rbl_sim_collisions_clear(sim);
    return RBL_OK;
}

void rbl_sim_collisions_clear(rbl_sim *sim)
{
    rbl_collision_tally *t = sim->collisions;
    if (!t)
        return;
    const size_t n = t->pairs * (size_t)(t->bins + 2);
    memset(t->count, 0, n * sizeof *t->count);
    for (size_t k = 0; k < n * RBL_COLLISION_SUMS; k++)
        rbl_exact_clear(&t->sum[k]);
}

int rbl_sim_collision_bin(const rbl_sim *sim, int a, int b, int wall, int bin,
                          rbl_collision_bin *out, rbl_error *err)
{
    const rbl_collision_tally *t = sim->collisions;
    if (!t)
        return rbl_error_set(err, RBL_EINVAL, "no collision statistics were asked for "
                             "(rbl_sim_collisions)");
    const size_t p = rbl_collision_pair(t, a, b, wall);
    if (p == SIZE_MAX || bin < -1 || bin > t->bins)
        return rbl_error_set(err, RBL_ERANGE, "collisions: no materials %d, %d or bin %d (-1 "
                             "to %d)", a, b, bin, t->bins);
    const size_t at = p * (size_t)(t->bins + 2) + (size_t)(bin + 1);
    const rbl_exact_sum *s = t->sum + RBL_COLLISION_SUMS * at;
    out->count = t->count[at];
    out->impact = rbl_exact_value(&s[RBL_COLLISION_IMPACT]);
    out->dissipated = rbl_exact_value(&s[RBL_COLLISION_DISSIPATED]);
    out->normal_speed = rbl_exact_value(&s[RBL_COLLISION_VN]);
    out->tangential_speed = rbl_exact_value(&s[RBL_COLLISION_VT]);
    return RBL_OK;
}
