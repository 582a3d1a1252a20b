// A step allocates nothing: every integrator, on the drop (fixed-size state)
// and on the bar on two supports (dynamic state), counted by replacing the
// global operator new. Workspace is built once per run; a longer run of the
// same method must make exactly as many allocations as a shorter one.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <new>

#include "dropsim/integrators/integrate.hpp"
#include "dropsim/integrators/sundials.hpp"
#include "dropsim/sim/drop.hpp"
#include "dropsim/sim/multibody.hpp"
#include "tests/support/models.hpp"

namespace {
std::atomic<long> allocations{0};
}  // namespace

// Replaced for the whole test program: counting only, same semantics. GCC
// cannot see that new and delete here are one malloc/free pair.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void* operator new(std::size_t size) {
  ++allocations;
  if (void* p = std::malloc(size ? size : 1)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) { return ::operator new(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

namespace dropsim {
namespace {

using integrators::Method;

// Allocations made by one integrate() call over [0, duration], and its steps.
template <class System>
std::pair<long, long> count_run(const System& system, Method method, double duration, double step) {
  integrators::Settings settings;
  settings.method = method;
  settings.rtol = 1e-8;
  settings.step = step;
  const std::vector<double> grid{0.0, duration};
  typename System::Vector x = system.initial_state();
  const typename System::Vector atol = system.model_scaled_atol(settings.rtol);
  const long before = allocations.load();
  const auto stats =
      integrators::integrate(settings, system, x, grid, atol, [](const typename System::Vector&, double) { return true; });
  return {allocations.load() - before, stats.steps};
}

template <class System>
void expect_no_allocation_per_step(const System& system, double duration, double step) {
  for (const auto& info : integrators::methods) {
    if (!integrators::available(info)) continue;  // SUNDIALS' methods, in a build without it
    const auto [short_allocs, short_steps] = count_run(system, info.method, duration, step);
    const auto [long_allocs, long_steps] = count_run(system, info.method, 2.0 * duration, step);
    ASSERT_GT(long_steps, short_steps + 10) << info.name;
    EXPECT_EQ(long_allocs, short_allocs) << info.name << ": " << long_allocs - short_allocs << " allocations in "
                                         << long_steps - short_steps << " more steps";
  }
}

TEST(StepAllocation, DropStepsAllocateNothing) {
  expect_no_allocation_per_step(DropSystem(test::human_drop(1e6 / std::pow(2.0, 1.5), 6)), 0.5, 1e-4);
}

TEST(StepAllocation, BarStepsAllocateNothing) {
  expect_no_allocation_per_step(MultibodySystem(test::bar_on_two_supports()), 0.05, 1e-5);
}

}  // namespace
}  // namespace dropsim
