// dropsim.modes: the analysis `dropsim modes` reports (equilibrium, active
// contacts, coupled contact modes), from the same sim/ calls, as dicts and numpy arrays.
#include <pybind11/eigen.h>
#include <pybind11/stl.h>

#include "dropsim/sim/equilibrium.hpp"
#include "dropsim/sim/modes.hpp"
#include "dropsim/sim/multibody_model.hpp"
#include "python/objects.hpp"

namespace dropsim::python {

namespace {

py::list modes_list(const std::vector<Mode>& modes) {
  py::list out;
  for (const Mode& m : modes) {
    py::dict d;
    d["omega"] = m.omega;
    d["damping_ratio"] = m.damping_ratio;
    d["damped_omega"] = m.damped_omega;
    d["overdamped"] = m.overdamped;
    d["shape"] = Eigen::VectorXd(m.shape);
    d["gap_shape"] = Eigen::VectorXd(m.gap_shape);
    if (m.rate_shape.size() > 0) d["rate_shape"] = Eigen::VectorXd(m.rate_shape);
    out.append(d);
  }
  return out;
}

}  // namespace

void bind_modes(py::module_& m) {
  m.def("modes", [](py::handle scenario) {
        const ScenarioPtr sp = as_scenario(scenario);
        const io::Scenario& s = sp->scenario;
        // As `dropsim modes`: the drop form as its multibody model, linearised where modes_at says.
        const MultibodyModel model = s.multibody() ? *s.multibody() : multibody_from_drop(s.drop());
        const bool at_equilibrium = s.modes_at == "equilibrium";
        Equilibrium eq;
        Eigen::VectorXd x = model.initial_state();
        ModesAnalysis a;
        {
          py::gil_scoped_release release;
          if (at_equilibrium) {
            try {
              eq = static_equilibrium(model, x);
            } catch (const EquilibriumError& e) {
              throw io::InputError(s.file, "/modes_at", e.what());
            }
            x = eq.x;
          }
          a = analyse_modes(model, x);
        }
        py::dict out;
        out["scenario"] = s.name;
        out["modes_at"] = s.modes_at;
        if (at_equilibrium) {
          py::dict e;
          e["x"] = Eigen::VectorXd(eq.x);
          e["iterations"] = eq.iterations;
          e["residual"] = eq.residual;
          e["creep_speed"] = eq.creep_speed;
          out["equilibrium"] = e;
        } else {
          out["equilibrium"] = py::none();
        }
        out["x"] = Eigen::VectorXd(a.x);
        py::list contacts;
        for (const ContactMode& c : a.contacts) {
          py::dict d;
          d["contact"] = c.contact;
          d["indentation"] = c.indentation;
          d["force"] = c.force;
          d["stiffness"] = c.stiffness;
          d["damping"] = c.damping;
          d["effective_mass"] = c.effective_mass;
          d["omega_single"] = c.omega_single;
          contacts.append(d);
        }
        out["contacts"] = contacts;
        out["modes"] = modes_list(a.modes);
        out["loaded_modes"] = modes_list(a.loaded_modes);
        out["unstable_loaded"] = a.unstable_loaded;
        out["redundant"] = a.redundant;
        out["free_motions"] = Eigen::MatrixXd(a.free_motions);
        out["omega_max"] = a.omega_max;
        out["t_c"] = a.t_c;
        out["period"] = a.period;
        out["step_20"] = a.step_20;
        out["decay_rates"] = a.decay_rates;
        out["friction_modes"] = modes_list(a.friction_modes);
        out["friction_decay_rates"] = a.friction_decay_rates;
        out["friction_growth_rates"] = a.friction_growth_rates;
        out["friction_fastest"] = a.friction_fastest;
        return out;
      }, py::arg("scenario"), R"(The analysis `dropsim modes` reports, as a dict.

The drop form is analysed as its multibody model, about static equilibrium
(modes_at "equilibrium", the default; "equilibrium" gives x, iterations,
residual, creep_speed) or the initial state. "contacts": the active contacts
(indentation m, force N, stiffness N/m, damping N s/m, effective_mass kg,
omega_single rad/s); "modes" and "loaded_modes": dicts of omega (rad/s),
damping_ratio, damped_omega, overdamped, shape (speed space, numpy) and
gap_shape; omega_max, t_c, period, step_20 of the fastest mode; with friction
the damped problem's friction_modes and rates. InputError names /modes_at
where there is no equilibrium.)");
}

}  // namespace dropsim::python
