//! Sums and minima of adapter speeds, and the time to move memory at a rate.

use super::*;

/// Seconds to move `gib` GiB at `rate`.
pub fn drain_seconds(gib: f64, rate: Speed) -> f64 {
    if rate.bps() == 0 {
        return f64::INFINITY;
    }
    gib * BYTES_PER_GIB * 8.0 / rate.bps() as f64
}

/// A NIC's speed as a lower bound: its speed, or nothing (0) when the
/// design does not state it. Every figure that counts such a NIC is marked
/// ([`Bound::unknown`], [`Rate::known`]).
pub fn nic_speed(host: &Host, n: NicIdx) -> Speed {
    host.nic(n)
        .speed
        .as_ref()
        .map(|s| s.value)
        .unwrap_or_default()
}

/// The NICs among `nics` whose speed is not stated.
pub fn unknown_speeds(host: &Host, nics: &[NicIdx]) -> Vec<NicIdx> {
    nics.iter()
        .copied()
        .filter(|n| host.nic(*n).speed.is_none())
        .collect()
}

pub(super) fn sum_speed(host: &Host, nics: &[NicIdx]) -> Speed {
    Speed::from_bps(nics.iter().map(|n| nic_speed(host, *n).bps()).sum())
}

pub(super) fn min_speed(host: &Host, nics: &[NicIdx]) -> Speed {
    nics.iter()
        .map(|n| nic_speed(host, *n))
        .min()
        .unwrap_or_default()
}
