// The multibody run: its probe for the recorder keeps q, u, per-contact forces and indentations, energies.
#include "dropsim/sim/multibody_simulate.hpp"

#include <cmath>

#include "dropsim/sim/recorder.hpp"
#include "dropsim/sim/run_estimate.hpp"

namespace dropsim {

namespace {

// The multibody probe for the Recorder (sim/recorder.hpp): one sample's
// forces and indentations are evaluated once, into per-contact scratch that
// keep() then appends.
class MultibodyProbe {
 public:
  using State = Eigen::VectorXd;

  struct Observation {
    double mechanical, force_normalized;
    double indentation;  // mean relative indentation over the contacts
    MultibodyEnergies energies;
    double ground;  // N, vertical (+y) part of the forces the world's planes and spheres apply
  };

  MultibodyProbe(const MultibodySystem& system, const Eigen::VectorXd& x0, Trace& trace)
      : system_(system),
        model_(system.model()),
        trace_(trace),
        weight_(model_.total_mass() * model_.gravity),
        tau_per_second_(std::sqrt(model_.gravity / model_.characteristic_length)),
        initial_energy_(multibody_energies(model_, x0).mechanical()),
        per_sphere_(model_.contacts.size()),
        friction_(model_.contacts.size()),
        slip_(model_.contacts.size()),
        vertical_(model_.contacts.size()),
        indentation_(model_.contacts.size()),
        relative_(model_.contacts.size()) {}

  double initial_energy() const { return initial_energy_; }

  void describe() const {
    Trace& trace = trace_;
    trace.nq = model_.nq;
    trace.nu = model_.nu;
    trace.contacts = static_cast<int>(model_.contacts.size());
    trace.gravity = model_.gravity;
    trace.characteristic_length = model_.characteristic_length;
    trace.total_mass = model_.total_mass();
    for (const auto& c : model_.contacts) trace.contact_radius.push_back(c.law.radius);
    trace.has_friction = model_.has_friction();
    trace.q_names = model_.position_names();
    trace.u_names = model_.speed_names();
    trace.q_units = model_.position_units();
    trace.u_units = model_.speed_units();
  }

  template <class F>
  std::size_t with_sampler(F f) {
    return f([this](const State& x) { return observe(x); });
  }

  // Each per-contact column and q and u appended as one block: element by
  // element, the capacity checks of some fifty push_backs a sample showed in
  // profiles.
  void keep(double t, const State& x, const Observation& o) {
    Trace& trace = trace_;
    const std::size_t contacts = per_sphere_.size();
    for (std::size_t i = 0; i < contacts; ++i) {
      const double radius = model_.contacts[i].law.radius;
      relative_[i] = radius > 0.0 ? indentation_[i] / radius : 0.0;
    }
    const auto append = [](std::vector<double>& column, const double* from, std::size_t n) {
      column.insert(column.end(), from, from + n);
    };
    append(trace.contact_force, per_sphere_.data(), contacts);
    append(trace.indentation, indentation_.data(), contacts);
    append(trace.indentation_relative, relative_.data(), contacts);
    if (trace.has_friction) {
      append(trace.friction_force, friction_.data(), contacts);
      append(trace.slip_speed, slip_.data(), contacts);
    }
    trace.time.push_back(t);
    trace.tau.push_back(t * tau_per_second_);
    trace.force.push_back(o.ground);
    trace.force_normalized.push_back(o.force_normalized);
    append(trace.q, x.data(), static_cast<std::size_t>(model_.nq));
    append(trace.u, x.data() + model_.nq, static_cast<std::size_t>(model_.nu));
    trace.kinetic.push_back(o.energies.kinetic);
    trace.potential.push_back(o.energies.potential);
    trace.elastic.push_back(o.energies.elastic);
    // From the energy balance: all mechanical energy the contacts removed.
    trace.dissipated.push_back(initial_energy_ - o.energies.mechanical());
  }

  void finish(bool /*kept*/) const {}  // appended per sample; the mean indentation is relative already

 private:
  Observation observe(const State& x) {
    system_.contact_columns(x, per_sphere_.data(), friction_.data(), slip_.data(), vertical_.data(),
                            indentation_.data());
    const MultibodyEnergies e = multibody_energies(model_, x, indentation_.data());
    const double mechanical = e.mechanical();
    double ground = 0.0, relative_sum = 0.0;
    for (std::size_t i = 0; i < per_sphere_.size(); ++i) {
      const Contact& c = model_.contacts[i];
      relative_sum += c.law.radius > 0.0 ? indentation_[i] / c.law.radius : 0.0;
      // vertical_ is the force on B: the body on a plane; a sphere fixed in the world pushes A back.
      if (c.type == ContactType::sphere_plane) ground += c.count * vertical_[i];
      else if (c.body[1] == ground_index) ground -= c.count * vertical_[i];
    }
    const double contacts = static_cast<double>(per_sphere_.size());
    return {mechanical, weight_ > 0.0 ? ground / weight_ : 0.0, contacts > 0 ? relative_sum / contacts : 0.0, e,
            ground};
  }

  const MultibodySystem& system_;
  const MultibodyModel& model_;
  Trace& trace_;
  const double weight_, tau_per_second_, initial_energy_;
  // Per contact, of the sample observe() saw last; relative_ is keep()'s.
  std::vector<double> per_sphere_, friction_, slip_, vertical_, indentation_, relative_;
};
static_assert(RecorderProbe<MultibodyProbe>);

}  // namespace

Trace simulate(const MultibodyModel& model, const RunSettings& run) {
  return simulate_from(model, run, model.initial_state());
}

Trace simulate_from(const MultibodyModel& model, const RunSettings& run, const Eigen::VectorXd& x0) {
  Trace trace;
  simulate_from(model, run, x0, trace);
  return trace;
}

void simulate_from(const MultibodyModel& model, const RunSettings& run, const Eigen::VectorXd& x0, Trace& trace) {
  const MultibodySystem system(model);
  MultibodyProbe probe(system, x0, trace);
  record_run(system, x0, with_adaptive_step_cap(model, run), probe, trace);
}

}  // namespace dropsim
