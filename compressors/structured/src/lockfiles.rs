//! Lockfiles read as what they pin: every package as `name version`, never
//! the hashes and download addresses that make up most of their bytes.

use std::collections::HashSet;

use serde_json::{Map, Value};

/// npm's lockfile: top-level scalars as they are, every package as
/// `name version` (no integrity hashes, no resolved URLs).
pub fn npm(v: &Value) -> Option<String> {
    let obj = v.as_object()?;
    obj.get("lockfileVersion")?;
    let packages = obj
        .get("packages")
        .or_else(|| obj.get("dependencies"))?
        .as_object()?;
    let mut out = String::from("{\n");
    for (k, val) in obj {
        let key = Value::String(k.clone());
        if val.is_object() {
            let entries = val.as_object().map_or(0, Map::len);
            if std::ptr::eq(val, obj.get("packages").unwrap_or(&Value::Null))
                || k == "dependencies" && obj.get("packages").is_none()
            {
                out.push_str(&format!("  {key}: {{ {entries} packages, name version:\n"));
                for (name, p) in packages {
                    let name = if name.is_empty() {
                        "(root)"
                    } else {
                        name.trim_start_matches("node_modules/")
                    };
                    let version = p.get("version").and_then(Value::as_str).unwrap_or("?");
                    let dev = if p.get("dev").and_then(Value::as_bool) == Some(true) {
                        " (dev)"
                    } else {
                        ""
                    };
                    out.push_str(&format!("    {name} {version}{dev}\n"));
                }
                out.push_str("  }\n");
            } else {
                out.push_str(&format!("  {key}: {{… {entries} keys}}\n"));
            }
        } else {
            out.push_str(&format!("  {key}: {val}\n"));
        }
    }
    out.push_str("}\n");
    Some(out)
}

/// A TOML lockfile (`Cargo.lock`, `uv.lock`, `poetry.lock`): every
/// `[[package]]` as `name version`, under the file's name.
pub fn toml_packages(v: &Value, file: Option<&str>) -> Option<String> {
    let packages = v.get("package")?.as_array()?;
    if !packages
        .iter()
        .all(|p| p.get("name").is_some() && p.get("version").is_some())
    {
        return None;
    }
    let mut out = format!(
        "{}: {} packages, name version:\n",
        file.unwrap_or("lockfile"),
        packages.len()
    );
    if let Some(version) = v.get("version") {
        out = format!("version = {version}\n{out}");
    }
    for p in packages {
        let name = p["name"].as_str().unwrap_or("?");
        let version = p["version"].as_str().unwrap_or("?");
        out.push_str(&format!("  {name} {version}\n"));
    }
    Some(out)
}

/// pnpm's `pnpm-lock.yaml`: its `packages` map is keyed `name@version`
/// (`@scope/name@version`); every package as `name version`, and the
/// importers' direct dependencies as they are specified.
pub fn pnpm(v: &Value) -> Option<String> {
    let obj = v.as_object()?;
    let version = obj.get("lockfileVersion")?;
    let packages = obj.get("packages")?.as_object()?;
    let mut out = format!("lockfileVersion: {version}\n");
    if let Some(importers) = obj.get("importers").and_then(Value::as_object) {
        for (path, importer) in importers {
            for kind in ["dependencies", "devDependencies", "optionalDependencies"] {
                let Some(deps) = importer.get(kind).and_then(Value::as_object) else {
                    continue;
                };
                out.push_str(&format!("importer {path} {kind}:\n"));
                for (name, dep) in deps {
                    let pinned = dep.get("version").and_then(Value::as_str).unwrap_or("?");
                    out.push_str(&format!("  {name} {pinned}\n"));
                }
            }
        }
    }
    out.push_str(&format!(
        "packages: {} packages, name version:\n",
        packages.len()
    ));
    for key in packages.keys() {
        let (name, version) = split_at_version(key)?;
        out.push_str(&format!("  {name} {version}\n"));
    }
    Some(out)
}

/// `name@version` split at the `@` that is not a scope's (`@types/node@20`).
fn split_at_version(key: &str) -> Option<(&str, &str)> {
    let at = key.get(1..)?.find('@')? + 1;
    Some((&key[..at], &key[at + 1..]))
}

/// Yarn 1's `yarn.lock`: blocks headed by the ranges they resolve
/// (`"a@^1.0.0", a@^1.2.0:`) with an indented `version "1.2.3"`; every
/// block as `name version (ranges)`.
pub fn yarn_v1(text: &str) -> Option<String> {
    if !ghost_types::document::looks_like_yarn_lock(&ghost_types::document::nonblank_lines(text)) {
        return None;
    }
    let mut rows: Vec<String> = Vec::new();
    let mut header: Option<&str> = None;
    for line in text.lines() {
        if !line.starts_with([' ', '#']) && line.ends_with(':') {
            header = Some(line.trim_end_matches(':'));
        } else if let (Some(h), Some(v)) = (header, line.strip_prefix("  version ")) {
            let first = h.split(", ").next().unwrap_or(h).trim_matches('"');
            let (name, _) = split_at_version(first)?;
            let ranges: Vec<&str> = h
                .split(", ")
                .filter_map(|r| split_at_version(r.trim_matches('"')).map(|(_, range)| range))
                .collect();
            rows.push(format!(
                "  {name} {} ({})",
                v.trim_matches('"'),
                ranges.join(", ")
            ));
            header = None;
        }
    }
    if rows.is_empty() {
        return None;
    }
    Some(format!(
        "yarn.lock: {} packages, name version (ranges):\n{}\n",
        rows.len(),
        rows.join("\n")
    ))
}

/// Go's checksum file (`go.sum`): a line per module version, `module
/// version h1:<hash>`, and another for its `go.mod` alone (`version/go.mod`).
/// Each module version once, `/go.mod` kept where only its `go.mod` was
/// summed (a version the build selected against but never downloaded).
pub fn go_sum(text: &str) -> Option<String> {
    let mut lines = 0;
    // Each module version in the order first summed, and those summed whole.
    let mut versions: Vec<(&str, &str)> = Vec::new();
    let mut seen: HashSet<(&str, &str)> = HashSet::new();
    let mut whole: HashSet<(&str, &str)> = HashSet::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let (module, version) = ghost_types::document::go_sum_entry(line)?;
        lines += 1;
        let entry = (module, version.strip_suffix("/go.mod").unwrap_or(version));
        if entry.1 == version {
            whole.insert(entry);
        }
        if seen.insert(entry) {
            versions.push(entry);
        }
    }
    if lines < 2 {
        return None;
    }
    let out: Vec<String> = versions
        .iter()
        .map(|entry @ (module, version)| {
            let only_go_mod = if whole.contains(entry) { "" } else { "/go.mod" };
            format!("  {module} {version}{only_go_mod}")
        })
        .collect();
    Some(format!(
        "go.sum: {} module versions, module version (/go.mod: only its go.mod summed; hashes folded):\n{}\n",
        out.len(),
        out.join("\n")
    ))
}

#[cfg(test)]
mod tests {
    #[test]
    fn pnpm_and_yarn_lockfiles_become_names_and_versions() {
        let pnpm = "lockfileVersion: '9.0'\n\nimporters:\n\n  .:\n    dependencies:\n      express:\n        specifier: 4.21.2\n        version: 4.21.2\n\npackages:\n\n  '@types/node@20.1.0':\n    resolution: {integrity: sha512-abc}\n\n  accepts@1.3.8:\n    resolution: {integrity: sha512-def}\n    engines: {node: '>= 0.6'}\n";
        let out = crate::compress(pnpm, Some("pnpm-lock.yaml")).text;
        assert!(out.contains("  @types/node 20.1.0"), "{out}");
        assert!(out.contains("  accepts 1.3.8"), "{out}");
        assert!(out.contains("  express 4.21.2"), "{out}");
        assert!(!out.contains("sha512"), "{out}");
        let yarn = "# THIS IS AN AUTOGENERATED FILE.\n# yarn lockfile v1\n\n\n\"@babel/code@^7.0.0\", \"@babel/code@^7.1.0\":\n  version \"7.2.0\"\n  resolved \"https://r/code.tgz\"\n  integrity sha512-abc\n\nms@2.0.0:\n  version \"2.0.0\"\n  resolved \"https://r/ms.tgz\"\n";
        let out = crate::compress(yarn, Some("yarn.lock")).text;
        assert!(
            out.contains("  @babel/code 7.2.0 (^7.0.0, ^7.1.0)"),
            "{out}"
        );
        assert!(out.contains("  ms 2.0.0 (2.0.0)"), "{out}");
        let sum = "golang.org/x/text v0.3.0 h1:g61tztE5qeGQ89tm6NTjjM9VPIm088od1l6aSorWRWG=\ngolang.org/x/text v0.3.0/go.mod h1:NqM8EUOU14njkJ3fqMW+pc6Ldnwhi/IjpwHt7yyuwOQ=\ngolang.org/x/sys v0.1.0/go.mod h1:oPkhp1MJrh7nUepCBck5+mAzfO9JrbApNNgaTdGDITg=\n";
        let out = crate::compress(sum, Some("go.sum")).text;
        assert!(out.contains("  golang.org/x/text v0.3.0\n"), "{out}");
        assert!(out.contains("  golang.org/x/sys v0.1.0/go.mod"), "{out}");
        assert!(!out.contains("h1:"), "{out}");
        assert!(
            !out.contains("sha512") && !out.contains("https://"),
            "{out}"
        );
    }
}
