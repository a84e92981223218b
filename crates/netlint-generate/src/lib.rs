//! netlint-generate: a design's switch running-configs (Cisco NX-OS, Arista
//! EOS, Dell OS10, Cisco IOS-XE; a module each, `plan` and `stp` shared) and its cabling
//! CSV, written so that `netlint import` reads back the values the design
//! states (issue 36).
//!
//! Only what the design states is written: hostname, VLANs and their
//! names, spanning tree, the MLAG / vPC domain and its peer-link,
//! inter-switch port-channels, host-facing ports, MTU and PFC. What it
//! does not state (management addresses, AAA, NTP, routing, the vPC peer
//! keepalive; PFC and ETS on IOS-XE) is left out and listed in each
//! file's header.
//! Ports a design does not name are numbered here, and the header says
//! which: a port-channel needs member ports.
//!
//! A Catalyst stack is one config for its members (`<stack>.cfg`: member
//! N's ports numbered `<type>N/0/<port>`). What a vendor cannot build (a
//! stack on NX-OS, EOS, OS10; on Catalyst an MLAG domain and PFC / ETS) is
//! refused: [`generate`]
//! returns one diagnostic per cause, at the design line that states it,
//! and writes nothing ([`refusals`]).
//!
//! ```
//! let text = "[design]\nname = \"d\"\n[networks.m]\nrole = \"management\"\nvlan = 10\n[switches.tor]\n";
//! let file = netlint_model::SourceFile::new("d.toml", text.to_string());
//! let design = netlint_model::load(&file).design.unwrap();
//! let out = netlint_generate::generate(&design, netlint_generate::Vendor::NxOs).unwrap();
//! assert_eq!(out.files[0].0, "tor.cfg");
//! assert!(out.files[0].1.contains("vlan 10\n  name m\n"));
//! ```

mod eos;
mod ios;
mod nxos;
mod os10;
mod plan;
mod refuse;
mod stp;

pub use refuse::{refusals, RULE as REFUSAL_RULE};

use netlint_model::ifname::port_key;
use netlint_model::{Design, Diagnostic, End, SwitchId};
use plan::{cabling, host_ports, link, nic_port, port_table, Cable, Mode, Port, SwitchOut, L2};

/// The vendors this slice writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Vendor {
    NxOs,
    Eos,
    Os10,
    Ios,
}

impl Vendor {
    pub const ALL: [Vendor; 4] = [Vendor::NxOs, Vendor::Eos, Vendor::Os10, Vendor::Ios];
    /// The key `--vendor` takes.
    pub fn key(self) -> &'static str {
        match self {
            Vendor::NxOs => "nxos",
            Vendor::Eos => "eos",
            Vendor::Os10 => "os10",
            Vendor::Ios => "ios",
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Vendor::NxOs => "Cisco NX-OS",
            Vendor::Eos => "Arista EOS",
            Vendor::Os10 => "Dell OS10",
            Vendor::Ios => "Cisco IOS-XE (Catalyst)",
        }
    }
    pub fn from_key(key: &str) -> Option<Vendor> {
        Vendor::ALL.into_iter().find(|v| v.key() == key)
    }
    /// Port `n` of the numbering on stack member `member` (1 outside a
    /// stack); IOS names a port by its speed.
    fn ethernet(self, member: u32, n: u32, speed: Option<u64>) -> String {
        match self {
            Vendor::NxOs => format!("Ethernet1/{n}"),
            Vendor::Eos => format!("Ethernet{n}"),
            Vendor::Os10 => format!("ethernet1/1/{n}"),
            Vendor::Ios => {
                let kind = match speed {
                    Some(m) if m >= 100_000 => "HundredGigE",
                    Some(m) if m >= 40_000 => "FortyGigabitEthernet",
                    Some(m) if m >= 25_000 => "TwentyFiveGigE",
                    Some(m) if m >= 10_000 => "TenGigabitEthernet",
                    _ => "GigabitEthernet",
                };
                format!("{kind}{member}/0/{n}")
            }
        }
    }
    fn port_channel(self, n: usize) -> String {
        match self {
            Vendor::NxOs => format!("port-channel{n}"),
            Vendor::Eos => format!("Port-Channel{n}"),
            Vendor::Os10 => format!("port-channel{n}"),
            Vendor::Ios => format!("Port-channel{n}"),
        }
    }
    /// The indentation of a block's lines, as the vendor writes them.
    fn indent(self) -> &'static str {
        match self {
            Vendor::NxOs | Vendor::Eos => "  ",
            Vendor::Os10 | Vendor::Ios => " ",
        }
    }
}

/// The generated files, in order: one `<switch>.cfg` per managed switch
/// (one `<stack>.cfg` per Catalyst stack, at its first member's place),
/// then `cabling.csv`; and what was not generated, design-wide.
#[derive(Clone, Debug, Default)]
pub struct Generated {
    pub files: Vec<(String, String)>,
    /// Facts of the design this vendor's configs do not carry (each also
    /// said in the header of the file concerned).
    pub not_generated: Vec<String>,
}

/// What every file leaves out because a design never states it.
const NEVER_STATED: &[&str] = &[
    "management interface and address, default route",
    "users, AAA, SSH and SNMP",
    "NTP, DNS, logging",
    "routing (SVIs, routed addresses, routing protocols)",
];

/// Generates the configs and the cabling of `d` for `vendor`; or, when the
/// vendor cannot build part of the design, why not ([`refusals`]: one
/// error per cause, nothing generated).
pub fn generate(d: &Design, vendor: Vendor) -> Result<Generated, Vec<Diagnostic>> {
    let refused = refusals(d, vendor);
    if !refused.is_empty() {
        return Err(refused);
    }
    let mut outs: Vec<SwitchOut> = d.switches.iter().map(|_| SwitchOut::new()).collect();
    // A Catalyst stack is one config: member N (the N-th switch of the
    // stack in the design) numbers its ports `<type>N/0/<port>`.
    let stacks = if vendor == Vendor::Ios {
        refuse::stacks(d)
    } else {
        Vec::new()
    };
    for st in &stacks {
        for (k, m) in st.members.iter().enumerate() {
            outs[m.0].member = k as u32 + 1;
        }
    }
    let mut cables: Vec<Cable> = Vec::new();
    let mut not_generated: Vec<String> = Vec::new();
    // Names the design states are reserved before any port is numbered.
    for (i, s) in d.switches.iter().enumerate() {
        for p in &s.ports {
            outs[i].reserve(&p.name);
        }
    }
    for h in &d.hosts {
        for n in &h.nics {
            if let Some((s, p)) = nic_port(d, n) {
                outs[s.0].reserve(&p);
            }
        }
    }
    for l in &d.links {
        for (end, name) in [(End::A, &l.ends.port_a), (End::B, &l.ends.port_b)] {
            if let Some(name) = name {
                let on: Vec<SwitchId> = match end {
                    End::A => l.a_ends().map(|s| s.value).collect(),
                    End::B => l.b.iter().map(|s| s.value).collect(),
                };
                for s in on {
                    outs[s.0].reserve(&name.value);
                }
            }
        }
    }
    for l in &d.links {
        link(d, vendor, l, &mut outs, &mut cables);
    }
    host_ports(d, vendor, &mut outs, &mut cables);
    // Ports configured one by one that no NIC or link used.
    for (i, s) in d.switches.iter().enumerate() {
        if !s.is_managed() {
            continue;
        }
        for p in &s.ports {
            if outs[i]
                .ports
                .iter()
                .any(|q| port_key(&q.name) == port_key(&p.name))
            {
                continue;
            }
            let l2 = port_table(d, s, p, L2::default());
            outs[i].ports.push(Port {
                name: p.name.clone(),
                description: None,
                mode: Mode::L2(l2),
                channel: None,
                mc: None,
                speed: None,
                peer: false,
            });
        }
    }
    let mut files = Vec::new();
    let stack_of = |i: usize| {
        stacks
            .iter()
            .position(|st| st.members.contains(&SwitchId(i)))
    };
    for (i, s) in d.switches.iter().enumerate() {
        if !s.is_managed() {
            continue;
        }
        if let Some(k) = stack_of(i) {
            let st = &stacks[k];
            // The stack's one file, written at its first member.
            if st.members[0] != SwitchId(i) {
                continue;
            }
            let name = st.hostname(d);
            let text = ios::stack_config(d, st, &name, &mut outs);
            for m in &st.members {
                for n in &outs[m.0].notes {
                    not_generated.push(format!("{}: {n}", d.switch(*m).name));
                }
            }
            files.push((format!("{name}.cfg"), text));
            continue;
        }
        let text = switch_config(d, vendor, SwitchId(i), &mut outs[i]);
        for n in &outs[i].notes {
            not_generated.push(format!("{}: {n}", s.name));
        }
        files.push((format!("{}.cfg", s.name), text));
    }
    // A stack member's cables are the stack's: its ports are named on the
    // stack's one config, whose hostname is the stack's.
    for st in &stacks {
        let host = st.hostname(d);
        for c in &mut cables {
            for dev in [&mut c.device, &mut c.peer_device] {
                if st.members.iter().any(|m| d.switch(*m).name == *dev) {
                    *dev = host.clone();
                }
            }
        }
    }
    files.push(("cabling.csv".to_string(), cabling(d, &cables)));
    Ok(Generated {
        files,
        not_generated,
    })
}

fn switch_config(d: &Design, v: Vendor, id: SwitchId, out: &mut SwitchOut) -> String {
    let s = d.switch(id);
    let body = match v {
        Vendor::NxOs => nxos::body(d, id, out),
        Vendor::Eos => eos::body(d, id, out),
        Vendor::Os10 => os10::body(d, id, out),
        Vendor::Ios => ios::body(d, id, out),
    };
    with_header(d, v, &s.name, out, body)
}

/// A config's header (what is not generated, the ports numbered here) and
/// its body: the text of `DIR/<name>.cfg`.
pub(crate) fn with_header(
    d: &Design,
    v: Vendor,
    name: &str,
    out: &SwitchOut,
    body: Vec<String>,
) -> String {
    // Header.
    let mut text = String::new();
    let c = |t: &mut String, l: &str| {
        t.push_str("! ");
        t.push_str(l);
        t.push('\n');
    };
    if v == Vendor::Eos {
        text.push_str(&format!("! device: {name} (netlint generate)\n"));
    }
    c(
        &mut text,
        &format!(
            "{} running-config of switch {} of design \"{}\", written by netlint generate.",
            v.name(),
            name,
            d.name.value
        ),
    );
    c(&mut text, "Not generated: the design does not state them:");
    for n in NEVER_STATED {
        c(&mut text, &format!("  - {n}"));
    }
    if !out.notes.is_empty() {
        c(&mut text, "Not generated for this switch:");
        for n in &out.notes {
            c(&mut text, &format!("  - {n}"));
        }
    }
    if !out.numbered.is_empty() {
        c(
            &mut text,
            &format!(
                "Ports the design does not name, numbered here (cable them as cabling.csv says): {}",
                out.numbered.join(", ")
            ),
        );
    }
    text.push_str("!\n");
    for l in body {
        text.push_str(&l);
        text.push('\n');
    }
    text
}

/// `spanning-tree cost N` on a port-channel or a lone port whose link
/// states a port cost for every tree, and under MST `spanning-tree mst K
/// cost N` per instance (NX-OS and IOS); a port-channel's members take
/// their channel's. Cisco Nexus 9000 Layer 2 Switching Configuration Guide
/// (port cost: `spanning-tree cost {value | auto}`; MST: `spanning-tree
/// mst instance-id cost`); Arista EOS User Manual, Spanning Tree Protocol
/// (`spanning-tree cost`); Cisco IOS `spanning-tree cost` and
/// `spanning-tree mst cost` (interface). EOS's per-instance cost is not
/// written (`eos_cost_note`).
fn stp_cost_line(p: &plan::Port, l2: &plan::L2, indent: &str) -> Vec<String> {
    if p.channel.is_some() {
        return Vec::new();
    }
    let mut out: Vec<String> = l2
        .stp_cost
        .map(|c| format!("{indent}spanning-tree cost {c}"))
        .into_iter()
        .collect();
    out.extend(
        l2.mst_cost
            .iter()
            .map(|(k, c)| format!("{indent}spanning-tree mst {k} cost {c}")),
    );
    out
}
