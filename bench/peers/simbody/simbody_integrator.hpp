// The Simbody integrators the peers run, and the one place each is made.
// OpenSim's Manager offers RungeKuttaMerson (its default), RungeKutta3,
// RungeKuttaFeldberg, RungeKutta2, SemiExplicitEuler2, Verlet and
// ExplicitEuler; Simbody adds CPodes. RungeKutta2, SemiExplicitEuler2 and
// Verlet, measured once, were never the fastest to any accuracy the benchmark
// asks for (docs/performance.md#simbodys-best), and first-order ExplicitEuler
// was not run; the peers run the other four.
#pragma once

#include <array>
#include <memory>

namespace SimTK {
class Integrator;
class System;
}  // namespace SimTK

namespace dropsim::peers {

enum class SimbodyIntegrator { runge_kutta_merson, cpodes, runge_kutta_3, runge_kutta_feldberg };
inline constexpr std::array<SimbodyIntegrator, 4> simbody_integrators{
    SimbodyIntegrator::runge_kutta_merson, SimbodyIntegrator::cpodes, SimbodyIntegrator::runge_kutta_3,
    SimbodyIntegrator::runge_kutta_feldberg};

// Simbody's name of the integrator class, without "Integrator".
constexpr const char* simbody_name(SimbodyIntegrator integrator) {
  switch (integrator) {
    case SimbodyIntegrator::runge_kutta_merson: return "RungeKuttaMerson";
    case SimbodyIntegrator::cpodes: return "CPodes";
    case SimbodyIntegrator::runge_kutta_3: return "RungeKutta3";
    case SimbodyIntegrator::runge_kutta_feldberg: return "RungeKuttaFeldberg";
  }
  return "?";
}

// CPodes as BDF with Newton iteration (Simbody's defaults for it), at
// `accuracy`; the caller includes <Simbody.h> to own the result.
std::unique_ptr<SimTK::Integrator> make_integrator(SimbodyIntegrator integrator, const SimTK::System& system,
                                                   double accuracy);

}  // namespace dropsim::peers
