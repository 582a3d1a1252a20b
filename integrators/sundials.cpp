// SUNDIALS CVODE and ARKODE driven the way dropsim drives its own methods
// (docs/integrators.md#sundials). Built with or without SUNDIALS: without, the
// methods are listed and refused with the command that installs the library.
#include "dropsim/integrators/sundials.hpp"

#include <algorithm>
#include <cstdlib>
#include <cmath>
#include <exception>
#include <limits>
#include <memory>
#include <stdexcept>

#if DROPSIM_HAVE_SUNDIALS
#include <arkode/arkode_arkstep.h>
#include <arkode/arkode_erkstep.h>
#include <cvode/cvode.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_config.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>
#endif

namespace dropsim::integrators {

std::string unavailable_message(std::string_view method) {
  return std::string(method) +
         " needs SUNDIALS, which this build of dropsim was made without: install it with "
         "`bash scripts/install-peers.sh` (Debian's libsundials-dev), then build again";
}

ButcherTable find_butcher_table(Method method, std::string_view name) {
  for (const ButcherTable& t : butcher_tables(method))
    if (t.name == name) return t;
  return {};
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
  if (!b) throw std::logic_error(std::string("ARKODE does not load its own table ") + t.name);
  ButcherTable out{t.id, t.name, b->q, b->p, b->stages, {}, {}};
  for (int i = 0; i < b->stages; ++i) {
    out.b.push_back(b->b[i]);
    for (int j = 0; j < b->stages; ++j) out.a.push_back(b->A[i][j]);
  }
  ARKodeButcherTable_Free(b);
  return out;
}

// Owners of SUNDIALS objects: each freed by its own function.
struct ContextDeleter {
  void operator()(SUNContext c) const { SUNContext_Free(&c); }
};
struct VectorDeleter {
  void operator()(N_Vector v) const { N_VDestroy(v); }
};
struct MatrixDeleter {
  void operator()(SUNMatrix m) const { SUNMatDestroy(m); }
};
struct SolverDeleter {
  void operator()(SUNLinearSolver s) const { SUNLinSolFree(s); }
};
using Context = std::unique_ptr<std::remove_pointer_t<SUNContext>, ContextDeleter>;
using NVector = std::unique_ptr<std::remove_pointer_t<N_Vector>, VectorDeleter>;
using DenseMatrix = std::unique_ptr<std::remove_pointer_t<SUNMatrix>, MatrixDeleter>;
using LinearSolver = std::unique_ptr<std::remove_pointer_t<SUNLinearSolver>, SolverDeleter>;

// What the C callbacks reach through user_data. An exception from the System
// must not cross SUNDIALS' C frames: it is kept and rethrown after the call.
struct Callbacks {
  const FlatSystem* system = nullptr;
  long rhs_evaluations = 0;
  std::exception_ptr error;
  std::string last_message;  // SUNDIALS' own words for a failure
};

int rhs(sunrealtype t, N_Vector y, N_Vector ydot, void* data) {
  auto& c = *static_cast<Callbacks*>(data);
  try {
    ++c.rhs_evaluations;
    c.system->rhs(N_VGetArrayPointer(y), t, N_VGetArrayPointer(ydot));
  } catch (...) {
    c.error = std::current_exception();
    return -1;  // unrecoverable: the solver stops
  }
  // A non-finite derivative: recoverable, the solver retries with a smaller step.
  const double* d = N_VGetArrayPointer(ydot);
  for (int i = 0; i < c.system->size; ++i)
    if (!std::isfinite(d[i])) return 1;
  return 0;
}

int jacobian(sunrealtype t, N_Vector y, N_Vector, SUNMatrix J, void* data, N_Vector, N_Vector, N_Vector) {
  auto& c = *static_cast<Callbacks*>(data);
  try {
    c.system->jacobian(N_VGetArrayPointer(y), t, SUNDenseMatrix_Data(J));  // column-major, like Eigen's
  } catch (...) {
    c.error = std::current_exception();
    return -1;
  }
  return 0;
}

int roots(sunrealtype, N_Vector y, sunrealtype* g, void* data) {
  auto& c = *static_cast<Callbacks*>(data);
  try {
    c.system->switches(N_VGetArrayPointer(y), g);
  } catch (...) {
    c.error = std::current_exception();
    return -1;
  }
  return 0;
}

void keep_message(int, const char*, const char*, char* message, void* data) {
  static_cast<Callbacks*>(data)->last_message = message;  // never printed by SUNDIALS itself
}

// The library's counters, as read. convergence_fails: every failure of the
// nonlinear solver to converge, those a fresh Jacobian recovered within the
// step included; solve_fails: the steps such a failure cost (retried smaller).
struct Counters {
  long steps = 0, error_fails = 0, convergence_fails = 0, solve_fails = 0, order_reductions = 0;
};

// SUNDIALS 6.2 widened *GetNumNonlinSolvConvFails to every convergence failure
// and counts the failed steps apart (*GetNumStepSolveFails); before, the one
// counter was the failed steps.
#if SUNDIALS_VERSION_MAJOR > 6 || (SUNDIALS_VERSION_MAJOR == 6 && SUNDIALS_VERSION_MINOR >= 2)
constexpr bool counts_step_solve_fails = true;
#else
constexpr bool counts_step_solve_fails = false;
#endif

// The one interface the driver below needs of CVODE, ERKStep and ARKStep.
class Solver {
 public:
  virtual ~Solver() = default;
  // One internal step towards t_stop; returns the library's flag, sets t.
  virtual int step(double t_stop, N_Vector y, double& t) = 0;
  virtual int dense(double t, N_Vector out) = 0;  // valid inside the last step
  virtual double last_step() = 0;
  virtual std::string flag_name(int flag) = 0;
  virtual void set_stop(double t_stop) = 0;  // again after every restart
  // A fresh start at t (after a root). Whether the library's re-initialisation
  // zeroes its counters or not, none is lost or counted twice.
  void restart_at(double t, N_Vector y, IntegrationStats& stats) {
    add_counters(stats);
    restart(t, y);
    seen_ = read();
  }
  // What the counters gained since last looked at.
  void add_counters(IntegrationStats& s) {
    const Counters now = read();
    s.steps += now.steps - seen_.steps;
    s.rejected_steps += now.error_fails - seen_.error_fails + now.solve_fails - seen_.solve_fails;
    s.newton_failures += now.convergence_fails - seen_.convergence_fails;
    s.order_reductions += now.order_reductions - seen_.order_reductions;
    seen_ = now;
  }

 private:
  virtual void restart(double t, N_Vector y) = 0;
  virtual Counters read() = 0;
  Counters seen_;

 public:
  virtual int last_order() { return 0; }  // variable-order methods: the order of the last step
};

// The ARKODE table a run asked for, else the method's default.
int table_of(const SundialsRun& run) { return butcher_table(run.method, run.options.butcher_table).id; }

// SUNDIALS' flag names are malloc'ed for the caller to free.
std::string owned_string(char* text) {
  std::string out = text ? text : "unknown flag";
  std::free(text);
  return out;
}

// A SUNDIALS setter's flag, turned into an exception: a refused option is dropsim's bug.
void check(int flag, const char* call) {
  if (flag < 0) throw std::logic_error(std::string("SUNDIALS refused ") + call + " (flag " + std::to_string(flag) + ")");
}

class Cvode final : public Solver {
 public:
  Cvode(const SundialsRun& run, Callbacks& callbacks, SUNContext context, double t0, N_Vector y, N_Vector atol)
      : mem_(CVodeCreate(run.method == Method::cvode_bdf ? CV_BDF : CV_ADAMS, context)) {
    if (!mem_) throw std::bad_alloc();
    check(CVodeInit(mem_, rhs, t0, y), "CVodeInit");
    check(CVodeSetUserData(mem_, &callbacks), "CVodeSetUserData");
    check(CVodeSetErrHandlerFn(mem_, keep_message, &callbacks), "CVodeSetErrHandlerFn");
    check(CVodeSVtolerances(mem_, run.rtol, atol), "CVodeSVtolerances");
    check(CVodeSetMaxNumSteps(mem_, -1), "CVodeSetMaxNumSteps");  // no cap: the run is one call per step
    if (run.max_step > 0.0) check(CVodeSetMaxStep(mem_, run.max_step), "CVodeSetMaxStep");
    if (run.method == Method::cvode_bdf)
      check(CVodeSetStabLimDet(mem_, run.options.stability_limit_detection ? SUNTRUE : SUNFALSE), "CVodeSetStabLimDet");
    const auto n = static_cast<sunindextype>(callbacks.system->size);
    matrix_.reset(SUNDenseMatrix(n, n, context));
    solver_.reset(SUNLinSol_Dense(y, matrix_.get(), context));
    check(CVodeSetLinearSolver(mem_, solver_.get(), matrix_.get()), "CVodeSetLinearSolver");
    if (callbacks.system->jacobian) check(CVodeSetJacFn(mem_, jacobian), "CVodeSetJacFn");
    if (callbacks.system->num_switches > 0) check(CVodeRootInit(mem_, callbacks.system->num_switches, roots), "CVodeRootInit");
  }
  ~Cvode() override { CVodeFree(&mem_); }
  Cvode(const Cvode&) = delete;
  Cvode& operator=(const Cvode&) = delete;

  void set_stop(double t_stop) override { check(CVodeSetStopTime(mem_, t_stop), "CVodeSetStopTime"); }
  int step(double t_stop, N_Vector y, double& t) override { return CVode(mem_, t_stop, y, &t, CV_ONE_STEP); }
  int dense(double t, N_Vector out) override { return CVodeGetDky(mem_, t, 0, out); }
  void restart(double t, N_Vector y) override { check(CVodeReInit(mem_, t, y), "CVodeReInit"); }
  Counters read() override {
    Counters c;
    CVodeGetNumSteps(mem_, &c.steps);
    CVodeGetNumErrTestFails(mem_, &c.error_fails);
    CVodeGetNumNonlinSolvConvFails(mem_, &c.convergence_fails);
    c.solve_fails = c.convergence_fails;
    if constexpr (counts_step_solve_fails) CVodeGetNumStepSolveFails(mem_, &c.solve_fails);
    CVodeGetNumStabLimOrderReds(mem_, &c.order_reductions);
    return c;
  }
  double last_step() override {
    double h = 0.0;
    CVodeGetLastStep(mem_, &h);
    return h;
  }
  int last_order() override {
    int q = 0;
    CVodeGetLastOrder(mem_, &q);
    return q;
  }
  std::string flag_name(int flag) override { return owned_string(CVodeGetReturnFlagName(flag)); }

 private:
  void* mem_;
  DenseMatrix matrix_;
  LinearSolver solver_;
};

// ERKStep and ARKStep share ARKODE's interface under two prefixes.
class Erk final : public Solver {
 public:
  Erk(const SundialsRun& run, Callbacks& callbacks, SUNContext context, double t0, N_Vector y, N_Vector atol)
      : mem_(ERKStepCreate(rhs, t0, y, context)) {
    if (!mem_) throw std::bad_alloc();
    check(ERKStepSetUserData(mem_, &callbacks), "ERKStepSetUserData");
    check(ERKStepSetErrHandlerFn(mem_, keep_message, &callbacks), "ERKStepSetErrHandlerFn");
    check(ERKStepSetTableNum(mem_, static_cast<ARKODE_ERKTableID>(table_of(run))), "ERKStepSetTableNum");
    check(ERKStepSVtolerances(mem_, run.rtol, atol), "ERKStepSVtolerances");
    check(ERKStepSetMaxNumSteps(mem_, -1), "ERKStepSetMaxNumSteps");
    if (run.max_step > 0.0) check(ERKStepSetMaxStep(mem_, run.max_step), "ERKStepSetMaxStep");
    if (run.fixed_step > 0.0) check(ERKStepSetFixedStep(mem_, run.fixed_step), "ERKStepSetFixedStep");
    else if (callbacks.system->num_switches > 0)
      check(ERKStepRootInit(mem_, callbacks.system->num_switches, roots), "ERKStepRootInit");
  }
  ~Erk() override { ERKStepFree(&mem_); }
  Erk(const Erk&) = delete;
  Erk& operator=(const Erk&) = delete;

  void set_stop(double t_stop) override { check(ERKStepSetStopTime(mem_, t_stop), "ERKStepSetStopTime"); }
  int step(double t_stop, N_Vector y, double& t) override { return ERKStepEvolve(mem_, t_stop, y, &t, ARK_ONE_STEP); }
  int dense(double t, N_Vector out) override { return ERKStepGetDky(mem_, t, 0, out); }
  void restart(double t, N_Vector y) override { check(ERKStepReInit(mem_, rhs, t, y), "ERKStepReInit"); }
  Counters read() override {
    Counters c;
    ERKStepGetNumSteps(mem_, &c.steps);
    ERKStepGetNumErrTestFails(mem_, &c.error_fails);
    return c;
  }
  double last_step() override {
    double h = 0.0;
    ERKStepGetLastStep(mem_, &h);
    return h;
  }
  std::string flag_name(int flag) override { return owned_string(ERKStepGetReturnFlagName(flag)); }

 private:
  void* mem_;
};

class Dirk final : public Solver {
 public:
  Dirk(const SundialsRun& run, Callbacks& callbacks, SUNContext context, double t0, N_Vector y, N_Vector atol)
      : mem_(ARKStepCreate(nullptr, rhs, t0, y, context)) {  // implicit part only
    if (!mem_) throw std::bad_alloc();
    check(ARKStepSetUserData(mem_, &callbacks), "ARKStepSetUserData");
    check(ARKStepSetErrHandlerFn(mem_, keep_message, &callbacks), "ARKStepSetErrHandlerFn");
    check(ARKStepSetTableNum(mem_, static_cast<ARKODE_DIRKTableID>(table_of(run)), ARKODE_ERK_NONE),
          "ARKStepSetTableNum");
    check(ARKStepSVtolerances(mem_, run.rtol, atol), "ARKStepSVtolerances");
    check(ARKStepSetMaxNumSteps(mem_, -1), "ARKStepSetMaxNumSteps");
    if (run.max_step > 0.0) check(ARKStepSetMaxStep(mem_, run.max_step), "ARKStepSetMaxStep");
    const auto n = static_cast<sunindextype>(callbacks.system->size);
    matrix_.reset(SUNDenseMatrix(n, n, context));
    solver_.reset(SUNLinSol_Dense(y, matrix_.get(), context));
    check(ARKStepSetLinearSolver(mem_, solver_.get(), matrix_.get()), "ARKStepSetLinearSolver");
    if (callbacks.system->jacobian) check(ARKStepSetJacFn(mem_, jacobian), "ARKStepSetJacFn");
    if (run.fixed_step > 0.0) check(ARKStepSetFixedStep(mem_, run.fixed_step), "ARKStepSetFixedStep");
    else if (callbacks.system->num_switches > 0)
      check(ARKStepRootInit(mem_, callbacks.system->num_switches, roots), "ARKStepRootInit");
  }
  ~Dirk() override { ARKStepFree(&mem_); }
  Dirk(const Dirk&) = delete;
  Dirk& operator=(const Dirk&) = delete;

  void set_stop(double t_stop) override { check(ARKStepSetStopTime(mem_, t_stop), "ARKStepSetStopTime"); }
  int step(double t_stop, N_Vector y, double& t) override { return ARKStepEvolve(mem_, t_stop, y, &t, ARK_ONE_STEP); }
  int dense(double t, N_Vector out) override { return ARKStepGetDky(mem_, t, 0, out); }
  void restart(double t, N_Vector y) override { check(ARKStepReInit(mem_, nullptr, rhs, t, y), "ARKStepReInit"); }
  Counters read() override {
    Counters c;
    ARKStepGetNumSteps(mem_, &c.steps);
    ARKStepGetNumErrTestFails(mem_, &c.error_fails);
    ARKStepGetNumNonlinSolvConvFails(mem_, &c.convergence_fails);
    c.solve_fails = c.convergence_fails;
    if constexpr (counts_step_solve_fails) ARKStepGetNumStepSolveFails(mem_, &c.solve_fails);
    return c;
  }
  double last_step() override {
    double h = 0.0;
    ARKStepGetLastStep(mem_, &h);
    return h;
  }
  std::string flag_name(int flag) override { return owned_string(ARKStepGetReturnFlagName(flag)); }

 private:
  void* mem_;
  DenseMatrix matrix_;
  LinearSolver solver_;
};

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
  std::unique_ptr<Solver> solver;
  if (run.method == Method::arkode_erk) solver = std::make_unique<Erk>(run, callbacks, raw_context, t, y.get(), tolerance.get());
  else if (run.method == Method::arkode_dirk) solver = std::make_unique<Dirk>(run, callbacks, raw_context, t, y.get(), tolerance.get());
  else solver = std::make_unique<Cvode>(run, callbacks, raw_context, t, y.get(), tolerance.get());
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
    if (solver->dense(when, sample.get()) < 0) throw std::logic_error("SUNDIALS could not interpolate inside its last step");
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
