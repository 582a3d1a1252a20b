// Runs any registered method on any System: the one place a method name becomes a stepper.
// Dispatch happens once per run; the inner loops are fully typed.
#pragma once

#include "integrators/dopri5.hpp"
#include "integrators/fixed_step.hpp"
#include "integrators/registry.hpp"

namespace dropsim::integrators {

struct Settings {
  Method method = Method::dopri5;
  double rtol = 1e-9;  // adaptive methods
  double step = 0.0;   // fixed-step methods: the largest step
  double max_step = 0.0;
};

template <class System, class Observer>
IntegrationStats integrate(const Settings& settings, const System& system, typename System::Vector& x,
                           const std::vector<double>& grid, const typename System::Vector& atol,
                           Observer&& observer) {
  using Vector = typename System::Vector;
  switch (settings.method) {
    case Method::dopri5: {
      Dopri5<System> stepper;
      AdaptiveSettings adaptive;
      adaptive.rtol = settings.rtol;
      adaptive.max_step = settings.max_step;
      return stepper.integrate(system, x, grid, adaptive, atol, observer);
    }
    case Method::rk4: {
      RungeKutta4<Vector> stepper;
      return integrate_fixed(stepper, system, x, grid, settings.step, observer);
    }
    case Method::central_difference: {
      CentralDifference<Vector> stepper;
      return integrate_fixed(stepper, system, x, grid, settings.step, observer);
    }
  }
  return {};
}

}  // namespace dropsim::integrators
