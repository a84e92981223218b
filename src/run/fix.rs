//! Applying fixes (`netlint check --fix`, `--unsafe-fixes`, `--diff`).
//!
//! A rule's [`Fix`] is data: TOML paths with the old and the new value.
//! [`apply_edits`] makes them to the design's text with `toml_edit`, so
//! comments, key order and layout stay as the user wrote them: only the
//! edited value changes (an added key gets a line of its own in its table).
//! [`fix_source`] applies a file's fixes one at a time, each on a copy of
//! the text that the check runs on again: the fix is kept only if its
//! finding is gone and no finding appeared that the design did not have;
//! otherwise the text stays as it was and the reason is reported.

use super::config::{config_for, load_config, shown as config_shown, ConfigFile};
use super::files::{collect_designs, ReadOptions, DEFAULT_MAX_FILE_SIZE};
use super::lint::{check_source, CheckSettings};
use netlint_analysis::l2::pair_paths::{pair_paths, PathFigures, Worse};
use netlint_analysis::{Fabric, Failures, Topology};
use netlint_model::{
    load, Diagnostic, Fix, FixEdit, FixSafety, FixValue, PathSegment, SourceFile, Span,
};
use netlint_rules::RuleConfig;
use std::collections::BTreeMap;
use std::path::PathBuf;
use toml_edit::{Array, DocumentMut, InlineTable, Item, Table, TableLike, Value};

/// Which fixes `--fix` applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FixMode {
    /// `--fix`: the safe ones.
    Safe,
    /// `--unsafe-fixes`: the ones that need judgement too.
    Unsafe,
}

impl FixMode {
    pub fn allows(self, safety: FixSafety) -> bool {
        self == FixMode::Unsafe || safety == FixSafety::Safe
    }
}

/// A finding as the fix check compares them before and after an edit:
/// its rule and subjects (spans move when the text changes).
type FindingKey = (String, Vec<String>);

fn key(d: &Diagnostic) -> FindingKey {
    let mut subjects = d.subject_paths();
    subjects.sort();
    (d.rule.clone(), subjects)
}

/// A finding and the fix it carried.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FixedFinding {
    pub rule: String,
    /// The finding's element path (`hosts.hv1`).
    pub element: String,
    /// Its message before the fix.
    pub message: String,
    pub fix: Fix,
}

impl FixedFinding {
    fn of(d: &Diagnostic, fix: &Fix) -> Self {
        FixedFinding {
            rule: d.rule.clone(),
            element: d.element(),
            message: d.message.clone(),
            fix: fix.clone(),
        }
    }
}

/// Why a fix was not applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotApplied {
    /// It needs judgement and the run was `--fix` without `--unsafe-fixes`.
    NeedsUnsafe,
    /// The edit could not be made to the text (the value there is not the
    /// one the rule read, a path that is not a table).
    Edit(String),
    /// The edited design does not load: its first input error.
    Breaks(String),
    /// The finding is still there after the edit.
    StillThere,
    /// The edit made new findings: their rule and element.
    NewFindings(Vec<(String, String)>),
    /// The edit makes a host pair's path on a network slower, longer or
    /// cut (the first such pair).
    WorsePath(Box<WorsePath>),
}

/// A host pair whose forwarding path on a network a fix makes worse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorsePath {
    pub network: String,
    /// The two hosts (one pair of those cabled to these switches).
    pub hosts: (String, String),
    /// The switches their adapters are cabled to.
    pub switches: (String, String),
    pub how: Worse,
    pub before: PathFigures,
    /// `None`: the network no longer joins the two switches.
    pub after: Option<PathFigures>,
}

/// `10G per cable over 2 hops`, `one switch`.
fn path_words(p: &PathFigures) -> String {
    if p.hops == 0 {
        return "within one switch".to_string();
    }
    let hops = if p.hops == 1 {
        "1 hop".to_string()
    } else {
        format!("{} hops", p.hops)
    };
    match (p.slowest, p.unknown_speed) {
        (Some(s), false) => format!("{s} per cable at its slowest over {hops}"),
        (Some(s), true) => format!("{s} per cable at its slowest known over {hops}"),
        (None, _) => format!("{hops} of unknown speed"),
    }
}

impl std::fmt::Display for WorsePath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let how = match self.how {
            Worse::Cut => "cuts",
            Worse::Slower => "slows",
            Worse::Longer => "lengthens",
        };
        let (a, b) = &self.hosts;
        let (x, y) = &self.switches;
        let between = if x == y {
            format!("on `{x}`")
        } else {
            format!("between `{x}` and `{y}`")
        };
        write!(
            f,
            "the edit {how} the path of network `{}` from `{a}` to `{b}` ({between}): {} before, ",
            self.network,
            path_words(&self.before)
        )?;
        match &self.after {
            Some(p) => write!(f, "{} after", path_words(p)),
            None => f.write_str("no path after"),
        }
    }
}

impl std::fmt::Display for NotApplied {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotApplied::NeedsUnsafe => {
                f.write_str("it needs judgement: give --unsafe-fixes to apply it")
            }
            NotApplied::Edit(e) => write!(f, "the edit cannot be made: {e}"),
            NotApplied::Breaks(e) => write!(f, "the edited design does not load: {e}"),
            NotApplied::StillThere => f.write_str("the finding is still there after the edit"),
            NotApplied::NewFindings(new) => {
                let list: Vec<String> = new
                    .iter()
                    .map(|(rule, element)| {
                        if element.is_empty() {
                            format!("`{rule}`")
                        } else {
                            format!("`{rule}` on `{element}`")
                        }
                    })
                    .collect();
                write!(f, "the edit adds findings: {}", list.join(", "))
            }
            NotApplied::WorsePath(w) => write!(f, "{w}"),
        }
    }
}

/// What fixing one file did.
#[derive(Clone, Debug, Default)]
pub struct FileFix {
    /// The text with every applied fix (the original when none was).
    pub text: String,
    pub applied: Vec<FixedFinding>,
    pub not_applied: Vec<(FixedFinding, NotApplied)>,
}

impl FileFix {
    pub fn changed(&self) -> bool {
        !self.applied.is_empty()
    }
}

/// Rules whose fixes are tried after every other: the per-link and
/// per-VLAN port costs of the spanning-tree path rules. The change a network
/// engineer makes (one cost method everywhere, a root priority on the
/// intended root) comes first and often leaves these nothing to do.
const PATCHES_LAST: &[&str] = &["stp-suboptimal-path", "stp-vlan-partition"];

/// Applies the fixes of `file`'s findings that `mode` allows, one at a
/// time (in file order, the fixes of [`PATCHES_LAST`] after the others): each is made to the text as the earlier ones left it, the check
/// runs again on the result, and the fix is kept only when its finding is
/// gone and no new finding appeared. Each finding's fix is tried once.
pub fn fix_source(
    file: &SourceFile,
    config: Option<&ConfigFile>,
    settings: &CheckSettings,
    mode: FixMode,
) -> FileFix {
    let check = |text: &str| -> Vec<Diagnostic> {
        let f = SourceFile::new(file.path.clone(), text.to_string());
        check_source(&f, config, settings).0
    };
    let mut out = FileFix {
        text: file.text.clone(),
        ..FileFix::default()
    };
    // A design that does not load has only its input errors, some with a
    // fix (a misspelt name); once they are mended the rules' fixes follow.
    let mut findings = check(&out.text);
    // A finding is told by its rule, subjects and what its fix does (not
    // where: spans move as fixes are applied): two `allow` entries of one
    // element are two findings with one key.
    let mut tried: Vec<(FindingKey, String)> = Vec::new();
    while let Some((d, fix)) = findings
        .iter()
        .filter_map(|d| {
            let fix = d.fix.as_ref()?;
            (!tried.contains(&(key(d), fix.description.clone()))).then(|| (d.clone(), fix.clone()))
        })
        .min_by_key(|(d, _)| PATCHES_LAST.contains(&d.rule.as_str()))
    {
        tried.push((key(&d), fix.description.clone()));
        let finding = FixedFinding::of(&d, &fix);
        if !mode.allows(fix.safety) {
            out.not_applied.push((finding, NotApplied::NeedsUnsafe));
            continue;
        }
        match try_fix(&out.text, &findings, &d, &fix, &check) {
            Ok((text, after)) => {
                out.text = text;
                out.applied.push(finding);
                findings = after;
            }
            Err(why) => out.not_applied.push((finding, why)),
        }
    }
    out
}

/// One fix on a copy of `text`, whose check gave `findings` (`d` among
/// them): the edited text and its findings when `d` is gone and no finding
/// appeared that `findings` did not have; otherwise why not. `check` is
/// the check the text had (its `netlint.toml`, its settings).
pub fn try_fix(
    text: &str,
    findings: &[Diagnostic],
    d: &Diagnostic,
    fix: &Fix,
    check: &dyn Fn(&str) -> Vec<Diagnostic>,
) -> Result<(String, Vec<Diagnostic>), NotApplied> {
    let edited = apply_edits(text, &fix.edits).map_err(NotApplied::Edit)?;
    let after = check(&edited);
    // A design that did not load had no rule findings to compare: only its
    // input errors are (the rules' findings of a design that loads once
    // mended are not new, they were unknown).
    let loaded = !findings.iter().any(Diagnostic::is_input_error);
    if loaded {
        if let Some(e) = after.iter().find(|d| d.is_input_error()) {
            return Err(NotApplied::Breaks(e.message.clone()));
        }
    }
    // Gone: fewer findings of its rule on its subjects than before.
    let gone = key(d);
    let count = |list: &[Diagnostic]| list.iter().filter(|a| key(a) == gone).count();
    if count(&after) >= count(findings) {
        return Err(NotApplied::StillThere);
    }
    let compared: Vec<Diagnostic> = if loaded {
        after.clone()
    } else {
        after
            .iter()
            .filter(|a| a.is_input_error())
            .cloned()
            .collect()
    };
    let new = new_findings(findings, &compared);
    if !new.is_empty() {
        return Err(NotApplied::NewFindings(new));
    }
    // A root moved where the design intends it (a fix that says it moves
    // a root, `Fix::moves_root`) gives a tree whose paths run through the
    // new root: a pair one hop further at the same speed is that tree, not
    // a detour. Slower or cut is refused for every fix.
    let longer_ok = fix.moves_root;
    if let Some(w) = worse_path(text, &edited).filter(|w| !(longer_ok && w.how == Worse::Longer)) {
        return Err(NotApplied::WorsePath(Box::new(w)));
    }
    Ok((edited, after))
}

/// Per network and pair of switches (by name, the smaller first), a host
/// pair cabled to them and the healthy forwarding path between them;
/// `None` when the text does not load.
type Paths = BTreeMap<(String, String, String), ((String, String), Option<PathFigures>)>;

fn paths(text: &str) -> Option<Paths> {
    let loaded = load(&SourceFile::new(String::new(), text.to_string()));
    if loaded.diagnostics.iter().any(Diagnostic::is_input_error) {
        return None;
    }
    let design = loaded.design?;
    let topo = Topology::build(&design);
    let fabric = Fabric::new(&design, &topo);
    let fwd = fabric.forwarding(&design, &topo, &Failures::default());
    let mut out = Paths::new();
    for p in pair_paths(&design, &topo, &fwd) {
        let mut ends = [
            (
                design.switch(p.a_switch).name.clone(),
                design.hosts[p.a.0].name.clone(),
            ),
            (
                design.switch(p.b_switch).name.clone(),
                design.hosts[p.b.0].name.clone(),
            ),
        ];
        ends.sort();
        let [(x, a), (y, b)] = ends;
        out.insert(
            (design.networks[p.network.0].name.clone(), x, y),
            ((a, b), p.path),
        );
    }
    Some(out)
}

/// The first host pair (by network, then switches) whose path `edited`
/// makes slower, longer or cut against `text`'s: a fix must make no path
/// worse, even where no rule would see it (a spanning-tree change that
/// moves traffic from a 10G link to a 1G one).
pub fn worse_path(text: &str, edited: &str) -> Option<WorsePath> {
    let (before, after) = (paths(text)?, paths(edited)?);
    for ((network, x, y), ((a, b), was)) in &before {
        let Some(was) = was else { continue };
        // A pair of switches no host pair uses any more (the hosts' side
        // changed) has no path to compare.
        let Some((_, now)) = after.get(&(network.clone(), x.clone(), y.clone())) else {
            continue;
        };
        let now = now.as_ref();
        if let Some(how) = PathFigures::worse(Some(was), now) {
            return Some(WorsePath {
                network: network.clone(),
                hosts: (a.clone(), b.clone()),
                switches: (x.clone(), y.clone()),
                how,
                before: *was,
                after: now.copied(),
            });
        }
    }
    None
}

/// One design file of a fix run.
#[derive(Clone, Debug)]
pub struct FixedFile {
    /// The path as reports show it.
    pub shown: String,
    /// Where it was read from; `None` for standard input.
    pub path: Option<PathBuf>,
    /// The text as read.
    pub original: String,
    pub fix: FileFix,
}

/// Fixes every design `paths` name (as `netlint check` finds them, each
/// with its `netlint.toml`): nothing is written here; the caller writes
/// [`FileFix::text`] or shows the diff. Files that cannot be read or do not
/// load are left out: the check that follows reports them.
pub fn run_fix(
    paths: &[PathBuf],
    settings: &CheckSettings,
    mode: FixMode,
) -> Result<Vec<FixedFile>, String> {
    RuleConfig::default().select(&settings.select, &settings.ignore)?;
    let read = ReadOptions {
        designs_only: settings.designs_only,
        max_file_size: settings.max_file_size.unwrap_or(DEFAULT_MAX_FILE_SIZE),
        stdin_name: settings.stdin_name.clone(),
        any_file: false,
    };
    let mut configs: BTreeMap<PathBuf, ConfigFile> = BTreeMap::new();
    let mut out = Vec::new();
    for input in collect_designs(paths, &read).inputs {
        let Ok(text) = String::from_utf8(input.bytes) else {
            continue;
        };
        let at = match &input.path {
            Some(p) => p.clone(),
            None => PathBuf::from(settings.stdin_name.as_deref().unwrap_or("<stdin>")),
        };
        let config = config_for(&settings.config, &at).map(|cp| {
            &*configs
                .entry(cp.clone())
                .or_insert_with(|| load_config(&cp, config_shown(&cp), read.max_file_size))
        });
        let file = SourceFile::new(input.shown.clone(), text);
        let fix = fix_source(&file, config, settings, mode);
        out.push(FixedFile {
            shown: input.shown,
            path: input.path,
            original: file.text,
            fix,
        });
    }
    out.sort_by(|a, b| a.shown.cmp(&b.shown));
    Ok(out)
}

/// The findings of `after` that `before` does not have (by rule and
/// subjects, counted: a second finding of one rule on one element is new).
fn new_findings(before: &[Diagnostic], after: &[Diagnostic]) -> Vec<(String, String)> {
    let mut had: BTreeMap<FindingKey, usize> = BTreeMap::new();
    for d in before {
        *had.entry(key(d)).or_default() += 1;
    }
    let mut new = Vec::new();
    for d in after {
        match had.get_mut(&key(d)) {
            Some(n) if *n > 0 => *n -= 1,
            _ => new.push((d.rule.clone(), d.element())),
        }
    }
    new
}

/// `text` with `edits` made, through `toml_edit`: everything but the edited
/// values stays as written (comments, order, blank lines, quoting). A
/// replaced value keeps the space and comment around it; an added key is
/// appended to its table, and a missing table on the way is written as a
/// dotted key (`stp.priority = 8192`) in its parent, or inside the parent's
/// inline table. An edit fails when the value at its path is not its old
/// value (the text is not what the rule read), or the key it adds exists.
pub fn apply_edits(text: &str, edits: &[FixEdit]) -> Result<String, String> {
    let parsed = toml_edit::Document::parse(text.to_string()).map_err(|e| e.to_string())?;
    for e in edits {
        check_span(parsed.as_table(), e)?;
    }
    let mut doc: DocumentMut = parsed.into_mut();
    for e in edits {
        edit(doc.as_table_mut(), e)?;
    }
    Ok(keep_layout(text, &doc.to_string()))
}

/// `edited` (what `toml_edit` writes: LF line breaks, no byte order mark)
/// with the byte order mark and line breaks of `original` kept: a line the
/// edit left alone comes back byte for byte as it was (CRLF, LF or a mix),
/// a line the edit wrote ends as most lines of `original` do, and a UTF-8
/// byte order mark at the start stays. So a fix of a CRLF design changes
/// only the lines it edits (issue 37, item 8).
fn keep_layout(original: &str, edited: &str) -> String {
    use similar::DiffOp;
    let bom = if original.starts_with('\u{feff}') && !edited.starts_with('\u{feff}') {
        "\u{feff}"
    } else {
        ""
    };
    if !original.contains("\r\n") {
        return format!("{bom}{edited}");
    }
    let body = original.strip_prefix(bom).unwrap_or(original);
    // Lines compared without their line break style, split here (not by
    // `similar`, which also breaks at a lone CR) so indices agree.
    let unix = |l: &str| -> String {
        match l.strip_suffix("\r\n") {
            Some(l) => format!("{l}\n"),
            None => l.to_string(),
        }
    };
    let old_lines: Vec<&str> = body.split_inclusive('\n').collect();
    let old_norm: Vec<String> = old_lines.iter().map(|l| unix(l)).collect();
    let new_norm: Vec<String> = edited.split_inclusive('\n').map(unix).collect();
    let crlf = old_lines.iter().filter(|l| l.ends_with("\r\n")).count();
    let eol = if crlf * 2 >= old_lines.len() {
        "\r\n"
    } else {
        "\n"
    };
    let mut out = String::with_capacity(original.len() + edited.len() / 8);
    out.push_str(bom);
    for op in similar::capture_diff_slices(similar::Algorithm::Myers, &old_norm, &new_norm) {
        match op {
            DiffOp::Equal { old_index, len, .. } => {
                for line in &old_lines[old_index..old_index + len] {
                    out.push_str(line);
                }
            }
            DiffOp::Delete { .. } => {}
            DiffOp::Insert {
                new_index, new_len, ..
            }
            | DiffOp::Replace {
                new_index, new_len, ..
            } => {
                for line in &new_norm[new_index..new_index + new_len] {
                    match line.strip_suffix('\n') {
                        Some(l) => {
                            out.push_str(l);
                            out.push_str(eol);
                        }
                        None => out.push_str(line),
                    }
                }
            }
        }
    }
    out
}

/// A replaced value sits where the rule said it is: the edit's path and
/// span agree.
fn check_span(root: &Table, e: &FixEdit) -> Result<(), String> {
    if e.old.is_none() {
        return Ok(());
    }
    let mut item: Option<&Item> = None;
    let mut table: &dyn TableLike = root;
    let segs = e.path.segments();
    let mut i = 0;
    while i < segs.len() {
        let PathSegment::Key(k) = &segs[i] else {
            return Err(format!("`{}` does not start with a key", e.path));
        };
        let it = table
            .get(k)
            .ok_or_else(|| format!("`{}` is not in the design", e.path))?;
        i += 1;
        if let Some(PathSegment::Index(n)) = segs.get(i) {
            let missing = || format!("`{}` is not in the design", e.path);
            table = match it {
                Item::ArrayOfTables(a) => a.get(*n).ok_or_else(missing)?,
                Item::Value(Value::Array(a)) => a
                    .get(*n)
                    .and_then(Value::as_inline_table)
                    .ok_or_else(missing)?,
                _ => return Err(missing()),
            };
            i += 1;
            continue;
        }
        item = Some(it);
        if i < segs.len() {
            table = it
                .as_table_like()
                .ok_or_else(|| format!("`{}` is not in a table", e.path))?;
        }
    }
    let at = item.and_then(Item::span).map(Span::from);
    if at != Some(e.span) {
        return Err(format!(
            "`{}` is not the value at line position {}..{}",
            e.path, e.span.start, e.span.end
        ));
    }
    Ok(())
}

fn edit(root: &mut Table, e: &FixEdit) -> Result<(), String> {
    if e.new.is_none() {
        return remove_at(root, e);
    }
    let segs = e.path.segments();
    let Some((PathSegment::Key(last), parents)) = segs.split_last() else {
        return Err(format!("`{}` does not end with a key", e.path));
    };
    let mut table: &mut dyn TableLike = root;
    let mut inline = false;
    let mut i = 0;
    while i < parents.len() {
        let PathSegment::Key(k) = &parents[i] else {
            return Err(format!(
                "`{}`: an index must follow an array of tables",
                e.path
            ));
        };
        if table.get(k).is_none() {
            let new = if inline {
                Item::Value(Value::InlineTable(InlineTable::new()))
            } else {
                let mut t = Table::new();
                t.set_dotted(true);
                Item::Table(t)
            };
            table.insert(k, new);
        }
        let item = table.get_mut(k).expect("inserted above");
        i += 1;
        if let Some(PathSegment::Index(n)) = parents.get(i) {
            let missing = || format!("`{}`: no table at index {n}", e.path);
            (table, inline) = match item {
                Item::ArrayOfTables(a) => (a.get_mut(*n).ok_or_else(missing)? as _, false),
                Item::Value(Value::Array(a)) => (
                    a.get_mut(*n)
                        .and_then(Value::as_inline_table_mut)
                        .ok_or_else(missing)? as _,
                    true,
                ),
                _ => return Err(missing()),
            };
            i += 1;
            continue;
        }
        inline = matches!(item, Item::Value(Value::InlineTable(_)));
        table = item
            .as_table_like_mut()
            .ok_or_else(|| format!("`{}`: `{k}` is not a table", e.path))?;
    }
    let Some(new_value) = &e.new else {
        return Err(format!("`{}`: a removal", e.path));
    };
    let mut new = value(new_value);
    match (&e.old, table.get_mut(last)) {
        (None, None) => {
            if inline {
                // `{ a = 1 }` + b reads `{ a = 1, b = 2 }`: the space
                // before the brace moves behind the new value.
                let before = table.iter().last().map(|(k, _)| k.to_string());
                if let Some(Item::Value(prev)) = before.and_then(|k| table.get_mut(&k)) {
                    let suffix = prev.decor().suffix().cloned();
                    prev.decor_mut().set_suffix("");
                    new.decor_mut().set_prefix(" ");
                    if let Some(s) = suffix {
                        new.decor_mut().set_suffix(s);
                    }
                }
            }
            table.insert(last, Item::Value(new));
        }
        (None, Some(_)) => return Err(format!("`{}` is already set", e.path)),
        (Some(_), None) => return Err(format!("`{}` is not set", e.path)),
        (Some(old), Some(item)) => {
            let Item::Value(v) = item else {
                return Err(format!("`{}` is a table, not a value", e.path));
            };
            if from_value(v).as_ref() != Some(old) {
                return Err(format!(
                    "`{}` is `{}`, not `{old}`",
                    e.path,
                    v.clone().decorated("", "")
                ));
            }
            *new.decor_mut() = v.decor().clone();
            *v = new;
        }
    }
    Ok(())
}

/// A removal: the key at the edit's path, whose value must be the edit's
/// old one, goes with its value and the rest of its line. Comment lines
/// above it stay: they move onto the key that follows in its table, or,
/// for the last key of a `[table]`, to the top of the table, under its
/// header. (A dotted or inline table has no comment lines of its own.)
fn remove_at(root: &mut Table, e: &FixEdit) -> Result<(), String> {
    let segs = e.path.segments();
    let Some((PathSegment::Key(last), parents)) = segs.split_last() else {
        return Err(format!("`{}` does not end with a key", e.path));
    };
    let missing = || format!("`{}` is not in the design", e.path);
    // The table holding the key: a `[table]` (or the root, or an element
    // of an array of tables), or an inline one.
    enum Cur<'a> {
        Table(&'a mut Table),
        Inline(&'a mut InlineTable),
    }
    let mut cur = Cur::Table(root);
    let mut i = 0;
    while i < parents.len() {
        let PathSegment::Key(k) = &parents[i] else {
            return Err(missing());
        };
        i += 1;
        let index = match parents.get(i) {
            Some(PathSegment::Index(n)) => {
                i += 1;
                Some(*n)
            }
            _ => None,
        };
        cur = match cur {
            Cur::Inline(t) => {
                let v = t.get_mut(k).ok_or_else(missing)?;
                match index {
                    Some(n) => Cur::Inline(
                        v.as_array_mut()
                            .and_then(|a| a.get_mut(n))
                            .and_then(Value::as_inline_table_mut)
                            .ok_or_else(missing)?,
                    ),
                    None => Cur::Inline(v.as_inline_table_mut().ok_or_else(missing)?),
                }
            }
            Cur::Table(t) => match (t.get_mut(k).ok_or_else(missing)?, index) {
                (Item::ArrayOfTables(a), Some(n)) => Cur::Table(a.get_mut(n).ok_or_else(missing)?),
                (Item::Value(Value::Array(a)), Some(n)) => Cur::Inline(
                    a.get_mut(n)
                        .and_then(Value::as_inline_table_mut)
                        .ok_or_else(missing)?,
                ),
                (Item::Table(t), None) => Cur::Table(t),
                (Item::Value(Value::InlineTable(t)), None) => Cur::Inline(t),
                _ => return Err(format!("`{}`: `{k}` is not a table", e.path)),
            },
        };
    }
    let check = |now: Option<FixValue>| -> Result<(), String> {
        match &e.old {
            Some(old) if now.as_ref() != Some(old) => Err(format!("`{}` is not `{old}`", e.path)),
            _ => Ok(()),
        }
    };
    let table = match cur {
        Cur::Table(t) => t,
        Cur::Inline(t) => return remove_inline(t, last, e, check),
    };
    let item = table
        .get(last)
        .ok_or_else(|| format!("`{}` is not set", e.path))?;
    check(item_value(item))?;
    // The comment lines above the key (its prefix up to the last line break).
    let above: Option<String> = table
        .key(last)
        .and_then(|k| k.leaf_decor().prefix())
        .and_then(|p| p.as_str())
        .and_then(|p| p.rfind('\n').map(|i| p[..=i].to_string()))
        .filter(|p| p.contains('#'));
    let keys: Vec<String> = table.iter().map(|(k, _)| k.to_string()).collect();
    let next = keys
        .iter()
        .position(|k| k == last)
        .and_then(|i| keys.get(i + 1).cloned());
    table.remove(last);
    let Some(above) = above else { return Ok(()) };
    if let Some(mut k) = next.and_then(|n| table.key_mut(&n)) {
        let own = k
            .leaf_decor()
            .prefix()
            .and_then(|p| p.as_str())
            .unwrap_or("")
            .to_string();
        k.leaf_decor_mut().set_prefix(format!("{above}{own}"));
    } else if !table.is_dotted() && !table.is_implicit() {
        let own = table
            .decor()
            .suffix()
            .and_then(|p| p.as_str())
            .unwrap_or("")
            .to_string();
        let above = above.trim_end_matches('\n');
        table.decor_mut().set_suffix(format!("{own}\n{above}"));
    }
    Ok(())
}

/// A removal from an inline table: `{ a = 1, b = 2 }` less `b` reads
/// `{ a = 1 }`, less both `{}`.
fn remove_inline(
    t: &mut InlineTable,
    last: &str,
    e: &FixEdit,
    check: impl Fn(Option<FixValue>) -> Result<(), String>,
) -> Result<(), String> {
    let v = t
        .get(last)
        .ok_or_else(|| format!("`{}` is not set", e.path))?;
    check(from_value(v))?;
    let keys: Vec<String> = t.iter().map(|(k, _)| k.to_string()).collect();
    let was_last = keys.last().is_some_and(|k| k == last);
    let removed = t.remove(last);
    if was_last && keys.len() >= 2 {
        let suffix = removed.and_then(|v| v.decor().suffix().cloned());
        if let (Some(prev), Some(suffix)) = (t.get_mut(&keys[keys.len() - 2]), suffix) {
            prev.decor_mut().set_suffix(suffix);
        }
    }
    Ok(())
}

/// A value or a table of the document as a fix states it.
fn item_value(item: &Item) -> Option<FixValue> {
    match item {
        Item::Value(v) => from_value(v),
        Item::Table(t) => Some(FixValue::Table(
            t.iter()
                .map(|(k, v)| Some((k.to_string(), item_value(v)?)))
                .collect::<Option<_>>()?,
        )),
        Item::None | Item::ArrayOfTables(_) => None,
    }
}

/// A fix's value as `toml_edit` writes it.
fn value(v: &FixValue) -> Value {
    match v {
        FixValue::Bool(b) => Value::from(*b),
        FixValue::Integer(i) => Value::from(*i),
        FixValue::String(s) => Value::from(s.as_str()),
        FixValue::Array(items) => {
            let mut a: Array = items.iter().map(value).collect();
            a.fmt();
            Value::Array(a)
        }
        FixValue::Table(entries) => {
            let mut t = InlineTable::new();
            for (k, v) in entries {
                t.insert(k, value(v));
            }
            t.fmt();
            Value::InlineTable(t)
        }
    }
}

/// The value as a fix states it; `None` for what fixes never hold (floats,
/// dates).
fn from_value(v: &Value) -> Option<FixValue> {
    Some(match v {
        Value::Boolean(b) => FixValue::Bool(*b.value()),
        Value::Integer(i) => FixValue::Integer(*i.value()),
        Value::String(s) => FixValue::String(s.value().clone()),
        Value::Array(a) => FixValue::Array(a.iter().map(from_value).collect::<Option<_>>()?),
        Value::InlineTable(t) => FixValue::Table(
            t.iter()
                .map(|(k, v)| Some((k.to_string(), from_value(v)?)))
                .collect::<Option<_>>()?,
        ),
        Value::Float(_) | Value::Datetime(_) => return None,
    })
}

/// One replacement of text: what a fix does to the file, as SARIF states
/// it (`deletedRegion` and `insertedContent`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replacement {
    /// The bytes replaced (empty for an insertion).
    pub deleted: Span,
    pub inserted: String,
}

/// The text replacements a fix makes to `text`: the edits made with
/// [`apply_edits`], then one replacement per run of changed lines (whole
/// lines, so each stays readable).
pub fn replacements(text: &str, fix: &Fix) -> Result<Vec<Replacement>, String> {
    let edited = apply_edits(text, &fix.edits)?;
    Ok(line_replacements(text, &edited))
}

/// The whole-line replacements that turn `old` into `new`, in order, each
/// on the bytes of `old`.
pub fn line_replacements(old: &str, new: &str) -> Vec<Replacement> {
    use similar::{DiffOp, TextDiff};
    let diff = TextDiff::from_lines(old, new);
    // Byte offsets of each line start in `old`, and the lines of `new`.
    let starts: Vec<usize> = std::iter::once(0)
        .chain(old.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let at = |line: usize| {
        starts
            .get(line)
            .copied()
            .unwrap_or(old.len())
            .min(old.len())
    };
    let new_lines: Vec<&str> = new.split_inclusive('\n').collect();
    let mut out = Vec::new();
    for op in diff.ops() {
        match *op {
            DiffOp::Equal { .. } => {}
            DiffOp::Delete {
                old_index, old_len, ..
            } => out.push(Replacement {
                deleted: Span::new(at(old_index), at(old_index + old_len)),
                inserted: String::new(),
            }),
            DiffOp::Insert {
                old_index,
                new_index,
                new_len,
            } => out.push(Replacement {
                deleted: Span::new(at(old_index), at(old_index)),
                inserted: new_lines[new_index..new_index + new_len].concat(),
            }),
            DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } => out.push(Replacement {
                deleted: Span::new(at(old_index), at(old_index + old_len)),
                inserted: new_lines[new_index..new_index + new_len].concat(),
            }),
        }
    }
    out
}

/// `a/d.toml` for a relative path (as `patch -p1` and `git apply` take
/// it), the path itself for an absolute one.
fn side(prefix: &str, name: &str) -> String {
    if std::path::Path::new(name).is_absolute() {
        name.to_string()
    } else {
        format!("{prefix}/{name}")
    }
}

/// A unified diff of `old` to `new` (`--diff`), headed by the file's name.
pub fn unified_diff(name: &str, old: &str, new: &str) -> String {
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(&side("a", name), &side("b", name))
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use netlint_model::TomlPath;

    fn path(segs: &[&str]) -> TomlPath {
        segs.iter()
            .fold(TomlPath::new(), |p, s| match s.parse::<usize>() {
                Ok(n) => p.then(n),
                Err(_) => p.then(*s),
            })
    }

    fn span_of(text: &str, needle: &str) -> Span {
        let s = text.find(needle).expect(needle);
        Span::new(s, s + needle.len())
    }

    const SRC: &str = r#"# the lab design
[design]
name = "t"

[hosts.hv1]
# DCB as the switch team asked
dcb = { willing = true, pfc = [3] }  # keep this

[switches.a]
stp = { mode = "rstp" }
[switches.b]
tier = "core"  # the core

[[links]]
a = "a"
b = "b"
[[links]]
a = "a"
b = "b"
stp_cost = 2000 # slow path
"#;

    /// A file with mixed line breaks comes back byte for byte but for the
    /// lines the edit wrote, which end as most of its lines do; a lone CR
    /// inside a line is not a line break.
    #[test]
    fn mixed_line_breaks_are_kept_line_by_line() {
        let original = "a = 1\r\nb = 2\nc = \"x\ry\"\r\nd = 4\r\n";
        let edited = "a = 1\nb = 2\nc = \"x\ry\"\nd = 5\ne = 6\n";
        assert_eq!(
            keep_layout(original, edited),
            "a = 1\r\nb = 2\nc = \"x\ry\"\r\nd = 5\r\ne = 6\r\n"
        );
        // Mostly LF: written lines end LF, the CRLF line stays CRLF.
        let original = "a = 1\nb = 2\r\nc = 3\n";
        assert_eq!(
            keep_layout(original, "a = 0\nb = 2\nc = 3\n"),
            "a = 0\nb = 2\r\nc = 3\n"
        );
        // A byte order mark stays, with or without CRLF.
        assert_eq!(keep_layout("\u{feff}a = 1\n", "a = 2\n"), "\u{feff}a = 2\n");
        assert_eq!(
            keep_layout("\u{feff}a = 1\r\nb = 1\r\n", "a = 2\nb = 1\n"),
            "\u{feff}a = 2\r\nb = 1\r\n"
        );
    }

    #[test]
    fn a_replaced_value_keeps_its_comments_and_layout() {
        let e = FixEdit::replace(
            path(&["hosts", "hv1", "dcb", "willing"]),
            true,
            false,
            span_of(SRC, "true"),
        );
        let out = apply_edits(SRC, &[e]).unwrap();
        assert_eq!(
            out,
            SRC.replace("willing = true", "willing = false"),
            "only the value changes"
        );
    }

    #[test]
    fn a_value_in_an_array_of_tables_is_found_by_index() {
        let e = FixEdit::replace(
            path(&["links", "1", "stp_cost"]),
            2000u32,
            12000u32,
            span_of(SRC, "2000"),
        );
        let out = apply_edits(SRC, &[e]).unwrap();
        assert_eq!(out, SRC.replace("2000 # slow", "12000 # slow"));
    }

    #[test]
    fn an_added_key_lands_in_its_table_inline_or_not() {
        let inline = FixEdit::insert(
            path(&["switches", "a", "stp", "priority"]),
            4096u32,
            span_of(SRC, "stp"),
        );
        let out = apply_edits(SRC, &[inline]).unwrap();
        assert!(
            out.contains("stp = { mode = \"rstp\", priority = 4096 }"),
            "{out}"
        );
        let table = FixEdit::insert(
            path(&["switches", "b", "mtu"]),
            9216u32,
            span_of(SRC, "[switches.b]"),
        );
        let out = apply_edits(SRC, &[table]).unwrap();
        assert!(
            out.contains("[switches.b]\ntier = \"core\"  # the core\nmtu = 9216\n"),
            "{out}"
        );
    }

    #[test]
    fn a_missing_table_is_added_as_a_dotted_key() {
        let e = FixEdit::insert(
            path(&["switches", "b", "stp", "priority"]),
            8192u32,
            span_of(SRC, "[switches.b]"),
        );
        let out = apply_edits(SRC, &[e]).unwrap();
        assert!(out.contains("stp.priority = 8192"), "{out}");
        let again: toml::Table = out.parse().expect("the edited text is TOML");
        assert_eq!(
            again["switches"]["b"]["stp"]["priority"].as_integer(),
            Some(8192)
        );
        assert_eq!(again["switches"]["b"]["tier"].as_str(), Some("core"));
    }

    #[test]
    fn an_inline_array_of_tables_is_found_by_index_too() {
        let src = "links = [\n  { a = \"a\", b = \"b\" },  # first\n  { a = \"b\", b = \"c\", stp_cost = 4 },\n]\n";
        let e = FixEdit::replace(
            path(&["links", "1", "stp_cost"]),
            4u32,
            40u32,
            span_of(src, "4 }"),
        );
        let e = FixEdit {
            span: Span::new(e.span.start, e.span.start + 1),
            ..e
        };
        assert_eq!(
            apply_edits(src, &[e]).unwrap(),
            src.replace("stp_cost = 4 }", "stp_cost = 40 }")
        );
        let add = FixEdit::insert(
            path(&["links", "0", "stp_cost"]),
            9u32,
            span_of(src, "{ a = \"a\""),
        );
        let out = apply_edits(src, &[add]).unwrap();
        assert!(
            out.contains("{ a = \"a\", b = \"b\", stp_cost = 9 },  # first"),
            "{out}"
        );
    }

    #[test]
    fn a_value_that_is_not_the_old_one_is_not_edited() {
        let e = FixEdit::replace(
            path(&["hosts", "hv1", "dcb", "willing"]),
            false,
            true,
            span_of(SRC, "true"),
        );
        let err = apply_edits(SRC, &[e]).unwrap_err();
        assert!(err.contains("is `true`, not `false`"), "{err}");
        let wrong_span = FixEdit::replace(
            path(&["hosts", "hv1", "dcb", "willing"]),
            true,
            false,
            span_of(SRC, "rstp"),
        );
        assert!(apply_edits(SRC, &[wrong_span]).is_err());
        let exists = FixEdit::insert(
            path(&["switches", "b", "tier"]),
            "access",
            span_of(SRC, "[switches.b]"),
        );
        assert!(apply_edits(SRC, &[exists])
            .unwrap_err()
            .contains("already set"));
    }

    /// A removal takes the key, its value and the rest of its line; the
    /// comment lines above it stay, and an inline table keeps its spacing.
    #[test]
    fn a_removed_entry_takes_its_line_and_leaves_the_comments() {
        let src = "[a]\nallow = { x = \"1\", y = \"2\" }  # keep\n[b.allow]\n# about x\nx = \"1\"\n# about y\ny = \"2\"  # y\n[c]\nz = 1\n";
        let rm = |p: &[&str], old: &str| {
            let at = match p[0] {
                "a" => src
                    .find(&format!("\"{old}\","))
                    .or_else(|| src.find(&format!("\"{old}\" }}"))),
                _ => src.rfind(&format!("= \"{old}\"")).map(|i| i + 2),
            }
            .unwrap();
            FixEdit::remove(path(p), old, Span::new(at, at + old.len() + 2))
        };
        let out = apply_edits(src, &[rm(&["a", "allow", "x"], "1")]).unwrap();
        assert!(out.contains("allow = { y = \"2\" }  # keep\n"), "{out}");
        let out = apply_edits(src, &[rm(&["a", "allow", "y"], "2")]).unwrap();
        assert!(out.contains("allow = { x = \"1\" }  # keep\n"), "{out}");
        let out = apply_edits(src, &[rm(&["b", "allow", "x"], "1")]).unwrap();
        assert!(
            out.contains("[b.allow]\n# about x\n# about y\ny = \"2\"  # y\n[c]"),
            "{out}"
        );
        let both = [rm(&["b", "allow", "x"], "1"), rm(&["b", "allow", "y"], "2")];
        let out = apply_edits(src, &both).unwrap();
        assert!(
            out.contains("[b.allow]\n# about x\n# about y\n[c]\nz = 1\n"),
            "{out}"
        );
        // The value must be the one the rule read.
        let wrong = FixEdit::remove(
            path(&["b", "allow", "x"]),
            "9",
            rm(&["b", "allow", "x"], "1").span,
        );
        assert!(apply_edits(src, &[wrong])
            .unwrap_err()
            .contains("is not `\"9\"`"));
    }

    #[test]
    fn replacements_cover_the_changed_lines_only() {
        let fix = Fix::safe(
            "t",
            vec![FixEdit::replace(
                path(&["links", "1", "stp_cost"]),
                2000u32,
                12000u32,
                span_of(SRC, "2000"),
            )],
        );
        let r = replacements(SRC, &fix).unwrap();
        assert_eq!(r.len(), 1);
        let line = span_of(SRC, "stp_cost = 2000 # slow path\n");
        assert_eq!(r[0].deleted, line);
        assert_eq!(r[0].inserted, "stp_cost = 12000 # slow path\n");
        let mut applied = SRC.to_string();
        applied.replace_range(r[0].deleted.start..r[0].deleted.end, &r[0].inserted);
        assert_eq!(applied, apply_edits(SRC, &fix.edits).unwrap());
    }

    #[test]
    fn the_diff_is_unified_with_the_file_name() {
        let d = unified_diff("d.toml", "a = 1\nb = 2\n", "a = 1\nb = 3\n");
        assert!(
            d.starts_with("--- a/d.toml\n+++ b/d.toml\n@@ -1,2 +1,2 @@\n"),
            "{d}"
        );
        assert!(d.contains("-b = 2\n+b = 3\n"), "{d}");
    }
}
