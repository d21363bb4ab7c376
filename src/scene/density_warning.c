/* density_warning.c — a material's density (kg/m^3) that reads as another unit (issues 44 and
 * 70, docs/scenes.md "Warnings"): below any solid grain's (g/cm^3 or lb/ft^3 typed as kg/m^3),
 * above any (g/m^3), or a solid named by the material whose density in lb/ft^3 it is.
 * 1 lb/ft^3 = 16.018 kg/m^3. */
#include "yaml_read.h"

#include <ctype.h>
#include <string.h>

#define LB_FT3 16.0185 /* kg/m^3 */

/* Solids grains are made of, by a part of their name, and their density (kg/m^3). */
static const struct {
    const char *part, *name;
    double density;
} solids[] = {{"glass", "glass", 2500},       {"quartz", "quartz", 2650},
              {"sand", "sand", 2650},         {"silica", "silica", 2650},
              {"gravel", "gravel", 2650},     {"granite", "granite", 2700},
              {"limestone", "limestone", 2700}, {"basalt", "basalt", 2900},
              {"alumin", "aluminium", 2700},  {"steel", "steel", 7850},
              {"iron", "iron", 7870},         {"copper", "copper", 8960},
              {"brass", "brass", 8500},       {"zirconia", "zirconia", 6000},
              {"lead", "lead", 11340}};

/* Names of light, porous or hollow forms of those solids, whose low densities are real. */
static const char *const light[] = {"hollow", "bubble", "foam", "porous", "ceno", "pumice",
                                    "aerogel", "wool", "fibre", "fiber", NULL};

/* 1 if the lower-cased name holds part. */
static int names(const char *name, const char *part)
{
    char low[128];
    size_t n = 0;
    for (; name[n] && n + 1 < sizeof low; n++)
        low[n] = (char)tolower((unsigned char)name[n]);
    low[n] = '\0';
    return strstr(low, part) != NULL;
}

/* The rule, narrow on purpose: real grains go as light as 100 kg/m^3 (cork, balsa, snow,
 * hollow glass spheres, 100-600), so a density in that range is taken for lb/ft^3 only when
 * the material's name names a solid that heavy (glass at 156: 2499 kg/m^3 in lb/ft^3), the
 * value in lb/ft^3 is within 15 % of that solid's and the name does not say it is hollow or
 * porous. Below 100 nothing solid exists: up to 25 it reads as g/cm^3 (the densest solid,
 * osmium, is 22.6), above it as lb/ft^3 (plastics and coal are 55-90). */
int rbl_scene_density_warning(rbl_yaml_ctx *c, yaml_node_t *at, const char *name, double rho)
{
    if (!rbl_scene_warns(c->s, RBL_WARN_DENSITY))
        return RBL_OK;
    if (rho <= 25.0)
        return rbl_yaml_warn(c, at, "density %g kg/m^3 is below any solid's (g/cm^3 meant? "
                             "%g g/cm^3 is %g kg/m^3; glass is 2500) "
                             "(if meant: warnings: {off: [density]})",
                             rho, rho, rho * 1000.0);
    if (rho < 100.0)
        return rbl_yaml_warn(c, at, "density %g kg/m^3 is below any solid's (lb/ft^3 meant? "
                             "%g lb/ft^3 is %.4g kg/m^3; glass is 2500) "
                             "(if meant: warnings: {off: [density]})",
                             rho, rho, rho * LB_FT3);
    if (rho > 25000.0)
        return rbl_yaml_warn(c, at, "density %g kg/m^3 is above any solid's (g/m^3 meant? "
                             "%g g/m^3 is %g kg/m^3; glass is 2500) "
                             "(if meant: warnings: {off: [density]})",
                             rho, rho, rho / 1000.0);
    for (int k = 0; light[k]; k++)
        if (names(name, light[k]))
            return RBL_OK;
    for (size_t k = 0; k < sizeof solids / sizeof *solids; k++) {
        const double as_lb = rho * LB_FT3, real = solids[k].density;
        if (names(name, solids[k].part) && as_lb > 0.85 * real && as_lb < 1.15 * real)
            return rbl_yaml_warn(c, at, "density %g kg/m^3 for '%s' is %s's in lb/ft^3: "
                                 "%g lb/ft^3 is %.4g kg/m^3 (%s: %g kg/m^3) "
                                 "(if meant: warnings: {off: [density]})",
                                 rho, name, solids[k].name, rho, as_lb, solids[k].name, real);
    }
    return RBL_OK;
}
