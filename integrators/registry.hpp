// The integrators dropsim offers, by name, with what a user needs to know of each.
#pragma once

#include <array>
#include <stdexcept>
#include <string>
#include <string_view>

namespace dropsim::integrators {

enum class Method {
  euler,
  symplectic_euler,
  central_difference,
  velocity_verlet,
  rk4,
  cash_karp54,
  dopri5,
  fehlberg78,
  bulirsch_stoer,
  rosenbrock4,
  implicit_euler,
  newmark,
  mclachlan_sb3a,
  rk_merson,
  cvode_bdf,
  cvode_adams,
  arkode_erk,
  arkode_dirk,
};

// Who implements a method: dropsim itself (and Boost.Odeint), or SUNDIALS
// (optional: integrators/sundials.hpp says whether this build has it).
enum class Library { dropsim, sundials };

struct MethodInfo {
  Method method;
  std::string_view name;
  int order;      // observed with velocity-dependent forces (adaptive methods: of the propagated solution)
  bool adaptive;  // error-controlled step (can still be run with a fixed step: step-limit measurement)
  bool implicit;  // solves with the System's Jacobian
  std::string_view description;
  Library library = Library::dropsim;
};

// Whether a method has a form dropsim steps itself at a fixed step, which the
// step-limit analysis and the typed one-step suite work on. SUNDIALS methods
// have none: their step and order are the library's.
constexpr bool has_one_step_form(const MethodInfo& m) { return m.library == Library::dropsim; }
// Whether the step-limit analysis predicts and measures a fixed step: the
// one-step methods, and ARKODE's Runge-Kutta tables, run at a fixed step
// (their stability function from the table). CVODE has no fixed step.
constexpr bool has_fixed_step_limit(const MethodInfo& m) {
  return has_one_step_form(m) || m.method == Method::arkode_erk || m.method == Method::arkode_dirk;
}

inline constexpr std::array<MethodInfo, 18> methods{{
    {Method::euler, "euler", 1, false, false, "forward Euler (Boost.Odeint)"},
    {Method::symplectic_euler, "symplectic_euler", 1, false, false, "kick (damping at the new speed), then drift"},
    {Method::central_difference, "central_difference", 1, false, false,
     "leapfrog; damping lagged half a step (order 2 without damping)"},
    {Method::velocity_verlet, "velocity_verlet", 2, false, false, "Newmark beta=0, damping at the new speed"},
    {Method::rk4, "rk4", 4, false, false, "classical Runge-Kutta (Boost.Odeint)"},
    {Method::cash_karp54, "cash_karp54", 5, true, false, "Cash-Karp 5(4) (Boost.Odeint), Hermite dense output"},
    {Method::dopri5, "dopri5", 5, true, false, "Dormand-Prince 5(4) (Boost.Odeint), dense output"},
    {Method::fehlberg78, "fehlberg78", 8, true, false, "Fehlberg 7(8) (Boost.Odeint), Hermite dense output"},
    {Method::bulirsch_stoer, "bulirsch_stoer", 8, true, false,
     "Gragg-Bulirsch-Stoer, sequence 2,4,6,8 (Boost.Odeint modified midpoint)"},
    {Method::rosenbrock4, "rosenbrock4", 4, true, true, "Rosenbrock 4(3) (Boost.Odeint), analytic Jacobian"},
    {Method::implicit_euler, "implicit_euler", 1, false, true, "backward Euler, Newton"},
    {Method::newmark, "newmark", 2, false, true, "Newmark average acceleration, Newton"},
    {Method::mclachlan_sb3a, "mclachlan_sb3a", 4, false, false,
     "McLachlan SB3A symplectic RKN, kicks by RK4 in the speed"},
    {Method::rk_merson, "rk_merson", 4, true, false,
     "Runge-Kutta-Merson 4(3) with Simbody's error control (OpenSim's default integrator)"},
    {Method::cvode_bdf, "cvode_bdf", 5, true, true,
     "SUNDIALS CVODE, variable-order BDF 1-5, dense analytic Jacobian; stability-limit detection optional",
     Library::sundials},
    {Method::cvode_adams, "cvode_adams", 12, true, true,
     "SUNDIALS CVODE, variable-order Adams-Moulton 1-12, Newton with the analytic Jacobian", Library::sundials},
    {Method::arkode_erk, "arkode_erk", 4, true, false,
     "SUNDIALS ARKODE ERKStep, explicit Runge-Kutta; Butcher table by name (default Zonneveld 4(3))",
     Library::sundials},
    {Method::arkode_dirk, "arkode_dirk", 4, true, true,
     "SUNDIALS ARKODE ARKStep, diagonally implicit Runge-Kutta (default SDIRK 5-stage 4(3)), analytic Jacobian",
     Library::sundials},
}};

inline const MethodInfo* find_method(std::string_view name) {
  for (const auto& m : methods)
    if (m.name == name) return &m;
  return nullptr;
}

// Throws std::invalid_argument for a value that names no method (a cast from
// an unchecked integer): never a silent stand-in.
inline const MethodInfo& info(Method method) {
  for (const auto& m : methods)
    if (m.method == method) return m;
  throw std::invalid_argument("no integrator has method number " + std::to_string(static_cast<int>(method)));
}

// The table lists each Method once, in declaration order: methods[i].method == Method(i).
constexpr bool registry_in_order() {
  for (std::size_t i = 0; i < methods.size(); ++i)
    if (static_cast<std::size_t>(methods[i].method) != i) return false;
  return true;
}
static_assert(registry_in_order(), "integrators::methods must list every Method once, in declaration order");

}  // namespace dropsim::integrators
