//! What a vendor cannot build: a design feature whose configs would not
//! implement the design (two independent switches for a stack, plain
//! port-channels for an MLAG pair) is refused, one diagnostic per cause at
//! the design line that states it, and nothing is written
//! (docs/generate.md, "What a vendor cannot build").

use crate::plan::switch_pfc;
use crate::Vendor;
use netlint_model::{Design, Diagnostic, Element, LinkKind, Severity, Span, SwitchId};

/// The rule id of a refusal.
pub const RULE: &str = "generate-unsupported";

/// The other way out of a stack on a platform without stacking.
const STACKING_PLATFORM: &str =
    "or generate for a platform that stacks (`--vendor ios`: a Catalyst stack, one config)";

/// The design features `vendor` cannot build, one diagnostic each, in the
/// design's order: each stack (but on Catalyst, which stacks), each
/// multi-chassis LAG domain (Catalyst), each switch's `dcb` table
/// (Catalyst). Empty: the design can be generated.
pub fn refusals(d: &Design, vendor: Vendor) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if vendor != Vendor::Ios {
        for stack in stacks(d) {
            out.push(stack_refusal(d, vendor, &stack));
        }
    }
    if vendor == Vendor::Ios {
        out.extend(mlag_refusals(d));
        out.extend(dcb_refusals(d));
    }
    if vendor == Vendor::Os10 {
        out.extend(vlti_refusals(d));
    }
    if vendor == Vendor::Eos {
        out.extend(eos_mst_cost_refusals(d));
    }
    out.sort_by_key(|x| x.primary.as_ref().map(|l| l.span.start));
    out
}

/// A refusal about `subject`: an error of [`RULE`].
fn refusal(subject: Element, message: String) -> Diagnostic {
    Diagnostic::new(RULE, Severity::Error, subject, message)
}

/// A stack of the design: its members and the lines that state it.
pub(crate) struct Stack {
    /// The `stack` key's name, when a member states one.
    pub(crate) name: Option<String>,
    /// In the design's order: member N of a Catalyst stack is the N-th.
    pub(crate) members: Vec<SwitchId>,
    /// Each member's `stack` value and each stacking link's `kind`, in file
    /// order.
    lines: Vec<(Span, String)>,
}

impl Stack {
    /// The hostname of the stack's one config: its `stack` name, else (a
    /// stack told by its stacking links alone) its first member's name.
    pub(crate) fn hostname(&self, d: &Design) -> String {
        self.name
            .clone()
            .unwrap_or_else(|| d.switch(self.members[0]).name.clone())
    }
}

/// The stacks ([`Design::stacks`]), with the lines that state each.
pub(crate) fn stacks(d: &Design) -> Vec<Stack> {
    d.stacks()
        .into_iter()
        .map(|members| {
            let mut name = None;
            let mut lines = Vec::new();
            for m in &members {
                let s = d.switch(*m);
                if let Some(n) = &s.stack {
                    name.get_or_insert_with(|| n.value.clone());
                    lines.push((n.span, format!("{} is in stack `{}`", s.name, n.value)));
                }
            }
            for l in d
                .links
                .iter()
                .filter(|l| l.kind.value == LinkKind::Stack && members.contains(&l.a.value))
            {
                lines.push((l.kind.span, format!("link {} is a stacking cable", l.name)));
            }
            lines.sort_by_key(|(sp, _): &(Span, String)| sp.start);
            Stack {
                name,
                members,
                lines,
            }
        })
        .collect()
}

fn names(d: &Design, ids: &[SwitchId]) -> String {
    ids.iter()
        .map(|i| format!("`{}`", d.switch(*i).name))
        .collect::<Vec<_>>()
        .join(", ")
}

fn stack_refusal(d: &Design, v: Vendor, st: &Stack) -> Diagnostic {
    let what = match &st.name {
        Some(n) => format!("stack `{n}` ({})", names(d, &st.members)),
        None => format!("the stack of {}", names(d, &st.members)),
    };
    let (message, help) = match v {
        Vendor::NxOs => (
            format!("Cisco NX-OS has no switch stacking: {what} would be written as independent switches"),
            format!("model the pair as a vPC domain (`mlag = \"NAME\"` on both switches and a `kind = \"peer-link\"` link between them); {STACKING_PLATFORM}"),
        ),
        Vendor::Eos => (
            format!("Arista EOS has no switch stacking: {what} would be written as independent switches"),
            format!("model the pair as an MLAG domain (`mlag = \"NAME\"` on both switches and a `kind = \"peer-link\"` link between them); {STACKING_PLATFORM}"),
        ),
        Vendor::Os10 => (
            format!("Dell OS10 has no switch stacking: {what} would be written as independent switches"),
            format!("model the pair as a VLT domain (`mlag = \"NAME\"` on both switches and a `kind = \"peer-link\"` link between them); {STACKING_PLATFORM}"),
        ),
        Vendor::Ios => unreachable!("a Catalyst stack is generated, not refused"),
    };
    let mut lines = st.lines.iter();
    let (span, label) = lines.next().cloned().unwrap_or_default();
    let mut diag = refusal(Element::Design, message)
        .with_subjects(st.members.iter().map(|i| d.switch(*i).element()))
        .at(span, label)
        .with_help(help);
    for (span, label) in lines {
        diag = diag.with_related(*span, label.clone());
    }
    diag
}

/// Catalyst has no multi-chassis LAG domain: one refusal per `mlag` name.
fn mlag_refusals(d: &Design) -> Vec<Diagnostic> {
    let mut seen: Vec<&str> = Vec::new();
    let mut out = Vec::new();
    for s in &d.switches {
        let Some(m) = &s.mlag else { continue };
        if seen.contains(&m.value.as_str()) {
            continue;
        }
        seen.push(&m.value);
        let peers: Vec<&netlint_model::Switch> = d
            .switches
            .iter()
            .filter(|t| t.mlag.as_ref().is_some_and(|x| x.value == m.value))
            .collect();
        let list = peers
            .iter()
            .map(|p| format!("`{}`", p.name))
            .collect::<Vec<_>>()
            .join(", ");
        let mut diag = refusal(
                        Element::Design,
            format!(
                "Catalyst has no multi-chassis LAG domain: `mlag = \"{}\"` ({list}) would be written as independent switches with plain port-channels",
                m.value
            ),
        )
        .with_subjects(peers.iter().map(|p| p.element()))
        .at(m.span, format!("{} is in MLAG domain `{}`", s.name, m.value))
        .with_help(
            "StackWise Virtual makes a Catalyst pair one switch: model it as a stack (`stack = \"NAME\"` on both switches: one config for both), or generate for a vendor with MLAG (nxos, eos, os10)",
        );
        for p in peers.iter().skip(1) {
            if let Some(pm) = &p.mlag {
                diag = diag.with_related(
                    pm.span,
                    format!("{} is in MLAG domain `{}`", p.name, m.value),
                );
            }
        }
        out.push(diag);
    }
    out
}

/// A peer link that keeps VLANs of its switches off it, on OS10: the VLT
/// interconnect is no trunk with an allowed list, it carries every VLAN of
/// the peers (Dell SmartFabric OS10 User Guide 10.5, "VLT interconnect":
/// the VLTi ports are physical, `no switchport`, and switch every VLAN
/// between the peers). One refusal per such link, at its `vlans`.
fn vlti_refusals(d: &Design) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for l in d
        .links
        .iter()
        .filter(|l| l.kind.value == LinkKind::PeerLink)
    {
        let Some(allowed) = &l.vlans else { continue };
        let mut off: Vec<u16> = Vec::new();
        for s in l.ends() {
            for n in &d.networks {
                let Some(v) = n.vlan_id() else { continue };
                if d.switch(s).defines_vlan(Some(v))
                    && !allowed.value.contains(v)
                    && !off.contains(&v)
                {
                    off.push(v);
                }
            }
        }
        if off.is_empty() {
            continue;
        }
        off.sort();
        let list = off
            .iter()
            .map(u16::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        out.push(
            refusal(
                                l.element(),
                format!(
                    "the Dell OS10 VLT interconnect carries every VLAN of its peers: peer link {} keeps VLAN(s) {list} off it, which OS10 cannot build",
                    l.name
                ),
            )
            .at(allowed.span, format!("{} allows only these VLANs", l.name))
            .with_help(
                "drop `vlans` from the peer link (the VLTi carries every VLAN; `mlag-peer-link-vlan` then has nothing to say about it), or generate for nxos or eos, whose peer-link trunk takes an allowed list",
            ),
        );
    }
    out
}

/// A link's port cost at a switch that runs MST, on EOS: under MST the cost
/// is set per instance, and netlint found no EOS command for that in the
/// documents at hand; a config without it would make other trees than the
/// design's. Not generated yet: one refusal per such link, at its
/// `stp_cost`.
fn eos_mst_cost_refusals(d: &Design) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for l in &d.links {
        let Some(cost) = &l.stp_cost else { continue };
        let mst: Vec<&str> = l
            .ends()
            .map(|s| d.switch(s))
            .filter(|s| s.stp.mode.value == netlint_model::StpMode::Mstp)
            .map(|s| s.name.as_str())
            .collect();
        if mst.is_empty() {
            continue;
        }
        out.push(
            refusal(
                                l.element(),
                format!(
                    "a port cost under MST on Arista EOS (link {}, at {}) is not generated yet: MST sets a port's cost per instance, and netlint has no source for EOS's command, so the configs would make other trees than the design's",
                    l.name,
                    mst.join(", ")
                ),
            )
            .at(cost.span, format!("{}'s port cost", l.name))
            .with_help(
                "set the port cost on both ends by hand after generating without `stp_cost` (then check the trees with `netlint diff`), or generate for nxos, os10 or ios, which write it per instance",
            ),
        );
    }
    out
}

/// PFC / ETS on Catalyst: not generated yet, one refusal per `dcb` table.
fn dcb_refusals(d: &Design) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for s in &d.switches {
        let Some(dcb) = &s.dcb else { continue };
        let pfc = !switch_pfc(s).is_empty();
        let ets = dcb.ets.is_some();
        if !pfc && !ets {
            continue;
        }
        let what = match (pfc, ets) {
            (true, true) => "PFC and ETS",
            (true, false) => "PFC",
            _ => "ETS",
        };
        out.push(
            refusal(
                                s.element(),
                format!(
                    "{what} on Catalyst (`dcb` of `{}`) is not generated yet: netlint writes no Catalyst QoS policy that its importer reads back",
                    s.name
                ),
            )
            .at(dcb.span, format!("{what} of {}", s.name))
            .with_help(
                "configure the switch's PFC / ETS by hand (the Catalyst QoS configuration guide of its platform), or generate for a vendor netlint writes them for (nxos, eos, os10)",
            ),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn design(text: &str) -> Design {
        let file = netlint_model::SourceFile::new("d.toml", text.to_string());
        netlint_model::load(&file).design.unwrap()
    }

    const HEAD: &str = "[design]\nname = \"d\"\n[networks.m]\nrole = \"management\"\nvlan = 10\n";

    /// A stack told by its `stack` keys alone, and one told by its
    /// stacking link alone, are one refusal each, at their first line.
    #[test]
    fn a_stack_is_one_refusal_at_its_first_line() {
        let keys = format!("{HEAD}[switches.a]\nstack = \"s\"\n[switches.b]\nstack = \"s\"\n");
        let d = design(&keys);
        let r = refusals(&d, Vendor::Eos);
        assert_eq!(r.len(), 1, "{r:#?}");
        let at = r[0].primary.as_ref().unwrap().span.start;
        assert_eq!(&keys[at..at + 3], "\"s\"");
        assert_eq!(r[0].related.len(), 1);
        let link = format!(
            "{HEAD}[switches.a]\n[switches.b]\n[[links]]\na = \"a\"\nb = \"b\"\nkind = \"stack\"\n"
        );
        let d = design(&link);
        let r = refusals(&d, Vendor::NxOs);
        assert_eq!(r.len(), 1, "{r:#?}");
        assert!(r[0]
            .message
            .starts_with("Cisco NX-OS has no switch stacking: the stack of `a`, `b`"));
        let at = r[0].primary.as_ref().unwrap().span.start;
        assert_eq!(&link[at..at + 7], "\"stack\"");
    }

    /// Catalyst: the MLAG domain once (not per peer), PFC per `dcb`
    /// table; an empty `pfc` without ETS asks for nothing.
    #[test]
    fn catalyst_refuses_mlag_once_and_pfc_per_switch() {
        let text = format!(
            "{HEAD}[switches.a]\nmlag = \"m\"\ndcb = {{ pfc = [3] }}\n[switches.b]\nmlag = \"m\"\ndcb = {{ pfc = [] }}\n"
        );
        let d = design(&text);
        let r = refusals(&d, Vendor::Ios);
        assert_eq!(r.len(), 2, "{r:#?}");
        assert!(r[0]
            .message
            .starts_with("Catalyst has no multi-chassis LAG domain"));
        assert!(r[1].message.starts_with("PFC on Catalyst (`dcb` of `a`)"));
        for v in [Vendor::NxOs, Vendor::Eos, Vendor::Os10] {
            assert!(refusals(&d, v).is_empty(), "{v:?}");
        }
    }

    /// A peer link that keeps one of its peers' VLANs off it cannot be
    /// built on OS10 (the VLTi carries every VLAN): refused at its
    /// `vlans`; one that keeps off only VLANs no network uses, or states
    /// none, is built; NX-OS builds either.
    #[test]
    fn a_pruned_peer_link_is_refused_on_os10_only() {
        let pair = |vlans: &str| {
            format!(
                "{HEAD}[networks.s]\nrole = \"storage\"\nprotocol = \"smb\"\nvlan = 20\n[switches.a]\nmlag = \"m\"\n[switches.b]\nmlag = \"m\"\n[[links]]\na = \"a\"\nb = \"b\"\nkind = \"peer-link\"\nmembers = 2\n{vlans}"
            )
        };
        let pruned = pair("vlans = [10]\n");
        let d = design(&pruned);
        let r = refusals(&d, Vendor::Os10);
        assert_eq!(r.len(), 1, "{r:#?}");
        assert!(
            r[0].message.contains("keeps VLAN(s) 20 off it"),
            "{}",
            r[0].message
        );
        let at = r[0].primary.as_ref().unwrap().span.start;
        assert_eq!(&pruned[at..at + 4], "[10]");
        assert!(refusals(&d, Vendor::NxOs).is_empty());
        assert!(refusals(&design(&pair("vlans = [10, 20]\n")), Vendor::Os10).is_empty());
        assert!(refusals(&design(&pair("")), Vendor::Os10).is_empty());
    }

    /// Catalyst stacks: a stack is no refusal on ios (one config), and
    /// still one on the others.
    #[test]
    fn catalyst_builds_a_stack() {
        let text = format!("{HEAD}[switches.a]\nstack = \"s\"\n[switches.b]\nstack = \"s\"\n");
        let d = design(&text);
        assert!(refusals(&d, Vendor::Ios).is_empty());
        for v in [Vendor::NxOs, Vendor::Eos, Vendor::Os10] {
            assert_eq!(refusals(&d, v).len(), 1, "{v:?}");
        }
        let out = crate::generate(&d, Vendor::Ios).unwrap();
        let names: Vec<&str> = out.files.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["s.cfg", "cabling.csv"]);
        assert!(out.files[0].1.contains("\nhostname s\n"));
    }
}
