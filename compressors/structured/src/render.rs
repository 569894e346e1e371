//! Rendering a parsed document as a short outline: every key path down to a
//! depth, long strings cut with their length. Records (an array of objects
//! of one shape, or a map from names to such objects) become a table: one
//! header, one row per record with its identifying fields, up to
//! [`Outline::table_rows`] rows; only beyond that are they sampled, with
//! counts. Names are never sampled away within those rows either: a list
//! of short words (versions, packages) is listed whole, a few to a line,
//! and a map of names to scalars (`scripts`) keeps every key. Other long
//! arrays show their first items plus `… and N more items of the same
//! shape`.

use std::cell::Cell;

use serde_json::{Map, Value};

/// Knobs of the outline.
#[derive(Debug, Clone)]
pub struct Outline {
    /// Deepest level whose keys are listed; deeper values are summarised.
    pub max_depth: usize,
    /// Items of an array shown before the rest is summarised.
    pub array_items: usize,
    /// A map with more entries than this, all of one shape, is sampled like an array.
    pub map_entries: usize,
    /// Strings longer than this are cut.
    pub max_string: usize,
    /// Rows of a table of records shown before the rest is sampled.
    pub table_rows: usize,
    /// Columns of a table of records.
    pub table_columns: usize,
    /// Rows of records still to show below `max_depth` in this render
    /// (see [`Outline::deep_object`]): [`Outline::table_rows`] in all.
    deep_rows_left: Cell<usize>,
}

impl Default for Outline {
    fn default() -> Self {
        Self {
            max_depth: 4,
            array_items: 2,
            map_entries: 12,
            max_string: 80,
            table_rows: 400,
            table_columns: 6,
            deep_rows_left: Cell::new(0),
        }
    }
}

impl Outline {
    /// Renders `value` as indented JSON-like lines.
    pub fn render(&self, value: &Value) -> String {
        self.deep_rows_left.set(self.table_rows);
        let mut out = String::new();
        self.value(value, 0, &mut out);
        out.push('\n');
        out
    }

    fn value(&self, v: &Value, depth: usize, out: &mut String) {
        match v {
            Value::Object(map) => self.object(map, depth, out),
            Value::Array(items) => self.array(items, depth, out),
            Value::String(s) => out.push_str(&self.string(s)),
            other => out.push_str(&other.to_string()),
        }
    }

    fn string(&self, s: &str) -> String {
        if s.chars().count() <= self.max_string {
            return Value::String(s.to_string()).to_string();
        }
        let head: String = s.chars().take(self.max_string * 3 / 4).collect();
        format!(
            "{}… ({} chars)",
            Value::String(head).to_string().trim_end_matches('"'),
            s.chars().count()
        )
    }

    fn object(&self, map: &Map<String, Value>, depth: usize, out: &mut String) {
        if map.is_empty() {
            out.push_str("{}");
            return;
        }
        if depth >= self.max_depth {
            self.deep_object(map, depth, out);
            return;
        }
        let pad = "  ".repeat(depth + 1);
        // A long map of records is a table; so is a map of records forming
        // a tree however short (`npm ls --all --json`: a package's two
        // dependencies, each with its own): its records are what it holds.
        if depth > 0
            && (map.len() > self.map_entries || map.len() > 1 && is_tree_of_records(map))
            && let Some(records) = records_of(map.iter().map(|(k, v)| (Some(k.as_str()), v)))
        {
            self.table(&records, depth, out);
            return;
        }
        // A manifest's map of names to short values (`dependencies`: a
        // package → its version range) is listed whole, a few to a line.
        if map.len() > self.map_entries && is_name_map(map) {
            let rows: Vec<Vec<String>> = map
                .iter()
                .take(self.table_rows)
                .map(|(k, v)| vec![k.clone(), self.cell(v)])
                .collect();
            push_listed("entries", &rows, map.len(), depth, out);
            return;
        }
        out.push_str("{\n");
        // A long map whose values all share one shape (versions → dates,
        // packages → entries) is sampled like an array, except at the top;
        // but names with scalar values (`scripts`, `properties`) are what
        // such a map holds: every key stays, up to the table's rows.
        let names = map.values().all(is_scalar) && mostly_named(map);
        let sample = depth > 0
            && map.len() > self.map_entries
            && one_shape(map.values())
            && (!names || map.len() > self.table_rows);
        let shown = if !sample {
            map.len()
        } else if names {
            self.table_rows
        } else {
            self.array_items
        };
        for (k, v) in map.iter().take(shown) {
            out.push_str(&pad);
            out.push_str(&Value::String(k.clone()).to_string());
            out.push_str(": ");
            self.value(v, depth + 1, out);
            out.push('\n');
        }
        if sample {
            // The last entry too: in version and time maps it is the newest.
            let (last_key, last_value) = map.iter().next_back().expect("non-empty");
            out.push_str(&format!(
                "{pad}… and {} more keys of the same shape {}\n",
                map.len() - shown - 1,
                shape(last_value)
            ));
            out.push_str(&pad);
            out.push_str(&Value::String(last_key.clone()).to_string());
            out.push_str(": ");
            self.value(last_value, depth + 1, out);
            out.push('\n');
        }
        out.push_str(&"  ".repeat(depth));
        out.push('}');
    }

    fn array(&self, items: &[Value], depth: usize, out: &mut String) {
        if items.is_empty() {
            out.push_str("[]");
            return;
        }
        if items.iter().all(|v| !v.is_object() && !v.is_array()) && items.len() <= LISTED_INLINE {
            let parts: Vec<String> = items
                .iter()
                .map(|v| match v {
                    Value::String(s) => self.string(s),
                    other => other.to_string(),
                })
                .collect();
            out.push_str(&format!("[{}]", parts.join(", ")));
            return;
        }
        // A list of short words (versions, names, paths) is names: listed
        // whole, a few to a line, up to the table's rows.
        if let Some(words) = words_of(items) {
            let rows: Vec<Vec<String>> = words
                .into_iter()
                .take(self.table_rows)
                .map(|w| vec![w])
                .collect();
            push_listed("items", &rows, items.len(), depth, out);
            return;
        }
        if items.len() > self.array_items + 1
            && let Some(records) = records_of(items.iter().map(|v| (None, v)))
        {
            let left = self.deep_rows_left.get();
            if depth < self.max_depth || records.len() <= left {
                if depth >= self.max_depth {
                    self.deep_rows_left.set(left - records.len());
                }
                self.table(&records, depth, out);
                return;
            }
        }
        if depth >= self.max_depth {
            self.deep_array(items, depth, out);
            return;
        }
        let pad = "  ".repeat(depth + 1);
        out.push_str("[\n");
        let shown = items.len().min(self.array_items);
        for v in &items[..shown] {
            out.push_str(&pad);
            self.value(v, depth + 1, out);
            out.push('\n');
        }
        if items.len() > shown + 1 {
            let rest = &items[shown..items.len() - 1];
            let same = one_shape(rest.iter().chain(std::iter::once(&items[0])));
            out.push_str(&format!(
                "{pad}… and {} more items {}\n",
                rest.len(),
                if same {
                    format!("of the same shape {}", shape(&items[0]))
                } else {
                    "of mixed shapes".to_string()
                }
            ));
        }
        if items.len() > shown {
            // The last item too: lists often grow at the end.
            out.push_str(&pad);
            self.value(&items[items.len() - 1], depth + 1, out);
            out.push('\n');
        }
        out.push_str(&"  ".repeat(depth));
        out.push(']');
    }
}

/// Levels below the outline's depth searched for records (see
/// [`holds_records`]): XML's results nest tests ten deep.
const RECORDS_SEARCHED_DEEPER: usize = 12;

impl Outline {
    /// An object past the outline's depth: summarised by its keys, but for
    /// the records below it (a test report's cases under its suites), which
    /// are what the document holds; the way to them and the fields naming
    /// each level (`@name`) stay, while the render has rows left for them
    /// (a document of thousands of small tables is outlined as before).
    fn deep_object(&self, map: &Map<String, Value>, depth: usize, out: &mut String) {
        let leads: Vec<&String> = if self.deep_rows_left.get() == 0 {
            Vec::new()
        } else {
            map.iter()
                .filter(|(_, v)| self.holds_records(v, RECORDS_SEARCHED_DEEPER))
                .map(|(k, _)| k)
                .collect()
        };
        if leads.is_empty() {
            out.push_str(&format!("{{… {} keys: {}}}", map.len(), key_list(map, 6)));
            return;
        }
        let pad = "  ".repeat(depth + 1);
        out.push_str("{\n");
        let mut others = 0;
        for (k, v) in map {
            let names = is_scalar(v) && names_a_record(k);
            if !names && !leads.contains(&k) {
                others += 1;
                continue;
            }
            out.push_str(&pad);
            out.push_str(&Value::String(k.clone()).to_string());
            out.push_str(": ");
            self.value(v, depth + 1, out);
            out.push('\n');
        }
        if others > 0 {
            out.push_str(&format!(
                "{pad}… {others} more key{}\n",
                if others == 1 { "" } else { "s" }
            ));
        }
        out.push_str(&"  ".repeat(depth));
        out.push('}');
    }

    /// An array past the outline's depth (not itself records): summarised
    /// by its shape, but for items holding records, each shown (see
    /// [`Outline::deep_object`]).
    fn deep_array(&self, items: &[Value], depth: usize, out: &mut String) {
        if self.deep_rows_left.get() == 0
            || !items
                .iter()
                .any(|v| self.holds_records(v, RECORDS_SEARCHED_DEEPER))
        {
            out.push_str(&format!(
                "[… {} items of shape {}]",
                items.len(),
                shape(&items[0])
            ));
            return;
        }
        let pad = "  ".repeat(depth + 1);
        out.push_str("[\n");
        for v in items.iter().take(self.table_rows) {
            out.push_str(&pad);
            self.value(v, depth + 1, out);
            out.push('\n');
        }
        if items.len() > self.table_rows {
            out.push_str(&format!(
                "{pad}… and {} more items\n",
                items.len() - self.table_rows
            ));
        }
        out.push_str(&"  ".repeat(depth));
        out.push(']');
    }

    /// Whether `v` is or holds, within `levels` levels, records the outline
    /// shows as a table: an array of more than a few objects of one shape.
    fn holds_records(&self, v: &Value, levels: usize) -> bool {
        match v {
            Value::Array(items) => {
                items.len() > self.array_items + 1
                    && records_of(items.iter().map(|v| (None, v))).is_some()
                    || levels > 0 && items.iter().any(|v| self.holds_records(v, levels - 1))
            }
            Value::Object(map) => {
                levels > 0 && map.values().any(|v| self.holds_records(v, levels - 1))
            }
            _ => false,
        }
    }
}

/// One record of a table: its key in a map (`None` in an array) and its fields.
type Record<'a> = (Option<&'a str>, &'a Map<String, Value>);

/// Field names that identify a record, most telling first. A field whose
/// name ends in one of these (`package_name`, `file_path`) counts too.
const IDENTIFYING: &[&str] = &[
    "name", "id", "key", "path", "file", "version", "title", "type", "kind", "status", "url",
];

/// `entries` as records, when every one is an object and they share a shape.
fn records_of<'a>(
    entries: impl Iterator<Item = (Option<&'a str>, &'a Value)>,
) -> Option<Vec<Record<'a>>> {
    let records: Vec<Record<'a>> = entries
        .map(|(k, v)| v.as_object().map(|m| (k, m)))
        .collect::<Option<_>>()?;
    // An empty record is one with nothing known of it (npm's `{}` for an
    // optional dependency not installed); the others share a shape.
    let first = records.iter().find(|(_, m)| !m.is_empty())?.1;
    let one_shape = records.iter().all(|(_, m)| {
        let shared = first.keys().filter(|k| m.contains_key(*k)).count();
        shared * 2 >= first.len().max(m.len()) || m.is_empty()
    });
    let empty = records.iter().filter(|(_, m)| m.is_empty()).count();
    (one_shape && empty * 2 < records.len()).then_some(records)
}

/// Whether `map` maps names to records (each but an empty one with a
/// field of its own, as npm's `version`) of which one at least has records
/// of its own under a field (see [`children`]): a tree. Maps of maps with
/// nothing but maps in them are a path, not records.
fn is_tree_of_records(map: &Map<String, Value>) -> bool {
    let records: Option<Vec<&Map<String, Value>>> = map.values().map(Value::as_object).collect();
    records.is_some_and(|records| {
        records
            .iter()
            .all(|m| m.is_empty() || m.values().any(is_scalar))
            && records.iter().any(|m| !children(m).is_empty())
    })
}

/// How telling a field's name is: its place in [`IDENTIFYING`]; a name
/// ending in one of them (`package_name`) after every exact one; any other
/// field last.
fn identifying_rank(field: &str) -> usize {
    let lower = field.to_ascii_lowercase();
    let n = IDENTIFYING.len();
    IDENTIFYING
        .iter()
        .position(|w| lower == *w)
        .or_else(|| {
            IDENTIFYING
                .iter()
                .position(|w| lower.ends_with(w))
                .map(|i| n + i)
        })
        .unwrap_or(2 * n)
}

/// Cells longer than this on average make a column not worth its width,
/// unless it names a record (see [`names_a_record`]) or its values mostly
/// differ (a diagnostic's message).
const WIDE_COLUMN_CHARS: usize = 48;

/// A content column's cells (see [`Outline::table`]) are cut only past
/// this many characters.
const CONTENT_CELL_CHARS: usize = 160;

/// What a candidate column holds over a table's sample of records.
struct ColumnProfile {
    /// A scalar in at least half the records.
    in_most: bool,
    /// Its cells average at most [`WIDE_COLUMN_CHARS`].
    narrow: bool,
    /// At least half its cells differ from each other.
    differs: bool,
    /// Its cells' mean length in characters.
    mean_chars: usize,
    /// Its values are arrays of named records (see [`names_of`]), shown
    /// by their names: records inside a record, identified.
    names_records: bool,
}

/// A small object inside a record (`location: {row, column}`) gives its
/// scalar fields as columns when it has at most this many fields.
const NESTED_FIELDS_AT_MOST: usize = 12;

/// A scalar JSON value (not null, not an object or array).
fn is_scalar(v: &Value) -> bool {
    !v.is_object() && !v.is_array() && !v.is_null()
}

/// The records of an array named, when each is a record with a name
/// (`targets` of a cargo package: `[{"name": "ghost", "kind": …}, …]` →
/// `ghost, ghost_bench`): a cell of a table of records, as the records
/// inside a record are identified by their names.
fn names_of(v: &Value) -> Option<String> {
    holds_named_records(v)
        .then(|| names_within(v, NESTED_NAMES_DEPTH))
        .flatten()
}

/// Whether `v` is a non-empty array of records, each with a `name`.
fn holds_named_records(v: &Value) -> bool {
    v.as_array().is_some_and(|items| {
        !items.is_empty()
            && items
                .iter()
                .all(|i| i.get("name").is_some_and(Value::is_string))
    })
}

/// How deep [`names_of`] names records inside the named ones.
const NESTED_NAMES_DEPTH: usize = 4;

/// [`names_of`], each record followed by the names of the records inside
/// it, in parentheses, `depth` levels down (yarn's tree: `string-width@5.1.2
/// (ansi-regex@^6.2.2)`).
fn names_within(v: &Value, depth: usize) -> Option<String> {
    let items = v.as_array().filter(|a| !a.is_empty())?;
    let names: Option<Vec<String>> = items
        .iter()
        .map(|item| {
            let record = item.as_object()?;
            let name = record.get("name")?.as_str()?;
            let inner = (depth > 1)
                .then(|| record.values().find_map(|f| names_within(f, depth - 1)))
                .flatten();
            Some(match inner {
                Some(inner) => format!("{name} ({inner})"),
                None => name.to_string(),
            })
        })
        .collect();
    Some(names?.join(", "))
}

/// A record's field by column name: `name`, or `metadata.name` inside an
/// object field.
fn field<'a>(m: &'a Map<String, Value>, column: &str) -> Option<&'a Value> {
    m.get(column).or_else(|| {
        let (outer, inner) = column.split_once('.')?;
        m.get(outer)?.as_object()?.get(inner)
    })
}

/// Records past a table's rows named, at most, per row of it (see
/// [`Outline::table`]).
const NAMES_PAST_ROWS: usize = 4;

/// The shown column that names a record best (`name` before `id`, `key`,
/// `path`: the columns are in that order) and its `version`, if shown:
/// what a record past a table's rows keeps.
fn naming_columns<'c>(columns: &[&'c str]) -> Vec<&'c str> {
    let name = columns.iter().copied().find(|c| names_a_record(c));
    let version = columns
        .iter()
        .copied()
        .find(|c| last_part(c).eq_ignore_ascii_case("version"));
    name.into_iter().chain(version).collect()
}

/// Whether a column names its record: its last name part is or ends in
/// one of the first identifying words (`name`, `id`, `key`, `path`,
/// `file`: `filename`, `metadata.name`, `file_path`).
fn names_a_record(column: &str) -> bool {
    let last = last_part(column).to_ascii_lowercase();
    IDENTIFYING[..5].iter().any(|w| last.ends_with(w))
}

/// The order of columns: by [`identifying_rank`] of the last name part, a
/// top-level field before a nested one of the same rank.
fn column_rank(column: &str) -> usize {
    let last = last_part(column);
    identifying_rank(last) * 2 + usize::from(last.len() < column.len())
}

/// The field name of a column: `name` of `metadata.name`.
fn last_part(column: &str) -> &str {
    column.rsplit('.').next().unwrap_or(column)
}

/// Whether column `d` determines column `c` over `records`: `d` repeats
/// (fewer distinct values than records having it) and each of its values
/// goes with one value of `c`.
/// Whether the cells of column `c` hold those of column `d` (two
/// characters or more) in nearly every record having both.
fn spells_out(records: &[Record<'_>], c: &str, d: &str) -> bool {
    let text = |v: &Value| match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let (mut rows, mut held) = (0, 0);
    for (_, m) in records {
        let (Some(cv), Some(dv)) = (field(m, c), field(m, d)) else {
            continue;
        };
        rows += 1;
        let (cv, dv) = (text(cv), text(dv));
        held += usize::from(dv.len() >= 2 && cv.len() > dv.len() && cv.contains(&dv));
    }
    rows > 0 && held as f64 >= rows as f64 * SPELLED_OUT_SHARE
}

/// Share of records in which a column must hold another's cells to spell
/// it out (see [`spells_out`]).
const SPELLED_OUT_SHARE: f64 = 0.9;

fn determines(records: &[Record<'_>], d: &str, c: &str) -> bool {
    let mut seen: std::collections::HashMap<String, String> = std::collections::HashMap::new();
    let mut rows = 0;
    for (_, m) in records {
        let (Some(dv), Some(cv)) = (field(m, d), field(m, c)) else {
            continue;
        };
        rows += 1;
        let (dv, cv) = (dv.to_string(), cv.to_string());
        match seen.get(&dv) {
            Some(prev) if *prev != cv => return false,
            Some(_) => {}
            None => {
                seen.insert(dv, cv);
            }
        }
    }
    rows > 0 && seen.len() < rows
}

impl Outline {
    /// `records` as a table: a header naming the columns (the identifying
    /// scalar fields first), a row per record, `key` first for a map.
    fn table(&self, records: &[Record<'_>], depth: usize, out: &mut String) {
        let pad = "  ".repeat(depth + 1);
        // Candidate columns: each field, and the scalar fields of a small
        // object inside a record (`metadata.name`, `location.row`), in the
        // order they first appear.
        let sample = &records[..records.len().min(200)];
        let mut fields: Vec<String> = Vec::new();
        let mut add = |f: String| {
            if !fields.contains(&f) {
                fields.push(f);
            }
        };
        for (_, m) in sample {
            for (k, v) in m.iter() {
                match v {
                    Value::Object(inner)
                        if !inner.is_empty() && inner.len() <= NESTED_FIELDS_AT_MOST =>
                    {
                        for (ik, iv) in inner {
                            if is_scalar(iv) {
                                add(format!("{k}.{ik}"));
                            }
                        }
                    }
                    _ => add(k.clone()),
                }
            }
        }
        // Fields that are scalars (not null) in most records, and not too
        // wide unless they identify or tell records apart; each field's
        // cells are read once.
        let profiles: std::collections::HashMap<&str, ColumnProfile> = fields
            .iter()
            .map(|f| (f.as_str(), self.profile(sample, f)))
            .collect();
        let mut candidates: Vec<&str> = fields
            .iter()
            .map(String::as_str)
            .filter(|f| {
                let p = &profiles[f];
                p.in_most && (names_a_record(f) || p.narrow || p.differs)
            })
            .collect();
        // Records inside the records, by their names, come right after
        // the identifying fields.
        candidates.sort_by_key(|f| {
            if profiles[f].names_records {
                IDENTIFYING.len() * 2 - 1
            } else {
                column_rank(f)
            }
        });
        // A column another shown column determines and that is longer
        // (`url` by `code`: each code has one url) says nothing new;
        // identifying ones always show.
        let redundant = |c: &str, columns: &[&str]| {
            identifying_rank(last_part(c)) >= IDENTIFYING.len()
                && columns.iter().any(|d| {
                    profiles[c].mean_chars > profiles[d].mean_chars && determines(sample, d, c)
                })
        };
        let mut columns: Vec<&str> = Vec::new();
        for &c in &candidates {
            if columns.len() == self.table_columns {
                break;
            }
            if !redundant(c, &columns) {
                columns.push(c);
            }
        }
        // A column whose cells spell out two other shown columns' (cargo
        // metadata's `id`, `…#addr2line@0.26.1`, and `manifest_path`,
        // `…/addr2line-0.26.1/Cargo.toml`, beside `name` and `version`)
        // says nothing they do not; it is named among those not shown.
        let spelled: Vec<&str> = columns
            .iter()
            .copied()
            .filter(|c| {
                columns
                    .iter()
                    .filter(|d| *d != c && spells_out(sample, c, d))
                    .count()
                    >= 2
            })
            .collect();
        columns.retain(|c| !spelled.contains(c));
        // A wide column whose values mostly differ is content (a
        // diagnostic's message): its cells are cut only past a line's width.
        let content: Vec<&str> = columns
            .iter()
            .copied()
            .filter(|c| !profiles[c].narrow && !names_a_record(c))
            .collect();
        let content_cells = Outline {
            max_string: self.max_string.max(CONTENT_CELL_CHARS),
            ..self.clone()
        };
        let cell_in = |c: &str, v: &Value| {
            if content.contains(&c) {
                content_cells.cell(v)
            } else {
                self.cell(v)
            }
        };
        // A column that says the same in every row it has a value in is
        // said once, above the table (`overridden=false`).
        let mut constant: Vec<String> = Vec::new();
        // (Rows of a tree count with their children: npm's two top
        // packages hold hundreds.)
        let says_constants_once = count_tree(records) >= CONSTANT_COLUMN_ROWS;
        if says_constants_once {
            columns.retain(|c| match constant_value(records, c) {
                Some(v) if identifying_rank(last_part(c)) >= IDENTIFYING.len() => {
                    constant.push(format!("{c}={}", self.cell(v)));
                    false
                }
                _ => true,
            });
        }
        // Columns spelled out or said once above leave room for the next
        // candidates (a cargo package's `targets` after its `id` and
        // `rust_version`).
        for &c in &candidates {
            if columns.len() >= self.table_columns {
                break;
            }
            let constant_here = says_constants_once && constant_value(records, c).is_some();
            if columns.contains(&c) || spelled.contains(&c) || constant_here {
                continue;
            }
            if !redundant(c, &columns) {
                columns.push(c);
            }
        }
        // Not shown: fields none of whose columns are shown or said once.
        let said = |f: &str| {
            columns
                .iter()
                .any(|c| *c == f || c.starts_with(&format!("{f}.")))
                || constant
                    .iter()
                    .any(|c| c.starts_with(&format!("{f}=")) || c.starts_with(&format!("{f}.")))
        };
        let mut omitted: Vec<&str> = Vec::new();
        for f in &fields {
            let top = f.split_once('.').map_or(f.as_str(), |(t, _)| t);
            let top = if sample.iter().any(|(_, m)| m.contains_key(top)) {
                top
            } else {
                f.as_str()
            };
            if !said(top) && !omitted.contains(&top) {
                omitted.push(top);
            }
        }
        let keyed = records[0].0.is_some();
        let mut header: Vec<&str> = Vec::new();
        if keyed {
            header.push("(key)");
        }
        header.extend(&columns);
        out.push_str(&format!("[table: {} records", records.len()));
        if !constant.is_empty() {
            out.push_str(&format!("; in every row: {}", constant.join(", ")));
        }
        if !omitted.is_empty() {
            out.push_str(&format!("; not shown: {}", list_cut(&omitted, 8)));
        }
        out.push_str("]\n");
        out.push_str(&pad);
        out.push_str(&header.join(" | "));
        out.push('\n');
        let row_cells = |(key, m): &Record<'_>| {
            let mut cells: Vec<String> = Vec::new();
            if let Some(k) = key {
                cells.push(self.cell(&Value::String((*k).to_string())));
            }
            for c in &columns {
                cells.push(field(m, c).map_or(String::new(), |v| cell_in(c, v)));
            }
            cells
        };
        let row = |r: &Record<'_>| format!("{pad}{}\n", row_cells(r).join(" | "));
        // What names a record past the table's rows (see [`naming_columns`]).
        let naming = naming_columns(&columns);
        // A tree of records (`npm ls --all`: each package's `dependencies`
        // maps names to packages): every record a row, children indented
        // under their parent with its columns.
        if keyed && records.iter().any(|(_, m)| !children(m).is_empty()) {
            let total = count_tree(records);
            let mut walk = TreeWalk {
                budget: self.table_rows,
                ..TreeWalk::default()
            };
            self.tree_rows(records, &columns, &naming, &pad, &mut walk, out);
            if walk.repeats > 0 {
                out.push_str(&format!(
                    "{pad}… {} {} of records shown above (the same name and cells) not shown again\n",
                    walk.repeats,
                    if walk.repeats == 1 { "repeat" } else { "repeats" }
                ));
            }
            let unseen = total.saturating_sub(walk.shown + walk.repeats_with_children);
            if unseen > 0 {
                // Past the table's rows, the records not shown yet give
                // their names (and versions), each once, as a flat table's do.
                let mut names: Vec<Vec<String>> = Vec::new();
                visit_keyed(records, &mut |key, m| {
                    let cells = self.naming_cells(key, m, &naming);
                    if walk.named.insert(cells.clone()) {
                        names.push(cells);
                    }
                });
                let total = names.len();
                names.truncate(self.table_rows * NAMES_PAST_ROWS);
                let heading =
                    format!("{unseen} more records of the tree not shown; those not named above");
                push_names(&pad, &heading, true, &naming, &names, total, out);
            }
            out.push_str(&"  ".repeat(depth));
            return;
        }
        if records.len() <= self.table_rows {
            let cells: Vec<Vec<String>> = records.iter().map(row_cells).collect();
            if header.len() <= GROUPED_COLUMNS && cells.iter().all(|c| groupable(c)) {
                push_grouped(&pad, &cells, out);
            } else {
                records.iter().for_each(|r| out.push_str(&row(r)));
            }
        } else if keyed || !naming.is_empty() {
            // Past the table's rows every record still gives its name (and
            // version): the names are what a list of records is read for;
            // only their other cells go, and the header says which.
            records[..self.table_rows]
                .iter()
                .for_each(|r| out.push_str(&row(r)));
            let rest = &records[self.table_rows..];
            let names: Vec<Vec<String>> = rest
                .iter()
                .take(self.table_rows * NAMES_PAST_ROWS)
                .map(|(key, m)| self.naming_cells(*key, m, &naming))
                .collect();
            let heading = format!("{} more records", rest.len());
            push_names(&pad, &heading, keyed, &naming, &names, rest.len(), out);
        } else {
            let head = self.table_rows * 3 / 4;
            let tail = self.table_rows - head;
            records[..head].iter().for_each(|r| out.push_str(&row(r)));
            out.push_str(&format!(
                "{pad}… {} more records of the same shape\n",
                records.len() - head - tail
            ));
            records[records.len() - tail..]
                .iter()
                .for_each(|r| out.push_str(&row(r)));
        }
        out.push_str(&"  ".repeat(depth));
    }

    /// What `column` holds over `sample` (see [`ColumnProfile`]).
    fn profile(&self, sample: &[Record<'_>], column: &str) -> ColumnProfile {
        let values: Vec<&Value> = sample
            .iter()
            .filter_map(|(_, m)| field(m, column))
            .collect();
        let names_records = values.iter().any(|v| holds_named_records(v));
        // In a column of named records an empty array is a value too: a
        // leaf of a tree has no children.
        let cells: Vec<String> = values
            .iter()
            .filter(|v| {
                is_scalar(v)
                    || names_records
                        && (holds_named_records(v) || v.as_array().is_some_and(Vec::is_empty))
            })
            .map(|v| self.cell(v))
            .collect();
        let chars: usize = cells.iter().map(|c| c.chars().count()).sum();
        let distinct: std::collections::HashSet<&String> = cells.iter().collect();
        ColumnProfile {
            in_most: cells.len() * 2 >= sample.len(),
            narrow: chars <= WIDE_COLUMN_CHARS * cells.len(),
            differs: distinct.len() * 2 >= cells.len(),
            mean_chars: chars / cells.len().max(1),
            names_records,
        }
    }

    /// The rows of a tree of records, depth first, while `budget` lasts.
    fn tree_rows(
        &self,
        records: &[Record<'_>],
        columns: &[&str],
        naming: &[&str],
        pad: &str,
        walk: &mut TreeWalk,
        out: &mut String,
    ) {
        // Leaves (records without children) next to each other share lines
        // when their cells are short words (`bytes 3.1.2, unpipe 1.0.0`).
        let mut leaves: Vec<Vec<String>> = Vec::new();
        for (key, m) in records {
            if walk.budget == 0 {
                break;
            }
            let mut cells = vec![self.cell(&Value::String(key.unwrap_or("").to_string()))];
            cells.extend(
                columns
                    .iter()
                    .map(|c| field(m, c).map_or(String::new(), |v| self.cell(v))),
            );
            let nested = children(m);
            // A record shown already with as much under it (npm lists a
            // package under every package that needs it, its dependencies
            // under one of them) is counted, not shown again.
            let under: usize = nested.iter().map(|n| count_tree(n)).sum();
            if !walk
                .seen
                .insert(format!("{}\u{1f}{under}", cells.join("\u{1f}")))
            {
                walk.repeats += 1;
                walk.repeats_with_children += count_tree(&[(*key, *m)]);
                continue;
            }
            walk.budget -= 1;
            walk.shown += 1;
            walk.named.insert(self.naming_cells(*key, m, naming));
            if nested.is_empty() && columns.len() < GROUPED_COLUMNS && groupable(&cells) {
                leaves.push(cells);
                continue;
            }
            push_grouped(pad, &std::mem::take(&mut leaves), out);
            out.push_str(&format!("{pad}{}\n", cells.join(" | ")));
            for nested in nested {
                self.tree_rows(&nested, columns, naming, &format!("{pad}  "), walk, out);
            }
        }
        push_grouped(pad, &leaves, out);
    }

    /// A record's key (in a map) and its cells in the `naming` columns
    /// (see [`naming_columns`]): how a record past a table's rows is named.
    fn naming_cells(
        &self,
        key: Option<&str>,
        m: &Map<String, Value>,
        naming: &[&str],
    ) -> Vec<String> {
        key.map(|k| self.cell(&Value::String(k.to_string())))
            .into_iter()
            .chain(
                naming
                    .iter()
                    .filter_map(|c| field(m, c))
                    .map(|v| self.cell(v)),
            )
            .collect()
    }

    /// A table cell: a scalar as it is (strings unquoted unless they hold
    /// the separator), cut like any long string.
    fn cell(&self, v: &Value) -> String {
        match v {
            Value::String(s)
                if s.chars().count() <= self.max_string
                    && !s.contains(" | ")
                    && !s.contains('\n') =>
            {
                s.clone()
            }
            Value::String(s) => self.string(s),
            Value::Null => String::new(),
            Value::Object(m) => format!("{{… {} keys}}", m.len()),
            Value::Array(a) => names_of(v).unwrap_or_else(|| format!("[… {}]", a.len())),
            other => other.to_string(),
        }
    }
}

/// The maps of records inside a record (its `dependencies`): every
/// non-empty map whose values are all objects, whatever their shapes (a
/// deduplicated package in `npm ls --all` has only its `version`).
fn children<'a>(record: &'a Map<String, Value>) -> Vec<Vec<Record<'a>>> {
    record
        .values()
        .filter_map(|v| v.as_object())
        .filter(|m| !m.is_empty())
        .filter_map(|m| {
            m.iter()
                .map(|(k, v)| v.as_object().map(|r| (Some(k.as_str()), r)))
                .collect::<Option<Vec<_>>>()
        })
        .collect()
}

/// Where a walk through a tree of records is (see [`Outline::tree_rows`]).
#[derive(Default)]
struct TreeWalk {
    /// Rows still to show.
    budget: usize,
    /// Rows shown.
    shown: usize,
    /// Records not shown again: their name and cells were shown above.
    repeats: usize,
    /// Those records with everything under them.
    repeats_with_children: usize,
    /// The name cells (see [`Outline::naming_cells`]) of every row shown or
    /// record named.
    named: std::collections::HashSet<Vec<String>>,
    /// The cells of every row shown, with how many records lie under it.
    seen: std::collections::HashSet<String>,
}

/// Records past a table's rows by name: `… {heading}, by (key) name
/// version only:`, then `names` (the first of `total` records to name), a
/// few to a line, and how many were not named.
fn push_names(
    pad: &str,
    heading: &str,
    keyed: bool,
    naming: &[&str],
    names: &[Vec<String>],
    total: usize,
    out: &mut String,
) {
    let by: Vec<&str> = keyed
        .then_some("(key)")
        .into_iter()
        .chain(naming.iter().copied())
        .collect();
    out.push_str(&format!("{pad}… {heading}, by {} only:\n", by.join(" ")));
    push_grouped(pad, names, out);
    if total > names.len() {
        out.push_str(&format!(
            "{pad}… and {} more records not named\n",
            total - names.len()
        ));
    }
}

/// Rows of at most this many cells (a name and a version) may share lines.
const GROUPED_COLUMNS: usize = 2;
/// Rows on one shared line.
const ROWS_PER_LINE: usize = 8;

/// An array of at most this many scalars is written on one line, as JSON.
const LISTED_INLINE: usize = 8;

/// `[N noun]`, then `rows` (the first of `total`) a few to a line (see
/// [`push_grouped`]) and how many more were not shown.
fn push_listed(noun: &str, rows: &[Vec<String>], total: usize, depth: usize, out: &mut String) {
    let pad = "  ".repeat(depth + 1);
    out.push_str(&format!("[{total} {noun}]\n"));
    push_grouped(&pad, rows, out);
    if total > rows.len() {
        out.push_str(&format!(
            "{pad}… {} more {noun} not shown\n",
            total - rows.len()
        ));
    }
    out.push_str(&"  ".repeat(depth));
}

/// Whether a row's cells are single short words, so that `a 1, b 2` reads
/// back unambiguously.
fn groupable(cells: &[String]) -> bool {
    cells
        .iter()
        .all(|c| !c.is_empty() && c.len() <= 40 && !c.contains([' ', ',', '|', '"']))
}

/// Rows written [`ROWS_PER_LINE`] to a line: cells joined by a space, rows
/// by `, `.
fn push_grouped(pad: &str, rows: &[Vec<String>], out: &mut String) {
    for line in rows.chunks(ROWS_PER_LINE) {
        let items: Vec<String> = line.iter().map(|cells| cells.join(" ")).collect();
        out.push_str(&format!("{pad}{}\n", items.join(", ")));
    }
}

/// An array's items as words, when it is a list of more than
/// [`LISTED_INLINE`] short words (see [`groupable`]): strings or numbers.
fn words_of(items: &[Value]) -> Option<Vec<String>> {
    if items.len() <= LISTED_INLINE {
        return None;
    }
    let words: Vec<String> = items
        .iter()
        .map(|v| match v {
            Value::String(s) => Some(s.clone()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        })
        .collect::<Option<_>>()?;
    groupable(&words).then_some(words)
}

/// Whether `map` maps names to short values, the way a manifest's
/// `dependencies` maps packages to versions: every value a short string
/// without spaces or commas, and most keys names (a letter or `@` first; a
/// map keyed by versions or dates, such as npm's `time`, is not).
fn is_name_map(map: &Map<String, Value>) -> bool {
    mostly_named(map)
        && map
            .values()
            .all(|v| v.as_str().is_some_and(|s| groupable(&[s.to_string()])))
}

/// Whether most of `map`'s keys are names (a letter or `@` first), not
/// versions or dates.
fn mostly_named(map: &Map<String, Value>) -> bool {
    let named = map
        .keys()
        .filter(|k| k.starts_with(|c: char| c.is_ascii_alphabetic() || c == '@'))
        .count();
    named * 5 >= map.len() * 4
}

/// A table this long says a column that never changes once, above it.
const CONSTANT_COLUMN_ROWS: usize = 4;

/// The one value `column` has in every record (of the tree) that has it.
fn constant_value<'a>(records: &[Record<'a>], column: &str) -> Option<&'a Value> {
    let mut seen: Option<&'a Value> = None;
    let mut all_same = true;
    visit(records, &mut |m| {
        if let Some(v) = field(m, column) {
            match seen {
                None => seen = Some(v),
                Some(s) if s == v => {}
                Some(_) => all_same = false,
            }
        }
    });
    seen.filter(|_| all_same)
}

/// Calls `f` on every record of a tree of records, children included.
fn visit<'a>(records: &[Record<'a>], f: &mut impl FnMut(&'a Map<String, Value>)) {
    for (_, m) in records {
        f(m);
        for nested in children(m) {
            visit(&nested, f);
        }
    }
}

/// Records in a tree of them, children included.
/// Calls `f` with each record of a tree and its key, depth first.
fn visit_keyed<'a>(
    records: &[Record<'a>],
    f: &mut dyn FnMut(Option<&'a str>, &'a Map<String, Value>),
) {
    for (key, m) in records {
        f(*key, m);
        for nested in children(m) {
            visit_keyed(&nested, f);
        }
    }
}

fn count_tree(records: &[Record<'_>]) -> usize {
    records
        .iter()
        .map(|(_, m)| 1 + children(m).iter().map(|c| count_tree(c)).sum::<usize>())
        .sum()
}

/// `items` joined with commas, at most `n` of them and how many more.
fn list_cut(items: &[&str], n: usize) -> String {
    let mut s = items.iter().take(n).copied().collect::<Vec<_>>().join(", ");
    if items.len() > n {
        s.push_str(&format!(" +{}", items.len() - n));
    }
    s
}

/// The first `n` keys of `map`, quoted, and how many more.
fn key_list(map: &Map<String, Value>, n: usize) -> String {
    let mut keys: Vec<String> = map
        .keys()
        .take(n)
        .map(|k| Value::String(k.clone()).to_string())
        .collect();
    if map.len() > n {
        keys.push(format!("+{}", map.len() - n));
    }
    keys.join(", ")
}

/// A type signature: `{"name": string, "version": string}`, `[number]`.
pub fn shape(v: &Value) -> String {
    fn inner(v: &Value, depth: usize) -> String {
        match v {
            Value::Null => "null".into(),
            Value::Bool(_) => "bool".into(),
            Value::Number(_) => "number".into(),
            Value::String(_) => "string".into(),
            Value::Array(items) => match items.first() {
                Some(first) if depth < 2 => format!("[{}]", inner(first, depth + 1)),
                Some(_) => "[…]".into(),
                None => "[]".into(),
            },
            Value::Object(map) if depth < 2 => {
                let fields: Vec<String> = map
                    .iter()
                    .take(8)
                    .map(|(k, v)| format!("{}: {}", Value::String(k.clone()), inner(v, depth + 1)))
                    .collect();
                let more = if map.len() > 8 {
                    format!(", +{}", map.len() - 8)
                } else {
                    String::new()
                };
                format!("{{{}{more}}}", fields.join(", "))
            }
            Value::Object(map) => format!("{{… {} keys}}", map.len()),
        }
    }
    inner(v, 0)
}

/// Whether all values have the same kind and, for objects, the same keys.
fn one_shape<'a>(mut values: impl Iterator<Item = &'a Value>) -> bool {
    let Some(first) = values.next() else {
        return true;
    };
    values.all(|v| same_kind(first, v))
}

fn same_kind(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let shared = x.keys().filter(|k| y.contains_key(*k)).count();
            shared * 2 >= x.len().max(y.len())
        }
        (Value::Array(_), Value::Array(_)) => true,
        _ => std::mem::discriminant(a) == std::mem::discriminant(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_long_arrays_and_cuts_strings() {
        let items: Vec<Value> = (0..50)
            .map(|i| serde_json::json!({"id": i, "name": format!("n{i}")}))
            .collect();
        let doc = serde_json::json!({"items": items, "note": "x".repeat(300), "ok": true});
        let out = Outline::default().render(&doc);
        assert!(out.contains("\"items\": ["));
        // Records: a table with a row each, names and ids included.
        assert!(out.contains("[table: 50 records]"), "{out}");
        assert!(out.contains("name | id"), "{out}");
        // Two short cells a row: rows share lines, eight to a line.
        for i in 0..50 {
            let row = format!("n{i} {i}");
            assert!(
                out.lines().any(|l| l.trim().split(", ").any(|r| r == row)),
                "{row}: {out}"
            );
        }
        assert_eq!(
            out.lines().filter(|l| l.contains(", n")).count(),
            7,
            "{out}"
        );
        assert!(out.contains("… (300 chars)"), "{out}");
        assert!(out.contains("\"ok\": true"));
    }

    #[test]
    fn a_manifests_dependencies_list_every_package_and_a_time_map_is_sampled() {
        let deps: serde_json::Map<String, serde_json::Value> = (0..30)
            .map(|i| (format!("pkg-{i}"), serde_json::json!(format!("^1.{i}.0"))))
            .collect();
        let time: serde_json::Map<String, serde_json::Value> = (0..30)
            .map(|i| {
                (
                    format!("1.{i}.0"),
                    serde_json::json!(format!("2020-01-{:02}T00:00:00Z", i % 28 + 1)),
                )
            })
            .collect();
        let doc = serde_json::json!({"name": "app", "dependencies": deps, "time": time});
        let out = Outline::default().render(&doc);
        for i in 0..30 {
            assert!(out.contains(&format!("pkg-{i} ^1.{i}.0")), "{out}");
        }
        assert!(out.contains("[30 entries]"), "{out}");
        assert!(
            !out.contains("\"1.15.0\":"),
            "the time map is sampled: {out}"
        );
    }

    /// Keys with scalar values (`scripts`) and lists of short words
    /// (`versions`) are names: every one stays. A map keyed by versions
    /// with scalar values (npm's `time`) is still sampled.
    #[test]
    fn names_in_maps_and_word_lists_are_never_sampled_away() {
        let scripts: serde_json::Map<String, serde_json::Value> = (0..20)
            .map(|i| {
                (
                    format!("task-{i}"),
                    serde_json::json!(format!("node scripts/run.js --step {i}")),
                )
            })
            .collect();
        let versions: Vec<String> = (0..60).map(|i| format!("4.{i}.0")).collect();
        let time: serde_json::Map<String, serde_json::Value> = versions
            .iter()
            .map(|v| (v.clone(), serde_json::json!("2020-01-01T00:00:00Z")))
            .collect();
        let doc =
            serde_json::json!({"a": {"scripts": scripts, "versions": versions, "time": time}});
        let out = Outline::default().render(&doc);
        for i in 0..20 {
            assert!(
                out.contains(&format!("\"task-{i}\": \"node scripts/run.js --step {i}\"")),
                "{out}"
            );
        }
        assert!(out.contains("\"versions\": [60 items]"), "{out}");
        for v in &versions {
            assert!(out.split([' ', ',', '\n']).any(|w| w == v), "{v}: {out}");
        }
        assert!(
            out.contains("… and 57 more keys of the same shape"),
            "{out}"
        );
    }

    #[test]
    fn a_tree_of_packages_lists_every_name_and_version() {
        let mut deps = serde_json::Map::new();
        for i in 0..20 {
            let mut nested = serde_json::Map::new();
            nested.insert(
                format!("inner-{i}"),
                serde_json::json!({"version": format!("0.{i}.1"), "resolved": "https://registry.example/x.tgz"}),
            );
            deps.insert(
                format!("pkg-{i}"),
                serde_json::json!({"version": format!("1.{i}.0"), "overridden": false, "dependencies": nested}),
            );
        }
        let doc = serde_json::json!({"name": "app", "version": "1.0.0", "dependencies": deps});
        let out = Outline::default().render(&doc);
        for i in 0..20 {
            assert!(out.contains(&format!("pkg-{i} | 1.{i}.0")), "{out}");
            assert!(out.contains(&format!("inner-{i} 0.{i}.1")), "{out}");
        }
        // The column no row changes is said once.
        assert!(out.contains("in every row: overridden=false"), "{out}");
        assert!(!out.contains("| false"), "{out}");
    }
}
