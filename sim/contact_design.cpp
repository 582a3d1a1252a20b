// Scaling a contact parameter set to another model and describing it.
#include "dropsim/sim/contact_design.hpp"

#include <cmath>

#include "dropsim/sim/restitution.hpp"

namespace dropsim {

ContactDescription describe_contact(const ContactParameters& p, double gravity) {
  ContactDescription d;
  d.parameters = p;
  d.gravity = gravity;
  const SphereSupport& s = p.support;
  d.effective_modulus = effective_modulus(p.combining, p.stiffness);
  d.indentation_relative = rest_indentation_relative(s, gravity, d.effective_modulus);
  d.indentation = d.indentation_relative * s.radius;
  d.stiffness_per_sphere = tangent_stiffness(d.effective_modulus, s.radius, d.indentation_relative);
  d.stiffness_total = s.spheres * d.stiffness_per_sphere;
  d.patch_radius = patch_radius(s.radius, d.indentation_relative);
  d.patch_area = patch_area(s.radius, d.indentation_relative);
  d.contact_stress = mean_contact_stress(s.mass * gravity / s.spheres, s.radius, d.indentation_relative);
  d.impact_speed = impact_speed(gravity, 0.25 * s.radius);
  d.restitution_estimate = restitution_estimate(p.dissipation, d.impact_speed);
  d.restitution_simulated = single_impact_restitution(1.5 * p.dissipation * d.impact_speed);
  d.cf_relative = smoothing_cf_relative(p.cf, s.radius);
  d.bd_width = smoothing_bd_width(p.bd, 0.1, s.radius);
  d.bv_hat = smoothing_bv_hat(p.bv, s.radius);
  return d;
}

ContactParameters scale_contact(const ContactParameters& a, const SphereSupport& b, bool scale_alpha) {
  ContactParameters p = a;
  p.support = b;
  // docs/physics.md#size-scaling applies to E* and to the typed surface modulus alike (same combining rule).
  p.stiffness = scale_effective_modulus(a.stiffness, a.support, b);
  if (scale_alpha) p.dissipation = scale_dissipation(a.dissipation, a.support.radius, b.radius);
  p.cf = scale_cf(a.cf, a.support.radius, b.radius);
  p.bd = scale_bd(a.bd, a.support.radius, b.radius);
  p.bv = scale_bv(a.bv, a.support.radius, b.radius);
  return p;
}

ContactParameters design_contact(const ContactParameters& base, const SphereSupport& support, double gravity,
                                 double gamma, double xh) {
  ContactParameters p = base;
  p.support = support;
  p.stiffness = surface_modulus(p.combining, effective_modulus_for_load(support, gravity, gamma, xh));
  return p;
}

}  // namespace dropsim

namespace dropsim {

ForceCurves force_curves(const ContactParameters& unscaled, const ContactParameters& scaled, double xh_min,
                         double xh_max, int points) {
  ForceCurves c;
  c.radius = scaled.support.radius;
  c.effective_modulus = effective_modulus(scaled.combining, scaled.stiffness);
  c.cf_unscaled = unscaled.cf;
  c.bd_unscaled = unscaled.bd;
  c.cf_scaled = scaled.cf;
  c.bd_scaled = scaled.bd;
  for (int i = 0; i < points; ++i) {
    const double x = c.radius * (xh_min + (xh_max - xh_min) * i / (points - 1));
    c.indentation.push_back(x);
    c.hertz.push_back(hertz_force(c.effective_modulus, c.radius, x));
    c.smooth_unscaled.push_back(smooth_hertz_force(c.effective_modulus, c.radius, c.cf_unscaled, c.bd_unscaled, x));
    c.smooth_scaled.push_back(smooth_hertz_force(c.effective_modulus, c.radius, c.cf_scaled, c.bd_scaled, x));
  }
  return c;
}

}  // namespace dropsim
