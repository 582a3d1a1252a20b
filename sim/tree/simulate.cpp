// The body tree's run: its probe for the recorder.
#include "dropsim/sim/tree/simulate.hpp"

#include <cmath>

#include "dropsim/sim/recorder.hpp"
#include "dropsim/sim/tree/dynamics.hpp"
#include "dropsim/sim/tree/system.hpp"

namespace dropsim::tree {

namespace {

class TreeProbe {
 public:
  using State = Eigen::VectorXd;
  struct Observation {
    double mechanical, force_normalized, indentation;
    TreeEnergies energies;
    double ground;
  };

  TreeProbe(const TreeSystem& system, const Eigen::VectorXd& x0, Trace& trace)
      : system_(system),
        model_(system.model()),
        trace_(trace),
        weight_(model_.total_mass() * model_.gravity().norm()),
        up_(model_.gravity().norm() > 0.0 ? Eigen::Vector3d(-model_.gravity().normalized()) : Eigen::Vector3d::UnitY()),
        fixed_(ground_fixed_bodies(model_.source())),
        initial_energy_(observe(x0).mechanical) {}

  double initial_energy() const { return initial_energy_; }

  void describe() const {
    Trace& t = trace_;
    t.nq = model_.nq();
    t.nu = model_.nu();
    t.contacts = static_cast<int>(model_.source().contacts.size());
    t.gravity = model_.gravity().norm();
    t.characteristic_length = model_.characteristic_length();
    t.total_mass = model_.total_mass();
    for (const ContactPair& c : model_.source().contacts) {
      t.contact_radius.push_back(c.law.radius);
      t.has_friction = t.has_friction || c.law.friction.acts();
    }
    t.q_names = model_.coordinate_names();
    t.u_names = t.q_names;
    for (std::string& n : t.u_names) n += "_u";
    t.q_units = model_.coordinate_units();
    for (const std::string& unit : t.q_units) t.u_units.push_back(unit + "/s");
  }

  template <class F>
  std::size_t with_sampler(F f) {
    return f([this](const State& x) { return observe(x); });
  }

  void keep(double t, const State& x, const Observation& o) {
    Trace& trace = trace_;
    const TreeData& data = system_.evaluate(x);
    const auto& pairs = model_.source().contacts;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      const TreeContact& c = data.contacts[i];
      trace.contact_force.push_back(c.normal_force);
      trace.indentation.push_back(c.indentation);
      trace.indentation_relative.push_back(pairs[i].law.radius > 0.0 ? c.indentation / pairs[i].law.radius : 0.0);
      if (trace.has_friction) {
        trace.friction_force.push_back(c.friction_force);
        trace.slip_speed.push_back(c.slip_speed);
      }
    }
    const double tau_per_second = std::sqrt(trace.gravity / trace.characteristic_length);
    trace.time.push_back(t);
    trace.tau.push_back(t * tau_per_second);
    trace.force.push_back(o.ground);
    trace.force_normalized.push_back(o.force_normalized);
    trace.q.insert(trace.q.end(), x.data(), x.data() + model_.nq());
    trace.u.insert(trace.u.end(), x.data() + model_.nq(), x.data() + 2 * model_.nq());
    trace.kinetic.push_back(o.energies.kinetic);
    trace.potential.push_back(o.energies.gravitational);
    trace.elastic.push_back(o.energies.elastic);
    trace.dissipated.push_back(initial_energy_ - o.mechanical);
  }

  void finish(bool /*kept*/) const {}

 private:
  Observation observe(const State& x) const {
    const TreeData& data = system_.evaluate(x);
    const TreeEnergies e = tree_energies(model_, data);
    const auto& pairs = model_.source().contacts;
    double ground = 0.0, relative = 0.0;
    const auto fixed = [&](int body) { return body == ground_body || fixed_[static_cast<std::size_t>(body)]; };
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      const ContactPair& p = pairs[i];
      const TreeContact& c = data.contacts[i];
      const ContactSphereGeometry& s = model_.source().spheres[static_cast<std::size_t>(p.sphere)];
      const int a = p.between_spheres() ? s.body : model_.source().half_spaces[static_cast<std::size_t>(p.half_space)].body;
      const int b = p.between_spheres() ? model_.source().spheres[static_cast<std::size_t>(p.other_sphere)].body : s.body;
      if (fixed(a) && !fixed(b)) ground += up_.dot(c.force_on_b);
      else if (fixed(b) && !fixed(a)) ground -= up_.dot(c.force_on_b);
      relative += p.law.radius > 0.0 ? c.indentation / p.law.radius : 0.0;
    }
    const double n = static_cast<double>(pairs.size());
    return {e.mechanical(), weight_ > 0.0 ? ground / weight_ : 0.0, n > 0 ? relative / n : 0.0, e, ground};
  }

  const TreeSystem& system_;
  const TreeModel& model_;
  Trace& trace_;
  const double weight_;
  const Eigen::Vector3d up_;
  const std::vector<bool> fixed_;
  const double initial_energy_;
};

}  // namespace

Trace simulate(const TreeModel& model, const RunSettings& run) { return simulate_from(model, run, model.default_state()); }

Trace simulate_from(const TreeModel& model, const RunSettings& run, const Eigen::VectorXd& x0) {
  Trace trace;
  const TreeSystem system(model);
  TreeProbe probe(system, x0, trace);
  // The stiffness watch would difference the whole ODE at every step (TreeSystem::jacobian).
  RunSettings settings = run;
  settings.attribute_stiffness = false;
  record_run(system, x0, settings, probe, trace);
  return trace;
}

}  // namespace dropsim::tree
