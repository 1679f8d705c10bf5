#!/usr/bin/env python3
# ===- doc-paths.py - Every repository path a doc names exists ------------=== #
#
#   test/doc-paths.py SOURCE_DIR
#
# Reads README.md and docs/**/*.md and checks that every path into the
# repository they name exists: relative Markdown links (from the document's
# folder), and paths in code spans or plain text that start with one of the
# repository's top-level folders (`lib/...`, `test/...`). A trailing `...`
# names a folder, `*` is a glob, and a path with a placeholder (`<name>`,
# `NAME`, `{...}`, `%t`) or one under a build folder is not checked. It also
# checks that docs/README.md, the index, links every other document. Prints
# each missing path as doc:line: path, each unindexed document, and exits 1
# if there is any.
#
# ===----------------------------------------------------------------------=== #

import glob
import os
import re
import sys

TOP = ("include", "lib", "tools", "test", "docs", "examples", "scripts",
       "stdlib", "cmake", ".ci")
LINK = re.compile(r"\]\(([^)\s]+)\)")
PATH = re.compile(r"(?<![\w./-])((?:%s)/[\w.*+/-]*)" %
                  "|".join(re.escape(t) for t in TOP))


def placeholder(path):
    """Whether `path` is a pattern rather than one path."""
    return (re.search(r"[<>{}%$]", path) or "XY" in path
            or re.search(r"(^|/)[A-Z][A-Z_]+(/|$|\.\.\.)", path))


def exists(root, path):
    path = path.rstrip(".,:;)")
    if path.endswith("/..."):
        path = path[:-4]
    path = path.rstrip("/")
    if "*" in path:
        return bool(glob.glob(os.path.join(root, path)))
    return os.path.exists(os.path.join(root, path))


def check(root, doc):
    """The missing paths of `doc` as (line number, path)."""
    missing = {}
    folder = os.path.dirname(os.path.relpath(doc, root))
    with open(doc, encoding="utf-8") as file:
        for number, line in enumerate(file, 1):
            for target in LINK.findall(line):
                target = target.split("#")[0]
                if not target or re.match(r"[a-z]+:", target):
                    continue
                if not exists(root, os.path.normpath(
                        os.path.join(folder, target))):
                    missing[(number, target)] = None
            for path in PATH.findall(line):
                if placeholder(path) or path.rstrip(".,:;)") in TOP:
                    continue
                if not exists(root, path):
                    missing[(number, path)] = None
    return list(missing)


def main():
    root = os.path.abspath(sys.argv[1])
    docs = [os.path.join(root, "README.md")] + sorted(
        glob.glob(os.path.join(root, "docs", "**", "*.md"), recursive=True))
    failed = False
    index = os.path.join(root, "docs", "README.md")
    with open(index, encoding="utf-8") as file:
        indexed = {os.path.normpath(os.path.join(root, "docs", link))
                   for link in LINK.findall(file.read())}
    for doc in docs[1:]:
        if doc != index and doc not in indexed:
            print(f"docs/README.md: does not link "
                  f"{os.path.relpath(doc, root)}")
            failed = True
    for doc in docs:
        for number, path in check(root, doc):
            print(f"{os.path.relpath(doc, root)}:{number}: {path}")
            failed = True
    if failed:
        print("doc-paths.py: the paths above do not exist in the repository, "
              "or the documents are not in the index", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
