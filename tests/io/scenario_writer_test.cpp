// The model-to-scenario writer against the parser: every multi-contact
// scenario shipped, parsed, written and parsed again, is the same model — the
// same state, the same mass matrix and the same forces at states away from rest.
#include "dropsim/io/scenario_writer.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <random>

#include "dropsim/io/scenario.hpp"
#include "dropsim/sim/multibody_system.hpp"
#include "tests/support/cli.hpp"

namespace dropsim::io {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> multi_contact_scenarios() {
  std::vector<std::string> out;
  for (const char* folder : {"scenarios/friction", "scenarios/modes"})
    for (const auto& e : fs::directory_iterator(test::source_path(folder)))
      if (e.path().extension() == ".json") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(ScenarioWriter, EveryShippedMultiContactScenarioRoundTripsToTheSameModel) {
  const auto files = multi_contact_scenarios();
  ASSERT_GE(files.size(), 10u);
  std::mt19937 rng(7);
  std::normal_distribution<double> noise(0.0, 1.0);
  for (const std::string& file : files) {
    SCOPED_TRACE(file);
    const Scenario first = load_scenario(file);
    const MultibodyModel* a = first.multibody();
    if (!a) continue;
    const Scenario again = parse_scenario_json(multibody_scenario_json(*a, {first.name, "round trip", first.run.duration}), "written.json");
    const MultibodyModel* b = again.multibody();
    ASSERT_NE(b, nullptr) << file;
    ASSERT_EQ(a->nq, b->nq) << file;
    ASSERT_EQ(a->nu, b->nu) << file;
    ASSERT_EQ(a->contacts.size(), b->contacts.size()) << file;
    const Eigen::VectorXd x0 = a->initial_state();
    EXPECT_LE((x0 - b->initial_state()).cwiseAbs().maxCoeff(), 1e-15) << file;
    EXPECT_LE((mass_matrix(*a) - mass_matrix(*b)).cwiseAbs().maxCoeff(), 1e-15 * mass_matrix(*a).cwiseAbs().maxCoeff()) << file;
    // Forces at the start and at states moved off it (contacts pressed, bodies moving).
    const MultibodySystem sa(*a), sb(*b);
    for (int trial = 0; trial < 5; ++trial) {
      Eigen::VectorXd x = x0;
      if (trial > 0)
        for (Eigen::Index i = 0; i < x.size(); ++i) x[i] += 1e-3 * noise(rng);
      Eigen::VectorXd fa(a->nu), fb(b->nu);
      sa.applied_forces(x, fa);
      sb.applied_forces(x, fb);
      const double scale = a->total_mass() * a->gravity + fa.cwiseAbs().maxCoeff();
      EXPECT_LE((fa - fb).cwiseAbs().maxCoeff(), 1e-12 * scale) << file << " trial " << trial;
    }
  }
}

}  // namespace
}  // namespace dropsim::io
