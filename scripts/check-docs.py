#!/usr/bin/python3
"""Checks that the repository's documentation stands on its own.

    /usr/bin/python3 scripts/check-docs.py [REPO_ROOT]

Fails (exit 1), printing every failure as FILE:LINE: message, when
  - a tracked file outside docs/history* names the old workplace documents
    (the workplace folder, its physics or interface page; see OLD_NAMES)
    instead of docs/;
  - a relative link or #anchor in README.md, docs/*.md or scenarios/**/README.md
    does not resolve to a tracked file (or folder) of the repository, or to a
    heading or <a id="..."> of the markdown file it points into, with GitHub's
    anchor rules (lowercase, punctuation dropped, spaces to '-', -1, -2 ... for
    repeated headings);
  - README.md is longer than 220 lines.
Python 3 standard library only.
"""
import os
import re
import subprocess
import sys

README_MAX_LINES = 220
# Spelled in pieces so that this file does not name them itself.
# The OpenSim models beside a checkout (shared/osim) are test inputs, not documents to cite.
OLD_NAMES = re.compile("sha" + r"red/(?!osim)|" + "PHYS" + r"ICS\.md|" + "INTER" + r"FACE\.md")
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HTML_ID = re.compile(r"<a\s+(?:id|name)=\"([^\"]+)\"", re.I)
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def tracked_files(root):
    out = subprocess.run(["git", "-C", root, "ls-files", "-z"], check=True, capture_output=True).stdout
    return [p for p in out.decode().split("\0") if p]


def outside_fences(lines):
    """Yields (line number, line) of the lines outside fenced code blocks."""
    fence = None
    for number, line in enumerate(lines, 1):
        stripped = line.lstrip()
        if fence is None and (stripped.startswith("```") or stripped.startswith("~~~")):
            fence = stripped[:3]
            continue
        if fence is not None:
            if stripped.startswith(fence):
                fence = None
            continue
        yield number, line


def strip_code(lines):
    """Yields (line number, text) outside fenced code blocks, with inline code spans blanked."""
    for number, line in outside_fences(lines):
        if line.startswith("    ") or line.startswith("\t"):
            continue  # indented code block
        yield number, re.sub(r"`[^`]*`", lambda m: " " * len(m.group(0)), line)


def github_slug(text):
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)  # links: their text
    text = re.sub(r"<[^>]+>", "", text)                     # inline HTML
    text = text.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)                    # punctuation dropped (\w keeps Unicode letters)
    return text.replace(" ", "-")


def anchors_of(path):
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    anchors, seen = set(), {}
    for _, line in outside_fences(lines):
        for a in HTML_ID.findall(line):
            anchors.add(a)
        m = HEADING.match(line)
        if m and not line.startswith("    "):
            slug = github_slug(m.group(2))
            n = seen.get(slug, 0)
            seen[slug] = n + 1
            anchors.add(slug if n == 0 else "%s-%d" % (slug, n))
    return anchors


def check_links(root, doc, tracked, tracked_dirs, failures):
    full = os.path.join(root, doc)
    with open(full, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for number, line in strip_code(lines):
        for m in LINK.finditer(line):
            target = m.group(1)
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I) or target.startswith("//"):
                continue  # http:, https:, mailto: ...
            path, _, anchor = target.partition("#")
            if path:
                resolved = os.path.normpath(os.path.join(os.path.dirname(doc), path))
                if resolved.startswith("..") or os.path.isabs(resolved):
                    failures.append("%s:%d: link %s leaves the repository" % (doc, number, target))
                    continue
                if resolved not in tracked and resolved not in tracked_dirs:
                    failures.append("%s:%d: link %s: %s is not a tracked file" % (doc, number, target, resolved))
                    continue
            else:
                resolved = doc
            if anchor:
                if not resolved.endswith(".md") or resolved not in tracked:
                    failures.append("%s:%d: link %s: anchors are checked only into markdown files" % (doc, number, target))
                    continue
                if anchor not in anchors_of(os.path.join(root, resolved)):
                    failures.append("%s:%d: link %s: %s has no heading or <a id> with anchor #%s"
                                    % (doc, number, target, resolved, anchor))


def main(argv):
    root = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    root = os.path.abspath(root)
    tracked = set(tracked_files(root))
    tracked_dirs = {os.path.dirname(p) for p in tracked}
    for p in list(tracked_dirs):
        while p:
            p = os.path.dirname(p)
            tracked_dirs.add(p)
    failures = []

    for path in sorted(tracked):
        if path.startswith("docs/history"):
            continue
        full = os.path.join(root, path)
        if not os.path.isfile(full):
            continue
        with open(full, "rb") as f:
            data = f.read()
        if b"\0" in data:
            continue
        for number, line in enumerate(data.decode("utf-8", "replace").split("\n"), 1):
            m = OLD_NAMES.search(line)
            if m:
                failures.append("%s:%d: names %s, which is not in the repository; cite docs/ instead"
                                % (path, number, m.group(0)))

    docs = [p for p in tracked if p == "README.md" or re.match(r"^docs/[^/]+\.md$", p)
            or re.match(r"^scenarios/(.+/)?README\.md$", p)]
    for doc in sorted(docs):
        if os.path.isfile(os.path.join(root, doc)):
            check_links(root, doc, tracked, tracked_dirs, failures)

    readme = os.path.join(root, "README.md")
    if os.path.isfile(readme):
        with open(readme, encoding="utf-8") as f:
            count = len(f.read().rstrip("\n").split("\n"))
        if count > README_MAX_LINES:
            failures.append("README.md:%d: %d lines, more than %d" % (count, count, README_MAX_LINES))

    for f in failures:
        print(f)
    print("check-docs: %d failure(s) in %d tracked files, %d documents" % (len(failures), len(tracked), len(docs)),
          file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
