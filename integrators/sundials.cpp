// SUNDIALS CVODE and ARKODE driven the way dropsim drives its own methods
// (docs/integrators.md#sundials). Built with or without SUNDIALS: without, the
// methods are listed and refused with the command that installs the library.
#include "dropsim/integrators/sundials.hpp"
#include "dropsim/integrators/check.hpp"

#include <algorithm>
#include <cstdlib>
#include <cmath>
#include <exception>
#include <limits>
#include <memory>
#include <stdexcept>

#if DROPSIM_HAVE_SUNDIALS
#include "dropsim/integrators/sundials_solvers.hpp"
#endif

namespace dropsim::integrators {

std::string unavailable_message(std::string_view method) {
  return std::string(method) +
         " needs SUNDIALS, which this build of dropsim was made without: install it with "
         "`bash scripts/install-peers.sh` (Debian's libsundials-dev), then build again";
}

std::optional<ButcherTable> find_butcher_table(Method method, std::string_view name) {
  for (const ButcherTable& t : butcher_tables(method))
    if (t.name == name) return t;
  return std::nullopt;
}

ButcherTable butcher_table(Method method, int id) {
  if (id < 0) return default_butcher_table(method);
  for (const ButcherTable& t : butcher_tables(method))
    if (t.id == id) return t;
  throw std::invalid_argument(std::string(info(method).name) + " has no Butcher table number " + std::to_string(id));
}

#if !DROPSIM_HAVE_SUNDIALS

bool sundials_available() { return false; }
std::vector<ButcherTable> butcher_tables(Method) { return {}; }
ButcherTable default_butcher_table(Method method) {
  throw std::invalid_argument(unavailable_message(info(method).name));
}
IntegrationStats integrate_sundials(const SundialsRun& run, const FlatSystem&, double*, const std::vector<double>&,
                                    const double*, FlatObserver&) {
  throw std::invalid_argument(unavailable_message(info(run.method).name));
}

#else

bool sundials_available() { return true; }

using namespace sundials_detail;  // the solvers and their callbacks (sundials_solvers.cpp)

namespace {

// ARKODE 6.4's tables, by the names its documentation gives them.
#define DROPSIM_TABLE(id) {id, #id}
struct NamedTable {
  int id;
  const char* name;
};
constexpr NamedTable erk_tables[] = {
    DROPSIM_TABLE(ARKODE_HEUN_EULER_2_1_2),      DROPSIM_TABLE(ARKODE_BOGACKI_SHAMPINE_4_2_3),
    DROPSIM_TABLE(ARKODE_ARK324L2SA_ERK_4_2_3),  DROPSIM_TABLE(ARKODE_ZONNEVELD_5_3_4),
    DROPSIM_TABLE(ARKODE_ARK436L2SA_ERK_6_3_4),  DROPSIM_TABLE(ARKODE_SAYFY_ABURUB_6_3_4),
    DROPSIM_TABLE(ARKODE_CASH_KARP_6_4_5),       DROPSIM_TABLE(ARKODE_FEHLBERG_6_4_5),
    DROPSIM_TABLE(ARKODE_DORMAND_PRINCE_7_4_5),  DROPSIM_TABLE(ARKODE_ARK548L2SA_ERK_8_4_5),
    DROPSIM_TABLE(ARKODE_VERNER_8_5_6),          DROPSIM_TABLE(ARKODE_FEHLBERG_13_7_8),
    DROPSIM_TABLE(ARKODE_ARK437L2SA_ERK_7_3_4),  DROPSIM_TABLE(ARKODE_ARK548L2SAb_ERK_8_4_5),
};
constexpr NamedTable dirk_tables[] = {
    DROPSIM_TABLE(ARKODE_SDIRK_2_1_2),           DROPSIM_TABLE(ARKODE_BILLINGTON_3_3_2),
    DROPSIM_TABLE(ARKODE_TRBDF2_3_3_2),          DROPSIM_TABLE(ARKODE_KVAERNO_4_2_3),
    DROPSIM_TABLE(ARKODE_ARK324L2SA_DIRK_4_2_3), DROPSIM_TABLE(ARKODE_CASH_5_2_4),
    DROPSIM_TABLE(ARKODE_CASH_5_3_4),            DROPSIM_TABLE(ARKODE_SDIRK_5_3_4),
    DROPSIM_TABLE(ARKODE_KVAERNO_5_3_4),         DROPSIM_TABLE(ARKODE_ARK436L2SA_DIRK_6_3_4),
    DROPSIM_TABLE(ARKODE_KVAERNO_7_4_5),         DROPSIM_TABLE(ARKODE_ARK548L2SA_DIRK_8_4_5),
    DROPSIM_TABLE(ARKODE_ARK437L2SA_DIRK_7_3_4), DROPSIM_TABLE(ARKODE_ARK548L2SAb_DIRK_8_4_5),
    DROPSIM_TABLE(ARKODE_ESDIRK324L2SA_4_2_3),   DROPSIM_TABLE(ARKODE_ESDIRK325L2SA_5_2_3),
    DROPSIM_TABLE(ARKODE_ESDIRK32I5L2SA_5_2_3),  DROPSIM_TABLE(ARKODE_ESDIRK436L2SA_6_3_4),
    DROPSIM_TABLE(ARKODE_ESDIRK43I6L2SA_6_3_4),  DROPSIM_TABLE(ARKODE_QESDIRK436L2SA_6_3_4),
    DROPSIM_TABLE(ARKODE_ESDIRK437L2SA_7_3_4),   DROPSIM_TABLE(ARKODE_ESDIRK547L2SA_7_4_5),
    DROPSIM_TABLE(ARKODE_ESDIRK547L2SA2_7_4_5),
};
#undef DROPSIM_TABLE

ButcherTable describe(bool explicit_table, const NamedTable& t) {
  ARKodeButcherTable b = explicit_table ? ARKodeButcherTable_LoadERK(static_cast<ARKODE_ERKTableID>(t.id))
                                        : ARKodeButcherTable_LoadDIRK(static_cast<ARKODE_DIRKTableID>(t.id));
  DROPSIM_CHECK(b, std::string("ARKODE does not load its own table ") + t.name);
  ButcherTable out{t.id, t.name, b->q, b->p, b->stages, {}, {}};
  for (int i = 0; i < b->stages; ++i) {
    out.b.push_back(b->b[i]);
    for (int j = 0; j < b->stages; ++j) out.a.push_back(b->A[i][j]);
  }
  ARKodeButcherTable_Free(b);
  return out;
}

}  // namespace

std::vector<ButcherTable> butcher_tables(Method method) {
  std::vector<ButcherTable> out;
  if (method == Method::arkode_erk)
    for (const NamedTable& t : erk_tables) out.push_back(describe(true, t));
  else if (method == Method::arkode_dirk)
    for (const NamedTable& t : dirk_tables) out.push_back(describe(false, t));
  return out;
}

ButcherTable default_butcher_table(Method method) {
  if (method == Method::arkode_erk) return describe(true, {ARKODE_ZONNEVELD_5_3_4, "ARKODE_ZONNEVELD_5_3_4"});
  if (method == Method::arkode_dirk) return describe(false, {ARKODE_SDIRK_5_3_4, "ARKODE_SDIRK_5_3_4"});
  throw std::invalid_argument(std::string(info(method).name) + " takes no Butcher table");
}

IntegrationStats integrate_sundials(const SundialsRun& run, const FlatSystem& system, double* x,
                                    const std::vector<double>& grid, const double* atol, FlatObserver& observer) {
  const MethodInfo& method = info(run.method);
  if (method.library != Library::sundials) throw std::invalid_argument(std::string(method.name) + " is not a SUNDIALS method");
  if (run.fixed_step > 0.0 && (run.method == Method::cvode_bdf || run.method == Method::cvode_adams))
    throw std::invalid_argument(std::string(method.name) + " has no fixed-step form (CVODE chooses its own step)");
  if ((run.method == Method::cvode_bdf || run.method == Method::cvode_adams || run.method == Method::arkode_dirk) &&
      !system.jacobian)
    throw std::invalid_argument(std::string(method.name) + " needs the system's jacobian()");

  IntegrationStats stats;
  Callbacks callbacks;
  callbacks.system = &system;
  SUNContext raw_context = nullptr;
  if (SUNContext_Create(nullptr, &raw_context) != 0) throw std::bad_alloc();
  const Context context(raw_context);
  const auto n = static_cast<sunindextype>(system.size);
  // y is x itself: SUNDIALS steps the caller's array.
  const NVector y(N_VMake_Serial(n, x, raw_context)), tolerance(N_VNew_Serial(n, raw_context)),
      sample(N_VNew_Serial(n, raw_context));
  if (!y || !tolerance || !sample) throw std::bad_alloc();
  std::copy(atol, atol + system.size, N_VGetArrayPointer(tolerance.get()));

  double t = grid.front();
  const double t_end = grid.back();
  const std::unique_ptr<Solver> solver = make_solver(run, callbacks, raw_context, t, y.get(), tolerance.get());
  solver->set_stop(t_end);

  // The first samples, at t0.
  std::size_t next_output = 0;
  while (next_output < grid.size() && grid[next_output] <= t) ++next_output;
  const FlatDense at_start = [&](double, double* out) { std::copy(x, x + system.size, out); };
  const auto finish = [&](Status status, double when, std::string why) {
    solver->add_counters(stats);
    stats.rhs_evaluations = callbacks.rhs_evaluations;
    if (callbacks.error) std::rethrow_exception(callbacks.error);
    if (status != Status::ok) return ended(stats, status, when, why.c_str());
    stats.end_time = when;
    return stats;
  };
  if (observer.take_samples(at_start, grid.data(), next_output) < next_output)
    return finish(Status::stopped, t, "stopped by observer");

  double* out = N_VGetArrayPointer(sample.get());
  const FlatDense interpolant = [&](double when, double* state) {
    DROPSIM_CHECK(solver->dense(when, sample.get()) >= 0, "SUNDIALS could not interpolate inside its last step");
    std::copy(out, out + system.size, state);
  };
  double last_restart = t;
  const double h_min = 1e-14 * std::max(1.0, std::abs(t_end));
  constexpr int max_tiny_steps = 20;
  int tiny_steps = 0;
  while (t < t_end) {
    const double t_before = t;
    const int flag = solver->step(t_end, y.get(), t);
    if (flag < 0) {
      const std::string why = solver->flag_name(flag) +
                              (callbacks.last_message.empty() ? "" : ": " + callbacks.last_message);
      return finish(Status::diverged, t_before, why);
    }
    // The step's samples in (t_before, t], from the library's interpolant
    // (at a root, t is the root and y the state there).
    std::size_t inside = next_output;
    while (inside < grid.size() && grid[inside] <= t) ++inside;
    if (inside > next_output) {
      const std::size_t taken = observer.take_samples(interpolant, grid.data() + next_output, inside - next_output);
      if (taken < inside - next_output) {
        interpolant(grid[next_output + taken], x);
        return finish(Status::stopped, grid[next_output + taken], "stopped by observer");
      }
      next_output = inside;
    }
    const double h = flag == CV_ROOT_RETURN ? t - t_before : solver->last_step();
    // Where a solution blows up the libraries step on below round-off (with a
    // warning). A first step may be that small, a run of them is not.
    tiny_steps = flag != CV_ROOT_RETURN && std::abs(h) < h_min ? tiny_steps + 1 : 0;
    if (tiny_steps > max_tiny_steps)
      return finish(Status::diverged, t, "step size underflow (the solution is not smooth or blows up)");
    const int order = solver->last_order();
    if (order > 0 && order < static_cast<int>(stats.steps_by_order.size()))
      ++stats.steps_by_order[static_cast<std::size_t>(order)];
    if (observer.accepted) observer.accepted(x, t, h, order, stats);
    for (int i = 0; i < system.size; ++i)
      if (!std::isfinite(x[i])) return finish(Status::diverged, t, "non-finite state");
    // Landed on a kink of the force law: start afresh there, as dropsim's
    // own driver ends its step on it (the step that straddled it is dropped).
    static_assert(CV_ROOT_RETURN == ARK_ROOT_RETURN);
    if (flag == CV_ROOT_RETURN && t > last_restart) {
      ++stats.events;
      solver->restart_at(t, y.get(), stats);
      solver->set_stop(t_end);
      last_restart = t;
    }
  }
  return finish(Status::ok, t, "");
}

#endif

}  // namespace dropsim::integrators
