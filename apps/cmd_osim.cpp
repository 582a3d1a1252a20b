// `dropsim osim inspect|scale|modes|scenario MODEL.osim`: OpenSim models read
// directly (docs/interface.md#opensim-models).
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <numbers>

#include "apps/commands.hpp"
#include "apps/json_values.hpp"
#include "dropsim/integrators/registry.hpp"
#include "dropsim/integrators/stability.hpp"
#include "dropsim/io/atomic_file.hpp"
#include "dropsim/io/input_error.hpp"
#include "dropsim/io/osim_reader.hpp"
#include "dropsim/io/osim_scale.hpp"
#include "dropsim/sim/articulated_analysis.hpp"
#include "dropsim/sim/combining.hpp"
#include "dropsim/sim/format.hpp"

namespace dropsim::app {

namespace {

using nlohmann::json;

struct OsimOptions {
  std::string file;
  std::vector<std::string> coordinates;  // NAME=VALUE
  bool json = false;
  // scale
  std::string from, reference_contact, output;
  double mass = 0.0, radius = 0.0, stiffness = 0.0;
  double dissipation = NAN;  // unset: a reference given by numbers must say its alpha, 0 included
  int spheres = 0;
  bool scale_dissipation = false, scale_smoothing = false;
  // modes
  std::string setup;
  std::string integrator = "all";
  // scenario
  double duration = 1.0;
};

// The model and the pose it is analysed at: the coordinates' defaults, with --coordinate overrides.
struct Posed {
  io::OsimModel osim;
  Eigen::VectorXd q;
};

Posed load(const OsimOptions& o) {
  Posed p{io::read_osim(o.file), {}};
  p.q = p.osim.model.default_coordinates();
  for (const std::string& assignment : o.coordinates) {
    const auto eq = assignment.find('=');
    const std::string name = assignment.substr(0, eq);
    const auto& cs = p.osim.model.coordinates;
    const auto it = std::find_if(cs.begin(), cs.end(), [&](const GeneralisedCoordinate& c) { return c.name == name; });
    char* end = nullptr;
    const double v = eq == std::string::npos ? NAN : std::strtod(assignment.c_str() + eq + 1, &end);
    if (eq == std::string::npos || *end != '\0' || !std::isfinite(v))
      throw io::InputError("--coordinate", assignment, "must be NAME=VALUE with a finite number");
    if (it == cs.end()) throw io::InputError(o.file, "--coordinate " + name, "the model has no coordinate " + name);
    p.q[it - cs.begin()] = v;
  }
  return p;
}

// What the model cannot be analysed as (frozen with gravity off -y, a singular
// M(q), ...) is the file's fault: an InputError naming it.
template <class Analysis>
auto model_or_fail(const OsimOptions& o, Analysis&& analysis) {
  try {
    return analysis();
  } catch (const std::invalid_argument& e) {
    throw io::InputError(o.file, "/OpenSimDocument/Model", e.what());
  }
}

FrozenAnalysis frozen_or_fail(const Posed& p, const OsimOptions& o) {
  return model_or_fail(o, [&] { return analyse_frozen(p.osim.model, p.q); });
}

// ---------------------------------------------------------------- inspect

json force_json(const io::OsimModel& osim, const io::OsimContactForce& f, const FrozenAnalysis& frozen) {
  const ArticulatedModel& m = osim.model;
  json sets = json::array();
  for (const auto& s : f.sets) {
    json params = json::object();
    for (const auto& p : s.parameters) params[p.element] = {{"value", p.value}, {"defaulted", p.defaulted}};
    sets.push_back({{"geometry", s.geometry}, {"parameters", params}});
  }
  json contacts = json::array();
  for (const int ci : f.contacts) {
    const SphereOnHalfSpace& c = m.contacts[static_cast<std::size_t>(ci)];
    const ContactSphereGeometry& s = m.spheres[static_cast<std::size_t>(c.sphere)];
    json entry = {{"name", c.name},
                  {"sphere", s.name},
                  {"body", s.body == ground_body ? "ground" : m.bodies[static_cast<std::size_t>(s.body)].name},
                  {"radius", s.radius},
                  {"half_space", m.half_spaces[static_cast<std::size_t>(c.half_space)].name},
                  {"effective_modulus", c.law.effective_modulus},
                  {"dissipation", c.law.dissipation},
                  {"friction",
                   {{"static", c.law.friction.static_coefficient},
                    {"dynamic", c.law.friction.dynamic_coefficient},
                    {"viscous", c.law.friction.viscous_coefficient},
                    {"transition_velocity", c.law.friction.transition_velocity}}}};
    if (c.law.kind == ContactLawKind::smooth_hunt_crossley)
      entry["smoothing"] = {{"constant_contact_force", c.law.cf}, {"hertz_smoothing", c.law.bd}, {"hunt_crossley_smoothing", c.law.bv}};
    for (const auto& fc : frozen.contacts)
      if (fc.contact == ci)
        entry["frozen"] = {{"default_indentation", fc.default_indentation},
                           {"indentation", fc.indentation},
                           {"indentation_relative", fc.indentation / s.radius},
                           {"force", fc.force},
                           {"load_share", fc.load_share}};
    contacts.push_back(entry);
  }
  return {{"name", f.name}, {"type", f.type}, {"transition_velocity", f.transition_velocity}, {"parameter_sets", sets}, {"contacts", contacts}};
}

json inspect_json(const Posed& p, const FrozenAnalysis& frozen) {
  const ArticulatedModel& m = p.osim.model;
  json bodies = json::array();
  for (const auto& b : m.bodies)
    bodies.push_back({{"name", b.name}, {"mass", b.mass}, {"mass_centre", values(b.mass_centre)},
                      {"inertia", {b.inertia(0, 0), b.inertia(1, 1), b.inertia(2, 2), b.inertia(0, 1), b.inertia(0, 2), b.inertia(1, 2)}}});
  json joints = json::array();
  for (const auto& j : m.joints)
    joints.push_back({{"name", j.name}, {"type", j.type},
                      {"parent", j.parent == ground_body ? "ground" : m.bodies[static_cast<std::size_t>(j.parent)].name},
                      {"child", m.bodies[static_cast<std::size_t>(j.child)].name}});
  json coordinates = json::array();
  for (std::size_t i = 0; i < m.coordinates.size(); ++i) {
    const auto& c = m.coordinates[i];
    coordinates.push_back({{"name", c.name}, {"joint", m.joints[static_cast<std::size_t>(c.joint)].name},
                           {"value", p.q[static_cast<Eigen::Index>(i)]}, {"default_value", c.default_value},
                           {"locked", c.locked}, {"kind", c.rotational ? "rotational" : "translational"}});
  }
  json forces = json::array();
  for (const auto& f : p.osim.forces) forces.push_back(force_json(p.osim, f, frozen));
  json out = {{"file", p.osim.file},
              {"model", m.name},
              {"version", p.osim.version},
              {"layout", p.osim.legacy ? "bodies own their joints (2.x/3.x)" : "JointSet (4.x)"},
              {"gravity", values(m.gravity)},
              {"gravity_given", p.osim.gravity_given},
              {"total_mass", m.total_mass()},
              {"bodies", bodies},
              {"joints", joints},
              {"coordinates", coordinates},
              {"forces", forces},
              {"equilibrium", {{"found", frozen.at_equilibrium}}},
              {"warnings", frozen.warnings},
              {"notes", p.osim.notes},
              {"skipped", p.osim.skipped}};
  if (frozen.at_equilibrium) {
    out["equilibrium"]["residual"] = frozen.equilibrium.residual;
    out["equilibrium"]["iterations"] = frozen.equilibrium.iterations;
  } else {
    out["equilibrium"]["why_not"] = frozen.no_equilibrium;
  }
  return out;
}

void print_inspect(const Posed& p, const FrozenAnalysis& frozen) {
  const ArticulatedModel& m = p.osim.model;
  std::printf("%s: model %s, %s layout (Version %d)\n", p.osim.file.c_str(), m.name.c_str(),
              p.osim.legacy ? "2.x/3.x" : "4.x", p.osim.version);
  std::printf("gravity [%s, %s, %s] m/s^2%s\n", significant(m.gravity.x(), 6).c_str(), significant(m.gravity.y(), 6).c_str(),
              significant(m.gravity.z(), 6).c_str(), p.osim.gravity_given ? "" : " (no <gravity> element: the default)");
  std::printf("\n%zu bodies, total mass %s kg\n", m.bodies.size(), significant(m.total_mass(), 6).c_str());
  for (const auto& b : m.bodies)
    std::printf("  %-16s %10s kg  mass centre [%s, %s, %s]\n", b.name.c_str(), significant(b.mass, 6).c_str(),
                significant(b.mass_centre.x(), 4).c_str(), significant(b.mass_centre.y(), 4).c_str(), significant(b.mass_centre.z(), 4).c_str());
  std::printf("\n%zu joints, %zu coordinates (%zu unlocked)\n", m.joints.size(), m.coordinates.size(), free_coordinates(m).size());
  for (const auto& j : m.joints)
    std::printf("  %-16s %-14s %s -> %s\n", j.name.c_str(), j.type.c_str(),
                j.parent == ground_body ? "ground" : m.bodies[static_cast<std::size_t>(j.parent)].name.c_str(),
                m.bodies[static_cast<std::size_t>(j.child)].name.c_str());
  std::printf("\ncontact (E* = typed stiffness combined by Sherman's rule; x/R at the frozen equilibrium)\n");
  std::printf("  %-16s %-10s %-9s %8s %12s %12s %7s %13s %9s %10s %7s\n", "force", "sphere", "body", "R_m", "stiffness", "E*_Pa",
              "alpha", "mu_s/mu_d/mu_v", "load_%", "x_m", "x/R");
  for (const auto& f : p.osim.forces)
    for (const int ci : f.contacts) {
      const SphereOnHalfSpace& c = m.contacts[static_cast<std::size_t>(ci)];
      const ContactSphereGeometry& s = m.spheres[static_cast<std::size_t>(c.sphere)];
      const auto* typed = f.sets.front().find("stiffness");
      std::string load = "-", x = "-", xr = "-";
      for (const auto& fc : frozen.contacts)
        if (fc.contact == ci && frozen.at_equilibrium) {
          load = significant(100.0 * fc.load_share, 4);
          x = significant(fc.indentation, 4);
          xr = significant(fc.indentation / s.radius, 3);
        }
      const std::string mu = significant(c.law.friction.static_coefficient, 3) + "/" + significant(c.law.friction.dynamic_coefficient, 3) +
                             "/" + significant(c.law.friction.viscous_coefficient, 3);
      std::printf("  %-16s %-10s %-9s %8s %12s %12s %7s %13s %9s %10s %7s\n", c.name.c_str(), s.name.c_str(),
                  s.body == ground_body ? "ground" : m.bodies[static_cast<std::size_t>(s.body)].name.c_str(),
                  significant(s.radius, 4).c_str(), typed ? significant(typed->value, 6).c_str() : "-",
                  significant(c.law.effective_modulus, 6).c_str(), significant(c.law.dissipation, 4).c_str(), mu.c_str(),
                  load.c_str(), x.c_str(), xr.c_str());
      if (c.law.kind == ContactLawKind::smooth_hunt_crossley)
        std::printf("  %-16s smoothing: cf %s m^2, bd %s 1/m, bv %s s/m; transition velocity %s m/s\n", "", significant(c.law.cf, 4).c_str(),
                    significant(c.law.bd, 4).c_str(), significant(c.law.bv, 4).c_str(), significant(f.transition_velocity, 4).c_str());
    }
  for (const auto& f : p.osim.forces)
    for (const auto& s : f.sets) {
      std::string defaulted;
      for (const auto& prm : s.parameters)
        if (prm.defaulted) defaulted += (defaulted.empty() ? "" : ", ") + prm.element + " " + significant(prm.value, 6);
      if (!defaulted.empty()) std::printf("  %s: absent, OpenSim's defaults apply: %s\n", f.name.c_str(), defaulted.c_str());
    }
  if (frozen.at_equilibrium)
    std::printf("\nfrozen equilibrium (every joint locked): %d Newton iterations, force imbalance %.2g of the weight\n",
                frozen.equilibrium.iterations, frozen.equilibrium.residual);
  if (!frozen.warnings.empty()) std::printf("\nwarnings:\n");
  for (const auto& w : frozen.warnings) std::printf("  %s\n", w.c_str());
  for (const auto& n : p.osim.notes) std::printf("note: %s\n", n.c_str());
  if (!p.osim.skipped.empty()) std::printf("not modelled (skipped): %s\n", p.osim.skipped.c_str());
}

int run_inspect(const OsimOptions& o) {
  const Posed p = load(o);
  const FrozenAnalysis frozen = frozen_or_fail(p, o);
  if (o.json) std::cout << inspect_json(p, frozen).dump(2) << "\n";
  else print_inspect(p, frozen);
  return exit_ok;
}

// ---------------------------------------------------------------- scale

int run_scale(const OsimOptions& o) {
  const io::OsimModel target = io::read_osim(o.file);
  io::ScaleReference reference;
  if (!o.from.empty()) {
    reference = io::reference_from_model(io::read_osim(o.from), o.reference_contact.empty() ? std::nullopt : std::optional(o.reference_contact));
  } else {
    const bool finite = std::isfinite(o.mass) && std::isfinite(o.radius) && std::isfinite(o.stiffness) &&
                        std::isfinite(o.dissipation);  // NaN: --dissipation not given
    if (!(finite && o.mass > 0.0 && o.radius > 0.0 && o.stiffness > 0.0 && o.spheres > 0 && o.dissipation >= 0.0))
      throw io::InputError(o.file, "--from", "give a reference model (--from REF.osim) or all of --mass, --spheres, --radius, --stiffness (OpenSim's typed value) and --dissipation, finite, the first four > 0 and the dissipation >= 0");
    reference.source = "numbers: mass " + significant(o.mass, 6) + " kg, " + std::to_string(o.spheres) + " spheres of " +
                       significant(o.radius, 6) + " m, stiffness " + significant(o.stiffness, 6) + ", dissipation " + significant(o.dissipation, 6);
    reference.mass = o.mass;
    reference.spheres = o.spheres;
    reference.radius = o.radius;
    reference.effective_modulus = effective_modulus(CombiningRule::sherman, o.stiffness);
    reference.dissipation = o.dissipation;
  }
  const io::ScalePlan plan = io::plan_scaling(target, reference, {o.scale_dissipation, o.scale_smoothing});
  std::string comment;
  if (!plan.edits.empty()) {
    comment = " dropsim osim scale: contact parameters scaled from " + reference.source + " to this model's mass " +
              significant(target.model.total_mass(), 6) + " kg and sphere count " + std::to_string(target.model.contacts.size()) +
              " (E* ~ M n^-1 R^-2" + (o.scale_dissipation ? ", alpha ~ R^-1/2" : ", alpha as the reference's") +
              (o.scale_smoothing ? ", cf ~ R^2, bd ~ R^-1, bv ~ R^-1/2" : "") + "):";
    for (const auto& l : plan.lines) comment += "\n     " + l;
    comment += "\n";
    // "--" cannot appear inside an XML comment.
    for (std::size_t at; (at = comment.find("--")) != std::string::npos;) comment.replace(at, 2, "- -");
  }
  io::write_text_file(o.output, io::apply_edits(target.bytes, plan.edits, comment));
  for (const auto& e : plan.edits)
    std::fprintf(stderr, "%s: %s %s -> %s\n", e.where.c_str(), e.element.c_str(), significant(e.old_value, 8).c_str(),
                 significant(e.new_value, 8).c_str());
  std::fprintf(stderr, "%s: %zu parameter%s changed\n", o.output.c_str(), plan.edits.size(), plan.edits.size() == 1 ? "" : "s");
  return exit_ok;
}

// ---------------------------------------------------------------- modes

std::string describe(const Eigen::VectorXd& shape, const std::vector<std::string>& names) {
  std::string out;
  for (Eigen::Index i = 0; i < shape.size(); ++i)
    if (std::abs(shape[i]) >= 0.05) out += (out.empty() ? "" : ", ") + names[static_cast<std::size_t>(i)] + " " + significant(shape[i], 3);
  return out;
}

struct LimitRow {
  std::string method;
  double step = 0.0;
};

std::vector<LimitRow> step_limits(const ModesAnalysis& a, const std::vector<integrators::Method>& methods) {
  std::vector<LimitRow> rows;
  if (a.lin.J.rows() == 0) return rows;
  const auto system = a.lin.linear_system();
  for (const auto m : methods) rows.push_back({std::string(integrators::info(m).name), integrators::step_limit(m, system).step});
  return rows;
}

json analysis_json(const ModesAnalysis& a, const std::vector<std::string>& speeds, const std::vector<std::string>& contact_names,
                   const std::vector<LimitRow>& step_limit_rows) {
  json modes = json::array();
  for (const auto& m : a.modes) {
    const int c = dominant_contact(m);
    modes.push_back({{"omega", m.omega}, {"frequency", m.omega / (2.0 * std::numbers::pi)}, {"damping_ratio", m.damping_ratio},
                     {"overdamped", m.overdamped}, {"shape", values(m.shape)},
                     {"dominant_contact", c >= 0 ? json(contact_names[static_cast<std::size_t>(a.lin.contacts[static_cast<std::size_t>(c)])]) : json(nullptr)}});
  }
  json contacts = json::array();
  for (const auto& c : a.contacts)
    contacts.push_back({{"name", contact_names[static_cast<std::size_t>(c.contact)]}, {"indentation", c.indentation}, {"force", c.force},
                        {"stiffness", c.stiffness}, {"effective_mass", c.effective_mass}, {"omega_single", c.omega_single}});
  json limits = json::array();
  for (const auto& r : step_limit_rows) limits.push_back({{"integrator", r.method}, {"predicted_step", number_or_null(r.step)}});
  json out = {{"speeds", speeds}, {"contacts", contacts}, {"modes", modes}, {"omega_max", a.omega_max}, {"step_limits", limits}};
  if (!a.decay_rates.empty()) out["decay_rates"] = a.decay_rates;
  out["stiffest"] = a.friction_stiffest ? "friction" : "normal";
  return out;
}

void print_analysis(const char* title, const ModesAnalysis& a, const std::vector<std::string>& speeds,
                    const std::vector<std::string>& contact_names) {
  std::printf("\n%s: %zu contacts compressed, %zu modes\n", title, a.contacts.size(), a.modes.size());
  std::printf("  %-20s %11s %11s %12s %10s\n", "contact", "force_N", "m_eff_kg", "omega_1", "t_c_s");
  for (const auto& c : a.contacts)
    std::printf("  %-20s %11.5g %11.5g %12.5g %10.4g\n", contact_names[static_cast<std::size_t>(c.contact)].c_str(), c.force,
                c.effective_mass, c.omega_single, 1.0 / c.omega_single);
  std::printf("  %4s %12s %9s %9s  %-20s shape\n", "mode", "omega_rad/s", "f_Hz", "zeta", "dominant contact");
  for (std::size_t k = 0; k < a.modes.size(); ++k) {
    const Mode& m = a.modes[k];
    const int c = dominant_contact(m);
    std::printf("  %4zu %12.5g %9.4g %9.3g  %-20s %s\n", k + 1, m.omega, m.omega / (2.0 * std::numbers::pi), m.damping_ratio,
                c >= 0 ? contact_names[static_cast<std::size_t>(a.lin.contacts[static_cast<std::size_t>(c)])].c_str() : "-",
                describe(m.shape, speeds).c_str());
  }
  if (!a.decay_rates.empty())
    std::printf("  friction decay: fastest %.5g 1/s (%s sets the stiffness)\n", a.decay_rates.front(),
                a.friction_stiffest ? "friction" : "a normal mode");
}

int run_modes(const OsimOptions& o) {
  const Posed p = load(o);
  const FrozenAnalysis frozen = frozen_or_fail(p, o);
  // Contact modes need the forces of a model at rest: a pose that does not
  // stand has none worth analysing (its spheres may start sunk or in the air).
  if (!frozen.at_equilibrium)
    throw io::InputError(o.file, "/OpenSimDocument/Model",
                         "no static equilibrium with every joint locked at this pose (" + frozen.no_equilibrium +
                             "); the contact modes need forces at rest: pose the model so that it stands (--coordinate NAME=VALUE)");
  const ModelModes modes = model_or_fail(o, [&] { return analyse_model_modes(p.osim.model, p.q, frozen); });
  std::optional<io::ForwardSettings> setup;
  if (!o.setup.empty()) setup = io::read_forward_setup(o.setup);
  std::vector<std::string> names;
  for (const auto& c : p.osim.model.contacts) names.push_back(c.name);
  std::vector<std::string> frozen_names;  // frozen contact index -> articulated name
  for (const auto& c : frozen.model.contacts) frozen_names.push_back(c.name);
  const std::vector<integrators::Method> methods = chosen_methods(o.integrator);
  const auto frozen_limits = step_limits(modes.frozen, methods), articulated_limits = step_limits(modes.articulated, methods);

  // Budget: an explicit run needs at least duration / min(limit, max step) steps.
  const auto budget = [&](double limit) -> json {
    if (!setup) return nullptr;
    const double h = std::isfinite(limit) ? std::min(limit, setup->max_step) : setup->max_step;
    const double steps = (setup->final_time - setup->initial_time) / h;
    return {{"min_steps", steps}, {"covered", steps <= setup->max_steps}};
  };
  if (o.json) {
    json out = {{"file", p.osim.file}, {"model", p.osim.model.name}, {"equilibrium", {{"found", frozen.at_equilibrium}}}, {"warnings", frozen.warnings}};
    out["frozen"] = analysis_json(modes.frozen, frozen.model.speed_names(), frozen_names, frozen_limits);
    out["articulated"] = analysis_json(modes.articulated, modes.articulated_speeds, names, articulated_limits);
    out["articulated"]["pose"] = values(modes.pose);
    out["articulated"]["pose_at_equilibrium"] = modes.pose_at_equilibrium;
    if (setup) {
      out["setup"] = {{"file", setup->file}, {"accuracy", setup->accuracy}, {"min_step", setup->min_step}, {"max_step", setup->max_step},
                      {"max_steps", setup->max_steps}, {"duration", setup->final_time - setup->initial_time}};
      for (std::size_t i = 0; i < articulated_limits.size(); ++i) out["articulated"]["step_limits"][i]["budget"] = budget(articulated_limits[i].step);
    }
    std::cout << out.dump(2) << "\n";
    return exit_ok;
  }
  std::printf("%s: contact modes at the %s pose (contact forces of the frozen equilibrium)\n", p.osim.file.c_str(),
              o.coordinates.empty() ? "default" : "given");
  for (const auto& w : frozen.warnings) std::printf("warning: %s\n", w.c_str());
  print_analysis("frozen (every joint locked: one rigid body)", modes.frozen, frozen.model.speed_names(), frozen_names);
  print_analysis(modes.pose_at_equilibrium ? "articulated (M(q) of the unlocked coordinates, at the frozen equilibrium's pose)"
                                           : "articulated (M(q) of the unlocked coordinates, at the pose given: the roots are not Free joints)",
                 modes.articulated, modes.articulated_speeds, names);
  std::printf("\npredicted largest stable fixed step (amplification of the linearised system):\n");
  std::printf("  %-20s %14s %14s", "integrator", "frozen_s", "articulated_s");
  if (setup) std::printf("  %s", "min steps for the setup's run");
  std::printf("\n");
  for (std::size_t i = 0; i < articulated_limits.size(); ++i) {
    const auto show = [](double v) { return std::isinf(v) ? std::string("unconditional") : significant(v, 5); };
    std::printf("  %-20s %14s %14s", articulated_limits[i].method.c_str(),
                i < frozen_limits.size() ? show(frozen_limits[i].step).c_str() : "-", show(articulated_limits[i].step).c_str());
    if (setup) {
      const json b = budget(articulated_limits[i].step);
      std::printf("  %s%s", significant(b["min_steps"].get<double>(), 4).c_str(),
                  b["covered"].get<bool>() ? "" : (" > " + std::to_string(setup->max_steps) + ": the budget cannot cover it").c_str());
    }
    std::printf("\n");
  }
  if (setup)
    std::printf("setup %s: %g s at accuracy %g, steps %g to %g s, at most %d steps. An adaptive method takes at least "
                "the explicit limit's steps (more where accuracy binds).\n",
                setup->file.c_str(), setup->final_time - setup->initial_time, setup->accuracy, setup->min_step, setup->max_step,
                setup->max_steps);
  return exit_ok;
}

// ---------------------------------------------------------------- scenario

std::string scenario_name(const std::string& model) {
  std::string out;
  for (const char c : model) out += std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-' ? c : '_';
  return out.empty() ? "osim_model" : out;
}

int run_scenario(const OsimOptions& o) {
  const Posed p = load(o);
  const MultibodyModel frozen = model_or_fail(o, [&] { return frozen_model(p.osim.model, p.q); });
  if (frozen.contacts.empty()) throw io::InputError(o.file, "/OpenSimDocument/Model/ForceSet", "the model has no sphere contact to stand on");
  const Body& b = frozen.bodies.front();
  json inertia = json::array();
  for (int i = 0; i < 3; ++i) inertia.push_back({b.inertia(i, 0), b.inertia(i, 1), b.inertia(i, 2)});
  json planes = json::array(), contacts = json::array();
  for (const Contact& c : frozen.contacts) {
    json entry = {{"name", c.name}, {"type", "sphere_plane"}, {"body", scenario_name(b.name)}, {"at", values(c.at[0])}, {"radius", c.radius[0]},
                  {"law", std::string(to_string(c.law.kind))}, {"stiffness", c.law.effective_modulus}, {"combining", "none"},
                  {"dissipation", c.law.dissipation}};
    if (c.law.kind == ContactLawKind::smooth_hunt_crossley) {
      entry["cf"] = c.law.cf;
      entry["bd"] = c.law.bd;
      entry["bv"] = c.law.bv;
    }
    if (c.law.friction.acts()) {
      entry["static_friction"] = c.law.friction.static_coefficient;
      entry["dynamic_friction"] = c.law.friction.dynamic_coefficient;
      entry["viscous_friction"] = c.law.friction.viscous_coefficient;
      entry["transition_velocity"] = c.law.friction.transition_velocity;
    }
    const bool ground = c.plane_point.norm() == 0.0 && c.plane_normal.isApprox(Eigen::Vector3d::UnitY(), 1e-15);
    if (!ground) {
      const std::string plane = "plane_" + c.name;
      planes.push_back({{"name", plane}, {"point", values(c.plane_point)}, {"normal", values(c.plane_normal)}});
      entry["plane"] = plane;
    }
    contacts.push_back(entry);
  }
  json out = {{"name", scenario_name(p.osim.model.name)},
              {"description", "frozen from " + o.file + ": every joint locked at the pose given, one rigid body of " +
                                  significant(b.mass, 6) + " kg on " + std::to_string(contacts.size()) + " spheres; stiffness is E* (combining none)"},
              {"duration", o.duration},
              {"gravity", frozen.gravity},
              {"characteristic_length", frozen.characteristic_length},
              {"bodies", json::array({{{"name", scenario_name(b.name)}, {"joint", "free"}, {"mass", b.mass}, {"inertia", inertia},
                                       {"position", values(b.position)}, {"orientation", {1.0, 0.0, 0.0, 0.0}}}})},
              {"contacts", contacts}};
  if (!planes.empty()) out["planes"] = planes;
  io::write_text_file(o.output, out.dump(2) + "\n");
  std::fprintf(stderr, "%s: the frozen model of %s (%zu contacts)\n", o.output.c_str(), o.file.c_str(), contacts.size());
  return exit_ok;
}

}  // namespace

void add_osim_command(CLI::App& app, Runner& run) {
  CLI::App* osim = app.add_subcommand("osim", "OpenSim models: inspect, scale and write back their contact; contact modes; scenarios");
  osim->require_subcommand(1);
  const auto common = [](CLI::App* cmd, const std::shared_ptr<OsimOptions>& o) {
    cmd->add_option("model", o->file, "OpenSim model file (.osim)")->required();
    cmd->add_option("--coordinate", o->coordinates, "NAME=VALUE: pose the model with this coordinate value (repeatable)");
  };
  {
    auto o = std::make_shared<OsimOptions>();
    CLI::App* cmd = osim->add_subcommand("inspect", "bodies, contact forces, E*, load shares at the frozen equilibrium, warnings");
    common(cmd, o);
    cmd->add_flag("--json", o->json, "one JSON object on stdout");
    cmd->callback([o, &run] { run = [o] { return run_inspect(*o); }; });
  }
  {
    auto o = std::make_shared<OsimOptions>();
    CLI::App* cmd = osim->add_subcommand("scale", "scale the contact parameters to this model's size; write the file back");
    cmd->add_option("target,--to", o->file, "OpenSim model file to scale (the target)")->required();
    cmd->add_option("--from", o->from, "reference model (.osim)");
    cmd->add_option("--reference-contact", o->reference_contact, "the reference model's contact to scale from (default: its first)");
    cmd->add_option("--mass", o->mass, "reference mass, kg (without --from)");
    cmd->add_option("--spheres", o->spheres, "reference sphere count (without --from)");
    cmd->add_option("--radius", o->radius, "reference sphere radius, m (without --from)");
    cmd->add_option("--stiffness", o->stiffness, "reference stiffness as OpenSim types it, Pa (without --from)");
    cmd->add_option("--dissipation", o->dissipation, "reference dissipation, s/m (without --from)");
    cmd->add_flag("--scale-dissipation", o->scale_dissipation, "scale alpha as R^-1/2 (else the reference's alpha as it is)");
    cmd->add_flag("--scale-smoothing", o->scale_smoothing, "scale constant_contact_force, hertz_smoothing, hunt_crossley_smoothing too");
    cmd->add_option("-o,--output", o->output, "the scaled model file")->required();
    cmd->callback([o, &run] { run = [o] { return run_scale(*o); }; });
  }
  {
    auto o = std::make_shared<OsimOptions>();
    CLI::App* cmd = osim->add_subcommand("modes", "contact modes frozen and articulated, and the step limit of each integrator");
    common(cmd, o);
    cmd->add_flag("--json", o->json, "one JSON object on stdout");
    cmd->add_option("--setup", o->setup, "ForwardTool settings file: does its step budget cover the run?");
    cmd->add_option("--integrator", o->integrator, "integrator name or all (default): whose step limits to predict");
    cmd->callback([o, &run] { run = [o] { return run_modes(*o); }; });
  }
  {
    auto o = std::make_shared<OsimOptions>();
    CLI::App* cmd = osim->add_subcommand("scenario", "write the frozen model as a multi-contact scenario");
    common(cmd, o);
    cmd->add_option("-o,--output", o->output, "scenario JSON file")->required();
    cmd->add_option("--duration", o->duration, "the scenario's duration, s")->check(CLI::PositiveNumber);
    cmd->callback([o, &run] { run = [o] { return run_scenario(*o); }; });
  }
}

}  // namespace dropsim::app
