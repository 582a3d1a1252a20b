// `dropsim scale`: carry contact parameters from a reference model to a target
// (docs/physics.md#smoothed-hunt-crossley, #size-scaling), or design them for a load; text, --json, --osim, --curve.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "apps/commands.hpp"
#include "dropsim/io/osim_writer.hpp"
#include "dropsim/io/force_curve_hdf5.hpp"
#include "dropsim/io/scenario.hpp"
#include "dropsim/sim/contact_design.hpp"

namespace dropsim::app {

namespace {

struct ScaleOptions {
  std::string from_file;
  std::optional<double> from_mass, from_radius, from_stiffness, from_dissipation, from_cf, from_bd, from_bv;
  std::optional<long> from_spheres;
  std::string combining;
  std::optional<double> to_mass, to_radius, gamma, xh, gravity;
  std::optional<long> to_spheres;
  bool scale_dissipation = false, json = false, osim = false;
  std::string curve_file;
  double curve_min = -0.1, curve_max = 0.5;
  int curve_points = 601;
};

// Bad flags: exit 2 with a sentence naming the flag and the reason.
[[noreturn]] void reject(const std::string& flag, const std::string& why) {
  throw io::InputError("dropsim scale", flag, why);
}

double positive(const std::optional<double>& v, const char* flag, const char* what) {
  if (!v) reject(flag, std::string("is required: ") + what);
  if (!(*v > 0.0) || !std::isfinite(*v))
    reject(flag, std::string("must be a finite number > 0: ") + what + " (got " + std::to_string(*v) + ")");
  return *v;
}

int sphere_count(const std::optional<long>& v, const char* flag) {
  if (!v) reject(flag, "is required: the number of spheres in contact together");
  if (*v < 1 || *v > 100000) reject(flag, "must be between 1 and 100000 spheres (got " + std::to_string(*v) + ")");
  return static_cast<int>(*v);
}

// The reference's optional parameters (dissipation, smoothing, combining rule).
void apply_optional(const ScaleOptions& o, ContactParameters& p) {
  if (o.from_dissipation) {
    if (!(*o.from_dissipation >= 0.0) || !std::isfinite(*o.from_dissipation))
      reject("--from-dissipation", "must be >= 0 s/m (got " + std::to_string(*o.from_dissipation) + ")");
    p.dissipation = *o.from_dissipation;
  }
  if (o.from_cf) p.cf = positive(o.from_cf, "--from-cf", "OpenSim's constant_contact_force (m^2)");
  if (o.from_bd) p.bd = positive(o.from_bd, "--from-bd", "OpenSim's hertz_smoothing (1/m)");
  if (o.from_bv) p.bv = positive(o.from_bv, "--from-bv", "OpenSim's hunt_crossley_smoothing (s/m)");
  if (!o.combining.empty()) {
    const auto rule = combining_rule_from_string(o.combining);
    if (!rule) reject("--combining", "must be sherman, johnson or none (got \"" + o.combining + "\")");
    p.combining = *rule;
  }
}

// The reference: from a drop-form scenario (--from) or from flags; flags override the file.
ContactParameters reference(const ScaleOptions& o, double& gravity) {
  ContactParameters p;
  if (!o.from_file.empty()) {
    const io::Scenario s = io::load_scenario(o.from_file);
    if (s.multibody())
      throw io::InputError(o.from_file, "/bodies", "dropsim scale --from needs a drop-form scenario (\"drop\" and "
                                                    "\"contact\"), not the multi-contact form");
    const nlohmann::json& c = s.resolved["contact"];
    if (!c.contains("combining"))
      throw io::InputError(o.from_file, "/contact/law", "dropsim scale needs a Hertz-family law (got " +
                                                            c["law"].get<std::string>() + ")");
    const DropModel& drop = s.drop();
    p.support = {drop.mass, drop.spheres, drop.law.radius};
    p.stiffness = c["stiffness"].get<double>();
    p.combining = *combining_rule_from_string(c["combining"].get<std::string>());
    p.dissipation = drop.law.dissipation;
    p.cf = drop.law.cf;
    p.bd = drop.law.bd;
    p.bv = drop.law.bv;
    gravity = drop.gravity;
  }
  const bool file = !o.from_file.empty();
  if (!file || o.from_mass) p.support.mass = positive(o.from_mass, "--from-mass", "the reference model's mass (kg)");
  if (!file || o.from_spheres) p.support.spheres = sphere_count(o.from_spheres, "--from-spheres");
  if (!file || o.from_radius)
    p.support.radius = positive(o.from_radius, "--from-radius", "the reference sphere radius (m)");
  if (!file || o.from_stiffness)
    p.stiffness = positive(o.from_stiffness, "--from-stiffness", "the surface modulus as typed in OpenSim (Pa)");
  apply_optional(o, p);
  return p;
}

nlohmann::json to_json(const ContactDescription& d) {
  const ContactParameters& p = d.parameters;
  return {{"mass", p.support.mass},
          {"spheres", p.support.spheres},
          {"radius", p.support.radius},
          {"gravity", d.gravity},
          {"combining", std::string(to_string(p.combining))},
          {"stiffness", p.stiffness},
          {"effective_modulus", d.effective_modulus},
          {"dissipation", p.dissipation},
          {"indentation_relative", d.indentation_relative},
          {"indentation", d.indentation},
          {"stiffness_per_sphere", d.stiffness_per_sphere},
          {"stiffness_total", d.stiffness_total},
          {"patch_radius", d.patch_radius},
          {"patch_area", d.patch_area},
          {"contact_stress", d.contact_stress},
          {"impact_speed", d.impact_speed},
          {"restitution_estimate", d.restitution_estimate},
          {"restitution_simulated", d.restitution_simulated},
          {"cf", p.cf},
          {"bd", p.bd},
          {"bv", p.bv},
          {"cf_relative", d.cf_relative},
          {"bd_width", d.bd_width},
          {"bv_hat", d.bv_hat}};
}

void print_text(const ContactDescription& d, const nlohmann::json& extra) {
  const nlohmann::json j = to_json(d);
  for (const auto& [k, v] : j.items()) std::cout << k << " = " << v.dump() << "\n";
  for (const auto& [k, v] : extra.items())
    if (!v.is_object()) std::cout << k << " = " << v.dump() << "\n";
}

int run_scale(const ScaleOptions& o) {
  if (o.json && o.osim) reject("--osim", "cannot be combined with --json: each prints the whole of stdout");
  double gravity = standard_gravity;
  const bool design = o.gamma || o.xh;
  const bool have_reference = !o.from_file.empty() || o.from_mass || o.from_spheres || o.from_radius ||
                              o.from_stiffness;
  ContactParameters ref;
  if (!design || have_reference) ref = reference(o, gravity);
  if (o.gravity) gravity = positive(o.gravity, "--gravity", "gravitational acceleration (m/s^2)");

  SphereSupport target = ref.support;
  if (design || o.to_mass) target.mass = positive(o.to_mass, "--to-mass", "the target model's mass (kg)");
  if (design || o.to_spheres) target.spheres = sphere_count(o.to_spheres, "--to-spheres");
  if (design || o.to_radius) target.radius = positive(o.to_radius, "--to-radius", "the target sphere radius (m)");

  ContactParameters result;
  nlohmann::json extra = nlohmann::json::object();
  if (design) {
    const double gamma = positive(o.gamma, "--gamma", "the design load in body weights");
    if (!o.xh) reject("--xh", "is required with --gamma: the relative indentation at that load");
    if (!(*o.xh > 0.0 && *o.xh < 1.0))
      reject("--xh", "must lie strictly between 0 and 1: it is indentation over radius, and Hertz contact needs "
                     "it small (got " + std::to_string(*o.xh) + ")");
    if (!have_reference) apply_optional(o, ref);
    result = design_contact(ref, target, gravity, gamma, *o.xh);
    extra["mode"] = "design";
    extra["gamma"] = gamma;
    extra["indentation_relative_at_load"] = *o.xh;
  } else {
    result = scale_contact(ref, target, o.scale_dissipation);
    extra["mode"] = "scale";
    extra["dissipation_scaled"] = o.scale_dissipation;
    // OpenSim's reference smoothing left unscaled, seen at the target radius docs/physics.md#scaling-the-smoothing-parameters.
    extra["cf_relative_unscaled"] = smoothing_cf_relative(ref.cf, target.radius);
    extra["reference"] = to_json(describe_contact(ref, gravity));
  }
  const ContactDescription d = describe_contact(result, gravity);

  if (!o.curve_file.empty()) {
    if (!(o.curve_max > o.curve_min)) reject("--curve-max", "must exceed --curve-min");
    if (o.curve_points < 2) reject("--curve-points", "must be >= 2");
    ContactParameters unscaled = result;
    unscaled.cf = ref.cf;
    unscaled.bd = ref.bd;
    if (design) unscaled.cf = opensim_default_cf, unscaled.bd = opensim_default_bd;
    io::write_force_curves_hdf5(o.curve_file, force_curves(unscaled, result, o.curve_min, o.curve_max, o.curve_points));
  }
  if (o.json) {
    nlohmann::json j = to_json(d);
    j.update(extra);
    std::cout << j.dump(2) << "\n";
  } else if (o.osim) {
    std::cout << io::osim_contact_xml(d);
  } else {
    print_text(d, extra);
  }
  return exit_ok;
}

}  // namespace

void add_scale_command(CLI::App& app, Runner& run) {
  auto o = std::make_shared<ScaleOptions>();
  CLI::App* cmd = app.add_subcommand("scale", "scale contact parameters to another model (or design them), "
                                              "print them as text, JSON or OpenSim XML");
  cmd->add_option("--from", o->from_file, "reference: a drop-form scenario file")->check(CLI::ExistingFile);
  cmd->add_option("--from-mass", o->from_mass, "reference mass (kg)");
  cmd->add_option("--from-spheres", o->from_spheres, "reference sphere count in contact");
  cmd->add_option("--from-radius", o->from_radius, "reference sphere radius (m)");
  cmd->add_option("--from-stiffness", o->from_stiffness, "reference surface modulus as typed in OpenSim (Pa)");
  cmd->add_option("--from-dissipation", o->from_dissipation, "reference Hunt-Crossley dissipation (s/m)");
  cmd->add_option("--from-cf", o->from_cf, "reference constant_contact_force (m^2, default 1e-5)");
  cmd->add_option("--from-bd", o->from_bd, "reference hertz_smoothing (1/m, default 300)");
  cmd->add_option("--from-bv", o->from_bv, "reference hunt_crossley_smoothing (s/m, default 50)");
  cmd->add_option("--combining", o->combining, "sherman (default, OpenSim), johnson or none");
  cmd->add_option("--to-mass", o->to_mass, "target mass (kg)");
  cmd->add_option("--to-spheres", o->to_spheres, "target sphere count in contact");
  cmd->add_option("--to-radius", o->to_radius, "target sphere radius (m)");
  cmd->add_flag("--scale-dissipation", o->scale_dissipation, "scale alpha by sqrt(R_a/R_b) docs/physics.md#scaling-the-dissipation (default: keep)");
  cmd->add_option("--gamma", o->gamma, "design mode docs/physics.md#design-for-a-load: peak load in body weights (with --xh)");
  cmd->add_option("--xh", o->xh, "design mode docs/physics.md#design-for-a-load: relative indentation at that load");
  cmd->add_option("--gravity", o->gravity, "m/s^2 (default 9.80665 or the scenario's)");
  cmd->add_flag("--json", o->json, "print one JSON object");
  cmd->add_flag("--osim", o->osim, "print OpenSim XML (ContactGeometrySet and ForceSet)");
  cmd->add_option("--curve", o->curve_file, "also write force-indentation curves (Fig. C.4) to this HDF5 file");
  cmd->add_option("--curve-min", o->curve_min, "lowest relative indentation of --curve (default -0.1)");
  cmd->add_option("--curve-max", o->curve_max, "highest relative indentation of --curve (default 0.5)");
  cmd->add_option("--curve-points", o->curve_points, "samples of --curve (default 601)");
  cmd->callback([o, &run] { run = [o] { return run_scale(*o); }; });
}

}  // namespace dropsim::app
