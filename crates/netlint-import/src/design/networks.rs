//! A network per VLAN the switches define or carry (issue 31 item 1):
//! without one, `check` runs no VLAN rule on imported configs and
//! `topology` computes only the VLAN 1 tree. Each is named by its
//! configured name (`vlan 711` / `name Storage_711`, else the description
//! of its SVI, else `vlan711`) and written `role = "unknown"`: a switch
//! config never says what a VLAN carries, so the network is checked only
//! for what the switches decide, until the user (or a host collection
//! imported with the configs) sets its role.
//!
//! A VLAN the hosts' part of the design already gives a network is left
//! to that network: the hosts know its role.

use std::collections::{BTreeMap, BTreeSet};

use super::toml::{self as t, Prov, Writer};
use super::{Note, Switch};
use crate::model::{PortMode, SwitchConfig};
use crate::names::IfKind;

/// An allowed list this long is "every VLAN" (`1-4094`, `2-4093`), not a
/// list of networks: it names none.
const EVERY_VLAN: usize = 1000;

/// The names vendors give VLAN 1 by default (NX-OS, IOS and EOS
/// `default`; IOS `DEFAULT_VLAN` on some platforms): no configured name.
const DEFAULT_VLAN_NAMES: &[&str] = &["default", "DEFAULT_VLAN"];

/// One VLAN's network, as the switches state it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct VlanNetwork {
    pub name: String,
    pub vlan: u16,
    /// The lines that define or carry the VLAN, one per switch.
    pub from: Prov,
    /// The name a switch configures for the VLAN (`name` may differ: a
    /// name two VLANs share takes the VLAN after it), with its line.
    pub named: Option<(String, Prov)>,
    /// Other names other switches give the VLAN: (name, its line).
    pub also: Vec<(String, Prov)>,
}

/// What one switch says of a VLAN: the line that defines (or carries) it,
/// and its name with the name's line.
struct Said {
    from: Prov,
    name: Option<(String, Prov)>,
}

/// The VLANs `cfg` defines, or, when it defines none (an IOS switch in
/// VTP server or client mode keeps them out of its running-config), the
/// VLANs its ports carry: access and native VLANs and explicit allowed
/// lists.
fn said_by(cfg: &SwitchConfig) -> BTreeMap<u16, Said> {
    let file = cfg.file.as_str();
    let mut out: BTreeMap<u16, Said> = BTreeMap::new();
    for (id, v) in &cfg.vlans {
        let name = v
            .name
            .as_ref()
            .filter(|n| !n.value.trim().is_empty())
            .map(|n| (n.value.trim().to_string(), t::sourced(file, n)));
        out.insert(
            *id,
            Said {
                from: Prov::line(file, v.line),
                name,
            },
        );
    }
    let defines = !out.is_empty();
    for i in &cfg.interfaces {
        if let IfKind::Vlan(id) = i.name.kind() {
            // An SVI names its VLAN by its description when `name` does not.
            let Some(d) = i
                .description
                .as_ref()
                .filter(|d| !d.value.trim().is_empty())
            else {
                continue;
            };
            if let Some(s) = out.get_mut(&id) {
                if s.name.is_none() {
                    s.name = Some((d.value.trim().to_string(), t::sourced(file, d)));
                }
            }
            continue;
        }
        if defines || i.mode.value == PortMode::Routed {
            continue;
        }
        let mut carried: Vec<(u16, u32)> = Vec::new();
        if let Some(a) = &i.access_vlan {
            carried.extend(a.line().map(|l| (a.value, l)));
        }
        if i.mode.value == PortMode::Trunk {
            if let Some(n) = &i.native_vlan {
                carried.extend(n.line().map(|l| (n.value, l)));
            }
            if let Some(a) = &i.allowed_vlans {
                if a.value.len() < EVERY_VLAN {
                    if let Some(l) = a.line() {
                        carried.extend(a.value.iter().map(|v| (v, l)));
                    }
                }
            }
        }
        for (id, line) in carried {
            out.entry(id).or_insert_with(|| Said {
                from: Prov::line(file, line),
                name: None,
            });
        }
    }
    // VLAN 1 is every switch's default VLAN: a network only when a switch
    // names it or a port is put in it by a line.
    if let Some(s) = out.get(&1) {
        let named = s
            .name
            .as_ref()
            .is_some_and(|(n, _)| !DEFAULT_VLAN_NAMES.iter().any(|d| d.eq_ignore_ascii_case(n)));
        let put = cfg.interfaces.iter().any(|i| {
            i.access_vlan
                .as_ref()
                .is_some_and(|a| a.value == 1 && a.line().is_some())
        });
        if !named && !put {
            out.remove(&1);
        }
    }
    out
}

/// The networks of the switches' VLANs, leaving out the VLANs in `taken`
/// and naming none as a name in `names` (the hosts' networks).
pub(crate) fn collect(
    switches: &[Switch<'_>],
    taken: &BTreeSet<u16>,
    names: &BTreeSet<String>,
) -> Vec<VlanNetwork> {
    let mut by_vlan: BTreeMap<u16, Vec<Said>> = BTreeMap::new();
    for sw in switches {
        for (id, s) in said_by(sw.cfg) {
            if !taken.contains(&id) {
                by_vlan.entry(id).or_default().push(s);
            }
        }
    }
    let mut nets: Vec<VlanNetwork> = by_vlan
        .into_iter()
        .map(|(vlan, said)| {
            // The name most switches give it; on a tie the first switch's.
            let mut count: Vec<(String, usize, Prov)> = Vec::new();
            for (n, p) in said.iter().filter_map(|s| s.name.clone()) {
                match count.iter_mut().find(|(c, _, _)| *c == n) {
                    Some(c) => c.1 += 1,
                    None => count.push((n, 1, p)),
                }
            }
            let best = count
                .iter()
                .enumerate()
                .max_by_key(|(i, (_, k, _))| (*k, std::cmp::Reverse(*i)))
                .map(|(i, _)| i);
            let (name, named) = match best {
                Some(i) => {
                    let (n, _, p) = count.remove(i);
                    (n.clone(), Some((n, p)))
                }
                None => (format!("vlan{vlan}"), None),
            };
            let also = count.into_iter().map(|(n, _, p)| (n, p)).collect();
            VlanNetwork {
                name,
                vlan,
                from: Prov::join(said.into_iter().map(|s| s.from), ", "),
                named,
                also,
            }
        })
        .collect();
    // One name per network: a name two VLANs share (or a host network
    // has) takes its VLAN after it.
    let mut uses: BTreeMap<String, usize> = BTreeMap::new();
    for n in &nets {
        *uses.entry(n.name.to_ascii_lowercase()).or_default() += 1;
    }
    let mut seen: BTreeSet<String> = names.iter().map(|n| n.to_ascii_lowercase()).collect();
    for n in &mut nets {
        let lower = n.name.to_ascii_lowercase();
        if uses[&lower] > 1 || seen.contains(&lower) {
            n.name = format!("{}-{}", n.name, n.vlan);
        }
        while !seen.insert(n.name.to_ascii_lowercase()) {
            n.name.push('_');
        }
    }
    nets
}

/// `[networks.NAME]` of each network, role unknown.
pub(crate) fn write(out: &mut Writer, nets: &[VlanNetwork]) {
    for n in nets {
        out.blank();
        let header = format!("networks.{}", t::key(&n.name));
        match &n.named {
            Some((_, p)) => out.table(&header, p),
            None => out.table(&header, &n.from),
        }
        let said = match &n.named {
            Some((configured, p)) => format!("VLAN {} is named {configured} ({p})", n.vlan),
            None => format!("VLAN {} has no name in any config", n.vlan),
        };
        out.comment(&said);
        for (other, p) in &n.also {
            out.comment(&format!("also named {other} ({p})"));
        }
        out.value(
            "role",
            &t::string("unknown"),
            &Prov::note("a switch config does not say what a VLAN carries: set the role"),
        );
        out.value("vlan", &n.vlan.to_string(), &n.from);
    }
}

/// The note on standard error that the written networks wait for roles.
pub(crate) fn note(nets: &[VlanNetwork]) -> Option<Note> {
    (!nets.is_empty()).then(|| Note::RolesUnknown {
        networks: nets.iter().map(|n| n.name.clone()).collect(),
    })
}
