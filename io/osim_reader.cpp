// The OpenSim model reader on pugixml: frames resolved by component path,
// joints turned into spatial transforms, contact forces into laws with
// OpenSim's defaults for absent elements (docs/interface.md#opensim-models).
#include "dropsim/io/osim_reader.hpp"

#include <pugixml.hpp>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <iterator>
#include <numbers>
#include <set>
#include <sstream>

#include "dropsim/io/input_error.hpp"
#include "dropsim/io/input_file.hpp"
#include "dropsim/io/osim_contact_reader.hpp"
#include "dropsim/io/osim_transforms.hpp"
#include "dropsim/sim/combining.hpp"
#include "dropsim/sim/format.hpp"
#include "dropsim/sim/rigid_inertia.hpp"

namespace dropsim::io {

const OsimParameter* OsimParameterSet::find(const std::string& element) const {
  for (const auto& p : parameters)
    if (p.element == element) return &p;
  return nullptr;
}

double OsimParameterSet::value(const std::string& element) const {
  const OsimParameter* p = find(element);
  if (!p) throw std::out_of_range("no parameter " + element);
  return p->value;
}

namespace {

using namespace osim;

struct FrameEntry {
  xml_node node;
  std::optional<Attachment> resolved;  // bodies and ground at once; offsets on demand
  bool resolving = false;
};

class Reader {
 public:
  Reader(const Document& doc, OsimModel& out) : doc_(doc), out_(out), model_(out.model) {}

  void read() {
    const xml_node root = doc_.doc().child("OpenSimDocument");
    if (!root) fail_root("the root element must be <OpenSimDocument>");
    out_.version = root.attribute("Version").as_int(0);
    const xml_node m = root.child("Model");
    if (!m) doc_.fail(root, "must contain a <Model>");
    model_.name = m.attribute("name").value();
    out_.legacy = !child(m, "JointSet");
    read_gravity(m);
    read_bodies(m);
    read_frames(m);
    read_joints(m);
    order_joints();
    const FrameLookup frames{[this](const xml_node& r, const std::string& s, const std::string& from) { return resolve_frame(r, s, from); },
                             [this](const xml_node& r, const std::string& name) { return body_named(r, name); }};
    read_contact(doc_, m, frames, out_, skipped_);
    summarise_skipped(m);
  }

 private:
  [[noreturn]] void fail_root(const std::string& rule) const { throw InputError(doc_.file(), "/", rule); }

  void read_gravity(const xml_node& m) {
    const xml_node g = child(m, "gravity");
    out_.gravity_given = static_cast<bool>(g);
    if (g) {
      const auto v = doc_.numbers(g, 3);
      model_.gravity = {v[0], v[1], v[2]};
    }
  }

  // Bodies: 4.x BodySet, or 2.x/3.x BodySet whose "ground" body is the ground.
  void read_bodies(const xml_node& m) {
    const xml_node set = child(m, "BodySet");
    if (!set) doc_.fail(m, "has no <BodySet>");
    for (xml_node b : child(set, "objects").children("Body")) {
      const std::string name = b.attribute("name").value();
      if (name.empty()) doc_.fail(b, "a body needs a name");
      if (out_.legacy && name == "ground") {
        ground_names_.insert("ground");
        legacy_body_nodes_.push_back({b, ground_body});
        continue;
      }
      ArticulatedBody body{name};
      const xml_node mass = child(b, "mass");
      if (!mass) doc_.fail(b, "body " + name + " has no <mass>; OpenSim's default is NaN, which no simulation can use");
      body.mass = doc_.number(mass);
      if (!(body.mass >= 0.0)) doc_.fail(mass, "mass must be >= 0 (got " + trimmed(mass.child_value()) + ")");
      body.mass_centre = doc_.vec3_or(b, "mass_center", Eigen::Vector3d::Zero());
      Eigen::Matrix<double, 6, 1> i6 = Eigen::Matrix<double, 6, 1>::Zero();  // xx yy zz xy xz yz
      if (const xml_node inertia = child(b, "inertia")) {
        const auto v = doc_.numbers(inertia, 6);
        for (int k = 0; k < 6; ++k) i6[k] = v[static_cast<std::size_t>(k)];
      } else {
        const char* names[] = {"inertia_xx", "inertia_yy", "inertia_zz", "inertia_xy", "inertia_xz", "inertia_yz"};
        for (int k = 0; k < 6; ++k) i6[k] = doc_.number_or(b, names[k], 0.0);
      }
      body.inertia << i6[0], i6[3], i6[4], i6[3], i6[1], i6[5], i6[4], i6[5], i6[2];
      if (const std::string defect = body.mass > 0.0 ? inertia_defect(body.inertia) : ""; !defect.empty())
        doc_.fail(b, "the inertia of body " + name + " cannot be simulated: " + defect);
      if (const std::string odd = body.mass > 0.0 ? triangle_inequality_defect(body.inertia) : ""; !odd.empty())
        out_.warnings.push_back(doc_.path(b) + ": the inertia of body " + name + " is no rigid body's: " + odd +
                                "; OpenSim runs it, and so does dropsim");
      body_index_[name] = static_cast<int>(model_.bodies.size());
      legacy_body_nodes_.push_back({b, static_cast<int>(model_.bodies.size())});
      model_.bodies.push_back(body);
    }
    if (const xml_node ground = child(m, "Ground")) {
      const std::string name = ground.attribute("name").value();
      ground_names_.insert(name.empty() ? "ground" : name);
    }
    ground_names_.insert("ground");
  }

  // Frames by component path: ground, bodies, and every PhysicalOffsetFrame.
  void read_frames(const xml_node& m) {
    for (const auto& name : ground_names_) frames_["/" + name] = {{}, Attachment{}, false};
    for (const auto& [name, index] : body_index_) {
      FrameEntry e;
      e.resolved = Attachment{index, Eigen::Isometry3d::Identity()};
      frames_["/bodyset/" + name] = e;
      const xml_node set = child(m, "BodySet");
      const std::string set_name = set.attribute("name").value();
      if (!set_name.empty() && set_name != "bodyset") frames_["/" + set_name + "/" + name] = e;
    }
    std::function<void(const xml_node&)> walk = [&](const xml_node& n) {
      for (xml_node c = n.first_child(); c; c = c.next_sibling()) {
        if (c.type() != pugi::node_element) continue;
        if (local_name(c) == "PhysicalOffsetFrame") frames_[component_path(c)] = {c, std::nullopt, false};
        walk(c);
      }
    };
    walk(m);
  }

  Attachment resolve_frame(const xml_node& referrer, const std::string& socket, const std::string& from) {
    const std::string path = resolve_path(from, socket);
    auto it = frames_.find(path);
    if (it == frames_.end()) {
      // A bare body name, as some files write it.
      const auto body = body_index_.find(socket);
      if (body != body_index_.end()) return {body->second, Eigen::Isometry3d::Identity()};
      if (ground_names_.count(socket)) return {};
      doc_.fail(referrer, "names frame \"" + socket + "\", which is not in the model (looked for " + path + ")");
    }
    FrameEntry& e = it->second;
    if (e.resolved) return *e.resolved;
    if (e.resolving) doc_.fail(e.node, "frames refer to each other in a loop");
    e.resolving = true;
    const xml_node parent = child(e.node, "socket_parent");
    if (!parent) doc_.fail(e.node, "a PhysicalOffsetFrame needs <socket_parent>");
    const Attachment base = resolve_frame(parent, trimmed(parent.child_value()), component_path(e.node));
    const Eigen::Isometry3d offset = offset_transform(doc_.vec3_or(e.node, "translation", Eigen::Vector3d::Zero()),
                                                      doc_.vec3_or(e.node, "orientation", Eigen::Vector3d::Zero()));
    e.resolved = Attachment{base.body, base.in_body * offset};
    e.resolving = false;
    return *e.resolved;
  }

  int body_named(const xml_node& referrer, const std::string& name) {
    if (ground_names_.count(name)) return ground_body;
    const auto it = body_index_.find(name);
    if (it == body_index_.end()) doc_.fail(referrer, "names body \"" + name + "\", which is not in the model");
    return it->second;
  }

  void read_joints(const xml_node& m) {
    if (!out_.legacy) {
      for (xml_node j = child(child(m, "JointSet"), "objects").first_child(); j; j = j.next_sibling())
        if (j.type() == pugi::node_element) read_joint_4x(j);
      return;
    }
    for (const auto& [b, index] : legacy_body_nodes_) {
      xml_node holder = child(b, "Joint");
      if (!holder) holder = child(b, "joint");
      if (!holder) continue;
      for (xml_node j = holder.first_child(); j; j = j.next_sibling())
        if (j.type() == pugi::node_element) read_joint_legacy(j, index);
    }
  }

  void check_joint_type(const xml_node& j) const {
    const std::string tag = local_name(j);
    if (!is_joint_type(tag))
      doc_.fail(j, "joint type " + tag + " is not one dropsim reads (it reads FreeJoint, BallJoint, GimbalJoint, UniversalJoint, PinJoint, SliderJoint, PlanarJoint, WeldJoint and CustomJoint)");
  }

  void read_joint_4x(const xml_node& j) {
    check_joint_type(j);
    ArticulatedJoint joint;
    joint.name = j.attribute("name").value();
    joint.type = local_name(j);
    const std::string here = component_path(j);
    const xml_node parent = child(j, "socket_parent_frame"), child_socket = child(j, "socket_child_frame");
    if (!parent || !child_socket) doc_.fail(j, "a joint needs <socket_parent_frame> and <socket_child_frame>");
    const Attachment p = resolve_frame(parent, trimmed(parent.child_value()), here);
    const Attachment c = resolve_frame(child_socket, trimmed(child_socket.child_value()), here);
    if (c.body == ground_body) doc_.fail(child_socket, "the child frame of a joint must be on a body, not the ground");
    joint.parent = p.body;
    joint.parent_frame = p.in_body;
    joint.child = c.body;
    joint.child_frame = c.in_body;
    std::vector<xml_node> coordinates;
    for (xml_node k : child(j, "coordinates").children("Coordinate")) coordinates.push_back(k);
    finish_joint(j, joint, coordinates);
  }

  void read_joint_legacy(const xml_node& j, int child_body) {
    check_joint_type(j);
    if (child_body == ground_body) doc_.fail(j, "the ground cannot be the child of a joint");
    if (doc_.boolean_or(j, "reverse", false)) doc_.fail(j, "reversed joints are not read");
    ArticulatedJoint joint;
    joint.name = j.attribute("name").value();
    joint.type = local_name(j);
    const xml_node parent = child(j, "parent_body");
    if (!parent) doc_.fail(j, "a joint needs <parent_body>");
    joint.parent = body_named(parent, trimmed(parent.child_value()));
    joint.parent_frame = offset_transform(doc_.vec3_or(j, "location_in_parent", Eigen::Vector3d::Zero()),
                                          doc_.vec3_or(j, "orientation_in_parent", Eigen::Vector3d::Zero()));
    joint.child = child_body;
    joint.child_frame = offset_transform(doc_.vec3_or(j, "location", Eigen::Vector3d::Zero()),
                                         doc_.vec3_or(j, "orientation", Eigen::Vector3d::Zero()));
    std::vector<xml_node> coordinates;
    for (xml_node k : child(child(j, "CoordinateSet"), "objects").children("Coordinate")) coordinates.push_back(k);
    finish_joint(j, joint, coordinates);
  }

  // Coordinates, then the spatial transform: a built-in joint's fixed axes or a CustomJoint's.
  // The deprecated <motion_type>: OpenSim 4 takes a coordinate's motion from
  // its joint (as finish_joint does after this); a value it does not know is an error.
  bool motion_type(const xml_node& coordinate) const {
    const xml_node e = child(coordinate, "motion_type");
    if (!e) return true;
    const std::string v = trimmed(e.child_value());
    if (v != "rotational" && v != "translational" && v != "coupled")
      doc_.fail(e, "motion_type must be rotational, translational or coupled (got \"" + v + "\")");
    return v != "translational";
  }

  void finish_joint(const xml_node& j, ArticulatedJoint& joint, const std::vector<xml_node>& coordinates) {
    const int joint_index = static_cast<int>(model_.joints.size());
    std::vector<int> indices;
    for (const xml_node& k : coordinates) {
      GeneralisedCoordinate c;
      c.name = k.attribute("name").value();
      if (c.name.empty()) doc_.fail(k, "a coordinate needs a name");
      if (coordinate_index_.count(c.name)) doc_.fail(k, "a second coordinate named " + c.name);
      c.joint = joint_index;
      c.default_value = doc_.number_or(k, "default_value", 0.0);
      c.default_speed = doc_.number_or(k, "default_speed_value", 0.0);
      c.locked = doc_.boolean_or(k, "locked", false);
      c.rotational = motion_type(k);
      coordinate_index_[c.name] = static_cast<int>(model_.coordinates.size());
      indices.push_back(static_cast<int>(model_.coordinates.size()));
      model_.coordinates.push_back(c);
    }
    if (joint.type == "CustomJoint") {
      read_spatial_transform(j, joint);
    } else {
      const auto& table = built_in_joints();
      const auto it = std::find_if(table.begin(), table.end(), [&](const BuiltInJoint& b) { return joint.type == b.type; });
      if (indices.size() != it->axes.size())
        doc_.fail(j, "a " + joint.type + " has " + std::to_string(it->axes.size()) + " coordinates (the file gives " +
                         std::to_string(indices.size()) + ")");
      for (std::size_t i = 0; i < indices.size(); ++i) {
        TransformAxis axis;
        axis.axis = Eigen::Vector3d::Unit(it->axes[i].second);
        axis.coordinate = indices[i];
        axis.function = CoordinateFunction::linear(1.0, 0.0);
        (it->axes[i].first ? joint.rotations : joint.translations).push_back(axis);
        model_.coordinates[static_cast<std::size_t>(indices[i])].rotational = it->axes[i].first;
      }
    }
    if (joint_for_child_.count(joint.child))
      doc_.fail(j, "body " + model_.bodies[static_cast<std::size_t>(joint.child)].name + " is the child of a second joint (closed loops are not read)");
    joint_for_child_[joint.child] = joint_index;
    model_.joints.push_back(joint);
  }

  void read_spatial_transform(const xml_node& j, ArticulatedJoint& joint) {
    const xml_node st = child(j, "SpatialTransform");
    if (!st) doc_.fail(j, "a CustomJoint needs a <SpatialTransform>");
    int rotations = 0, translations = 0;
    for (xml_node a : st.children()) {
      if (a.type() != pugi::node_element) continue;
      if (local_name(a) != "TransformAxis") doc_.fail(a, "a SpatialTransform holds TransformAxis elements only");
      const std::string name = a.attribute("name").value();
      const bool rotation = name.rfind("rotation", 0) == 0;
      if (!rotation && name.rfind("translation", 0) != 0)
        doc_.fail(a, "a TransformAxis is named rotation1-3 or translation1-3 (got \"" + name + "\")");
      (rotation ? rotations : translations)++;
      TransformAxis axis;
      const xml_node axis_element = child(a, "axis");
      if (!axis_element) doc_.fail(a, "a TransformAxis needs an <axis>");
      axis.axis = doc_.vec3_or(a, "axis", Eigen::Vector3d::UnitX());
      if (!(axis.axis.norm() > 0.0)) doc_.fail(axis_element, "the axis must not be zero");
      axis.axis.normalize();
      const std::vector<std::string> names = words(doc_.text_or(a, "coordinates"));
      if (names.size() > 1) doc_.fail(a, "functions of several coordinates are not read (got " + std::to_string(names.size()) + ")");
      if (names.size() == 1) {
        const auto it = coordinate_index_.find(names[0]);
        if (it == coordinate_index_.end()) doc_.fail(a, "names coordinate \"" + names[0] + "\", which the joint does not have");
        axis.coordinate = it->second;
        model_.coordinates[static_cast<std::size_t>(it->second)].rotational = rotation;
      }
      xml_node f = child(a, "function");
      if (f) {
        xml_node inner;
        for (xml_node c = f.first_child(); c; c = c.next_sibling())
          if (c.type() == pugi::node_element) inner = c;
        f = inner;
      } else {
        for (xml_node c = a.first_child(); c; c = c.next_sibling())
          if (c.type() == pugi::node_element && function_types().count(local_name(c))) f = c;
      }
      // OpenSim: no function with one coordinate moves the axis by the coordinate itself.
      axis.function = f ? read_function(doc_, f) : names.empty() ? CoordinateFunction::constant(0.0) : CoordinateFunction::linear(1.0, 0.0);
      if (axis.coordinate < 0 && !axis.function.is_constant()) doc_.fail(a, "a function of no coordinate must be a constant");
      (rotation ? joint.rotations : joint.translations).push_back(axis);
    }
    if (rotations > 3 || translations > 3) doc_.fail(st, "a SpatialTransform has at most three rotations and three translations");
  }

  // Parents before children, from the ground out; every body on a joint.
  void order_joints() {
    std::vector<ArticulatedJoint> ordered;
    std::vector<bool> placed(model_.bodies.size(), false), used(model_.joints.size(), false);
    for (bool progress = true; progress;) {
      progress = false;
      for (std::size_t i = 0; i < model_.joints.size(); ++i) {
        const ArticulatedJoint& j = model_.joints[i];
        if (used[i] || (j.parent != ground_body && !placed[static_cast<std::size_t>(j.parent)])) continue;
        used[i] = placed[static_cast<std::size_t>(j.child)] = progress = true;
        ordered.push_back(j);
      }
    }
    for (std::size_t b = 0; b < model_.bodies.size(); ++b)
      if (!placed[b])
        throw InputError(doc_.file(), "/OpenSimDocument/Model/BodySet",
                         "body " + model_.bodies[b].name + " is not connected to the ground by joints");
    // Coordinates keep the file's order; their joint indices follow the new order.
    std::map<std::string, int> position;
    for (std::size_t i = 0; i < ordered.size(); ++i) position[ordered[i].name + "#" + std::to_string(ordered[i].child)] = static_cast<int>(i);
    for (auto& c : model_.coordinates) {
      const ArticulatedJoint& old = model_.joints[static_cast<std::size_t>(c.joint)];
      c.joint = position[old.name + "#" + std::to_string(old.child)];
    }
    model_.joints = std::move(ordered);
  }

  // One line: everything in the model dropsim does not represent, by type.
  void summarise_skipped(const xml_node& m) {
    for (const char* set : {"ConstraintSet", "ControllerSet", "MarkerSet", "ProbeSet"}) {
      for (xml_node o = child(child(m, set), "objects").first_child(); o; o = o.next_sibling())
        if (o.type() == pugi::node_element) skipped_[local_name(o)]++;
    }
    std::string line;
    for (const auto& [type, count] : skipped_) line += (line.empty() ? "" : ", ") + std::to_string(count) + " " + type;
    out_.skipped = line;
  }

  const Document& doc_;
  OsimModel& out_;
  ArticulatedModel& model_;
  std::set<std::string> ground_names_;
  std::map<std::string, int> body_index_, coordinate_index_, skipped_;
  std::map<int, int> joint_for_child_;
  std::vector<std::pair<xml_node, int>> legacy_body_nodes_;
  std::map<std::string, FrameEntry> frames_;
};

}  // namespace

OsimModel read_osim(const std::string& path) {
  return read_osim_bytes(path, read_input_file(path, "an OpenSim model file"));
}

OsimModel read_osim_bytes(const std::string& name, std::string bytes) {
  const Document doc(name, std::move(bytes));
  OsimModel out;
  out.file = name;
  out.bytes = doc.bytes();
  Reader(doc, out).read();
  return out;
}

}  // namespace dropsim::io
