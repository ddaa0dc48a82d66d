#!/usr/bin/env python3
"""Lists the source files and functions that have outgrown the house limits.

    scripts/size_report.py [--files N] [--functions N] [DIR ...]

DIR defaults to every library and the executable: ir/, model/, assembler/,
sim/, gpu_backend/, golden/, sweep/ and cli/. Prints every C++/CUDA source
or header (.cpp .cc .h .hpp .cu .cuh) of more than --files lines (default
600), then every function body of more than --functions lines (default
120), largest first, each as
"LINES  PATH:LINE  NAME". Exits 0 either way: it is a report, not a gate.

Functions are found with a small scanner, not a compiler: comments, string
and character literals and preprocessor lines are skipped, and a `{` that
opens at namespace or class scope after a parenthesised signature (not a
namespace, class, struct, union, enum or an initialiser) starts a function,
which runs to its matching `}`. Lambdas and local classes count towards the
function that holds them. A function's length runs from the line of its
name to its closing brace.
"""
import argparse
import os
import re
import sys

EXTENSIONS = (".cpp", ".cc", ".h", ".hpp", ".cu", ".cuh")
DEFAULT_DIRS = ("ir", "model", "assembler", "sim", "gpu_backend", "golden", "sweep", "cli", "python")


def strip_code(text):
    """The text with comments, literals and preprocessor lines blanked out
    (newlines kept, so that offsets still map to the same lines)."""
    out = []
    i, n = 0, len(text)
    line_start = True
    while i < n:
        ch = text[i]
        if line_start and ch == "#":
            # A preprocessor line, with its continuations.
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    out.append(" \n")
                    i += 2
                    continue
                out.append(" ")
                i += 1
            continue
        if ch == "\n":
            line_start = True
            out.append(ch)
            i += 1
            continue
        if not ch.isspace():
            line_start = False
        if text.startswith("//", i):
            while i < n and text[i] != "\n":
                out.append(" ")
                i += 1
            continue
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
            continue
        raw = re.match(r'R"([^(\s]*)\(', text[i:i + 20])
        if raw and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            close = ")" + raw.group(1) + '"'
            end = text.find(close, i + raw.end())
            end = n if end < 0 else end + len(close)
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
            continue
        if ch in "\"'":
            # A digit separator (1'000) is not a character literal.
            if ch == "'" and i > 0 and text[i - 1].isalnum() and i + 1 < n and text[i + 1].isalnum():
                out.append(" ")
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != ch and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
            continue
        out.append(ch)
        i += 1
    return "".join(out)


SCOPE_WORDS = re.compile(r"\b(namespace|class|struct|union|enum)\b")


def classify(header):
    """What a `{` opening at namespace or class scope starts, from the text
    before it: 'scope' (namespace, class...), 'function' or 'other'."""
    h = " ".join(header.split())
    if not h or h.startswith("extern"):
        return "scope" if h.startswith("extern") else "other"
    if "(" not in h:
        return "scope" if SCOPE_WORDS.search(h) else "other"
    before_paren = h[: h.index("(")]
    if SCOPE_WORDS.search(before_paren) and "operator" not in before_paren:
        # struct X : Base<f(1)> { ... or an enum with a parenthesised value.
        return "scope"
    depth = 0
    for ch in h:  # an '=' outside parentheses: an initialiser, not a body
        if ch in "(<[":
            depth += 1
        elif ch in ")>]":
            depth -= 1
        elif ch == "=" and depth == 0 and "operator" not in h:
            return "other"
    return "function"


def functions(path):
    """(lines, first line, name) of every function body in the file."""
    with open(path, encoding="utf-8", errors="replace") as f:
        code = strip_code(f.read())
    found = []
    stack = []  # per open brace: 'scope', 'function' or 'other'
    header_start = 0
    line = 1
    func_open = None  # (first line, name, depth) of the function being read
    for i, ch in enumerate(code):
        if ch == "\n":
            line += 1
            continue
        at_scope = all(s == "scope" for s in stack)
        if ch == "{":
            kind = "other"
            if at_scope:
                header = code[header_start:i]
                kind = classify(header)
                if kind == "function":
                    name_match = re.search(r"([~\w:]+(?:<[^()]*>)?|operator\s*\S+)\s*\(",
                                           " ".join(header.split()))
                    name = name_match.group(1) if name_match else "?"
                    # The line of the name: where the header's text starts.
                    offset = len(header) - len(header.lstrip())
                    first = line - code[header_start + offset:i].count("\n")
                    func_open = (first, name, len(stack))
            stack.append(kind)
            header_start = i + 1
        elif ch == "}":
            if stack:
                stack.pop()
            if func_open and len(stack) == func_open[2]:
                found.append((line - func_open[0] + 1, func_open[0], func_open[1]))
                func_open = None
            header_start = i + 1
        elif ch == ";" and at_scope:
            header_start = i + 1
        elif ch == ":" and at_scope:
            # Access specifiers (public:) end a header; a ':' of a
            # constructor's initialiser list or a '::' does not.
            tail = code[header_start:i].strip()
            if tail in ("public", "private", "protected"):
                header_start = i + 1
    return found


def sources(dirs):
    for d in dirs:
        for root, subdirs, files in os.walk(d):
            subdirs[:] = sorted(s for s in subdirs if not s.startswith(".") and s != "build")
            for name in sorted(files):
                if name.endswith(EXTENSIONS):
                    yield os.path.join(root, name)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dirs", nargs="*", help="directories (default: %s)" % " ".join(DEFAULT_DIRS))
    ap.add_argument("--files", type=int, default=600, help="report files over this many lines")
    ap.add_argument("--functions", type=int, default=120,
                    help="report functions over this many lines")
    args = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    dirs = args.dirs or [os.path.join(root, d) for d in DEFAULT_DIRS]
    big_files, big_functions = [], []
    for path in sources(dirs):
        rel = os.path.relpath(path, root)
        with open(path, encoding="utf-8", errors="replace") as f:
            n = sum(1 for _ in f)
        if n > args.files:
            big_files.append((n, rel))
        for lines, first, name in functions(path):
            if lines > args.functions:
                big_functions.append((lines, "%s:%d" % (rel, first), name))
    print("files over %d lines: %d" % (args.files, len(big_files)))
    for n, rel in sorted(big_files, reverse=True):
        print("%6d  %s" % (n, rel))
    print("functions over %d lines: %d" % (args.functions, len(big_functions)))
    for n, where, name in sorted(big_functions, reverse=True):
        print("%6d  %s  %s" % (n, where, name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
