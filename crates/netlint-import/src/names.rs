//! Interface names, matched across vendors' abbreviations and spacing: the
//! model's [`netlint_model::ifname`], where `diff` uses them too; the speed
//! a name's family tells is a column of its family table
//! ([`IfName::family_speed_mbps`]). And speeds as the design spells them
//! ([`speed_text`]), the one spelling the switch links and both host
//! writers use.

pub use netlint_model::ifname::{IfKind, IfName};
use netlint_model::Speed;

/// A speed as the design writes it, in the largest unit of at least one
/// with up to three decimals: 25 Gb/s is `"25G"`, 2.5 Gb/s `"2.5G"`,
/// 100 Mb/s `"100M"`, 1.6 Tb/s `"1.6T"`. Callers with Mb/s make the
/// speed with [`mbps`], with bits/s with [`Speed::from_bps`].
pub fn speed_text(speed: Speed) -> String {
    let bits = speed.bps();
    let trim = |v: f64| {
        let s = format!("{v:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    };
    if bits >= 1_000_000_000_000 {
        format!("{}T", trim(bits as f64 / 1e12))
    } else if bits >= 1_000_000_000 {
        format!("{}G", trim(bits as f64 / 1e9))
    } else {
        format!("{}M", trim(bits as f64 / 1e6))
    }
}

/// A speed in Mb/s; one beyond what bits/s hold is the largest speed.
pub fn mbps(mbps: u64) -> Speed {
    Speed::from_bps(mbps.saturating_mul(1_000_000))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speeds_as_the_design_writes_them() {
        assert_eq!(speed_text(Speed::from_bps(25_000_000_000)), "25G");
        assert_eq!(speed_text(Speed::from_bps(2_500_000_000)), "2.5G");
        assert_eq!(speed_text(Speed::from_bps(100_000_000)), "100M");
        assert_eq!(speed_text(Speed::from_bps(1_600_000_000_000)), "1.6T");
        assert_eq!(speed_text(mbps(25000)), "25G");
        assert_eq!(speed_text(mbps(2500)), "2.5G");
        assert_eq!(speed_text(mbps(100)), "100M");
        assert_eq!(speed_text(mbps(1050)), "1.05G");
        // What the design refuses stays refused: below 10M, above 10T.
        assert!(Speed::parse(&speed_text(Speed::from_bps(4095))).is_err());
        assert!(Speed::parse(&speed_text(mbps(u64::MAX))).is_err());
    }
}
