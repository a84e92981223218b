//! Hosts as built: Hyper-V / Azure Local collections read into a generic
//! value tree ([`value`]), mapped to typed facts with provenance.

pub mod clixml;
pub mod fltext;
pub mod sddc;
pub mod value;

pub use value::{Collection, Node, Value};
pub mod emit;
pub mod facts;
pub mod fold;
pub mod hyperv;
pub mod join;
pub mod json;
pub mod vsphere;
pub mod vsphere_write;
pub mod zip;

use crate::error::InputError;

/// Reads one host collection file (as written by `netlint collect hyperv`)
/// to facts: cmdlets the host reported failing are named with their error.
pub fn read_hyperv(file: &str, bytes: &[u8]) -> Result<facts::HostFacts, InputError> {
    let c = json::read_collection(file, bytes)?;
    let mut f = hyperv::facts(&c);
    for (cmd, err, line) in json::errors(file, bytes) {
        if let Some(m) = f
            .missing
            .iter_mut()
            .find(|(c, _)| c.eq_ignore_ascii_case(&cmd))
        {
            m.1 = Some(err);
        } else if c.cmdlet(&cmd).is_none() && cmd != "Get-NetIntent" {
            f.remarks.push(facts::Remark {
                line,
                text: format!("{cmd} failed on the host: {err}"),
            });
        }
    }
    Ok(f)
}

/// Reads one file of PowerShell `Format-List` text of the host cmdlets
/// ([`fltext`]) to facts; what the reader noted (lists cut short, lines
/// it could not read) is among the host's remarks.
pub fn read_hyperv_text(file: &str, text: &str) -> Result<facts::HostFacts, InputError> {
    Ok(fltext_facts(fltext::read(file, text)?))
}

/// The facts of Format-List text read (a file or a folder).
pub fn fltext_facts(r: fltext::FlRead) -> facts::HostFacts {
    let mut f = hyperv::facts(&r.collection);
    f.remarks.extend(r.notes);
    f
}
