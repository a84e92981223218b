//! A Catalyst stack's one running-config read as its members: one switch
//! per member (`HOSTNAME-N`), each with the ports numbered on it, all
//! sharing `stack = "HOSTNAME"` ([`crate::model::SwitchConfig::stack_members`]
//! tells a stack). The stacking cables are in no running-config: none is
//! written (netlint takes a stack whose stacking cables the design does
//! not list as joined whatever fails, docs/failure-analysis.md).

use std::borrow::Cow;

use crate::model::{stack_member_of, Origin, Sourced, StackMember, SwitchConfig};
use crate::names::IfKind;
use crate::Document;

/// Why a member's name is what it is.
pub(crate) const MEMBER_NAME: &str =
    "a member of a Catalyst stack: the stack's hostname and the member number";

/// The documents with each stack config replaced by its members' configs;
/// borrowed as they are when no config is a stack.
pub(crate) fn expand(docs: &[Document]) -> Cow<'_, [Document]> {
    let any = docs
        .iter()
        .any(|d| matches!(d, Document::Config(c) if !c.stack_members().is_empty()));
    if !any {
        return Cow::Borrowed(docs);
    }
    let mut out = Vec::new();
    for doc in docs {
        match doc {
            Document::Config(c) if !c.stack_members().is_empty() => {
                let members = c.stack_members();
                for m in &members {
                    out.push(Document::Config(Box::new(member(c, *m, &members))));
                }
            }
            _ => out.push(doc.clone()),
        }
    }
    Cow::Owned(out)
}

/// The stack's name: its hostname, else its file's stem.
pub(crate) fn stack_name(cfg: &SwitchConfig) -> String {
    match &cfg.hostname {
        Some(h) => h.value.clone(),
        None => super::file_stem(&cfg.file),
    }
}

/// Member `m`'s config: the stack's switch-wide settings, the ports
/// numbered on it, the port-channels with a member port on it (a
/// port-channel across members is one LAG of the stack), and the
/// stack-wide interfaces (SVIs, the management port, a port-channel with
/// no member port) on the first member.
fn member(cfg: &SwitchConfig, m: u32, members: &[u32]) -> SwitchConfig {
    let name = stack_name(cfg);
    let mut out = cfg.clone();
    let first_if = cfg
        .interfaces
        .iter()
        .find(|i| stack_member_of(&i.name) == Some(m))
        .map(|i| i.line);
    let line = cfg
        .provisioned
        .get(&m)
        .and_then(|p| p.line())
        .or(first_if)
        .unwrap_or(1);
    let mut from = vec![line];
    if let Some(l) = cfg.hostname.as_ref().and_then(|h| h.line()) {
        from.push(l);
    }
    out.hostname = Some(Sourced {
        value: format!("{name}-{m}"),
        origin: Origin::Inferred {
            why: MEMBER_NAME,
            from: crate::model::Lines::of(from),
        },
    });
    let on_member = |id: u32| {
        cfg.interfaces.iter().any(|i| {
            stack_member_of(&i.name) == Some(m) && i.channel_group.is_some_and(|g| g.value.id == id)
        })
    };
    let anywhere = |id: u32| {
        cfg.interfaces.iter().any(|i| {
            stack_member_of(&i.name).is_some() && i.channel_group.is_some_and(|g| g.value.id == id)
        })
    };
    out.interfaces.retain(|i| match stack_member_of(&i.name) {
        Some(n) => n == m,
        None => match i.name.kind() {
            IfKind::PortChannel(id) if anywhere(id) => on_member(id),
            _ => m == members[0],
        },
    });
    out.stack = Some(StackMember {
        name,
        member: m,
        line,
        members: members.to_vec(),
    });
    out
}
