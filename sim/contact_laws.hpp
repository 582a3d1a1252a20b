// Normal contact laws as pure functions: indentation, rate and parameters in, force out.
// Sign conventions for x and xdot: sim/conventions.hpp. A contact never pulls.
#pragma once

#include <algorithm>
#include <cmath>
#include <string_view>

namespace dropsim {

// Hertz sphere on halfspace [P1]: Fe = 4/3 E* sqrt(R) x^(3/2), x > 0. eta = 1 (spheres).
inline double hertz_force(double effective_modulus, double radius, double x) {
  return x > 0.0 ? (4.0 / 3.0) * effective_modulus * std::sqrt(radius) * x * std::sqrt(x) : 0.0;
}

// Hertz tangent stiffness [P-B1]: dFe/dx = 2 E* sqrt(R x) = 1.5 Fe / x.
inline double hertz_stiffness(double effective_modulus, double radius, double x) {
  return x > 0.0 ? 2.0 * effective_modulus * std::sqrt(radius * x) : 0.0;
}

// Hunt–Crossley [P13] with Simbody's clamp: F = max(Fe (1 + 1.5 alpha xdot), 0).
// Clamped per contact (Simbody leaves its whole contact loop instead).
inline double hunt_crossley(double elastic_force, double xdot, double dissipation) {
  return std::max(elastic_force * (1.0 + 1.5 * dissipation * xdot), 0.0);
}

// Linear penalty spring: F = k x for x > 0.
inline double linear_spring(double stiffness, double x) { return x > 0.0 ? stiffness * x : 0.0; }

// Kelvin–Voigt that never pulls: F = max(k x + c xdot, 0) for x > 0.
inline double linear_damped(double stiffness, double damping, double x, double xdot) {
  return x > 0.0 ? std::max(stiffness * x + damping * xdot, 0.0) : 0.0;
}

enum class ContactLawKind { hertz, hunt_crossley, linear, linear_damped };

std::string_view to_string(ContactLawKind kind);

// Resolved parameters of one contact law. Hertz-family laws use
// effective_modulus (E*, after combining) and radius; linear laws use
// stiffness (N/m) and damping (N s/m).
struct ContactLaw {
  ContactLawKind kind = ContactLawKind::hunt_crossley;
  double effective_modulus = 0.0;  // Pa
  double radius = 0.0;             // m
  double dissipation = 0.0;        // s/m, Hunt–Crossley alpha
  double stiffness = 0.0;          // N/m, linear laws
  double damping = 0.0;            // N s/m, linear_damped
};

// Everything the engine needs of a contact at one instant.
struct ContactResponse {
  double force = 0.0;           // N, >= 0
  double elastic_force = 0.0;   // N, conservative part
  double elastic_energy = 0.0;  // J, potential of the conservative part
  double stiffness = 0.0;       // N/m, dF/dx at this state (tangent)
  double damping = 0.0;         // N s/m, dF/dxdot at this state (tangent)
};

ContactResponse contact_response(const ContactLaw& law, double x, double xdot);

// Switching functions: the force law is smooth wherever none of these changes
// sign. Index 0 is the indentation itself (touchdown/lift-off); index 1, for
// damped laws, is the argument of the no-pull clamp. Integrators land steps on
// their roots so that no step straddles a kink.
constexpr int max_contact_switches = 2;
int contact_switch_count(const ContactLaw& law);
void contact_switches(const ContactLaw& law, double x, double xdot, double* out);

}  // namespace dropsim
