//! A file's class from its extension: the one table the classifier guest
//! (a Read's path is its strongest hint) and the Claude Code hooks (the class
//! of a file stored without compressing it) both read.

use crate::ContentClass;

/// Every extension ghost knows, lowercase, with its class. An extension not
/// listed says nothing: the content decides.
pub const EXTENSIONS: &[(&str, ContentClass)] = &[
    // Source code.
    ("rs", ContentClass::Code),
    ("py", ContentClass::Code),
    ("js", ContentClass::Code),
    ("mjs", ContentClass::Code),
    ("cjs", ContentClass::Code),
    ("ts", ContentClass::Code),
    ("tsx", ContentClass::Code),
    ("jsx", ContentClass::Code),
    ("go", ContentClass::Code),
    ("java", ContentClass::Code),
    ("kt", ContentClass::Code),
    ("c", ContentClass::Code),
    ("h", ContentClass::Code),
    ("cc", ContentClass::Code),
    ("cpp", ContentClass::Code),
    ("hpp", ContentClass::Code),
    ("cs", ContentClass::Code),
    ("rb", ContentClass::Code),
    ("ex", ContentClass::Code),
    ("exs", ContentClass::Code),
    ("erl", ContentClass::Code),
    ("swift", ContentClass::Code),
    ("scala", ContentClass::Code),
    ("php", ContentClass::Code),
    ("sh", ContentClass::Code),
    ("bash", ContentClass::Code),
    ("zsh", ContentClass::Code),
    ("lua", ContentClass::Code),
    ("zig", ContentClass::Code),
    ("hs", ContentClass::Code),
    ("ml", ContentClass::Code),
    ("sql", ContentClass::Code),
    ("css", ContentClass::Code),
    ("html", ContentClass::Code),
    ("vue", ContentClass::Code),
    ("scss", ContentClass::Code),
    ("heex", ContentClass::Code),
    ("eex", ContentClass::Code),
    ("leex", ContentClass::Code),
    ("svelte", ContentClass::Code),
    ("dart", ContentClass::Code),
    ("r", ContentClass::Code),
    ("pl", ContentClass::Code),
    ("fs", ContentClass::Code),
    ("clj", ContentClass::Code),
    ("nix", ContentClass::Code),
    // Data.
    ("json", ContentClass::Structured),
    ("jsonl", ContentClass::Structured),
    ("ndjson", ContentClass::Structured),
    ("yaml", ContentClass::Structured),
    ("yml", ContentClass::Structured),
    ("toml", ContentClass::Structured),
    ("csv", ContentClass::Structured),
    ("tsv", ContentClass::Structured),
    ("xml", ContentClass::Structured),
    ("lock", ContentClass::Structured),
    // Go's checksums (`go.sum`, `go.work.sum`).
    ("sum", ContentClass::Structured),
    ("ini", ContentClass::Structured),
    ("cfg", ContentClass::Structured),
    ("conf", ContentClass::Structured),
    ("properties", ContentClass::Structured),
    ("pom", ContentClass::Structured),
    // Text for people.
    ("md", ContentClass::Prose),
    ("markdown", ContentClass::Prose),
    ("txt", ContentClass::Prose),
    ("rst", ContentClass::Prose),
    ("adoc", ContentClass::Prose),
    ("asciidoc", ContentClass::Prose),
    // Perl's documentation and Emacs's Org documents.
    ("pod", ContentClass::Prose),
    ("org", ContentClass::Prose),
    // Saved output.
    ("log", ContentClass::Log),
    ("out", ContentClass::Log),
    ("output", ContentClass::Log),
];

/// Files known by their whole name, with their class: build and
/// container recipes have no extension (`Makefile`, `Dockerfile`), or one
/// that says nothing (`CMakeLists.txt`). A `Dockerfile.dev` or
/// `Containerfile.ci` is known by its name before the dot.
pub const FILE_NAMES: &[(&str, ContentClass)] = &[
    ("Makefile", ContentClass::Code),
    ("makefile", ContentClass::Code),
    ("GNUmakefile", ContentClass::Code),
    ("Dockerfile", ContentClass::Code),
    ("Containerfile", ContentClass::Code),
    ("Jenkinsfile", ContentClass::Code),
    ("Vagrantfile", ContentClass::Code),
    ("Rakefile", ContentClass::Code),
    ("Gemfile", ContentClass::Code),
    ("Justfile", ContentClass::Code),
    ("justfile", ContentClass::Code),
    ("CMakeLists.txt", ContentClass::Code),
];

/// Names that keep their meaning with a suffix after a dot
/// (`Dockerfile.dev`).
const NAMES_WITH_SUFFIXES: &[&str] = &["Dockerfile", "Containerfile"];

/// The class of a file by its whole name (see [`FILE_NAMES`]).
fn class_of_name(name: &str) -> Option<ContentClass> {
    let known = |n: &str| FILE_NAMES.iter().find(|(k, _)| *k == n).map(|(_, c)| *c);
    known(name).or_else(|| {
        let (stem, _) = name.split_once('.')?;
        NAMES_WITH_SUFFIXES
            .contains(&stem)
            .then(|| known(stem))
            .flatten()
    })
}

/// Extensions that say little about what a file holds: a `.txt` or `.log`
/// may be a log, a listing, JSON or code saved from a terminal. Their class
/// above is only a fallback when the content says nothing clear.
pub const WEAK_EXTENSIONS: &[&str] = &["txt", "log", "out", "output"];

/// A path's hint: the class its extension suggests, and whether that is a
/// weak hint (see [`WEAK_EXTENSIONS`]) the content may overrule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PathHint {
    /// The class the extension suggests.
    pub class: ContentClass,
    /// Whether the content decides when it is clear.
    pub weak: bool,
}

/// The hint of the file at `path` (see [`class_of_path`] and
/// [`WEAK_EXTENSIONS`]).
pub fn hint_of_path(path: &str) -> Option<PathHint> {
    let class = class_of_path(path)?;
    let name = file_name(path);
    let ext = name.rsplit_once('.').map_or("", |(_, e)| e);
    Some(PathHint {
        class,
        weak: class_of_name(name).is_none()
            && WEAK_EXTENSIONS.iter().any(|w| w.eq_ignore_ascii_case(ext)),
    })
}

/// The last part of `path`: the file's name.
fn file_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

/// `source_path` unless its extension is a weak hint (see
/// [`WEAK_EXTENSIONS`]): a saved `.txt` or `.log` says nothing of the
/// language or format a compressor should read its text as.
pub fn telling_path(source_path: Option<&str>) -> Option<&str> {
    source_path.filter(|p| !hint_of_path(p).is_some_and(|h| h.weak))
}

/// The class of files with extension `ext` (without the dot, any case).
pub fn class_of_extension(ext: &str) -> Option<ContentClass> {
    EXTENSIONS
        .iter()
        .find(|(known, _)| known.eq_ignore_ascii_case(ext))
        .map(|(_, class)| *class)
}

/// The class of the file at `path` by its name (see [`FILE_NAMES`]) or
/// else its extension, `None` when neither is listed. A leading dot is no
/// extension (`.bashrc`); folders' dots do not count (`a.d/Makefile`).
pub fn class_of_path(path: &str) -> Option<ContentClass> {
    let name = file_name(path);
    if let Some(class) = class_of_name(name) {
        return Some(class);
    }
    match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() => class_of_extension(ext),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_classed_by_their_extension_only() {
        assert_eq!(class_of_path("src/lib.rs"), Some(ContentClass::Code));
        assert_eq!(
            class_of_path("/x/EVENTS.NDJSON"),
            Some(ContentClass::Structured)
        );
        assert_eq!(class_of_path("run.out"), Some(ContentClass::Log));
        assert_eq!(class_of_path("README.md"), Some(ContentClass::Prose));
        assert_eq!(class_of_path("a.d/Makefile"), Some(ContentClass::Code));
        assert_eq!(class_of_path("a.d/Notes"), None);
        assert_eq!(
            class_of_path("docker/Dockerfile.dev"),
            Some(ContentClass::Code)
        );
        assert!(!hint_of_path("CMakeLists.txt").unwrap().weak);
        assert_eq!(class_of_path("Makefile.am"), None);
        assert_eq!(class_of_path(".bashrc"), None);
        assert_eq!(class_of_path("archive.tar.gz"), None);
        assert!(hint_of_path("out/input.TXT").unwrap().weak);
        assert!(!hint_of_path("src/lib.rs").unwrap().weak);
        assert_eq!(telling_path(Some("out/input.TXT")), None);
        assert_eq!(telling_path(Some("src/lib.rs")), Some("src/lib.rs"));
    }

    #[test]
    fn every_file_name_is_listed_once() {
        for (i, (name, _)) in FILE_NAMES.iter().enumerate() {
            assert!(
                !FILE_NAMES[..i].iter().any(|(n, _)| n == name),
                "{name} twice"
            );
        }
    }

    #[test]
    fn every_extension_is_listed_once_in_lowercase() {
        for (i, (ext, _)) in EXTENSIONS.iter().enumerate() {
            assert_eq!(*ext, ext.to_ascii_lowercase());
            assert!(
                !EXTENSIONS[..i].iter().any(|(e, _)| e == ext),
                "{ext} twice"
            );
        }
    }
}
