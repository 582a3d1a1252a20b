"""Parses `dropsim scale --osim` output with expat (a validating XML 1.0 parser;
OpenSim's `Class::Nested` tag names are legal XML 1.0 names but not namespace-
well-formed, so no namespace processing) and prints the contact values as JSON."""
import json
import sys
import xml.parsers.expat


def parse(text):
    root = {"tag": None, "attrs": {}, "children": [], "text": ""}
    stack = [root]

    def start(tag, attrs):
        node = {"tag": tag, "attrs": attrs, "children": [], "text": ""}
        stack[-1]["children"].append(node)
        stack.append(node)

    def end(tag):
        stack.pop()

    def chars(data):
        stack[-1]["text"] += data

    p = xml.parsers.expat.ParserCreate()
    p.StartElementHandler, p.EndElementHandler, p.CharacterDataHandler = start, end, chars
    p.Parse(text, True)
    return root["children"][0]


def walk(node):
    yield node
    for c in node["children"]:
        yield from walk(c)


def child_text(node, tag):
    for n in walk(node):
        if n["tag"] == tag:
            return n["text"].strip()
    return None


doc = parse(sys.stdin.read())
out = {"root": doc["tag"], "spheres": [], "half_spaces": [], "hunt_crossley": [], "smooth": []}
for n in walk(doc):
    if n["tag"] == "ContactSphere":
        out["spheres"].append({"name": n["attrs"]["name"], "radius": float(child_text(n, "radius")),
                               "frame": child_text(n, "socket_frame")})
    elif n["tag"] == "ContactHalfSpace":
        out["half_spaces"].append({"name": n["attrs"]["name"],
                                   "orientation": [float(v) for v in child_text(n, "orientation").split()]})
    elif n["tag"] == "HuntCrossleyForce":
        out["hunt_crossley"].append({k: float(child_text(n, k)) for k in ("stiffness", "dissipation")}
                                    | {"geometry": child_text(n, "geometry").split()})
    elif n["tag"] == "SmoothSphereHalfSpaceForce":
        keys = ("stiffness", "dissipation", "constant_contact_force", "hertz_smoothing", "hunt_crossley_smoothing")
        out["smooth"].append({k: float(child_text(n, k)) for k in keys}
                             | {"sphere": child_text(n, "socket_sphere"), "half_space": child_text(n, "socket_half_space")})
json.dump(out, sys.stdout)
