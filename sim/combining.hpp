// Combining rules: from the surface moduli a user types to the composite E* docs/physics.md#combining-rules.
#pragma once

#include <optional>
#include <string_view>

#include "dropsim/sim/names.hpp"

namespace dropsim {

enum class CombiningRule { sherman, johnson, none };

inline constexpr std::array<Named<CombiningRule>, 3> combining_rule_names{{
    {CombiningRule::sherman, "sherman"}, {CombiningRule::johnson, "johnson"}, {CombiningRule::none, "none"}}};
constexpr std::string_view to_string(CombiningRule rule) { return name_in(combining_rule_names, rule); }
constexpr std::optional<CombiningRule> combining_rule_from_string(std::string_view name) {
  return value_in(combining_rule_names, name);
}

// Plane-strain modulus of one material docs/physics.md#combining-rules: E / (1 - nu^2).
double plane_strain_modulus(double youngs_modulus, double poisson_ratio);

// Johnson (textbook) rule docs/physics.md#combining-rules: 1/E* = 1/E1 + 1/E2.
double johnson_composite(double e1, double e2);

// Sherman's rule, Simbody/OpenSim docs/physics.md#combining-rules: k_i = E_i^(2/3), s1 = k2/(k1+k2), E* = (s1 k1)^(3/2).
double sherman_composite(double e1, double e2);

// Simbody's share of surface 1 in the combined properties: s1 = k2 / (k1 + k2).
double sherman_share(double e1, double e2);

// Simbody's pair dissipation docs/physics.md#combining-rules: c = s1 c1 + (1 - s1) c2.
double sherman_dissipation(double e1, double e2, double c1, double c2);

// Simbody's pair friction coefficient (static, dynamic or viscous) docs/physics.md#combining-rules:
// 2 mu1 mu2 / (mu1 + mu2), 0 when both are 0.
double sherman_friction(double mu1, double mu2);

// Hertz between two spheres docs/physics.md#hertz-contact: they touch as one
// sphere of R1 R2 / (R1 + R2) on a plane (0 for two points).
double sphere_pair_radius(double r1, double r2);

// E* when both surfaces are given the same modulus (OpenSim's habit) docs/physics.md#combining-rules:
// E / 2^p with p = 3/2 (Sherman), 1 (Johnson); `none` takes E as E* itself.
double effective_modulus(CombiningRule rule, double surface_modulus);

// Inverse of effective_modulus: the surface modulus to type for a wanted E*.
double surface_modulus(CombiningRule rule, double effective_modulus);

}  // namespace dropsim
