// Size-scaling laws for contact parameters docs/physics.md#size-scaling, as pure functions.
#pragma once

#include "dropsim/sim/combining.hpp"

namespace dropsim {

// A model standing on n identical coplanar spheres (the paper's drop model).
struct SphereSupport {
  double mass = 0.0;     // kg
  int spheres = 0;       // n
  double radius = 0.0;   // m
};

// docs/physics.md#size-scaling E* that gives relative indentation xh at rest under gravity g.
double effective_modulus_for_indentation(const SphereSupport& s, double gravity, double xh);

// docs/physics.md#size-scaling inverted: relative indentation at rest for a given E*.
double rest_indentation_relative(const SphereSupport& s, double gravity, double effective_modulus);

// docs/physics.md#design-for-a-load E* for a peak load of gamma body weights at relative indentation xh.
double effective_modulus_for_load(const SphereSupport& s, double gravity, double gamma, double xh);

// docs/physics.md#hertz-stiffness Hertz tangent stiffness per sphere at relative indentation xh: 2 E* R sqrt(xh).
double tangent_stiffness(double effective_modulus, double radius, double xh);

// docs/physics.md#design-for-a-load + docs/physics.md#hertz-stiffness solved together: the (E*, R) that give tangent stiffness k per
// sphere at relative indentation xh under gamma body weights (mass and sphere
// count from `s`; s.radius is ignored).
struct ModulusAndRadius {
  double effective_modulus = 0.0;  // Pa
  double radius = 0.0;             // m
};
ModulusAndRadius design_for_stiffness(const SphereSupport& s, double gravity, double gamma, double stiffness,
                                      double xh);

// docs/physics.md#combining-rules + docs/physics.md#combining-rules + docs/physics.md#combining-rules: the "stiffness" an OpenSim user types for a soft
// layer of Young's modulus E and Poisson ratio nu on rigid ground. Both
// surfaces get the same value, so it is the surface modulus whose composite
// (under `rule`) equals the layer's plane-strain modulus.
double opensim_stiffness_for_material(CombiningRule rule, double youngs_modulus, double poisson_ratio);

// docs/physics.md#contact-patch-and-stress contact patch at relative indentation xh: radius sqrt(R x) = R sqrt(xh),
// area pi R x, mean stress F / area.
double patch_radius(double radius, double xh);
double patch_area(double radius, double xh);
double mean_contact_stress(double force, double radius, double xh);

// docs/physics.md#size-scaling E* of model b that keeps model a's relative indentation.
double scale_effective_modulus(double modulus_a, const SphereSupport& a, const SphereSupport& b);
// The same for a linear spring (n k x = M g): k_b = k_a (M_b / M_a) (n_a / n_b) (R_a / R_b).
double scale_linear_stiffness(double stiffness_a, const SphereSupport& a, const SphereSupport& b);

// docs/physics.md#scaling-the-dissipation alpha_b = alpha_a sqrt(L_a / L_b): keeps restitution under dynamic similarity.
double scale_dissipation(double dissipation_a, double length_a, double length_b);

// Impact speed after a free fall from height h: sqrt(2 g h).
double impact_speed(double gravity, double height);

// docs/physics.md#restitution approximate Hunt–Crossley restitution: cr = 1 - alpha v (small alpha v only).
double restitution_estimate(double dissipation, double impact_speed);

// docs/physics.md#restitution inverted: alpha = (1 - cr) / v.
double dissipation_for_restitution_estimate(double restitution, double impact_speed);

// docs/physics.md#scaling-the-smoothing-parameters smoothing constant cf for a constant-force indentation of xh_cf radii: (xh_cf R)^2,
// and its inverse xh_cf = sqrt(cf) / R.
double smoothing_cf(double xh_cf, double radius);
double smoothing_cf_relative(double cf, double radius);

// docs/physics.md#scaling-the-smoothing-parameters Hertz smoothing bd whose step goes from t to 1 - t across a relative
// indentation width dxh: 2 atanh(1 - 2t) / (R dxh); and that width for a given bd.
double smoothing_bd(double t, double dxh, double radius);
double smoothing_bd_width(double bd, double t, double radius);

// docs/physics.md#scaling-the-smoothing-parameters Hunt–Crossley smoothing bv = bvh / sqrt(R), and bvh = bv sqrt(R)
// (the dimensionless-in-R constant; OpenSim's default gives 50 sqrt(0.032) = 8.94).
double smoothing_bv(double bvh, double radius);
double smoothing_bv_hat(double bv, double radius);

// The smoothing parameters of model a carried to radius R_b so that the
// smoothed law becomes size-invariant in xh and tau: cf by (R_b/R_a)^2 docs/physics.md#scaling-the-smoothing-parameters,
// bd by R_a/R_b docs/physics.md#scaling-the-smoothing-parameters, bv by sqrt(R_a/R_b) docs/physics.md#scaling-the-smoothing-parameters.
double scale_cf(double cf_a, double radius_a, double radius_b);
double scale_bd(double bd_a, double radius_a, double radius_b);
double scale_bv(double bv_a, double radius_a, double radius_b);

}  // namespace dropsim
