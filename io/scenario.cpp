// Scenario JSON -> validated Scenario (docs/interface.md, drop form).
#include "dropsim/io/scenario.hpp"
#include "dropsim/integrators/check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "dropsim/integrators/sundials.hpp"
#include "dropsim/io/contact_spec.hpp"
#include "dropsim/io/input_file.hpp"
#include "dropsim/io/json_reader.hpp"
#include "dropsim/io/scenario_multibody.hpp"
#include "dropsim/sim/scaling.hpp"

namespace dropsim::io {

using nlohmann::json;

namespace {

// Limits that catch absurd input before it costs hours or gigabytes.
constexpr long max_spheres = 100000;
constexpr double max_output_samples = 2e7;

struct DropGeometry {
  double mass = 0.0, radius = 0.0;
  long spheres = 0;
};

// `contact` of the drop form: a contact law, its parameters typed directly or
// scaled from a reference model as the paper does (docs/physics.md#size-scaling modulus, docs/physics.md#scaling-the-dissipation alpha).
void parse_drop_contact(ObjectReader& r, const DropGeometry& g, DropModel& model, Echo out) {
  model.law.radius = g.radius;
  refuse_friction(r);
  r.exclusive({"scaled_from", "stiffness"});
  r.exclusive({"scaled_from", "dissipation"});
  if (!r.has("scaled_from")) {
    if (r.has("scale_dissipation")) r.fail("scale_dissipation", "only applies together with \"scaled_from\"");
    parse_contact_law(r, model.law, out);
    r.reject_unknown_keys();
    return;
  }
  ObjectReader ref = r.object("scaled_from");
  const SphereSupport a{ref.number("mass", Bound::positive), static_cast<int>(ref.integer("spheres", 1, max_spheres)),
                        ref.number("radius", Bound::positive)};
  const double stiffness_a = ref.number("stiffness", Bound::positive);
  const std::optional<double> dissipation_a = ref.optional_number("dissipation", Bound::nonnegative);
  const SphereSupport b{g.mass, static_cast<int>(g.spheres), g.radius};
  const bool scale_alpha = r.optional_boolean("scale_dissipation").value_or(false);

  // Resolve to the typed form and parse that, so both paths share one parser.
  json typed = json::object();
  for (const auto& [k, v] : r.raw_object().items())
    if (k != "scaled_from" && k != "scale_dissipation" && k != "scale_smoothing") typed[k] = v;
  resolve_scaled_smoothing(ref, r, a.radius, b.radius, typed);
  ref.reject_unknown_keys();
  // Hertz-family laws scale E* (x^1.5 springs), linear laws their N/m (x^1 springs).
  const bool linear_spring = typed.contains("law") && typed["law"].is_string() &&
                             !hertz_family(value_in(contact_law_names, typed["law"].get<std::string>())
                                               .value_or(ContactLawKind::hunt_crossley));
  typed["stiffness"] = linear_spring ? scale_linear_stiffness(stiffness_a, a, b)
                                     : stiffness_a * scale_effective_modulus(1.0, a, b);
  if (dissipation_a)
    typed["dissipation"] = scale_alpha ? scale_dissipation(*dissipation_a, a.radius, b.radius) : *dissipation_a;
  ObjectReader resolved(typed, r.path(), r.file());
  parse_contact_law(resolved, model.law, out);
  resolved.reject_unknown_keys();
  r.mark_all_read();  // every key was checked through `resolved`
}

// stability_limit_detection (cvode_bdf) and butcher_table (arkode_erk, arkode_dirk).
void parse_sundials_options(std::optional<ObjectReader>& r, const integrators::MethodInfo& info,
                            integrators::SundialsOptions& options, Echo out) {
  if (!r) return;
  using integrators::Method;
  if (r->has("stability_limit_detection")) {
    if (info.method != Method::cvode_bdf)
      r->fail("stability_limit_detection", "applies to cvode_bdf only (CVODE's BDF stability-limit detection)");
    options.stability_limit_detection = *r->optional_boolean("stability_limit_detection");
    out["stability_limit_detection"] = options.stability_limit_detection;
  }
  if (r->has("butcher_table")) {
    if (info.method != Method::arkode_erk && info.method != Method::arkode_dirk)
      r->fail("butcher_table", "applies to arkode_erk and arkode_dirk only");
    const std::string table = *r->optional_string("butcher_table");
    const std::optional<integrators::ButcherTable> found = integrators::find_butcher_table(info.method, table);
    if (!found) {
      std::string names;
      for (const auto& t : integrators::butcher_tables(info.method)) names += (names.empty() ? "" : ", ") + t.name;
      r->fail("butcher_table", "unknown " + std::string(info.name) + " table \"" + table + "\"; expected one of " + names);
    }
    options.butcher_table = found->id;
    out["butcher_table"] = table;
  }
}

void parse_integrator(ObjectReader& top, Scenario& s, Echo out) {
  integrators::Settings& is = s.run.integrator;
  std::string name = "dopri5";
  std::optional<ObjectReader> r = top.optional_object("integrator");
  if (r) name = r->string("name");
  const auto* info = integrators::find_method(name);
  if (!info) {
    std::string names;
    for (const auto& m : integrators::methods) names += (names.empty() ? "" : ", ") + std::string(m.name);
    throw InputError(s.file, "/integrator/name", "unknown integrator \"" + name + "\"; expected one of " + names);
  }
  if (!integrators::available(*info)) throw InputError(s.file, "/integrator/name", integrators::unavailable_message(name));
  is.method = info->method;
  out["name"] = name;
  parse_sundials_options(r, *info, is.sundials, out);
  if (info->adaptive) {
    if (r && r->has("step")) r->fail("step", "applies to fixed-step integrators only; " + name + " is adaptive (use rtol)");
    is.rtol = r ? r->optional_number("rtol", Bound::fraction).value_or(1e-9) : 1e-9;
    if (is.rtol < 1e-14) top.fail("integrator/rtol", "must be >= 1e-14 (below that, rounding dominates)");
    if (info->method == integrators::Method::rk_merson && r && r->has("atol"))
      r->fail("atol", "does not apply to rk_merson, whose rtol is Simbody's accuracy (docs/integrators.md#rk-merson)");
    s.run.atol = r ? r->optional_number("atol", Bound::positive).value_or(0.0) : 0.0;
    out["rtol"] = is.rtol;
    if (s.run.atol > 0.0) out["atol"] = s.run.atol;
  } else {
    if (!r) top.fail("integrator", "fixed-step integrators need a step");
    for (const char* k : {"rtol", "atol"})
      if (r->has(k)) r->fail(k, "applies to adaptive integrators only; " + name + " takes a fixed step");
    is.step = r->number("step", Bound::positive);
    out["step"] = is.step;
  }
  if (r) r->reject_unknown_keys();
}

// The drop form's `drop` and `contact` (and its characteristic_length default).
void parse_drop_form(ObjectReader& top, double gravity, Scenario& s, Echo out) {
  DropModel& m = s.model.emplace<DropModel>();
  m.gravity = gravity;
  ObjectReader drop = top.object("drop");
  DropGeometry g;
  g.mass = drop.number("mass", Bound::positive);
  g.spheres = drop.integer("spheres", 1, max_spheres);
  g.radius = drop.number("radius", Bound::positive);
  drop.exclusive({"height", "height_over_radius"});
  if (drop.has("height")) m.initial_height = drop.number("height", Bound::any);
  else m.initial_height = drop.optional_number("height_over_radius", Bound::any).value_or(0.25) * g.radius;
  if (!std::isfinite(m.initial_height))
    drop.fail("height_over_radius", "times the radius gives a height beyond the range of a double");
  m.initial_velocity = drop.optional_number("velocity", Bound::any).value_or(0.0);
  drop.reject_unknown_keys();
  m.mass = g.mass;
  m.spheres = static_cast<int>(g.spheres);
  if (out) out["drop"] = json{{"mass", g.mass}, {"spheres", g.spheres}, {"radius", g.radius}, {"height", m.initial_height}};
  if (m.initial_velocity != 0.0) out["drop"]["velocity"] = m.initial_velocity;

  ObjectReader contact = top.object("contact");
  parse_drop_contact(contact, g, m, out["contact"]);

  m.characteristic_length = top.optional_number("characteristic_length", Bound::positive).value_or(g.radius);
  out["characteristic_length"] = m.characteristic_length;
}

}  // namespace

Scenario parse_scenario(const std::string& text, const std::string& file) {
  return parse_scenario_json(parse_json_document(text, file), file);
}

Scenario parse_scenario_json(const json& doc, const std::string& file, Resolved resolved) {
  Scenario s;
  s.file = file;
  ObjectReader top(doc, "", file);
  const Echo out = resolved == Resolved::keep ? Echo(s.resolved) : Echo();

  s.name = top.string("name");
  const bool file_name_safe = !s.name.empty() && std::all_of(s.name.begin(), s.name.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
  });
  if (!file_name_safe || s.name == "." || s.name == "..")
    top.fail("name", "must match [A-Za-z0-9_.-]+ (it becomes the output file name; got \"" + s.name + "\")");
  out["name"] = s.name;
  s.description = top.optional_string("description").value_or("");
  if (!s.description.empty()) out["description"] = s.description;

  // Bodies pressed together in free space are a valid multi-contact scenario;
  // the drop form needs g > 0 (its time scale tau = t sqrt(g / L) does).
  const bool multibody = top.has("bodies") || top.has("contacts");
  const double gravity =
      top.optional_number("gravity", multibody ? Bound::nonnegative : Bound::positive).value_or(standard_gravity);
  out["gravity"] = gravity;
  s.run.duration = top.number("duration", Bound::positive);
  out["duration"] = s.run.duration;

  if (multibody) parse_multibody(top, gravity, s.model.emplace<MultibodyModel>(), s.modes_at, out);
  else parse_drop_form(top, gravity, s, out);
  const double length = characteristic_length_of(s.model);

  parse_integrator(top, s, out["integrator"]);

  // Output grid: `interval` in seconds or `interval_tau` in dimensionless time,
  // so that runs of different size share one tau grid.
  s.run.output_interval = s.run.duration / 4000.0;
  if (auto o = top.optional_object("output")) {
    o->exclusive({"interval", "interval_tau"});
    if (o->has("interval")) s.run.output_interval = o->number("interval", Bound::positive);
    if (o->has("interval_tau")) {
      if (gravity == 0.0) o->fail("interval_tau", "needs gravity > 0 (tau = t sqrt(g / L)); give \"interval\" in seconds");
      s.run.output_interval = o->number("interval_tau", Bound::positive) * std::sqrt(length / gravity);
    }
    if (const auto compression = o->optional_string("compression")) {
      if (*compression != "none" && *compression != "gzip")
        o->fail("compression", "must be \"none\" or \"gzip\" (got \"" + *compression + "\")");
      s.compress_traces = *compression == "gzip";
    }
    o->reject_unknown_keys();
    if (s.run.output_interval > s.run.duration)
      o->fail(o->has("interval") ? "interval" : "interval_tau", "gives a sampling interval longer than the duration");
  }
  const double samples = s.run.duration / s.run.output_interval;
  if (samples > max_output_samples) {
    // %g, not a cast to an integer: 1e87 samples does not fit one (UBSan, found by fuzzing).
    char count[64];
    std::snprintf(count, sizeof count, "%.3g samples (limit %.3g)", samples, max_output_samples);
    top.fail("output", "would record " + std::string(count) + "; raise the interval");
  }
  out["output"]["interval"] = s.run.output_interval;
  out["output"]["compression"] = s.compress_traces ? "gzip" : "none";
  top.reject_unknown_keys();
  return s;
}

const Model& Scenario::checked_drop() const {
  DROPSIM_CHECK(std::holds_alternative<DropModel>(model), file + ": a multi-contact scenario has no drop-form model");
  return model;
}

Scenario load_scenario(const std::string& path) {
  return parse_scenario(read_input_file(path, "a scenario JSON file"), path);
}

void apply_override(Scenario& s, const IntegratorOverride& o) {
  json integrator = s.resolved["integrator"];
  if (!o.name.empty()) {
    integrator = json{{"name", o.name}};
    if (const auto* info = integrators::find_method(o.name); info && !info->adaptive && o.step == 0.0)
      throw InputError("--integrator", "", o.name + " is a fixed-step method: give --step");
  }
  if (o.step > 0.0) integrator["step"] = o.step;
  if (o.rtol > 0.0) integrator["rtol"] = o.rtol;
  if (o.atol > 0.0) integrator["atol"] = o.atol;
  json doc = s.resolved;
  doc["integrator"] = integrator;
  if (!o.name.empty() || o.step > 0.0 || o.rtol > 0.0 || o.atol > 0.0) {
    const std::string file = s.file;
    s = parse_scenario(doc.dump(), file + " (with command-line integrator options)");
    s.file = file;
  }
}

}  // namespace dropsim::io
