// `dropsim osim inspect MODEL.osim`: bodies, contact pairs, E*, the model's
// stances and load shares, warnings (docs/interface.md#opensim-models).
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "apps/json_values.hpp"
#include "apps/osim_common.hpp"
#include "dropsim/sim/articulated_stance.hpp"
#include "dropsim/sim/format.hpp"

namespace dropsim::app {

namespace {

using nlohmann::json;

struct InspectOptions {
  std::string file;
  std::vector<std::string> coordinates;
  bool json = false;
};

std::string body_name(const ArticulatedModel& m, int body) {
  return body == ground_body ? "ground" : m.bodies[static_cast<std::size_t>(body)].name;
}

json stance_json(const StanceContact& c, double radius) {
  return {{"default_indentation", c.default_indentation}, {"indentation", c.indentation},
          {"indentation_relative", c.indentation / radius}, {"force", c.force}, {"load_share", c.load_share}};
}

// Found: the solve's iterations and imbalance; else what did not converge, and no number.
json equilibrium_json(const Stance& s) {
  json out = {{"found", s.at_equilibrium}};
  if (s.at_equilibrium) {
    out["residual"] = s.equilibrium.residual;
    out["iterations"] = s.equilibrium.iterations;
  } else {
    out["why_not"] = s.no_equilibrium;
  }
  return out;
}

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
    const ContactPair& c = m.contacts[static_cast<std::size_t>(ci)];
    const ContactSphereGeometry& s = m.spheres[static_cast<std::size_t>(c.sphere)];
    json entry = {{"name", c.name},
                  {"sphere", s.name},
                  {"body", body_name(m, s.body)},
                  {"radius", c.law.radius},
                  {"effective_modulus", c.law.effective_modulus},
                  {"dissipation", c.law.dissipation},
                  {"friction",
                   {{"static", c.law.friction.static_coefficient},
                    {"dynamic", c.law.friction.dynamic_coefficient},
                    {"viscous", c.law.friction.viscous_coefficient},
                    {"transition_velocity", c.law.friction.transition_velocity}}}};
    if (c.between_spheres()) {
      const ContactSphereGeometry& other = m.spheres[static_cast<std::size_t>(c.other_sphere)];
      entry["other_sphere"] = {{"name", other.name}, {"body", body_name(m, other.body)}, {"radius", other.radius}};
    } else {
      entry["half_space"] = m.half_spaces[static_cast<std::size_t>(c.half_space)].name;
    }
    if (c.law.kind == ContactLawKind::smooth_hunt_crossley)
      entry["smoothing"] = {{"constant_contact_force", c.law.cf}, {"hertz_smoothing", c.law.bd}, {"hunt_crossley_smoothing", c.law.bv}};
    for (const auto& fc : frozen.contacts)
      if (fc.contact == ci) entry["frozen"] = stance_json(fc, c.law.radius);
    for (const auto& vc : frozen.vertical.contacts)
      if (vc.contact == ci) entry["vertical"] = stance_json(vc, c.law.radius);
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
              {"equilibrium", equilibrium_json(frozen)},
              {"vertical_equilibrium", equilibrium_json(frozen.vertical)},
              {"warnings", frozen.warnings},
              {"model_warnings", p.osim.warnings},
              {"notes", p.osim.notes},
              {"skipped", p.osim.skipped}};
  if (frozen.support) out["support"] = {{"loaded_contacts", frozen.support->loaded}, {"mass_centre_outside", frozen.support->outside}};
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
  std::printf("\ncontact (E* = typed stiffness combined by Sherman's rule; load share and x/R at the vertical\n"
              "equilibrium, every coordinate locked but the vertical translation, and frozen whole)\n");
  std::printf("  %-22s %-10s %-10s %-9s %8s %12s %12s %7s %13s %9s %9s %9s %9s\n", "contact", "sphere", "on", "body", "R_m",
              "stiffness", "E*_Pa", "alpha", "mu_s/mu_d/mu_v", "vert_%", "vert_x/R", "frozen_%", "frozen_x/R");
  const auto stance = [](const Stance& st, int ci, double radius) -> std::pair<std::string, std::string> {
    for (const auto& sc : st.contacts)
      if (sc.contact == ci) return {significant(100.0 * sc.load_share, 4), significant(sc.indentation / radius, 4)};
    return {"-", "-"};  // no equilibrium found, or the pair is not in this rigid model
  };
  for (const auto& f : p.osim.forces)
    for (const int ci : f.contacts) {
      const ContactPair& c = m.contacts[static_cast<std::size_t>(ci)];
      const ContactSphereGeometry& s = m.spheres[static_cast<std::size_t>(c.sphere)];
      const auto* typed = f.sets.front().find("stiffness");
      const auto [vertical_load, vertical_x] = stance(frozen.vertical, ci, c.law.radius);
      const auto [frozen_load, frozen_x] = stance(frozen, ci, c.law.radius);
      const std::string on = c.between_spheres() ? m.spheres[static_cast<std::size_t>(c.other_sphere)].name
                                                 : m.half_spaces[static_cast<std::size_t>(c.half_space)].name;
      const std::string mu = significant(c.law.friction.static_coefficient, 3) + "/" + significant(c.law.friction.dynamic_coefficient, 3) +
                             "/" + significant(c.law.friction.viscous_coefficient, 3);
      std::printf("  %-22s %-10s %-10s %-9s %8s %12s %12s %7s %13s %9s %9s %9s %9s\n", c.name.c_str(), s.name.c_str(), on.c_str(),
                  body_name(m, s.body).c_str(), significant(c.law.radius, 4).c_str(), typed ? significant(typed->value, 6).c_str() : "-",
                  significant(c.law.effective_modulus, 6).c_str(), significant(c.law.dissipation, 4).c_str(), mu.c_str(),
                  vertical_load.c_str(), vertical_x.c_str(), frozen_load.c_str(), frozen_x.c_str());
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
  const auto report = [](const char* what, const Stance& st) {
    if (st.at_equilibrium)
      std::printf("%s: %d iterations, force imbalance %.2g of the weight\n", what, st.equilibrium.iterations,
                  st.equilibrium.residual);
    else
      std::printf("%s: not found (%s)\n", what, st.no_equilibrium.c_str());
  };
  std::printf("\n");
  report("vertical equilibrium (the scaling paper's drop: vertical translation only)", frozen.vertical);
  report("frozen equilibrium (every joint locked, the model free)", frozen);
  if (!frozen.warnings.empty()) std::printf("\nwarnings:\n");
  for (const auto& w : frozen.warnings) std::printf("  %s\n", w.c_str());
  for (const auto& w : p.osim.warnings) std::printf("warning: %s\n", w.c_str());
  for (const auto& n : p.osim.notes) std::printf("note: %s\n", n.c_str());
  if (!p.osim.skipped.empty()) std::printf("not modelled (skipped): %s\n", p.osim.skipped.c_str());
}

int run_inspect(const InspectOptions& o) {
  const Posed p = load_posed(o.file, o.coordinates);
  const FrozenAnalysis frozen = model_or_fail(o.file, [&] { return analyse_frozen(p.osim.model, p.q); });
  if (o.json) std::cout << inspect_json(p, frozen).dump(2) << "\n";
  else print_inspect(p, frozen);
  return exit_ok;
}

}  // namespace

void add_osim_inspect(CLI::App* osim, Runner& run) {
  auto o = std::make_shared<InspectOptions>();
  CLI::App* cmd = osim->add_subcommand("inspect", "bodies, contact pairs, E*, load shares at the vertical and the frozen equilibrium, warnings");
  add_model_options(cmd, o->file, o->coordinates);
  cmd->add_flag("--json", o->json, "one JSON object on stdout");
  cmd->callback([o, &run] { run = [o] { return run_inspect(*o); }; });
}

}  // namespace dropsim::app
