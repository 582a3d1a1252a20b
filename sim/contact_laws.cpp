// Contact law dispatch: force, stored energy and tangents for each law.
#include "sim/contact_laws.hpp"

namespace dropsim {

std::string_view to_string(ContactLawKind kind) {
  switch (kind) {
    case ContactLawKind::hertz: return "hertz";
    case ContactLawKind::hunt_crossley: return "hunt_crossley";
    case ContactLawKind::linear: return "linear";
    case ContactLawKind::linear_damped: return "linear_damped";
  }
  return "unknown";
}

ContactResponse contact_response(const ContactLaw& law, double x, double xdot) {
  ContactResponse r;
  if (x <= 0.0) return r;
  switch (law.kind) {
    case ContactLawKind::hertz:
    case ContactLawKind::hunt_crossley: {
      const double fe = hertz_force(law.effective_modulus, law.radius, x);
      const double ke = hertz_stiffness(law.effective_modulus, law.radius, x);
      const double alpha = law.kind == ContactLawKind::hertz ? 0.0 : law.dissipation;
      const double factor = 1.0 + 1.5 * alpha * xdot;
      r.elastic_force = fe;
      r.elastic_energy = 0.4 * fe * x;  // integral of [P1]: 2/5 Fe x
      if (factor > 0.0) {
        r.force = fe * factor;
        r.stiffness = ke * factor;
        r.damping = 1.5 * alpha * fe;
      }
      return r;
    }
    case ContactLawKind::linear:
    case ContactLawKind::linear_damped: {
      const double c = law.kind == ContactLawKind::linear ? 0.0 : law.damping;
      const double f = law.stiffness * x + c * xdot;
      r.elastic_force = law.stiffness * x;
      r.elastic_energy = 0.5 * law.stiffness * x * x;
      if (f > 0.0) {
        r.force = f;
        r.stiffness = law.stiffness;
        r.damping = c;
      }
      return r;
    }
  }
  return r;
}

int contact_switch_count(const ContactLaw& law) {
  switch (law.kind) {
    case ContactLawKind::hunt_crossley: return law.dissipation > 0.0 ? 2 : 1;
    case ContactLawKind::linear_damped: return law.damping > 0.0 ? 2 : 1;
    default: return 1;
  }
}

void contact_switches(const ContactLaw& law, double x, double xdot, double* out) {
  out[0] = x;
  // The clamp only matters in contact; while open it is held positive so that
  // a body in flight triggers no spurious events.
  switch (law.kind) {
    case ContactLawKind::hunt_crossley: out[1] = x > 0.0 ? 1.0 + 1.5 * law.dissipation * xdot : 1.0; break;
    case ContactLawKind::linear_damped: out[1] = x > 0.0 ? law.stiffness * x + law.damping * xdot : 1.0; break;
    default: break;
  }
}

}  // namespace dropsim
