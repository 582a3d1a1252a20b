// The scenario interface has three descriptions that must agree: the parser
// (io/scenario.cpp, io/scenario_multibody.cpp, io/contact_spec.cpp), the JSON
// Schema (scenarios/schema/scenario.schema.json) and docs/interface.md. This
// test parses every scenario in the repository plus scenarios written here to
// use every optional key, records the keys the parser consumes (io::KeyLog),
// and compares them, as JSON paths ("/bodies/[]/inertia"), with the keys the
// schema declares and the keys docs/interface.md documents.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "dropsim/integrators/sundials.hpp"
#include "io/json_reader.hpp"
#include "io/scenario.hpp"

#ifndef DROPSIM_SOURCE_DIR
#error "DROPSIM_SOURCE_DIR must name the repository root"
#endif

namespace dropsim::io {
namespace {

using nlohmann::json;
using Keys = std::set<std::string>;

std::string source_path(const std::string& relative) { return std::string(DROPSIM_SOURCE_DIR) + "/" + relative; }

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Scenarios that between them give every key the parser reads, in every
// object it reads it in (the repository's scenarios leave some out).
const char* const maximal_scenarios[] = {
    // Drop form, typed Hunt–Crossley, every top-level and drop key.
    R"({"name": "all_top", "description": "d", "gravity": 9.81, "duration": 0.1, "characteristic_length": 0.03,
        "integrator": {"name": "dopri5", "rtol": 1e-8, "atol": 1e-12},
        "output": {"interval": 1e-3, "compression": "gzip"},
        "drop": {"mass": 1, "spheres": 2, "radius": 0.01, "height": 0.002, "velocity": -0.1},
        "contact": {"law": "hunt_crossley", "stiffness": 1e6, "combining": "johnson", "dissipation": 1}})",
    // Fixed step, interval_tau, height_over_radius, Hunt–Crossley from a restitution.
    R"({"name": "fixed", "duration": 0.1, "integrator": {"name": "rk4", "step": 1e-4},
        "output": {"interval_tau": 0.1},
        "drop": {"mass": 1, "spheres": 1, "radius": 0.01, "height_over_radius": 0.25},
        "contact": {"law": "hunt_crossley", "stiffness": 1e6, "restitution": 0.5, "impact_speed": 0.2}})",
    // Smoothed law typed, with its smoothing.
    R"({"name": "smooth", "duration": 0.1,
        "drop": {"mass": 1, "spheres": 1, "radius": 0.01},
        "contact": {"law": "smooth_hunt_crossley", "stiffness": 1e6, "dissipation": 1, "cf": 1e-6, "bd": 500, "bv": 40}})",
    // Scaled from a reference, smoothing scaled from the reference's.
    R"({"name": "scaled", "duration": 0.1,
        "drop": {"mass": 0.02, "spheres": 4, "radius": 0.002},
        "contact": {"law": "smooth_hunt_crossley", "combining": "sherman",
                    "scaled_from": {"mass": 62, "spheres": 6, "radius": 0.032, "stiffness": 1e6, "dissipation": 2,
                                    "cf": 1e-5, "bd": 300, "bv": 50},
                    "scale_dissipation": true, "scale_smoothing": true}})",
    // Scaled from a reference, the target's own smoothing typed on the contact.
    R"({"name": "scaled_own", "duration": 0.1,
        "drop": {"mass": 0.02, "spheres": 4, "radius": 0.002},
        "contact": {"law": "smooth_hunt_crossley", "cf": 1e-8, "bd": 4000, "bv": 100,
                    "scaled_from": {"mass": 62, "spheres": 6, "radius": 0.032, "stiffness": 1e6, "dissipation": 2},
                    "scale_dissipation": false}})",
    // Linear damped spring on the drop.
    R"({"name": "linear", "duration": 0.1, "drop": {"mass": 1, "spheres": 1, "radius": 0.01},
        "contact": {"law": "linear_damped", "stiffness": 1e5, "damping": 10}})",
    // Multi-contact form: every joint, both contact types, every law family.
    R"({"name": "multi", "duration": 0.1, "characteristic_length": 0.1, "modes_at": "initial",
        "planes": [{"name": "slope", "point": [0, 0, 0], "normal": [0.1, 1, 0]}],
        "bodies": [
          {"name": "v", "joint": "vertical", "mass": 1, "position": [0, 0.2], "velocity": [0, -0.1]},
          {"name": "p", "joint": "planar", "mass": 1, "inertia": 0.01, "position": [1, 0.2], "angle": 0.1,
           "velocity": [0, 0], "angular_velocity": 0.5},
          {"name": "f", "joint": "free", "mass": 1, "inertia": [[0.01, 0, 0], [0, 0.01, 0], [0, 0, 0.01]],
           "position": [2, 0.2, 0], "orientation": [1, 0, 0, 0], "velocity": [0, 0, 0],
           "angular_velocity": [0, 0.1, 0]}],
        "contacts": [
          {"name": "c0", "type": "sphere_plane", "body": "v", "at": [0, 0], "radius": 0.01, "count": 2, "plane": "slope",
           "law": "hunt_crossley", "stiffness": 1e6, "combining": "sherman", "dissipation": 1},
          {"type": "sphere_plane", "body": "p", "at": [0.1, 0], "radius": 0.0, "law": "linear_damped",
           "stiffness": 1e5, "damping": 5},
          {"type": "sphere_plane", "body": "f", "at": [0, 0, 0], "radius": 0.01, "law": "smooth_hunt_crossley",
           "stiffness": 1e6, "dissipation": 1, "cf": 1e-6, "bd": 400, "bv": 40, "static_friction": 0.8,
           "dynamic_friction": 0.6, "viscous_friction": 0.1, "transition_velocity": 0.2},
          {"type": "sphere_sphere", "bodies": ["v", "p"], "at": [[0, 0], [0, 0]], "radius": [0.01, 0.02],
           "law": "gonthier", "stiffness": 1e6, "restitution": 0.5, "impact_speed": 1}]})",
};

// The SUNDIALS methods' options (parsed where this build has SUNDIALS).
const char* const sundials_scenarios[] = {
    R"({"name": "cvode", "duration": 0.1, "integrator": {"name": "cvode_bdf", "rtol": 1e-6, "stability_limit_detection": true},
        "drop": {"mass": 1, "spheres": 1, "radius": 0.01}, "contact": {"law": "hertz", "stiffness": 1e6}})",
    R"({"name": "arkode", "duration": 0.1,
        "integrator": {"name": "arkode_erk", "rtol": 1e-6, "butcher_table": "ARKODE_DORMAND_PRINCE_7_4_5"},
        "drop": {"mass": 1, "spheres": 1, "radius": 0.01}, "contact": {"law": "hertz", "stiffness": 1e6}})",
};

// Every key the parser consumes in a successful parse, and every key it asks about.
struct ParserKeys {
  Keys read, asked;
  std::vector<std::string> failures;
};

void parse_logged(const std::string& text, const std::string& file, ParserKeys& out) {
  KeyLog log;
  KeyLog* previous = set_key_log(&log);
  try {
    (void)parse_scenario(text, file);
    out.read.insert(log.read.begin(), log.read.end());
    out.asked.insert(log.asked.begin(), log.asked.end());
  } catch (const std::exception& e) {
    out.failures.push_back(e.what());
  }
  set_key_log(previous);
}

const ParserKeys& parser_keys() {
  static const ParserKeys keys = [] {
    ParserKeys k;
    namespace fs = std::filesystem;
    for (const auto& e : fs::recursive_directory_iterator(source_path("scenarios"))) {
      const fs::path& p = e.path();
      if (p.extension() != ".json" || p.parent_path().filename() == "schema") continue;
      parse_logged(read_text(p.string()), p.string(), k);
    }
    int i = 0;
    for (const char* text : maximal_scenarios) parse_logged(text, "maximal_scenarios[" + std::to_string(i++) + "]", k);
    // The SUNDIALS methods' own keys: a build without SUNDIALS refuses these
    // methods before it reads their options, so there the keys count as read.
    if (integrators::sundials_available()) {
      i = 0;
      for (const char* text : sundials_scenarios) parse_logged(text, "sundials_scenarios[" + std::to_string(i++) + "]", k);
    } else {
      for (const char* key : {"/integrator/stability_limit_detection", "/integrator/butcher_table"}) k.read.insert(key);
    }
    return k;
  }();
  return keys;
}

// The schema's declared keys, walked through $ref, allOf/anyOf/oneOf, then/else
// and items ("if" and "not" only constrain). A property whose schema is `false`
// is a refusal, not a key. propertyNames enums are kept to check them too.
struct SchemaKeys {
  Keys keys;
  std::map<std::string, Keys> property_names;  // object path -> its propertyNames enum
};

void walk_schema(const json& root, const json& schema, const std::string& path, SchemaKeys& out, int depth = 0) {
  ASSERT_LT(depth, 64) << "schema nesting too deep at " << path;
  if (!schema.is_object()) return;
  if (schema.contains("$ref")) {
    const std::string ref = schema["$ref"].get<std::string>();
    const std::string prefix = "#/$defs/";
    ASSERT_EQ(ref.rfind(prefix, 0), 0u) << "unsupported $ref " << ref;
    walk_schema(root, root["$defs"][ref.substr(prefix.size())], path, out, depth + 1);
  }
  for (const char* combinator : {"allOf", "anyOf", "oneOf"})
    if (schema.contains(combinator))
      for (const auto& sub : schema[combinator]) walk_schema(root, sub, path, out, depth + 1);
  for (const char* branch : {"then", "else"})
    if (schema.contains(branch)) walk_schema(root, schema[branch], path, out, depth + 1);
  if (schema.contains("properties"))
    for (const auto& [key, sub] : schema["properties"].items()) {
      if (sub.is_boolean() && !sub.get<bool>()) continue;
      out.keys.insert(path + "/" + key);
      walk_schema(root, sub, path + "/" + key, out, depth + 1);
    }
  if (schema.contains("items")) walk_schema(root, schema["items"], path + "/[]", out, depth + 1);
  if (schema.contains("propertyNames") && schema["propertyNames"].contains("enum"))
    for (const auto& name : schema["propertyNames"]["enum"]) out.property_names[path].insert(name.get<std::string>());
}

const SchemaKeys& schema_keys() {
  static const SchemaKeys keys = [] {
    SchemaKeys k;
    const json schema = json::parse(read_text(source_path("scenarios/schema/scenario.schema.json")));
    walk_schema(schema, schema, "", k);
    return k;
  }();
  return keys;
}

// docs/interface.md documents each scenario key as one table row between the
// markers <!-- scenario-keys --> and <!-- /scenario-keys -->, the first cell
// being the key's JSON path in backticks: | `/drop/mass` | ... |
Keys documented_keys() {
  std::istringstream doc(read_text(source_path("docs/interface.md")));
  Keys keys;
  bool inside = false;
  for (std::string line; std::getline(doc, line);) {
    if (line.find("<!-- scenario-keys -->") != std::string::npos) inside = true;
    if (line.find("<!-- /scenario-keys -->") != std::string::npos) inside = false;
    if (!inside || line.rfind("| `/", 0) != 0) continue;
    const auto end = line.find('`', 3);
    if (end != std::string::npos) keys.insert(line.substr(3, end - 3));
  }
  return keys;
}

std::string listed(const Keys& keys) {
  std::string s;
  for (const auto& k : keys) s += "\n  " + k;
  return s;
}

Keys minus(const Keys& a, const Keys& b) {
  Keys out;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::inserter(out, out.end()));
  return out;
}

TEST(InterfaceDoc, EveryScenarioInTheRepositoryAndEveryMaximalOneParses) {
  const ParserKeys& k = parser_keys();
  EXPECT_TRUE(k.failures.empty()) << "these scenarios failed to parse:" << listed(Keys(k.failures.begin(), k.failures.end()));
  EXPECT_GT(k.read.size(), 40u);
}

// A key the parser asks about but never accepts in any scenario here is either
// missing from maximal_scenarios (add one) or refused everywhere (then it is
// not part of the interface and the parser should not ask about it).
TEST(InterfaceDoc, TheScenariosHereUseEveryKeyTheParserAsksAbout) {
  const ParserKeys& k = parser_keys();
  EXPECT_TRUE(minus(k.asked, k.read).empty())
      << "asked about but never accepted; extend maximal_scenarios:" << listed(minus(k.asked, k.read));
}

TEST(InterfaceDoc, SchemaDeclaresExactlyTheKeysTheParserAccepts) {
  const Keys& parser = parser_keys().read;
  const SchemaKeys& schema = schema_keys();
  EXPECT_TRUE(minus(parser, schema.keys).empty())
      << "accepted by the parser, missing from scenarios/schema/scenario.schema.json:" << listed(minus(parser, schema.keys));
  EXPECT_TRUE(minus(schema.keys, parser).empty())
      << "declared by the schema, never accepted by the parser:" << listed(minus(schema.keys, parser));
  for (const auto& [path, names] : schema.property_names) {
    Keys at_path;
    for (const auto& k : schema.keys)
      if (k.rfind(path + "/", 0) == 0 && k.find('/', path.size() + 1) == std::string::npos)
        at_path.insert(k.substr(path.size() + 1));
    EXPECT_EQ(names, at_path) << "propertyNames of " << path << " differ from its properties";
  }
}

TEST(InterfaceDoc, InterfaceMdDocumentsExactlyTheKeysTheParserAccepts) {
  const Keys& parser = parser_keys().read;
  const Keys doc = documented_keys();
  EXPECT_TRUE(minus(parser, doc).empty())
      << "accepted by the parser, not documented in docs/interface.md:" << listed(minus(parser, doc));
  EXPECT_TRUE(minus(doc, parser).empty())
      << "documented in docs/interface.md, never accepted by the parser:" << listed(minus(doc, parser));
}

}  // namespace
}  // namespace dropsim::io
