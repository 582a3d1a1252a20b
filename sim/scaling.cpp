// Size-scaling laws for contact parameters.
#include "sim/scaling.hpp"

#include <cmath>

namespace dropsim {

double effective_modulus_for_indentation(const SphereSupport& s, double gravity, double xh) {
  return 3.0 * s.mass * gravity / (4.0 * s.spheres * s.radius * s.radius * std::pow(xh, 1.5));
}

double rest_indentation_relative(const SphereSupport& s, double gravity, double effective_modulus) {
  return std::pow(3.0 * s.mass * gravity / (4.0 * s.spheres * effective_modulus * s.radius * s.radius),
                  2.0 / 3.0);
}

double scale_effective_modulus(double modulus_a, const SphereSupport& a, const SphereSupport& b) {
  const double radius_ratio = a.radius / b.radius;
  return modulus_a * (b.mass / a.mass) * (double(a.spheres) / b.spheres) * radius_ratio * radius_ratio;
}

double scale_dissipation(double dissipation_a, double length_a, double length_b) {
  return dissipation_a * std::sqrt(length_a / length_b);
}

double impact_speed(double gravity, double height) { return std::sqrt(2.0 * gravity * height); }

double restitution_estimate(double dissipation, double speed) { return 1.0 - dissipation * speed; }

}  // namespace dropsim
