// Running a model: state -> stepper (calls forces) -> observer (records) -> Trace.
#pragma once

#include "dropsim/integrators/integrate.hpp"
#include "dropsim/sim/drop.hpp"
#include "dropsim/sim/trace.hpp"

namespace dropsim {

struct RunSettings {
  double duration = 0.0;         // s
  double output_interval = 0.0;  // s
  integrators::Settings integrator;
  double atol = 0.0;  // 0: model-scaled (rtol L for positions, rtol sqrt(g L) for speeds)
  bool record_samples = true;  // false: summary metrics only, no per-sample storage (sweeps)
  // false: no stiffness attribution (stats' stability-bound counts stay 0): a
  // Jacobian and its modes per accepted step that a sweep's summary never shows
  bool attribute_stiffness = true;
  // true: a recorded drop trace holds time, q and u alone; derive_columns() or
  // derive_force_normalized() fills the other columns from the state when they
  // are wanted (docs/performance.md#recording-the-state). Multibody runs record
  // every column either way.
  bool record_states_only = false;
};

// Simulates the drop. Never throws on numerical trouble: a run that blows up
// comes back with stats.status == diverged and the trace up to its last
// finite sample.
Trace simulate(const DropModel& model, const RunSettings& run);
// The same into `trace`, reusing its buffers: batches (benchmarks, sweeps)
// then write into memory already mapped instead of faulting in fresh pages
// for every run, which costs more than the integration itself.
void simulate(const DropModel& model, const RunSettings& run, Trace& trace);

// The columns of a drop trace recorded with RunSettings::record_states_only,
// from its time, q and u: the columns of a run that records them all.
// Throws std::invalid_argument for a trace that is not the drop's (one
// coordinate, one contact, q and u for every sample).
// Every column (what the trace writers need):
void derive_columns(const DropModel& model, Trace& trace);
// F/(M g) alone, the quantity the paper's figures plot:
void derive_force_normalized(const DropModel& model, Trace& trace);

// The drop's energies at state (y, v); potential is zero at touchdown height.
struct Energies {
  double kinetic = 0.0, potential = 0.0, elastic = 0.0;
  double mechanical() const { return kinetic + potential + elastic; }
};
// The energies with the model's constants folded once: observers' loops take
// one per run (per sample, the products and the sphere count's conversion
// were a tenth of a sample). The same numbers as computing them in full.
class DropEnergies {
 public:
  explicit DropEnergies(const DropModel& model)
      : half_mass_(0.5 * model.mass), weight_(model.mass * model.gravity), spheres_(model.spheres) {}
  // With the elastic energy of one sphere already at hand.
  Energies operator()(double y, double v, double elastic_per_sphere) const {
    return {half_mass_ * v * v, weight_ * y, spheres_ * elastic_per_sphere};
  }

 private:
  double half_mass_, weight_, spheres_;
};
inline Energies drop_energies(const DropModel& model, double y, double v, double elastic_per_sphere) {
  return DropEnergies(model)(y, v, elastic_per_sphere);
}
inline Energies drop_energies(const DropModel& model, double y, double v) {
  return drop_energies(model, y, v, contact_elastic_energy(model.law, -y));
}

}  // namespace dropsim
