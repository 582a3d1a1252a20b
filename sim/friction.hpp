// Friction at a contact: Simbody's regularised Stribeck law (docs/physics.md#friction).
#pragma once

#include <algorithm>

namespace dropsim {

// OpenSim's HuntCrossleyForce and SmoothSphereHalfSpaceForce default.
constexpr double opensim_default_transition_velocity = 0.01;  // m/s

// OpenSim's names; every coefficient 0 (OpenSim's default) means no friction.
struct Friction {
  double static_coefficient = 0.0;   // mu_s
  double dynamic_coefficient = 0.0;  // mu_d
  double viscous_coefficient = 0.0;  // mu_v, s/m
  double transition_velocity = opensim_default_transition_velocity;  // v_t, m/s
  bool acts() const { return static_coefficient != 0.0 || dynamic_coefficient != 0.0 || viscous_coefficient != 0.0; }
};

// The friction coefficient over the slip speed s, mu(s) / s, and its slope
// d(mu/s)/ds divided by s, from Simbody's HuntCrossleyForce::calcForce:
//   mu(s) = min(s / v_t, 1) (mu_d + 2 (mu_s - mu_d) / (1 + (s / v_t)^2)) + mu_v s.
// Both stay finite at s = 0, where friction is a linear damper of
// F_n ((2 mu_s - mu_d) / v_t + mu_v) per unit slip.
struct FrictionSlope {
  double per_slip = 0.0;         // mu(s) / s, s/m
  double change_per_slip = 0.0;  // (d(mu/s)/ds) / s, s^3/m^3
};

// One division on the slip speed's path, where the formula as written has three
// in a chain (s / v_t, the Stribeck term, mu / s): a right-hand side waited on
// them at every sliding contact. 1 / v_t does not depend on s and overlaps.
// Below v_t the law reads s^2 alone, so a caller that has s_squared = s^2 (the
// slip velocity's squared norm) passes it and the root is off that path too.
inline FrictionSlope friction_slope(const Friction& f, double s, double s_squared) {
  const double per_vt = 1.0 / f.transition_velocity, r_squared = s_squared * (per_vt * per_vt);
  const double us = f.static_coefficient, ud = f.dynamic_coefficient, d = 1.0 + r_squared;
  if (r_squared < 1.0) {
    // mu / s = mu(r) / v_t + mu_v; its slope comes from the Stribeck term alone.
    const double stribeck = 1.0 / d;
    return {(ud + 2.0 * (us - ud) * stribeck) * per_vt + f.viscous_coefficient,
            -4.0 * (us - ud) * stribeck * stribeck * (per_vt * per_vt * per_vt)};
  }
  // mu / s = (mu_d d + 2 (mu_s - mu_d)) / (d s), d = 1 + r^2.
  const double r = s * per_vt, per_slip = (ud * d + 2.0 * (us - ud)) / (d * s);
  return {per_slip + f.viscous_coefficient, (-per_slip - 4.0 * (us - ud) * r * per_vt / (d * d)) / (s * s)};
}
inline FrictionSlope friction_slope(const Friction& f, double s) { return friction_slope(f, s, s * s); }

}  // namespace dropsim
