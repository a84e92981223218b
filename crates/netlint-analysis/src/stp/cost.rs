//! Default port path costs: the 802.1t long table and the 802.1D-1998 short
//! table. See `docs/spanning-tree.md` for the tables written out.

/// Which default port path cost table a bridge uses for its own ports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CostMethod {
    /// 802.1D-1998 16-bit costs (legacy `stp` bridges).
    Short,
    /// 802.1t / 802.1D-2004 32-bit costs (RSTP, MSTP, PVST+, rapid-PVST+).
    Long,
}

/// Largest 802.1t port path cost (also the cost of a port of unknown speed).
pub const MAX_LONG_COST: u32 = 200_000_000;
/// Largest 802.1D-1998 port path cost (also the cost of a port of unknown speed).
pub const MAX_SHORT_COST: u32 = 65_535;

/// 802.1t long cost: 20,000,000 / speed in Mb/s, truncated, at least 1, at
/// most 200,000,000 (speed 0, i.e. unknown, costs the maximum).
pub fn long_cost(speed_mbps: u64) -> u32 {
    if speed_mbps == 0 {
        return MAX_LONG_COST;
    }
    (20_000_000 / speed_mbps).clamp(1, u64::from(MAX_LONG_COST)) as u32
}

/// 802.1D-1998 short cost: the row of the fastest listed speed not above the
/// port's speed (4M 250, 10M 100, 16M 62, 100M 19, 1G 4, 10G 2), and 1 for
/// anything faster than 10 Gb/s. Speed 0 (unknown) costs 65,535.
pub fn short_cost(speed_mbps: u64) -> u32 {
    match speed_mbps {
        0 => MAX_SHORT_COST,
        1..=9 => 250,
        10..=15 => 100,
        16..=99 => 62,
        100..=999 => 19,
        1_000..=9_999 => 4,
        10_000 => 2,
        _ => 1,
    }
}

/// The default cost of a port of `speed_mbps` under `method`.
pub fn default_cost(method: CostMethod, speed_mbps: u64) -> u32 {
    match method {
        CostMethod::Short => short_cost(speed_mbps),
        CostMethod::Long => long_cost(speed_mbps),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_table() {
        assert_eq!(long_cost(10), 2_000_000);
        assert_eq!(long_cost(100), 200_000);
        assert_eq!(long_cost(1_000), 20_000);
        assert_eq!(long_cost(2_000), 10_000);
        assert_eq!(long_cost(10_000), 2_000);
        assert_eq!(long_cost(20_000), 1_000);
        assert_eq!(long_cost(25_000), 800);
        assert_eq!(long_cost(40_000), 500);
        assert_eq!(long_cost(100_000), 200);
        assert_eq!(long_cost(100_000_000), 1);
        assert_eq!(long_cost(0), MAX_LONG_COST);
    }

    #[test]
    fn short_table() {
        assert_eq!(short_cost(10), 100);
        assert_eq!(short_cost(100), 19);
        assert_eq!(short_cost(1_000), 4);
        assert_eq!(short_cost(2_000), 4);
        assert_eq!(short_cost(10_000), 2);
        assert_eq!(short_cost(20_000), 1);
        assert_eq!(short_cost(0), MAX_SHORT_COST);
    }
}
