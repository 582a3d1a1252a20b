// Runs any registered method on any System: the one place a method name becomes a stepper.
// Dispatch happens once per run; the inner loops are fully typed.
#pragma once

#include "dropsim/integrators/adaptive.hpp"
#include "dropsim/integrators/fixed_step.hpp"
#include "dropsim/integrators/implicit.hpp"
#include "dropsim/integrators/registry.hpp"
#include "dropsim/integrators/simbody_control.hpp"
#include "dropsim/integrators/sundials.hpp"
#include "dropsim/integrators/symplectic.hpp"

namespace dropsim::integrators {

struct Settings {
  Method method = Method::dopri5;
  double rtol = 1e-9;  // adaptive methods
  double step = 0.0;   // fixed-step methods: the largest step
  double max_step = 0.0;
  // Run an adaptive method's formula with the fixed step instead of its error
  // control (step-limit measurement).
  bool fixed = false;
  SundialsOptions sundials;  // cvode_* and arkode_* only
};

// Calls visit(stepper) with the fixed-step form of `method` (every method has
// one: adaptive methods' is their propagated formula without error control).
template <class Vector, class Visitor>
decltype(auto) visit_one_step(Method method, Visitor&& visit) {
  switch (method) {
    case Method::euler: { ForwardEuler<Vector> s; return visit(s); }
    case Method::symplectic_euler: { SymplecticEuler<Vector> s; return visit(s); }
    case Method::central_difference: { CentralDifference<Vector> s; return visit(s); }
    case Method::velocity_verlet: { VelocityVerlet<Vector> s; return visit(s); }
    case Method::rk4: { RungeKutta4<Vector> s; return visit(s); }
    case Method::cash_karp54: { CashKarp54Pair<Vector> s; return visit(s); }
    case Method::dopri5: { Dopri5Pair<Vector> s; return visit(s); }
    case Method::fehlberg78: { Fehlberg78Pair<Vector> s; return visit(s); }
    case Method::bulirsch_stoer: { BulirschStoerPair<Vector> s; return visit(s); }
    case Method::rosenbrock4: { Rosenbrock4Pair<Vector> s; return visit(s); }
    case Method::implicit_euler: { ImplicitEuler<Vector> s; return visit(s); }
    case Method::newmark: { Newmark<Vector> s; return visit(s); }
    case Method::mclachlan_sb3a: { McLachlanSB3A<Vector> s; return visit(s); }
    case Method::rk_merson: { MersonPair<Vector> s; return visit(s); }
    default: break;  // SUNDIALS methods step inside the library
  }
  throw std::invalid_argument(std::string("no fixed-step form of integrator ") + std::string(info(method).name));
}

// Calls visit(pair) with the embedded pair of an adaptive method.
template <class Vector, class Visitor>
decltype(auto) visit_pair(Method method, Visitor&& visit) {
  switch (method) {
    case Method::cash_karp54: { CashKarp54Pair<Vector> s; return visit(s); }
    case Method::fehlberg78: { Fehlberg78Pair<Vector> s; return visit(s); }
    case Method::bulirsch_stoer: { BulirschStoerPair<Vector> s; return visit(s); }
    case Method::rosenbrock4: { Rosenbrock4Pair<Vector> s; return visit(s); }
    case Method::dopri5: { Dopri5Pair<Vector> s; return visit(s); }
    case Method::rk_merson: { MersonPair<Vector> s; return visit(s); }
    default: break;
  }
  throw std::invalid_argument(std::string(info(method).name) + " has no error-controlled form");
}

// Throws std::invalid_argument when settings.method names no registered method.
// An adaptive method's driver tells `watch` of every accepted step (stiffness.hpp).
template <class System, class Observer, class Watch = NoStepWatch>
IntegrationStats integrate(const Settings& settings, const System& system, typename System::Vector& x,
                           const std::vector<double>& grid, const typename System::Vector& atol,
                           Observer&& observer, Watch&& watch = {}) {
  using Vector = typename System::Vector;
  if (info(settings.method).library == Library::sundials) {
    SundialsRun run{settings.method, settings.rtol, settings.max_step, settings.fixed ? settings.step : 0.0,
                    settings.sundials};
    return integrate_with_sundials(run, system, x, grid, atol, observer, watch);
  }
  if (settings.method == Method::rk_merson && !settings.fixed) {
    // Simbody's own controller and accuracy semantics (simbody_control.hpp): atol does not apply.
    SimbodyControlledDriver<System, MersonPair<Vector>> driver;
    return driver.integrate(system, x, grid, {settings.rtol, 0.0, settings.max_step}, observer, watch);
  }
  if (info(settings.method).adaptive && !settings.fixed) {
    return visit_pair<Vector>(settings.method, [&](auto& pair) -> IntegrationStats {
      using Pair = std::remove_reference_t<decltype(pair)>;
      if constexpr (uses_jacobian<Pair>() && !HasJacobian<System>) {
        throw std::invalid_argument(std::string(info(settings.method).name) + " needs the system's jacobian()");
      } else {
        AdaptiveDriver<System, Pair> driver;
        AdaptiveSettings adaptive;
        adaptive.rtol = settings.rtol;
        adaptive.max_step = settings.max_step;
        return driver.integrate(system, x, grid, adaptive, atol, observer, watch);
      }
    });
  }
  return visit_one_step<Vector>(settings.method, [&](auto& stepper) -> IntegrationStats {
    // A System without jacobian() still runs every method that does not solve with it.
    if constexpr (uses_jacobian<std::remove_reference_t<decltype(stepper)>>() && !HasJacobian<System>)
      throw std::invalid_argument(std::string(info(settings.method).name) + " needs the system's jacobian()");
    else
      return integrate_fixed(stepper, system, x, grid, settings.step, observer);
  });
}

}  // namespace dropsim::integrators
