// The SUNDIALS solvers behind integrate_sundials (sundials.cpp): CVODE, ERKStep
// and ARKStep set up for a run and seen through one interface, with the C
// callbacks that reach dropsim's System. Private to the library's SUNDIALS
// sources (not installed): no other file sees a SUNDIALS header.
#pragma once

#include <arkode/arkode_arkstep.h>
#include <arkode/arkode_erkstep.h>
#include <cvode/cvode.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_config.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <exception>
#include <memory>
#include <string>
#include <type_traits>

#include "dropsim/integrators/sundials.hpp"

namespace dropsim::integrators::sundials_detail {

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

// The library's counters, as read. convergence_fails: every failure of the
// nonlinear solver to converge, those a fresh Jacobian recovered within the
// step included; solve_fails: the steps such a failure cost (retried smaller).
struct Counters {
  long steps = 0, error_fails = 0, convergence_fails = 0, solve_fails = 0, order_reductions = 0;
};

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

// The solver for run.method, initialised at t0 on y (the caller's array), with
// per-component absolute tolerances atol; callbacks must outlive it.
std::unique_ptr<Solver> make_solver(const SundialsRun& run, Callbacks& callbacks, SUNContext context, double t0,
                                    N_Vector y, N_Vector atol);

}  // namespace dropsim::integrators::sundials_detail
