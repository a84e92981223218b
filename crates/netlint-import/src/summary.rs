//! What became of every line of an input: understood, ignored as
//! irrelevant (with why), or not understood (listed, with why).

use std::fmt;

/// Why a line was ignored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ignored {
    Blank,
    /// `!` or `#` comment lines.
    Comment,
    /// Capture noise: a CLI prompt, `Building configuration...`, pager
    /// leftovers, a syslog message on its own line, `end`.
    Capture,
    /// A banner's text.
    Banner,
    /// A command or section known to be irrelevant to layer 2 (the
    /// section's first word: `router`, `aaa`, `snmp-server`, ...).
    Irrelevant(&'static str),
    /// Header and footer text of a table (LLDP) or a CSV header.
    TableText,
}

impl fmt::Display for Ignored {
    /// The reason as listed (`--list-ignored`): the section's reason for a
    /// command known irrelevant (`aaa`, `qos`), else what the line is.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ignored::Blank => write!(f, "blank"),
            Ignored::Comment => write!(f, "comment"),
            Ignored::Capture => write!(f, "capture noise"),
            Ignored::Banner => write!(f, "banner text"),
            Ignored::Irrelevant(why) => write!(f, "{why}"),
            Ignored::TableText => write!(f, "table text"),
        }
    }
}

/// How a line was classified.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineClass {
    Understood,
    Ignored(Ignored),
    NotUnderstood,
}

/// Why a relevant line was not understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// A command the importer does not know, in a section it reads.
    UnknownCommand,
    /// A known command with a value it cannot read.
    BadValue(String),
    /// A banner whose closing delimiter never came: the rest of the file
    /// was read as banner text.
    UnterminatedBanner,
    /// A CSV row without four fields, or an LLDP line out of place.
    Malformed(String),
}

impl fmt::Display for Reason {
    /// The reason as printed: text quoted from the input (a value that did
    /// not read) with its control characters shown escaped (`\u{1b}`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::UnknownCommand => write!(f, "command not understood"),
            Reason::BadValue(why) => write!(f, "{}", netlint_model::text::escape(why)),
            Reason::UnterminatedBanner => {
                write!(
                    f,
                    "banner never closed: the rest of the file was skipped as banner text"
                )
            }
            Reason::Malformed(why) => write!(f, "{}", netlint_model::text::escape(why)),
        }
    }
}

/// A relevant line the importer could not interpret.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotUnderstood {
    pub line: u32,
    /// The line's text after capture noise was removed.
    pub text: String,
    pub reason: Reason,
}

/// A line ignored, with why: listed as the not-understood lines are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IgnoredLine {
    pub line: u32,
    /// The line's text after capture noise was removed (a prompt line's
    /// text is the prompt; a line that was noise alone, as captured).
    pub text: String,
    pub why: Ignored,
}

/// Something the importer says about a line it read: a choice it made that
/// the reader should know of (a CSV column it does not read, the delimiter
/// it took).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    pub line: u32,
    pub text: String,
}

/// Per file: how every line was classified.
#[derive(Clone, Default)]
pub struct ImportSummary {
    /// One class per line of the file, in order (index = line - 1).
    pub classes: Vec<LineClass>,
    /// The lines counted as not understood, in file order.
    pub not_understood: Vec<NotUnderstood>,
    /// Lines a syslog message or pager prompt was cut out of.
    pub cleaned: Vec<u32>,
    /// Notes on lines read, in file order.
    pub notes: Vec<Note>,
    /// The lines counted as ignored, blank lines left out, in file order,
    /// each with why.
    pub ignored_lines: Vec<IgnoredLine>,
}

impl ImportSummary {
    pub fn lines(&self) -> usize {
        self.classes.len()
    }

    pub fn understood(&self) -> usize {
        self.count(|c| matches!(c, LineClass::Understood))
    }

    pub fn ignored(&self) -> usize {
        self.count(|c| matches!(c, LineClass::Ignored(_)))
    }

    pub fn not_understood_count(&self) -> usize {
        self.count(|c| matches!(c, LineClass::NotUnderstood))
    }

    fn count(&self, f: impl Fn(&LineClass) -> bool) -> usize {
        self.classes.iter().filter(|c| f(c)).count()
    }

    /// The class of a line (1-based).
    pub fn class(&self, line: u32) -> Option<LineClass> {
        self.classes.get((line as usize).checked_sub(1)?).copied()
    }

    pub(crate) fn set(&mut self, line: u32, class: LineClass) {
        if let Some(slot) = (line as usize)
            .checked_sub(1)
            .and_then(|i| self.classes.get_mut(i))
        {
            *slot = class;
        }
    }

    pub(crate) fn not_understood(&mut self, line: u32, text: &str, reason: Reason) {
        self.set(line, LineClass::NotUnderstood);
        self.not_understood.push(NotUnderstood {
            line,
            text: text.to_string(),
            reason,
        });
    }

    /// Keeps the text and reason of every line classed as ignored but
    /// blank, once the classes are final.
    pub(crate) fn keep_ignored(&mut self, lines: &[crate::source::SrcLine<'_>]) {
        self.ignored_lines = lines
            .iter()
            .filter_map(|l| {
                let Some(LineClass::Ignored(why)) = self.class(l.no) else {
                    return None;
                };
                // A syslog message or pager prompt alone on its line is
                // cut whole: its text is the line as captured.
                let text = match l.body() {
                    "" => l.unstamped().trim(),
                    b => b,
                };
                (why != Ignored::Blank && !text.is_empty()).then(|| IgnoredLine {
                    line: l.no,
                    text: text.to_string(),
                    why,
                })
            })
            .collect();
    }

    pub(crate) fn note(&mut self, line: u32, text: impl Into<String>) {
        self.notes.push(Note {
            line,
            text: text.into(),
        });
    }
}

impl fmt::Debug for ImportSummary {
    /// Counts and the not-understood lines: what a snapshot should show.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = f.debug_struct("ImportSummary");
        s.field("lines", &self.lines())
            .field("understood", &self.understood())
            .field("ignored", &self.ignored())
            .field("not_understood", &self.not_understood)
            .field("cleaned", &self.cleaned);
        // Only when there are some, so the snapshots of inputs without
        // notes read as before.
        if !self.notes.is_empty() {
            s.field("notes", &self.notes);
        }
        s.finish()
    }
}
