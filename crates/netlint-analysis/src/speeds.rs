//! Unknown speeds. A link's or NIC's `speed` may be absent (switch configs
//! and imports rarely state it): the analyses carry it as `None` and never
//! guess a figure from it, with one exception the spanning tree cannot do
//! without, a port cost.
//!
//! 802.1D does not define a cost for a port of unknown speed (a bridge
//! costs the speed it negotiated). A link whose speed is unknown and whose
//! `stp_cost` is not given is costed as a [`UNKNOWN_LINK_STP_SPEED`] link
//! under its bridges' cost method: all such links cost the same, so the
//! tree among them is decided by hop count and bridge / port ids, as it is
//! in a fabric of uniform links. The `speed-unknown` finding names every
//! such link and the choice, so a CI run does not take it as checked.

use netlint_model::Speed;

/// The speed a link of unknown speed (and no `stp_cost`) is costed as.
pub const UNKNOWN_LINK_STP_SPEED: Speed = Speed::from_gbps(10);

/// Megabits per second for a spanning-tree cost: the speed, or the
/// [`UNKNOWN_LINK_STP_SPEED`] stand-in.
pub fn stp_mbps(speed: Option<Speed>) -> u64 {
    speed.unwrap_or(UNKNOWN_LINK_STP_SPEED).mbps()
}

/// The sum of speeds when all are known.
pub fn sum_known(speeds: impl IntoIterator<Item = Option<Speed>>) -> Option<Speed> {
    let mut bps = 0;
    for s in speeds {
        bps += s?.bps();
    }
    Some(Speed::from_bps(bps))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_link_is_costed_as_the_documented_stand_in() {
        assert_eq!(stp_mbps(None), 10_000);
        assert_eq!(stp_mbps(Some(Speed::from_gbps(40))), 40_000);
    }

    #[test]
    fn a_sum_is_known_only_when_every_term_is() {
        let g = |n| Some(Speed::from_gbps(n));
        assert_eq!(sum_known([g(10), g(25)]), g(35));
        assert_eq!(sum_known([g(10), None]), None);
        assert_eq!(sum_known([]), Some(Speed::default()));
    }

    /// A triangle of switches whose slow link (1G) makes the tree block
    /// it; the third link's speed is left out or stated as 10G.
    const TRIANGLE: &str = r#"
[design]
name = "t"
[networks.n]
role = "vm"
vlan = 10
[switches.a]
stp = { mode = "rstp", priority = 4096 }
[switches.b]
stp = { mode = "rstp" }
[switches.c]
stp = { mode = "rstp" }
[[links]]
a = "a"
b = "b"
SPEED
[[links]]
a = "b"
b = "c"
speed = "1G"
[[links]]
a = "a"
b = "c"
speed = "10G"
"#;

    fn forwarding(src: &str) -> Vec<bool> {
        use crate::{Fabric, Failures, Topology};
        let l = netlint_model::load(&netlint_model::SourceFile::new("t.toml", src));
        assert!(l.diagnostics.is_empty(), "{:#?}", l.diagnostics);
        let d = l.design.unwrap();
        let t = Topology::build(&d);
        let f = Fabric::new(&d, &t).forwarding(&d, &t, &Failures::default());
        f.vlan(Some(10)).unwrap().forwarding.clone()
    }

    #[test]
    fn the_spanning_tree_takes_an_unknown_link_as_the_stand_in() {
        let unknown = forwarding(&TRIANGLE.replace("SPEED\n", ""));
        let ten = forwarding(&TRIANGLE.replace("SPEED", "speed = \"10G\""));
        assert_eq!(unknown, ten);
        // The 1G link blocks: the unknown link is not taken as slower.
        assert_eq!(unknown, vec![true, false, true]);
    }
}
