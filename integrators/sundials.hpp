// SUNDIALS CVODE and ARKODE behind dropsim's integrator interface
// (docs/integrators.md#sundials): cvode_bdf, cvode_adams, arkode_erk, arkode_dirk.
//
// SUNDIALS is optional. The code lives in integrators/sundials.cpp (the driver,
// ARKODE's tables) and sundials_solvers.cpp, built into dropsim::sim; a build without
// SUNDIALS lists the methods and refuses to run them with the command that installs it.
// This header holds only the bridge from a typed System and observer to the
// flat arrays SUNDIALS works on, so no other file sees a SUNDIALS header.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dropsim/integrators/adaptive.hpp"
#include "dropsim/integrators/registry.hpp"
#include "dropsim/integrators/system.hpp"

namespace dropsim::integrators {

// Whether this build of dropsim has SUNDIALS.
bool sundials_available();
// Whether `method` runs, in this build.
inline bool available(const MethodInfo& method) {
  return method.library == Library::dropsim || sundials_available();
}
// "cvode_bdf needs SUNDIALS, which this build of dropsim was made without: ..."
std::string unavailable_message(std::string_view method);

// ARKODE's Butcher tables by their ARKODE name (ARKODE_DORMAND_PRINCE_7_4_5):
// explicit ones for arkode_erk, diagonally implicit ones for arkode_dirk.
// default_butcher_table is ARKODE's own 4th-order default.
struct ButcherTable {
  int id = -1;  // ARKODE's table number
  std::string name;
  int order = 0;           // of the propagated solution
  int embedded_order = 0;  // of the error estimate
  int stages = 0;
  std::vector<double> a;  // stages x stages, row-major
  std::vector<double> b;  // the propagated solution's weights
};
std::vector<ButcherTable> butcher_tables(Method method);  // empty without SUNDIALS
ButcherTable default_butcher_table(Method method);        // throws std::invalid_argument without SUNDIALS
// The table of that name for method; none when method has no table of that name.
std::optional<ButcherTable> find_butcher_table(Method method, std::string_view name);
// The table a run of method uses: ARKODE's table number id, or the default for id -1.
ButcherTable butcher_table(Method method, int id);

// The options only SUNDIALS methods have (integrate.hpp's Settings holds one).
struct SundialsOptions {
  bool stability_limit_detection = false;  // cvode_bdf: CVODE's STALD (CVodeSetStabLimDet); CVODE's default off
  int butcher_table = -1;                  // arkode_erk / arkode_dirk: ARKODE's table number, -1 its default
};

// A System as SUNDIALS sees it: flat arrays of doubles.
struct FlatSystem {
  int size = 0;
  int num_switches = 0;
  std::function<void(const double* x, double t, double* dxdt)> rhs;
  std::function<void(const double* x, double t, double* dfdx)> jacobian;  // column-major; empty: none
  std::function<void(const double* x, double* s)> switches;
};
// The interpolant of the step just taken: the state at t inside it.
using FlatDense = std::function<void(double t, double* x)>;
struct FlatObserver {
  // Takes count samples at times from dense; returns how many it took (fewer stops the run).
  std::function<std::size_t(const FlatDense& dense, const double* times, std::size_t count)> take_samples;
  // The step watch; order: a variable-order method's order for the step (CVODE), else 0.
  std::function<void(const double* x, double t, double h, int order, IntegrationStats& stats)> accepted;
};
struct SundialsRun {
  Method method = Method::cvode_bdf;
  double rtol = 1e-9;
  double max_step = 0.0;  // 0: unbounded
  double fixed_step = 0.0;  // > 0: arkode_erk / arkode_dirk without error control (step-limit measurement)
  SundialsOptions options;
};

// Integrates x (size system.size) over grid, landing on every switching
// function's root (CVODE's and ARKODE's root finding, then a restart there).
// Throws std::invalid_argument for a method SUNDIALS does not run, or without SUNDIALS.
IntegrationStats integrate_sundials(const SundialsRun& run, const FlatSystem& system, double* x,
                                    const std::vector<double>& grid, const double* atol, FlatObserver& observer);

// The typed side of the bridge: wraps System, Observer and Watch as flat functions.
template <class Vector>
struct FlatDenseOf {
  const FlatDense& dense;
  void operator()(double t, Vector& out) const { dense(t, out.data()); }
};

template <class System, class Observer, class Watch>
IntegrationStats integrate_with_sundials(const SundialsRun& run, const System& system, typename System::Vector& x,
                                         const std::vector<double>& grid, const typename System::Vector& atol,
                                         Observer& observer, Watch& watch) {
  using Vector = typename System::Vector;
  const int n = system.size();
  // Scratch states: SUNDIALS hands out pointers, the System takes Vectors.
  Vector in = x, out = x;
  FlatSystem flat;
  flat.size = n;
  flat.num_switches = system.num_switches();
  flat.rhs = [&](const double* y, double t, double* dydt) {
    in = Eigen::Map<const Vector>(y, n);
    system(in, out, t);
    Eigen::Map<Vector>(dydt, n) = out;
  };
  if constexpr (HasJacobian<System>) {
    flat.jacobian = [&, matrix = typename System::Matrix(System::Matrix::Zero(n, n))](const double* y, double t, double* dfdx) mutable {
      in = Eigen::Map<const Vector>(y, n);
      system.jacobian(in, t, matrix);
      Eigen::Map<Eigen::MatrixXd>(dfdx, n, n) = matrix;
    };
  }
  flat.switches = [&](const double* y, double* s) {
    in = Eigen::Map<const Vector>(y, n);
    system.switches(in, s);
  };
  // A per-sample observer takes a step's samples through the adaptive driver's EachSample.
  EachSample<Observer, Vector> each{observer, x};
  FlatObserver flat_observer;
  flat_observer.take_samples = [&](const FlatDense& dense, const double* times, std::size_t count) -> std::size_t {
    const FlatDenseOf<Vector> typed{dense};
    if constexpr (takes_samples<Observer, FlatDenseOf<Vector>>) return observer.take_samples(typed, times, count);
    else return each.take_samples(typed, times, count);
  };
  Vector state = x;
  flat_observer.accepted = [&](const double* y, double t, double h, int order, IntegrationStats& stats) {
    state = Eigen::Map<const Vector>(y, n);
    watch.accepted(state, t, h, stats, order);
  };
  return integrate_sundials(run, flat, x.data(), grid, atol.data(), flat_observer);
}

}  // namespace dropsim::integrators
