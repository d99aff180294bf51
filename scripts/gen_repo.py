#!/usr/bin/env python3
"""Writes a synthetic monorepo of Rust and C# files for structgate's benchmark.

Deterministic from its seed: the same (seed, count) always writes the same bytes.

    scripts/gen_repo.py OUT_DIR --files 50000 --seed 1

Layout: `services/<svc>/src/<Svc>.<Part>/...` holds C#, `crates/<svc>-<word>/src/...`
holds Rust, each project a bushy tree up to 4 directories deep with about 12 files per
directory, and one `context.yaml` + `principles.md` for each of `services` and `crates`.
It does not run git (scripts/bench does).

With `--markdown N`, N of the files are Markdown documents instead (a documentation-heavy
tree: `--files 20000 --markdown 5000`): the code files are the same as those of a run
with `--files` minus N, and the documents, drawn from a generator of their own, sit in
their directories (`README.md`, `design-<word>.md`, ...; median about 3 KB: headings,
paragraphs, lists, code fences, links and now and then an `@` import of a neighbour), and
each `principles.md` also limits `file_bytes`, so the documents are judged.

Files: sizes drawn from a log-normal distribution (median about 4 KB; most between 1 and
20 KB), plus a thin tail of large files (60-400 KB) and, per 10,000 files, one of about
1 MB whose single method runs to thousands of lines. C#: usings, block or file-scoped
namespaces (sometimes nested), classes, sealed classes and structs with fields,
properties, constructors, async methods, local functions, nested types two deep,
records, enums, interfaces, LINQ lambdas and multi-line lambda blocks. Rust: `use`
lists, structs, enums, traits, inherent and trait `impl` blocks, free functions, nested
`mod`s (holding impls), closures (one-line and block), functions inside functions,
`#[cfg(test)]` modules. About 2% of files carry a syntax error of the kinds real trees
have (a lost brace, a stray token, C# 14 syntax, `async` as an identifier).
"""

import argparse
import math
import os
import random

WORDS = (
    "order price rule cache batch item stock user account ledger entry report query "
    "token session parser buffer stream frame packet route policy quota invoice tax "
    "discount catalog product vendor shipment carrier address region zone metric signal "
    "handler worker queue job task schedule retry backoff limit window span trace log "
    "config option setting profile role grant audit record snapshot index shard node "
    "graph edge path visitor builder factory adapter mapper reader writer codec hash "
    "digest key value pair range cursor page slice chunk block segment lease latch"
).split()

SERVICES = ["billing", "catalog", "identity", "inventory", "shipping", "search",
            "payments", "analytics", "gateway", "notify", "storage", "pricing"]

SYNTAX_ERROR_RATE = 0.02


def pascal(rng, n=2):
    return "".join(rng.choice(WORDS).capitalize() for _ in range(n))


def snake(rng, n=2):
    return "_".join(rng.choice(WORDS) for _ in range(n))


def camel(rng, n=2):
    first = rng.choice(WORDS)
    return first + "".join(rng.choice(WORDS).capitalize() for _ in range(n - 1))


def words(rng, low, high):
    return " ".join(rng.choice(WORDS) for _ in range(rng.randrange(low, high)))


def lognormal_int(rng, median, sigma, low, high):
    value = int(rng.lognormvariate(math.log(median), sigma))
    return max(low, min(high, value))


# ---------------------------------------------------------------- C#

def cs_statement(rng, ind):
    a, b, c = camel(rng), camel(rng), pascal(rng)
    choice = rng.randrange(12)
    if choice == 0:
        return [f"{ind}var {a} = {c}.{pascal(rng, 1)}({b}, {rng.randrange(100)});"]
    if choice == 1:
        return [f"{ind}if ({a} == null)", f"{ind}{{",
                f"{ind}    throw new ArgumentNullException(nameof({a}));", f"{ind}}}"]
    if choice == 2:
        return [f"{ind}foreach (var {a} in {b}.Where(x => x.{c} > {rng.randrange(50)}))",
                f"{ind}{{", f"{ind}    total += {a}.{pascal(rng, 1)};", f"{ind}}}"]
    if choice == 3:
        return [f"{ind}// {words(rng, 3, 10)}"]
    if choice == 4:
        return [f"{ind}_{a} = await _{b}.{c}Async({a}, cancellationToken);"]
    if choice == 5:
        return [f"{ind}switch ({a})", f"{ind}{{",
                f"{ind}    case {rng.randrange(9)}: return {b};",
                f"{ind}    default: break;", f"{ind}}}"]
    if choice == 6:
        return [f"{ind}var {a} = new {c}", f"{ind}{{",
                f"{ind}    {pascal(rng, 1)} = {b},", f"{ind}    {pascal(rng, 1)} = \"{a}\",",
                f"{ind}}};"]
    if choice == 7:
        return [f"{ind}try", f"{ind}{{", f"{ind}    {a}.{c}();", f"{ind}}}",
                f"{ind}catch (InvalidOperationException ex)", f"{ind}{{",
                f"{ind}    _logger.LogWarning(ex, \"{a} failed\");", f"{ind}}}"]
    if choice == 8:
        return [f"{ind}var {a} = {b}", f"{ind}    .Where(x => x.{c} != null)",
                f"{ind}    .Select(x => new {{ x.Id, Name = x.{pascal(rng, 1)} }})",
                f"{ind}    .OrderBy(x => x.Name)", f"{ind}    .ToList();"]
    if choice == 9:
        return [f"{ind}{b}.ForEach({a} =>", f"{ind}{{",
                f"{ind}    if ({a}.{c} > {rng.randrange(9)})", f"{ind}    {{",
                f"{ind}        {a}.{pascal(rng, 1)}();", f"{ind}    }}", f"{ind}}});"]
    if choice == 10:
        return [f"{ind}Func<int, int> {a} = x => x * {rng.randrange(2, 9)} + {b}.Length;"]
    return [f"{ind}{a} += {b}.Length * {rng.randrange(1, 20)};"]


def cs_body(rng, ind, lines):
    out = []
    while len(out) < lines:
        out.extend(cs_statement(rng, ind))
    return out


def cs_method(rng, ind, cls, body):
    out = []
    if rng.random() < 0.3:
        out.append(f"{ind}/// <summary>{words(rng, 4, 9)}</summary>")
    if rng.random() < 0.15:
        out.append(f"{ind}[{pascal(rng, 1)}]")
    kind = rng.randrange(10)
    name = pascal(rng)
    if kind == 0:
        out.append(f"{ind}public {cls}({pascal(rng)} {camel(rng)})")
    elif kind <= 2:
        out.append(f"{ind}public async Task<{pascal(rng)}> {name}Async(int {camel(rng)}, "
                   f"CancellationToken cancellationToken = default)")
    else:
        out.append(f"{ind}{rng.choice(['public', 'private', 'internal', 'protected'])} "
                   f"{rng.choice(['int', 'string', 'bool', 'void', pascal(rng)])} "
                   f"{name}({pascal(rng)} {camel(rng)}, int {camel(rng)})")
    out.append(f"{ind}{{")
    out.extend(cs_body(rng, ind + "    ", body))
    if rng.random() < 0.08:
        out.append(f"{ind}    int Local{name}(int x)")
        out.append(f"{ind}    {{")
        out.extend(cs_body(rng, ind + "        ", 3))
        out.append(f"{ind}        return x;")
        out.append(f"{ind}    }}")
    out.append(f"{ind}}}")
    return out


def cs_property(rng, ind):
    if rng.random() < 0.7:
        return [f"{ind}public {pascal(rng)} {pascal(rng)} {{ get; set; }}"]
    field = camel(rng)
    return [f"{ind}public int {pascal(rng)}", f"{ind}{{",
            f"{ind}    get => _{field};", f"{ind}    set", f"{ind}    {{",
            f"{ind}        _{field} = value;", f"{ind}    }}", f"{ind}}}"]


def cs_type(rng, ind, budget, depth=0):
    name = pascal(rng)
    kind = rng.randrange(12)
    if kind == 0:
        members = [f"{ind}    {pascal(rng, 1)}{i}," for i in range(rng.randrange(2, 12))]
        return [f"{ind}public enum {name}", f"{ind}{{"] + members + [f"{ind}}}"]
    if kind == 1:
        return [f"{ind}public interface I{name}", f"{ind}{{"] + [
            f"{ind}    Task<{pascal(rng)}> {pascal(rng)}Async(int id);"
            for _ in range(rng.randrange(1, 8))] + [f"{ind}}}"]
    if kind == 2:
        return [f"{ind}public record {name}(int {pascal(rng, 1)}, string {pascal(rng, 1)});"]
    keyword = "struct" if kind == 3 else "class"
    out = [f"{ind}public sealed {keyword} {name}" if keyword == "class" and rng.random() < 0.3
           else f"{ind}public {keyword} {name}", f"{ind}{{"]
    inner = ind + "    "
    for _ in range(rng.randrange(1, 4)):
        out.append(f"{inner}private readonly {pascal(rng)} _{camel(rng)};")
    out.append("")
    while len(out) < budget:
        roll = rng.random()
        if roll < 0.2:
            out.extend(cs_property(rng, inner))
        elif roll < 0.23 and depth < 2:
            out.extend(cs_type(rng, inner, budget // 4, depth + 1))
        else:
            out.extend(cs_method(rng, inner, name, lognormal_int(rng, 7, 0.9, 1, 400)))
        out.append("")
    out.append(f"{ind}}}")
    return out


def cs_types(rng, ind, lines):
    out = []
    while len(out) < lines:
        out.extend(cs_type(rng, ind, min(lines - len(out) + 10, lines)))
        out.append("")
    return out


def cs_file(rng, namespace, lines):
    out = ["using System;", "using System.Collections.Generic;", "using System.Linq;",
           "using System.Threading;", "using System.Threading.Tasks;", ""]
    roll = rng.random()
    if roll < 0.05:
        # Block namespace holding a nested namespace.
        out += [f"namespace {namespace}", "{"]
        half = lines // 2
        out += cs_types(rng, "    ", half)
        out += [f"    namespace {pascal(rng, 1)}", "    {"]
        out += cs_types(rng, "        ", lines - half)
        out += ["    }", "}"]
    elif roll < 0.4:
        out += [f"namespace {namespace}", "{"]
        out += cs_types(rng, "    ", lines - len(out))
        out.append("}")
    else:
        out += [f"namespace {namespace};", ""]
        out += cs_types(rng, "", lines - len(out))
    return out


def cs_huge_file(rng, namespace, lines):
    """One class whose one method runs to most of `lines` (real generated C# does)."""
    out = ["using System;", "", f"namespace {namespace};", "",
           f"public static class {pascal(rng)}Table", "{"]
    out += cs_method(rng, "    ", "Table", lines - 12)
    out.append("}")
    return out


CS_ERRORS = [
    lambda rng, ind: f"{ind}{camel(rng)}?[0] = {rng.randrange(9)};",  # C# 14
    lambda rng, ind: f"{ind}extension({pascal(rng)} source) {{ }}",  # C# 14
    lambda rng, ind: f"{ind}var async = async {camel(rng)};",
    lambda rng, ind: f"{ind}#if DEBUG",
    lambda rng, ind: f"{ind}int {camel(rng)} = ;",
    lambda rng, ind: f"{ind}@@ {words(rng, 2, 5)} <<",
]

# ---------------------------------------------------------------- Rust

def rs_statement(rng, ind):
    a, b, c = snake(rng), snake(rng), pascal(rng)
    choice = rng.randrange(12)
    if choice == 0:
        return [f"{ind}let {a} = {c}::new({b}, {rng.randrange(100)});"]
    if choice == 1:
        return [f"{ind}if {a}.is_empty() {{", f"{ind}    return Err(Error::Empty(\"{a}\"));",
                f"{ind}}}"]
    if choice == 2:
        field, bound = snake(rng, 1), rng.randrange(50)
        return [f"{ind}for {a} in {b}.iter().filter(|x| x.{field} > {bound}) {{",
                f"{ind}    total += {a}.{snake(rng, 1)};", f"{ind}}}"]
    if choice == 3:
        return [f"{ind}// {words(rng, 3, 10)}"]
    if choice == 4:
        return [f"{ind}let {a} = self.{b}.get(&key).copied().unwrap_or_default();"]
    if choice == 5:
        return [f"{ind}match {a} {{", f"{ind}    Some(v) => total += v,",
                f"{ind}    None => {{}}", f"{ind}}}"]
    if choice == 6:
        return [f"{ind}let {a}: Vec<_> = {b}", f"{ind}    .iter()",
                f"{ind}    .map(|x| x.{snake(rng, 1)}())", f"{ind}    .collect();"]
    if choice == 7:
        return [f"{ind}self.{a}.insert({b}.clone(), {c}::default());"]
    if choice == 8:
        return [f"{ind}let {a} = move |{snake(rng, 1)}: u64| {{",
                f"{ind}    let {b} = {snake(rng, 1)}.wrapping_mul({rng.randrange(2, 99)});",
                f"{ind}    {b} ^ (total >> {rng.randrange(1, 9)})", f"{ind}}};"]
    if choice == 9:
        return [f"{ind}{b}.retain(|x| !x.{snake(rng, 1)}.is_empty());"]
    if choice == 10:
        return [f"{ind}let {a} = {b}", f"{ind}    .iter()",
                f"{ind}    .fold(0u64, |acc, x| {{",
                f"{ind}        acc.wrapping_add(x.{snake(rng, 1)} as u64)", f"{ind}    }});"]
    return [f"{ind}total = total.wrapping_add({a}.len() as u64 * {rng.randrange(1, 20)});"]


def rs_fn(rng, ind, method, body):
    out = []
    if rng.random() < 0.35:
        out.append(f"{ind}/// {words(rng, 4, 9)}")
    if rng.random() < 0.1:
        out.append(f"{ind}#[inline]")
    recv = "&self, " if method and rng.random() < 0.8 else ""
    vis = "pub " if rng.random() < 0.6 else ""
    out.append(f"{ind}{vis}fn {snake(rng)}({recv}{snake(rng, 1)}: &[{pascal(rng)}]) "
               f"-> Result<u64, Error> {{")
    out.append(f"{ind}    let mut total = 0u64;")
    while len(out) < body + 2:
        out.extend(rs_statement(rng, ind + "    "))
    if rng.random() < 0.05:
        out += [f"{ind}    fn helper(x: u64) -> u64 {{", f"{ind}        x + 1", f"{ind}    }}"]
    out += [f"{ind}    Ok(total)", f"{ind}}}"]
    return out


def rs_items(rng, ind, lines, depth=0):
    out = []
    while len(out) < lines:
        roll = rng.random()
        name = pascal(rng)
        if roll < 0.15:
            out += [f"{ind}#[derive(Debug, Clone, Default)]", f"{ind}pub struct {name} {{"]
            for _ in range(rng.randrange(1, 8)):
                field = snake(rng)
                out.append(f"{ind}    {field}: "
                           f"{rng.choice(['u64', 'String', 'Vec<u8>', pascal(rng)])},")
            out.append(f"{ind}}}")
        elif roll < 0.22:
            out.append(f"{ind}pub enum {name} {{")
            out += [f"{ind}    {pascal(rng, 1)}{i}," for i in range(rng.randrange(2, 9))]
            out.append(f"{ind}}}")
        elif roll < 0.27:
            out.append(f"{ind}pub trait {name} {{")
            for _ in range(rng.randrange(1, 5)):
                out.append(f"{ind}    fn {snake(rng)}(&self) -> u64;")
            out.append(f"{ind}}}")
        elif roll < 0.65:
            trait = rng.random() < 0.25
            head = f"impl {pascal(rng)} for {name}" if trait else f"impl<'a> {name}<'a>"
            out.append(f"{ind}{head} {{")
            for _ in range(rng.randrange(1, 7)):
                out += rs_fn(rng, ind + "    ", True, lognormal_int(rng, 7, 0.9, 1, 400))
                out.append("")
            out[-1] = f"{ind}}}"
        elif roll < 0.68 and depth < 2:
            out.append(f"{ind}pub mod {snake(rng, 1)} {{")
            out += rs_items(rng, ind + "    ", lines // 5, depth + 1)
            out.append(f"{ind}}}")
        else:
            out += rs_fn(rng, ind, False, lognormal_int(rng, 7, 0.9, 1, 400))
        out.append("")
    return out


def rs_file(rng, lines):
    out = ["use std::collections::HashMap;", "use std::sync::Arc;",
           f"use crate::{snake(rng, 1)}::{{{pascal(rng)}, Error}};", ""]
    out += rs_items(rng, "", lines - 4)
    if rng.random() < 0.3:
        out += ["#[cfg(test)]", "mod tests {", "    use super::*;", ""]
        for _ in range(rng.randrange(1, 5)):
            out += ["    #[test]", f"    fn {snake(rng)}_works() {{",
                    f"        assert_eq!({rng.randrange(9)}, {rng.randrange(9)});", "    }", ""]
        out.append("}")
    return out


def rs_huge_file(rng, lines):
    out = ["use crate::table::Error;", "", "pub struct Table;", "", "impl Table {"]
    out += rs_fn(rng, "    ", True, lines - 8)
    out.append("}")
    return out


RS_ERRORS = [
    lambda rng, ind: f"{ind}let {snake(rng)} = ;",
    lambda rng, ind: f"{ind}if {snake(rng)} {{ {snake(rng)}(",
    lambda rng, ind: f"{ind}@@ {words(rng, 2, 5)} <<",
    lambda rng, ind: f"{ind}fn {snake(rng)}(x: u64 -> u64 {{ x }}",
]


def break_syntax(rng, lines, errors):
    """Damages one line past the header: drops a lone closing brace or adds a bad one."""
    at = rng.randrange(len(lines) // 4, len(lines))
    if rng.random() < 0.3:
        for i in range(at, len(lines)):
            if lines[i].strip() == "}":
                del lines[i]
                return
    line = lines[at]
    ind = line[:len(line) - len(line.lstrip())]
    lines.insert(at, rng.choice(errors)(rng, ind))


# ---------------------------------------------------------------- layout

def project_dirs(rng, root, count):
    """`count` directories under `root`: a tree grown by adding a child to a random
    directory less than 4 levels deep (bushy near the top, like real projects)."""
    dirs = [(root, 0)]
    while len(dirs) < count:
        parent, depth = rng.choice(dirs)
        if depth < 4:
            dirs.append((f"{parent}/{rng.choice(WORDS)}", depth + 1))
    return sorted({d for d, _ in dirs})


def layout(rng, count):
    """Repository-relative paths: services/<svc>/src/<Project>/... for C# and
    crates/<crate>/src/... for Rust, about 12 files per directory."""
    projects = []
    for svc in SERVICES:
        for _ in range(rng.randrange(4, 9)):
            projects.append(f"services/{svc}/src/{svc.capitalize()}.{pascal(rng, 1)}")
            projects.append(f"crates/{svc}-{rng.choice(WORDS)}/src")
    projects = sorted(set(projects))
    paths, seen = [], set()
    for i, root in enumerate(projects):
        want = count * (i + 1) // len(projects) - count * i // len(projects)
        if want == 0:
            continue
        dirs = project_dirs(rng, root, max(1, want // 12))
        made = 0
        while made < want:
            d = rng.choice(dirs)
            if d.startswith("services/"):
                path = f"{d}/{pascal(rng)}.cs"
            else:
                path = f"{d}/{snake(rng)}.rs"
            if path not in seen:
                seen.add(path)
                paths.append(path)
                made += 1
    return paths


def file_lines(rng, path, index, count):
    """The file's lines: log-normal sizes, a thin tail of large files, and one huge file
    per 10,000 (at least one when there are 1,000 or more)."""
    csharp = path.endswith(".cs")
    namespace = ".".join(p for p in path.split("/")[3:-1]) or "Bench"
    huge_every = max(1000, min(10000, count))
    if count >= 1000 and index % huge_every == huge_every // 2:
        lines = rng.randrange(20000, 30000)
        return cs_huge_file(rng, namespace, lines) if csharp else rs_huge_file(rng, lines)
    if rng.random() < 0.004:
        lines = rng.randrange(2000, 12000)
    else:
        lines = lognormal_int(rng, 120, 0.8, 10, 2000)
    return cs_file(rng, namespace, lines) if csharp else rs_file(rng, lines)


PRINCIPLES = """# {name} — principles

## Limits

```yaml
function_lines: 60
type_lines: 600
file_lines: 1200
types_per_file: 8
tolerance_percent: 20
{extra}```
"""

# With documents among the files, their size is limited too.
MARKDOWN_LIMITS = "file_bytes: 20000\n"


def md_paragraph(rng):
    sentences = []
    for _ in range(rng.randrange(2, 6)):
        text = words(rng, 6, 18)
        if rng.random() < 0.2:
            text += f" (see [{rng.choice(WORDS)}](../{rng.choice(WORDS)}.md))"
        if rng.random() < 0.2:
            text += f" with `{snake(rng)}`"
        sentences.append(text.capitalize() + ".")
    return [" ".join(sentences), ""]


def md_block(rng, neighbours):
    choice = rng.randrange(8)
    if choice == 0:
        return [f"## {words(rng, 1, 4).capitalize()}", ""]
    if choice == 1:
        return [f"- {words(rng, 3, 10)}" for _ in range(rng.randrange(2, 7))] + [""]
    if choice == 2:
        lang = rng.choice(["rust", "csharp", "sh", "yaml"])
        body = [f"{snake(rng)} = {rng.randrange(1000)}" for _ in range(rng.randrange(1, 9))]
        return [f"```{lang}", *body, "```", ""]
    if choice == 3 and neighbours:
        return [f"@{rng.choice(neighbours)}", ""]
    return md_paragraph(rng)


def md_file(rng, neighbours):
    """A document of log-normal size (median about 3 KB)."""
    budget = lognormal_int(rng, 3000, 0.9, 200, 60000)
    lines = [f"# {words(rng, 2, 5).capitalize()}", ""]
    size = 0
    while size < budget:
        block = md_block(rng, neighbours)
        lines.extend(block)
        size += sum(len(line) + 1 for line in block)
    return lines


def md_layout(rng, code_paths, count):
    """`count` document paths in the directories of the code files."""
    dirs = sorted({os.path.dirname(p) for p in code_paths})
    paths, seen = [], set()
    while len(paths) < count:
        d = rng.choice(dirs)
        name = "README.md" if rng.random() < 0.3 else \
            f"{rng.choice(['design', 'notes', 'guide', 'adr'])}-{rng.choice(WORDS)}.md"
        path = f"{d}/{name}"
        if path not in seen:
            seen.add(path)
            paths.append(path)
    return sorted(paths)


def write(out, path, text):
    full = os.path.join(out, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--files", type=int, default=50000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--markdown", type=int, default=0,
                        help="how many of the files are Markdown documents")
    args = parser.parse_args()
    if not 0 <= args.markdown < args.files:
        parser.error("--markdown must be at least 0 and less than --files")
    rng = random.Random(args.seed)
    total = broken = 0
    code = args.files - args.markdown
    code_paths = layout(rng, code)
    for index, path in enumerate(code_paths):
        lines = file_lines(rng, path, index, code)
        if rng.random() < SYNTAX_ERROR_RATE:
            break_syntax(rng, lines, CS_ERRORS if path.endswith(".cs") else RS_ERRORS)
            broken += 1
        text = "\n".join(lines) + "\n"
        write(args.out, path, text)
        total += len(text)
    docs = random.Random(f"markdown {args.seed}")
    md_paths = md_layout(docs, code_paths, args.markdown)
    by_dir = {}
    for path in md_paths:
        by_dir.setdefault(os.path.dirname(path), []).append(os.path.basename(path))
    for path in md_paths:
        name = os.path.basename(path)
        neighbours = [n for n in by_dir[os.path.dirname(path)] if n != name][:4]
        text = "\n".join(md_file(docs, neighbours)) + "\n"
        write(args.out, path, text)
        total += len(text)
    for top in ("services", "crates"):
        os.makedirs(os.path.join(args.out, top), exist_ok=True)
        with open(os.path.join(args.out, top, "context.yaml"), "w") as f:
            f.write(f"meta:\n  name: {top}\n  workdir: {top}\n")
        with open(os.path.join(args.out, top, "principles.md"), "w") as f:
            extra = MARKDOWN_LIMITS if args.markdown else ""
            f.write(PRINCIPLES.format(name=top, extra=extra))
    print(f"wrote {args.files} files ({args.markdown} Markdown), {total} bytes, "
          f"{broken} with a syntax error")


if __name__ == "__main__":
    main()
