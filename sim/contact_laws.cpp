// Contact law dispatch: force, stored energy and tangents for each law.
#include "dropsim/sim/contact_laws.hpp"

#include <boost/math/quadrature/gauss.hpp>
#include <boost/math/quadrature/gauss_kronrod.hpp>

namespace dropsim {

bool restitution_parameterised(ContactLawKind kind) {
  switch (kind) {
    case ContactLawKind::lankarani_nikravesh:
    case ContactLawKind::flores:
    case ContactLawKind::gonthier:
    case ContactLawKind::carvalho_martins:
    case ContactLawKind::exact_restitution: return true;
    default: return false;
  }
}

double smooth_hertz_energy(double effective_modulus, double radius, double cf, double bd, double x) {
  // Below x = -40/bd the step factor is under e^-80: nothing left to integrate
  // (bd > 0 is a parse-time rule; with bd = 0 the potential would be infinite).
  const double reach = 40.0 / bd;
  if (x <= -reach) return 0.0;
  const double low = std::min(x, 0.0) - reach;
  auto fs = [&](double s) { return smooth_hertz_force(effective_modulus, radius, cf, bd, s); };
  // Panels: the exponential tail, the two halves of the tanh step (split at 0,
  // where (x^2 + cf)^(3/4) bends sharply when cf is small), then the smooth
  // Hertz remainder. Fixed 30-point Gauss on the first three (relative error
  // < 1e-9, checked against adaptive quadrature at 1e-14); an adaptive Kronrod
  // rule on the last, whose length is open-ended.
  using Gauss = boost::math::quadrature::gauss<double, 30>;
  using Kronrod = boost::math::quadrature::gauss_kronrod<double, 31>;
  const double knots[] = {low, -8.0 / bd, 0.0, 8.0 / bd};
  double energy = 0.0;
  for (int i = 0; i < 3 && x > knots[i]; ++i) energy += Gauss::integrate(fs, knots[i], std::min(x, knots[i + 1]));
  if (x > knots[3]) energy += Kronrod::integrate(fs, knots[3], x, 10, 1e-11);
  return energy;
}

namespace {

// OpenSim's SmoothSphereHalfSpaceForce docs/physics.md#smoothed-hunt-crossley and its tangents; acts at every x.
ContactResponse smooth_response(const ContactLaw& law, double x, double xdot) {
  ContactResponse r;
  const double e = law.effective_modulus, radius = law.radius;
  const double base = x * x + law.cf;
  const double fcf = (4.0 / 3.0) * e * std::sqrt(radius) * std::pow(base, 0.75);
  const double dfcf = 2.0 * e * std::sqrt(radius) * x / std::pow(base, 0.25);
  const double th = std::tanh(law.bd * x);
  const double sc = 0.5 + 0.5 * th;
  const double dsc = 0.5 * law.bd * (1.0 - th * th);
  const double fs = fcf * sc;
  const double dfs = dfcf * sc + fcf * dsc;
  // Velocity factor h(xdot) = (1 + 1.5 alpha xdot) sv(xdot) and its slope.
  double h = 1.0, dh = 0.0;
  if (law.dissipation != 0.0) {
    const double alpha = law.dissipation;
    const double tv = std::tanh(law.bv * (xdot + 2.0 / (3.0 * alpha)));
    const double sv = 0.5 + 0.5 * tv;
    h = (1.0 + 1.5 * alpha * xdot) * sv;
    dh = 1.5 * alpha * sv + (1.0 + 1.5 * alpha * xdot) * 0.5 * law.bv * (1.0 - tv * tv);
  }
  r.elastic_force = fs;
  r.force = contact_force(law, x, xdot);
  r.stiffness = dfs * h;
  r.damping = fs * dh;
  return r;
}

}  // namespace

ContactResponse contact_response(const ContactLaw& law, double x, double xdot) {
  if (law.kind == ContactLawKind::smooth_hunt_crossley) return smooth_response(law, x, xdot);
  ContactResponse r;
  if (x <= 0.0) return r;
  r.force = contact_force(law, x, xdot);
  if (hunt_crossley_form(law.kind)) {
    const double alpha = law.kind == ContactLawKind::hertz ? 0.0 : law.dissipation;
    const double factor = 1.0 + 1.5 * alpha * xdot;
    r.elastic_force = hertz_force(law.effective_modulus, law.radius, x);
    if (factor > 0.0) {  // not clamped
      r.stiffness = hertz_stiffness(law.effective_modulus, law.radius, x) * factor;
      r.damping = 1.5 * alpha * r.elastic_force;
    }
    return r;
  }
  r.elastic_force = law.stiffness * x;
  if (r.force > 0.0) {
    r.stiffness = law.stiffness;
    r.damping = law.kind == ContactLawKind::linear ? 0.0 : law.damping;
  }
  return r;
}

}  // namespace dropsim
