// CVODE, ERKStep and ARKStep set up as a run asks (sundials_solvers.hpp), and
// the C callbacks through which they evaluate dropsim's System.
#include "dropsim/integrators/sundials_solvers.hpp"
#include "dropsim/integrators/check.hpp"

#include <cmath>
#include <cstdlib>
#include <new>
#include <stdexcept>

namespace dropsim::integrators::sundials_detail {

namespace {

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

// SUNDIALS 6.2 widened *GetNumNonlinSolvConvFails to every convergence failure
// and counts the failed steps apart (*GetNumStepSolveFails); before, the one
// counter was the failed steps.
#if SUNDIALS_VERSION_MAJOR > 6 || (SUNDIALS_VERSION_MAJOR == 6 && SUNDIALS_VERSION_MINOR >= 2)
constexpr bool counts_step_solve_fails = true;
#else
constexpr bool counts_step_solve_fails = false;
#endif

// The ARKODE table a run asked for, else the method's default.
int table_of(const SundialsRun& run) { return butcher_table(run.method, run.options.butcher_table).id; }

// SUNDIALS' flag names are malloc'ed for the caller to free.
std::string owned_string(char* text) {
  std::string out = text ? text : "unknown flag";
  std::free(text);
  return out;
}

// A SUNDIALS setter's flag: a refused option is dropsim's bug.
void check(int flag, const char* call) {
  DROPSIM_CHECK(flag >= 0, std::string("SUNDIALS refused ") + call + " (flag " + std::to_string(flag) + ")");
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

std::unique_ptr<Solver> make_solver(const SundialsRun& run, Callbacks& callbacks, SUNContext context, double t0,
                                    N_Vector y, N_Vector atol) {
  if (run.method == Method::arkode_erk) return std::make_unique<Erk>(run, callbacks, context, t0, y, atol);
  if (run.method == Method::arkode_dirk) return std::make_unique<Dirk>(run, callbacks, context, t0, y, atol);
  return std::make_unique<Cvode>(run, callbacks, context, t0, y, atol);
}

}  // namespace dropsim::integrators::sundials_detail
