// The summary row of a run and its divergence report.
#include "apps/run_report.hpp"

#include <cstdio>

#include "dropsim/integrators/registry.hpp"
#include "dropsim/sim/format.hpp"

namespace dropsim::app {

void print_summary_header() {
  std::printf("%-26s %10s %7s %9s %9s %8s %8s %9s  %s\n", "name", "E*_Pa", "alpha", "xh_eq", "peak_F/Mg", "tau_peak",
              "steps", "rhs_evals", "status");
}

void print_summary(const io::Scenario& s, const Trace& t) {
  const std::size_t peak = t.peak_index();
  const bool ok = t.stats.status != integrators::Status::diverged;
  // Multi-contact scenarios show their first contact's law.
  const ContactLaw& law = s.multibody() ? s.multibody()->contacts.front().law : s.drop().law;
  // Linear springs have neither a modulus nor a Hunt–Crossley alpha: "-", not a 0 that reads as a value.
  std::string modulus = "-", alpha = "-";
  if (hertz_family(law.kind)) {
    modulus = significant(law.effective_modulus, 4);
    alpha = significant(law.dissipation, 3);
  }
  std::printf("%-26s %10s %7s %9.6f %9.4f %8.3f %8ld %9ld  %s\n", s.name.c_str(), modulus.c_str(), alpha.c_str(),
              t.final_indentation_relative(), t.samples() ? t.force_normalized[peak] : 0.0,
              t.samples() ? t.tau[peak] : 0.0, t.stats.steps, t.stats.rhs_evaluations, ok ? "ok" : "diverged");
  if (t.has_friction && t.samples())
    std::printf("%-26s friction: up to %.3g of the normal force at a contact; at the end slipping at most %.3g m/s\n",
                "", t.peak_friction_ratio(), t.final_slip_speed());
  // SUNDIALS recovers from a failed nonlinear solve itself (a fresh Jacobian or
  // a smaller step): only dropsim's own implicit methods go on from an unconverged one.
  if (t.stats.newton_failures > 0 && integrators::info(s.run.integrator.method).library != integrators::Library::sundials)
    std::fprintf(stderr, "dropsim: %s: warning: %ld implicit solves stopped unconverged at their iteration cap"
                         " (a smaller step converges)\n", s.file.c_str(), t.stats.newton_failures);
}

void print_divergence(const io::Scenario& s, const Trace& t) {
  std::fprintf(stderr, "dropsim: %s: status diverged at t = %.9g s: %s", s.file.c_str(), t.stats.end_time,
               t.stats.reason.c_str());
  if (const std::size_t n = t.samples(); n > 0) {
    std::fprintf(stderr, "; last finite state at t = %.9g s: q =", t.time.back());
    for (int k = 0; k < t.nq; ++k) std::fprintf(stderr, " %.9g", t.q[(n - 1) * t.nq + k]);
    std::fprintf(stderr, ", u =");
    for (int k = 0; k < t.nu; ++k) std::fprintf(stderr, " %.9g", t.u[(n - 1) * t.nu + k]);
  }
  std::fprintf(stderr, " (the trace up to there is written)\n");
}

}  // namespace dropsim::app
