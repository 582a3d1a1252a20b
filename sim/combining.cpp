// Combining rules for two contact surfaces.
#include "dropsim/sim/combining.hpp"

#include <cmath>

namespace dropsim {

double plane_strain_modulus(double youngs_modulus, double poisson_ratio) {
  return youngs_modulus / (1.0 - poisson_ratio * poisson_ratio);
}

double johnson_composite(double e1, double e2) { return 1.0 / (1.0 / e1 + 1.0 / e2); }

double sherman_share(double e1, double e2) {
  const double k1 = std::cbrt(e1 * e1);
  const double k2 = std::cbrt(e2 * e2);
  return k2 / (k1 + k2);
}

double sherman_dissipation(double e1, double e2, double c1, double c2) {
  const double s1 = sherman_share(e1, e2);
  return s1 * c1 + (1.0 - s1) * c2;
}

double sherman_friction(double mu1, double mu2) { return mu1 + mu2 == 0.0 ? 0.0 : 2.0 * mu1 * mu2 / (mu1 + mu2); }

double sherman_composite(double e1, double e2) {
  const double k1 = std::cbrt(e1 * e1);
  const double s1k1 = sherman_share(e1, e2) * k1;
  return s1k1 * std::sqrt(s1k1);
}

double effective_modulus(CombiningRule rule, double surface_modulus) {
  switch (rule) {
    case CombiningRule::sherman: return sherman_composite(surface_modulus, surface_modulus);
    case CombiningRule::johnson: return johnson_composite(surface_modulus, surface_modulus);
    case CombiningRule::none: return surface_modulus;
  }
  return surface_modulus;
}

double surface_modulus(CombiningRule rule, double effective) {
  switch (rule) {
    case CombiningRule::sherman: return effective * std::pow(2.0, 1.5);
    case CombiningRule::johnson: return effective * 2.0;
    case CombiningRule::none: return effective;
  }
  return effective;
}

double sphere_pair_radius(double r1, double r2) { return r1 + r2 > 0.0 ? r1 * r2 / (r1 + r2) : 0.0; }

}  // namespace dropsim
