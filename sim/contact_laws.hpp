// Normal contact laws as pure functions: indentation, rate and parameters in, force out.
// Sign conventions for x and xdot: sim/conventions.hpp. A contact never pulls,
// except OpenSim's smoothed law, reproduced as it is: where 1 + 1.5 alpha xdot < 0
// its tanh factor leaves a pull of at most 0.209 alpha/bv Fs (docs/physics.md).
#pragma once

#include <algorithm>
#include <cmath>
#include <string_view>

#include "dropsim/sim/friction.hpp"
#include "dropsim/sim/names.hpp"

namespace dropsim {

// Hertz sphere on halfspace docs/physics.md#hertz-contact: Fe = 4/3 E* sqrt(R) x^(3/2), x > 0. eta = 1 (spheres).
// As 4/3 E* x sqrt(R x): one square root, the latency every sample and stage waits on.
inline double hertz_force(double effective_modulus, double radius, double x) {
  return x > 0.0 ? (4.0 / 3.0) * effective_modulus * x * std::sqrt(radius * x) : 0.0;
}

// Hertz tangent stiffness docs/physics.md#hertz-stiffness: dFe/dx = 2 E* sqrt(R x) = 1.5 Fe / x.
inline double hertz_stiffness(double effective_modulus, double radius, double x) {
  return x > 0.0 ? 2.0 * effective_modulus * std::sqrt(radius * x) : 0.0;
}

// Hunt–Crossley docs/physics.md#hunt-crossley with Simbody's clamp: F = max(Fe (1 + 1.5 alpha xdot), 0).
// Clamped per contact (Simbody leaves its whole contact loop instead).
inline double hunt_crossley(double elastic_force, double xdot, double dissipation) {
  return std::max(elastic_force * (1.0 + 1.5 * dissipation * xdot), 0.0);
}

// Hertz potential docs/physics.md#hertz-contact: V = 2/5 Fe x, from the elastic force at x.
inline double hertz_energy(double elastic_force, double x) { return 0.4 * elastic_force * x; }

// Linear penalty spring: F = k x for x > 0.
inline double linear_spring(double stiffness, double x) { return x > 0.0 ? stiffness * x : 0.0; }

// Kelvin–Voigt that never pulls: F = max(k x + c xdot, 0) for x > 0.
inline double linear_damped(double stiffness, double damping, double x, double xdot) {
  return x > 0.0 ? std::max(stiffness * x + damping * xdot, 0.0) : 0.0;
}

// OpenSim's smoothed Hertz force (SmoothSphereHalfSpaceForce) docs/physics.md#smoothed-hunt-crossley:
// Fs = (4/3) E* sqrt(R) (x^2 + cf)^(3/4) * (1/2 + 1/2 tanh(bd x)), for every x
// (it never vanishes: a sphere in flight still feels a tiny force).
inline double smooth_hertz_force(double effective_modulus, double radius, double cf, double bd, double x) {
  const double fcf = (4.0 / 3.0) * effective_modulus * std::sqrt(radius) * std::pow(x * x + cf, 0.75);
  return fcf * (0.5 + 0.5 * std::tanh(bd * x));
}

// The smoothed Hunt–Crossley factor docs/physics.md#smoothed-hunt-crossley: F = Fs (1 + 1.5 alpha xdot) (1/2 + 1/2 tanh(bv (xdot + 2/(3 alpha)))).
// alpha = 0 gives the factor 1 (OpenSim evaluates tanh(bv * inf) = 1 there too).
inline double smooth_hunt_crossley(double smooth_elastic_force, double xdot, double dissipation, double bv) {
  if (dissipation == 0.0) return smooth_elastic_force;
  const double sv = 0.5 + 0.5 * std::tanh(bv * (xdot + 2.0 / (3.0 * dissipation)));
  return smooth_elastic_force * (1.0 + 1.5 * dissipation * xdot) * sv;
}

// The restitution-parameterised laws are Hunt–Crossley-shaped, F = Fe (1 + chi xdot),
// with chi from a target restitution and impact speed (docs/physics.md#restitution,
// sim/restitution.hpp); `exact_restitution` inverts the single-impact relation.
enum class ContactLawKind {
  hertz,
  hunt_crossley,
  linear,
  linear_damped,
  smooth_hunt_crossley,
  lankarani_nikravesh,
  flores,
  gonthier,
  carvalho_martins,
  exact_restitution,
};

inline constexpr std::array<Named<ContactLawKind>, 10> contact_law_names{{
    {ContactLawKind::hertz, "hertz"},
    {ContactLawKind::hunt_crossley, "hunt_crossley"},
    {ContactLawKind::linear, "linear"},
    {ContactLawKind::linear_damped, "linear_damped"},
    {ContactLawKind::smooth_hunt_crossley, "smooth_hunt_crossley"},
    {ContactLawKind::lankarani_nikravesh, "lankarani_nikravesh"},
    {ContactLawKind::flores, "flores"},
    {ContactLawKind::gonthier, "gonthier"},
    {ContactLawKind::carvalho_martins, "carvalho_martins"},
    {ContactLawKind::exact_restitution, "exact_restitution"},
}};
constexpr std::string_view to_string(ContactLawKind kind) { return name_in(contact_law_names, kind); }

// Laws whose force is Fe (1 + chi xdot) with chi set from restitution and impact speed.
bool restitution_parameterised(ContactLawKind kind);

// OpenSim's SmoothSphereHalfSpaceForce defaults docs/physics.md#smoothed-hunt-crossley.
constexpr double opensim_default_cf = 1e-5;  // m^2, constant_contact_force
constexpr double opensim_default_bd = 300;   // 1/m, hertz_smoothing
constexpr double opensim_default_bv = 50;    // s/m, hunt_crossley_smoothing

// Resolved parameters of one contact law. Hertz-family laws use
// effective_modulus (E*, after combining) and radius; linear laws use
// stiffness (N/m) and damping (N s/m). Restitution-parameterised laws (and
// hunt_crossley given a restitution) carry the equivalent alpha = chi / 1.5 in
// `dissipation`, resolved when the law is built.
struct ContactLaw {
  ContactLawKind kind = ContactLawKind::hunt_crossley;
  double effective_modulus = 0.0;  // Pa
  double radius = 0.0;             // m
  double dissipation = 0.0;        // s/m, Hunt–Crossley alpha (chi / 1.5)
  double stiffness = 0.0;          // N/m, linear laws
  double damping = 0.0;            // N s/m, linear_damped
  double cf = opensim_default_cf;  // m^2, smooth_hunt_crossley
  double bd = opensim_default_bd;  // 1/m, smooth_hunt_crossley
  double bv = opensim_default_bv;  // s/m, smooth_hunt_crossley
  double restitution = 0.0;        // target cr, restitution-parameterised laws
  double impact_speed = 0.0;       // m/s, the v- that target refers to
  Friction friction;               // tangential, multi-contact scenarios (sim/friction.hpp)
};

// Laws built on Hertz (E* and radius, an alpha); the others are linear springs (stiffness in N/m).
inline bool hertz_family(ContactLawKind kind) {
  return kind != ContactLawKind::linear && kind != ContactLawKind::linear_damped;
}

// Laws whose force is max(Fe (1 + 1.5 alpha xdot), 0) with Hertz Fe (hertz: alpha = 0).
inline bool hunt_crossley_form(ContactLawKind kind) {
  return hertz_family(kind) && kind != ContactLawKind::smooth_hunt_crossley;
}

// Whether the law's force and tangents are exactly zero wherever x <= 0,
// whatever xdot: every law but the smoothed one, which reaches across the gap.
// Apart, such a contact needs neither its gap rate nor its Jacobian rows.
inline bool pushes_only_in_contact(const ContactLaw& law) {
  return law.kind != ContactLawKind::smooth_hunt_crossley;
}

// A Hunt–Crossley-form law's force from its Hertz elastic force (hertz: undamped).
inline double hunt_crossley_form_force(const ContactLaw& law, double elastic_force, double xdot) {
  return law.kind == ContactLawKind::hertz ? elastic_force : hunt_crossley(elastic_force, xdot, law.dissipation);
}

// The force alone (N, per contact): what a right-hand side needs, inline so the
// integrators' inner loops pay for no tangents and no energy. contact_response()
// returns the same number.
inline double contact_force(const ContactLaw& law, double x, double xdot) {
  if (law.kind == ContactLawKind::smooth_hunt_crossley)
    return smooth_hunt_crossley(smooth_hertz_force(law.effective_modulus, law.radius, law.cf, law.bd, x), xdot,
                                law.dissipation, law.bv);
  if (x <= 0.0) return 0.0;
  if (hunt_crossley_form(law.kind))
    return hunt_crossley_form_force(law, hertz_force(law.effective_modulus, law.radius, x), xdot);
  return linear_damped(law.stiffness, law.kind == ContactLawKind::linear ? 0.0 : law.damping, x, xdot);
}

// The force with its tangents at one instant (linearisation, implicit steppers).
struct ContactResponse {
  double force = 0.0;          // N, >= 0 (smooth_hunt_crossley: see the top of this file); = contact_force()
  double elastic_force = 0.0;  // N, conservative part
  double stiffness = 0.0;      // N/m, dF/dx at this state (tangent)
  double damping = 0.0;        // N s/m, dF/dxdot at this state (tangent)
};

ContactResponse contact_response(const ContactLaw& law, double x, double xdot);

// Potential of the smoothed elastic force, integral of Fs from -inf to x (J).
// OpenSim reports 2/5 Fs x instead, which is not the integral; the exact value
// keeps the trace's energy balance (and `dissipated`) right.
double smooth_hertz_energy(double effective_modulus, double radius, double cf, double bd, double x);

// Potential of the conservative part (J): Hertz 2/5 Fe x, linear 1/2 k x^2, the
// smoothed law's integral (quadrature: for observers, never for right-hand sides).
inline double contact_elastic_energy(const ContactLaw& law, double x) {
  if (law.kind == ContactLawKind::smooth_hunt_crossley)
    return smooth_hertz_energy(law.effective_modulus, law.radius, law.cf, law.bd, x);
  if (x <= 0.0) return 0.0;
  if (hunt_crossley_form(law.kind)) return hertz_energy(hertz_force(law.effective_modulus, law.radius, x), x);
  return 0.5 * law.stiffness * x * x;
}

// What an observer records of one contact at one instant.
struct ContactSample {
  double force = 0.0;           // N, = contact_force()
  double elastic_energy = 0.0;  // J, = contact_elastic_energy()
};
// contact_sample() of a Hunt–Crossley-form law. It keeps its own copy of the
// four numbers it needs (not the whole law: observers' loops copy it per step
// and keep it in registers), so the compiler can hoist the kind test out of
// them. Both from one evaluation of the law: force and energy share the
// elastic force (one square root, where observers spend most of a sample).
class HuntCrossleyFormSampler {
 public:
  explicit HuntCrossleyFormSampler(const ContactLaw& law)
      : modulus_(law.effective_modulus),
        radius_(law.radius),
        dissipation_(law.dissipation),
        undamped_(law.kind == ContactLawKind::hertz) {}
  // Without a branch on contact: a separated contact is a select, not a jump,
  // so that loops over samples vectorise (with -fno-trapping-math, which lets
  // GCC evaluate both sides of a select).
  ContactSample operator()(double x, double xdot) const {
    const double touching = x > 0.0 ? x : 0.0;
    const double elastic_force = hertz_force(modulus_, radius_, touching);
    // hunt_crossley_form_force(), with the kind tested once per sampler
    const double force = undamped_ ? elastic_force : hunt_crossley(elastic_force, xdot, dissipation_);
    return {x > 0.0 ? force : 0.0, hertz_energy(elastic_force, touching)};
  }

 private:
  double modulus_, radius_, dissipation_;
  bool undamped_;
};

inline ContactSample contact_sample(const ContactLaw& law, double x, double xdot) {
  if (!hunt_crossley_form(law.kind)) return {contact_force(law, x, xdot), contact_elastic_energy(law, x)};
  return HuntCrossleyFormSampler(law)(x, xdot);
}

// Switching functions: the force law is smooth wherever none of these changes
// sign. Index 0 is the indentation itself (touchdown/lift-off); index 1, for
// damped laws, is the argument of the no-pull clamp. Integrators land steps on
// their roots so that no step straddles a kink. The smoothed law has no kink:
// its one switch, x = 0, is the centre of its tanh step, which grows sharp as
// bd grows, so landing there keeps large-bd runs honest at the cost of one event.
// Inline, as the adaptive driver evaluates them three times a step.
constexpr int max_contact_switches = 2;

// Damped laws of the form max(Fe (1 + 1.5 alpha xdot), 0): one clamp switch when damped.
inline bool hunt_crossley_shaped(ContactLawKind kind) {
  return hunt_crossley_form(kind) && kind != ContactLawKind::hertz;
}

inline int contact_switch_count(const ContactLaw& law) {
  if (hunt_crossley_shaped(law.kind)) return law.dissipation > 0.0 ? 2 : 1;
  if (law.kind == ContactLawKind::linear_damped) return law.damping > 0.0 ? 2 : 1;
  return 1;
}

inline void contact_switches(const ContactLaw& law, double x, double xdot, double* out) {
  out[0] = x;
  // Only as many entries as contact_switch_count says: the caller sized `out` so.
  if (contact_switch_count(law) < 2) return;
  // The clamp only matters in contact; while open it is held positive so that
  // a body in flight triggers no spurious events.
  if (hunt_crossley_shaped(law.kind)) out[1] = x > 0.0 ? 1.0 + 1.5 * law.dissipation * xdot : 1.0;
  else out[1] = x > 0.0 ? law.stiffness * x + law.damping * xdot : 1.0;
}

}  // namespace dropsim
