//! Switchless meshes: networks that exist only on direct (`peer`) cables
//! between two hosts are compared per cable and per pair, not per host.
//!
//! In a full mesh of three or more nodes with one or two subnets per node
//! pair, each node carries only its own pairs' networks by construction,
//! so "host `hv1` does not carry `smb-23`" is no finding. What must agree
//! is the mesh itself: every pair has as many cables, and every cable end
//! the same speed, RDMA and MTU. The majority is taken over cable ends (one
//! odd host shows as its own ends, one odd cable as its two ends), and a
//! cable whose two ends disagree on RDMA or MTU is left to `rdma-mismatch`
//! and `mtu-mismatch`, which compare the two hosts on its network.

use super::super::{carriers, majority};
use crate::phrases::words::speed_text;
use crate::rules::located::Lines;
use crate::Context;
use netlint_model::{Attachment, Design, Diagnostic, HostId, NetworkId, NicIdx, Rdma, Span};
use std::collections::BTreeMap;

/// One end of a direct cable.
type End = (HostId, NicIdx);

/// A direct cable under point-to-point networks, ends in host order.
struct Cable {
    a: End,
    b: End,
    /// The point-to-point networks over it, in design order.
    nets: Vec<String>,
}

/// The networks of a cluster that exist only on direct cables between two
/// of its hosts: carried by exactly two hosts, each only over NICs cabled
/// with `peer` to the other.
pub(super) fn point_to_point(design: &Design, hosts: &[HostId]) -> Vec<NetworkId> {
    (0..design.networks.len())
        .map(NetworkId)
        .filter(|&net| {
            let on: Vec<(HostId, Vec<super::Carrier>)> = hosts
                .iter()
                .map(|&h| (h, carriers(design.host(h), net)))
                .filter(|(_, c)| !c.is_empty())
                .collect();
            let [(h1, c1), (h2, c2)] = on.as_slice() else {
                return false;
            };
            let only_to = |h: HostId, cs: &[super::Carrier], other: HostId| {
                cs.iter().all(|c| {
                    !c.nics.is_empty()
                        && c.nics.iter().all(|n| {
                            matches!(design.host(h).nic(*n).attach,
                                Some(Attachment::Peer { host, .. }) if host == other)
                        })
                })
            };
            only_to(*h1, c1, *h2) && only_to(*h2, c2, *h1)
        })
        .collect()
}

fn cables(design: &Design, nets: &[NetworkId], hosts: &[HostId]) -> Vec<Cable> {
    let mut by_ends: BTreeMap<(End, End), Vec<String>> = BTreeMap::new();
    for &net in nets {
        for &h in hosts {
            for c in carriers(design.host(h), net) {
                for &n in &c.nics {
                    if let Some(Attachment::Peer { host, nic, .. }) = design.host(h).nic(n).attach {
                        let ends = if (h, n) <= (host, nic) {
                            ((h, n), (host, nic))
                        } else {
                            ((host, nic), (h, n))
                        };
                        let names = by_ends.entry(ends).or_default();
                        let name = &design.network(net).name;
                        if !names.contains(name) {
                            names.push(name.clone());
                        }
                    }
                }
            }
        }
    }
    by_ends
        .into_iter()
        .map(|((a, b), nets)| Cable { a, b, nets })
        .collect()
}

fn end_name(design: &Design, (h, n): End) -> String {
    let host = design.host(h);
    format!("{}:{}", host.name, host.nic(n).name)
}

fn nets_phrase(nets: &[String]) -> String {
    let q: Vec<String> = nets.iter().map(|n| format!("`{n}`")).collect();
    if q.len() == 1 {
        format!("network {}", q[0])
    } else {
        format!("networks {}", q.join(", "))
    }
}

/// One property of a cable end compared across the mesh.
struct Aspect<'a> {
    /// "is 10G", "has RDMA roce-v2", "runs MTU 9000": the value as a
    /// predicate.
    state: &'a dyn Fn(End) -> String,
    /// The value as the other ends have it: "25G".
    value: &'a dyn Fn(End) -> String,
    span: &'a dyn Fn(End) -> Span,
    /// The help, given the majority's end.
    help: &'a dyn Fn(&str, End) -> String,
    /// Whether one odd end against a matching other end is this rule's
    /// (speeds); otherwise the two ends disagree on the cable's own
    /// network and another rule reports it.
    one_end: bool,
}

pub(super) fn check(cx: &Context<'_>, hosts: &[HostId], out: &mut Vec<Diagnostic>) {
    let design = cx.design;
    let nets = point_to_point(design, hosts);
    let cables = cables(design, &nets, hosts);
    if cables.is_empty() {
        return;
    }
    pair_counts(cx, &cables, out);
    let nic = |(h, n): End| design.host(h).nic(n);
    let rdma = |e: End| nic(e).rdma.value;
    let speed = Aspect {
        state: &|e| format!("is {}", speed_text(nic(e).known_speed())),
        value: &|e| speed_text(nic(e).known_speed()),
        span: &|e| nic(e).speed_span(),
        help: &|ends, e| {
            let s = speed_text(nic(e).known_speed());
            format!(
                "use {s} adapters at {ends}, as on the other cables of the mesh (`speed = \"{s}\"`)"
            )
        },
        one_end: true,
    };
    let rdma_state = |e: End| match rdma(e) {
        Rdma::None => "has no RDMA".to_string(),
        k => format!("has RDMA {k}"),
    };
    let rdma_aspect = Aspect {
        state: &rdma_state,
        value: &|e| match rdma(e) {
            Rdma::None => "no RDMA".to_string(),
            k => k.to_string(),
        },
        span: &|e| nic(e).rdma.span,
        help: &|ends, e| {
            match rdma(e) {
            Rdma::None => format!("remove `rdma` at {ends}, as on the other cables of the mesh, or enable RDMA on every cable alike"),
            k => format!("set `rdma = \"{k}\"` at {ends}, as on the other cables of the mesh: SMB Direct needs it at both ends"),
        }
        },
        one_end: false,
    };
    let mtu = Aspect {
        state: &|e| format!("runs {}", nic(e).mtu.value.describe()),
        value: &|e| format!("MTU {}", nic(e).mtu.value.payload),
        span: &|e| nic(e).mtu.span,
        help: &|ends, e| {
            let p = nic(e).mtu.value.payload;
            // A vmnic runs its virtual switch's MTU.
            if design.host(e.0).os.value.is_vsphere() {
                format!("set `mtu = {p}` on the virtual switches of {ends}, as on the other cables of the mesh")
            } else {
                format!(
                    "set `mtu = {p}` (or `jumbo_packet = {}`) at {ends}, as on the other cables of the mesh",
                    p + netlint_model::units::JUMBO_PACKET_HEADER
                )
            }
        },
        one_end: false,
    };
    let speed_key = |e: End| {
        (
            nic(e).known_speed().unwrap_or_default().bps(),
            String::new(),
        )
    };
    let rdma_key = |e: End| (u64::from(rdma(e).enabled()), rdma(e).to_string());
    let mtu_key = |e: End| (u64::from(nic(e).mtu.value.payload), String::new());
    // Speeds are compared only where every end states them: an unknown
    // speed is no difference (`speed-unknown` names the check).
    if cables
        .iter()
        .all(|c| nic(c.a).speed.is_some() && nic(c.b).speed.is_some())
    {
        compare(cx, &cables, &speed, &speed_key, out);
    }
    compare(cx, &cables, &rdma_aspect, &rdma_key, out);
    compare(cx, &cables, &mtu, &mtu_key, out);
}

/// A comparable value of a cable end: larger is better (faster, RDMA on,
/// larger MTU).
type Key = (u64, String);

/// The value most ends have; on a tie the better one (in a two-node
/// switchless pair with one 10G and one 25G cable the 10G one is odd).
fn most_common(keys: &[Key]) -> Option<Key> {
    let count = |k: &Key| keys.iter().filter(|x| *x == k).count();
    keys.iter()
        .max_by(|x, y| count(x).cmp(&count(y)).then_with(|| x.cmp(y)))
        .cloned()
}

/// Reports the cables whose ends differ from most ends of the mesh.
fn compare(
    cx: &Context<'_>,
    cables: &[Cable],
    aspect: &Aspect<'_>,
    key: &dyn Fn(End) -> Key,
    out: &mut Vec<Diagnostic>,
) {
    let design = cx.design;
    let ends: Vec<End> = cables.iter().flat_map(|c| [c.a, c.b]).collect();
    let keys: Vec<Key> = ends.iter().map(|e| key(*e)).collect();
    let Some(maj) = most_common(&keys) else {
        return;
    };
    let reference = ends[keys.iter().position(|k| *k == maj).unwrap_or(0)];
    for c in cables {
        let (oa, ob) = (key(c.a) != maj, key(c.b) != maj);
        let odd: Vec<End> = match (oa, ob) {
            (true, true) if key(c.a) == key(c.b) => vec![c.a, c.b],
            (true, false) if aspect.one_end => vec![c.a],
            (false, true) if aspect.one_end => vec![c.b],
            _ => continue,
        };
        let cable = format!(
            "direct cable `{}` - `{}` ({})",
            end_name(design, c.a),
            end_name(design, c.b),
            nets_phrase(&c.nets)
        );
        let names: Vec<String> = odd
            .iter()
            .map(|e| format!("`{}`", end_name(design, *e)))
            .collect();
        let at = if odd.len() == 2 {
            "at both ends".to_string()
        } else {
            format!("at {}", names[0])
        };
        let fix_at = names.join(" and ");
        let message = format!(
            "{cable} {} {at}, unlike the other cable ends of the switchless mesh ({})",
            (aspect.state)(odd[0]),
            (aspect.value)(reference)
        );
        let label = |e: End| format!("`{}` {}", end_name(design, e), (aspect.state)(e));
        let mut lines = Lines::new((aspect.span)(odd[0]), label(odd[0]));
        let other = if odd.len() == 2 {
            odd[1]
        } else if odd[0] == c.a {
            c.b
        } else {
            c.a
        };
        lines = lines.and((aspect.span)(other), label(other));
        let (span, related) = lines.for_hosts([design.host(c.a.0), design.host(c.b.0)]);
        // The element of the end the primary line belongs to.
        let primary_end = if span == (aspect.span)(other) {
            other
        } else {
            odd[0]
        };
        let mut d = cx
            .finding(
                &super::RULE,
                design.host(primary_end.0).nic_element(primary_end.1),
                span,
                message,
            )
            .with_help((aspect.help)(&fix_at, reference))
            .with_related(
                (aspect.span)(reference),
                format!(
                    "`{}` {}",
                    end_name(design, reference),
                    (aspect.state)(reference)
                ),
            );
        for (s, l) in related {
            d = d.with_related(s, l);
        }
        out.push(d);
    }
}

/// Pairs of the mesh with another number of direct cables than most pairs,
/// and pairs of a mesh that has no cable at all.
fn pair_counts(cx: &Context<'_>, cables: &[Cable], out: &mut Vec<Diagnostic>) {
    let design = cx.design;
    let mut members: Vec<HostId> = cables.iter().flat_map(|c| [c.a.0, c.b.0]).collect();
    members.sort();
    members.dedup();
    // Cables by pair (a cable's ends are in host order).
    let mut by_pair: BTreeMap<(HostId, HostId), Vec<&Cable>> = BTreeMap::new();
    for c in cables {
        by_pair.entry((c.a.0, c.b.0)).or_default().push(c);
    }
    // A missing pair is a hole in a mesh only when most pairs are cabled;
    // otherwise these are separate direct links, not a mesh. (Every pair is
    // listed only then, so the work stays within twice the cabled pairs.)
    let all_pairs = members.len() * members.len().saturating_sub(1) / 2;
    let mesh = members.len() >= 3 && by_pair.len() * 2 > all_pairs;
    let pairs: Vec<((HostId, HostId), Vec<&Cable>)> = if mesh {
        let mut pairs = Vec::new();
        for (i, &x) in members.iter().enumerate() {
            for &y in &members[i + 1..] {
                pairs.push(((x, y), by_pair.remove(&(x, y)).unwrap_or_default()));
            }
        }
        pairs
    } else {
        by_pair.into_iter().collect()
    };
    let counts: Vec<usize> = pairs
        .iter()
        .filter(|(_, c)| mesh || !c.is_empty())
        .map(|(_, c)| c.len())
        .collect();
    let Some(maj) = majority(&counts) else { return };
    let Some((_, reference)) = pairs.iter().find(|(_, c)| c.len() == maj) else {
        return;
    };
    let name = |h: HostId| design.host(h).name.clone();
    let each = if maj == 1 {
        "1 each".to_string()
    } else {
        format!("{maj} each")
    };
    for ((x, y), on) in &pairs {
        if on.len() == maj || (on.is_empty() && !mesh) {
            continue;
        }
        let (span, element, fact, help) = match on.first() {
            Some(first) => {
                let mut nets: Vec<String> = on.iter().flat_map(|c| c.nets.clone()).collect();
                nets.dedup();
                (
                    design.host(first.a.0).nic(first.a.1).attach.as_ref().map_or(design.host(*x).span, |a| a.span()),
                    design.host(first.a.0).nic_element(first.a.1),
                    format!(
                        "are joined by {} direct cable{} ({})",
                        on.len(),
                        if on.len() == 1 { "" } else { "s" },
                        nets_phrase(&nets)
                    ),
                    format!("cable every pair of the mesh alike: {maj} direct cable{} per pair, each with its own network", if maj == 1 { "" } else { "s" }),
                )
            }
            None => (
                design.host(*x).span,
                design.host(*x).element(),
                "have no direct cable".to_string(),
                format!(
                    "cable `{}` and `{}` to each other ({maj} `peer` cable{} with a network each), as every other pair of the mesh: storage between them has no path otherwise",
                    name(*x),
                    name(*y),
                    if maj == 1 { "" } else { "s" }
                ),
            ),
        };
        let mut d = cx
            .finding(
                &super::RULE,
                element,
                span,
                format!(
                    "hosts `{}` and `{}` {fact}, unlike the other pairs of the switchless mesh ({each})",
                    name(*x),
                    name(*y)
                ),
            )
            .with_help(help);
        if let Some(c) = reference.first() {
            if let Some(a) = &design.host(c.a.0).nic(c.a.1).attach {
                d = d.with_related(
                    a.span(),
                    format!("`{}` and `{}` are cabled here", name(c.a.0), name(c.b.0)),
                );
            }
        }
        out.push(d);
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::findings;

    const ID: &str = "host-asymmetry";

    /// A switchless mesh of `n` nodes with `links` direct 25G iWARP cables
    /// per pair, each with its own network; `edit(host, peer, link)` adds
    /// keys to the cable end of `host` towards `peer`, and pairs in `skip`
    /// are not cabled.
    fn mesh(
        n: usize,
        links: usize,
        skip: &[(usize, usize)],
        edit: &dyn Fn(usize, usize, usize) -> &'static str,
    ) -> String {
        let mut s = String::from("[design]\nname = \"t\"\nplatform = \"azure-local\"\n[networks.mgmt]\nrole = \"management\"\nvlan = 10\n[switches.sw]\n");
        let pairs: Vec<(usize, usize)> = (1..=n)
            .flat_map(|a| (a + 1..=n).map(move |b| (a, b)))
            .filter(|p| !skip.contains(p))
            .collect();
        for (a, b) in &pairs {
            for l in 0..links {
                s += &format!("[networks.smb-{a}{b}-{l}]\nrole = \"storage\"\nprotocol = \"smb\"\nmtu = 9000\n");
            }
        }
        for h in 1..=n {
            s += &format!(
                "[hosts.hv{h}.nics.M]\nspeed = \"10G\"\nswitch = \"sw\"\nnetworks = [\"mgmt\"]\n"
            );
            for (a, b) in &pairs {
                if h != *a && h != *b {
                    continue;
                }
                let o = if h == *a { *b } else { *a };
                for l in 0..links {
                    // The edit's keys replace the defaults.
                    let mut keys = vec!["speed = \"25G\"", "rdma = \"iwarp\"", "mtu = 9000"];
                    let e = edit(h, o, l);
                    if !e.is_empty() {
                        keys.retain(|k| k.split(' ').next() != e.split(' ').next());
                        keys.push(e);
                    }
                    s += &format!(
                        "[hosts.hv{h}.nics.P{o}-{l}]\n{}\npeer = \"hv{o}:P{h}-{l}\"\nnetworks = [\"smb-{a}{b}-{l}\"]\n",
                        keys.join("\n")
                    );
                }
            }
        }
        s
    }

    fn none(_: usize, _: usize, _: usize) -> &'static str {
        ""
    }

    #[test]
    fn a_full_mesh_with_a_network_per_cable_is_silent() {
        for (n, links) in [(3, 1), (3, 2), (4, 2)] {
            let f = findings(&mesh(n, links, &[], &none), ID);
            assert!(f.is_empty(), "{n} nodes, {links} links: {f:#?}");
        }
    }

    #[test]
    fn a_slower_cable_is_reported_once_at_its_ends() {
        let src = mesh(3, 2, &[], &|h, o, l| {
            if (h, o, l) == (1, 3, 0) || (h, o, l) == (3, 1, 0) {
                "speed = \"10G\""
            } else {
                ""
            }
        });
        let f = findings(&src, ID);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].message,
            "direct cable `hv1:P3-0` - `hv3:P1-0` (network `smb-13-0`) is 10G at both ends, unlike the other cable ends of the switchless mesh (25G)"
        );
        assert_eq!(f[0].element(), "hosts.hv1.nics.P3-0");
        assert!(f[0]
            .help
            .as_deref()
            .unwrap()
            .contains("use 25G adapters at `hv1:P3-0` and `hv3:P1-0`"));
        assert!(f[0]
            .related
            .iter()
            .any(|r| r.message == "`hv3:P1-0` is 10G"));
    }

    #[test]
    fn one_slower_end_is_reported_at_that_end() {
        let src = mesh(3, 1, &[], &|h, o, _| {
            if (h, o) == (3, 2) {
                "speed = \"10G\""
            } else {
                ""
            }
        });
        let f = findings(&src, ID);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.ends_with(
                "is 10G at `hv3:P2-0`, unlike the other cable ends of the switchless mesh (25G)"
            ),
            "{}",
            f[0].message
        );
        assert_eq!(f[0].element(), "hosts.hv3.nics.P2-0");
    }

    #[test]
    fn a_cable_without_rdma_at_both_ends_is_reported() {
        let src = mesh(3, 1, &[], &|h, o, _| {
            if (h, o) == (2, 3) || (h, o) == (3, 2) {
                "rdma = \"none\""
            } else {
                ""
            }
        });
        let f = findings(&src, ID);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.contains("has no RDMA at both ends"),
            "{}",
            f[0].message
        );
        // Its two hosts agree: rdma-mismatch has nothing to say.
        assert!(findings(&src, &crate::rules::traffic::rdma_mismatch::RULE).is_empty());
    }

    #[test]
    fn one_host_without_rdma_is_left_to_rdma_mismatch() {
        let src = mesh(3, 1, &[], &|h, _, _| {
            if h == 3 {
                "rdma = \"none\""
            } else {
                ""
            }
        });
        assert!(findings(&src, ID).is_empty());
        assert_eq!(
            findings(&src, &crate::rules::traffic::rdma_mismatch::RULE).len(),
            2
        );
    }

    #[test]
    fn a_cable_at_mtu_1500_at_both_ends_is_reported() {
        let src = mesh(3, 2, &[], &|h, o, l| {
            if l == 1 && ((h, o) == (1, 2) || (h, o) == (2, 1)) {
                "mtu = 1500"
            } else {
                ""
            }
        });
        let f = findings(&src, ID);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message
                .contains("(network `smb-12-1`) runs MTU 1500 at both ends"),
            "{}",
            f[0].message
        );
        assert!(f[0]
            .help
            .as_deref()
            .unwrap()
            .starts_with("set `mtu = 9000` (or `jumbo_packet = 9014`)"));
    }

    #[test]
    fn in_a_two_node_pair_the_slower_of_two_cables_is_odd() {
        let src = mesh(2, 2, &[], &|_, _, l| {
            if l == 0 {
                "speed = \"10G\""
            } else {
                ""
            }
        });
        let f = findings(&src, ID);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.starts_with(
                "direct cable `hv1:P2-0` - `hv2:P1-0` (network `smb-12-0`) is 10G at both ends"
            ),
            "{}",
            f[0].message
        );
    }

    #[test]
    fn a_missing_pair_of_a_mesh_is_reported_but_separate_links_are_no_mesh() {
        let src = mesh(4, 1, &[(2, 4)], &none);
        let f = findings(&src, ID);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].message,
            "hosts `hv2` and `hv4` have no direct cable, unlike the other pairs of the switchless mesh (1 each)"
        );
        assert_eq!(f[0].element(), "hosts.hv2");
        // Two separate direct links are no mesh with holes.
        let src = mesh(4, 1, &[(1, 3), (1, 4), (2, 3), (2, 4)], &none);
        assert!(findings(&src, ID).is_empty(), "{:#?}", findings(&src, ID));
    }
}
