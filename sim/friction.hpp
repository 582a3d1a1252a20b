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

inline FrictionSlope friction_slope(const Friction& f, double s) {
  const double vt = f.transition_velocity, r = s / vt, us = f.static_coefficient, ud = f.dynamic_coefficient;
  const double stribeck = 1.0 / (1.0 + r * r);
  const double mu = ud + 2.0 * (us - ud) * stribeck;  // the coefficient once past v_t
  if (r < 1.0)
    // mu / s = mu(r) / v_t + mu_v; its slope comes from the Stribeck term alone.
    return {mu / vt + f.viscous_coefficient, -4.0 * (us - ud) * stribeck * stribeck / (vt * vt * vt)};
  return {mu / s + f.viscous_coefficient,
          (-mu / s - 4.0 * (us - ud) * r * stribeck * stribeck / vt) / (s * s)};
}

}  // namespace dropsim
