// Contact geometry and forces of an OpenSim model: every two surfaces of a
// HuntCrossleyForce on different bodies are a pair, as Simbody's contact
// tracker makes them; each surface's parameters combine.
#include "dropsim/io/osim_contact_reader.hpp"

#include "dropsim/sim/combining.hpp"
#include "dropsim/sim/format.hpp"

namespace dropsim::io::osim {

namespace {

class ContactReader {
 public:
  ContactReader(const Document& doc, const FrameLookup& frames, OsimModel& out, std::map<std::string, int>& skipped)
      : doc_(doc), frames_(frames), out_(out), model_(out.model), skipped_(skipped) {}

  // Contact geometry lives in the ContactGeometrySet and, in 4.x, among any
  // component's <components> (a sphere listed with its body); each is known by
  // its component path (/contactgeometryset/heel_r).
  void read_geometry(const xml_node& m) {
    if (const xml_node set = child(m, "ContactGeometrySet"))
      for (xml_node g = child(set, "objects").first_child(); g; g = g.next_sibling())
        if (g.type() == pugi::node_element) read_surface(g, true);
    const std::function<void(const xml_node&)> walk = [&](const xml_node& n) {
      for (xml_node c = n.first_child(); c; c = c.next_sibling()) {
        if (c.type() != pugi::node_element || local_name(c) == "ContactGeometrySet") continue;
        if (local_name(n) == "components" && is_contact_geometry(local_name(c))) read_surface(c, false);
        else walk(c);
      }
    };
    walk(m);
  }

  static bool is_contact_geometry(const std::string& type) {
    return type == "ContactSphere" || type == "ContactHalfSpace" || type == "ContactMesh" || type == "ContactCylinder" ||
           type == "ContactEllipsoid" || type == "ContactBrick" || type == "ContactTorus";
  }

  void read_surface(const xml_node& g, bool in_set) {
    const std::string type = local_name(g), name = g.attribute("name").value();
    if (type != "ContactSphere" && type != "ContactHalfSpace")
      doc_.fail(g, "contact geometry " + type + " is not one dropsim reads (it reads ContactSphere and ContactHalfSpace)");
    if (name.empty()) doc_.fail(g, "contact geometry needs a name");
    const std::string path = component_path(g);
    if (const auto seen = geometry_.find(path); seen != geometry_.end())
      doc_.fail(g, "a second contact geometry at " + path + " (the first is at line " +
                       std::to_string(doc_.line_of(static_cast<std::size_t>(seen->second.node.offset_debug()))) + ")");
    Attachment at;
    if (const xml_node frame = child(g, "socket_frame")) {
      at = frames_.frame(frame, trimmed(frame.child_value()), path);
    } else if (const xml_node body = child(g, "body_name")) {
      at.body = frames_.body(body, trimmed(body.child_value()));
    } else {
      doc_.fail(g, "contact geometry needs <socket_frame> or <body_name>");
    }
    const Eigen::Isometry3d local = at.in_body * offset_transform(doc_.vec3_or(g, "location", Eigen::Vector3d::Zero()),
                                                                  doc_.vec3_or(g, "orientation", Eigen::Vector3d::Zero()));
    Surface surface{g, type == "ContactSphere", 0, in_set};
    if (surface.sphere) {
      ContactSphereGeometry s;
      s.name = name;
      s.body = at.body;
      s.centre = local.translation();
      const xml_node radius = child(g, "radius");
      if (!radius) doc_.fail(g, "a ContactSphere needs a <radius>");
      s.radius = doc_.number(radius);
      if (!(s.radius > 0.0)) doc_.fail(radius, "the radius must be > 0 (got " + trimmed(radius.child_value()) + ")");
      surface.index = static_cast<int>(model_.spheres.size());
      model_.spheres.push_back(s);
    } else {
      ContactHalfSpaceGeometry h;
      h.name = name;
      h.body = at.body;
      h.frame = local;
      surface.index = static_cast<int>(model_.half_spaces.size());
      model_.half_spaces.push_back(h);
    }
    geometry_.emplace(path, surface);
  }

  // Reads `element` of `owner` with OpenSim's default when absent; records where it is.
  OsimParameter parameter(const xml_node& owner, const std::string& element, double fallback, const xml_node& anchor,
                          bool positive = false) {
    OsimParameter p;
    p.element = element;
    const xml_node e = child(owner, element);
    p.defaulted = !e;
    p.value = e ? doc_.number(e) : fallback;
    if (e && (positive ? !(p.value > 0.0) : !(p.value >= 0.0)))
      doc_.fail(e, element + " must be " + (positive ? "> 0" : ">= 0") + " (got " + trimmed(e.child_value()) + ")");
    if (!e && positive && !(p.value > 0.0))
      doc_.fail(owner, "has no <" + element + ">, and OpenSim's default " + significant(fallback, 6) + " would make the contact push nothing");
    p.site = doc_.site(e, anchor);
    return p;
  }

  // A HuntCrossleyForce names its geometry as OpenSim looks it up: by name in
  // the ContactGeometrySet.
  std::pair<bool, int> set_geometry(const xml_node& referrer, const std::string& name) const {
    const auto it = geometry_.find("/contactgeometryset/" + name);
    if (it == geometry_.end() || !it->second.in_set)
      doc_.fail(referrer, "names contact geometry \"" + name + "\", which is not in the ContactGeometrySet");
    return {it->second.sphere, it->second.index};
  }

  // A socket names its geometry by component path, absolute or relative to the
  // force; a bare name, as some files write it, must name exactly one geometry.
  std::pair<bool, int> socket_geometry(const xml_node& socket, const std::string& from) const {
    const std::string text = trimmed(socket.child_value());
    const std::string path = resolve_path(from, text);
    if (const auto it = geometry_.find(path); it != geometry_.end()) return {it->second.sphere, it->second.index};
    if (text.find('/') == std::string::npos) {
      const Surface* found = nullptr;
      for (const auto& [where, surface] : geometry_) {
        if (where.substr(where.find_last_of('/') + 1) != text) continue;
        if (found) doc_.fail(socket, "names contact geometry \"" + text + "\", and several geometries have that name; give its path");
        found = &surface;
      }
      if (found) return {found->sphere, found->index};
    }
    doc_.fail(socket, "names contact geometry \"" + text + "\", which is not in the model (looked for " + path + ")");
  }

  // Forces live in the ForceSet, and in 4.x also among the model's own components.
  void read_forces(const xml_node& m) {
    for (const xml_node& list : {child(child(m, "ForceSet"), "objects"), child(m, "components")})
      for (xml_node f = list.first_child(); f; f = f.next_sibling()) {
        if (f.type() != pugi::node_element) continue;
        const std::string type = local_name(f);
        if (type != "HuntCrossleyForce" && type != "SmoothSphereHalfSpaceForce") {
          if (type != "PhysicalOffsetFrame") skipped_[type]++;
        } else if (disabled(f)) {
          skipped_["disabled " + type]++;
        } else {
          OsimContactForce force;
          force.name = f.attribute("name").value();
          force.type = type;
          force.path = doc_.path(f);
          if (type == "HuntCrossleyForce") read_hunt_crossley(f, force);
          else read_smooth(f, force);
          out_.forces.push_back(force);
        }
      }
  }

  bool disabled(const xml_node& f) const {
    return doc_.boolean_or(f, "isDisabled", false) || !doc_.boolean_or(f, "appliesForce", true);
  }

  Friction friction_of(const OsimParameterSet& s, double transition_velocity) const {
    Friction fr;
    fr.static_coefficient = s.value("static_friction");
    fr.dynamic_coefficient = s.value("dynamic_friction");
    fr.viscous_coefficient = s.value("viscous_friction");
    fr.transition_velocity = transition_velocity;
    return fr;
  }

  void check_friction(const xml_node& f, const Friction& fr) const {
    if (fr.acts() && !(fr.transition_velocity > 0.0)) doc_.fail(f, "friction needs transition_velocity > 0");
  }

  // Simbody's HuntCrossleyForce: every two surfaces of the force's geometry on
  // different bodies meet, sphere on half-space and sphere on sphere; each
  // surface brings its own parameters and the pair combines them
  // (docs/physics.md#opensim-contact-pairs, #combining-rules).
  void read_hunt_crossley(const xml_node& f, OsimContactForce& force) {
    force.transition_velocity = doc_.number_or(f, "transition_velocity", 0.01);
    std::vector<std::pair<std::pair<bool, int>, std::size_t>> surfaces;  // geometry, its set
    for (xml_node p : child(child(f, "ContactParametersSet"), "objects").children()) {
      if (p.type() != pugi::node_element) continue;
      if (local_name(p) != "ContactParameters") doc_.fail(p, "a ContactParametersSet holds ContactParameters only");
      OsimParameterSet set;
      set.path = doc_.path(p);
      set.geometry = words(doc_.text_or(p, "geometry"));
      if (set.geometry.empty()) doc_.fail(p, "ContactParameters names no <geometry>");
      const xml_node anchor = child(p, "geometry");
      set.parameters = {parameter(p, "stiffness", 0.0, anchor, true), parameter(p, "dissipation", 0.0, anchor),
                        parameter(p, "static_friction", 0.0, anchor), parameter(p, "dynamic_friction", 0.0, anchor),
                        parameter(p, "viscous_friction", 0.0, anchor)};
      for (const auto& g : set.geometry) surfaces.push_back({set_geometry(anchor, g), force.sets.size()});
      force.sets.push_back(set);
    }
    if (force.sets.empty()) doc_.fail(f, "a HuntCrossleyForce needs ContactParameters");
    const auto body_of = [&](const std::pair<bool, int>& g) {
      return g.first ? model_.spheres[static_cast<std::size_t>(g.second)].body : model_.half_spaces[static_cast<std::size_t>(g.second)].body;
    };
    const auto name_of = [&](const std::pair<bool, int>& g) {
      return g.first ? model_.spheres[static_cast<std::size_t>(g.second)].name : model_.half_spaces[static_cast<std::size_t>(g.second)].name;
    };
    // Every two surfaces on different bodies, in the order listed: a sphere
    // first, then a half-space or a later sphere (two half-spaces make no pair).
    for (std::size_t i = 0; i < surfaces.size(); ++i)
      for (std::size_t j = 0; j < surfaces.size(); ++j) {
        const auto& [first, first_set] = surfaces[i];
        const auto& [second, second_set] = surfaces[j];
        if (!first.first || (second.first && j <= i) || body_of(first) == body_of(second)) continue;
        const OsimParameterSet &a = force.sets[first_set], &b = force.sets[second_set];
        const double ea = a.value("stiffness"), eb = b.value("stiffness");
        ContactPair c;
        c.name = force.name + ":" + name_of(first) + "-" + name_of(second);
        c.sphere = first.second;
        const double r1 = model_.spheres[static_cast<std::size_t>(first.second)].radius;
        if (second.first) {
          c.other_sphere = second.second;
          c.law.radius = sphere_pair_radius(r1, model_.spheres[static_cast<std::size_t>(second.second)].radius);
        } else {
          c.half_space = second.second;
          c.law.radius = r1;
        }
        c.law.kind = ContactLawKind::hunt_crossley;
        c.law.effective_modulus = sherman_composite(ea, eb);
        c.law.dissipation = sherman_dissipation(ea, eb, a.value("dissipation"), b.value("dissipation"));
        c.law.friction.static_coefficient = sherman_friction(a.value("static_friction"), b.value("static_friction"));
        c.law.friction.dynamic_coefficient = sherman_friction(a.value("dynamic_friction"), b.value("dynamic_friction"));
        c.law.friction.viscous_coefficient = sherman_friction(a.value("viscous_friction"), b.value("viscous_friction"));
        c.law.friction.transition_velocity = force.transition_velocity;
        check_friction(f, c.law.friction);
        force.contacts.push_back(static_cast<int>(model_.contacts.size()));
        model_.contacts.push_back(c);
      }
    // One pair: it takes the force's name, as the force is that contact.
    if (force.contacts.size() == 1) model_.contacts[static_cast<std::size_t>(force.contacts.front())].name = force.name;
  }

  void read_smooth(const xml_node& f, OsimContactForce& force) {
    const xml_node sphere_socket = child(f, "socket_sphere"), plane_socket = child(f, "socket_half_space");
    if (!sphere_socket || !plane_socket) doc_.fail(f, "a SmoothSphereHalfSpaceForce needs <socket_sphere> and <socket_half_space>");
    const std::string here = component_path(f);
    const auto sphere = socket_geometry(sphere_socket, here);
    const auto plane = socket_geometry(plane_socket, here);
    if (!sphere.first) doc_.fail(sphere_socket, "socket_sphere must name a ContactSphere");
    if (plane.first) doc_.fail(plane_socket, "socket_half_space must name a ContactHalfSpace");
    // The anchor for inserted elements: the last parameter element the file has.
    xml_node anchor = plane_socket;
    for (const char* e : {"stiffness", "dissipation", "static_friction", "dynamic_friction", "viscous_friction",
                          "transition_velocity", "constant_contact_force", "hertz_smoothing", "hunt_crossley_smoothing"})
      if (const xml_node n = child(f, e)) anchor = n;
    OsimParameterSet set;
    set.path = force.path;
    set.geometry = {model_.spheres[static_cast<std::size_t>(sphere.second)].name, model_.half_spaces[static_cast<std::size_t>(plane.second)].name};
    // OpenSim 4.x's defaults for absent elements.
    set.parameters = {parameter(f, "stiffness", 1.0, anchor, true),
                      parameter(f, "dissipation", 0.0, anchor),
                      parameter(f, "static_friction", 0.0, anchor),
                      parameter(f, "dynamic_friction", 0.0, anchor),
                      parameter(f, "viscous_friction", 0.0, anchor),
                      parameter(f, "transition_velocity", 0.01, anchor),
                      parameter(f, "constant_contact_force", opensim_default_cf, anchor, true),
                      parameter(f, "hertz_smoothing", opensim_default_bd, anchor, true),
                      parameter(f, "hunt_crossley_smoothing", opensim_default_bv, anchor, true)};
    if (child(f, "derivative_smoothing"))
      out_.notes.push_back(force.name + ": derivative_smoothing is obsolete; OpenSim 4 ignores it, and so does dropsim");
    force.transition_velocity = set.value("transition_velocity");
    ContactPair c;
    c.name = force.name;
    c.sphere = sphere.second;
    c.half_space = plane.second;
    c.law.kind = ContactLawKind::smooth_hunt_crossley;
    c.law.radius = model_.spheres[static_cast<std::size_t>(sphere.second)].radius;
    // OpenSim builds k = E^(2/3) / 2 and uses k^(3/2) = E / 2^(3/2): Sherman's rule for two equal surfaces.
    c.law.effective_modulus = effective_modulus(CombiningRule::sherman, set.value("stiffness"));
    c.law.dissipation = set.value("dissipation");
    c.law.cf = set.value("constant_contact_force");
    c.law.bd = set.value("hertz_smoothing");
    c.law.bv = set.value("hunt_crossley_smoothing");
    c.law.friction = friction_of(set, force.transition_velocity);
    check_friction(f, c.law.friction);
    force.sets.push_back(set);
    force.contacts.push_back(static_cast<int>(model_.contacts.size()));
    model_.contacts.push_back(c);
  }

 private:
  const Document& doc_;
  const FrameLookup& frames_;
  OsimModel& out_;
  ArticulatedModel& model_;
  std::map<std::string, int>& skipped_;
  struct Surface {
    xml_node node;
    bool sphere = true;
    int index = 0;        // into the model's spheres or half-spaces
    bool in_set = false;  // listed in the ContactGeometrySet
  };
  std::map<std::string, Surface> geometry_;  // by component path
};

}  // namespace

void read_contact(const Document& doc, const xml_node& m, const FrameLookup& frames, OsimModel& out,
                  std::map<std::string, int>& skipped) {
  ContactReader reader(doc, frames, out, skipped);
  reader.read_geometry(m);
  reader.read_forces(m);
}

}  // namespace dropsim::io::osim
