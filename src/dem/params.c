/* params.c — parameter helpers of seed 002 §2.7 (SPEC SD9): k_n from the impact speed and the
 * largest allowed overlap (energy balance 1/2 m_eff v0^2 = 1/2 k_n xi_max^2) or from the
 * confining pressure phi rho g H s^2 / xi_max; gamma from the restitution coefficient
 * e = exp(-pi gamma / sqrt(4 m_eff k_n - gamma^2)); dt = C pi / omega (seed eq. 2). */
#include "dem_internal.h"

#include <math.h>

double rbl_kn_from_velocity(double m_eff, double v0, double xi_max)
{
    return m_eff * (v0 / xi_max) * (v0 / xi_max);
}

double rbl_kn_from_pressure(double solid_share, double density, double gravity, double height,
                            double radius, double xi_max)
{
    return solid_share * density * fabs(gravity) * height * radius * radius / xi_max;
}

double rbl_gamma_from_restitution(double e, double m_eff, double kn)
{
    double l = log(e);
    return -2.0 * l * sqrt(m_eff * kn / (M_PI * M_PI + l * l));
}

double rbl_restitution_linear(double gamma, double m_eff, double kn)
{
    double disc = 4.0 * m_eff * kn - gamma * gamma;
    return disc > 0.0 ? exp(-M_PI * gamma / sqrt(disc)) : 0.0;
}

double rbl_contact_omega(double kn, double gamma, double m_eff)
{
    double w2 = kn / m_eff - gamma * gamma / (4.0 * m_eff * m_eff);
    return w2 > 0.0 ? sqrt(w2) : 0.0;
}

double rbl_dt_from_c(double c, double kn, double gamma, double m_eff)
{
    double w = rbl_contact_omega(kn, gamma, m_eff);
    return w > 0.0 ? c * M_PI / w : 0.0;
}
