#include "bench/peers/simbody/simbody_integrator.hpp"

#include <Simbody.h>

namespace dropsim::peers {

std::unique_ptr<SimTK::Integrator> make_integrator(SimbodyIntegrator integrator, const SimTK::System& system,
                                                   double accuracy) {
  using namespace SimTK;
  std::unique_ptr<Integrator> out;
  switch (integrator) {
    case SimbodyIntegrator::runge_kutta_merson: out = std::make_unique<RungeKuttaMersonIntegrator>(system); break;
    case SimbodyIntegrator::cpodes: out = std::make_unique<CPodesIntegrator>(system, CPodes::BDF, CPodes::Newton); break;
    case SimbodyIntegrator::runge_kutta_3: out = std::make_unique<RungeKutta3Integrator>(system); break;
    case SimbodyIntegrator::runge_kutta_feldberg: out = std::make_unique<RungeKuttaFeldbergIntegrator>(system); break;
  }
  out->setAccuracy(accuracy);
  return out;
}

}  // namespace dropsim::peers
