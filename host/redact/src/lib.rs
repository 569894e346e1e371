//! Secret redaction: every credential in a text replaced by a marker that
//! names its kind and a short keyed hash (`[secret:github-token:3f9a2c1b]`),
//! every `<private>…</private>` span by `[private]`.
//!
//! - [`Redactor`]: the rules and the key; [`Redactor::redact`] does the work;
//! - [`RedactRules`]: what the user configured (allow and deny patterns,
//!   rules turned off);
//! - [`key`]: the hashing key, in a 0600 file created on first use.
//!
//! Redacting is idempotent: a marker never matches a rule, so a text can go
//! through any number of layers (ingest, the store, the MCP server) and come
//! out the same.

pub mod key;
mod rules;

use std::borrow::Cow;
use std::path::Path;
use std::sync::{Arc, OnceLock};

use aho_corasick::AhoCorasick;
use regex::Regex;

pub use key::Key;
pub use rules::built_in_kinds;
use rules::{Judge, Rule};

/// What can go wrong building a redactor.
#[derive(Debug, thiserror::Error)]
pub enum RedactError {
    /// A configured pattern is not a valid regular expression.
    #[error("redaction pattern {pattern:?} is not a valid regular expression: {source}")]
    Pattern {
        /// The pattern.
        pattern: String,
        /// Why.
        source: Box<regex::Error>,
    },
    /// A rule named to be turned off does not exist.
    #[error("no redaction rule is called {0:?} (the rules: {kinds})", kinds = built_in_kinds().join(", "))]
    UnknownRule(String),
    /// The key file could not be read or created.
    #[error("the redaction key {path}: {source}")]
    Key {
        /// The key file.
        path: std::path::PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

/// The user's redaction settings (the `[redact]` table of ghost's config;
/// every key optional, an unknown one an error).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RedactRules {
    /// Patterns whose matches are never redacted (a test fixture's fake
    /// key, a public id that looks like a token).
    pub allow: Vec<String>,
    /// Patterns whose matches are always redacted (kind `custom`; a
    /// `secret` group, when present, is what is replaced).
    pub deny: Vec<String>,
    /// Built-in rules turned off, by kind.
    pub off: Vec<String>,
}

/// The marker of `[private]` spans.
pub const PRIVATE_MARKER: &str = "[private]";

/// Finds and replaces secrets. Cheap to clone; each rule's pattern is
/// compiled the first time a text holds one of its anchors.
#[derive(Debug, Clone)]
pub struct Redactor {
    rules: Arc<Vec<Rule>>,
    /// Every rule's anchors, then `<private`.
    anchors: Arc<AhoCorasick>,
    /// The rule each anchor belongs to (`None`: the private span's).
    anchor_rule: Arc<Vec<Option<usize>>>,
    allow: Arc<Vec<Regex>>,
    private: Arc<OnceLock<Regex>>,
    key: Key,
}

/// One secret found.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Found {
    start: usize,
    end: usize,
    kind: String,
}

impl Redactor {
    /// The built-in rules with `key`.
    pub fn new(key: Key) -> Self {
        Self::with_rules(key, &RedactRules::default()).expect("the built-in rules compile")
    }

    /// The built-in rules adjusted by `rules`, with `key`.
    pub fn with_rules(key: Key, rules: &RedactRules) -> Result<Self, RedactError> {
        let compile = |pattern: &String| {
            Regex::new(pattern).map_err(|source| RedactError::Pattern {
                pattern: pattern.clone(),
                source: Box::new(source),
            })
        };
        let kinds = built_in_kinds();
        if let Some(unknown) = rules.off.iter().find(|k| !kinds.contains(&k.as_str())) {
            return Err(RedactError::UnknownRule(unknown.clone()));
        }
        let mut compiled: Vec<Rule> = Vec::new();
        for pattern in &rules.deny {
            compiled.push(Rule {
                kind: "custom".to_string(),
                pattern: pattern.clone(),
                regex: OnceLock::from(compile(pattern)?),
                judge: Judge::Always,
                anchors: &[],
            });
        }
        compiled.extend(
            rules::built_in()
                .into_iter()
                .filter(|r| !rules.off.contains(&r.kind)),
        );
        let mut anchors: Vec<&str> = Vec::new();
        let mut anchor_rule = Vec::new();
        for (i, rule) in compiled.iter().enumerate() {
            for anchor in rule.anchors {
                anchors.push(anchor);
                anchor_rule.push(Some(i));
            }
        }
        anchors.push("<private");
        anchor_rule.push(None);
        let anchors = AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .build(&anchors)
            .expect("anchors are plain strings");
        Ok(Self {
            rules: Arc::new(compiled),
            anchors: Arc::new(anchors),
            anchor_rule: Arc::new(anchor_rule),
            allow: Arc::new(rules.allow.iter().map(compile).collect::<Result<_, _>>()?),
            private: Arc::new(OnceLock::new()),
            key,
        })
    }

    /// The built-in rules adjusted by `rules`, keyed by the key file in
    /// `dir` (created on first use).
    pub fn in_dir(dir: &Path, rules: &RedactRules) -> Result<Self, RedactError> {
        Self::with_rules(Key::load_or_create(dir)?, rules)
    }

    /// The marker that replaces `secret` of `kind`.
    pub fn marker(&self, kind: &str, secret: &str) -> String {
        format!("[secret:{kind}:{}]", self.key.short_hash(secret))
    }

    /// `text` with every secret replaced by its marker and every private
    /// span by [`PRIVATE_MARKER`]; borrowed when there was nothing to
    /// replace.
    pub fn redact<'a>(&self, text: &'a str) -> Cow<'a, str> {
        let (searched, private) = self.rules_to_search(text);
        let private_free = if private {
            let span = self.private.get_or_init(|| {
                Regex::new(r"(?is)<private>.*?(?:</private>|\z)").expect("compiles")
            });
            span.replace_all(text, PRIVATE_MARKER)
        } else {
            Cow::Borrowed(text)
        };
        if searched.iter().all(|s| !s) {
            return private_free;
        }
        let found = self.find(&private_free, &searched);
        if found.is_empty() {
            return private_free;
        }
        let mut out = String::with_capacity(private_free.len());
        let mut at = 0;
        for f in &found {
            out.push_str(&private_free[at..f.start]);
            out.push_str(&self.marker(&f.kind, &private_free[f.start..f.end]));
            at = f.end;
        }
        out.push_str(&private_free[at..]);
        Cow::Owned(out)
    }

    /// `text` redacted, owned.
    pub fn redact_owned(&self, text: String) -> String {
        match self.redact(&text) {
            Cow::Borrowed(_) => text,
            Cow::Owned(redacted) => redacted,
        }
    }

    /// Which rules `text` holds an anchor of (rules without anchors
    /// always), and whether it may hold a private span.
    fn rules_to_search(&self, text: &str) -> (Vec<bool>, bool) {
        let mut searched: Vec<bool> = self.rules.iter().map(|r| r.anchors.is_empty()).collect();
        let mut private = false;
        for m in self.anchors.find_overlapping_iter(text) {
            match self.anchor_rule[m.pattern().as_usize()] {
                Some(rule) => searched[rule] = true,
                None => private = true,
            }
        }
        (searched, private)
    }

    /// The secrets in `text`, in order, without overlaps (an earlier rule
    /// wins over a later one, then the earlier match), by the rules marked
    /// in `searched`.
    fn find(&self, text: &str, searched: &[bool]) -> Vec<Found> {
        // Markers already in the text are never part of a new secret (a
        // URL whose password is a marker is redacted already): redacting is
        // idempotent.
        let markers: Vec<(usize, usize)> = if text.contains("[secret:") {
            static MARKER: std::sync::OnceLock<Regex> = std::sync::OnceLock::new();
            MARKER
                .get_or_init(|| {
                    Regex::new(r"\[secret:[a-z0-9_-]+:[0-9a-f]{8}\]").expect("compiles")
                })
                .find_iter(text)
                .map(|m| (m.start(), m.end()))
                .collect()
        } else {
            Vec::new()
        };
        let mut found: Vec<Found> = Vec::new();
        for (rule, _) in self.rules.iter().zip(searched).filter(|(_, s)| **s) {
            for caps in rule.regex().captures_iter(text) {
                let whole = caps.get(0).expect("group 0");
                let secret = caps.name("secret").unwrap_or(whole);
                let kind = match rule.judge {
                    Judge::Always => rule.kind.clone(),
                    Judge::Assignment => {
                        let name = caps.name("name").map_or("", |m| m.as_str());
                        let after = &text[secret.end()..];
                        let assigned = rules::Assigned {
                            name,
                            quoted: caps.name("q2").is_some_and(|m| !m.as_str().is_empty()),
                            equals: caps.name("sep").is_some_and(|m| m.as_str() != ":"),
                            value: secret.as_str(),
                            rest: &after[..after.find('\n').unwrap_or(after.len())],
                        };
                        if !rules::assigned_value_is_secret(assigned) {
                            continue;
                        }
                        rules::name_strength(name).kind().to_string()
                    }
                };
                if secret.is_empty() || self.allow.iter().any(|a| a.is_match(secret.as_str())) {
                    continue;
                }
                let overlaps = found
                    .iter()
                    .map(|f| (f.start, f.end))
                    .chain(markers.iter().copied())
                    .any(|(start, end)| secret.start() < end && start < secret.end());
                if !overlaps {
                    found.push(Found {
                        start: secret.start(),
                        end: secret.end(),
                        kind,
                    });
                }
            }
        }
        found.sort_by_key(|f| f.start);
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn redactor() -> Redactor {
        Redactor::new(Key::from_bytes([7; 32]))
    }

    #[test]
    fn a_url_whose_password_is_a_marker_is_left_as_it_is() {
        let r = redactor();
        let once = r
            .redact("git push https://x:ghp_R4nd0mL00k1ngT0k3nV4lu3AbCdEf1234567@github.com/a/b")
            .into_owned();
        assert!(once.contains("[secret:"), "{once}");
        assert_eq!(r.redact(&once), once);
    }

    #[test]
    fn provider_tokens_are_replaced_by_kind_and_equal_secrets_stay_equal() {
        let r = redactor();
        let token = "ghp_0123456789abcdefghijABCDEFGHIJ012345";
        let text = format!("push with {token}\nagain {token}\n");
        let out = r.redact(&text);
        assert!(!out.contains(token), "{out}");
        let marker = r.marker("github-token", token);
        assert_eq!(out.matches(&marker).count(), 2, "{out}");
        assert!(marker.starts_with("[secret:github-token:"), "{marker}");
        // Another key, another hash.
        let other = Redactor::new(Key::from_bytes([8; 32]));
        assert_ne!(other.marker("github-token", token), marker);
    }

    #[test]
    fn every_kind_is_found() {
        let r = redactor();
        let cases = [
            ("AKIAIOSFODNN7EXAMPLE", "aws-access-key"),
            (
                "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
                "secret",
            ),
            ("glpat-abcdefghij0123456789", "gitlab-token"),
            ("xoxb-1234567890-abcdefghijkl", "slack-token"),
            ("sk_live_4eC39HqLyjWDarjtT1zdp7dc", "stripe-key"),
            ("sk-proj-abcdefghijklmnopqrstuvwxyz0123456789", "openai-key"),
            (
                "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789",
                "anthropic-key",
            ),
            ("npm_abcdefghijklmnopqrstuvwxyz0123456789", "npm-token"),
            (
                "pypi-AgEIcHlwaS5vcmcCJGFiY2RlZmdoLWlqa2wtbW5vcC1xcnN0LXV2d3h5ejAxMjM0NTY3",
                "pypi-token",
            ),
            ("AIzaSyA-abcdefghijklmnopqrstuvwxyz01234", "google-api-key"),
            (
                "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
                "jwt",
            ),
            (
                "postgres://app:s3cr3t-pw@db.internal:5432/app",
                "url-password",
            ),
            ("Authorization: Bearer abcdef0123456789", "authorization"),
            ("DB_PASSWORD=hunter2", "password"),
            ("\"password\": \"correct horse\"", "password"),
            ("Server=db;User Id=sa;Password=P@ssw0rd!;", "password"),
            ("\"api_key\": \"9f86d081884c7d659a2feaa0c55ad015\"", "token"),
            (
                "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----",
                "private-key",
            ),
        ];
        for (text, kind) in cases {
            let out = r.redact(text);
            assert!(
                out.contains(&format!("[secret:{kind}:")),
                "{text:?} → {out:?}"
            );
        }
    }

    #[test]
    fn code_and_logs_without_secrets_are_left_alone() {
        let r = redactor();
        for text in [
            "password = request.form['password']",
            "def check_password(self, password):",
            "token = self.next_token()",
            "max_tokens = 4096",
            "let key = map.get(&token)?;",
            "author: Jane Doe",
            "Password: ********",
            "secret_key = os.environ['SECRET_KEY']",
            "url = 'https://example.com:8080/path'",
            "ERROR: token expired at line 3",
            "git@github.com:user/repo.git",
            "password_hash: str = Field(...)",
        ] {
            assert_eq!(r.redact(text), text, "{text}");
        }
    }

    #[test]
    fn private_spans_go_and_markers_are_stable() {
        let r = redactor();
        let out = r.redact("a <private>my home address</private> b <PRIVATE>x");
        assert_eq!(out, "a [private] b [private]");
        let once = r
            .redact("export GITHUB_TOKEN=ghp_0123456789abcdefghijABCDEFGHIJ012345")
            .into_owned();
        assert_eq!(r.redact(&once), once, "idempotent");
    }

    #[test]
    fn allow_deny_and_off_are_honoured() {
        let rules = RedactRules {
            allow: vec!["^AKIAIOSFODNN7EXAMPLE$".into()],
            deny: vec![r"acme-(?P<secret>[0-9]{6})".into()],
            off: vec!["jwt".into()],
        };
        let r = Redactor::with_rules(Key::from_bytes([1; 32]), &rules).unwrap();
        assert_eq!(r.redact("AKIAIOSFODNN7EXAMPLE"), "AKIAIOSFODNN7EXAMPLE");
        assert!(r.redact("id acme-123456").contains("acme-[secret:custom:"));
        let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abc";
        assert_eq!(r.redact(jwt), jwt);
        let bad = RedactRules {
            off: vec!["jwts".into()],
            ..RedactRules::default()
        };
        let err = Redactor::with_rules(Key::from_bytes([1; 32]), &bad).unwrap_err();
        assert!(err.to_string().contains("private-key"), "{err}");
    }
}
