// The body tree's forward dynamics by stage, on chains of n pins with a
// contact sphere per body pressed into the floor: kinematics, contacts, the
// mass matrix with the generalised force (CRBA and Newton–Euler), and the
// Cholesky solve. What the articulated-body algorithm could save is the
// mass-matrix and solve share (docs/physics.md#why-crba-and-cholesky).
//   build/bin/tree_bench --benchmark_filter=Tree
#include <benchmark/benchmark.h>

#include <cmath>

#include "dropsim/sim/tree/dynamics.hpp"
#include "tests/support/tree_models.hpp"

namespace {

using namespace dropsim;

// n rods of 0.1 m zig-zagging down to the floor, every tip a sphere in contact.
tree::TreeModel pin_chain(int n) {
  ArticulatedModel m;
  ContactLaw law;
  law.kind = ContactLawKind::hunt_crossley;
  law.effective_modulus = 1e7;
  law.dissipation = 1.0;
  law.friction.static_coefficient = 0.9;
  law.friction.dynamic_coefficient = 0.6;
  for (int b = 0; b < n; ++b) {
    m.bodies.push_back(test::rod("rod" + std::to_string(b), 1.0, 0.1));
    test::add_pin(m, "pin" + std::to_string(b), b == 0 ? ground_body : b - 1, b,
                  b == 0 ? Eigen::Vector3d(0.0, 0.1 * n, 0.0) : Eigen::Vector3d(0.0, -0.1, 0.0), b % 2 ? 0.3 : -0.3, 0.5);
  }
  test::add_floor(m);
  for (int b = 0; b < n; ++b) test::add_sphere_on_floor(m, b, {0.0, -0.1, 0.0}, 0.02, law);
  return tree::TreeModel(m);
}

enum Stage { kinematics, contacts, mass_and_force, solve, whole };

void BM_TreeStage(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const auto stage = static_cast<Stage>(state.range(1));
  const tree::TreeModel model = pin_chain(n);
  tree::TreeData data(model);
  const Eigen::VectorXd x = model.default_state();
  const auto q = x.head(n), u = x.tail(n);
  Eigen::VectorXd qdd(n);
  tree::forward_dynamics(model, q, u, data, qdd);
  for (auto _ : state) {
    switch (stage) {
      case kinematics: tree::forward_kinematics(model, q, u, data); break;
      case contacts: tree::contact_forces(model, data); break;
      case mass_and_force:
        tree::forward_kinematics(model, q, u, data);  // mass_and_force sums inertias in place
        tree::mass_and_force(model, data);
        break;
      case solve:
        data.cholesky.compute(data.mass);
        qdd = data.tau;
        data.cholesky.solveInPlace(qdd);
        break;
      case whole: tree::forward_dynamics(model, q, u, data, qdd); break;
    }
    benchmark::DoNotOptimize(data.tau.data());
    benchmark::DoNotOptimize(qdd.data());
  }
}
BENCHMARK(BM_TreeStage)->ArgsProduct({{10, 20, 40}, {kinematics, contacts, mass_and_force, solve, whole}});

}  // namespace

BENCHMARK_MAIN();
