//! The model of `netlint report`: what each traffic class of each host (or
//! group of hosts built alike) can reach, healthy and after losing one
//! adapter, how long draining a host takes, and where every figure comes
//! from. JSON prints it as it is; `render::report` writes human and Markdown.

use netlint_analysis::bandwidth::{
    Assumption, BandwidthModel, Bound, BoundKind, ClassModel, Drain, DrainTime, Figures,
    HostBandwidth, Known, Port, Rate, TrafficClass, BYTES_PER_GIB,
};
use netlint_analysis::failure::{LmPath, PathRate};
use netlint_analysis::Topology;
use netlint_model::units::trim_float;
use netlint_model::{Design, Host, NicIdx, Speed};
use netlint_rules::phrases::bandwidth::{
    assumption_source, assumption_statement, balancer_name, bound_text, class_label, class_note,
    drain_text, figure, fmt_rate, fmt_seconds, nics_text, port_name, transport_label,
};
use netlint_rules::phrases::failure::{fabric_port_name, UnitWords};
use serde::Serialize;

// ---------------------------------------------------------------------------
// The report as data (what the JSON format prints).
// ---------------------------------------------------------------------------

#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct BandwidthReport {
    pub version: u32,
    pub design: String,
    pub file: String,
    pub groups: Vec<Group>,
    /// The assumptions any figure relies on, with their sources.
    pub assumptions: Vec<AssumptionOut>,
}

#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct AssumptionOut {
    pub id: &'static str,
    pub statement: &'static str,
    pub source: &'static str,
}

#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct Group {
    pub hosts: Vec<String>,
    pub classes: Vec<ClassOut>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub drain: Option<DrainOut>,
}

#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct ClassOut {
    pub class: &'static str,
    pub label: &'static str,
    pub transport: &'static str,
    pub networks: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub simultaneous: Option<Simultaneous>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub smb_bandwidth_limit: Option<CapOut>,
    pub adapters: Vec<AdapterOut>,
    pub healthy: FiguresOut,
    /// After the single adapter loss that takes the most (None: no loss
    /// changes the figures).
    pub degraded: Option<DegradedOut>,
    /// Adapters whose loss leaves the class no interface.
    pub stranded: Vec<String>,
    pub limited_by: BoundOut,
    pub assumptions: Vec<&'static str>,
    pub notes: Vec<String>,
}

#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct Simultaneous {
    pub value: u32,
    pub default: bool,
}

#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct CapOut {
    pub bytes_per_second: f64,
    pub bits_per_second: u64,
    pub text: String,
}

#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct AdapterOut {
    pub interface: String,
    pub network: String,
    pub in_use: bool,
    pub active: Vec<String>,
    pub standby: Vec<String>,
    pub link: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub balancing: Option<BalancingOut>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rdma: Option<String>,
    pub mtu: u32,
}

#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct BalancingOut {
    pub name: String,
    pub mode: String,
    pub load_balancing: Option<String>,
}

#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct FiguresOut {
    pub per_stream: RateOut,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub per_migration: Option<RateOut>,
    pub aggregate: RateOut,
}

#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct DegradedOut {
    pub lost: String,
    #[serde(flatten)]
    pub figures: FiguresOut,
}

#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct RateOut {
    pub bits_per_second: u64,
    /// Absent: exact. "at-least": adapters of unknown speed counted as
    /// nothing (`bits_per_second` is a lower bound); "unknown": no figure.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub known: Option<&'static str>,
    pub text: String,
    pub bounds: Vec<BoundOut>,
}

#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct BoundOut {
    pub kind: &'static str,
    pub bits_per_second: u64,
    /// As [`RateOut::known`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub known: Option<&'static str>,
    pub text: String,
}

#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct DrainOut {
    pub memory_gib: f64,
    pub healthy: DrainTimeOut,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub degraded: Option<DrainTimeOut>,
    pub bottleneck: String,
    pub formula: String,
    /// Where the fabric path to the slowest peer is slower than the
    /// adapters: with nothing failed, and after the worst single fabric
    /// failure (docs/bandwidth-model.md, "The fabric path").
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub fabric: Vec<FabricDrainOut>,
}

/// A drain time the fabric path sets.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct FabricDrainOut {
    /// "with nothing failed", "after cable 1 of 2 of link `isl` fails".
    pub when: String,
    /// The peer the slowest path leads to.
    pub peer: String,
    /// The link of the path's slowest cable.
    pub link: String,
    pub per_stream_bits_per_second: u64,
    pub streams: u64,
    pub bits_per_second: u64,
    pub seconds: f64,
    pub text: String,
}

#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct DrainTimeOut {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lost: Option<String>,
    pub bits_per_second: u64,
    /// As [`RateOut::known`]; at "at-least" `seconds` is an upper bound.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub known: Option<&'static str>,
    pub seconds: f64,
    pub text: String,
    /// Over standard 1500-byte frames: the published 10-20 % jumbo-frame
    /// gain applied.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub standard_frames: Option<StandardFrames>,
}

#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct StandardFrames {
    pub low_seconds: f64,
    pub high_seconds: f64,
    pub text: String,
}

/// The JSON marker of a figure that is not exact.
pub fn known_id(k: Known) -> Option<&'static str> {
    match k {
        Known::Exact => None,
        Known::AtLeast => Some("at-least"),
        Known::Unknown => Some("unknown"),
    }
}

pub fn kind_id(k: BoundKind) -> &'static str {
    match k {
        BoundKind::Adapters => "adapters",
        BoundKind::OneNetwork => "one-network",
        BoundKind::OneFlow => "one-flow",
        BoundKind::Send => "send",
        BoundKind::Receive => "receive",
        BoundKind::SmbCap => "smb-cap",
    }
}

pub fn bound_out(host: &Host, b: &Bound) -> BoundOut {
    BoundOut {
        kind: kind_id(b.kind),
        bits_per_second: b.speed.bps(),
        known: known_id(b.known()),
        text: bound_text(host, b),
    }
}

pub fn rate_out(host: &Host, r: &Rate) -> RateOut {
    RateOut {
        bits_per_second: r.speed().bps(),
        known: known_id(r.known()),
        text: figure(r.speed(), r.known()),
        bounds: r.bounds.iter().map(|b| bound_out(host, b)).collect(),
    }
}

pub fn figures_out(host: &Host, f: &Figures) -> FiguresOut {
    FiguresOut {
        per_stream: rate_out(host, &f.per_stream),
        per_migration: f.per_migration.as_ref().map(|r| rate_out(host, r)),
        aggregate: rate_out(host, &f.aggregate),
    }
}

pub fn nic_names(host: &Host, nics: &[NicIdx]) -> Vec<String> {
    nics.iter().map(|n| host.nic(*n).name.clone()).collect()
}

pub fn adapter_out(
    design: &Design,
    host: &Host,
    class: &ClassModel,
    i: usize,
    p: &Port,
) -> AdapterOut {
    AdapterOut {
        interface: port_name(host, p.via),
        network: design.network(p.network).name.clone(),
        in_use: class.healthy.in_use.contains(&i),
        active: nic_names(host, &p.active),
        standby: nic_names(host, &p.standby),
        link: nics_text(host, &p.active),
        balancing: p.balancer.as_ref().map(|b| BalancingOut {
            name: balancer_name(host, b),
            mode: b.mode.to_string(),
            load_balancing: b.lb().map(|l| l.to_string()),
        }),
        rdma: p.rdma.map(|r| r.to_string()),
        mtu: p.mtu,
    }
}

pub fn class_out(design: &Design, host: &Host, c: &ClassModel) -> ClassOut {
    let limited = c
        .healthy
        .aggregate
        .bottleneck()
        .map(|b| bound_out(host, b))
        .unwrap_or(BoundOut {
            kind: "adapters",
            bits_per_second: 0,
            known: None,
            text: String::new(),
        });
    ClassOut {
        class: c.class.id(),
        label: class_label(c.class),
        transport: transport_label(c.transport),
        networks: c
            .networks
            .iter()
            .map(|n| design.network(*n).name.clone())
            .collect(),
        simultaneous: c
            .simultaneous
            .map(|(value, default)| Simultaneous { value, default }),
        smb_bandwidth_limit: c.cap.as_ref().map(|cap| CapOut {
            bytes_per_second: cap.bytes_per_sec,
            bits_per_second: cap.bits_per_sec().round() as u64,
            text: format!("{}MB", trim_float(cap.ps_megabytes())),
        }),
        adapters: c
            .ports
            .iter()
            .enumerate()
            .map(|(i, p)| adapter_out(design, host, c, i, p))
            .collect(),
        healthy: figures_out(host, &c.healthy),
        degraded: c.degraded.as_ref().map(|d| DegradedOut {
            lost: host.nic(d.lost).name.clone(),
            figures: figures_out(host, &d.figures),
        }),
        stranded: nic_names(host, &c.stranded),
        limited_by: limited,
        assumptions: c.assumptions.iter().map(|a| a.id()).collect(),
        notes: c
            .notes
            .iter()
            .map(|n| class_note(design, host, c, n))
            .collect(),
    }
}

pub fn drain_time_out(host: &Host, lost: Option<NicIdx>, t: &DrainTime) -> DrainTimeOut {
    DrainTimeOut {
        lost: lost.map(|n| host.nic(n).name.clone()),
        bits_per_second: t.rate.bps(),
        known: known_id(t.known),
        seconds: (t.seconds * 10.0).round() / 10.0,
        text: drain_text(t.seconds, t.known),
        standard_frames: t.standard_frames.map(|(lo, hi)| StandardFrames {
            low_seconds: (lo * 10.0).round() / 10.0,
            high_seconds: (hi * 10.0).round() / 10.0,
            text: format!("{} to {}", fmt_seconds(lo), fmt_seconds(hi)),
        }),
    }
}

/// The drain times the fabric path sets for a host (see [`FabricDrainOut`]).
fn fabric_drains(
    design: &Design,
    topo: &Topology,
    d: &Drain,
    path: Option<&LmPath>,
) -> Vec<FabricDrainOut> {
    let Some(path) = path else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut push = |when: String, peer: netlint_model::HostId, p: &PathRate, rate: Speed| {
        let seconds = d.memory_gib.value * BYTES_PER_GIB * 8.0 / rate.bps().max(1) as f64;
        out.push(FabricDrainOut {
            when,
            peer: design.host(peer).name.clone(),
            link: fabric_port_name(design, topo, p.port),
            per_stream_bits_per_second: p.per_stream.bps(),
            streams: path.flows,
            bits_per_second: rate.bps(),
            seconds: (seconds * 10.0).round() / 10.0,
            text: fmt_seconds(seconds),
        });
    };
    if let (Some((peer, p)), Some(r)) = (path.healthy, path.healthy_rate()) {
        if r < d.healthy.rate {
            push("with nothing failed".to_string(), peer, &p, r);
        }
    }
    if let (Some((unit, peer, p)), Some(r)) = (&path.degraded, path.degraded_rate()) {
        let rate = r.min(d.healthy.rate);
        if rate < d.healthy.rate {
            push(
                format!("after {} fails", unit.describe(design, topo)),
                *peer,
                p,
                rate,
            );
        }
    }
    out
}

pub fn drain_out(host: &Host, hb: &HostBandwidth, d: &Drain) -> DrainOut {
    let lm = hb.class(TrafficClass::LiveMigration);
    let worst = lm.map(|c| c.worst());
    let bottleneck = worst
        .and_then(|f| f.aggregate.bottleneck())
        .map(|b| bound_text(host, b))
        .unwrap_or_default();
    let t = d.worst();
    DrainOut {
        memory_gib: d.memory_gib.value,
        healthy: drain_time_out(host, None, &d.healthy),
        degraded: d
            .degraded
            .as_ref()
            .map(|(n, t)| drain_time_out(host, Some(*n), t)),
        bottleneck,
        formula: if t.known == Known::Unknown {
            "no time: the speeds of the live-migration adapters are not stated".to_string()
        } else {
            format!(
                "{} GiB x {} bytes x 8 bits / {} = {} s",
                trim_float(d.memory_gib.value),
                BYTES_PER_GIB,
                fmt_rate(t.rate),
                trim_float((t.seconds * 10.0).round() / 10.0)
            )
        },
        fabric: Vec::new(),
    }
}

/// The report; `fabric`: the topology and each host's live-migration path
/// ([`netlint_analysis::failure::lm_paths`]), for drain times the fabric
/// sets.
pub fn build(
    design: &Design,
    model: &BandwidthModel,
    file: &str,
    fabric: Option<(&Topology, &[Option<LmPath>])>,
) -> BandwidthReport {
    let mut groups: Vec<Group> = Vec::new();
    let mut used: Vec<Assumption> = Vec::new();
    for hb in &model.hosts {
        let host = design.host(hb.host);
        for c in hb.classes.iter() {
            for a in &c.assumptions {
                if !used.contains(a) {
                    used.push(*a);
                }
            }
        }
        let classes: Vec<ClassOut> = hb
            .classes
            .iter()
            .map(|c| class_out(design, host, c))
            .collect();
        let drain = hb.drain.as_ref().map(|d| {
            let mut out = drain_out(host, hb, d);
            if let Some((topo, paths)) = fabric {
                let path = paths.get(hb.host.0).and_then(Option::as_ref);
                out.fabric = fabric_drains(design, topo, d, path);
            }
            out
        });
        // Hosts built alike share one group.
        match groups
            .iter_mut()
            .find(|g| g.classes == classes && g.drain == drain)
        {
            Some(g) => g.hosts.push(host.name.clone()),
            None => groups.push(Group {
                hosts: vec![host.name.clone()],
                classes,
                drain,
            }),
        }
    }
    BandwidthReport {
        version: 1,
        design: design.name.value.clone(),
        file: file.to_string(),
        groups,
        assumptions: Assumption::ALL
            .iter()
            .filter(|a| used.contains(a))
            .map(|a| AssumptionOut {
                id: a.id(),
                statement: assumption_statement(*a),
                source: assumption_source(*a),
            })
            .collect(),
    }
}
