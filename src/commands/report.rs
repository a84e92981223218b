//! `netlint report DESIGN`: what each traffic class of each host (or group
//! of hosts built alike) can reach, healthy and after losing one adapter,
//! how long draining a host takes, and where every figure comes from.
//! Formats: human, json, markdown (a table fit for a pull-request comment).

use netlint_analysis::bandwidth::{
    fmt_rate, fmt_seconds, nics_text, Assumption, BandwidthModel, Bound, BoundKind, ClassModel,
    Drain, DrainTime, Figures, HostBandwidth, Port, Rate, TrafficClass, ASSUMPTIONS, BYTES_PER_GIB,
    JUMBO_LM_GAIN_HIGH, JUMBO_LM_GAIN_LOW,
};
use netlint_analysis::Topology;
use netlint_model::units::trim_float;
use netlint_model::{load, Design, Host, NicIdx, Severity, SourceFile, SCHEMA, SYNTAX};
use serde::Serialize;
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct ReportArgs {
    /// The design file.
    pub path: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value = "human")]
    pub format: ReportFormat,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReportFormat {
    Human,
    Json,
    /// A Markdown table fit for a pull-request comment.
    Markdown,
}

pub fn run(args: ReportArgs, out: &mut dyn Write) -> Result<i32, String> {
    let shown = args.path.to_string_lossy().replace('\\', "/");
    let text = std::fs::read_to_string(&args.path).map_err(|e| format!("{shown}: {e}"))?;
    let file = SourceFile::new(shown.clone(), text);
    let loaded = load(&file);
    let errors: Vec<String> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error && (d.rule == SYNTAX || d.rule == SCHEMA))
        .map(|d| match &d.primary {
            Some(l) => {
                let at = file.line_col(l.span.start);
                format!("{shown}:{}:{}: {}", at.line, at.column, d.message)
            }
            None => format!("{shown}: {}", d.message),
        })
        .collect();
    let design = match &loaded.design {
        Some(d) if errors.is_empty() => d,
        _ => return Err(input_errors(&shown, &errors)),
    };
    let topology = Topology::build(design);
    let model = BandwidthModel::build(design, &topology);
    let report = build(design, &model, &shown);
    let text = match args.format {
        ReportFormat::Human => human(&report),
        ReportFormat::Json => {
            let mut s = serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?;
            s.push('\n');
            s
        }
        ReportFormat::Markdown => markdown(&report),
    };
    out.write_all(text.as_bytes()).map_err(|e| e.to_string())?;
    Ok(0)
}

fn input_errors(shown: &str, errors: &[String]) -> String {
    format!(
        "cannot report on a design with input errors (`netlint check {shown}` shows them):\n{}",
        errors.join("\n")
    )
}

/// Hook for the layer-2 section (spanning-tree roots and blocked links per
/// instance). It stays empty until netlint's forwarding model computes the
/// spanning trees; the report then adds a section per instance, in every
/// format, from what this returns. Nothing is printed before that.
fn spanning_tree_section(_design: &Design) -> Option<Vec<SpanningTreeInstance>> {
    None
}

#[derive(Serialize, Clone, Debug, PartialEq)]
struct SpanningTreeInstance {
    instance: String,
    root: String,
    blocked: Vec<String>,
}

// ---------------------------------------------------------------------------
// The report as data (what the JSON format prints).
// ---------------------------------------------------------------------------

#[derive(Serialize, Clone, Debug, PartialEq)]
struct Report {
    version: u32,
    design: String,
    file: String,
    groups: Vec<Group>,
    #[serde(skip_serializing_if = "Option::is_none")]
    spanning_tree: Option<Vec<SpanningTreeInstance>>,
    /// The assumptions any figure relies on, with their sources.
    assumptions: Vec<AssumptionOut>,
}

#[derive(Serialize, Clone, Debug, PartialEq)]
struct AssumptionOut {
    id: &'static str,
    statement: &'static str,
    source: &'static str,
}

#[derive(Serialize, Clone, Debug, PartialEq)]
struct Group {
    hosts: Vec<String>,
    classes: Vec<ClassOut>,
    #[serde(skip_serializing_if = "Option::is_none")]
    drain: Option<DrainOut>,
}

#[derive(Serialize, Clone, Debug, PartialEq)]
struct ClassOut {
    class: &'static str,
    label: &'static str,
    transport: &'static str,
    networks: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    simultaneous: Option<Simultaneous>,
    #[serde(skip_serializing_if = "Option::is_none")]
    smb_bandwidth_limit: Option<CapOut>,
    adapters: Vec<AdapterOut>,
    healthy: FiguresOut,
    /// After the single adapter loss that takes the most (None: no loss
    /// changes the figures).
    degraded: Option<DegradedOut>,
    /// Adapters whose loss leaves the class no interface.
    stranded: Vec<String>,
    limited_by: BoundOut,
    assumptions: Vec<&'static str>,
    notes: Vec<String>,
}

#[derive(Serialize, Clone, Debug, PartialEq)]
struct Simultaneous {
    value: u32,
    default: bool,
}

#[derive(Serialize, Clone, Debug, PartialEq)]
struct CapOut {
    bytes_per_second: f64,
    bits_per_second: u64,
    text: String,
}

#[derive(Serialize, Clone, Debug, PartialEq)]
struct AdapterOut {
    interface: String,
    network: String,
    in_use: bool,
    active: Vec<String>,
    standby: Vec<String>,
    link: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    balancing: Option<BalancingOut>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rdma: Option<String>,
    mtu: u32,
}

#[derive(Serialize, Clone, Debug, PartialEq)]
struct BalancingOut {
    name: String,
    mode: String,
    load_balancing: Option<String>,
}

#[derive(Serialize, Clone, Debug, PartialEq)]
struct FiguresOut {
    per_stream: RateOut,
    #[serde(skip_serializing_if = "Option::is_none")]
    per_migration: Option<RateOut>,
    aggregate: RateOut,
}

#[derive(Serialize, Clone, Debug, PartialEq)]
struct DegradedOut {
    lost: String,
    #[serde(flatten)]
    figures: FiguresOut,
}

#[derive(Serialize, Clone, Debug, PartialEq)]
struct RateOut {
    bits_per_second: u64,
    text: String,
    bounds: Vec<BoundOut>,
}

#[derive(Serialize, Clone, Debug, PartialEq)]
struct BoundOut {
    kind: &'static str,
    bits_per_second: u64,
    text: String,
}

#[derive(Serialize, Clone, Debug, PartialEq)]
struct DrainOut {
    memory_gib: f64,
    healthy: DrainTimeOut,
    #[serde(skip_serializing_if = "Option::is_none")]
    degraded: Option<DrainTimeOut>,
    bottleneck: String,
    formula: String,
}

#[derive(Serialize, Clone, Debug, PartialEq)]
struct DrainTimeOut {
    #[serde(skip_serializing_if = "Option::is_none")]
    lost: Option<String>,
    bits_per_second: u64,
    seconds: f64,
    text: String,
    /// Over standard 1500-byte frames: the published 10-20 % jumbo-frame
    /// gain applied.
    #[serde(skip_serializing_if = "Option::is_none")]
    standard_frames: Option<StandardFrames>,
}

#[derive(Serialize, Clone, Debug, PartialEq)]
struct StandardFrames {
    low_seconds: f64,
    high_seconds: f64,
    text: String,
}

fn kind_id(k: BoundKind) -> &'static str {
    match k {
        BoundKind::Adapters => "adapters",
        BoundKind::OneNetwork => "one-network",
        BoundKind::OneFlow => "one-flow",
        BoundKind::Send => "send",
        BoundKind::Receive => "receive",
        BoundKind::SmbCap => "smb-cap",
    }
}

fn bound_out(b: &Bound) -> BoundOut {
    BoundOut {
        kind: kind_id(b.kind),
        bits_per_second: b.speed.bps(),
        text: b.text.clone(),
    }
}

fn rate_out(r: &Rate) -> RateOut {
    RateOut {
        bits_per_second: r.speed().bps(),
        text: fmt_rate(r.speed()),
        bounds: r.bounds.iter().map(bound_out).collect(),
    }
}

fn figures_out(f: &Figures) -> FiguresOut {
    FiguresOut {
        per_stream: rate_out(&f.per_stream),
        per_migration: f.per_migration.as_ref().map(rate_out),
        aggregate: rate_out(&f.aggregate),
    }
}

fn nic_names(host: &Host, nics: &[NicIdx]) -> Vec<String> {
    nics.iter().map(|n| host.nic(*n).name.clone()).collect()
}

fn adapter_out(design: &Design, host: &Host, class: &ClassModel, i: usize, p: &Port) -> AdapterOut {
    AdapterOut {
        interface: p.name.clone(),
        network: design.network(p.network).name.clone(),
        in_use: class.healthy.in_use.contains(&i),
        active: nic_names(host, &p.active),
        standby: nic_names(host, &p.standby),
        link: nics_text(host, &p.active),
        balancing: p.balancer.as_ref().map(|b| BalancingOut {
            name: b.name.clone(),
            mode: b.mode.to_string(),
            load_balancing: b.lb().map(|l| l.to_string()),
        }),
        rdma: p.rdma.map(|r| r.to_string()),
        mtu: p.mtu,
    }
}

fn class_out(design: &Design, host: &Host, c: &ClassModel) -> ClassOut {
    let limited = c
        .healthy
        .aggregate
        .bottleneck()
        .map(bound_out)
        .unwrap_or(BoundOut {
            kind: "adapters",
            bits_per_second: 0,
            text: String::new(),
        });
    ClassOut {
        class: c.class.id(),
        label: c.class.label(),
        transport: c.transport.label(),
        networks: c
            .networks
            .iter()
            .map(|n| design.network(*n).name.clone())
            .collect(),
        simultaneous: c
            .simultaneous
            .map(|(value, default)| Simultaneous { value, default }),
        smb_bandwidth_limit: c.cap.as_ref().map(|cap| CapOut {
            bytes_per_second: cap.value.bytes_per_sec,
            bits_per_second: cap.value.bits_per_sec().round() as u64,
            text: format!("{}MB", trim_float(cap.value.ps_megabytes())),
        }),
        adapters: c
            .ports
            .iter()
            .enumerate()
            .map(|(i, p)| adapter_out(design, host, c, i, p))
            .collect(),
        healthy: figures_out(&c.healthy),
        degraded: c.degraded.as_ref().map(|d| DegradedOut {
            lost: host.nic(d.lost).name.clone(),
            figures: figures_out(&d.figures),
        }),
        stranded: nic_names(host, &c.stranded),
        limited_by: limited,
        assumptions: c.assumptions.iter().map(|a| a.id).collect(),
        notes: c.notes.clone(),
    }
}

fn drain_time_out(host: &Host, lost: Option<NicIdx>, t: &DrainTime) -> DrainTimeOut {
    DrainTimeOut {
        lost: lost.map(|n| host.nic(n).name.clone()),
        bits_per_second: t.rate.bps(),
        seconds: (t.seconds * 10.0).round() / 10.0,
        text: fmt_seconds(t.seconds),
        standard_frames: t.standard_frames.map(|(lo, hi)| StandardFrames {
            low_seconds: (lo * 10.0).round() / 10.0,
            high_seconds: (hi * 10.0).round() / 10.0,
            text: format!("{} to {}", fmt_seconds(lo), fmt_seconds(hi)),
        }),
    }
}

fn drain_out(host: &Host, hb: &HostBandwidth, d: &Drain) -> DrainOut {
    let lm = hb.class(TrafficClass::LiveMigration);
    let worst = lm.map(|c| c.worst());
    let bottleneck = worst
        .and_then(|f| f.aggregate.bottleneck())
        .map(|b| b.text.clone())
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
        formula: format!(
            "{} GiB x {} bytes x 8 bits / {} = {} s",
            trim_float(d.memory_gib.value),
            BYTES_PER_GIB,
            fmt_rate(t.rate),
            trim_float((t.seconds * 10.0).round() / 10.0)
        ),
    }
}

fn build(design: &Design, model: &BandwidthModel, file: &str) -> Report {
    let mut groups: Vec<Group> = Vec::new();
    let mut used: Vec<&'static Assumption> = Vec::new();
    for hb in &model.hosts {
        let host = design.host(hb.host);
        for c in &hb.classes {
            for a in &c.assumptions {
                if !used.contains(a) {
                    used.push(a);
                }
            }
        }
        let classes: Vec<ClassOut> = hb
            .classes
            .iter()
            .map(|c| class_out(design, host, c))
            .collect();
        let drain = hb.drain.as_ref().map(|d| drain_out(host, hb, d));
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
    Report {
        version: 1,
        design: design.name.value.clone(),
        file: file.to_string(),
        groups,
        spanning_tree: spanning_tree_section(design),
        assumptions: ASSUMPTIONS
            .iter()
            .filter(|a| used.contains(a))
            .map(|a| AssumptionOut {
                id: a.id,
                statement: a.statement,
                source: a.source,
            })
            .collect(),
    }
}

// ---------------------------------------------------------------------------
// Human
// ---------------------------------------------------------------------------

fn hosts_title(hosts: &[String]) -> String {
    let names: Vec<String> = hosts.iter().map(|h| format!("`{h}`")).collect();
    match names.len() {
        1 => format!("host {}", names[0]),
        _ => format!("hosts {} (built alike)", names.join(", ")),
    }
}

fn class_title(c: &ClassOut) -> String {
    let mut parts = vec![c.transport.to_string()];
    if let Some(s) = &c.simultaneous {
        parts.push(format!(
            "{} simultaneous{}",
            s.value,
            if s.default { " (default)" } else { "" }
        ));
    }
    if let Some(cap) = &c.smb_bandwidth_limit {
        parts.push(format!(
            "smb_bandwidth_limit {} ({})",
            cap.text,
            fmt_rate(netlint_model::Speed::from_bps(cap.bits_per_second))
        ));
    }
    let sep = if c.class == "live-migration" {
        " > "
    } else {
        ", "
    };
    let nets: Vec<String> = c.networks.iter().map(|n| format!("`{n}`")).collect();
    format!("{} ({}) over {}", c.label, parts.join(", "), nets.join(sep))
}

fn adapter_line(a: &AdapterOut) -> String {
    let mut s = format!("{} [`{}`]: {}", a.interface, a.network, a.link);
    if let Some(b) = &a.balancing {
        s.push_str(&format!(
            " of {}, {}, {}",
            b.name,
            b.mode,
            b.load_balancing
                .as_deref()
                .unwrap_or("load balancing not stated")
        ));
    }
    if !a.standby.is_empty() {
        s.push_str(&format!(", standby {}", a.standby.join(", ")));
    }
    if let Some(r) = &a.rdma {
        s.push_str(&format!(", RDMA {r}"));
    }
    s.push_str(&format!(", MTU {}", a.mtu));
    if !a.in_use {
        s.push_str(" (fallback)");
    }
    s
}

fn push_rate(out: &mut String, label: &str, healthy: &RateOut, degraded: Option<&RateOut>) {
    let deg = degraded
        .map(|d| d.text.clone())
        .unwrap_or_else(|| healthy.text.clone());
    out.push_str(&format!("    {label:<16}{:<12}{deg}\n", healthy.text));
}

fn human(r: &Report) -> String {
    let mut out = format!("netlint report: `{}` ({})\n", r.design, r.file);
    for g in &r.groups {
        out.push_str(&format!("\n{}\n", hosts_title(&g.hosts)));
        if g.classes.is_empty() {
            out.push_str("  no traffic class has an interface on this host\n");
        }
        for c in &g.classes {
            out.push_str(&format!("\n  {}\n", class_title(c)));
            for a in &c.adapters {
                out.push_str(&format!("    adapter: {}\n", adapter_line(a)));
            }
            out.push_str(&format!(
                "    {:<16}{:<12}{}\n",
                "",
                "healthy",
                match &c.degraded {
                    Some(d) => format!("after losing `{}`", d.lost),
                    None => "after losing any one adapter".to_string(),
                }
            ));
            let d = c.degraded.as_ref().map(|d| &d.figures);
            push_rate(
                &mut out,
                "per stream",
                &c.healthy.per_stream,
                d.map(|f| &f.per_stream),
            );
            if let Some(pm) = &c.healthy.per_migration {
                push_rate(
                    &mut out,
                    "per migration",
                    pm,
                    d.and_then(|f| f.per_migration.as_ref()),
                );
            }
            let all = if c.class == "live-migration" {
                "all migrations"
            } else {
                "whole class"
            };
            push_rate(&mut out, all, &c.healthy.aggregate, d.map(|f| &f.aggregate));
            let adapters = c
                .healthy
                .aggregate
                .bounds
                .iter()
                .find(|b| b.kind == "adapters")
                .map(|b| b.bits_per_second)
                .unwrap_or_default();
            if adapters > c.healthy.aggregate.bits_per_second {
                out.push_str(&format!(
                    "    {} is limited to {} of the {} its adapters have, by: {}\n",
                    c.label,
                    c.healthy.aggregate.text,
                    fmt_rate(netlint_model::Speed::from_bps(adapters)),
                    c.limited_by.text
                ));
            } else {
                out.push_str(&format!(
                    "    {} reaches {}, the link speed of its adapters: {}\n",
                    c.label, c.healthy.aggregate.text, c.limited_by.text
                ));
            }
            out.push_str("    every bound on the whole class (the smallest sets it):\n");
            for b in &c.healthy.aggregate.bounds {
                out.push_str(&format!(
                    "      {:<11}{}\n",
                    fmt_rate(netlint_model::Speed::from_bps(b.bits_per_second)),
                    b.text
                ));
            }
            if let Some(dg) = &c.degraded {
                if let Some(b) = dg
                    .figures
                    .aggregate
                    .bounds
                    .iter()
                    .find(|b| b.bits_per_second == dg.figures.aggregate.bits_per_second)
                {
                    out.push_str(&format!(
                        "    after losing `{}`: {}: {}\n",
                        dg.lost, dg.figures.aggregate.text, b.text
                    ));
                }
            }
            if !c.stranded.is_empty() {
                out.push_str(&format!(
                    "    losing {} leaves it no interface at all\n",
                    c.stranded
                        .iter()
                        .map(|n| format!("`{n}`"))
                        .collect::<Vec<_>>()
                        .join(" or ")
                ));
            }
            for n in &c.notes {
                out.push_str(&format!("    note: {n}\n"));
            }
            out.push_str(&format!("    assumes: {}\n", c.assumptions.join(", ")));
        }
        if let Some(dr) = &g.drain {
            out.push_str(&format!(
                "\n  drain {} GiB (memory_gb) over live migration\n",
                trim_float(dr.memory_gib)
            ));
            out.push_str(&format!(
                "    healthy: {} at {} (line rate, a lower bound)\n",
                dr.healthy.text,
                fmt_rate(netlint_model::Speed::from_bps(dr.healthy.bits_per_second))
            ));
            match &dr.degraded {
                Some(t) => out.push_str(&format!(
                    "    after losing `{}`: {} at {}\n",
                    t.lost.as_deref().unwrap_or(""),
                    t.text,
                    fmt_rate(netlint_model::Speed::from_bps(t.bits_per_second))
                )),
                None => out.push_str("    after losing any one adapter: the same\n"),
            }
            out.push_str(&format!("    = {}\n", dr.formula));
            let frames = dr
                .degraded
                .as_ref()
                .and_then(|t| t.standard_frames.as_ref())
                .or(dr.healthy.standard_frames.as_ref());
            if let Some(f) = frames {
                out.push_str(&format!(
                    "    over standard 1500-byte frames expect {} (jumbo frames gave {}-{} % more live-migration throughput in published tests: jumbo-gain)\n",
                    f.text,
                    trim_float(JUMBO_LM_GAIN_LOW * 100.0),
                    trim_float(JUMBO_LM_GAIN_HIGH * 100.0)
                ));
            }
            out.push_str(&format!("    bottleneck: {}\n", dr.bottleneck));
        }
    }
    if !r.assumptions.is_empty() {
        out.push_str("\nassumptions\n");
        for a in &r.assumptions {
            out.push_str(&format!(
                "  {}: {}\n    source: {}\n",
                a.id, a.statement, a.source
            ));
        }
    }
    out
}

// ---------------------------------------------------------------------------
// Markdown
// ---------------------------------------------------------------------------

fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

fn markdown(r: &Report) -> String {
    let mut out = format!("### netlint report: `{}`\n", r.design);
    for g in &r.groups {
        out.push_str(&format!("\n#### {}\n\n", hosts_title(&g.hosts)));
        if g.classes.is_empty() {
            out.push_str("No traffic class has an interface on this host.\n");
            continue;
        }
        out.push_str("| traffic | transport | adapters | per stream | per migration | all | one adapter lost | limited by |\n");
        out.push_str("|---|---|---|---|---|---|---|---|\n");
        for c in &g.classes {
            let adapters: Vec<String> = c
                .adapters
                .iter()
                .filter(|a| a.in_use)
                .map(|a| {
                    let mut s = format!("{} ({})", a.interface, a.link);
                    if let Some(b) = &a.balancing {
                        s = format!(
                            "{} on {}, {}",
                            s,
                            b.name,
                            b.load_balancing
                                .as_deref()
                                .unwrap_or("balancing not stated")
                        );
                    }
                    s
                })
                .collect();
            let mut transport = c.transport.to_string();
            if let Some(s) = &c.simultaneous {
                transport.push_str(&format!(", {} simultaneous", s.value));
            }
            if let Some(cap) = &c.smb_bandwidth_limit {
                transport.push_str(&format!(", cap {}", cap.text));
            }
            let lost = match &c.degraded {
                Some(d) => format!("{} (`{}`)", d.figures.aggregate.text, d.lost),
                None => format!("{} (any)", c.healthy.aggregate.text),
            };
            out.push_str(&format!(
                "| {} | {} | {} | {} | {} | **{}** | {} | {} |\n",
                cell(c.label),
                cell(&transport),
                cell(&adapters.join("; ")),
                cell(&c.healthy.per_stream.text),
                cell(
                    c.healthy
                        .per_migration
                        .as_ref()
                        .map(|p| p.text.as_str())
                        .unwrap_or("")
                ),
                cell(&c.healthy.aggregate.text),
                cell(&lost),
                cell(&c.limited_by.text)
            ));
        }
        if let Some(dr) = &g.drain {
            let worst = dr.degraded.as_ref().unwrap_or(&dr.healthy);
            out.push_str(&format!(
                "\n**Drain {} GiB:** {} at {} healthy; {} after losing {} (line rate, a lower bound: {}).",
                trim_float(dr.memory_gib),
                dr.healthy.text,
                fmt_rate(netlint_model::Speed::from_bps(dr.healthy.bits_per_second)),
                worst.text,
                worst
                    .lost
                    .as_ref()
                    .map(|l| format!("`{l}`"))
                    .unwrap_or_else(|| "any one adapter".to_string()),
                dr.formula
            ));
            if let Some(f) = &worst.standard_frames {
                out.push_str(&format!(
                    " Over standard 1500-byte frames expect {} (jumbo-gain).",
                    f.text
                ));
            }
            out.push_str(&format!(" Bottleneck: {}\n", cell(&dr.bottleneck)));
        }
    }
    if !r.assumptions.is_empty() {
        out.push_str("\n<details><summary>Assumptions behind these figures</summary>\n\n");
        for a in &r.assumptions {
            out.push_str(&format!(
                "- **{}**: {} (source: {})\n",
                a.id,
                cell(a.statement),
                cell(a.source)
            ));
        }
        out.push_str("\n</details>\n");
    }
    out
}
