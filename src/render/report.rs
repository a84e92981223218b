//! The human and Markdown text of `netlint report`.

use crate::views::report::*;
use netlint_analysis::bandwidth::{JUMBO_LM_GAIN_HIGH, JUMBO_LM_GAIN_LOW};
use netlint_model::units::trim_float;
use netlint_rules::phrases::bandwidth::fmt_rate;

// ---------------------------------------------------------------------------
// Human
// ---------------------------------------------------------------------------

/// A figure's rate as the view marks it: "10 Gb/s", "≥ 10 Gb/s" (adapters
/// of unknown speed counted as nothing), "unknown".
fn rate(bits_per_second: u64, known: Option<&str>) -> String {
    let r = fmt_rate(netlint_model::Speed::from_bps(bits_per_second));
    match known {
        None => r,
        Some("at-least") => format!("≥ {r}"),
        Some(_) => "unknown".to_string(),
    }
}

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

/// Control characters from the design (file names, free text) are
/// escaped: the text is printed to a terminal.
pub fn human(r: &BandwidthReport) -> String {
    super::printable(human_raw(r))
}

fn human_raw(r: &BandwidthReport) -> String {
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
                    rate(b.bits_per_second, b.known),
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
                rate(dr.healthy.bits_per_second, dr.healthy.known)
            ));
            match &dr.degraded {
                Some(t) => out.push_str(&format!(
                    "    after losing `{}`: {} at {}\n",
                    t.lost.as_deref().unwrap_or(""),
                    t.text,
                    rate(t.bits_per_second, t.known)
                )),
                None => out.push_str("    after losing any one adapter: the same\n"),
            }
            for f in &dr.fabric {
                out.push_str(&format!(
                    "    over the fabric, {}: {} at {} ({} stream{} to `{}`, each at most {} on link `{}`)\n",
                    f.when,
                    f.text,
                    rate(f.bits_per_second, None),
                    f.streams,
                    if f.streams == 1 { "" } else { "s" },
                    f.peer,
                    rate(f.per_stream_bits_per_second, None),
                    f.link
                ));
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

/// Control characters from the design (file names, free text) are
/// escaped: the text is printed to a terminal.
pub fn markdown(r: &BandwidthReport) -> String {
    super::printable(markdown_raw(r))
}

fn markdown_raw(r: &BandwidthReport) -> String {
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
                rate(dr.healthy.bits_per_second, dr.healthy.known),
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
            for f in &dr.fabric {
                out.push_str(&format!(
                    " Over the fabric, {}: {} at {} (each stream at most {} on link `{}`, to `{}`).",
                    cell(&f.when),
                    f.text,
                    rate(f.bits_per_second, None),
                    rate(f.per_stream_bits_per_second, None),
                    cell(&f.link),
                    cell(&f.peer)
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
