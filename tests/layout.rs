//! The code's layout as docs/DESIGN.md ("Layout") states it: `src/` is a
//! folder per layer; every module of it is in a row of the table (its
//! own, or its folder's), in an order where each imports only the rows
//! above it (so no two import each other, layer by layer), no two files
//! import each other either way round a circle, and neither the server
//! nor the drawing layer imports anything of the local front door.
//!
//! Imports are read from the source as written: `use` and `pub use`
//! trees and paths written out (`crate::a::b`, `super::c`, `self::d`, and
//! relative ones through a child module the file declares: `mod e;` then
//! `use e::F` or `e::f()`), each taken to the deepest module of `src/`
//! it names. A module's imports of its own ancestors are left out: it
//! lies inside them, and `super::` is its own scope; so, in the order of
//! rows, are its imports of its own descendants, which it holds. A file's own test
//! module (its `#[cfg(test)] mod tests { .. }`, or a file named
//! `tests.rs` or `*_tests.rs`) may reach anything, and is left out.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`, by its module path (`a::b`; the crate
/// root is the empty path).
fn modules(root: &Path, dir: &Path, out: &mut BTreeMap<String, PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            modules(root, &path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path.strip_prefix(root).unwrap().with_extension("");
            let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into()).collect();
            if parts.last().is_some_and(|l| l == "mod") {
                parts.pop();
            }
            if parts == ["lib"] || parts == ["main"] {
                parts.clear();
            }
            out.insert(parts.join("::"), path);
        }
    }
}

fn is_test(module: &str) -> bool {
    let last = module.rsplit("::").next().unwrap_or("");
    last == "tests" || last.ends_with("_tests") || module.contains("::tests::")
}

/// The paths a use tree names: `a::{b, c::{d, e}}` is `a::b`, `a::c::d`
/// and `a::c::e`.
fn expand(prefix: &str, tree: &str, out: &mut Vec<String>) {
    let tree = tree.trim();
    if let Some(inner) = tree.strip_prefix('{').and_then(|t| t.strip_suffix('}')) {
        let (mut depth, mut start) = (0, 0);
        for (i, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    expand(prefix, &inner[start..i], out);
                    start = i + 1;
                }
                _ => {}
            }
        }
        expand(prefix, &inner[start..], out);
    } else if let Some(i) = tree.find("::{") {
        expand(&format!("{prefix}{}::", &tree[..i]), &tree[i + 2..], out);
    } else if !tree.is_empty() {
        let name = tree.split(" as ").next().unwrap().trim();
        out.push(format!("{prefix}{name}"));
    }
}

/// The module paths file `module`'s source `text` names, absolute.
fn named(module: &str, text: &str) -> Vec<String> {
    let text = match text.find("#[cfg(test)]\nmod tests {") {
        Some(i) => &text[..i],
        None => text,
    };
    let code: String = text
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let mut paths = Vec::new();
    let children = children(&code);
    // Use trees.
    let mut rest = code.as_str();
    while let Some(i) = rest.find("use ") {
        let starts = i == 0 || !rest.as_bytes()[i - 1].is_ascii_alphanumeric();
        let tail = &rest[i + 4..];
        let end = tail.find(';').unwrap_or(tail.len());
        if starts {
            let tree: String = tail[..end].split_whitespace().collect::<Vec<_>>().join(" ");
            expand(
                "",
                &tree.replace(":: ", "::").replace(" ::", "::"),
                &mut paths,
            );
        }
        rest = &tail[end.min(tail.len())..];
    }
    // Paths written out, from the crate, a parent or a child module.
    let anchors: Vec<String> = ["crate", "super", "self"]
        .iter()
        .map(ToString::to_string)
        .chain(children.iter().cloned())
        .map(|a| format!("{a}::"))
        .collect();
    for anchor in &anchors {
        let mut at = 0;
        while let Some(i) = code[at..].find(anchor.as_str()) {
            let start = at + i;
            let word = start > 0 && {
                let before = code.as_bytes()[start - 1];
                before.is_ascii_alphanumeric() || before == b'_' || before == b':'
            };
            if word {
                at = start + 1;
                continue;
            }
            let end = code[start..]
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .map_or(code.len(), |e| start + e);
            paths.push(code[start..end].trim_end_matches(':').to_string());
            at = end.max(start + 1);
        }
    }
    let base: Vec<&str> = module.split("::").filter(|p| !p.is_empty()).collect();
    paths
        .into_iter()
        .filter_map(|p| {
            let mut parts: Vec<&str> = p.split("::").collect();
            let mut at: Vec<&str> = match parts.first() {
                Some(&"crate") => {
                    parts.remove(0);
                    Vec::new()
                }
                Some(&"super") => {
                    let mut b = base.clone();
                    while parts.first() == Some(&"super") {
                        parts.remove(0);
                        b.pop();
                    }
                    b
                }
                Some(&"self") => {
                    parts.remove(0);
                    base.clone()
                }
                Some(first) if children.iter().any(|c| c == first) => base.clone(),
                _ => return None,
            };
            at.extend(parts);
            Some(at.join("::"))
        })
        .collect()
}

/// The child modules `code` declares (`mod a;`, `pub mod b;`,
/// `pub(crate) mod c;`), but not its test module.
fn children(code: &str) -> Vec<String> {
    code.lines()
        .filter_map(|l| {
            let l = l.trim();
            let l = l
                .strip_prefix("pub(crate) ")
                .or_else(|| l.strip_prefix("pub "))
                .unwrap_or(l);
            let name = l.strip_prefix("mod ")?.strip_suffix(';')?.trim();
            (name != "tests").then(|| name.to_string())
        })
        .collect()
}

/// The deepest module of `all` that `path` lies in.
fn resolve<'a>(all: &'a BTreeMap<String, PathBuf>, path: &str) -> Option<&'a str> {
    let parts: Vec<&str> = path.split("::").collect();
    (1..=parts.len())
        .rev()
        .map(|n| parts[..n].join("::"))
        .find_map(|m| all.get_key_value(&m).map(|(k, _)| k.as_str()))
}

/// Each module's imports of other modules (not of its own ancestors,
/// which hold it).
fn imports() -> BTreeMap<String, BTreeSet<String>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut all = BTreeMap::new();
    modules(&root, &root, &mut all);
    edges_of(&all, |m| std::fs::read_to_string(&all[m]).unwrap())
}

/// The imports of the modules `all`, each read from its source
/// `source(module)`.
fn edges_of(
    all: &BTreeMap<String, PathBuf>,
    source: impl Fn(&str) -> String,
) -> BTreeMap<String, BTreeSet<String>> {
    let mut edges = BTreeMap::new();
    for m in all.keys() {
        if is_test(m) {
            continue;
        }
        let text = source(m);
        let to: BTreeSet<String> = named(m, &text)
            .iter()
            .filter_map(|p| resolve(all, p))
            .filter(|t| !is_test(t) && t != m && !m.starts_with(&format!("{t}::")))
            .filter(|t| !t.is_empty())
            .map(String::from)
            .collect();
        edges.insert(m.clone(), to);
    }
    edges
}

fn top(m: &str) -> &str {
    m.split("::").next().unwrap()
}

/// The rows of DESIGN.md's layout table, in order, as module paths
/// (`race/world.rs` is `race::world`, `race/` is `race`).
fn table() -> Vec<String> {
    let design = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/DESIGN.md");
    let text = std::fs::read_to_string(design).unwrap();
    let layout = &text[text.find("## Layout").expect("a Layout section")..];
    let layout = &layout[..layout[3..].find("\n## ").map_or(layout.len(), |e| e + 3)];
    let mut order = Vec::new();
    for row in layout.lines().filter(|l| l.starts_with("| `")) {
        let cell = row.split('|').nth(1).unwrap();
        for name in cell.split('`').skip(1).step_by(2) {
            let name = name.trim_end_matches('/').trim_end_matches(".rs");
            order.push(name.replace('/', "::"));
        }
    }
    order
}

/// The row of `order` module `m` is in: its own, or its nearest
/// ancestor's.
fn row(order: &[String], m: &str) -> Option<usize> {
    let m = if m.is_empty() { "lib" } else { m };
    (order.iter().enumerate())
        .filter(|(_, o)| m == o.as_str() || m.starts_with(&format!("{o}::")))
        .max_by_key(|(_, o)| o.len())
        .map(|(i, _)| i)
}

/// Whether `t` lies inside module `m` (the crate root holds all).
fn inside(t: &str, m: &str) -> bool {
    m.is_empty() || t.starts_with(&format!("{m}::"))
}

#[test]
fn every_module_imports_only_the_modules_above_it_in_design_md() {
    let order = table();
    let edges = imports();
    let mut wrong = Vec::new();
    for (m, to) in &edges {
        let a = row(&order, m);
        assert!(a.is_some(), "`{m}` is in no row of DESIGN.md's layout");
        for t in to.iter().filter(|t| !inside(t, m)) {
            if row(&order, t) > a {
                wrong.push(format!("{m} imports {t}"));
            }
        }
    }
    assert!(wrong.is_empty(), "imports of modules below: {wrong:#?}");
    // And every row is a module that exists.
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for name in order.iter().filter(|n| *n != "lib" && *n != "main") {
        let path = src.join(name.replace("::", "/"));
        assert!(
            path.with_extension("rs").exists() || path.is_dir(),
            "DESIGN.md names `{name}`, which src/ does not have"
        );
    }
}

/// The tree is the layers: `src/` holds folders, and no loose file but
/// the library's root and the binary's.
#[test]
fn src_holds_a_folder_per_layer_and_no_loose_files() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let loose: Vec<String> = (std::fs::read_dir(src).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .filter(|n| n != "lib.rs" && n != "main.rs")
        .collect();
    assert!(loose.is_empty(), "files outside the layers: {loose:?}");
}

/// Depth-first search from `m` for an edge back into `path`: the part
/// of the path from there is a circle.
fn visit<'a>(
    m: &'a str,
    edges: &'a BTreeMap<String, BTreeSet<String>>,
    state: &mut BTreeMap<&'a str, bool>,
    path: &mut Vec<&'a str>,
) -> Option<Vec<String>> {
    match state.get(m) {
        Some(true) => {
            let from = path.iter().position(|p| *p == m).unwrap();
            return Some(path[from..].iter().map(ToString::to_string).collect());
        }
        Some(false) => return None,
        None => {}
    }
    state.insert(m, true);
    path.push(m);
    for t in edges.get(m).into_iter().flatten() {
        if let Some(circle) = visit(t, edges, state, path) {
            return Some(circle);
        }
    }
    path.pop();
    state.insert(m, false);
    None
}

#[test]
fn no_files_import_each_other_round_a_circle() {
    let edges = imports();
    let mut state = BTreeMap::new();
    for m in edges.keys() {
        let circle = visit(m, &edges, &mut state, &mut Vec::new());
        assert!(circle.is_none(), "a circle of imports: {circle:?}");
    }
}

/// Neither the server nor the drawing layer, which both doors share,
/// imports anything of local play.
#[test]
fn the_server_imports_nothing_of_the_local_front_door() {
    let edges = imports();
    let local: Vec<String> = (edges.iter())
        .filter(|(m, _)| ["serve", "ui"].contains(&top(m)))
        .flat_map(|(m, to)| to.iter().map(move |t| (m, t)))
        .filter(|(_, t)| top(t) == "app")
        .map(|(m, t)| format!("{m} imports {t}"))
        .collect();
    assert!(local.is_empty(), "{local:#?}");
}

/// The reader above finds what it is meant to: a use tree, a path
/// written out, `super`, `self`, a re-export, relative paths through a
/// child module, and not a comment or another crate.
#[test]
fn imports_are_read_from_use_trees_and_paths() {
    let text = "mod m;\npub mod n;\nuse crate::a::{b, c::{d as e, f}};\nuse super::g;\n\
                use self::o::p;\npub use m::q as r;\nuse ratatui::s;\n\
                fn x() { crate::h::i(); n::t(); } // crate::j\n";
    let got = named("k::l", text);
    let wanted = [
        "a::b",
        "a::c::d",
        "a::c::f",
        "k::g",
        "h::i",
        "k::l::o::p",
        "k::l::m::q",
        "k::l::n::t",
    ];
    for want in wanted {
        assert!(got.iter().any(|g| g == want), "{want} in {got:?}");
    }
    assert!(!got.iter().any(|g| g.starts_with('j')), "{got:?}");
    assert!(!got.iter().any(|g| g.contains("ratatui")), "{got:?}");
}

/// A circle closed by a relative import is found: `a` reaches its child
/// `a::b` through `mod b; use b::X`, which imports `d`, which imports
/// `a`; planted as sources of the reader's own.
#[test]
fn a_circle_of_relative_imports_is_found() {
    let mut all = BTreeMap::new();
    for m in ["a", "a::b", "d"] {
        all.insert(m.to_string(), PathBuf::new());
    }
    let sources = [
        ("a", "mod b;\npub use b::X;\n"),
        ("a::b", "use crate::d::Y;\n"),
        ("d", "use crate::a::Z;\n"),
    ];
    let edges = edges_of(&all, |m| {
        sources
            .iter()
            .find(|(n, _)| *n == m)
            .map_or("", |(_, t)| t)
            .to_string()
    });
    let mut state = BTreeMap::new();
    let circle = edges
        .keys()
        .find_map(|m| visit(m, &edges, &mut state, &mut Vec::new()));
    assert_eq!(
        circle,
        Some(vec!["a".to_string(), "a::b".into(), "d".into()]),
        "{edges:#?}"
    );
}

/// The types `src/serve` defines (structs, enums, traits and type
/// aliases of its own, not a trait impl's associated types), with the
/// file each is in.
fn serve_types() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut all = BTreeMap::new();
    modules(&root, &root.join("serve"), &mut all);
    let mut found = Vec::new();
    for (m, path) in all.iter().filter(|(m, _)| !is_test(m)) {
        let text = std::fs::read_to_string(path).unwrap();
        let mut in_impl = false;
        for line in text.lines() {
            if line.starts_with("impl") {
                in_impl = true;
            } else if line.starts_with('}') {
                in_impl = false;
            }
            let l = line.trim_start();
            let l = ["pub(crate) ", "pub(super) ", "pub "]
                .iter()
                .find_map(|p| l.strip_prefix(p))
                .unwrap_or(l);
            let Some(rest) = ["struct ", "enum ", "trait ", "type "]
                .iter()
                .find_map(|k| l.strip_prefix(k))
            else {
                continue;
            };
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            let associated = in_impl && l.starts_with("type ");
            if !associated && !name.is_empty() {
                found.push((name, m.clone()));
            }
        }
    }
    found
}

/// One name for one thing: no two types of the server share a name
/// (there were three `Entry`s, two `Link`s and two `Ask`s, each a
/// different thing).
#[test]
fn no_type_name_is_defined_twice_in_the_server() {
    let found = serve_types();
    assert!(found.iter().any(|(n, _)| n == "Hub"), "{found:?}");
    let mut seen: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (name, m) in &found {
        seen.entry(name).or_default().push(m);
    }
    let twice: Vec<_> = seen.iter().filter(|(_, ms)| ms.len() > 1).collect();
    assert!(twice.is_empty(), "{twice:#?}");
}
