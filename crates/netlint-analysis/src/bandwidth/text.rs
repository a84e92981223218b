//! Formatting helpers shared by the model's texts, the rules and the report.

use super::*;

/// `1 Gb/s`, `2.5 Gb/s`, `100 Mb/s`.
pub fn fmt_rate(s: Speed) -> String {
    let b = s.bps() as f64;
    if b >= 1e9 {
        format!("{} Gb/s", netlint_model::units::trim_float(b / 1e9))
    } else if b >= 1e6 {
        format!("{} Mb/s", netlint_model::units::trim_float(b / 1e6))
    } else {
        format!("{} b/s", b)
    }
}

/// `18m20s` (rounded to the second); `never` without bandwidth.
pub fn fmt_seconds(s: f64) -> String {
    if !s.is_finite() {
        return "never".to_string();
    }
    netlint_model::Duration {
        seconds: s.round().max(0.0) as u64,
    }
    .to_string()
}

/// Seconds to move `gib` GiB at `rate`.
pub fn drain_seconds(gib: f64, rate: Speed) -> f64 {
    if rate.bps() == 0 {
        return f64::INFINITY;
    }
    gib * BYTES_PER_GIB * 8.0 / rate.bps() as f64
}

/// `8 x 1G` or `X 10G + Y 1G`.
pub fn nics_text(host: &Host, nics: &[NicIdx]) -> String {
    let speeds: Vec<Speed> = nics.iter().map(|n| host.nic(*n).speed.value).collect();
    match speeds.first() {
        None => "no adapter".to_string(),
        Some(first) if speeds.iter().all(|s| s == first) => format!("{} x {first}", nics.len()),
        _ => nics
            .iter()
            .map(|n| format!("`{}` {}", host.nic(*n).name, host.nic(*n).speed.value))
            .collect::<Vec<_>>()
            .join(" + "),
    }
}

pub(super) fn sum_speed(host: &Host, nics: &[NicIdx]) -> Speed {
    Speed::from_bps(nics.iter().map(|n| host.nic(*n).speed.value.bps()).sum())
}

pub(super) fn min_speed(host: &Host, nics: &[NicIdx]) -> Speed {
    nics.iter()
        .map(|n| host.nic(*n).speed.value)
        .min()
        .unwrap_or_default()
}

pub(super) fn names(host: &Host, nics: &[NicIdx]) -> String {
    nics.iter()
        .map(|n| format!("`{}`", host.nic(*n).name))
        .collect::<Vec<_>>()
        .join(", ")
}
