//! The built-in rules: what a secret looks like.
//!
//! Each rule is a pattern whose `secret` group (or whole match) is the
//! secret, and a kind that names it in the marker. Provider tokens are
//! matched by their published shapes (fixed prefixes, lengths); values are
//! judged by [`assigned_value_is_secret`] when only their name says they
//! may be secret.

use std::sync::OnceLock;

use regex::Regex;

/// How a rule's match is judged before it is redacted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Judge {
    /// Every match is a secret.
    Always,
    /// A value assigned to a secret-looking name: judged by the name and
    /// the value ([`assigned_value_is_secret`]).
    Assignment,
}

/// One rule.
#[derive(Debug)]
pub(crate) struct Rule {
    /// The kind the marker names.
    pub kind: String,
    /// The pattern; its `secret` group, when it has one, is what is replaced.
    pub pattern: String,
    /// The pattern, compiled on first use (most texts never need most rules).
    pub regex: OnceLock<Regex>,
    /// How a match is judged.
    pub judge: Judge,
    /// Strings (ASCII case ignored) one of which every match contains; a
    /// text without any is not searched. Empty: always searched.
    pub anchors: &'static [&'static str],
}

impl Rule {
    /// The compiled pattern.
    pub fn regex(&self) -> &Regex {
        self.regex
            .get_or_init(|| Regex::new(&self.pattern).expect("patterns are checked when built"))
    }
}

/// One built-in rule.
struct BuiltIn {
    kind: &'static str,
    pattern: &'static str,
    judge: Judge,
    anchors: &'static [&'static str],
}

const fn always(
    kind: &'static str,
    pattern: &'static str,
    anchors: &'static [&'static str],
) -> BuiltIn {
    BuiltIn {
        kind,
        pattern,
        judge: Judge::Always,
        anchors,
    }
}

/// The built-in rules, most specific first (an earlier rule's match wins
/// over an overlapping later one).
const BUILT_IN: &[BuiltIn] = &[
    always(
        "private-key",
        r"(?s)-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----.*?(?:-----END [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----|\z)",
        &["PRIVATE KEY"],
    ),
    always(
        "anthropic-key",
        r"(?-u:\b)sk-ant-[A-Za-z0-9_\-]{20,}",
        &["sk-ant-"],
    ),
    always(
        "openai-key",
        r"(?-u:\b)sk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_\-]{20,}|[A-Za-z0-9]{32,})",
        &["sk-"],
    ),
    always(
        "stripe-key",
        r"(?-u:\b)(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|(?-u:\b)whsec_[A-Za-z0-9]{24,}",
        &["sk_live_", "sk_test_", "rk_live_", "rk_test_", "whsec_"],
    ),
    always(
        "github-token",
        r"(?-u:\b)(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})",
        &["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"],
    ),
    always(
        "gitlab-token",
        r"(?-u:\b)gl(?:pat|dt|rt|cbt|ptt|ft|imt|agent|oas)-[A-Za-z0-9_\-]{20,}",
        &[
            "glpat-", "gldt-", "glrt-", "glcbt-", "glptt-", "glft-", "glimt-", "glagent-", "gloas-",
        ],
    ),
    always(
        "slack-token",
        r"(?-u:\b)xox[abposre]-[A-Za-z0-9\-]{10,}",
        &["xox"],
    ),
    always(
        "slack-webhook",
        r"hooks\.slack\.com/services/(?P<secret>T[A-Za-z0-9_]+/B[A-Za-z0-9_]+/[A-Za-z0-9_]+)",
        &["hooks.slack.com"],
    ),
    always(
        "aws-access-key",
        r"(?-u:\b)(?:AKIA|ASIA|ABIA|ACCA|AROA|AIDA)[0-9A-Z]{16}(?-u:\b)",
        &["AKIA", "ASIA", "ABIA", "ACCA", "AROA", "AIDA"],
    ),
    always(
        "google-api-key",
        r"(?-u:\b)AIza[0-9A-Za-z_\-]{35}",
        &["AIza"],
    ),
    always("npm-token", r"(?-u:\b)npm_[A-Za-z0-9]{36}", &["npm_"]),
    always(
        "pypi-token",
        r"(?-u:\b)pypi-AgE[A-Za-z0-9_\-]{50,}",
        &["pypi-"],
    ),
    always(
        "jwt",
        r"(?-u:\b)eyJ[A-Za-z0-9_\-]{10,}\.eyJ[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]*",
        &["eyJ"],
    ),
    always(
        "authorization",
        r#"(?i)(?-u:\b)(?:proxy-)?authorization\\?["']?\s*[:=]\s*\\?["']?(?:bearer|basic|token|digest)\s+(?P<secret>[A-Za-z0-9._~+/=\-]{8,})"#,
        &["authorization"],
    ),
    always(
        "url-password",
        r#"(?i)(?-u:\b)[a-z][a-z0-9+.\-]{1,20}://[^\s:/@'"`\\<>]+:(?P<secret>[^\s@/'"`\\<>]+)@"#,
        &["://"],
    ),
    // NAME=value, "name": "value", name: value, --name=value,
    // Password=value; in connection strings (JSON-escaped quotes too).
    BuiltIn {
        kind: "assignment",
        pattern: r#"(?i)(?P<name>[a-z0-9_.\-]*(?:passw(?:or)?d|passwd|pwd|passphrase|secret|token|api[_\-]?key|apikey|access[_\-]?key|private[_\-]?key|auth|credentials?)[a-z0-9_.\-]*)(?P<q1>\\?["']?)[ \t]*(?P<sep>:=|=|:)[ \t]*(?P<q2>\\?["']?)(?P<secret>[^\s"'`,;\\]+)"#,
        judge: Judge::Assignment,
        anchors: &[
            "pass",
            "pwd",
            "secret",
            "token",
            "key",
            "auth",
            "credential",
        ],
    },
];

/// The built-in rules, to be compiled on first use.
pub(crate) fn built_in() -> Vec<Rule> {
    BUILT_IN
        .iter()
        .map(|b| Rule {
            kind: b.kind.to_string(),
            pattern: b.pattern.to_string(),
            regex: OnceLock::new(),
            judge: b.judge,
            anchors: b.anchors,
        })
        .collect()
}

/// The kinds of the built-in rules, for configuration and documentation.
pub fn built_in_kinds() -> Vec<&'static str> {
    BUILT_IN.iter().map(|b| b.kind).collect()
}

/// How strongly a name says its value is secret.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NameStrength {
    /// A password or a secret: any real value is one.
    Password,
    /// A secret or private key.
    Secret,
    /// A token, key, auth or credential: only a random-looking value is one.
    MaybeSecret,
}

impl NameStrength {
    /// The kind a redacted value of this name gets.
    pub fn kind(self) -> &'static str {
        match self {
            NameStrength::Password => "password",
            NameStrength::Secret => "secret",
            NameStrength::MaybeSecret => "token",
        }
    }
}

/// How strongly `name` says its value is secret.
pub(crate) fn name_strength(name: &str) -> NameStrength {
    let lower = name.to_ascii_lowercase();
    if ["pass", "pwd", "passphrase"]
        .iter()
        .any(|w| lower.contains(w))
    {
        NameStrength::Password
    } else if lower.contains("secret") || lower.contains("private") {
        NameStrength::Secret
    } else {
        NameStrength::MaybeSecret
    }
}

/// Words that stand for no value at all: types, placeholders, literals.
const NOT_VALUES: &[&str] = &[
    "null",
    "none",
    "nil",
    "true",
    "false",
    "undefined",
    "required",
    "optional",
    "string",
    "str",
    "bytes",
    "int",
    "bool",
    "boolean",
    "object",
    "any",
    "unknown",
    "redacted",
    "hidden",
    "masked",
    "empty",
    "default",
    "example",
    "changeme",
    "placeholder",
    "xxx",
];

/// One value assigned to a secret-looking name, as written.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Assigned<'a> {
    /// The name (`DB_PASSWORD`, `api_key`).
    pub name: &'a str,
    /// Whether the value is in quotes.
    pub quoted: bool,
    /// Whether the name and value are joined by `=` (else `:`).
    pub equals: bool,
    /// The value.
    pub value: &'a str,
    /// What follows the value on its line.
    pub rest: &'a str,
}

/// Whether an assigned value is a secret: a real value rather than an
/// expression, a reference, a type, a number or a placeholder; for a name
/// that only may be secret, also random-looking.
pub(crate) fn assigned_value_is_secret(a: Assigned) -> bool {
    let Assigned {
        name,
        quoted,
        equals,
        value,
        rest,
    } = a;
    let lower = value.to_ascii_lowercase();
    let first = value.chars().next().unwrap_or(' ');
    if value.len() < 4
        || "$%{<[(*&@#!?|:=".contains(first)
        || value.contains(['(', ')', '[', ']', '{', '}', '<', '>'])
        || value.contains("->")
        || value.contains("::")
        || NOT_VALUES.contains(&lower.trim_end_matches('.'))
        || lower == name.to_ascii_lowercase()
        || value.chars().all(|c| c == first)
        || is_number(value)
    {
        return false;
    }
    if !quoted && identifier_like(value) {
        // An unquoted word is code (a type, a variable: `key: u32,`,
        // `token = next;`) when code follows it, unless it ends a
        // connection string's field (`Password=abc123;Database=x`); a word
        // without digits is a variable unless assigned in dotenv or shell
        // style (`DB_PASSWORD=hunter`).
        let rest = rest.trim_start();
        let code_follows = rest.starts_with(|c: char| ";,)]}=+-*/|&?:{<>.".contains(c));
        let connection_field = equals
            && rest.strip_prefix(';').is_some_and(|next| {
                let field = next.split(';').next().unwrap_or("");
                field.contains('=') && !field.contains(' ')
            });
        if code_follows && !connection_field {
            return false;
        }
        let env_style = equals && name.chars().all(|c| !c.is_ascii_lowercase());
        if value.contains('.') || !(env_style || value.chars().any(|c| c.is_ascii_digit())) {
            return false;
        }
    }
    match name_strength(name) {
        NameStrength::Password | NameStrength::Secret => true,
        NameStrength::MaybeSecret => looks_random(value),
    }
}

/// Whether `s` could be an identifier or a dotted path in code.
fn identifier_like(s: &str) -> bool {
    s.chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '-')
        && s.chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
}

/// Whether `s` is a numeric literal (`42`, `0xC000025C`, `6i32`, `1.5f`).
fn is_number(s: &str) -> bool {
    if let Some(hex) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        return hex.chars().all(|c| c.is_ascii_hexdigit() || c == '_');
    }
    let numeric_end = s
        .find(|c: char| !(c.is_ascii_digit() || c == '_' || c == '.'))
        .unwrap_or(s.len());
    const SUFFIXES: &[&str] = &[
        "", "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize",
        "f32", "f64", "u", "l", "ul", "ull", "ll", "f", "L", "UL", "ULL", "LL",
    ];
    s.starts_with(|c: char| c.is_ascii_digit()) && SUFFIXES.contains(&&s[numeric_end..])
}

/// Whether `value` looks like a generated credential: long, of a token's
/// alphabet, with letters and digits, and high character entropy.
pub(crate) fn looks_random(value: &str) -> bool {
    value.len() >= 16
        && value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "+/=_-.~".contains(c))
        && value.chars().any(|c| c.is_ascii_digit())
        && value.chars().any(|c| c.is_ascii_alphabetic())
        && shannon_entropy(value) >= 3.0
}

/// Bits of entropy per character of `s`.
fn shannon_entropy(s: &str) -> f64 {
    let mut counts = [0u32; 256];
    for b in s.bytes() {
        counts[b as usize] += 1;
    }
    let n = s.len() as f64;
    counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = c as f64 / n;
            -p * p.log2()
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_judged_by_their_name_and_look() {
        let judge = |name, quoted, equals, value, rest| {
            assigned_value_is_secret(Assigned {
                name,
                quoted,
                equals,
                value,
                rest,
            })
        };
        assert!(judge("DB_PASSWORD", false, true, "hunter2", ""));
        assert!(judge("DB_PASSWORD", false, true, "hunter", ""));
        assert!(judge("password", true, false, "hunter", ","));
        assert!(judge("password", false, false, "hunter2", ""));
        assert!(judge("Password", false, true, "abc123", ";Database=x"));
        assert!(judge(
            "DB_PASSWORD",
            false,
            true,
            "hunter2-Prompt-9",
            " on staging"
        ));
        assert!(!judge("NCRYPT_SECRET_HANDLE", false, true, "isize", ";"));
        assert!(!judge("X_PASSWORD", false, true, "Option<unsafe", ""));
        assert!(!judge("password", false, true, "password", ""));
        assert!(!judge("password", false, true, "self.password", ""));
        assert!(!judge("password", false, true, "request", ""));
        assert!(!judge("password", true, false, "${DB_PASS}", ""));
        assert!(!judge("password", true, false, "********", ""));
        assert!(!judge("max_tokens", false, true, "4096", ""));
        assert!(!judge("token", true, false, "abc", ""));
        assert!(!judge("tokenizer", true, false, "gpt2", ""));
        assert!(judge(
            "api_key",
            true,
            false,
            "9f86d081884c7d659a2feaa0c55ad015",
            ""
        ));
        assert!(!judge("author", true, false, "Jane Doe", ""));
        assert!(!judge("secret", false, false, "str", ""));
        assert!(!judge(
            "ERROR_PWD_NOT_IN_QUOTES",
            false,
            false,
            "u32",
            " = 8556;"
        ));
        assert!(!judge(
            "STATUS_PWD_TOO_LONG",
            false,
            false,
            "NTSTATUS",
            " = 0xC000027A;"
        ));
        assert!(!judge("PASSKEY", false, true, "5i32", ";"));
        assert!(!judge("log_passwd", false, false, "c_ulong", ","));
        assert!(!judge(
            "xFindTokenizer_v2",
            false,
            true,
            "fts5FindTokenizer_v2",
            ";"
        ));
        assert!(!judge("secret", false, false, "12345", ","));
    }
}
