//! `netlint graph`: the design drawn as it will behave. Switches grouped by
//! stack / MLAG domain and ranked by tier, inter-switch links with speed,
//! members and VLANs, the spanning tree's port roles (blocked ports dashed,
//! roots starred), hosts collapsed by profile, findings on the elements they
//! are about, and with `--fail` the state after a failure, cut networks in
//! red.
//!
//! Building the picture ([`build`]) is separate from writing it: a
//! [`Scene`] holds everything that is drawn, and `render::dot` and
//! `render::mermaid` turn the same scene into Graphviz DOT or a Mermaid
//! flowchart. `render::markdown` draws the part of a design its
//! spanning-tree and redundancy findings are about with a [`Scope`].

use crate::check::{check_source, CheckSettings};
use crate::config::{find_config, load_config};
use crate::render;
use netlint_analysis::failure::parse_unit;
use netlint_analysis::stp::{End, PortRef, PortRole, StpResult, TreeId, TreeKind, CIST};
use netlint_analysis::{all_pairs, Break, Fabric, Failures, NicEnd, NotCarried, Reach, Topology};
use netlint_model::{
    Design, Diagnostic, HostId, LagMode, LinkKind, MtuForm, NetworkId, NicIdx, Severity, StpMode,
    SwitchId, Tier, Uplink, SCHEMA, SYNTAX,
};
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::PathBuf;

// ---------------------------------------------------------------- command

#[derive(clap::Args, Debug)]
pub struct GraphArgs {
    /// The design file.
    pub design: PathBuf,
    /// Graphviz DOT (render with `dot -Tsvg`) or a Mermaid flowchart (for
    /// Markdown: GitHub and GitLab draw it).
    #[arg(long, value_enum, default_value = "dot")]
    pub format: GraphFormat,
    /// Draw the port roles of this MSTP instance (0 = the CIST). Default:
    /// every tree, each blocked VLAN named on its link.
    #[arg(long, value_name = "N", conflicts_with = "network")]
    pub instance: Option<u16>,
    /// Draw the port roles of the tree(s) that carry this network's VLAN.
    #[arg(long, value_name = "NAME")]
    pub network: Option<String>,
    /// `collapsed`: hosts with one profile and an identical build are one
    /// node; `all`: one node per host.
    #[arg(long, value_enum, default_value = "collapsed")]
    pub hosts: HostsMode,
    /// `fabric`: a host is one node; `host`: its cards, NICs, teams and
    /// virtual switches are drawn.
    #[arg(long, value_enum, default_value = "fabric")]
    pub detail: Detail,
    /// Draw the state after this failure (repeatable): a switch, a stack or
    /// MLAG domain, a link (`isl`, or one cable `isl#2`), a host NIC
    /// (`hv1:NIC1`) or a host's card (`hv1:card:slot4`).
    #[arg(long = "fail", value_name = "NAME")]
    pub fail: Vec<String>,
    /// Write the picture to FILE instead of standard output.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum GraphFormat {
    Dot,
    Mermaid,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum HostsMode {
    Collapsed,
    All,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Detail {
    Fabric,
    Host,
}

pub fn run(args: GraphArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<i32, String> {
    let Some(super::LoadedDesign { file, design, .. }) = super::load_design(&args.design, err)?
    else {
        return Ok(2);
    };
    let config = find_config(&args.design).and_then(|p| {
        let name = p.to_string_lossy().to_string();
        load_config(&p, name).ok()
    });
    let (diagnostics, _, _) = check_source(&file, config.as_ref(), &CheckSettings::default());
    let view = match (args.instance, &args.network) {
        (Some(n), _) => View::Instance(n),
        (None, Some(name)) => View::Network(design.network_by_name(name).ok_or_else(|| {
            let hint =
                netlint_model::did_you_mean(name, design.networks.iter().map(|n| n.name.as_str()));
            format!("the design has no network `{name}`{hint}")
        })?),
        (None, None) => View::AllTrees,
    };
    let mut failures = Failures::default();
    for name in &args.fail {
        parse_failure(&design, name, &mut failures)?;
    }
    let options = GraphOptions {
        view,
        hosts_all: args.hosts == HostsMode::All,
        detail_host: args.detail == Detail::Host,
        failures,
        failure_names: args.fail.clone(),
        scope: None,
    };
    let scene = build(&design, &diagnostics, &options)?;
    let text = match args.format {
        GraphFormat::Dot => render::dot::render(&scene),
        GraphFormat::Mermaid => render::mermaid::render(&scene),
    };
    match &args.output {
        Some(path) => std::fs::write(path, text)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?,
        None => out.write_all(text.as_bytes()).map_err(|e| e.to_string())?,
    }
    Ok(0)
}

/// Adds the failure `name` names to `into`: a switch, a stack or MLAG
/// domain (every member), a link (every cable), `link#K` (its K-th cable,
/// from 1), `host:NIC`, or `host:card:NAME` (every NIC on that card). The
/// names are those of `netlint simulate --fail`.
pub fn parse_failure(design: &Design, name: &str, into: &mut Failures) -> Result<(), String> {
    let topo = Topology::build(design);
    let unit = parse_unit(design, &topo, name).map_err(|e| format!("--fail {name}: {e}"))?;
    unit.add_to(design, &topo, into);
    Ok(())
}

// ---------------------------------------------------------------- options

/// Which spanning tree's roles to draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// Every tree: a link blocked for some VLANs says which, at which end.
    AllTrees,
    /// One MSTP instance (0 = the CIST; non-MSTP bridges show their CIST role).
    Instance(u16),
    /// The trees that decide one network's VLAN on each bridge.
    Network(NetworkId),
}

/// The part of a design to draw (everything when absent).
#[derive(Clone, Debug, Default)]
pub struct Scope {
    pub switches: BTreeSet<SwitchId>,
    pub hosts: BTreeSet<HostId>,
    /// Networks listed in the legend (besides those cut or with findings).
    pub networks: BTreeSet<NetworkId>,
}

#[derive(Clone, Debug)]
pub struct GraphOptions {
    pub view: View,
    /// One node per host instead of one per identical profile build.
    pub hosts_all: bool,
    /// Draw cards, NICs, teams and virtual switches.
    pub detail_host: bool,
    pub failures: Failures,
    /// The `--fail` arguments as given, for the title.
    pub failure_names: Vec<String>,
    pub scope: Option<Scope>,
}

impl Default for GraphOptions {
    fn default() -> Self {
        GraphOptions {
            view: View::AllTrees,
            hosts_all: false,
            detail_host: false,
            failures: Failures::default(),
            failure_names: Vec::new(),
            scope: None,
        }
    }
}

// ---------------------------------------------------------------- scene

/// A finding shown on an element: its rule id and severity.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Mark {
    pub rule: String,
    pub severity: Severity,
}

impl Mark {
    /// `✖ rule`, `⚠ rule`, `ℹ rule`.
    pub fn text(&self) -> String {
        let sym = match self.severity {
            Severity::Error => "✖",
            Severity::Warning => "⚠",
            Severity::Info => "ℹ",
        };
        format!("{sym} {}", self.rule)
    }
}

/// The worst severity among marks.
pub fn worst(marks: &[Mark]) -> Option<Severity> {
    marks.iter().map(|m| m.severity).max()
}

/// Everything that is drawn, in drawing order.
#[derive(Clone, Debug, Default)]
pub struct Scene {
    pub title: String,
    /// Lines under the title: which tree, which failures, design findings.
    pub notes: Vec<String>,
    /// Stacks and MLAG domains.
    pub groups: Vec<Group>,
    pub switches: Vec<SwitchNode>,
    pub hosts: Vec<HostNode>,
    pub edges: Vec<Edge>,
    pub networks: Vec<NetworkRow>,
    /// Findings about the design as a whole.
    pub marks: Vec<Mark>,
}

#[derive(Clone, Debug)]
pub struct Group {
    pub id: String,
    /// `stack stack-1`, `MLAG vlt-1`.
    pub label: String,
    /// Indices into [`Scene::switches`].
    pub members: Vec<usize>,
}

#[derive(Clone, Debug)]
pub struct SwitchNode {
    pub id: String,
    pub name: String,
    pub lines: Vec<String>,
    pub tier: Tier,
    /// `★ root`, `★ root of instance 1`.
    pub roots: Vec<String>,
    pub down: bool,
    pub marks: Vec<Mark>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct HostNode {
    pub id: String,
    /// The host names, or a run of them.
    pub title: String,
    pub count: usize,
    pub lines: Vec<String>,
    pub marks: Vec<Mark>,
    /// With `--detail host`: NICs, teams and virtual switches.
    pub parts: Vec<Part>,
    /// Cards, each holding NIC parts (indices into `parts`).
    pub cards: Vec<Card>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Card {
    pub id: String,
    pub label: String,
    pub parts: Vec<usize>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PartKind {
    Nic,
    Team,
    VSwitch,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Part {
    pub id: String,
    pub kind: PartKind,
    pub title: String,
    pub lines: Vec<String>,
    pub marks: Vec<Mark>,
    pub down: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EdgeKind {
    /// An inter-switch link (a spanning-tree port).
    Trunk,
    /// A stacking cable or MLAG peer-link, inside one bridge.
    Internal,
    /// A host NIC's cable to a switch.
    Host,
    /// A direct cable between two hosts.
    Peer,
    /// Inside a host: a team over its members, a vSwitch over its uplinks.
    Inner,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Block {
    None,
    /// Blocked for every VLAN it carries (drawn dashed).
    Full,
    /// Blocked for some VLANs only (in the all-trees view).
    Partial,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    From,
    To,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Edge {
    pub from: String,
    pub to: String,
    pub kind: EdgeKind,
    pub label: Vec<String>,
    /// Port role at each end (`Root`, `Desg`, `Altn`, ...).
    pub from_role: Option<String>,
    pub to_role: Option<String>,
    pub block: Block,
    pub blocked_at: Option<Side>,
    /// Carries none of the VLANs of the view (drawn grey).
    pub idle: bool,
    pub down: bool,
    /// Networks this link cuts (`csv (VLAN 20)`): drawn red.
    pub cuts: Vec<String>,
    pub marks: Vec<Mark>,
    /// Both ends are switches of one tier (Mermaid orders the ends by it).
    pub same_rank: bool,
}

impl Edge {
    fn new(from: String, to: String, kind: EdgeKind) -> Edge {
        Edge {
            from,
            to,
            kind,
            label: Vec::new(),
            from_role: None,
            to_role: None,
            block: Block::None,
            blocked_at: None,
            idle: false,
            down: false,
            cuts: Vec::new(),
            marks: Vec::new(),
            same_rank: false,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetStatus {
    Ok,
    /// Cut in the state drawn (and, with failures, already before them).
    Cut(String),
    /// Cut by the failures drawn.
    CutByFailure(String),
}

#[derive(Clone, Debug)]
pub struct NetworkRow {
    pub id: String,
    pub name: String,
    /// `csv · VLAN 20 · MTU 9000`.
    pub detail: String,
    pub status: NetStatus,
    /// In the VLANs of the view (`--network`, `--instance`).
    pub selected: bool,
    pub marks: Vec<Mark>,
}

// ---------------------------------------------------------------- building

/// Findings by element path.
struct Marks(BTreeMap<String, Vec<Mark>>);

impl Marks {
    fn new(design: &Design, diagnostics: &[Diagnostic]) -> Marks {
        let mut m: BTreeMap<String, Vec<Mark>> = BTreeMap::new();
        for d in diagnostics {
            if d.rule == SYNTAX || d.rule == SCHEMA {
                continue;
            }
            let mark = Mark {
                rule: d.rule.clone(),
                severity: d.severity,
            };
            for element in finding_elements(design, d) {
                let v = m.entry(element).or_default();
                merge(v, std::slice::from_ref(&mark));
            }
        }
        Marks(m)
    }

    /// Marks on exactly this element.
    fn on(&self, element: &str) -> Vec<Mark> {
        sorted(self.0.get(element).cloned().unwrap_or_default())
    }
    /// Marks on this element or anything inside it, minus the paths `except` selects.
    fn under(&self, element: &str, except: impl Fn(&str) -> bool) -> Vec<Mark> {
        let prefix = format!("{element}.");
        let mut out: Vec<Mark> = Vec::new();
        for (k, v) in &self.0 {
            if (k == element || k.starts_with(&prefix)) && !except(k) {
                merge(&mut out, v);
            }
        }
        sorted(out)
    }
}

/// The elements a finding is about. A finding caused by a profile's line is
/// reported once, on its first host, naming every host it holds for
/// ("hosts `hv1`, `hv2`, `hv3`: ...", "any of hosts `hv1` to `hv3`"): the
/// same element of each named host is about it too, so hosts built alike
/// are still drawn alike.
pub fn finding_elements(design: &Design, d: &Diagnostic) -> Vec<String> {
    let mut out = vec![d.element.clone()];
    let Some(rest) = d.element.strip_prefix("hosts.") else {
        return out;
    };
    let (me, inner) = rest.split_once('.').unwrap_or((rest, ""));
    let mut text = d.message.as_str();
    while let Some(at) = text.find("hosts `") {
        text = &text[at + "hosts ".len()..];
        let names = host_list(design, text);
        if names.iter().any(|n| n == me) {
            for name in names {
                if name != me {
                    out.push(if inner.is_empty() {
                        format!("hosts.{name}")
                    } else {
                        format!("hosts.{name}.{inner}")
                    });
                }
            }
            break;
        }
    }
    out
}

/// Host names at the start of `text`: `` `a`, `b` and `c` `` or a run `` `a` to `c` ``
/// (in the design's order).
fn host_list(design: &Design, mut text: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let mut run_from: Option<String> = None;
    while let Some(body) = text.strip_prefix('`') {
        let Some(end) = body.find('`') else {
            break;
        };
        let name = &body[..end];
        if design.host_by_name(name).is_none() {
            break;
        }
        match run_from.take() {
            Some(from) => {
                let (a, b) = (design.host_by_name(&from), design.host_by_name(name));
                if let (Some(a), Some(b)) = (a, b) {
                    for h in a.0 + 1..=b.0 {
                        names.push(design.host(HostId(h)).name.clone());
                    }
                }
            }
            None => names.push(name.to_string()),
        }
        text = &body[end + 1..];
        if let Some(t) = text
            .strip_prefix(", ")
            .or_else(|| text.strip_prefix(" and "))
        {
            text = t;
        } else if let Some(t) = text.strip_prefix(" to ") {
            run_from = names.last().cloned();
            text = t;
        } else {
            break;
        }
    }
    names
}

fn merge(into: &mut Vec<Mark>, from: &[Mark]) {
    for m in from {
        match into.iter_mut().find(|x| x.rule == m.rule) {
            Some(x) => x.severity = x.severity.max(m.severity),
            None => into.push(m.clone()),
        }
    }
}

/// Worst first, then by rule id.
fn sorted(mut v: Vec<Mark>) -> Vec<Mark> {
    v.sort_by(|a, b| b.severity.cmp(&a.severity).then(a.rule.cmp(&b.rule)));
    v
}

fn role_abbrev(r: PortRole) -> &'static str {
    // The abbreviations of `show spanning-tree` on Cisco and Dell switches.
    match r {
        PortRole::Root => "Root",
        PortRole::Designated => "Desg",
        PortRole::Alternate => "Altn",
        PortRole::Backup => "Back",
        PortRole::Master => "Mstr",
        PortRole::Disabled => "Dis",
    }
}

fn blocks(r: PortRole) -> bool {
    matches!(r, PortRole::Alternate | PortRole::Backup)
}

fn vlan_text(v: Option<u16>) -> String {
    match v {
        Some(v) => format!("VLAN {v}"),
        None => "untagged".to_string(),
    }
}

fn vlan_list(vs: &[Option<u16>]) -> String {
    let tagged: netlint_model::VlanSet = vs.iter().filter_map(|v| *v).collect();
    let mut parts = Vec::new();
    if vs.contains(&None) {
        parts.push("untagged".to_string());
    }
    if !tagged.is_empty() {
        parts.push(format!(
            "VLAN{} {tagged}",
            if tagged.len() == 1 { "" } else { "s" }
        ));
    }
    parts.join(", ")
}

/// `node1, node2, node3`; a long run as `hv01, hv02, … hv16`.
fn name_run(names: &[&str]) -> String {
    if names.len() <= 4 {
        names.join(", ")
    } else {
        format!("{}, {}, … {}", names[0], names[1], names[names.len() - 1])
    }
}

struct Ctx<'a> {
    design: &'a Design,
    topo: Topology,
    stp: StpResult,
    opts: &'a GraphOptions,
    marks: Marks,
    has_mstp: bool,
}

impl Ctx<'_> {
    /// Short name of a tree for root marks and block labels ("" when the
    /// design runs one tree).
    fn tree_short(&self, t: TreeId) -> String {
        let Some(tree) = self.stp.tree(t) else {
            return String::new();
        };
        match tree.kind {
            TreeKind::Cist => {
                if self.has_mstp {
                    "instance 0".to_string()
                } else if self.stp.trees().len() > 1 {
                    "VLAN 1 / CST".to_string()
                } else {
                    String::new()
                }
            }
            TreeKind::Msti { region, instance } => {
                if self.stp.regions().len() > 1 {
                    format!(
                        "instance {instance} ({})",
                        self.stp.regions()[region].name()
                    )
                } else {
                    format!("instance {instance}")
                }
            }
            TreeKind::PvstVlan(v) => format!("VLAN {v}"),
        }
    }

    /// The tree whose role a bridge's port shows in a single-tree view.
    fn end_tree(&self, bridge: usize) -> Option<TreeId> {
        match self.opts.view {
            View::AllTrees => {
                if self.stp.trees().len() == 1 {
                    self.stp.governing_tree(bridge, None)
                } else {
                    None
                }
            }
            View::Instance(0) => self.stp.governing_tree(bridge, None),
            View::Instance(n) => {
                let msti = self.stp.trees().iter().position(|t| {
                    matches!(t.kind, TreeKind::Msti { instance, .. } if instance == n)
                        && t.bridges.get(bridge).is_some_and(|b| b.is_some())
                });
                msti.or_else(|| self.stp.governing_tree(bridge, None))
            }
            View::Network(net) => self
                .stp
                .governing_tree(bridge, self.design.network(net).vlan_id()),
        }
    }

    fn role(&self, tree: TreeId, port: usize, end: End) -> Option<PortRole> {
        self.stp
            .tree(tree)
            .and_then(|t| t.port(PortRef::new(port, end)))
            .map(|p| p.role)
    }

    /// The VLANs the view is about.
    fn view_vlans(&self) -> Vec<Option<u16>> {
        let mut all: Vec<Option<u16>> = self.design.networks.iter().map(|n| n.vlan_id()).collect();
        all.sort();
        all.dedup();
        match self.opts.view {
            View::AllTrees => all,
            View::Network(net) => vec![self.design.network(net).vlan_id()],
            View::Instance(n) => {
                let mstp: Vec<&netlint_model::Switch> = self
                    .design
                    .switches
                    .iter()
                    .filter(|s| s.stp.mode.value == StpMode::Mstp)
                    .collect();
                all.into_iter()
                    .filter(|v| match v {
                        None => n == 0,
                        Some(v) if mstp.is_empty() => n == 0 && *v > 0,
                        Some(v) => mstp.iter().any(|s| s.stp.instance_of(*v) == n),
                    })
                    .collect()
            }
        }
    }

    fn port_name(&self, p: usize) -> String {
        let port = &self.topo.ports[p];
        let link = self.design.link(port.link);
        match port.cable {
            Some(c) => format!("{}#{}", link.name, c + 1),
            None => link.name.clone(),
        }
    }

    fn bridge_name(&self, b: usize) -> &str {
        &self.topo.bridges[b].name
    }

    /// The switch whose end of port `p` blocks `vlan`.
    fn blocking_end(&self, p: usize, vlan: Option<u16>) -> Option<String> {
        let port = &self.topo.ports[p];
        for (end, bridge) in [(End::A, port.a.0), (End::B, port.b.0)] {
            let Some(tree) = self.stp.governing_tree(bridge, vlan) else {
                continue;
            };
            if self.role(tree, p, end).is_some_and(blocks) {
                return Some(match end {
                    End::A => self.design.switch(port.a_switch).name.clone(),
                    End::B => bridge_display(self, port.b.0, &port.b_switches),
                });
            }
        }
        None
    }

    fn describe_break(&self, br: &Break, vlan: Option<u16>) -> String {
        let d = self.design;
        let nic = |h: HostId, n: NicIdx| format!("{}:{}", d.host(h).name, d.host(h).nic(n).name);
        match br {
            Break::NoAdapter { host } => {
                format!("{} has no working adapter for it", d.host(*host).name)
            }
            Break::NotCabled { host, nic: n } => format!("{} is not cabled", nic(*host, *n)),
            Break::HostSwitchLacksVlan {
                host,
                nic: n,
                switch,
            } => format!(
                "{} (cabled to {}) does not define {}",
                d.switch(*switch).name,
                nic(*host, *n),
                vlan_text(vlan)
            ),
            Break::PeerElsewhere { host, nic: n } => {
                format!("{} is cabled straight to another host", nic(*host, *n))
            }
            Break::NoPath { from, to } => format!(
                "no working path between {} and {}",
                self.bridge_name(from.0),
                self.bridge_name(to.0)
            ),
            Break::NotCarried { port, why } => match why {
                NotCarried::Down => format!("{} is down", self.port_name(*port)),
                NotCarried::NotAllowed => {
                    format!(
                        "{} does not allow {}",
                        self.port_name(*port),
                        vlan_text(vlan)
                    )
                }
                NotCarried::NotDefined(s) => format!(
                    "{} does not define {} (on {})",
                    d.switch(*s).name,
                    vlan_text(vlan),
                    self.port_name(*port)
                ),
                NotCarried::PeerLink { from, to, .. } => format!(
                    "{} ends on {} and {}, and no peer-link between them carries {}",
                    self.port_name(*port),
                    d.switch(*from).name,
                    d.switch(*to).name,
                    vlan_text(vlan)
                ),
            },
            Break::PeerLink { from, to, .. } => format!(
                "traffic between MLAG peers {} and {} crosses the peer-link, which does not carry {}",
                d.switch(*from).name,
                d.switch(*to).name,
                vlan_text(vlan)
            ),
            Break::Blocked { ports, .. } => {
                let names: Vec<String> = ports
                    .iter()
                    .map(|p| match self.blocking_end(*p, vlan) {
                        Some(at) => format!("{} at {at}", self.port_name(*p)),
                        None => self.port_name(*p),
                    })
                    .collect();
                if names.is_empty() {
                    "the spanning tree blocks it".to_string()
                } else {
                    format!("the spanning tree blocks {}", names.join(", "))
                }
            }
        }
    }
}

/// Builds the picture of `design` with its `diagnostics` (findings shown on
/// their elements) as `opts` asks.
pub fn build(
    design: &Design,
    diagnostics: &[Diagnostic],
    opts: &GraphOptions,
) -> Result<Scene, String> {
    let topo = Topology::build(design);
    let fabric = Fabric::new(design, &topo);
    let healthy = fabric.forwarding(design, &topo, &Failures::default());
    let failed =
        (!opts.failures.is_healthy()).then(|| fabric.forwarding(design, &topo, &opts.failures));
    let cur = failed.as_ref().unwrap_or(&healthy);
    let pairs_now: Vec<Reach> = all_pairs(design, &topo, cur);
    let pairs_before: Option<Vec<Reach>> =
        failed.as_ref().map(|_| all_pairs(design, &topo, &healthy));
    let ctx = Ctx {
        design,
        stp: cur.stp.clone(),
        opts,
        marks: Marks::new(design, diagnostics),
        has_mstp: design
            .switches
            .iter()
            .any(|s| s.stp.mode.value == StpMode::Mstp),
        topo,
    };
    if let View::Instance(n) = opts.view {
        if n > 0
            && !ctx
                .stp
                .trees()
                .iter()
                .any(|t| matches!(t.kind, TreeKind::Msti { instance, .. } if instance == n))
        {
            let mut have: Vec<u16> = vec![0];
            for t in ctx.stp.trees() {
                if let TreeKind::Msti { instance, .. } = t.kind {
                    have.push(instance);
                }
            }
            have.sort();
            have.dedup();
            let list: Vec<String> = have.iter().map(|i| i.to_string()).collect();
            return Err(format!(
                "the design has no MSTP instance {n} (instances: {})",
                list.join(", ")
            ));
        }
    }

    let mut scene = Scene {
        title: design.name.value.clone(),
        ..Scene::default()
    };
    let in_scope_switch = |s: SwitchId| {
        opts.scope
            .as_ref()
            .is_none_or(|sc| sc.switches.contains(&s))
    };
    let in_scope_host = |h: HostId| opts.scope.as_ref().is_none_or(|sc| sc.hosts.contains(&h));

    // Networks cut now, by whom.
    let mut cut_by_port: BTreeMap<usize, Vec<NetworkId>> = BTreeMap::new();
    for r in &pairs_now {
        let ports: Vec<usize> = match &r.broken {
            Some(Break::Blocked { ports, .. }) => ports.clone(),
            Some(Break::NotCarried {
                port,
                why: NotCarried::Down,
            }) => vec![*port],
            _ => continue,
        };
        for p in ports {
            let v = cut_by_port.entry(p).or_default();
            if !v.contains(&r.network) {
                v.push(r.network);
            }
        }
    }
    let net_label = |n: NetworkId| {
        let net = design.network(n);
        format!("{} ({})", net.name, vlan_text(net.vlan_id()))
    };

    // Notes: the view, the failures, design-wide findings.
    scene.notes.push(view_note(&ctx));
    if !opts.failures.is_healthy() {
        scene.notes.push(format!(
            "after the failure of {} (spanning tree reconverged)",
            opts.failure_names.join(", ")
        ));
    }
    scene.marks = ctx.marks.on("");
    scene.marks.extend(ctx.marks.on("design"));

    // Roots to star.
    let mut roots: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    let shown_trees: Vec<TreeId> = match opts.view {
        View::AllTrees => (0..ctx.stp.trees().len()).collect(),
        _ => {
            let mut v: Vec<TreeId> = (0..ctx.topo.bridges.len())
                .filter_map(|b| ctx.end_tree(b))
                .collect();
            v.sort();
            v.dedup();
            v
        }
    };
    for &t in &shown_trees {
        let tree = &ctx.stp.trees()[t];
        for r in &tree.roots {
            if r.bridges.len() < 2 {
                continue;
            }
            let short = ctx.tree_short(t);
            let entry = roots.entry(r.root).or_default();
            if !entry.contains(&short) {
                entry.push(short);
            }
        }
    }

    // Switches, grouped by bridge.
    let mut switch_node: BTreeMap<SwitchId, usize> = BTreeMap::new();
    for (bi, bridge) in ctx.topo.bridges.iter().enumerate() {
        let members: Vec<SwitchId> = bridge
            .members
            .iter()
            .copied()
            .filter(|s| in_scope_switch(*s))
            .collect();
        if members.is_empty() {
            continue;
        }
        let mut idx = Vec::new();
        for s in &members {
            let sw = design.switch(*s);
            let mut lines = Vec::new();
            if let Some(m) = &sw.model {
                lines.push(m.value.clone());
            }
            lines.push(stp_line(sw));
            if let Some(v) = &sw.vlans {
                lines.push(format!(
                    "VLAN{} {}",
                    if v.value.len() == 1 { "" } else { "s" },
                    v.value
                ));
            }
            if sw.mtu.value.form != MtuForm::Default {
                lines.push(sw.mtu.value.describe());
            }
            let root_text = roots.get(&bi).map(|names| {
                let named: Vec<&str> = names
                    .iter()
                    .filter(|n| !n.is_empty())
                    .map(|n| n.as_str())
                    .collect();
                if named.is_empty() {
                    "★ root".to_string()
                } else {
                    format!("★ root of {}", named.join(", "))
                }
            });
            // A bridge of several switches is root as a whole: star its first member.
            let roots_here = if Some(*s) == members.first().copied() {
                root_text.into_iter().collect()
            } else {
                Vec::new()
            };
            switch_node.insert(*s, scene.switches.len());
            idx.push(scene.switches.len());
            scene.switches.push(SwitchNode {
                id: format!("sw{}", s.0),
                name: sw.name.clone(),
                lines,
                tier: sw.tier.value,
                roots: roots_here,
                down: opts.failures.switches.contains(s),
                marks: ctx.marks.on(&sw.element()),
            });
        }
        if bridge.members.len() > 1 {
            let kind = match bridge.kind {
                netlint_analysis::BridgeKind::Stack => "stack",
                _ => "MLAG",
            };
            scene.groups.push(Group {
                id: format!("grp{bi}"),
                label: format!("{kind} {}", bridge.name),
                members: idx,
            });
        }
    }

    // Inter-switch links: one edge per spanning-tree port.
    let view_vlans = ctx.view_vlans();
    for (p, port) in ctx.topo.ports.iter().enumerate() {
        let link = design.link(port.link);
        let state = cur.ports[p];
        let b_switches: Vec<SwitchId> = port
            .b_switches
            .iter()
            .copied()
            .filter(|s| in_scope_switch(*s))
            .collect();
        if !in_scope_switch(port.a_switch) || b_switches.is_empty() {
            continue;
        }
        // Roles at each end in a single-tree view.
        let role_a = ctx.end_tree(port.a.0).and_then(|t| ctx.role(t, p, End::A));
        let role_b = ctx.end_tree(port.b.0).and_then(|t| ctx.role(t, p, End::B));
        let single_tree = opts.view != View::AllTrees || ctx.stp.trees().len() == 1;

        // Which of the view's VLANs the port carries and forwards.
        let mut carried = Vec::new();
        let mut blocked_vlans: Vec<Option<u16>> = Vec::new();
        for v in &view_vlans {
            if let Some(vv) = cur.vlan(*v) {
                if vv.not_carried[p].is_none() {
                    carried.push(*v);
                    if !vv.forwarding[p] {
                        blocked_vlans.push(*v);
                    }
                }
            }
        }
        let mut block = Block::None;
        let mut blocked_end: Option<End> = None;
        let mut block_lines = Vec::new();
        if state.up {
            if single_tree {
                let ends = [(End::A, role_a), (End::B, role_b)];
                if let Some((e, _)) = ends.iter().find(|(_, r)| r.is_some_and(blocks)) {
                    block = Block::Full;
                    blocked_end = Some(*e);
                }
            } else if !blocked_vlans.is_empty() {
                block = if blocked_vlans.len() == carried.len() {
                    Block::Full
                } else {
                    Block::Partial
                };
                // Which end blocks, in which tree, for which VLANs.
                let mut by_end_tree: BTreeMap<(End, TreeId), Vec<Option<u16>>> = BTreeMap::new();
                for v in &blocked_vlans {
                    for (e, b) in [(End::A, port.a.0), (End::B, port.b.0)] {
                        if let Some(t) = ctx.stp.governing_tree(b, *v) {
                            if ctx.role(t, p, e).is_some_and(blocks) {
                                by_end_tree.entry((e, t)).or_default().push(*v);
                            }
                        }
                    }
                }
                let forwarded: Vec<Option<u16>> = carried
                    .iter()
                    .filter(|v| !blocked_vlans.contains(v))
                    .copied()
                    .collect();
                if !forwarded.is_empty() {
                    block_lines.push(format!("forwards {}", vlan_list(&forwarded)));
                }
                for ((e, t), vs) in &by_end_tree {
                    blocked_end.get_or_insert(*e);
                    let at = match e {
                        End::A => design.switch(port.a_switch).name.clone(),
                        End::B => bridge_display(&ctx, port.b.0, &port.b_switches),
                    };
                    let tree = ctx.tree_short(*t);
                    let tree = if tree.is_empty() {
                        String::new()
                    } else {
                        format!(", {tree}")
                    };
                    block_lines.push(format!(
                        "blocks {} at {at} ({}{tree})",
                        vlan_list(vs),
                        role_abbrev(ctx.role(*t, p, *e).unwrap_or(PortRole::Alternate))
                    ));
                }
            } else if carried.is_empty() {
                // Carries none of the design's VLANs: the CIST roles still tell.
                let ca = ctx.role(CIST, p, End::A);
                let cb = ctx.role(CIST, p, End::B);
                if let Some((e, _)) = [(End::A, ca), (End::B, cb)]
                    .iter()
                    .find(|(_, r)| r.is_some_and(blocks))
                {
                    block = Block::Full;
                    blocked_end = Some(*e);
                }
            }
        }
        if single_tree && block == Block::Full {
            let (at, role) = match blocked_end {
                Some(End::A) => (design.switch(port.a_switch).name.clone(), role_a),
                _ => (bridge_display(&ctx, port.b.0, &port.b_switches), role_b),
            };
            block_lines.push(format!(
                "BLOCKED at {at} ({})",
                role.map(role_abbrev).unwrap_or("Altn")
            ));
        }

        let mut label = vec![ctx.port_name(p)];
        label.push(link_speed_text(link, port.members, port.cable.is_some()));
        label.push(match &link.vlans {
            Some(v) => format!(
                "VLAN{} {}",
                if v.value.len() == 1 { "" } else { "s" },
                v.value
            ),
            None => "all VLANs".to_string(),
        });
        if state.up && state.members < port.members {
            label.push(format!(
                "✕ {} of {} cables down",
                port.members - state.members,
                port.members
            ));
        }
        if !state.up {
            label.push("✕ DOWN".to_string());
        }
        label.extend(block_lines);
        let cuts: Vec<String> = cut_by_port
            .get(&p)
            .map(|v| v.iter().map(|n| net_label(*n)).collect())
            .unwrap_or_default();
        if !cuts.is_empty() {
            label.push(format!("cuts {}", cuts.join(", ")));
        }
        if state.up && carried.is_empty() && !view_vlans.is_empty() && opts.view != View::AllTrees {
            label.push(format!("carries no {}", vlan_list(&view_vlans)));
        }
        let marks = ctx.marks.on(&link.element());

        let a_node = &scene.switches[switch_node[&port.a_switch]];
        for (k, bs) in b_switches.iter().enumerate() {
            let b_node = &scene.switches[switch_node[bs]];
            // Higher tiers above: the upper end is the edge's tail.
            let swap = b_node.tier > a_node.tier;
            let (from, to) = if swap {
                (b_node.id.clone(), a_node.id.clone())
            } else {
                (a_node.id.clone(), b_node.id.clone())
            };
            let mut e = Edge::new(from, to, EdgeKind::Trunk);
            e.same_rank = a_node.tier == b_node.tier;
            e.label = if k == 0 {
                label.clone()
            } else {
                vec![format!("{} (same LAG)", ctx.port_name(p))]
            };
            let (ra, rb) = if single_tree && state.up {
                (role_a.map(role_abbrev), role_b.map(role_abbrev))
            } else {
                (None, None)
            };
            let (rf, rt) = if swap { (rb, ra) } else { (ra, rb) };
            e.from_role = rf.map(str::to_string);
            e.to_role = rt.map(str::to_string);
            e.block = block;
            e.blocked_at = blocked_end.map(|be| match (be, swap) {
                (End::A, false) | (End::B, true) => Side::From,
                _ => Side::To,
            });
            e.idle = state.up && carried.is_empty() && opts.view != View::AllTrees;
            e.down = !state.up;
            e.cuts = cuts.clone();
            e.marks = marks.clone();
            scene.edges.push(e);
        }
    }

    // Stacking cables and peer-links.
    for li in &ctx.topo.internal_links {
        let link = design.link(*li);
        for b in &link.b {
            let (a, b) = (link.a.value, b.value);
            if !in_scope_switch(a) || !in_scope_switch(b) {
                continue;
            }
            let mut e = Edge::new(
                scene.switches[switch_node[&a]].id.clone(),
                scene.switches[switch_node[&b]].id.clone(),
                EdgeKind::Internal,
            );
            e.same_rank = true;
            let lost = opts
                .failures
                .cables
                .range((*li, 0)..=(*li, u32::MAX))
                .count() as u32;
            e.down = opts.failures.switches.contains(&a)
                || opts.failures.switches.contains(&b)
                || lost >= link.members.value;
            let kind = match link.kind.value {
                LinkKind::Stack => "stack cable",
                LinkKind::PeerLink => "peer-link",
                LinkKind::Ethernet => "inside one bridge",
            };
            e.label = vec![
                link.name.clone(),
                format!(
                    "{kind} · {}",
                    link_speed_text(link, link.members.value, false)
                ),
            ];
            if e.down {
                e.label.push("✕ DOWN".to_string());
            }
            e.marks = ctx.marks.on(&link.element());
            scene.edges.push(e);
        }
    }

    // Hosts.
    let draws: Vec<(HostId, HostDraw)> = design
        .host_ids()
        .filter(|h| in_scope_host(*h))
        .map(|h| (h, host_draw(&ctx, h)))
        .collect();
    let mut groups: Vec<(Vec<HostId>, &HostDraw)> = Vec::new();
    for (h, draw) in &draws {
        let profile = design.host(*h).profile.as_ref().map(|p| &p.value);
        let joined = if opts.hosts_all || profile.is_none() {
            None
        } else {
            groups.iter_mut().find(|(hs, d)| {
                design.host(hs[0]).profile.as_ref().map(|p| &p.value) == profile && *d == draw
            })
        };
        match joined {
            Some((hs, _)) => hs.push(*h),
            None => groups.push((vec![*h], draw)),
        }
    }
    let mut host_node_of: BTreeMap<HostId, usize> = BTreeMap::new();
    for (gi, (hs, _)) in groups.iter().enumerate() {
        for h in hs {
            host_node_of.insert(*h, gi);
        }
    }
    for (gi, (hs, draw)) in groups.iter().enumerate() {
        let id = format!("hs{gi}");
        let names: Vec<&str> = hs.iter().map(|h| design.host(*h).name.as_str()).collect();
        let mut lines = draw.lines.clone();
        if hs.len() > 1 {
            lines.insert(0, format!("{} hosts", hs.len()));
        }
        let part_id = |k: usize| format!("{id}_p{k}");
        let parts: Vec<Part> = draw
            .parts
            .iter()
            .enumerate()
            .map(|(k, p)| Part {
                id: part_id(k),
                ..p.clone()
            })
            .collect();
        let cards: Vec<Card> = draw
            .cards
            .iter()
            .enumerate()
            .map(|(k, c)| Card {
                id: format!("{id}_c{k}"),
                ..c.clone()
            })
            .collect();
        for (from, to) in &draw.inner {
            let mut e = Edge::new(part_id(*from), part_id(*to), EdgeKind::Inner);
            e.down = parts[*from].down;
            scene.edges.push(e);
        }
        for c in &draw.cables {
            let host_end = match c.part {
                Some(k) => part_id(k),
                None => id.clone(),
            };
            let mut e = match c.target {
                Target::Switch(s) => {
                    let Some(&sn) = switch_node.get(&s) else {
                        continue;
                    };
                    Edge::new(scene.switches[sn].id.clone(), host_end, EdgeKind::Host)
                }
                Target::Peer(oh, on) => {
                    let Some(&g) = host_node_of.get(&oh) else {
                        continue;
                    };
                    let other = if opts.detail_host {
                        let k = groups[g].1.nic_part[on.0];
                        format!("hs{g}_p{k}")
                    } else {
                        format!("hs{g}")
                    };
                    Edge::new(host_end, other, EdgeKind::Peer)
                }
            };
            e.label = c.label.clone();
            e.down = c.down;
            scene.edges.push(e);
        }
        scene.hosts.push(HostNode {
            id,
            title: name_run(&names),
            count: hs.len(),
            lines,
            marks: draw.marks.clone(),
            parts,
            cards,
        });
    }

    // Networks.
    for (ni, net) in design.networks.iter().enumerate() {
        let nid = NetworkId(ni);
        let mut detail = vec![net.role.value.to_string(), vlan_text(net.vlan_id())];
        if net.mtu.value.payload != 1500 {
            detail.push(format!("MTU {}", net.mtu.value.payload));
        }
        let broken = |pairs: &[Reach]| -> (usize, usize, Option<String>) {
            let mine: Vec<&Reach> = pairs.iter().filter(|r| r.network == nid).collect();
            let cut: Vec<&&Reach> = mine.iter().filter(|r| r.broken.is_some()).collect();
            let why = cut.first().map(|r| {
                format!(
                    "{} ↔ {}: {}",
                    design.host(r.a).name,
                    design.host(r.b).name,
                    ctx.describe_break(r.broken.as_ref().unwrap(), net.vlan_id())
                )
            });
            (cut.len(), mine.len(), why)
        };
        let (now, total, why) = broken(&pairs_now);
        let status = match (&pairs_before, why) {
            (_, None) => NetStatus::Ok,
            (Some(before), Some(why)) if broken(before).0 < now => NetStatus::CutByFailure(
                format!("cut by the failure ({now} of {total} host pairs): {why}"),
            ),
            (_, Some(why)) => NetStatus::Cut(format!("cut ({now} of {total} host pairs): {why}")),
        };
        let selected = match opts.view {
            View::AllTrees => false,
            View::Network(n) => n == nid,
            View::Instance(_) => view_vlans.contains(&net.vlan_id()),
        };
        let marks = ctx.marks.on(&net.element());
        if let Some(sc) = &opts.scope {
            if status == NetStatus::Ok && marks.is_empty() && !sc.networks.contains(&nid) {
                continue;
            }
        }
        scene.networks.push(NetworkRow {
            id: format!("net{ni}"),
            name: net.name.clone(),
            detail: detail.join(" · "),
            status,
            selected,
            marks,
        });
    }
    Ok(scene)
}

/// What the title says about the tree drawn.
fn view_note(ctx: &Ctx) -> String {
    let stp = &ctx.stp;
    match ctx.opts.view {
        View::AllTrees => {
            let labels: Vec<String> = (0..stp.trees().len())
                .flat_map(|t| {
                    stp.trees()[t]
                        .roots
                        .iter()
                        .filter(|r| r.bridges.len() > 1)
                        .map(move |r| stp.tree_label(t, Some(r.root)))
                })
                .collect();
            if labels.is_empty() {
                "no spanning tree joins two switches".to_string()
            } else if labels.len() == 1 {
                format!("spanning tree: {}", labels[0])
            } else {
                format!("spanning trees: {}", labels.join("; "))
            }
        }
        View::Instance(n) => {
            let trees: Vec<TreeId> = (0..stp.trees().len())
                .filter(|t| match stp.trees()[*t].kind {
                    TreeKind::Msti { instance, .. } => instance == n,
                    TreeKind::Cist => n == 0,
                    TreeKind::PvstVlan(_) => false,
                })
                .collect();
            let parts: Vec<String> = trees
                .iter()
                .map(|t| {
                    let root = stp.trees()[*t].roots.first().map(|r| r.root);
                    match root.and_then(|r| stp.root_message(*t, r)) {
                        Some(why) => format!("{} ({why})", stp.tree_label(*t, None)),
                        None => stp.tree_label(*t, None),
                    }
                })
                .collect();
            format!("spanning tree: {}", parts.join("; "))
        }
        View::Network(net) => {
            let n = ctx.design.network(net);
            let mut trees: Vec<TreeId> = (0..ctx.topo.bridges.len())
                .filter_map(|b| stp.governing_tree(b, n.vlan_id()))
                .collect();
            trees.sort();
            trees.dedup();
            let labels: Vec<String> = trees.iter().map(|t| stp.tree_label(*t, None)).collect();
            format!(
                "network {} ({}): {}",
                n.name,
                vlan_text(n.vlan_id()),
                if labels.is_empty() {
                    "no spanning tree".to_string()
                } else {
                    labels.join("; ")
                }
            )
        }
    }
}

fn stp_line(sw: &netlint_model::Switch) -> String {
    let stp = &sw.stp;
    let mode = match stp.mode.value {
        StpMode::None => return "no STP".to_string(),
        StpMode::Stp => "STP",
        StpMode::Rstp => "RSTP",
        StpMode::Mstp => "MSTP",
        StpMode::Pvst => "PVST+",
        StpMode::RapidPvst => "rapid-PVST+",
    };
    let mut s = format!("{mode} priority {}", stp.bridge_priority());
    if stp.mode.value == StpMode::Mstp {
        if let Some(r) = &stp.region {
            s.push_str(&format!(" · region {}", r.value));
        }
        for (i, p) in &stp.instance_priority {
            s.push_str(&format!(" · inst {i}: {}", p.value));
        }
    }
    s
}

/// `2 x 10G LACP`, `10G`, `2 x 1G MC-LAG`.
fn link_speed_text(link: &netlint_model::Link, members: u32, one_cable: bool) -> String {
    let speed = link.speed.value;
    if one_cable || members == 1 && !link.is_multi_chassis() {
        return speed.to_string();
    }
    let kind = if link.is_multi_chassis() {
        " MC-LAG"
    } else {
        match link.lag.value {
            LagMode::Lacp => " LACP",
            LagMode::Static => " static LAG",
            LagMode::None => "",
        }
    };
    format!("{members} x {speed}{kind}")
}

/// A bridge end of a port by the switches it reaches (`m1+m2` for a
/// multi-chassis LAG).
fn bridge_display(ctx: &Ctx, bridge: usize, switches: &[SwitchId]) -> String {
    if switches.len() > 1 {
        ctx.bridge_name(bridge).to_string()
    } else {
        ctx.design.switch(switches[0]).name.clone()
    }
}

// ---------------------------------------------------------------- hosts

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Target {
    Switch(SwitchId),
    Peer(HostId, NicIdx),
}

#[derive(Clone, Debug, PartialEq)]
struct Cable {
    /// The NIC part (with `--detail host`), else the host node.
    part: Option<usize>,
    target: Target,
    label: Vec<String>,
    down: bool,
}

/// One host drawn without its name: hosts whose draws are equal (and who
/// share a profile) become one node.
#[derive(Clone, Debug, PartialEq)]
struct HostDraw {
    lines: Vec<String>,
    marks: Vec<Mark>,
    parts: Vec<Part>,
    cards: Vec<Card>,
    /// (uplink part, part over it): a member under its team, an uplink
    /// under its vSwitch.
    inner: Vec<(usize, usize)>,
    cables: Vec<Cable>,
    /// Part of each NIC (detail mode).
    nic_part: Vec<usize>,
}

fn host_draw(ctx: &Ctx, hid: HostId) -> HostDraw {
    let d = ctx.design;
    let h = d.host(hid);
    let detail = ctx.opts.detail_host;
    let failed = |n: usize| {
        ctx.opts.failures.nics.contains(&(hid, NicIdx(n)))
            || matches!(ctx.topo.nic_ends[hid.0][n], Some(NicEnd::Switch(s)) if ctx.opts.failures.switches.contains(&s))
    };
    let nets = |v: &[netlint_model::Sp<NetworkId>]| -> String {
        v.iter()
            .map(|n| d.network(n.value).name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let el = h.element();
    let mut draw = HostDraw {
        lines: Vec::new(),
        marks: Vec::new(),
        parts: Vec::new(),
        cards: Vec::new(),
        inner: Vec::new(),
        cables: Vec::new(),
        nic_part: Vec::new(),
    };
    if let Some(p) = &h.profile {
        draw.lines.push(format!("profile {}", p.value));
    }
    let nic_el = |n: &str| format!("{el}.nics.{n}");
    let team_el = |n: &str| format!("{el}.teams.{n}");
    let vs_el = |n: &str| format!("{el}.vswitches.{n}");

    if detail {
        // Cards in order of first NIC; a NIC part per NIC.
        for (ni, nic) in h.nics.iter().enumerate() {
            let mut lines = vec![nic.speed.value.to_string()];
            if nic.mtu.value.form != MtuForm::Default {
                lines.push(format!("MTU {}", nic.mtu.value.payload));
            }
            if nic.rdma.value.enabled() {
                lines.push(format!("RDMA {}", nic.rdma.value));
            }
            if !nic.networks.is_empty() {
                lines.push(format!("→ {}", nets(&nic.networks)));
            }
            if ctx.opts.failures.nics.contains(&(hid, NicIdx(ni))) {
                lines.push("✕ FAILED".to_string());
            } else if failed(ni) {
                lines.push("✕ link down".to_string());
            }
            draw.nic_part.push(draw.parts.len());
            draw.parts.push(Part {
                id: String::new(),
                kind: PartKind::Nic,
                title: nic.name.clone(),
                lines,
                marks: ctx.marks.under(&nic_el(&nic.name), |_| false),
                down: failed(ni),
            });
            let card = &nic.card.value;
            let label = format!("card {card}");
            match draw.cards.iter_mut().find(|c| c.label == label) {
                Some(c) => c.parts.push(draw.parts.len() - 1),
                None => draw.cards.push(Card {
                    id: String::new(),
                    label,
                    parts: vec![draw.parts.len() - 1],
                }),
            }
        }
        let mut team_part = Vec::new();
        for t in &h.teams {
            let mut lines = vec![format!(
                "{} {} · {}",
                t.kind.value, t.mode.value, t.load_balancing.value
            )];
            if let Some(s) = &t.standby {
                lines.push(format!("standby {}", h.nic(s.value).name));
            }
            if !t.networks.is_empty() {
                lines.push(format!("→ {}", nets(&t.networks)));
            }
            team_part.push(draw.parts.len());
            let members: Vec<usize> = t.members.iter().map(|m| draw.nic_part[m.value.0]).collect();
            let me = draw.parts.len();
            let down = members.iter().all(|m| draw.parts[*m].down);
            draw.parts.push(Part {
                id: String::new(),
                kind: PartKind::Team,
                title: format!("team {}", t.name),
                lines,
                marks: ctx.marks.under(&team_el(&t.name), |_| false),
                down,
            });
            for m in members {
                draw.inner.push((m, me));
            }
        }
        for vs in &h.vswitches {
            let kind = vswitch_kind(h, vs);
            let mut lines = Vec::new();
            if !vs.networks.is_empty() {
                lines.push(format!("VMs: {}", nets(&vs.networks)));
            }
            for v in &vs.vnics {
                lines.push(format!(
                    "vNIC {} → {}",
                    v.name,
                    d.network(v.network.value).name
                ));
            }
            let me = draw.parts.len();
            let ups: Vec<usize> = vs
                .uplinks
                .iter()
                .map(|u| match u.value {
                    Uplink::Nic(n) => draw.nic_part[n.0],
                    Uplink::Team(t) => team_part[t.0],
                })
                .collect();
            let down = !ups.is_empty() && ups.iter().all(|u| draw.parts[*u].down);
            draw.parts.push(Part {
                id: String::new(),
                kind: PartKind::VSwitch,
                title: format!("{kind} {}", vs.name),
                lines,
                marks: ctx.marks.under(&vs_el(&vs.name), |_| false),
                down,
            });
            for u in ups {
                draw.inner.push((u, me));
            }
        }
        let parts_prefixes = [
            format!("{el}.nics."),
            format!("{el}.teams."),
            format!("{el}.vswitches."),
        ];
        draw.marks = ctx
            .marks
            .under(&el, |k| parts_prefixes.iter().any(|p| k.starts_with(p)));
        for (ni, end) in ctx.topo.nic_ends[hid.0].iter().enumerate() {
            let target = match end {
                Some(NicEnd::Switch(s)) => Target::Switch(*s),
                Some(NicEnd::Peer(oh, on)) if (hid.0, ni) < (oh.0, on.0) => Target::Peer(*oh, *on),
                _ => continue,
            };
            let nic = &h.nics[ni];
            let mut label = Vec::new();
            if let Some(p) = &nic.port {
                label.push(p.value.clone());
            }
            draw.cables.push(Cable {
                part: Some(draw.nic_part[ni]),
                target,
                label,
                down: failed(ni),
            });
        }
    } else {
        for nic in &h.nics {
            if !nic.networks.is_empty() {
                draw.lines
                    .push(format!("{} → {}", nic.name, nets(&nic.networks)));
            }
        }
        for t in &h.teams {
            let members: Vec<String> = t
                .members
                .iter()
                .map(|m| {
                    let n = &h.nic(m.value).name;
                    if t.standby.as_ref().is_some_and(|s| s.value == m.value) {
                        format!("{n} (standby)")
                    } else {
                        n.clone()
                    }
                })
                .collect();
            let mut s = format!("team {} {}: {}", t.name, t.mode.value, members.join(" + "));
            if !t.networks.is_empty() {
                s.push_str(&format!(" → {}", nets(&t.networks)));
            }
            draw.lines.push(s);
        }
        for vs in &h.vswitches {
            let ups: Vec<&str> = vs.uplinks.iter().map(|u| h.uplink_name(u.value)).collect();
            let mut s = format!("{} {} on {}", vswitch_kind(h, vs), vs.name, ups.join(" + "));
            let mut carried = Vec::new();
            if !vs.networks.is_empty() {
                carried.push(nets(&vs.networks));
            }
            if !vs.vnics.is_empty() {
                let v: Vec<&str> = vs
                    .vnics
                    .iter()
                    .map(|v| d.network(v.network.value).name.as_str())
                    .collect();
                carried.push(format!("vNICs {}", v.join(", ")));
            }
            if !carried.is_empty() {
                s.push_str(&format!(" → {}", carried.join(" · ")));
            }
            draw.lines.push(s);
        }
        for (ni, nic) in h.nics.iter().enumerate() {
            if ctx.opts.failures.nics.contains(&(hid, NicIdx(ni))) {
                draw.lines.push(format!("✕ {} failed", nic.name));
            }
        }
        draw.marks = ctx.marks.under(&el, |_| false);
        // One edge per switch, listing the NICs cabled to it.
        let mut per_target: Vec<(Target, Vec<usize>)> = Vec::new();
        for (ni, end) in ctx.topo.nic_ends[hid.0].iter().enumerate() {
            let target = match end {
                Some(NicEnd::Switch(s)) => Target::Switch(*s),
                Some(NicEnd::Peer(oh, on)) if (hid.0, ni) < (oh.0, on.0) => Target::Peer(*oh, *on),
                _ => continue,
            };
            match per_target.iter_mut().find(|(t, _)| *t == target) {
                Some((_, v)) => v.push(ni),
                None => per_target.push((target, vec![ni])),
            }
        }
        for (target, nics) in per_target {
            let label = nics
                .iter()
                .map(|ni| {
                    let n = &h.nics[*ni];
                    let mut s = format!("{} {}", n.name, n.speed.value);
                    if failed(*ni) {
                        s.push_str(" ✕");
                    }
                    s
                })
                .collect();
            draw.cables.push(Cable {
                part: None,
                target,
                label,
                down: nics.iter().all(|n| failed(*n)),
            });
        }
    }
    draw
}

fn vswitch_kind(h: &netlint_model::Host, vs: &netlint_model::VSwitch) -> &'static str {
    if h.os.value.is_vsphere() {
        match vs.kind.as_ref().map(|k| k.value) {
            Some(netlint_model::VSwitchKind::Vds) => "vDS",
            _ => "vSS",
        }
    } else if vs.is_set() {
        "SET"
    } else {
        "vSwitch"
    }
}

// ---------------------------------------------------------------- scopes

/// The part of a design that findings are about: the switches, links and
/// hosts they name (hosts and switches of a network finding), plus, when
/// `neighbours`, the switches one link away, so a blocked link is drawn
/// with the loop that blocks it.
pub fn scope_of(design: &Design, elements: &[&str], neighbours: bool) -> Scope {
    let topo = Topology::build(design);
    let mut sc = Scope::default();
    let add_host = |sc: &mut Scope, h: HostId| {
        sc.hosts.insert(h);
        for end in topo.nic_ends[h.0].iter().flatten() {
            if let NicEnd::Switch(s) = end {
                sc.switches.insert(*s);
            }
        }
    };
    for el in elements {
        let mut parts = el.splitn(3, '.');
        let (kind, name) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
        match kind {
            "switches" => {
                if let Some(s) = design.switch_by_name(name) {
                    sc.switches.insert(s);
                }
            }
            "links" => {
                if let Some(l) = design.link_by_name(name) {
                    let link = design.link(l);
                    sc.switches.insert(link.a.value);
                    sc.switches.extend(link.b.iter().map(|b| b.value));
                }
            }
            "hosts" => {
                if let Some(h) = design.host_by_name(name) {
                    add_host(&mut sc, h);
                }
            }
            "networks" => {
                if let Some(n) = design.network_by_name(name) {
                    sc.networks.insert(n);
                    for h in topo.hosts_on(n) {
                        add_host(&mut sc, h);
                    }
                }
            }
            _ => {}
        }
    }
    // Whole bridges: both peers of an MLAG pair, every stack member.
    let mut bridges: BTreeSet<usize> = sc.switches.iter().map(|s| topo.bridge_of[s.0].0).collect();
    if neighbours {
        let seed = bridges.clone();
        for p in &topo.ports {
            if seed.contains(&p.a.0) || seed.contains(&p.b.0) {
                bridges.insert(p.a.0);
                bridges.insert(p.b.0);
            }
        }
    }
    for b in bridges {
        sc.switches.extend(topo.bridges[b].members.iter().copied());
    }
    sc
}
