// dropsim's rk_merson against Simbody's RungeKuttaMersonIntegrator on the 14
// paper drops at accuracies 1e-3 to 1e-8: the same method and error control
// take the same number of steps (docs/integrators.md#rk-merson).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "bench/peers/simbody/simbody_drop.hpp"
#include "dropsim/integrators/integrate.hpp"
#include "dropsim/io/scenario.hpp"
#include "dropsim/sim/simulate.hpp"

namespace dropsim {
namespace {

TEST(SimbodyMerson, AcceptedStepsMatchSimbodysOnThePaperDrops) {
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(DROPSIM_SOURCE_DIR "/scenarios/paper"))
    if (e.path().extension() == ".json") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  ASSERT_EQ(files.size(), 14u);
  double worst = 0.0;
  for (const auto& f : files) {
    const io::Scenario s = io::load_scenario(f.string());
    const std::vector<double> grid = integrators::output_grid(0.0, s.run.duration, s.run.output_interval);
    for (const double accuracy : {1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8}) {
      RunSettings run = s.run;
      run.integrator.method = integrators::Method::rk_merson;
      run.integrator.rtol = accuracy;
      run.record_samples = false;
      const Trace ours = simulate(s.drop(), run);
      const peers::SimbodyRun theirs =
          peers::simbody_drop(s.drop(), grid, peers::SimbodyIntegrator::runge_kutta_merson, accuracy, false);
      ASSERT_TRUE(theirs.ok) << s.name;
      ASSERT_EQ(ours.stats.status, integrators::Status::ok) << s.name;
      const double ratio = static_cast<double>(ours.stats.steps) / static_cast<double>(theirs.steps);
      worst = std::max(worst, std::abs(ratio - 1.0));
      EXPECT_NEAR(ratio, 1.0, 0.10) << s.name << " at accuracy " << accuracy << ": dropsim " << ours.stats.steps
                                    << " steps, Simbody " << theirs.steps;
    }
  }
  RecordProperty("worst_relative_step_difference", std::to_string(worst));
  std::printf("rk_merson against Simbody's RungeKuttaMerson, 14 drops x 6 accuracies: worst step-count difference %.3g %%\n",
              100.0 * worst);
}

}  // namespace
}  // namespace dropsim
