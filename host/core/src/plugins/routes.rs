//! Which plugin serves which class: the enabled installed plugins claiming it,
//! highest priority first (then by id), and the built-in last. A third-party
//! classifier replaces the built-in classifier the same way.

use std::collections::BTreeMap;

use ghost_registry::{Generation, Installed, Manifest, Registry, Status, World};

use ghost_types::ContentClass;

/// The routing table at one registry generation.
#[derive(Debug, Clone, Default)]
pub struct Routes {
    generation: Generation,
    compressors: BTreeMap<ContentClass, Vec<Manifest>>,
    classifiers: Vec<Manifest>,
}

impl Routes {
    /// Reads the registry now. A registry that cannot be read routes nothing
    /// (the built-ins serve) and says why in the log.
    pub fn load(registry: &Registry) -> Self {
        // The generation first: a change while listing is seen next time.
        let generation = registry.generation();
        let (plugins, problems) = match registry.list() {
            Ok(listing) => listing,
            Err(e) => {
                log::warn!("plugin registry unreadable, built-ins only: {e}");
                return Self {
                    generation,
                    ..Self::default()
                };
            }
        };
        for p in problems {
            log::warn!("plugin skipped: {p}");
        }
        let now = ghost_registry::now_secs();
        let mut routes = Self {
            generation,
            ..Self::default()
        };
        let mut running: Vec<&Installed> = plugins
            .iter()
            .filter(|p| p.state.status(now) == Status::Enabled)
            .collect();
        running.sort_by(|a, b| {
            (b.manifest.priority, &a.manifest.id).cmp(&(a.manifest.priority, &b.manifest.id))
        });
        for p in running {
            match p.manifest.world {
                World::Classifier => routes.classifiers.push(p.manifest.clone()),
                World::Compressor => {
                    for class in p.manifest.classes.iter().copied() {
                        routes
                            .compressors
                            .entry(class)
                            .or_default()
                            .push(p.manifest.clone());
                    }
                }
            }
        }
        routes
    }

    /// The registry generation this table was read at.
    pub fn generation(&self) -> Generation {
        self.generation
    }

    /// The plugins for `class`, in the order they are tried.
    pub fn for_class(&self, class: ContentClass) -> &[Manifest] {
        self.compressors.get(&class).map_or(&[], Vec::as_slice)
    }

    /// The classifiers, in the order they are tried.
    pub fn classifiers(&self) -> &[Manifest] {
        &self.classifiers
    }

    /// What each plugin serves now: the classes where it comes first (and
    /// `classifier` for the first classifier).
    pub fn serving(&self) -> BTreeMap<String, Vec<String>> {
        let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (class, plugins) in &self.compressors {
            if let Some(first) = plugins.first() {
                out.entry(first.id.clone())
                    .or_default()
                    .push(class.as_str().to_string());
            }
        }
        if let Some(first) = self.classifiers.first() {
            out.entry(first.id.clone())
                .or_default()
                .push("classifier".to_string());
        }
        out
    }
}
