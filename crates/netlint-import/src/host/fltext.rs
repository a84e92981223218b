//! PowerShell `Format-List` text of the host cmdlets (`Get-NetAdapter |
//! Format-List *`, `... | fl`) read into a [`Collection`], so that the
//! Hyper-V mapping ([`super::hyperv::facts`]) reads it as it reads the JSON
//! of `netlint collect hyperv`.
//!
//! Two forms:
//!
//! - a folder of files each named by its cmdlet (`Get-NetAdapter.txt`,
//!   any case, any extension) holding that cmdlet's output;
//! - one file of sections, each introduced by its command line as a
//!   transcript echoes it (`PS C:\> Get-NetAdapter | Format-List *`,
//!   `[hv01]: PS C:\Users\x> Get-VMNetworkAdapter -ManagementOS | fl`): the
//!   section's cmdlet is the first `Get-...` word of that line. A file
//!   without such lines is one section of the cmdlet its name names.
//!
//! In a section, objects are separated by blank lines; each property is a
//! line `Name<pad> : value`, the colons of an object in one column. A
//! value longer than the console is wrapped onto lines indented to the
//! value column, joined back here: with nothing between when the line
//! before ends in a blank, or holds one word that fills the widest line of
//! the file (a word longer than the console, cut in its middle); else with
//! one blank (a word wrap, which drops the blank it breaks at).
//!
//! Values are text; they become [`Value`]s as follows:
//!
//! - `{a, b}` (PowerShell's display of a collection) is a list of texts,
//!   `{}` an empty list; a list cut by `$FormatEnumerationLimit`
//!   (`{0, 1, 2, 4...}`) is not a list of what it shows: it is unknown
//!   (null), with a note (not for `CimInstanceProperties`, cut in every
//!   `Format-List *` of a CIM cmdlet);
//! - `True` / `False` are booleans;
//! - a whole integer is an integer (not one with a leading zero, which is
//!   a name: it stays text);
//! - a type name where a nested object was (`Microsoft.HyperV.PowerShell.
//!   VMNetworkAdapterBandwidthSetting`, `Microsoft.Management.
//!   Infrastructure.CimInstance#...`, `System.Object[]`, `@{...}`) is
//!   unknown (null): Format-List does not show nested objects;
//! - an empty value is null; anything else (enum names, `25 Gbps`) is text.
//!
//! The host's name is the first `ComputerName` / `PSComputerName` given,
//! else `SystemName` (Get-NetAdapter), else the file's (or folder's) stem.
//! `Format-Table` text is refused, by the caller ([`crate::pstext`]).

use std::collections::BTreeMap;

use super::facts::Remark;
use super::hyperv::CMDLETS;
use super::value::{Collection, Node, Value};
use crate::error::{ErrorKind, InputError};
use crate::pstext::{self, View};

/// A collection read from Format-List text, and what the reader noted
/// (lines it could not read, lists cut short), for the host's remarks.
#[derive(Clone, Debug, PartialEq)]
pub struct FlRead {
    pub collection: Collection,
    pub notes: Vec<Remark>,
    /// Files of a folder that name no cmdlet (`README.md`): not read.
    pub not_read: Vec<String>,
}

/// The canonical spelling of a cmdlet netlint reads (`get-netadapter` ->
/// `Get-NetAdapter`).
pub fn known_cmdlet(name: &str) -> Option<&'static str> {
    CMDLETS
        .iter()
        .find(|c| c.eq_ignore_ascii_case(name))
        .copied()
}

/// The command of a transcript's prompt line: `PS C:\> Get-NetAdapter |
/// fl` and `[hv01]: PS C:\> ...` give the text after `> `.
pub fn prompt_command(line: &str) -> Option<&str> {
    let l = line.trim_start_matches('\u{feff}');
    let l = match l.strip_prefix('[') {
        Some(rest) => &rest[rest.find("]: ")? + 3..],
        None => l,
    };
    if let Some(cmd) = l.strip_prefix("PS>") {
        return Some(cmd.trim());
    }
    // `PS <path>> command`: the path ends at its first `>`.
    let rest = l.strip_prefix("PS ")?;
    let gt = rest.find('>')?;
    Some(rest[gt + 1..].trim())
}

/// The cmdlet a command line runs: its first word starting with `Get-`
/// (any case), `Get-NetAdapter` for `Get-NetAdapter | Format-List *`.
pub fn command_cmdlet(cmd: &str) -> Option<String> {
    cmd.split(|c: char| c.is_whitespace() || matches!(c, '|' | ';' | '(' | ')' | '{' | '}' | '$'))
        .find(|w| named_get(w))
        .map(|w| match known_cmdlet(w) {
            Some(k) => k.to_string(),
            None => w.to_string(),
        })
}

/// Whether a word (or file name) starts with `Get-` (any case) and goes
/// on.
pub fn named_get(w: &str) -> bool {
    w.len() > 4 && w.get(..4).is_some_and(|p| p.eq_ignore_ascii_case("get-"))
}

/// The stem of a file name (`Get-NetAdapter.txt` -> `Get-NetAdapter`),
/// without its folders.
fn stem(file: &str) -> &str {
    let base = file.rsplit(['/', '\\']).next().unwrap_or(file);
    match base.rsplit_once('.') {
        Some((s, _)) if !s.is_empty() => s,
        _ => base,
    }
}

/// The cmdlet a file's name names, when it is one netlint reads.
pub fn file_cmdlet(file: &str) -> Option<&'static str> {
    known_cmdlet(stem(file))
}

/// Whether decoded `text` (of the file `name`) is Format-List text netlint
/// reads: PowerShell's list view, with a transcript line running a cmdlet
/// netlint reads, or in a file named by one.
pub fn looks_like(name: &str, text: &str) -> bool {
    pstext::view(text) == Some(View::List)
        && (file_cmdlet(name).is_some()
            || text.lines().any(|l| {
                prompt_command(l)
                    .and_then(command_cmdlet)
                    .is_some_and(|c| known_cmdlet(&c).is_some())
            }))
}

/// Reads one file of Format-List text: its sections, or the whole file as
/// the output of the cmdlet its name names. `name` names it in errors and
/// provenance.
pub fn read(name: &str, text: &str) -> Result<FlRead, InputError> {
    let mut cmdlets: BTreeMap<String, Node> = BTreeMap::new();
    let mut notes = Vec::new();
    read_into(name, text, file_cmdlet(name), &mut cmdlets, &mut notes, "")?;
    if cmdlets.is_empty() {
        return Err(InputError {
            file: name.to_string(),
            line: 1,
            column: 0,
            kind: ErrorKind::PowerShellText(View::List),
        });
    }
    let collection = collection(name, cmdlets, fallback_host(name, true));
    Ok(FlRead {
        collection,
        notes,
        not_read: Vec::new(),
    })
}

/// Reads a folder's files (`(file name, bytes)`, in the order given): each
/// file named `Get-...` is the output of that cmdlet (or a transcript of
/// sections); the others are listed as not read. `root` names the folder.
pub fn from_files(root: &str, files: Vec<(String, Vec<u8>)>) -> Result<FlRead, Vec<InputError>> {
    let mut cmdlets: BTreeMap<String, Node> = BTreeMap::new();
    let mut notes = Vec::new();
    let mut not_read = Vec::new();
    let mut errors = Vec::new();
    for (file, bytes) in files {
        let s = stem(&file);
        let named = named_get(s);
        if !named {
            not_read.push(file);
            continue;
        }
        let path = format!("{}/{file}", root.trim_end_matches(['/', '\\']));
        let (text, note) = crate::decode::decode(&bytes);
        if let Some(n) = note {
            notes.push(Remark {
                line: 1,
                text: format!("{file}: {n}"),
            });
        }
        let cmd = known_cmdlet(s).map_or_else(|| s.to_string(), str::to_string);
        if let Err(e) = read_into(&path, &text, Some(&cmd), &mut cmdlets, &mut notes, &file) {
            errors.push(e);
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    if cmdlets.is_empty() {
        return Err(vec![InputError {
            file: root.to_string(),
            line: 1,
            column: 0,
            kind: ErrorKind::WrongKind(
                "no file named by a cmdlet (`Get-NetAdapter.txt`): not a folder of Format-List text"
                    .to_string(),
            ),
        }]);
    }
    Ok(FlRead {
        collection: collection(root, cmdlets, fallback_host(root, false)),
        notes,
        not_read,
    })
}

/// The host name when no object states it: the file's stem, or for a file
/// named by its cmdlet its folder's name.
fn fallback_host(name: &str, file: bool) -> String {
    let trimmed = name.trim_end_matches(['/', '\\']);
    if file && file_cmdlet(trimmed).is_some() {
        let mut parts = trimmed.rsplit(['/', '\\']);
        parts.next();
        if let Some(dir) = parts.next().filter(|d| !d.is_empty() && *d != ".") {
            return dir.to_string();
        }
    }
    stem(trimmed).to_string()
}

fn collection(file: &str, cmdlets: BTreeMap<String, Node>, fallback: String) -> Collection {
    let text_of = |keys: &[&str]| {
        cmdlets.values().flat_map(Node::items).find_map(|o| {
            o.get_any(keys)
                .and_then(Node::as_str)
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_string)
        })
    };
    let host = text_of(&["ComputerName", "PSComputerName"])
        .or_else(|| text_of(&["SystemName"]))
        .unwrap_or(fallback);
    Collection {
        file: file.to_string(),
        host: Some(host),
        cmdlets,
    }
}

/// Reads `text` into `cmdlets`: by its prompt lines, or as the output of
/// `default` when it has none. `label` prefixes notes (a folder's file).
fn read_into(
    name: &str,
    text: &str,
    default: Option<&str>,
    cmdlets: &mut BTreeMap<String, Node>,
    notes: &mut Vec<Remark>,
    label: &str,
) -> Result<(), InputError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if pstext::view(text) == Some(View::Table) {
        let line = text
            .lines()
            .position(|l| !l.trim().is_empty())
            .map_or(1, |i| i as u32 + 1);
        return Err(InputError {
            file: name.to_string(),
            line,
            column: 0,
            kind: ErrorKind::PowerShellText(View::Table),
        });
    }
    let lines: Vec<&str> = text.lines().map(|l| l.trim_end_matches('\r')).collect();
    let width = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let mut note = |line: u32, t: String| {
        notes.push(Remark {
            line,
            text: if label.is_empty() {
                t
            } else {
                format!("{label}: {t}")
            },
        })
    };
    let mut sections: Vec<Section> = Vec::new();
    let mut preamble: Vec<(u32, &str)> = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let no = u32::try_from(i + 1).unwrap_or(u32::MAX);
        if let Some(cmd) = prompt_command(l) {
            sections.push(Section {
                cmdlet: command_cmdlet(cmd),
                line: no,
                command: cmd.to_string(),
                body: Vec::new(),
            });
            continue;
        }
        match sections.last_mut() {
            Some(s) => s.body.push((no, l)),
            None => preamble.push((no, l)),
        }
    }
    if sections.is_empty() {
        let Some(cmd) = default else {
            return Ok(());
        };
        sections.push(Section {
            cmdlet: Some(cmd.to_string()),
            line: 1,
            command: String::new(),
            body: preamble,
        });
    } else if let Some((no, _)) = preamble.iter().find(|(_, l)| is_property(l)) {
        note(
            *no,
            "properties before the first command line (`PS C:\\> Get-... | Format-List *`): not read, no cmdlet is named for them".to_string(),
        );
    }
    for Section {
        cmdlet,
        line: no,
        command,
        body,
    } in sections
    {
        let Some(cmd) = cmdlet else {
            // A command of no Get- cmdlet (`Stop-Transcript`, `cls`): its
            // output is said only when it looks like properties.
            if body.iter().any(|(_, l)| is_property(l)) {
                note(
                    no,
                    format!("`{command}` runs no Get- cmdlet: its output is not read"),
                );
            }
            continue;
        };
        let objs = objects(&body, width, &mut note);
        let entry = cmdlets
            .entry(cmd)
            .or_insert_with(|| Node::new(Value::List(Vec::new()), no));
        if let Value::List(l) = &mut entry.value {
            l.extend(objs);
        }
    }
    Ok(())
}

/// One command's output: the cmdlet it runs (none for `Stop-Transcript`),
/// the line of its command, the command, and its lines.
struct Section<'a> {
    cmdlet: Option<String>,
    line: u32,
    command: String,
    body: Vec<(u32, &'a str)>,
}

/// A character of a property name as Format-List prints it.
fn name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '*')
}

/// `Name<pad> : value` / `Name<pad> :` -> (name, the colon's column).
fn property(l: &str) -> Option<(&str, usize)> {
    if l.starts_with(char::is_whitespace) {
        return None;
    }
    let i = l.find(" : ").or_else(|| {
        let t = l.trim_end();
        t.strip_suffix(" :").map(str::len)
    })?;
    let name = l[..i].trim_end();
    (!name.is_empty() && name.chars().all(name_char)).then_some((name, i + 1))
}

fn is_property(l: &str) -> bool {
    property(l).is_some()
}

/// One property being read: its name, line and value so far.
struct Prop {
    name: String,
    line: u32,
    value: String,
}

fn objects(body: &[(u32, &str)], width: usize, note: &mut dyn FnMut(u32, String)) -> Vec<Node> {
    let mut out = Vec::new();
    let mut cur: Vec<Prop> = Vec::new();
    let mut last_len = 0usize;
    let mut last_blank_end = false;
    let mut last_one_word = false;
    let flush = |cur: &mut Vec<Prop>, out: &mut Vec<Node>, note: &mut dyn FnMut(u32, String)| {
        if cur.is_empty() {
            return;
        }
        let line = cur[0].line;
        let props = cur
            .drain(..)
            .map(|p| {
                let v = value(&p.value, p.line, &p.name, note);
                (p.name, v)
            })
            .collect();
        out.push(Node::new(Value::Map(props), line));
    };
    for (no, l) in body {
        if l.trim().is_empty() {
            flush(&mut cur, &mut out, note);
            continue;
        }
        if l.starts_with(char::is_whitespace) {
            if let Some(p) = cur.last_mut() {
                let piece = l.trim();
                let cut = last_one_word && last_len >= width;
                if !(last_blank_end || cut || p.value.is_empty()) {
                    p.value.push(' ');
                }
                p.value.push_str(piece);
                last_len = l.chars().count();
                last_blank_end = l.ends_with(' ');
                last_one_word = !piece.contains(char::is_whitespace);
                continue;
            }
        }
        match property(l) {
            Some((name, col)) => {
                let rest = l.get(col + 1..).unwrap_or("");
                let rest = rest.strip_prefix(' ').unwrap_or(rest);
                cur.push(Prop {
                    name: name.to_string(),
                    line: *no,
                    value: rest.trim_end().to_string(),
                });
                last_len = l.chars().count();
                last_blank_end = l.ends_with(' ') && !rest.trim().is_empty();
                last_one_word = !rest.trim().contains(char::is_whitespace);
            }
            None => note(
                *no,
                format!(
                    "`{}` is no `Name : value` line of Format-List text: not read",
                    l.trim()
                ),
            ),
        }
    }
    flush(&mut cur, &mut out, note);
    out
}

/// Whether a value is the type name Format-List prints for a nested
/// object (or `@{...}` for a custom object): the object's properties are
/// not shown.
pub fn is_type_name(t: &str) -> bool {
    t.starts_with("@{")
        || (!t.contains(char::is_whitespace)
            && (t.starts_with("Microsoft.")
                || t.starts_with("System.")
                || t.starts_with("MSFT_")
                || t.contains("CimInstance#")))
}

fn scalar(t: &str, line: u32) -> Node {
    let t = t.trim();
    let v = if t.is_empty() || is_type_name(t) {
        Value::Null
    } else if t.eq_ignore_ascii_case("true") {
        Value::Bool(true)
    } else if t.eq_ignore_ascii_case("false") {
        Value::Bool(false)
    } else {
        let digits = t.strip_prefix('-').unwrap_or(t);
        let int = !digits.is_empty()
            && digits.bytes().all(|b| b.is_ascii_digit())
            && (digits == "0" || !digits.starts_with('0'));
        match int.then(|| t.parse::<i64>().ok()).flatten() {
            Some(i) => Value::Int(i),
            None => Value::Str(t.to_string()),
        }
    };
    Node::new(v, line)
}

fn value(t: &str, line: u32, name: &str, note: &mut dyn FnMut(u32, String)) -> Node {
    let t = t.trim();
    if let Some(inner) = t.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
        if inner.trim_end().ends_with("...") {
            // `CimInstanceProperties` (CIM's own plumbing, cut in every
            // `Format-List *` of a CIM cmdlet) is not said.
            if name.eq_ignore_ascii_case("CimInstanceProperties") {
                return Node::new(Value::Null, line);
            }
            note(
                line,
                format!("{name}: `{t}` is cut short by $FormatEnumerationLimit: unknown (set `$FormatEnumerationLimit = -1` before `Format-List *`, or use `netlint collect hyperv`)"),
            );
            return Node::new(Value::Null, line);
        }
        if inner.trim().is_empty() {
            return Node::new(Value::List(Vec::new()), line);
        }
        let items = inner
            .split(", ")
            .map(|s| {
                let s = s.trim();
                let v = if s.is_empty() || is_type_name(s) {
                    Value::Null
                } else {
                    Value::Str(s.to_string())
                };
                Node::new(v, line)
            })
            .collect();
        return Node::new(Value::List(items), line);
    }
    scalar(t, line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prompts_name_their_cmdlet() {
        assert_eq!(
            prompt_command("PS C:\\> Get-NetAdapter | Format-List *"),
            Some("Get-NetAdapter | Format-List *")
        );
        assert_eq!(
            prompt_command(
                "[hv01]: PS C:\\Users\\x\\Documents> get-vmnetworkadapter -ManagementOS | fl"
            ),
            Some("get-vmnetworkadapter -ManagementOS | fl")
        );
        assert_eq!(prompt_command("Name : PS C:\\> x"), None);
        assert_eq!(
            command_cmdlet("get-vmnetworkadapter -ManagementOS | fl").as_deref(),
            Some("Get-VMNetworkAdapter")
        );
        assert_eq!(command_cmdlet("$FormatEnumerationLimit = -1"), None);
        assert_eq!(
            command_cmdlet("Get-NetIPAddress | fl *").as_deref(),
            Some("Get-NetIPAddress")
        );
    }

    #[test]
    fn values_become_typed_nodes() {
        let mut notes = Vec::new();
        let mut note = |l: u32, t: String| notes.push((l, t));
        assert_eq!(
            value("{3}", 4, "Priority", &mut note)
                .as_list()
                .unwrap()
                .len(),
            1
        );
        assert_eq!(value("True", 1, "x", &mut note).value, Value::Bool(true));
        assert_eq!(value("9014", 1, "x", &mut note).value, Value::Int(9014));
        assert_eq!(
            value("0012", 1, "x", &mut note).value,
            Value::Str("0012".into())
        );
        assert_eq!(
            value("25 Gbps", 1, "x", &mut note).value,
            Value::Str("25 Gbps".into())
        );
        assert_eq!(value("", 1, "x", &mut note).value, Value::Null);
        assert_eq!(
            value(
                "Microsoft.HyperV.PowerShell.VMNetworkAdapterBandwidthSetting",
                1,
                "x",
                &mut note
            )
            .value,
            Value::Null
        );
        assert_eq!(
            value("{}", 1, "x", &mut note).value,
            Value::List(Vec::new())
        );
        assert_eq!(
            value("{0, 1, 2, 4...}", 9, "Priority", &mut note).value,
            Value::Null
        );
        assert_eq!(notes.len(), 1);
        assert_eq!(notes[0].0, 9);
    }

    #[test]
    fn wrapped_values_are_joined_and_objects_split_at_blank_lines() {
        let text = "PS C:\\> Get-VMSwitch | Format-List *\r\n\r\nName                            : S\r\nNetAdapterInterfaceDescriptions : {Mellanox ConnectX-4 Lx Ethernet Adapter, Mellanox\r\n                                  ConnectX-4 Lx Ethernet Adapter #2}\r\nSwitchType                      : External\r\n\r\nName                            : T\r\nSwitchType                      : Internal\r\nComputerName                    : HV9\r\n";
        let r = read("t.txt", text).unwrap();
        let objs = r.collection.objects("Get-VMSwitch");
        assert_eq!(objs.len(), 2);
        let d = objs[0].get("NetAdapterInterfaceDescriptions").unwrap();
        assert_eq!(
            d.strings(),
            [
                "Mellanox ConnectX-4 Lx Ethernet Adapter",
                "Mellanox ConnectX-4 Lx Ethernet Adapter #2"
            ]
        );
        assert_eq!(d.line, 4);
        assert_eq!(objs[1].line, 8);
        assert_eq!(r.collection.host.as_deref(), Some("HV9"));
        assert!(r.notes.is_empty(), "{:?}", r.notes);
    }
}
