// Size-scaling laws for contact parameters [P5..P15], as pure functions.
#pragma once

namespace dropsim {

// A model standing on n identical coplanar spheres (the paper's drop model).
struct SphereSupport {
  double mass = 0.0;     // kg
  int spheres = 0;       // n
  double radius = 0.0;   // m
};

// [P9] E* that gives relative indentation xh at rest under gravity g.
double effective_modulus_for_indentation(const SphereSupport& s, double gravity, double xh);

// [P9] inverted: relative indentation at rest for a given E*.
double rest_indentation_relative(const SphereSupport& s, double gravity, double effective_modulus);

// [P11] E* of model b that keeps model a's relative indentation.
double scale_effective_modulus(double modulus_a, const SphereSupport& a, const SphereSupport& b);

// [P15] alpha_b = alpha_a sqrt(L_a / L_b): keeps restitution under dynamic similarity.
double scale_dissipation(double dissipation_a, double length_a, double length_b);

// Impact speed after a free fall from height h: sqrt(2 g h).
double impact_speed(double gravity, double height);

// [P14] approximate Hunt–Crossley restitution: cr = 1 - alpha v (small alpha v only).
double restitution_estimate(double dissipation, double impact_speed);

}  // namespace dropsim
