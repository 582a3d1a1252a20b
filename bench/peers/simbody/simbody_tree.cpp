// An ArticulatedModel as Simbody mobilized bodies and contact forces.
#include "bench/peers/simbody/simbody_tree.hpp"

#include <Simbody.h>

#include <cmath>
#include <cstdio>
#include <exception>
#include <memory>
#include <stdexcept>

#include "dropsim/sim/combining.hpp"

namespace dropsim::peers {

namespace {

SimTK::Vec3 simtk(const Eigen::Vector3d& v) { return {v.x(), v.y(), v.z()}; }
Eigen::Vector3d eigen(const SimTK::Vec3& v) { return {v[0], v[1], v[2]}; }
SimTK::Transform simtk(const Eigen::Isometry3d& x) {
  SimTK::Mat33 r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r(i, j) = x.linear()(i, j);
  return SimTK::Transform(SimTK::Rotation(r, true), simtk(Eigen::Vector3d(x.translation())));
}

// A coordinate function as Simbody calls one: its value and first two derivatives.
class CoordinateFunctionOfQ : public SimTK::Function {
 public:
  explicit CoordinateFunctionOfQ(CoordinateFunction f) : f_(std::move(f)) {}
  SimTK::Real calcValue(const SimTK::Vector& x) const override { return f_.value(x[0]); }
  SimTK::Real calcDerivative(const SimTK::Array_<int>& components, const SimTK::Vector& x) const override {
    if (components.size() == 1) return f_.derivative(x[0]);
    if (components.size() == 2) return f_.second_derivative(x[0]);
    return 0.0;  // cubic pieces and polynomials' higher derivatives are not asked for
  }
  int getArgumentSize() const override { return 1; }
  int getMaxDerivativeOrder() const override { return 2; }
  SimTK::Function* clone() const override { return new CoordinateFunctionOfQ(*this); }

 private:
  CoordinateFunction f_;
};

// Axes padded to three independent ones, as OpenSim's SpatialTransform pads a joint's.
std::vector<Eigen::Vector3d> three_axes(const std::vector<TransformAxis>& given) {
  std::vector<Eigen::Vector3d> axes;
  for (const TransformAxis& a : given) axes.push_back(a.axis.normalized());
  if (axes.size() > 3) throw std::invalid_argument("simbody_tree_run: a joint with more than three axes of a kind");
  if (axes.empty()) axes.push_back(Eigen::Vector3d::UnitX());
  if (axes.size() == 1) {
    const Eigen::Vector3d& a = axes[0];
    Eigen::Vector3d other = std::abs(a.x()) < 0.9 ? Eigen::Vector3d::UnitX() : Eigen::Vector3d::UnitY();
    axes.push_back(a.cross(other).normalized());
  }
  if (axes.size() == 2) axes.push_back(axes[0].cross(axes[1]).normalized());
  return axes;
}

SimTK::Inertia about_origin(const ArticulatedBody& b) {
  const Eigen::Matrix3d& i = b.inertia;
  const SimTK::Inertia central(SimTK::Vec3(i(0, 0), i(1, 1), i(2, 2)), SimTK::Vec3(i(0, 1), i(0, 2), i(1, 2)));
  return central.shiftFromMassCenter(simtk(b.mass_centre), b.mass);
}

double surface_stiffness(const ContactLaw& law) { return surface_modulus(CombiningRule::sherman, law.effective_modulus); }

}  // namespace

std::vector<SimbodyTreeSample> simbody_tree_run(const ArticulatedModel& model, double duration, double interval,
                                                double accuracy, SimbodyIntegrator which) {
  using namespace SimTK;
  MultibodySystem system;
  SimbodyMatterSubsystem matter(system);
  GeneralForceSubsystem forces(system);
  GeneralContactSubsystem contacts(system);
  Force::UniformGravity gravity(forces, matter, simtk(model.gravity));
  const Eigen::VectorXd held = model.default_coordinates();
  std::vector<MobilizedBody> bodies(model.bodies.size());
  // Per coordinate that is not locked: its mobilized body and its index there.
  std::vector<std::pair<MobilizedBodyIndex, int>> where;
  std::vector<int> free_coordinate;
  for (const ArticulatedJoint& joint : model.joints) {
    const ArticulatedBody& info = model.bodies[static_cast<std::size_t>(joint.child)];
    const Body::Rigid body(MassProperties(info.mass, simtk(info.mass_centre), about_origin(info)));
    MobilizedBody& parent = joint.parent == ground_body ? matter.updGround() : bodies[static_cast<std::size_t>(joint.parent)];
    std::vector<int> mobilities;  // model coordinates, in the mobilizer's order
    std::vector<const Function*> functions;
    std::vector<std::vector<int>> inputs;
    std::vector<Vec3> axes;
    const auto add = [&](const std::vector<TransformAxis>& given) {
      const std::vector<Eigen::Vector3d> three = three_axes(given);
      for (std::size_t k = 0; k < 3; ++k) {
        axes.push_back(simtk(three[k]));
        if (k >= given.size()) {
          functions.push_back(new Function::Constant(0.0, 0));
          inputs.emplace_back();
          continue;
        }
        const TransformAxis& a = given[k];
        if (a.coordinate < 0 || model.coordinates[static_cast<std::size_t>(a.coordinate)].locked) {
          functions.push_back(new Function::Constant(a.function.value(a.coordinate < 0 ? 0.0 : held[a.coordinate]), 0));
          inputs.emplace_back();
          continue;
        }
        int at = 0;
        while (at < static_cast<int>(mobilities.size()) && mobilities[static_cast<std::size_t>(at)] != a.coordinate) ++at;
        if (at == static_cast<int>(mobilities.size())) mobilities.push_back(a.coordinate);
        functions.push_back(new CoordinateFunctionOfQ(a.function));
        inputs.push_back({at});
      }
    };
    add(joint.rotations);
    add(joint.translations);
    if (mobilities.empty()) {
      for (const Function* f : functions) delete f;
      // No coordinate moves it: a weld at the held transform X_FM.
      Eigen::Isometry3d x_fm = Eigen::Isometry3d::Identity();
      const auto value = [&](const TransformAxis& a) { return a.function.value(a.coordinate < 0 ? 0.0 : held[a.coordinate]); };
      for (const TransformAxis& a : joint.rotations) x_fm.linear() = x_fm.linear() * Eigen::AngleAxisd(value(a), a.axis).toRotationMatrix();
      for (const TransformAxis& a : joint.translations) x_fm.translation() += value(a) * a.axis;
      bodies[static_cast<std::size_t>(joint.child)] =
          MobilizedBody::Weld(parent, simtk(Eigen::Isometry3d(joint.parent_frame * x_fm)), body, simtk(joint.child_frame));
      continue;
    }
    MobilizedBody::FunctionBased mobod(parent, simtk(joint.parent_frame), body, simtk(joint.child_frame),
                                       static_cast<int>(mobilities.size()), functions, inputs, axes);
    bodies[static_cast<std::size_t>(joint.child)] = mobod;
    for (std::size_t k = 0; k < mobilities.size(); ++k) {
      if (static_cast<int>(where.size()) <= mobilities[k]) where.resize(static_cast<std::size_t>(mobilities[k]) + 1);
      where[static_cast<std::size_t>(mobilities[k])] = {mobod.getMobilizedBodyIndex(), static_cast<int>(k)};
    }
  }
  for (std::size_t c = 0; c < model.coordinates.size(); ++c)
    if (!model.coordinates[c].locked) free_coordinate.push_back(static_cast<int>(c));

  const auto mobod_of = [&](int body) -> MobilizedBody& {
    return body == ground_body ? matter.updGround() : bodies[static_cast<std::size_t>(body)];
  };
  for (const ContactPair& pair : model.contacts) {
    const ContactSphereGeometry& sphere = model.spheres[static_cast<std::size_t>(pair.sphere)];
    const ContactLaw& law = pair.law;
    const Friction& f = law.friction;
    const double alpha = law.kind == ContactLawKind::hertz ? 0.0 : law.dissipation;
    if (law.kind == ContactLawKind::smooth_hunt_crossley) {
      if (pair.between_spheres()) throw std::invalid_argument("simbody_tree_run: the smoothed force pairs a sphere with a half-space only");
      const ContactHalfSpaceGeometry& h = model.half_spaces[static_cast<std::size_t>(pair.half_space)];
      SmoothSphereHalfSpaceForce smooth(forces);
      smooth.setParameters(surface_stiffness(law), alpha, f.static_coefficient, f.dynamic_coefficient,
                           f.viscous_coefficient, f.transition_velocity, law.cf, law.bd, law.bv);
      smooth.setContactSphereBody(mobod_of(sphere.body));
      smooth.setContactSphereLocationInBody(simtk(sphere.centre));
      smooth.setContactSphereRadius(sphere.radius);
      smooth.setContactHalfSpaceBody(mobod_of(h.body));
      smooth.setContactHalfSpaceFrame(simtk(h.frame));
      continue;
    }
    if (law.kind != ContactLawKind::hertz && law.kind != ContactLawKind::hunt_crossley)
      throw std::invalid_argument("simbody_tree_run: Simbody has no force for the law of " + pair.name);
    const ContactSetIndex set = contacts.createContactSet();
    if (pair.between_spheres()) {
      const ContactSphereGeometry& other = model.spheres[static_cast<std::size_t>(pair.other_sphere)];
      contacts.addBody(set, mobod_of(sphere.body), ContactGeometry::Sphere(sphere.radius), Transform(simtk(sphere.centre)));
      contacts.addBody(set, mobod_of(other.body), ContactGeometry::Sphere(other.radius), Transform(simtk(other.centre)));
    } else {
      const ContactHalfSpaceGeometry& h = model.half_spaces[static_cast<std::size_t>(pair.half_space)];
      contacts.addBody(set, mobod_of(h.body), ContactGeometry::HalfSpace(), simtk(h.frame));
      contacts.addBody(set, mobod_of(sphere.body), ContactGeometry::Sphere(sphere.radius), Transform(simtk(sphere.centre)));
    }
    HuntCrossleyForce hc(forces, contacts, set);
    for (int i = 0; i < 2; ++i)
      hc.setBodyParameters(ContactSurfaceIndex(i), surface_stiffness(law), alpha, f.static_coefficient,
                           f.dynamic_coefficient, f.viscous_coefficient);
    hc.setTransitionVelocity(f.transition_velocity);
  }
  system.realizeTopology();

  State state = system.getDefaultState();
  for (const int c : free_coordinate) {
    const auto [index, k] = where[static_cast<std::size_t>(c)];
    const MobilizedBody& mobod = matter.getMobilizedBody(index);
    mobod.setOneQ(state, k, model.coordinates[static_cast<std::size_t>(c)].default_value);
    mobod.setOneU(state, k, model.coordinates[static_cast<std::size_t>(c)].default_speed);
  }
  const std::unique_ptr<Integrator> owned = make_integrator(which, system, accuracy);
  Integrator& integrator = *owned;
  integrator.setAllowInterpolation(false);
  integrator.initialize(state);
  std::vector<SimbodyTreeSample> out;
  const int samples = static_cast<int>(std::lround(duration / interval));
  const auto n = static_cast<Eigen::Index>(free_coordinate.size());
  for (int k = 0; k <= samples; ++k) {
    if (k > 0) {
      const double t = k * interval;
      try {
        for (int calls = 0; integrator.getTime() < t && calls < 1000; ++calls) integrator.stepTo(t);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "Simbody %s gave up at t = %g s: %s\n", simbody_name(which), integrator.getTime(), e.what());
      }
      if (integrator.getTime() < t) break;
    }
    const State& s = integrator.getState();
    system.realize(s, Stage::Dynamics);
    SimbodyTreeSample sample;
    sample.time = s.getTime();
    sample.q.resize(n);
    sample.u.resize(n);
    for (Eigen::Index i = 0; i < n; ++i) {
      const auto [index, j] = where[static_cast<std::size_t>(free_coordinate[static_cast<std::size_t>(i)])];
      sample.q[i] = matter.getMobilizedBody(index).getOneQ(s, j);
      sample.u[i] = matter.getMobilizedBody(index).getOneU(s, j);
    }
    // Every moving body's force less its weight: what the contacts put on it.
    const Vector_<SpatialVec>& applied = system.getRigidBodyForces(s, Stage::Dynamics);
    for (std::size_t b = 0; b < model.bodies.size(); ++b) {
      sample.body_forces.push_back(eigen(applied[bodies[b].getMobilizedBodyIndex()][1]) - model.bodies[b].mass * model.gravity);
      sample.contact_force += sample.body_forces.back();
    }
    out.push_back(sample);
  }
  return out;
}

}  // namespace dropsim::peers
