// Scaling laws docs/physics.md#size-scaling, #hertz-stiffness, #combining-rules, #scaling-the-smoothing-parameters against the numbers docs/physics.md gives
// and against independent Hertz computations; the size invariance of the smoothed law.
#include "dropsim/sim/scaling.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <numbers>
#include <filesystem>
#include <vector>

#include "dropsim/io/scenario.hpp"
#include "dropsim/sim/contact_design.hpp"
#include "dropsim/sim/simulate.hpp"

namespace dropsim {
namespace {

const SphereSupport human62{62.0, 6, 0.032};
constexpr double g = standard_gravity;
const double human_modulus = 1e6 / std::pow(2.0, 1.5);  // Sherman, OpenSim's 1e6 docs/physics.md#combining-rules

ContactParameters human62_parameters() {
  ContactParameters p;
  p.support = human62;
  p.stiffness = 1e6;
  p.dissipation = 2.0;
  return p;
}

TEST(Human62, PaperNumbers) {
  const double xh = rest_indentation_relative(human62, g, human_modulus);
  EXPECT_NEAR(xh, 0.35322, 5e-6);
  EXPECT_NEAR(tangent_stiffness(human_modulus, human62.radius, xh), 13450.0, 5.0);  // 13.45 kN/m
  EXPECT_NEAR(smoothing_cf_relative(1e-5, 0.032), 0.0988, 5e-5);                    // docs/physics.md#scaling-the-smoothing-parameters
  EXPECT_NEAR(smoothing_cf_relative(1e-5, 0.002), 1.58, 5e-3);                      // the floating mouse
  EXPECT_NEAR(smoothing_bv_hat(50.0, 0.032), 8.94, 5e-3);                           // docs/physics.md#scaling-the-smoothing-parameters
  EXPECT_NEAR(smoothing_bv(8.94427190999916, 0.032), 50.0, 1e-12);
  // docs/physics.md#restitution: impact speed about 0.4 m/s from 0.25 R, cr = 1 - 2 * 0.4 = 0.2.
  const double v = impact_speed(g, 0.25 * human62.radius);
  EXPECT_NEAR(v, 0.4, 0.005);
  EXPECT_NEAR(restitution_estimate(2.0, v), 0.2, 0.01);
  EXPECT_DOUBLE_EQ(dissipation_for_restitution_estimate(restitution_estimate(2.0, v), v), 2.0);
}

TEST(ScalingLaws, P12DesignCarriesGammaBodyWeightsAtXh) {
  const double gamma = 2.5, xh = 0.2;
  const double e = effective_modulus_for_load(human62, g, gamma, xh);
  // docs/physics.md#hertz-contact independently: the force per sphere at x = xh R.
  const double x = xh * human62.radius;
  const double f = 4.0 / 3.0 * e * std::sqrt(human62.radius) * std::pow(x, 1.5);
  EXPECT_NEAR(f, gamma * human62.mass * g / human62.spheres, 1e-9 * f);
}

TEST(ScalingLaws, JointSolutionGivesStiffnessAndLoad) {
  const double gamma = 1.0, xh = 0.1, k = 2e4;
  const ModulusAndRadius d = design_for_stiffness(human62, g, gamma, k, xh);
  const double x = xh * d.radius;
  EXPECT_NEAR(2.0 * d.effective_modulus * std::sqrt(d.radius * x), k, 1e-9 * k);  // docs/physics.md#hertz-stiffness
  const double f = 4.0 / 3.0 * d.effective_modulus * std::sqrt(d.radius) * std::pow(x, 1.5);
  EXPECT_NEAR(f, gamma * human62.mass * g / human62.spheres, 1e-9 * f);
}

TEST(ScalingLaws, MaterialToOpenSimValue) {
  // A pad (E = 1 MPa, nu = 0.45) on rigid ground: E* is its plane-strain modulus
  // docs/physics.md#combining-rules; OpenSim gives both surfaces the typed value, so the typed value
  // must combine (Sherman) back to that E*.
  const double typed = opensim_stiffness_for_material(CombiningRule::sherman, 1e6, 0.45);
  const double plane_strain = 1e6 / (1.0 - 0.45 * 0.45);
  EXPECT_NEAR(sherman_composite(typed, typed), plane_strain, 1e-9 * plane_strain);
  EXPECT_NEAR(sherman_composite(plane_strain, 1e30), plane_strain, 1e-6 * plane_strain);
  EXPECT_NEAR(typed, plane_strain * std::pow(2.0, 1.5), 1e-6 * typed);
}

TEST(ScalingLaws, PatchAndStress) {
  const double xh = 0.3, r = 0.05, x = xh * r;
  EXPECT_NEAR(patch_radius(r, xh), std::sqrt(r * x), 1e-15);
  EXPECT_NEAR(patch_area(r, xh), std::numbers::pi * r * x, 1e-15);
  EXPECT_NEAR(mean_contact_stress(100.0, r, xh), 100.0 / (std::numbers::pi * r * x), 1e-9);
}

TEST(ScalingLaws, HertzSmoothingWidth) {
  // docs/physics.md#scaling-the-smoothing-parameters: the step 1/2 + 1/2 tanh(bd x) goes from t to 1 - t across dxh R.
  const double t = 0.05, dxh = 0.02, r = 0.01;
  const double bd = smoothing_bd(t, dxh, r);
  auto step = [&](double x) { return 0.5 + 0.5 * std::tanh(bd * x); };
  EXPECT_NEAR(step(-0.5 * dxh * r), t, 1e-12);
  EXPECT_NEAR(step(0.5 * dxh * r), 1.0 - t, 1e-12);
  EXPECT_NEAR(smoothing_bd_width(bd, t, r), dxh, 1e-12);
}

// Least-squares slope of log y against log x.
double fitted_exponent(const std::vector<double>& x, const std::vector<double>& y) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  const double n = static_cast<double>(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double lx = std::log(x[i]), ly = std::log(y[i]);
    sx += lx, sy += ly, sxx += lx * lx, sxy += lx * ly;
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

TEST(Allometry, ExponentsOverFiveDecadesOfMass) {
  // Masses 0.01..1000 kg, R proportional to M^(1/3), six spheres, constant xh docs/physics.md#allometry.
  std::vector<double> mass, modulus, stiffness, stress, xh_forced;
  const double xh = 0.353;
  for (int i = 0; i <= 50; ++i) {
    const double m = 0.01 * std::pow(1e5, i / 50.0);
    const SphereSupport s{m, 6, 0.032 * std::cbrt(m / 62.0)};
    const double e = effective_modulus_for_indentation(s, g, xh);
    mass.push_back(m);
    modulus.push_back(e);
    stiffness.push_back(tangent_stiffness(e, s.radius, xh));
    stress.push_back(mean_contact_stress(m * g / s.spheres, s.radius, xh));
    // E* forced to grow as M^(2/3) instead.
    xh_forced.push_back(rest_indentation_relative(s, g, human_modulus * std::pow(m / 62.0, 2.0 / 3.0)));
  }
  EXPECT_NEAR(fitted_exponent(mass, modulus), 1.0 / 3.0, 1e-9);
  EXPECT_NEAR(fitted_exponent(mass, stiffness), 2.0 / 3.0, 1e-9);
  EXPECT_NEAR(fitted_exponent(mass, stress), 1.0 / 3.0, 1e-9);
  EXPECT_NEAR(fitted_exponent(mass, xh_forced), -2.0 / 9.0, 1e-9);
}

TEST(RoundTrip, AToBToAReturnsTheInputs) {
  ContactParameters a = human62_parameters();
  a.cf = 2e-5, a.bd = 250, a.bv = 40;
  for (const SphereSupport& b : {SphereSupport{0.02, 4, 0.002}, SphereSupport{1190, 4, 0.08}}) {
    const ContactParameters back = scale_contact(scale_contact(a, b, true), a.support, true);
    EXPECT_NEAR(back.stiffness, a.stiffness, 1e-12 * a.stiffness);
    EXPECT_NEAR(back.dissipation, a.dissipation, 1e-12 * a.dissipation);
    EXPECT_NEAR(back.cf, a.cf, 1e-12 * a.cf);
    EXPECT_NEAR(back.bd, a.bd, 1e-12 * a.bd);
    EXPECT_NEAR(back.bv, a.bv, 1e-12 * a.bv);
  }
}

TEST(RoundTrip, ScaledModelsKeepTheRelativeIndentation) {
  const ContactParameters a = human62_parameters();
  const ContactParameters b = scale_contact(a, SphereSupport{37.8, 10, 0.015}, false);
  EXPECT_NEAR(describe_contact(b, g).indentation_relative, describe_contact(a, g).indentation_relative, 1e-12);
  EXPECT_EQ(b.dissipation, 2.0);
  EXPECT_NEAR(scale_contact(a, SphereSupport{37.8, 10, 0.015}, true).dissipation, 2.0 * std::sqrt(0.032 / 0.015),
              1e-12);
}

TEST(PaperSuite, ScalingHuman62ReproducesEveryModulus) {
  // E*_b = E*_a (M_b/M_a)(n_a/n_b)(R_a/R_b)^2 docs/physics.md#size-scaling, typed out here, against the
  // moduli the paper scenarios resolve to; and each rests at xh = 0.35322.
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(DROPSIM_SOURCE_DIR) + "/scenarios/paper")) {
    if (entry.path().extension() != ".json") continue;  // the folder also holds its README
    const io::Scenario s = io::load_scenario(entry.path().string());
    const SphereSupport b{s.drop().mass, s.drop().spheres, s.drop().law.radius};
    const double expected = human_modulus * (b.mass / 62.0) * (6.0 / b.spheres) * std::pow(0.032 / b.radius, 2);
    const double scaled = effective_modulus(CombiningRule::sherman, scale_contact(human62_parameters(), b, false).stiffness);
    EXPECT_NEAR(s.drop().law.effective_modulus, expected, 1e-12 * expected) << s.name;
    EXPECT_NEAR(scaled, expected, 1e-12 * expected) << s.name;
    EXPECT_NEAR(rest_indentation_relative(b, g, scaled), 0.35322, 5e-6) << s.name;
    ++count;
  }
  EXPECT_EQ(count, 14);
}

io::Scenario example(const std::string& name) {
  return io::load_scenario(std::string(DROPSIM_SOURCE_DIR) + "/scenarios/examples/" + name + ".json");
}

TEST(SmoothedScaling, MouseWithAllSmoothingScaledRepeatsHuman62) {
  // cf, bd, bv scaled by docs/physics.md#scaling-the-smoothing-parameters and alpha by docs/physics.md#scaling-the-dissipation: the smoothed
  // drop is the same dimensionless problem, so F/(Mg) against tau coincides.
  const io::Scenario human = example("human62_smooth");
  const io::Scenario mouse = example("mouse_smooth_scaled-smoothing");
  EXPECT_NEAR(mouse.drop().law.cf, 1e-5 * std::pow(0.002 / 0.032, 2), 1e-20);
  EXPECT_NEAR(mouse.drop().law.bd, 300.0 * 0.032 / 0.002, 1e-9);
  EXPECT_NEAR(mouse.drop().law.bv, 50.0 * std::sqrt(0.032 / 0.002), 1e-9);
  const Trace a = simulate(human.drop(), human.run);
  const Trace b = simulate(mouse.drop(), mouse.run);
  // Both sample every 0.01 in tau; 2 s of the mouse is four times as long in tau.
  ASSERT_GT(b.samples(), a.samples());
  double worst = 0.0;
  // The human's last sample sits at t = 2 s, off the tau grid: leave it out.
  for (std::size_t i = 0; i + 1 < a.samples(); ++i) {
    ASSERT_NEAR(a.tau[i], b.tau[i], 1e-9);
    worst = std::max(worst, std::abs(a.force_normalized[i] - b.force_normalized[i]));
  }
  std::printf("max |F/(Mg) mouse - human62| = %.3g\n", worst);
  EXPECT_LT(worst, 1e-6);
  // Without the smoothing scaled the mouse floats instead (contact_laws_test).
}

// docs/physics.md#scaling-the-smoothing-parameters: smoothed friction's slip speed sqrt(|v_s|^2 + cf) takes cf
// as a squared speed, so with cf scaled to keep the drop the same (cf ~ R^2) the regularisation speed scales
// as R, while a dynamically similar motion's speeds scale as sqrt(g R): from the human to the mouse it
// shrinks by sqrt(0.002 / 0.032) = 0.25 in units of sqrt(g R). Friction is not size-invariant.
TEST(SmoothedScaling, FrictionRegularisationIsNotSizeInvariant) {
  const double cf_a = 1e-5, r_a = 0.032, r_b = 0.002;
  const double cf_b = scale_cf(cf_a, r_a, r_b);
  EXPECT_NEAR(std::sqrt(cf_b) / std::sqrt(cf_a), r_b / r_a, 1e-12);  // a speed that scales as R
  const double dimensionless_a = std::sqrt(cf_a) / std::sqrt(g * r_a), dimensionless_b = std::sqrt(cf_b) / std::sqrt(g * r_b);
  EXPECT_NEAR(dimensionless_b / dimensionless_a, 0.25, 1e-12);
}

// docs/physics.md#linear-springs: a linear spring carries M g / n at x = xh R, so k scales as
// (M_b / M_a)(n_a / n_b)(R_a / R_b) (scale_linear_stiffness), and the damping group n c sqrt(R / g) / M
// of the dimensionless drop stays put when c scales as (M_b / M_a)(n_a / n_b) sqrt(R_a / R_b), typed out
// here. With both, the mouse's linear drop is the human's, F/(M g) against tau.
TEST(LinearSpringScaling, ScaledStiffnessAndDampingRepeatTheDimensionlessDrop) {
  const SphereSupport mouse{0.02, 4, 0.002};
  const double k_a = 1e4, c_a = 50.0;
  const double k_b = scale_linear_stiffness(k_a, human62, mouse);
  EXPECT_NEAR(k_b, k_a * (0.02 / 62.0) * (6.0 / 4.0) * (0.032 / 0.002), 1e-12 * k_b);
  // Both rest at the same relative indentation: n k xh R = M g.
  EXPECT_NEAR(mouse.mass * g / (mouse.spheres * k_b * mouse.radius), human62.mass * g / (human62.spheres * k_a * human62.radius),
              1e-12);
  const double c_b = c_a * (0.02 / 62.0) * (6.0 / 4.0) * std::sqrt(0.032 / 0.002);
  auto scenario = [](const SphereSupport& s, double k, double c) {
    char text[512];
    std::snprintf(text, sizeof text,
                  R"({"name": "linear", "duration": 2.0,
                      "drop": {"mass": %.17g, "spheres": %d, "radius": %.17g, "height_over_radius": 0.25},
                      "contact": {"law": "linear_damped", "stiffness": %.17g, "damping": %.17g},
                      "integrator": {"name": "dopri5", "rtol": 1e-10}, "output": {"interval_tau": 0.01}})",
                  s.mass, s.spheres, s.radius, k, c);
    return io::parse_scenario(text, "linear.json");
  };
  const io::Scenario human = scenario(human62, k_a, c_a), small = scenario(mouse, k_b, c_b);
  const Trace a = simulate(human.drop(), human.run), b = simulate(small.drop(), small.run);
  ASSERT_GT(b.samples(), a.samples());
  double worst = 0.0, peak = 0.0;
  for (std::size_t i = 0; i + 1 < a.samples(); ++i) {  // the human's last sample, at 2 s, is off the tau grid
    ASSERT_NEAR(a.tau[i], b.tau[i], 1e-9);
    worst = std::max(worst, std::abs(a.force_normalized[i] - b.force_normalized[i]));
    peak = std::max(peak, a.force_normalized[i]);
  }
  std::printf("[measured] linear drop, max |F/(Mg) mouse - human62| = %.3g (peak %.4g)\n", worst, peak);
  EXPECT_GT(peak, 1.5);  // a real impact, not a resting contact
  EXPECT_LT(worst, 1e-6);
  // Damping left unscaled changes the motion: the check above could fail.
  const io::Scenario unscaled = scenario(mouse, k_b, c_a * (0.02 / 62.0) * (6.0 / 4.0));
  const Trace u = simulate(unscaled.drop(), unscaled.run);
  double apart = 0.0;
  for (std::size_t i = 0; i + 1 < a.samples(); ++i) apart = std::max(apart, std::abs(a.force_normalized[i] - u.force_normalized[i]));
  EXPECT_GT(apart, 1e-2);
}

}  // namespace
}  // namespace dropsim
