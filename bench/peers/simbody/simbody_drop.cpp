// Simbody peer of the drop: same model, Simbody's own integrators.
#include "bench/peers/simbody/simbody_drop.hpp"

#include <Simbody.h>

#include <cmath>
#include <memory>

#include "dropsim/sim/combining.hpp"

namespace dropsim::peers {

SimbodyRun simbody_drop(const DropModel& model, const std::vector<double>& grid, SimbodyIntegrator which,
                        double accuracy, bool record) {
  using namespace SimTK;
  const double radius = model.law.radius;
  MultibodySystem system;
  SimbodyMatterSubsystem matter(system);
  GeneralForceSubsystem forces(system);
  GeneralContactSubsystem contacts(system);
  Force::UniformGravity gravity(forces, matter, Vec3(0, -model.gravity, 0));

  // The Slider translates along its frames' x; turning both frames by 90
  // degrees about z makes that the world's +y and leaves the body unrotated.
  const Rotation x_to_y(Pi / 2, ZAxis);
  Body::Rigid body(MassProperties(model.mass, Vec3(0), UnitInertia(1)));
  MobilizedBody::Slider slider(matter.Ground(), Transform(x_to_y), body, Transform(x_to_y));

  // HalfSpace fills x > 0 with outward normal -x; -90 degrees about z puts the ground at y < 0.
  const ContactSetIndex set = contacts.createContactSet();
  contacts.addBody(set, matter.updGround(), ContactGeometry::HalfSpace(), Transform(Rotation(-Pi / 2, ZAxis), Vec3(0)));
  for (int i = 0; i < model.spheres; ++i)  // side by side, all touching down together
    contacts.addBody(set, slider, ContactGeometry::Sphere(radius), Transform(Vec3(3.0 * radius * i, 0, 0)));
  HuntCrossleyForce hc(forces, contacts, set);
  // OpenSim gives every surface the same stiffness and dissipation; Simbody
  // combines them by Sherman's rule, which dropsim's "sherman" inverts exactly.
  const double surface = surface_modulus(CombiningRule::sherman, model.law.effective_modulus);
  const double alpha = model.law.kind == ContactLawKind::hertz ? 0.0 : model.law.dissipation;
  for (int i = 0; i <= model.spheres; ++i) hc.setBodyParameters(ContactSurfaceIndex(i), surface, alpha, 0, 0, 0);

  system.realizeTopology();
  State state = system.getDefaultState();
  slider.setQ(state, model.initial_height + radius);  // q is the sphere centres' height
  slider.setU(state, model.initial_velocity);

  const std::unique_ptr<Integrator> integ = make_integrator(which, system, accuracy);
  TimeStepper stepper(system, *integ);
  stepper.initialize(state);

  SimbodyRun out;
  const double weight = model.mass * model.gravity;
  try {
    if (record) {
      out.force_normalized.reserve(grid.size());
      for (double t : grid) {
        if (t > stepper.getTime()) stepper.stepTo(t);
        const State& s = integ->getState();
        system.realize(s, Stage::Acceleration);
        // Only contact and gravity act: F = M (a + g).
        out.force_normalized.push_back(model.mass * (slider.getOneUDot(s, MobilizerUIndex(0)) + model.gravity) / weight);
      }
    } else {
      // CPodes gives up after its step budget per call (mxstep): call again until the end.
      for (int calls = 0; stepper.getTime() < grid.back() && calls < 1000; ++calls) stepper.stepTo(grid.back());
    }
  } catch (const std::exception&) {
    out.ok = false;
  }
  out.steps = integ->getNumStepsTaken();
  out.realizations = integ->getNumRealizations();
  return out;
}

}  // namespace dropsim::peers
