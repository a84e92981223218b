//! A file that cannot be read as any input kind: located, never a panic.

use std::fmt;

/// Why a whole file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// Nothing but blank lines, comments and capture noise.
    Empty,
    /// Content that matches no input kind; `--from` forces one.
    Unrecognised,
    /// JSON that does not parse, or parses to another command's output.
    Json(String),
    /// The forced kind does not fit the content at all.
    WrongKind(String),
    /// XML that does not parse, or is not the CliXml `Export-Clixml`
    /// writes.
    Xml(String),
    /// PowerShell's formatted text that netlint does not read:
    /// `Format-Table` text, or `Format-List` text naming no cmdlet netlint
    /// reads (see [`crate::host::fltext`]).
    PowerShellText(crate::pstext::View),
}

/// A located input error: file, line (1-based), column (1-based, 0 when
/// the whole line is meant) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    pub file: String,
    pub line: u32,
    pub column: u32,
    pub kind: ErrorKind,
}

impl ErrorKind {
    /// What is wrong, without the location (which a renderer shows).
    pub fn describe(&self) -> String {
        match self {
            ErrorKind::Empty => {
                "the file holds no configuration, LLDP table or cabling".to_string()
            }
            ErrorKind::Unrecognised => format!(
                "not a running-config, LLDP table, cabling CSV or host collection that \
                 netlint knows; name the kind with --from ({})",
                crate::Kind::keys_text()
            ),
            ErrorKind::PowerShellText(crate::pstext::View::Table) => format!(
                "PowerShell Format-Table text (a cmdlet's default view), which netlint does \
                 not read (a table cuts columns, truncates values and hides properties): save \
                 the cmdlet's output with `| Format-List *` instead (one file per cmdlet named \
                 by it, `Get-NetAdapter.txt`, or a transcript with the command lines), or \
                 collect the hosts with `netlint collect hyperv` (or `netlint collect \
                 vsphere`); a switch file of another kind is named with --from ({})",
                crate::Kind::keys_text()
            ),
            ErrorKind::PowerShellText(crate::pstext::View::List) => format!(
                "PowerShell Format-List text that names no cmdlet netlint reads: name the \
                 file by its cmdlet (`Get-NetAdapter.txt`) or keep the command line before \
                 each output (`PS C:\\> Get-NetAdapter | Format-List *`), or collect the \
                 hosts with `netlint collect hyperv`; a switch file of another kind is named \
                 with --from ({})",
                crate::Kind::keys_text()
            ),
            ErrorKind::Json(why) | ErrorKind::WrongKind(why) | ErrorKind::Xml(why) => why.clone(),
        }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.file, self.line)?;
        if self.column > 0 {
            write!(f, ":{}", self.column)?;
        }
        write!(f, ": {}", self.kind.describe())
    }
}

impl std::error::Error for InputError {}
