// Size-scaling laws for contact parameters.
#include "dropsim/sim/scaling.hpp"

#include <cmath>
#include <numbers>

namespace dropsim {

double effective_modulus_for_indentation(const SphereSupport& s, double gravity, double xh) {
  return 3.0 * s.mass * gravity / (4.0 * s.spheres * s.radius * s.radius * std::pow(xh, 1.5));
}

double rest_indentation_relative(const SphereSupport& s, double gravity, double effective_modulus) {
  return std::pow(3.0 * s.mass * gravity / (4.0 * s.spheres * effective_modulus * s.radius * s.radius),
                  2.0 / 3.0);
}

double effective_modulus_for_load(const SphereSupport& s, double gravity, double gamma, double xh) {
  return gamma * effective_modulus_for_indentation(s, gravity, xh);
}

double tangent_stiffness(double effective_modulus, double radius, double xh) {
  return 2.0 * effective_modulus * radius * std::sqrt(xh);
}

ModulusAndRadius design_for_stiffness(const SphereSupport& s, double gravity, double gamma, double stiffness,
                                      double xh) {
  // docs/physics.md#design-for-a-load: E* R^2 = 3 gamma M g / (4 n xh^(3/2));  docs/physics.md#hertz-stiffness: E* R = k / (2 sqrt(xh)).
  const double er2 = 3.0 * gamma * s.mass * gravity / (4.0 * s.spheres * std::pow(xh, 1.5));
  const double er = stiffness / (2.0 * std::sqrt(xh));
  return {er * er / er2, er2 / er};
}

double opensim_stiffness_for_material(CombiningRule rule, double youngs_modulus, double poisson_ratio) {
  return surface_modulus(rule, plane_strain_modulus(youngs_modulus, poisson_ratio));
}

double patch_radius(double radius, double xh) { return radius * std::sqrt(xh); }
double patch_area(double radius, double xh) { return std::numbers::pi * radius * radius * xh; }
double mean_contact_stress(double force, double radius, double xh) { return force / patch_area(radius, xh); }

double scale_effective_modulus(double modulus_a, const SphereSupport& a, const SphereSupport& b) {
  const double radius_ratio = a.radius / b.radius;
  return modulus_a * (b.mass / a.mass) * (double(a.spheres) / b.spheres) * radius_ratio * radius_ratio;
}

double scale_linear_stiffness(double stiffness_a, const SphereSupport& a, const SphereSupport& b) {
  return stiffness_a * (b.mass / a.mass) * (double(a.spheres) / b.spheres) * (a.radius / b.radius);
}

double scale_dissipation(double dissipation_a, double length_a, double length_b) {
  return dissipation_a * std::sqrt(length_a / length_b);
}

double impact_speed(double gravity, double height) { return std::sqrt(2.0 * gravity * height); }

double restitution_estimate(double dissipation, double speed) { return 1.0 - dissipation * speed; }

double dissipation_for_restitution_estimate(double restitution, double speed) { return (1.0 - restitution) / speed; }

double smoothing_cf(double xh_cf, double radius) { return (xh_cf * radius) * (xh_cf * radius); }
double smoothing_cf_relative(double cf, double radius) { return std::sqrt(cf) / radius; }

double smoothing_bd(double t, double dxh, double radius) { return 2.0 * std::atanh(1.0 - 2.0 * t) / (radius * dxh); }
double smoothing_bd_width(double bd, double t, double radius) { return 2.0 * std::atanh(1.0 - 2.0 * t) / (radius * bd); }

double smoothing_bv(double bvh, double radius) { return bvh / std::sqrt(radius); }
double smoothing_bv_hat(double bv, double radius) { return bv * std::sqrt(radius); }

double scale_cf(double cf_a, double radius_a, double radius_b) {
  const double ratio = radius_b / radius_a;
  return cf_a * ratio * ratio;
}
double scale_bd(double bd_a, double radius_a, double radius_b) { return bd_a * radius_a / radius_b; }
double scale_bv(double bv_a, double radius_a, double radius_b) { return bv_a * std::sqrt(radius_a / radius_b); }

}  // namespace dropsim
