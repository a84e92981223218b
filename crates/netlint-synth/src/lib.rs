//! Synthetic designs for benchmarks and scale tests: a two-tier fabric
//! (a pair of core switches, access switch pairs as MLAG domains, each
//! uplinked to both cores with a LAG), MSTP with the cluster VLANs and the
//! VM VLANs in instances rooted on different cores, and hosts in clusters
//! of 16 with about four hosts per access pair. Deterministic from a seed:
//! the same parameters give the same text byte for byte.

use std::fmt::Write;

#[derive(Clone, Debug)]
pub struct Params {
    pub hosts: usize,
    /// Hosts per access switch pair.
    pub hosts_per_pair: usize,
    /// Hosts per cluster.
    pub cluster_size: usize,
    /// MSTP instances besides the IST (at least 2 are used).
    pub instances: u16,
    pub seed: u64,
    /// Seed the design with mistakes that make many rules fire on most
    /// hosts and switches at once (the worst case for message building and
    /// grouping): both storage NICs on one card, no `host_ports` on the
    /// access switches, a core link with standard MTU, no SMB cap for live
    /// migration, jumbo frames missing on every fifth host, the CSV VLAN
    /// pruned from every tenth access pair's uplinks, and a profile-wide
    /// `allow` copied onto every host.
    pub flawed: bool,
}

impl Params {
    pub fn hosts(hosts: usize) -> Params {
        Params {
            hosts,
            hosts_per_pair: 4,
            cluster_size: 16,
            instances: 4,
            seed: 1,
            flawed: false,
        }
    }
}

/// A small linear congruential generator (Knuth's MMIX constants): enough
/// for varied but reproducible designs, with no dependency.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

pub fn generate(p: &Params) -> String {
    let mut rng = Lcg(p.seed ^ 0x9e37_79b9_7f4a_7c15);
    let pairs = p.hosts.div_ceil(p.hosts_per_pair.max(1)).max(1);
    let instances = p.instances.max(2);
    let mut s = String::with_capacity(p.hosts * 200 + pairs * 600);
    let _ = writeln!(
        s,
        "# Synthetic design: {} hosts, {} access pairs, seed {}.\n",
        p.hosts, pairs, p.seed
    );
    let _ = writeln!(
        s,
        "[design]\nname = \"synthetic-{}\"\nplatform = \"windows-server-2022\"\n",
        p.hosts
    );
    let nets = [
        ("mgmt", "management", 10, 1500),
        ("vm", "vm", 100, 1500),
        ("csv", "csv", 20, 9000),
        ("lm", "live-migration", 30, 9000),
    ];
    for (name, role, vlan, mtu) in nets {
        let _ = writeln!(
            s,
            "[networks.{name}]\nrole = \"{role}\"\nvlan = {vlan}\nmtu = {mtu}\n"
        );
    }
    // VLAN -> instance map shared by every switch (one region).
    let mut map = String::from("{ ");
    for i in 1..=instances {
        let vlans = match i {
            1 => "[20, 30]".to_string(),
            2 => "[10, 100]".to_string(),
            _ => format!("[\"{}-{}\"]", 1000 + i * 10, 1000 + i * 10 + 9),
        };
        let _ = write!(map, "{}{i} = {vlans}", if i > 1 { ", " } else { "" });
    }
    map.push_str(" }");
    let stp = |priority: u32, inst: &str| {
        format!(
            "stp = {{ mode = \"mstp\", priority = {priority}, region = \"dc\", revision = 1, instances = {map}{inst} }}"
        )
    };
    for (core, p1, p2) in [("core-1", 4096, 8192), ("core-2", 8192, 4096)] {
        let _ = writeln!(
            s,
            "[switches.{core}]\ntier = \"core\"\nmtu = 9216\n{}\n",
            stp(
                4096,
                &format!(", instance_priority = {{ 1 = {p1}, 2 = {p2} }}")
            )
        );
    }
    let _ = writeln!(
        s,
        "[[links]]\nname = \"core-isl\"\na = \"core-1\"\nb = \"core-2\"\nspeed = \"100G\"\nmembers = 2\nmtu = {}\n",
        if p.flawed { 1500 } else { 9216 }
    );
    for k in 0..pairs {
        for side in ["a", "b"] {
            let _ = writeln!(
                s,
                "[switches.acc{k}-{side}]\nmlag = \"pair{k}\"\nmtu = 9216\n{}{}\n",
                if p.flawed {
                    ""
                } else {
                    "host_ports = { edge = true, bpdu_guard = true }\n"
                },
                stp(32768, "")
            );
        }
        let _ = writeln!(
            s,
            "[[links]]\nname = \"pair{k}-peer\"\na = \"acc{k}-a\"\nb = \"acc{k}-b\"\nkind = \"peer-link\"\nspeed = \"100G\"\nmembers = 2\n"
        );
        for core in ["core-1", "core-2"] {
            let members = 2 + rng.below(2);
            let pruned = if p.flawed && k % 10 == 9 {
                "vlans = [10, 30, 100]\n"
            } else {
                ""
            };
            let _ = writeln!(
                s,
                "[[links]]\nname = \"pair{k}-{core}\"\na = \"{core}\"\nb = [\"acc{k}-a\", \"acc{k}-b\"]\nspeed = \"100G\"\nmembers = {members}\n{pruned}"
            );
        }
    }
    if p.flawed {
        s.push_str(
            &PROFILE
                .replace("card = \"slot2\"", "card = \"slot1\"")
                .replace("smb_bandwidth_limit = \"2000MB\"\n", "")
                .replace(
                    "power = \"max-performance\"\n",
                    "power = \"max-performance\"\nallow = { \"mtu-mismatch\" = \"jumbo rollout in progress\" }\n",
                ),
        );
    } else {
        s.push_str(PROFILE);
    }
    for h in 0..p.hosts {
        let pair = h / p.hosts_per_pair.max(1);
        let cluster = h / p.cluster_size.max(1);
        let s2 = if p.flawed && h % 5 == 4 {
            ", jumbo_packet = 1514"
        } else {
            ""
        };
        let _ = writeln!(
            s,
            "[hosts.hv{h:05}]\nprofile = \"node\"\ncluster = \"c{cluster}\"\nmemory_gb = {}\nnics.S1 = {{ switch = \"acc{pair}-a\" }}\nnics.S2 = {{ switch = \"acc{pair}-b\"{s2} }}\nnics.L1 = {{ switch = \"acc{pair}-a\" }}\nnics.L2 = {{ switch = \"acc{pair}-b\" }}\n",
            256 * (1 + rng.below(4))
        );
    }
    s
}

const PROFILE: &str = r#"[profiles.node]
power = "max-performance"

[profiles.node.nics.S1]
card = "slot1"
model = "Mellanox ConnectX-6 Lx"
speed = "25G"
jumbo_packet = 9014

[profiles.node.nics.S2]
card = "slot2"
model = "Mellanox ConnectX-6 Lx"
speed = "25G"
jumbo_packet = 9014

[profiles.node.nics.L1]
card = "lom"
speed = "1G"

[profiles.node.nics.L2]
card = "slot3"
speed = "1G"

[profiles.node.teams.Mgmt]
members = ["L1", "L2"]
mode = "switch-independent"
load_balancing = "dynamic"
networks = ["mgmt"]

[profiles.node.vswitches.Compute]
uplinks = ["S1", "S2"]
load_balancing = "hyperv-port"
networks = ["vm"]

[profiles.node.vswitches.Compute.vnics]
CSV = { network = "csv", mtu = 9000 }
LM = { network = "lm", mtu = 9000 }

[profiles.node.live_migration]
transport = "smb"
networks = ["lm", "csv"]
smb_bandwidth_limit = "2000MB"

"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_and_sized() {
        let a = generate(&Params::hosts(64));
        assert_eq!(a, generate(&Params::hosts(64)));
        assert_ne!(
            a,
            generate(&Params {
                seed: 2,
                ..Params::hosts(64)
            })
        );
        assert_eq!(a.matches("[hosts.").count(), 64);
        assert_eq!(a.matches("mlag = \"pair").count(), 32);
    }

    #[test]
    fn flawed_differs_only_by_its_mistakes() {
        let clean = generate(&Params::hosts(40));
        let flawed = generate(&Params {
            flawed: true,
            ..Params::hosts(40)
        });
        assert!(clean.contains("host_ports"));
        assert!(!flawed.contains("host_ports"));
        assert_eq!(flawed.matches("jumbo_packet = 1514").count(), 8);
        assert_eq!(flawed.matches("vlans = [10, 30, 100]").count(), 2);
        assert!(flawed.contains("allow = {"));
        assert!(!flawed.contains("smb_bandwidth_limit"));
    }
}
