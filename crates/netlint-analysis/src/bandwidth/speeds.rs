//! Sums and minima of adapter speeds, and the time to move memory at a rate.

use super::*;

/// Seconds to move `gib` GiB at `rate`.
pub fn drain_seconds(gib: f64, rate: Speed) -> f64 {
    if rate.bps() == 0 {
        return f64::INFINITY;
    }
    gib * BYTES_PER_GIB * 8.0 / rate.bps() as f64
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
