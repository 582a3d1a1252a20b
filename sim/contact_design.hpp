// A contact parameter set carried to another model and described the way `dropsim scale` reports it.
#pragma once

#include <vector>

#include "dropsim/sim/combining.hpp"
#include "dropsim/sim/conventions.hpp"
#include "dropsim/sim/contact_laws.hpp"
#include "dropsim/sim/scaling.hpp"

namespace dropsim {

// Contact parameters as an OpenSim user types them, on a model standing on spheres.
struct ContactParameters {
  SphereSupport support;
  double stiffness = 0.0;  // Pa, surface modulus as OpenSim takes it (both surfaces)
  CombiningRule combining = CombiningRule::sherman;
  double dissipation = 0.0;  // s/m
  double cf = opensim_default_cf, bd = opensim_default_bd, bv = opensim_default_bv;
};

// Everything the scale report gives for one model: the parameters and what follows from them.
struct ContactDescription {
  ContactParameters parameters;
  double gravity = standard_gravity;
  double effective_modulus = 0.0;      // E*, Pa
  double indentation_relative = 0.0;   // xh at rest docs/physics.md#size-scaling
  double indentation = 0.0;            // m, at rest
  double stiffness_per_sphere = 0.0;   // N/m, tangent at rest docs/physics.md#hertz-stiffness
  double stiffness_total = 0.0;        // N/m, n spheres in parallel
  double patch_radius = 0.0;           // m docs/physics.md#contact-patch-and-stress
  double patch_area = 0.0;             // m^2 docs/physics.md#contact-patch-and-stress
  double contact_stress = 0.0;         // Pa, mean at rest docs/physics.md#contact-patch-and-stress
  double impact_speed = 0.0;           // m/s after a 0.25 R drop
  double restitution_estimate = 0.0;   // docs/physics.md#restitution
  double restitution_simulated = 0.0;  // one gravity-free Hertz impact at that speed (sim/restitution.hpp)
  double cf_relative = 0.0;            // sqrt(cf) / R docs/physics.md#scaling-the-smoothing-parameters
  double bd_width = 0.0;               // relative width over which the Hertz step goes 10 % -> 90 % docs/physics.md#scaling-the-smoothing-parameters
  double bv_hat = 0.0;                 // bv sqrt(R) docs/physics.md#scaling-the-smoothing-parameters
};

ContactDescription describe_contact(const ContactParameters& p, double gravity);

// Model a's parameters carried to support b: modulus by docs/physics.md#size-scaling, cf/bd/bv by
// docs/physics.md#scaling-the-smoothing-parameters, dissipation by docs/physics.md#scaling-the-dissipation when scale_dissipation (kept otherwise).
ContactParameters scale_contact(const ContactParameters& a, const SphereSupport& b, bool scale_dissipation);

// Design mode docs/physics.md#design-for-a-load: the surface modulus for `gamma` body weights at relative
// indentation xh on `support`; the other parameters are taken from `p`.
ContactParameters design_contact(const ContactParameters& p, const SphereSupport& support, double gravity,
                                 double gamma, double xh);

}  // namespace dropsim

namespace dropsim {

// Force against indentation at one radius (the paper's Figure C.4): Hertz docs/physics.md#hertz-contact,
// the smoothed law with unscaled smoothing and with smoothing scaled to R.
struct ForceCurves {
  double radius = 0.0, effective_modulus = 0.0;
  double cf_unscaled = 0.0, bd_unscaled = 0.0, cf_scaled = 0.0, bd_scaled = 0.0;
  std::vector<double> indentation, hertz, smooth_unscaled, smooth_scaled;  // m, N, N, N
};

// `points` >= 2 indentations evenly from xh_min R to xh_max R.
ForceCurves force_curves(const ContactParameters& unscaled, const ContactParameters& scaled, double xh_min,
                         double xh_max, int points);

}  // namespace dropsim
