// Multi-contact form parsing: bodies (vertical, planar, free) and sphere contacts.
#include "dropsim/io/scenario_multibody.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <map>
#include <regex>

#include "dropsim/io/contact_spec.hpp"
#include "dropsim/sim/combining.hpp"

namespace dropsim::io {

using nlohmann::json;

namespace {

constexpr long max_count = 100000;
constexpr const char* world_name = "ground";  // a sphere_sphere contact's B fixed in the world

// A fixed-length array of finite numbers at r[key].
std::vector<double> numbers(ObjectReader& r, const std::string& key, std::size_t n) {
  const json& v = r.raw(key);
  auto fail = [&] { r.fail(key, "must be an array of " + std::to_string(n) + " numbers (got " + show(v) + ")"); };
  if (!v.is_array() || v.size() != n) fail();
  std::vector<double> out;
  for (const auto& e : v) {
    if (!e.is_number() || !std::isfinite(e.get<double>())) fail();
    out.push_back(e.get<double>());
  }
  return out;
}

// A point or vector: [x, y, z] on a free body; [x, y] on a planar one; either
// on a vertical one, whose points keep their z (an OpenSim model dropped whole).
Eigen::Vector3d point(ObjectReader& r, const std::string& key, Joint joint) {
  const bool three = joint == Joint::free || (joint == Joint::vertical && r.raw(key).is_array() && r.raw(key).size() == 3);
  const std::vector<double> p = numbers(r, key, three ? 3 : 2);
  return {p[0], p[1], p.size() == 3 ? p[2] : 0.0};
}

json to_json(const Eigen::Vector3d& v, Joint joint) {
  const bool three = joint == Joint::free || (joint == Joint::vertical && v.z() != 0.0);
  return three ? json{v.x(), v.y(), v.z()} : json{v.x(), v.y()};
}

void parse_body(ObjectReader& r, Body& b, json& out) {
  b.name = r.string("name");
  static const std::regex name_pattern("[A-Za-z0-9_.-]+");
  if (!std::regex_match(b.name, name_pattern)) r.fail("name", "must match [A-Za-z0-9_.-]+ (got \"" + b.name + "\")");
  if (b.name == world_name) r.fail("name", "\"ground\" names the world (a sphere fixed in it), not a body");
  const std::string joint = r.string("joint");
  const auto kind = value_in(joint_names, joint);
  if (!kind) r.fail("joint", "unknown joint \"" + joint + "\"; expected " + names_in(joint_names));
  b.joint = *kind;
  b.mass = r.number("mass", Bound::positive);
  out = json{{"name", b.name}, {"joint", joint}, {"mass", b.mass}};

  switch (b.joint) {
    case Joint::vertical:
      for (const char* k : {"inertia", "angle", "angular_velocity", "orientation"})
        if (r.has(k)) r.fail(k, "does not apply to a vertical body (it only translates along y)");
      break;
    case Joint::planar:
      b.inertia(2, 2) = r.number("inertia", Bound::positive);
      b.angle = r.optional_number("angle", Bound::any).value_or(0.0);
      b.angular_velocity.z() = r.optional_number("angular_velocity", Bound::any).value_or(0.0);
      if (r.has("orientation")) r.fail("orientation", "applies to free bodies; a planar body takes \"angle\"");
      out["inertia"] = b.inertia(2, 2);
      out["angle"] = b.angle;
      if (b.angular_velocity.z() != 0.0) out["angular_velocity"] = b.angular_velocity.z();
      break;
    case Joint::free: {
      const json& inertia = r.raw("inertia");
      if (inertia.is_array() && inertia.size() == 3 && inertia[0].is_number()) {
        const auto d = numbers(r, "inertia", 3);
        b.inertia = Eigen::Vector3d(d[0], d[1], d[2]).asDiagonal();
        if (!(d[0] > 0.0 && d[1] > 0.0 && d[2] > 0.0)) r.fail("inertia", "principal moments must be > 0 (got " + show(inertia) + ")");
        out["inertia"] = d;
      } else {
        const std::string rule = "must be [Ixx, Iyy, Izz] or a symmetric positive-definite 3x3 array (got " + show(inertia) + ")";
        if (!inertia.is_array() || inertia.size() != 3) r.fail("inertia", rule);
        for (int i = 0; i < 3; ++i) {
          if (!inertia[i].is_array() || inertia[i].size() != 3) r.fail("inertia", rule);
          for (int j = 0; j < 3; ++j) {
            if (!inertia[i][j].is_number()) r.fail("inertia", rule);
            b.inertia(i, j) = inertia[i][j].get<double>();
          }
        }
        if (!b.inertia.isApprox(b.inertia.transpose(), 1e-12) || Eigen::LLT<Eigen::Matrix3d>(b.inertia).info() != Eigen::Success)
          r.fail("inertia", rule);
        out["inertia"] = inertia;
      }
      if (r.has("orientation")) {
        const auto o = numbers(r, "orientation", 4);
        const Eigen::Quaterniond q(o[0], o[1], o[2], o[3]);
        if (!(q.norm() > 1e-12)) r.fail("orientation", "must be a nonzero quaternion [w, x, y, z]");
        b.orientation = q.normalized();
      }
      if (r.has("angle")) r.fail("angle", "applies to planar bodies; a free body takes \"orientation\"");
      if (r.has("angular_velocity")) {
        const auto w = numbers(r, "angular_velocity", 3);
        b.angular_velocity = {w[0], w[1], w[2]};
        out["angular_velocity"] = w;
      }
      const auto& q = b.orientation;
      out["orientation"] = {q.w(), q.x(), q.y(), q.z()};
      break;
    }
  }
  b.position = point(r, "position", b.joint);
  out["position"] = to_json(b.position, b.joint);
  if (r.has("velocity")) {
    b.velocity = point(r, "velocity", b.joint);
    if (b.joint == Joint::vertical && b.velocity.x() != 0.0)
      r.fail("velocity", "a vertical body only moves along y: give [0, vy]");
    out["velocity"] = to_json(b.velocity, b.joint);
  }
  r.reject_unknown_keys();
}

int body_index(ObjectReader& r, const std::string& key, const std::string& name,
               const std::map<std::string, int>& bodies) {
  const auto it = bodies.find(name);
  if (it == bodies.end()) r.fail(key, "no body named \"" + name + "\"");
  return it->second;
}

// A fixed plane of the scenario's `planes`: a point on it and its outward normal.
struct Plane {
  Eigen::Vector3d point = Eigen::Vector3d::Zero(), normal = Eigen::Vector3d::UnitY();
};

void parse_plane(ObjectReader& r, std::string& name, Plane& plane, json& out) {
  name = r.string("name");
  const auto point = numbers(r, "point", 3);
  const auto normal = numbers(r, "normal", 3);
  plane.point = {point[0], point[1], point[2]};
  const Eigen::Vector3d n(normal[0], normal[1], normal[2]);
  if (!(n.cwiseAbs().maxCoeff() > 0.0)) r.fail("normal", "must be a nonzero vector (got " + show(r.raw("normal")) + ")");
  plane.normal = n.stableNormalized();  // no overflow for huge components, none lost for tiny ones
  out = json{{"name", name}, {"point", point}, {"normal", {plane.normal.x(), plane.normal.y(), plane.normal.z()}}};
  r.reject_unknown_keys();
}

void parse_contact(ObjectReader& r, const MultibodyModel& m, const std::map<std::string, int>& bodies,
                   const std::map<std::string, Plane>& planes, Contact& c, json& out) {
  const std::string type = r.string("type");
  out = json{{"type", type}};
  const auto kind = value_in(contact_type_names, type);
  if (!kind) r.fail("type", "unknown contact type \"" + type + "\"; expected " + names_in(contact_type_names));
  c.type = *kind;
  if (c.type == ContactType::sphere_plane) {
    const std::string body = r.string("body");
    c.body[0] = body_index(r, "body", body, bodies);
    const Joint joint = m.bodies[c.body[0]].joint;
    c.at[0] = point(r, "at", joint);
    c.radius[0] = r.number("radius", Bound::nonnegative);
    c.law.radius = c.radius[0];
    out["body"] = body;
    out["at"] = to_json(c.at[0], joint);
    out["radius"] = c.radius[0];
    if (r.has("plane")) {  // else the ground, y = 0
      const std::string name = r.string("plane");
      const auto it = planes.find(name);
      if (it == planes.end()) r.fail("plane", "no plane named \"" + name + "\" in /planes");
      c.plane_point = it->second.point;
      c.plane_normal = it->second.normal;
      out["plane"] = name;
    }
  } else {
    if (r.has("plane")) r.fail("plane", "applies to sphere_plane contacts only");
    const json& names = r.raw("bodies");
    if (!names.is_array() || names.size() != 2 || !names[0].is_string() || !names[1].is_string())
      r.fail("bodies", "must be an array of two body names (got " + show(names) + ")");
    c.body[0] = body_index(r, "bodies", names[0].get<std::string>(), bodies);
    // B may be the world: a sphere fixed in it, its centre given in world coordinates.
    const bool fixed = names[1].get<std::string>() == world_name;
    c.body[1] = fixed ? ground_index : body_index(r, "bodies", names[1].get<std::string>(), bodies);
    if (c.body[0] == c.body[1]) r.fail("bodies", "a contact needs two different bodies (got " + show(names) + ")");
    const json& at = r.raw("at");
    if (!at.is_array() || at.size() != 2) r.fail("at", "must be [pA, pB], one point per body (got " + show(at) + ")");
    json at_out = json::array();
    for (int s = 0; s < 2; ++s) {
      const Joint joint = s == 1 && fixed ? Joint::free : m.bodies[c.body[s]].joint;  // world points are 3-D
      const bool vertical_3d = joint == Joint::vertical && at[s].is_array() && at[s].size() == 3;
      const std::size_t n = joint == Joint::free || vertical_3d ? 3 : 2;
      const bool ok = at[s].is_array() && at[s].size() == n &&
                      std::all_of(at[s].begin(), at[s].end(), [](const json& e) { return e.is_number(); });
      if (!ok)
        r.fail("at", "point " + std::to_string(s) + " must be an array of " + std::to_string(n) + " numbers for " +
                         (s == 1 && fixed ? std::string("the world") : "a " + std::string(to_string(joint)) + " body") +
                         " (got " + show(at[s]) + ")");
      c.at[s] = {at[s][0].get<double>(), at[s][1].get<double>(), n == 3 ? at[s][2].get<double>() : 0.0};
      at_out.push_back(to_json(c.at[s], joint));
    }
    const auto radius = numbers(r, "radius", 2);
    if (!(radius[0] >= 0.0 && radius[1] >= 0.0)) r.fail("radius", "must be >= 0 (got " + show(r.raw("radius")) + ")");
    c.radius = {radius[0], radius[1]};
    c.law.radius = sphere_pair_radius(radius[0], radius[1]);
    out["bodies"] = names;
    out["at"] = at_out;
    out["radius"] = radius;
  }
  c.count = static_cast<int>(r.optional_integer("count", 1, max_count).value_or(1));
  out["count"] = c.count;
  if (r.has("name")) {
    c.name = r.string("name");
    out["name"] = c.name;
  }
  parse_contact_law(r, c.law, Echo(out));
  parse_friction(r, c.law.friction, Echo(out));
  // Laws built on Hertz take a modulus and need a sphere.
  if (c.law.effective_modulus > 0.0 && !(c.law.radius > 0.0))
    r.fail("radius", "must be > 0 for the " + std::string(to_string(c.law.kind)) + " law (Hertz contact needs a sphere)");
  r.reject_unknown_keys();
}

}  // namespace

void parse_multibody(ObjectReader& top, double gravity, MultibodyModel& m, std::string& modes_at, Echo out) {
  m.gravity = gravity;
  const json& bodies = top.raw("bodies");
  if (!bodies.is_array() || bodies.empty()) top.fail("bodies", "must be a non-empty array of bodies (got " + show(bodies) + ")");
  std::map<std::string, int> index;
  json bodies_out = json::array();
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    ObjectReader r(bodies[i], top.path_of("bodies") + "/" + std::to_string(i), top.file());
    Body b;
    json body_out;
    parse_body(r, b, body_out);
    if (index.count(b.name)) r.fail("name", "\"" + b.name + "\" names another body too");
    index[b.name] = static_cast<int>(i);
    m.bodies.push_back(b);
    bodies_out.push_back(std::move(body_out));
  }
  out["bodies"] = std::move(bodies_out);
  m.finalize();

  std::map<std::string, Plane> planes;
  if (top.has("planes")) {
    const json& list = top.raw("planes");
    if (!list.is_array()) top.fail("planes", "must be an array of planes (got " + show(list) + ")");
    json planes_out = json::array();
    for (std::size_t i = 0; i < list.size(); ++i) {
      ObjectReader r(list[i], top.path_of("planes") + "/" + std::to_string(i), top.file());
      std::string name;
      Plane plane;
      json plane_out;
      parse_plane(r, name, plane, plane_out);
      if (planes.count(name)) r.fail("name", "\"" + name + "\" names another plane too");
      planes[name] = plane;
      planes_out.push_back(std::move(plane_out));
    }
    out["planes"] = std::move(planes_out);
  }

  const json& contacts = top.raw("contacts");
  if (!contacts.is_array() || contacts.empty())
    top.fail("contacts", "must be a non-empty array of contacts (got " + show(contacts) + ")");
  json contacts_out = json::array();
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    ObjectReader r(contacts[i], top.path_of("contacts") + "/" + std::to_string(i), top.file());
    Contact c;
    c.name = "contact" + std::to_string(i);
    json contact_out;
    parse_contact(r, m, index, planes, c, contact_out);
    m.contacts.push_back(c);
    contacts_out.push_back(std::move(contact_out));
  }
  out["contacts"] = std::move(contacts_out);

  // Default L: the first contact's sphere radius; for point contacts, its
  // distance from the body's centre; else 1 m.
  const Contact& first = m.contacts.front();
  const double fallback = first.law.radius > 0.0 ? first.law.radius : first.at[0].norm() > 0.0 ? first.at[0].norm() : 1.0;
  m.characteristic_length = top.optional_number("characteristic_length", Bound::positive).value_or(fallback);
  out["characteristic_length"] = m.characteristic_length;

  modes_at = top.optional_string("modes_at").value_or("equilibrium");
  if (modes_at != "equilibrium" && modes_at != "initial")
    top.fail("modes_at", "must be \"equilibrium\" or \"initial\" (got \"" + modes_at + "\")");
  out["modes_at"] = modes_at;
}

}  // namespace dropsim::io
