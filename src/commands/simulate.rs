//! `netlint simulate DESIGN [--fail NAME ...]`: what a failure takes away.
//!
//! With `--fail`, the state after those failures together (N-1, N-2, ...):
//! the networks and groups lost and for which hosts, why each of the role
//! table's requirements survives or not, spanning-tree changes per
//! instance, links down or degraded, and paths that got slower. Without
//! it, a table of every single failure unit and its consequences. The human
//! and JSON outputs are two renderings of one [`SimulateReport`].

use crate::cli::ListFormat;
use netlint_analysis::failure::{
    parse_unit, requirements, units, Analysis, Loss, PairPaths, Requirement, Simulation, Unit,
    UnitOptions,
};
use netlint_analysis::{Fabric, Failures, Forwarding, Topology};
use netlint_model::{Design, HostId, NetworkId, Role};
use serde::Serialize;
use std::fmt::Write as _;
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct SimulateArgs {
    /// The design file.
    pub design: PathBuf,
    /// Fail this, together with every other `--fail`: a switch, a stack or
    /// MLAG domain, a link (every cable), `link#K` (its K-th cable),
    /// `host:NIC` (a NIC port or its cable), `host:card:NAME`. Without
    /// `--fail`: a table of every single failure.
    #[arg(long = "fail", value_name = "NAME")]
    pub fail: Vec<String>,
    /// A stack fails as a whole (a reload, a bad upgrade), not member by member.
    #[arg(long)]
    pub stack_as_unit: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "human")]
    pub format: ListFormat,
}

/// The report of one run.
#[derive(Serialize, Debug)]
pub struct SimulateReport {
    pub design: String,
    pub file: String,
    /// `--fail` given: the one scenario.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scenario: Option<ScenarioOut>,
    /// No `--fail`: every single failure unit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub units: Option<Vec<UnitRow>>,
    pub stack_as_unit: bool,
}

#[derive(Serialize, Debug)]
pub struct FailingOut {
    /// As on the command line (`tor-a`, `isl#2`, `hv1:card:slot4`).
    pub name: String,
    /// In words: "switch `tor-a`".
    pub unit: String,
}

#[derive(Serialize, Debug)]
pub struct ScenarioOut {
    pub failing: Vec<FailingOut>,
    /// Networks and groups some hosts lose.
    pub lost: Vec<LossOut>,
    /// Each of the role table's requirements: kept or lost, and through
    /// which networks.
    pub standing: Vec<StandingOut>,
    pub spanning_tree: Vec<TreeOut>,
    pub links: Vec<LinkOut>,
    pub slower: Vec<SlowOut>,
    /// Networks cut in the healthy state that the failure reconnects (a
    /// blocked link takes over).
    pub restored: Vec<RestoredOut>,
}

#[derive(Serialize, Debug)]
pub struct RestoredOut {
    pub network: String,
    pub pairs: Vec<[String; 2]>,
}

#[derive(Serialize, Debug)]
pub struct LossOut {
    /// "network `vm-prod`", "every cluster network (`mgmt`, `csv`)".
    pub requirement: String,
    /// Short: the network's name, "storage (smb)", "cluster group",
    /// "live migration".
    pub label: String,
    /// What the role table says: error / warning, or info for a network
    /// that need not survive on its own.
    pub severity: &'static str,
    pub required: bool,
    /// The hosts whose own attachments broke.
    pub hosts: Vec<String>,
    /// When the network splits rather than some hosts being cut off: the
    /// groups of hosts that still reach each other.
    pub split: Vec<Vec<String>>,
    /// Host pairs that reached each other and no longer do.
    pub pairs: usize,
    /// One sentence per group of hosts with the same reason.
    pub reasons: Vec<ReasonOut>,
}

#[derive(Serialize, Debug)]
pub struct ReasonOut {
    pub hosts: Vec<String>,
    /// "hosts `hv01` to `hv04` lose network `csv`: its only adapter ...".
    pub text: String,
}

#[derive(Serialize, Debug)]
pub struct StandingOut {
    pub requirement: String,
    pub label: String,
    pub severity: &'static str,
    pub kept: bool,
    /// Networks of the requirement that still connect every pair.
    pub through: Vec<String>,
    /// Networks of the requirement some pairs lost.
    pub lost_networks: Vec<String>,
}

#[derive(Serialize, Debug)]
pub struct TreeOut {
    pub tree: String,
    pub changes: Vec<String>,
}

#[derive(Serialize, Debug)]
pub struct LinkOut {
    /// The link, `name#K` for one cable of a `lag = "none"` bundle.
    pub link: String,
    /// down | degraded
    pub state: &'static str,
    pub cables_left: u32,
    pub cables: u32,
    /// Aggregate speed left and before, e.g. "10G", "20G".
    pub capacity_left: String,
    pub capacity: String,
}

#[derive(Serialize, Debug)]
pub struct SlowOut {
    pub network: String,
    pub pairs: Vec<[String; 2]>,
    /// Narrowest aggregate link speed on the path, before and after.
    pub before: String,
    pub after: String,
    /// The link that is now the bottleneck.
    pub via: Option<String>,
}

#[derive(Serialize, Debug)]
pub struct UnitRow {
    pub name: String,
    pub unit: String,
    /// The worst severity of what is lost (none: nothing lost).
    pub severity: Option<&'static str>,
    pub lost: Vec<LossOut>,
    pub links: Vec<LinkOut>,
    /// Host pairs whose path got slower (per network).
    pub slower_pairs: usize,
}

pub fn run(args: SimulateArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<i32, String> {
    let Some(super::LoadedDesign { shown, design, .. }) = super::load_design(&args.design, err)?
    else {
        return Ok(2);
    };
    let report = build(&design, &shown, &args.fail, args.stack_as_unit)?;
    let text = match args.format {
        ListFormat::Human => human(&report),
        ListFormat::Json => {
            let mut s = serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?;
            s.push('\n');
            s
        }
    };
    out.write_all(text.as_bytes()).map_err(|e| e.to_string())?;
    Ok(0)
}

/// Builds the report: `fail` empty = the table of every single failure.
pub fn build(
    design: &Design,
    file: &str,
    fail: &[String],
    stack_as_unit: bool,
) -> Result<SimulateReport, String> {
    let topo = Topology::build(design);
    let fabric = Fabric::new(design, &topo);
    let healthy = fabric.forwarding(design, &topo, &Failures::default());
    let analysis = Analysis::new(design, &topo, &fabric, &healthy, requirements(design, true));
    let mut report = SimulateReport {
        design: design.name.value.clone(),
        file: file.to_string(),
        scenario: None,
        units: None,
        stack_as_unit,
    };
    if fail.is_empty() {
        let opts = UnitOptions {
            stack_as_unit,
            nic_ports: true,
        };
        let pairs = PairPaths::new(design, &topo, &healthy);
        let rows = units(design, &topo, opts)
            .into_iter()
            .map(|u| {
                let sim = analysis.simulate_with(&healthy, std::slice::from_ref(&u), Some(&pairs));
                let lost = losses(design, &topo, &sim);
                let severity = lost
                    .iter()
                    .map(|l| severity_rank(l.severity))
                    .max()
                    .map(rank_name);
                UnitRow {
                    name: u.cli_name(design, &topo),
                    unit: u.describe(design, &topo),
                    severity,
                    lost,
                    links: links(design, &topo, &healthy, &sim),
                    slower_pairs: sim.slower.iter().map(|s| s.pairs.len()).sum(),
                }
            })
            .collect();
        report.units = Some(rows);
        return Ok(report);
    }
    let mut chosen: Vec<Unit> = Vec::new();
    for name in fail {
        let mut u = parse_unit(design, &topo, name).map_err(|e| format!("--fail {name}: {e}"))?;
        if stack_as_unit {
            if let Unit::Switch(s) = u {
                let b = topo.bridge_of[s.0];
                if topo.bridge(b).kind == netlint_analysis::BridgeKind::Stack
                    && topo.bridge(b).members.len() > 1
                {
                    u = Unit::Bridge(b);
                }
            }
        }
        if !chosen.contains(&u) {
            chosen.push(u);
        }
    }
    let sim = analysis.simulate(&healthy, &chosen);
    report.scenario = Some(ScenarioOut {
        failing: chosen
            .iter()
            .map(|u| FailingOut {
                name: u.cli_name(design, &topo),
                unit: u.describe(design, &topo),
            })
            .collect(),
        lost: losses(design, &topo, &sim),
        standing: standing(design, &sim),
        spanning_tree: sim
            .trees
            .iter()
            .map(|t| TreeOut {
                tree: t.tree.clone(),
                changes: t.changes.clone(),
            })
            .collect(),
        links: links(design, &topo, &healthy, &sim),
        slower: slower(design, &topo, &sim),
        restored: sim
            .restored
            .iter()
            .map(|(n, pairs)| RestoredOut {
                network: design.network(*n).name.clone(),
                pairs: pairs
                    .iter()
                    .map(|(a, b)| [design.host(*a).name.clone(), design.host(*b).name.clone()])
                    .collect(),
            })
            .collect(),
    });
    Ok(report)
}

fn severity_rank(s: &str) -> u8 {
    match s {
        "error" => 2,
        "warning" => 1,
        _ => 0,
    }
}

fn rank_name(r: u8) -> &'static str {
    match r {
        2 => "error",
        1 => "warning",
        _ => "info",
    }
}

fn names(design: &Design, hosts: &[HostId]) -> Vec<String> {
    hosts.iter().map(|h| design.host(*h).name.clone()).collect()
}

fn loss_out(design: &Design, topo: &Topology, loss: &Loss, units: &[Unit]) -> LossOut {
    let reasons = loss
        .groups(design, topo, units)
        .into_iter()
        .map(|g| ReasonOut {
            hosts: names(design, &g.hosts),
            text: format!("{}: {}", loss.consequence(design, &g.hosts), g.why.text),
        })
        .collect();
    LossOut {
        requirement: loss.requirement.describe(design),
        label: loss.requirement.label(design),
        severity: loss.requirement.severity(design).as_str(),
        required: loss.requirement.required(design),
        hosts: names(design, &loss.host_ids()),
        split: loss.split.iter().map(|g| names(design, g)).collect(),
        pairs: loss.pairs.len(),
        reasons,
    }
}

/// Losses, the required ones first.
fn losses(design: &Design, topo: &Topology, sim: &Simulation) -> Vec<LossOut> {
    let mut out: Vec<LossOut> = sim
        .outcome
        .losses
        .iter()
        .map(|l| loss_out(design, topo, l, &sim.units))
        .collect();
    out.sort_by_key(|l| std::cmp::Reverse(severity_rank(l.severity)));
    out
}

/// "VM network `vm-prod`", "cluster group (`mgmt`, `csv`)", "live
/// migration (`lm`, `csv`)".
fn standing_name(design: &Design, req: &Requirement) -> String {
    let nets = || {
        req.networks(design)
            .iter()
            .map(|n| format!("`{}`", design.network(*n).name))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match req {
        Requirement::Network(n) => {
            let net = design.network(*n);
            let role = match net.role.value {
                Role::Vm => "VM network".to_string(),
                r => format!("{r} network"),
            };
            format!("{role} `{}`", net.name)
        }
        Requirement::Storage(Some(p)) => format!("{p} storage group ({})", nets()),
        Requirement::Storage(None) => format!("storage group ({})", nets()),
        Requirement::Cluster => format!("cluster group ({})", nets()),
        Requirement::LiveMigration => format!("live migration ({})", nets()),
    }
}

fn standing(design: &Design, sim: &Simulation) -> Vec<StandingOut> {
    let net_names = |v: &[NetworkId]| -> Vec<String> {
        v.iter().map(|n| design.network(*n).name.clone()).collect()
    };
    sim.standings
        .iter()
        .filter(|s| s.requirement.required(design))
        .map(|s| StandingOut {
            requirement: standing_name(design, &s.requirement),
            label: s.requirement.label(design),
            severity: s.requirement.severity(design).as_str(),
            kept: !s.lost,
            through: net_names(&s.networks_kept),
            lost_networks: net_names(&s.networks_lost),
        })
        .collect()
}

fn port_name(design: &Design, topo: &Topology, port: usize) -> String {
    let p = &topo.ports[port];
    let link = design.link(p.link);
    match p.cable {
        Some(c) => format!("{}#{}", link.name, c + 1),
        None => link.name.clone(),
    }
}

fn links(design: &Design, topo: &Topology, healthy: &Forwarding, sim: &Simulation) -> Vec<LinkOut> {
    let mut out = Vec::new();
    for &p in &sim.down {
        let port = &topo.ports[p];
        out.push(LinkOut {
            link: port_name(design, topo, p),
            state: "down",
            cables_left: 0,
            cables: port.members,
            capacity_left: "0".to_string(),
            capacity: port.speed().to_string(),
        });
    }
    for d in &sim.degraded {
        let port = &topo.ports[d.port];
        let _ = healthy;
        out.push(LinkOut {
            link: port_name(design, topo, d.port),
            state: "degraded",
            cables_left: d.members_left,
            cables: d.members,
            capacity_left: d.member_speed.times(d.members_left as u64).to_string(),
            capacity: port.speed().to_string(),
        });
    }
    out
}

fn slower(design: &Design, topo: &Topology, sim: &Simulation) -> Vec<SlowOut> {
    sim.slower
        .iter()
        .map(|s| SlowOut {
            network: design.network(s.network).name.clone(),
            pairs: s
                .pairs
                .iter()
                .map(|(a, b)| [design.host(*a).name.clone(), design.host(*b).name.clone()])
                .collect(),
            before: s.before.0.to_string(),
            after: s.after.0.to_string(),
            via: s.after.1.map(|p| port_name(design, topo, p)),
        })
        .collect()
}

// ------------------------------------------------------------------ human

/// "`a`", "`a` or `b`", "`a`, `b` or `c`".
fn or_list(v: &[String]) -> String {
    let q: Vec<String> = v.iter().map(|s| format!("`{s}`")).collect();
    match q.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// The human rendering.
pub fn human(r: &SimulateReport) -> String {
    let mut s = String::new();
    if let Some(sc) = &r.scenario {
        let failing: Vec<String> = sc.failing.iter().map(|f| f.unit.clone()).collect();
        let _ = writeln!(
            s,
            "{} ({}) with {} down",
            r.design,
            r.file,
            failing.join(" and ")
        );
        let _ = writeln!(s);
        let _ = writeln!(s, "Lost");
        if sc.lost.is_empty() {
            let _ = writeln!(
                s,
                "  nothing: every host pair that reached each other still does"
            );
        }
        for l in &sc.lost {
            let tag = if l.required {
                l.severity.to_string()
            } else {
                "info: need not survive on its own".to_string()
            };
            let _ = writeln!(s, "  {} [{tag}]", l.requirement);
            for reason in &l.reasons {
                let _ = writeln!(s, "    {}", reason.text);
            }
        }
        let _ = writeln!(s);
        let _ = writeln!(s, "What must survive");
        for st in &sc.standing {
            let status = if st.kept { "ok  " } else { "LOST" };
            let mut line = format!("  {status}  {}", st.requirement);
            if st.kept && !st.lost_networks.is_empty() && !st.through.is_empty() {
                let _ = write!(
                    line,
                    ": every host pair still connects through {}; {} is lost",
                    or_list(&st.through),
                    or_list(&st.lost_networks).replace(" or ", " and ")
                );
            } else if !st.kept {
                let _ = write!(line, " [{}]", st.severity);
            }
            let _ = writeln!(s, "{line}");
        }
        let _ = writeln!(s);
        let _ = writeln!(s, "Spanning tree");
        if sc.spanning_tree.is_empty() {
            let _ = writeln!(s, "  no change");
        }
        for t in &sc.spanning_tree {
            let _ = writeln!(s, "  {}: {}", t.tree, t.changes.join("; "));
        }
        let _ = writeln!(s);
        let _ = writeln!(s, "Links");
        if sc.links.is_empty() {
            let _ = writeln!(s, "  every inter-switch link keeps all its cables");
        }
        for l in &sc.links {
            let _ = writeln!(s, "  {}", link_line(l));
        }
        let _ = writeln!(s);
        let _ = writeln!(s, "Slower paths");
        if sc.slower.is_empty() {
            let _ = writeln!(s, "  none");
        }
        for p in &sc.slower {
            let more = "";
            let via = p
                .via
                .as_ref()
                .map(|v| format!(" (now through `{v}`)"))
                .unwrap_or_default();
            let _ = writeln!(
                s,
                "  network `{}`: {}{more}: {} -> {}{via}",
                p.network,
                pair_list(&p.pairs),
                p.before,
                p.after
            );
        }
        if !sc.restored.is_empty() {
            let _ = writeln!(s);
            let _ = writeln!(s, "Reconnected (cut before the failure)");
            for r in &sc.restored {
                let _ = writeln!(s, "  network `{}`: {}", r.network, pair_list(&r.pairs));
            }
        }
    }
    if let Some(rows) = &r.units {
        let _ = writeln!(
            s,
            "{} ({}): every single failure{}, {} units",
            r.design,
            r.file,
            if r.stack_as_unit {
                " (stacks as one unit)"
            } else {
                ""
            },
            rows.len()
        );
        let _ = writeln!(s);
        let width = rows.iter().map(|u| u.name.len()).max().unwrap_or(4).max(4);
        let _ = writeln!(s, "{:<width$}  {:<7}  CONSEQUENCES", "UNIT", "WORST");
        let mut fine = 0;
        for u in rows {
            let mut parts: Vec<String> = Vec::new();
            // What the same hosts lose, together: "lost vm, mgmt (hv1, hv2)".
            let mut lost: Vec<(String, Vec<String>)> = Vec::new();
            for l in &u.lost {
                let who = if l.split.is_empty() {
                    l.hosts.join(", ")
                } else {
                    l.split
                        .iter()
                        .map(|g| g.join(", "))
                        .collect::<Vec<_>>()
                        .join(" | ")
                };
                let who = shorten(&who);
                match lost.iter_mut().find(|(w, _)| *w == who) {
                    Some((_, labels)) => labels.push(l.label.clone()),
                    None => lost.push((who, vec![l.label.clone()])),
                }
            }
            for (who, labels) in lost {
                parts.push(format!("lost {} ({who})", labels.join(", ")));
            }
            // A core switch takes every uplink with it: the first few
            // links, then a count, keep the row readable.
            for l in u.links.iter().take(TABLE_LINKS) {
                parts.push(match l.state {
                    "down" => format!("{} down", l.link),
                    _ => format!(
                        "{} {} of {} cables ({} of {})",
                        l.link, l.cables_left, l.cables, l.capacity_left, l.capacity
                    ),
                });
            }
            if u.links.len() > TABLE_LINKS {
                let rest = &u.links[TABLE_LINKS..];
                let down = rest.iter().filter(|l| l.state == "down").count();
                let fewer = rest.len() - down;
                let mut more = Vec::new();
                if down > 0 {
                    more.push(format!("{down} more links down"));
                }
                if fewer > 0 {
                    more.push(format!("{fewer} more with fewer cables"));
                }
                parts.push(more.join(", "));
            }
            if u.slower_pairs > 0 {
                parts.push(format!("{} host pairs slower", u.slower_pairs));
            }
            if parts.is_empty() {
                fine += 1;
                parts.push("nothing lost".to_string());
            }
            let _ = writeln!(
                s,
                "{:<width$}  {:<7}  {}",
                u.name,
                u.severity.unwrap_or("-"),
                parts.join("; ")
            );
        }
        let _ = writeln!(s);
        let _ = writeln!(
            s,
            "{} of {} units take nothing away. `netlint simulate {} --fail UNIT` explains one.",
            fine,
            rows.len(),
            r.file
        );
    }
    s
}

/// "`a`-`b`, `a`-`c` and 3 more pairs".
fn pair_list(pairs: &[[String; 2]]) -> String {
    let shown: Vec<String> = pairs
        .iter()
        .take(4)
        .map(|[a, b]| format!("`{a}`-`{b}`"))
        .collect();
    if pairs.len() > 4 {
        format!("{} and {} more pairs", shown.join(", "), pairs.len() - 4)
    } else {
        shown.join(", ")
    }
}

fn link_line(l: &LinkOut) -> String {
    match l.state {
        "down" => format!("`{}`: down ({} lost)", l.link, l.capacity),
        _ => format!(
            "`{}`: {} of {} cables left, {} of {}",
            l.link, l.cables_left, l.cables, l.capacity_left, l.capacity
        ),
    }
}

/// Links named in one row of the table before the rest are counted.
const TABLE_LINKS: usize = 6;

/// Long host lists in the table: the first few, then "and N more".
fn shorten(list: &str) -> String {
    let items: Vec<&str> = list.split(", ").collect();
    if items.len() <= 6 {
        list.to_string()
    } else {
        format!("{} and {} more", items[..6].join(", "), items.len() - 6)
    }
}
