//! `netlint simulate DESIGN [--fail NAME ...]`: what a failure takes away.
//!
//! With `--fail`, the state after those failures together (N-1, N-2, ...):
//! the networks and groups lost and for which hosts, why each of the role
//! table's requirements survives or not, spanning-tree changes per
//! instance, links down or degraded, and paths that got slower. Without
//! it, a table of every single failure unit and its consequences. The human
//! and JSON outputs are two renderings of one [`SimulateReport`].

use netlint_analysis::failure::{
    parse_unit, requirements, units, Analysis, Degraded, Loss, Outcome, PairPaths, Requirement,
    Simulation, Unit, UnitOptions,
};
use netlint_analysis::l2::ScenarioForwarding;
use netlint_analysis::{Fabric, Failures, Topology};
use netlint_model::{Design, HostId, NetworkId, Role};
use netlint_rules::phrases::failure::{
    fabric_port_name as port_name, unit_name_error, LossWords, RequirementWords, UnitWords,
};
use netlint_rules::phrases::stp::tree_change;
use netlint_rules::phrases::words::speed_text;
use serde::Serialize;

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
    /// Stacks and MLAG domains the failures split (a peer-link, a
    /// stacking cable): one sentence each, saying which part keeps the
    /// multi-chassis LAGs and whether the design said so.
    pub splits: Vec<String>,
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
    /// What one stream (one TCP connection, one SMB channel) gets, before
    /// and after, where it changed: the slowest cable on the path, as a
    /// LAG carries each flow on one cable.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub per_stream: Option<[String; 2]>,
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
        // Each row's forwarding is updated from the healthy one and only
        // the pairs a unit can change are walked again, so the table costs
        // about what its units change, not units times the fabric.
        let pairs = PairPaths::new(design, &topo, &healthy);
        let scenarios = ScenarioForwarding::new(design, &topo, &fabric, &healthy);
        // The cables of one LAG fail alike (`Analysis::same_failure`) and
        // come one after the other: their rows differ only by the unit.
        let mut previous: Option<(Unit, netlint_analysis::failure::Row)> = None;
        let rows = units(design, &topo, opts)
            .into_iter()
            .map(|u| {
                let row = match previous.take() {
                    Some((p, mut row)) if analysis.same_failure(&p, &u) => {
                        row.units = vec![u.clone()];
                        row
                    }
                    _ => analysis.simulate_row(&healthy, &scenarios, &pairs, &u),
                };
                previous = matches!(u, Unit::Cable(..)).then(|| (u.clone(), row.clone()));
                let lost = losses(design, &topo, &row.outcome, &row.units);
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
                    links: links(design, &topo, &row.down, &row.degraded),
                    slower_pairs: row.slower_pairs,
                }
            })
            .collect();
        report.units = Some(rows);
        return Ok(report);
    }
    let mut chosen: Vec<Unit> = Vec::new();
    for name in fail {
        let mut u = parse_unit(design, &topo, name)
            .map_err(|e| format!("--fail {name}: {}", unit_name_error(&e)))?;
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
    // Pairs walked per class pair, as for the table.
    let pairs = PairPaths::new(design, &topo, &healthy);
    let sim = analysis.simulate_with(&healthy, &chosen, Some(&pairs));
    // A peer-link or stacking cable named without its part: worded as the
    // split the simulation took (the worst one).
    let worded: Vec<Unit> = chosen
        .iter()
        .map(|u| {
            let (link, cable) = match u {
                Unit::Cable(l, c) => (*l, Some(*c)),
                Unit::Link(l) => (*l, None),
                _ => return u.clone(),
            };
            let a = design.link(link).a.value;
            match sim.splits.iter().find(|s| topo.bridge_of[a.0] == s.bridge) {
                Some(s) if topo.internal_links.contains(&link) => Unit::Split {
                    link,
                    cable,
                    keep: s.keep,
                },
                _ => u.clone(),
            }
        })
        .collect();
    report.scenario = Some(ScenarioOut {
        failing: chosen
            .iter()
            .zip(&worded)
            .map(|(u, w)| FailingOut {
                name: u.cli_name(design, &topo),
                unit: w.describe(design, &topo),
            })
            .collect(),
        lost: losses(design, &topo, &sim.outcome, &worded),
        splits: sim
            .splits
            .iter()
            .map(|s| split_text(design, &topo, s, &worded))
            .collect(),
        standing: standing(design, &sim),
        spanning_tree: sim
            .trees
            .iter()
            .map(|t| {
                let (tree, changes) = tree_change(&healthy.stp, t);
                TreeOut { tree, changes }
            })
            .collect(),
        links: links(design, &topo, &sim.down, &sim.degraded),
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

/// "MLAG domain `vpc1` splits into `tor-a` | `tor-b`: `tor-b`, the vPC
/// secondary, suspends ...", with the worst-case note when the design
/// does not say which part keeps the multi-chassis LAGs.
fn split_text(
    design: &Design,
    topo: &Topology,
    split: &netlint_analysis::failure::DomainSplit,
    units: &[Unit],
) -> String {
    let bridge = topo.bridge(split.bridge);
    let q = |ss: &[netlint_model::SwitchId]| {
        ss.iter()
            .map(|s| format!("`{}`", design.switch(*s).name))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let parts: Vec<String> = split.parts.iter().map(|p| q(p)).collect();
    let kept = split
        .parts
        .iter()
        .find(|p| p.contains(&split.keep))
        .cloned()
        .unwrap_or_default();
    let others: Vec<netlint_model::SwitchId> = split
        .parts
        .iter()
        .filter(|p| !p.contains(&split.keep))
        .flatten()
        .copied()
        .collect();
    let mlag = bridge.kind == netlint_analysis::BridgeKind::Mlag;
    let mut text = if mlag {
        format!(
            "MLAG domain `{}` splits into {}: {}, the MLAG / vPC secondary, suspends its MLAG / vPC port-channel members (and its vPC VLAN interfaces) and keeps its orphan ports up, which no longer reach {}",
            bridge.name,
            parts.join(" | "),
            q(&others),
            q(&kept)
        )
    } else {
        format!(
            "stack `{}` splits into {}: each part runs on with its own master and keeps its ports; a LAG across the parts bundles only with {} (LACP takes one partner), so {} drops out of the cross-stack LAGs",
            bridge.name,
            parts.join(" | "),
            q(&kept),
            q(&others)
        )
    };
    if !split.stated {
        let link = units
            .iter()
            .find_map(|u| match u {
                Unit::Split { link, .. } => Some(design.link(*link).name.clone()),
                _ => None,
            })
            .unwrap_or_default();
        let alternatives: Vec<String> = split
            .lost_pairs
            .iter()
            .map(|(s, n)| {
                let pairs = format!("{n} host pair{}", if *n == 1 { "" } else { "s" });
                if mlag {
                    format!(
                        "{pairs} lost with `{}` as the primary",
                        design.switch(*s).name
                    )
                } else {
                    format!(
                        "{pairs} lost with the LAGs on the part of `{}`",
                        design.switch(*s).name
                    )
                }
            })
            .collect();
        let which = if mlag {
            "which peer is the vPC primary"
        } else {
            "which part keeps the cross-stack LAGs"
        };
        text.push_str(&format!(
            " (the design does not say {which}: the worst of {} choices is shown, {}; name the part with `--fail {link}@SWITCH`)",
            split.lost_pairs.len(),
            alternatives.join(", ")
        ));
    }
    text
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
fn losses(design: &Design, topo: &Topology, outcome: &Outcome, units: &[Unit]) -> Vec<LossOut> {
    let mut out: Vec<LossOut> = outcome
        .losses
        .iter()
        .map(|l| loss_out(design, topo, l, units))
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
                Role::Unknown => "network of unknown role".to_string(),
                r => format!("{r} network"),
            };
            format!("{role} `{}`", net.name)
        }
        Requirement::Storage(Some(p)) => format!("{p} storage group ({})", nets()),
        Requirement::Storage(None) => format!("storage group ({})", nets()),
        Requirement::Cluster => format!("cluster group ({})", nets()),
        Requirement::LiveMigration => format!("live migration ({})", nets()),
        Requirement::Target(t) => {
            let target = design.target(*t);
            format!(
                "{} `{}` ({})",
                target.kind.value.words(),
                target.name,
                nets()
            )
        }
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

fn links(design: &Design, topo: &Topology, down: &[usize], degraded: &[Degraded]) -> Vec<LinkOut> {
    let mut out = Vec::new();
    for &p in down {
        let port = &topo.ports[p];
        out.push(LinkOut {
            link: port_name(design, topo, p),
            state: "down",
            cables_left: 0,
            cables: port.members,
            capacity_left: "0".to_string(),
            capacity: speed_text(port.speed()),
        });
    }
    for d in degraded {
        let port = &topo.ports[d.port];
        out.push(LinkOut {
            link: port_name(design, topo, d.port),
            state: "degraded",
            cables_left: d.members_left,
            cables: d.members,
            capacity_left: speed_text(d.member_speed.map(|s| s.times(d.members_left as u64))),
            capacity: speed_text(port.speed()),
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
            // Said where it changed and differs from the path's total (a
            // LAG on the path).
            per_stream: s
                .per_stream
                .filter(|(a, b)| a != b && (*a, *b) != (s.before.0, s.after.0))
                .map(|(a, b)| [a.to_string(), b.to_string()]),
        })
        .collect()
}
