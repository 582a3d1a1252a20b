// Multi-contact model -> scenario JSON, in the keys io/scenario_multibody.cpp reads.
#include "dropsim/io/scenario_writer.hpp"

#include <cctype>

namespace dropsim::io {

using nlohmann::json;

namespace {

json xyz(const Eigen::Vector3d& v) { return {v.x(), v.y(), v.z()}; }

// The parser's form per joint: free bodies take [x, y, z], planar ones [x, y],
// vertical ones either (z kept).
json point(const Eigen::Vector3d& v, Joint joint) {
  return joint == Joint::planar ? json{v.x(), v.y()} : xyz(v);
}

json body_json(const Body& b) {
  json out = {{"name", file_safe_name(b.name)}, {"joint", std::string(to_string(b.joint))}, {"mass", b.mass},
              {"position", point(b.position, b.joint)}};
  switch (b.joint) {
    case Joint::vertical:
      if (b.velocity.y() != 0.0) out["velocity"] = {0.0, b.velocity.y()};
      break;
    case Joint::planar:
      out["inertia"] = b.inertia(2, 2);
      out["angle"] = b.angle;
      if (b.angular_velocity.z() != 0.0) out["angular_velocity"] = b.angular_velocity.z();
      if (!b.velocity.isZero()) out["velocity"] = point(b.velocity, b.joint);
      break;
    case Joint::free: {
      json inertia = json::array();
      for (int i = 0; i < 3; ++i) inertia.push_back({b.inertia(i, 0), b.inertia(i, 1), b.inertia(i, 2)});
      out["inertia"] = inertia;
      const Eigen::Quaterniond& q = b.orientation;
      out["orientation"] = {q.w(), q.x(), q.y(), q.z()};
      if (!b.velocity.isZero()) out["velocity"] = xyz(b.velocity);
      if (!b.angular_velocity.isZero()) out["angular_velocity"] = xyz(b.angular_velocity);
      break;
    }
  }
  return out;
}

// The inverse of parse_contact_law (io/contact_spec.cpp) for every law.
void law_json(const ContactLaw& law, json& entry) {
  entry["law"] = std::string(to_string(law.kind));
  if (!hertz_family(law.kind)) {
    entry["stiffness"] = law.stiffness;
    if (law.kind == ContactLawKind::linear_damped) entry["damping"] = law.damping;
  } else {
    entry["stiffness"] = law.effective_modulus;
    entry["combining"] = "none";
    if (restitution_parameterised(law.kind)) {
      entry["restitution"] = law.restitution;
      entry["impact_speed"] = law.impact_speed;
    } else if (law.kind == ContactLawKind::hunt_crossley || law.kind == ContactLawKind::smooth_hunt_crossley) {
      entry["dissipation"] = law.dissipation;
    }
  }
  if (law.kind == ContactLawKind::smooth_hunt_crossley) {
    entry["cf"] = law.cf;
    entry["bd"] = law.bd;
    entry["bv"] = law.bv;
  }
  if (law.friction.acts()) {
    entry["static_friction"] = law.friction.static_coefficient;
    entry["dynamic_friction"] = law.friction.dynamic_coefficient;
    entry["viscous_friction"] = law.friction.viscous_coefficient;
    entry["transition_velocity"] = law.friction.transition_velocity;
  }
}

}  // namespace

std::string file_safe_name(const std::string& name) {
  std::string out;
  for (const char c : name) out += std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-' ? c : '_';
  return out.empty() ? "model" : out;
}

json multibody_scenario_json(const MultibodyModel& model, const ScenarioHeader& header) {
  json bodies = json::array(), planes = json::array(), contacts = json::array();
  for (const Body& b : model.bodies) bodies.push_back(body_json(b));
  const auto body_name = [&](int index) {
    return index == ground_index ? std::string("ground") : file_safe_name(model.bodies[static_cast<std::size_t>(index)].name);
  };
  for (const Contact& c : model.contacts) {
    const Joint joint = model.bodies[static_cast<std::size_t>(c.body[0])].joint;
    json entry = {{"name", c.name}, {"type", std::string(name_in(contact_type_names, c.type))}};
    if (c.type == ContactType::sphere_plane) {
      entry["body"] = body_name(c.body[0]);
      entry["at"] = point(c.at[0], joint);
      entry["radius"] = c.radius[0];
      const bool ground = c.plane_point.isZero() && c.plane_normal == Eigen::Vector3d::UnitY();
      if (!ground) {
        const std::string plane = "plane_" + c.name;
        planes.push_back({{"name", plane}, {"point", xyz(c.plane_point)}, {"normal", xyz(c.plane_normal)}});
        entry["plane"] = plane;
      }
    } else {
      const bool fixed = c.body[1] == ground_index;
      const Joint joint_b = fixed ? Joint::free : model.bodies[static_cast<std::size_t>(c.body[1])].joint;
      entry["bodies"] = {body_name(c.body[0]), body_name(c.body[1])};
      entry["at"] = {point(c.at[0], joint), point(c.at[1], joint_b)};
      entry["radius"] = {c.radius[0], c.radius[1]};
    }
    if (c.count != 1) entry["count"] = c.count;
    law_json(c.law, entry);
    contacts.push_back(entry);
  }
  json out = {{"name", file_safe_name(header.name)},
              {"description", header.description},
              {"duration", header.duration},
              {"gravity", model.gravity},
              {"characteristic_length", model.characteristic_length},
              {"bodies", bodies},
              {"contacts", contacts}};
  if (!planes.empty()) out["planes"] = planes;
  return out;
}

}  // namespace dropsim::io
