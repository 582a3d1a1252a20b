// dropsim as a library: the paper's human drop run by dropsim's engine, and the
// same drop on a contact law of our own run by dropsim's integrators.
#include <cmath>
#include <cstdio>

#include <dropsim/integrators/integrate.hpp>
#include <dropsim/sim/simulate.hpp>

// Our own law: a Hertz spring (k x^1.5) with a damper linear in the speed,
// c xdot, clamped so the contact never pulls. A System in dropsim's sense:
// state [y, v] with y the height of the spheres' lowest point, x = -y. It has
// no jacobian(), so the methods that solve with one (implicit_euler, newmark,
// rosenbrock4, the velocity-implicit kicks) refuse it; every other method runs.
struct HertzLinearDamperDrop {
  using Vector = Eigen::Vector2d;
  double mass = 62.0, spheres = 6.0, k = 0.0, c = 200.0, gravity = 9.80665;

  double contact_force(double x, double xdot) const {
    return x > 0.0 ? std::max(k * std::pow(x, 1.5) + c * xdot, 0.0) : 0.0;
  }
  int size() const { return 2; }
  int num_positions() const { return 1; }
  void operator()(const Vector& s, Vector& dsdt, double /*t*/) const {
    dsdt = Vector(s[1], spheres * contact_force(-s[0], -s[1]) / mass - gravity);
  }
  void position_rate(const Vector& s, Vector& dsdt) const { dsdt[0] = s[1]; }
  int num_switches() const { return 1; }  // touchdown: the law's kink at x = 0
  void switches(const Vector& s, double* out) const { out[0] = s[0]; }
  void project(Vector&) const {}
};

int main() {
  // The scaling paper's 62 kg human on six 32 mm spheres, OpenSim's 1 MPa through Sherman's rule.
  dropsim::DropModel human;
  human.mass = 62.0;
  human.spheres = 6;
  human.characteristic_length = 0.032;
  human.initial_height = 0.25 * 0.032;
  human.law.kind = dropsim::ContactLawKind::hunt_crossley;
  human.law.radius = 0.032;
  human.law.effective_modulus = 1e6 / std::pow(2.0, 1.5);
  human.law.dissipation = 2.0;

  dropsim::RunSettings run;
  run.duration = 2.0;
  run.output_interval = run.duration / 4000.0;
  run.integrator.method = dropsim::integrators::Method::dopri5;
  run.integrator.rtol = 1e-9;
  const dropsim::Trace trace = dropsim::simulate(human, run);
  std::printf("dropsim hunt_crossley: peak F/(Mg) %.4f at tau %.3f, %ld steps\n",
              trace.summary.peak_force_normalized, trace.summary.tau_of_peak, trace.stats.steps);

  // The same spheres with our law: k = 4/3 E* sqrt(R) per sphere.
  HertzLinearDamperDrop own;
  own.k = 4.0 / 3.0 * human.law.effective_modulus * std::sqrt(human.law.radius);
  HertzLinearDamperDrop::Vector x{human.initial_height, 0.0};
  const auto grid = dropsim::integrators::output_grid(0.0, run.duration, run.output_interval);
  double peak = 0.0;
  const auto observe = [&](const HertzLinearDamperDrop::Vector& s, double) {
    peak = std::max(peak, own.spheres * own.contact_force(-s[0], -s[1]) / (own.mass * own.gravity));
    return true;
  };
  const auto stats = dropsim::integrators::integrate(run.integrator, own, x, grid,
                                                     HertzLinearDamperDrop::Vector::Constant(1e-12), observe);
  std::printf("own Hertz + linear damper: peak F/(Mg) %.4f, %ld steps\n", peak, stats.steps);
  return trace.summary.peak_force_normalized > 1.0 && peak > 1.0 ? 0 : 1;
}
