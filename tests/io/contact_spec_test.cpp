// Contact-law parsing of the new laws and keys, in both the typed and the scaled_from form.
#include "dropsim/io/contact_spec.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "dropsim/io/scenario.hpp"

namespace dropsim::io {
namespace {

Scenario parse_with_contact(const std::string& contact, const std::string& drop = R"({"mass": 0.02, "spheres": 4,
                                  "radius": 0.002})") {
  return parse_scenario(R"({"name": "t", "duration": 0.1, "drop": )" + drop + R"(, "contact": )" + contact + "}",
                        "t.json");
}

// The JSON path of the error, or "" when it parsed.
std::string error_path(const std::string& contact) {
  try {
    parse_with_contact(contact);
  } catch (const InputError& e) {
    return e.path();
  }
  return "";
}

TEST(ContactSpec, SmoothLawTakesOpenSimDefaults) {
  const Scenario s = parse_with_contact(R"({"law": "smooth_hunt_crossley", "stiffness": 1e6, "dissipation": 2})");
  EXPECT_EQ(s.drop().law.kind, ContactLawKind::smooth_hunt_crossley);
  EXPECT_EQ(s.drop().law.cf, 1e-5);
  EXPECT_EQ(s.drop().law.bd, 300.0);
  EXPECT_EQ(s.drop().law.bv, 50.0);
  EXPECT_NEAR(s.drop().law.effective_modulus, 1e6 / std::pow(2.0, 1.5), 1e-6);
  EXPECT_EQ(s.resolved["contact"]["cf"], 1e-5);
}

// A linear spring scaled from a reference keeps its relative indentation at rest:
// n k x = M g, so x / R = M g / (n k R) must come out equal for both models.
TEST(ContactSpec, ScaledLinearSpringKeepsTheRelativeIndentation) {
  for (const char* law : {"linear", "linear_damped"}) {
    const std::string damping = std::string(law) == "linear_damped" ? R"(, "damping": 1.0)" : "";
    const Scenario s = parse_with_contact(R"({"law": ")" + std::string(law) + R"(", "scaled_from": {"mass": 62,
        "spheres": 6, "radius": 0.032, "stiffness": 1e5})" + damping + "}");
    const double g = s.drop().gravity;
    const double reference = 62.0 * g / (6 * 1e5 * 0.032);
    const double scaled = 0.02 * g / (4 * s.drop().law.stiffness * 0.002);
    EXPECT_NEAR(scaled / reference, 1.0, 1e-12) << law;
  }
}

TEST(ContactSpec, HuntCrossleyFromRestitution) {
  const Scenario s =
      parse_with_contact(R"({"law": "hunt_crossley", "stiffness": 1e6, "restitution": 0.8, "impact_speed": 0.5})");
  EXPECT_NEAR(s.drop().law.dissipation, (1 - 0.8) / 0.5, 1e-15);  // docs/physics.md#restitution inverted
}

TEST(ContactSpec, ResolvedScenarioParsesAgainToTheSameLaw) {
  for (const char* contact :
       {R"({"law": "gonthier", "stiffness": 1e6, "restitution": 0.4, "impact_speed": 0.3})",
        R"({"law": "exact_restitution", "stiffness": 1e6, "restitution": 0.4, "impact_speed": 0.3})",
        R"({"law": "smooth_hunt_crossley", "scaled_from": {"mass": 62, "spheres": 6, "radius": 0.032,
            "stiffness": 1e6, "dissipation": 2}, "scale_dissipation": true, "scale_smoothing": true})"}) {
    const Scenario a = parse_with_contact(contact);
    const Scenario b = parse_scenario(a.resolved.dump(), "resolved.json");
    EXPECT_EQ(a.drop().law.kind, b.drop().law.kind);
    EXPECT_DOUBLE_EQ(a.drop().law.dissipation, b.drop().law.dissipation) << contact;
    EXPECT_DOUBLE_EQ(a.drop().law.effective_modulus, b.drop().law.effective_modulus);
    EXPECT_DOUBLE_EQ(a.drop().law.cf, b.drop().law.cf);
  }
}

TEST(ContactSpec, ScaledFromCarriesGivenSmoothing) {
  const Scenario s = parse_with_contact(R"({"law": "smooth_hunt_crossley", "scaled_from": {"mass": 62, "spheres": 6,
      "radius": 0.032, "stiffness": 1e6, "dissipation": 2, "cf": 4e-6, "bd": 200, "bv": 30}, "scale_smoothing": true})");
  const double ratio = 0.002 / 0.032;
  EXPECT_NEAR(s.drop().law.cf, 4e-6 * ratio * ratio, 1e-20);  // docs/physics.md#scaling-the-smoothing-parameters
  EXPECT_NEAR(s.drop().law.bd, 200 / ratio, 1e-9);            // docs/physics.md#scaling-the-smoothing-parameters
  EXPECT_NEAR(s.drop().law.bv, 30 / std::sqrt(ratio), 1e-9);  // docs/physics.md#scaling-the-smoothing-parameters
  EXPECT_EQ(s.drop().law.dissipation, 2.0);                   // not scaled unless asked
}

TEST(ContactSpec, BadKeysNameTheirPath) {
  const std::string ref = R"("scaled_from": {"mass": 62, "spheres": 6, "radius": 0.032, "stiffness": 1e6)";
  EXPECT_EQ(error_path(R"({"law": "smooth_hunt_crossley", "stiffness": 1e6, "dissipation": 2, "cf": 0})"),
            "/contact/cf");
  EXPECT_EQ(error_path(R"({"law": "smooth_hunt_crossley", "stiffness": 1e6, "dissipation": 2, "bd": -1})"),
            "/contact/bd");
  EXPECT_EQ(error_path(R"({"law": "flores", "stiffness": 1e6, "dissipation": 2})"), "/contact/dissipation");
  EXPECT_EQ(error_path(R"({"law": "flores", "stiffness": 1e6, "restitution": 1.2, "impact_speed": 1})"),
            "/contact/restitution");
  EXPECT_EQ(error_path(R"({"law": "gonthier", "stiffness": 1e6, "restitution": 0.5})"), "/contact/impact_speed");
  EXPECT_EQ(error_path(R"({"law": "hunt_crossley", "stiffness": 1e6, "dissipation": 1, "restitution": 0.5})"),
            "/contact/restitution");
  EXPECT_EQ(error_path(R"({"law": "hertz", "stiffness": 1e6, "cf": 1e-5})"), "/contact/cf");
  EXPECT_EQ(error_path(R"({"law": "hunt_crossley", )" + ref + R"(, "cf": 1e-5}})"), "/contact/scaled_from/cf");
  EXPECT_EQ(error_path(R"({"law": "smooth_hunt_crossley", "cf": 1e-6, "scale_smoothing": true, )" + ref + "}}"),
            "/contact/cf");
  EXPECT_EQ(error_path(R"({"law": "hunt_crossley", "scale_smoothing": true, )" + ref + "}}"),
            "/contact/scale_smoothing");
  EXPECT_EQ(error_path(R"({"law": "bouncy", "stiffness": 1e6})"), "/contact/law");
}

}  // namespace
}  // namespace dropsim::io
