// Single-impact restitution by integration, and its inversion by a bracketing root finder.
#include "dropsim/sim/restitution.hpp"
#include "dropsim/integrators/check.hpp"

#include <array>
#include <boost/math/tools/toms748_solve.hpp>
#include <cmath>
#include <stdexcept>

#include "dropsim/integrators/odeint.hpp"

namespace dropsim {

namespace {

using State = std::array<double, 2>;  // z = x / x_ref, u = xdot / v-

// Dimensionless impact: with x_ref = (m v-^2 / K)^(2/5) and t_ref = x_ref / v-,
// m x'' = -K x^(3/2) max(1 + chi x', 0) becomes z'' = -z^(3/2) max(1 + c z', 0),
// z(0) = 0, z'(0) = 1, c = chi v-. The rebound speed -z' at z = 0 is cr.
struct Impact {
  double c;
  void operator()(const State& s, State& ds, double) const {
    const double z = std::max(s[0], 0.0);
    ds[0] = s[1];
    ds[1] = -z * std::sqrt(z) * std::max(1.0 + c * s[1], 0.0);
  }
};

}  // namespace

double single_impact_restitution(double chi_times_speed) {
  namespace odeint = boost::numeric::odeint;
  auto stepper = odeint::make_dense_output(1e-13, 1e-13, odeint::runge_kutta_dopri5<State>());
  const Impact impact{chi_times_speed};
  State s{0.0, 1.0};
  stepper.initialize(s, 0.0, 1e-3);
  // The rebound ends when z crosses 0 moving out; a long tail of weak force can
  // precede it when c is large, hence the generous limit.
  constexpr double t_limit = 1e6;
  while (stepper.current_time() < t_limit) {
    stepper.do_step(impact);
    const State& now = stepper.current_state();
    if (now[0] < 0.0 && now[1] < 0.0) {
      // Bisect the crossing on the dense output.
      double a = stepper.previous_time(), b = stepper.current_time();
      State mid;
      for (int i = 0; i < 200 && b - a > 1e-15 * b; ++i) {
        const double m = 0.5 * (a + b);
        stepper.calc_state(m, mid);
        (mid[0] < 0.0 ? b : a) = m;
      }
      stepper.calc_state(b, mid);
      return -mid[1];
    }
  }
  return 0.0;  // never left contact within the limit: no rebound
}

double chi_times_speed_for_restitution(double restitution) {
  if (!(restitution > 0.0 && restitution <= 1.0))
    throw std::invalid_argument("restitution must lie in (0, 1]");
  if (restitution == 1.0) return 0.0;
  // cr(c) falls from 1 at c = 0 towards 0: bracket, then TOMS 748.
  auto gap = [&](double c) { return single_impact_restitution(c) - restitution; };
  double lo = 0.0, hi = 1.0;
  while (gap(hi) > 0.0) {
    lo = hi;
    hi *= 2.0;
    if (hi > 1e8) throw std::invalid_argument("restitution too small to reach by damping");
  }
  std::uintmax_t iterations = 200;
  const auto root = boost::math::tools::toms748_solve(gap, lo, hi, boost::math::tools::eps_tolerance<double>(44),
                                                      iterations);
  return 0.5 * (root.first + root.second);
}

double damping_factor(ContactLawKind kind, double cr, double v) {
  switch (kind) {
    case ContactLawKind::hunt_crossley: return 3.0 * (1.0 - cr) / (2.0 * v);
    case ContactLawKind::lankarani_nikravesh: return 3.0 * (1.0 - cr * cr) / (4.0 * v);
    case ContactLawKind::flores: return 8.0 * (1.0 - cr) / (5.0 * cr * v);
    case ContactLawKind::gonthier: return (1.0 - cr * cr) / (cr * v);
    case ContactLawKind::carvalho_martins: return 1.5 * (1.0 - cr) * (11.0 - cr) / ((1.0 + 9.0 * cr) * v);
    case ContactLawKind::exact_restitution: return chi_times_speed_for_restitution(cr) / v;
    default: break;
  }
  check_failed(__FILE__, __LINE__, "damping_factor", "law " + std::string(to_string(kind)) + " takes no restitution");
}

double dissipation_for_restitution(ContactLawKind kind, double cr, double v) {
  return damping_factor(kind, cr, v) / 1.5;
}

}  // namespace dropsim
