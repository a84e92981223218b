//! Where a finding points: the line whose value differs for the hosts the
//! finding concerns. A finding caused by one host's override must lead the
//! user to that override, not to the profile line every host shares (which
//! becomes a related label); `docs/format.md` promises it.

use netlint_model::fast_hash::Map as HashMap;
use netlint_model::{Design, Diagnostic, Host, Label, NicIdx, Span};

/// The lines a finding involves, in the order the rule would point at them
/// when no host overrides any: the primary first.
pub(crate) struct Lines {
    lines: Vec<(Span, String)>,
}

impl Lines {
    pub fn new(span: Span, label: impl Into<String>) -> Self {
        Lines {
            lines: vec![(span, label.into())],
        }
    }

    /// Another line involved (a related label unless a host overrides it).
    pub fn and(mut self, span: Span, label: impl Into<String>) -> Self {
        self.lines.push((span, label.into()));
        self
    }

    /// The primary span and the related lines for a finding about `hosts`:
    /// the first line that one of them overrides is primary, the others
    /// (the profile's line first) follow in their order. Without an
    /// override the order is kept.
    pub fn for_hosts<'h>(
        mut self,
        hosts: impl IntoIterator<Item = &'h Host>,
    ) -> (Span, Vec<(Span, String)>) {
        let hosts: Vec<&Host> = hosts.into_iter().collect();
        if let Some(i) = self
            .lines
            .iter()
            .position(|(s, _)| hosts.iter().any(|h| h.overrides(*s)))
        {
            let line = self.lines.remove(i);
            self.lines.insert(0, line);
        }
        let mut lines = self.lines.into_iter();
        let (primary, _) = lines.next().expect("Lines holds at least one line");
        (primary, lines.collect())
    }
}

/// The label of a profile's shared line that an override displaced as
/// primary, when the rule has no better words for it.
pub(crate) fn profile_line(host: &Host) -> String {
    match &host.profile {
        Some(p) => format!("set in profile `{}` for every host built from it", p.value),
        None => format!("host `{}`", host.name),
    }
}

/// The speed lines of `nics` as related lines ("`X1` is 10G"): for findings
/// whose figures the adapters' speeds decide, so that one host's slower
/// adapter is among the lines [`AtOverride`] can point at.
pub(crate) fn speed_lines(host: &Host, nics: &[NicIdx]) -> Vec<(Span, String)> {
    nics.iter()
        .map(|n| {
            let nic = host.nic(*n);
            (
                nic.speed_span(),
                format!(
                    "`{}` is {}",
                    nic.name,
                    crate::phrases::words::speed_text(nic.known_speed())
                ),
            )
        })
        .collect()
}

/// The engine's pass over every rule's finding: a finding filed under a
/// host whose primary line is not that host's override while one of its
/// related lines is, points at that override instead, the former primary
/// becoming a related label. Rules that pick among several lines
/// themselves ([`Lines`]) are left as they are; this catches every other
/// rule, present and future.
pub(crate) struct AtOverride<'d> {
    /// Hosts by name, for finding the host of an element path.
    hosts: HashMap<&'d str, &'d Host>,
}

impl<'d> AtOverride<'d> {
    pub fn new(design: &'d Design) -> Self {
        AtOverride {
            hosts: design.hosts.iter().map(|h| (h.name.as_str(), h)).collect(),
        }
    }

    /// Moves the primary label of a finding about one host to that host's
    /// override among its related lines. A finding shared by several hosts
    /// keeps its shared line: an override is one host's line.
    pub fn apply(&self, mut d: Diagnostic) -> Diagnostic {
        let host = match d.hosts().as_slice() {
            [one] => self.hosts.get(one).copied(),
            _ => None,
        };
        let Some(host) = host else {
            return d;
        };
        let Some(primary) = d.primary.as_ref().map(|p| p.span) else {
            return d;
        };
        if host.overrides(primary) {
            return d;
        }
        let Some(i) = d.related.iter().position(|r| host.overrides(r.span)) else {
            return d;
        };
        let new = d.related.remove(i);
        let old = d
            .primary
            .replace(Label::new(new.span, ""))
            .expect("primary");
        let label = if old.message.is_empty() {
            profile_line(host)
        } else {
            old.message
        };
        d.related.insert(0, Label::new(old.span, label));
        d
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{line_of, line_where};
    use netlint_model::{load, SourceFile};

    const SRC: &str = r#"
[design]
name = "t"
[switches.sw]
[profiles.p.nics.A]
speed = "10G"
switch = "sw"
[hosts.h1]
profile = "p"
[hosts.h2]
profile = "p"
nics.A = { port = "e1/2" }
"#;

    #[test]
    fn the_override_of_a_concerned_host_is_primary() {
        let design = load(&SourceFile::new("t.toml", SRC)).design.unwrap();
        let (h1, h2) = (&design.hosts[0], &design.hosts[1]);
        let speed = h2.nics[0].speed_span();
        let port = h2.nics[0].port.as_ref().unwrap().span;
        let lines = || Lines::new(speed, "speed").and(port, "port");
        let (p, rel) = lines().for_hosts([h2]);
        assert_eq!(p, port);
        assert_eq!(rel, vec![(speed, "speed".to_string())]);
        // h1 does not override the port: the order stays.
        let (p, rel) = lines().for_hosts([h1]);
        assert_eq!(p, speed);
        assert_eq!(rel, vec![(port, "port".to_string())]);
    }

    /// One rule's finding about hv2, caused by hv2's override: the primary
    /// line is the override's line (which holds `marker`), the profile's
    /// line a related label.
    fn at_hv2_override(rule: &str, src: &str, marker: &str) {
        let f = crate::testing::findings(src, rule);
        let want = line_where(src, |l| l.contains(marker));
        assert_eq!(f.len(), 1, "{rule}: {f:#?}");
        assert!(f[0].element().starts_with("hosts.hv2"), "{rule}: {f:#?}");
        let p = f[0].primary.as_ref().unwrap().span;
        assert_eq!(
            line_of(src, p),
            want,
            "{rule}: primary not at the override: {:#?}",
            f[0]
        );
        let profile_line = src.find("[hosts.").unwrap();
        assert!(
            f[0].related.iter().any(|r| r.span.start < profile_line),
            "{rule}: no profile line among the related: {:#?}",
            f[0]
        );
    }

    /// Two hosts built from profile `p` with team `T` over NICs `A` and `B`;
    /// `TEAM` adds keys to the team, `HV2` is hv2's override.
    const TEAMED: &str = r#"
[design]
name = "t"
[switches.sw]
[switches.sw2]
[[links]]
a = "sw"
b = "sw2"
speed = "10G"
members = 2
[profiles.p.nics.A]
speed = "10G"
switch = "sw"
model = "Intel X710"
[profiles.p.nics.B]
speed = "10G"
switch = "sw"
model = "Intel X710"
[profiles.p.teams.T]
members = ["A", "B"]
TEAM
[hosts.hv1]
profile = "p"
[hosts.hv2]
profile = "p"
HV2
"#;

    fn teamed(team: &str, hv2: &str) -> String {
        TEAMED.replace("TEAM", team).replace("HV2", hv2)
    }

    #[test]
    fn team_lag_mismatch_points_at_the_hosts_mode() {
        let src = teamed(
            "mode = \"switch-independent\"\nswitch_lag = \"none\"",
            "teams.T = { mode = \"lacp\" }",
        );
        at_hv2_override("team-lag-mismatch", &src, "teams.T = { mode");
    }

    #[test]
    fn team_rx_single_member_points_at_the_hosts_mode() {
        let src = teamed(
            "mode = \"static\"\nload_balancing = \"address-hash\"\nswitch_lag = \"static\"",
            "teams.T = { mode = \"switch-independent\", switch_lag = \"none\" }",
        );
        at_hv2_override("team-rx-single-member", &src, "teams.T = { mode");
    }

    #[test]
    fn team_speed_mismatch_points_at_the_hosts_speed() {
        let src = teamed("", "nics.A = { speed = \"1G\" }");
        at_hv2_override("team-speed-mismatch", &src, "nics.A = { speed");
    }

    #[test]
    fn team_cross_switch_lag_points_at_the_hosts_cabling() {
        let src = teamed(
            "mode = \"lacp\"\nswitch_lag = \"lacp\"",
            "nics.B = { switch = \"sw2\" }",
        );
        at_hv2_override("team-cross-switch-lag", &src, "nics.B = { switch");
    }

    #[test]
    fn team_lbfo_vswitch_points_at_the_hosts_os() {
        let src = teamed("", "os = \"windows-server-2022\"").replace(
            "[hosts.hv1]",
            "[profiles.p.vswitches.V]\nuplinks = [\"T\"]\n[hosts.hv1]",
        );
        at_hv2_override("team-lbfo-vswitch", &src, "os = \"windows-server-2022\"");
    }

    #[test]
    fn team_member_identity_points_at_the_hosts_model() {
        let src = teamed("", "nics.A = { model = \"Broadcom 57414\" }")
            .replace("[profiles.p.teams.T]\nmembers = [\"A\", \"B\"]\n", "")
            .replace(
                "[hosts.hv1]",
                "[profiles.p.vswitches.S]\nuplinks = [\"A\", \"B\"]\n[hosts.hv1]",
            )
            .replace(
                "name = \"t\"",
                "name = \"t\"\nplatform = \"windows-server-2022\"",
            );
        at_hv2_override("team-member-identity", &src, "nics.A = { model");
    }

    #[test]
    fn vsphere_ip_hash_lag_points_at_the_hosts_cabling() {
        let src = r#"
[design]
name = "t"
platform = "vsphere-7"
[switches.a]
[switches.b]
[[links]]
a = "a"
b = "b"
speed = "10G"
members = 2
[profiles.esx.nics.vmnic0]
speed = "10G"
switch = "a"
[profiles.esx.nics.vmnic1]
speed = "10G"
switch = "a"
[profiles.esx.vswitches.vSwitch0]
uplinks = ["vmnic0", "vmnic1"]
load_balancing = "ip-hash"
[hosts.hv1]
profile = "esx"
[hosts.hv2]
profile = "esx"
nics.vmnic1 = { switch = "b" }
"#;
        at_hv2_override("vsphere-ip-hash-lag", src, "nics.vmnic1 = { switch");
    }

    #[test]
    fn qos_weight_sum_points_at_the_hosts_weight() {
        // The profile's weights add up to 90; hv2 raises one to 50.
        let src = r#"
[design]
name = "t"
platform = "windows-server-2019"
[networks.lm]
role = "live-migration"
vlan = 30
[networks.csv]
role = "csv"
vlan = 20
[switches.sw]
[profiles.p.nics.A]
speed = "10G"
switch = "sw"
[profiles.p.nics.B]
speed = "10G"
switch = "sw"
[profiles.p.vswitches.S]
uplinks = ["A", "B"]
[profiles.p.vswitches.S.vnics.LM]
network = "lm"
min_bandwidth_weight = 60
[profiles.p.vswitches.S.vnics.CSV]
network = "csv"
min_bandwidth_weight = 30
[hosts.hv1]
profile = "p"
[hosts.hv2]
profile = "p"
vswitches.S.vnics.CSV = { min_bandwidth_weight = 50 }
"#;
        at_hv2_override("qos-weight-sum", src, "min_bandwidth_weight = 50");
        let f = crate::testing::findings(src, &crate::rules::traffic::qos_weight_sum::RULE);
        // The former primary keeps its own label.
        assert!(
            f[0].related
                .iter()
                .any(|r| r.message == "vNIC `LM`: weight 60, the largest"),
            "{:#?}",
            f[0].related
        );
    }

    #[test]
    fn smb_bandwidth_cap_degraded_points_at_the_hosts_slower_adapter() {
        // 8 Gb/s fits what one 10G adapter leaves; hv2's second adapter is
        // 1G, so losing the first leaves 1 Gb/s.
        let src = r#"
[design]
name = "t"
platform = "windows-server-2016"
[networks.smb1]
role = "storage"
protocol = "smb"
vlan = 711
[networks.smb2]
role = "storage"
protocol = "smb"
vlan = 712
[switches.a]
[switches.b]
[profiles.p.nics.N1]
speed = "10G"
switch = "a"
networks = ["smb1"]
[profiles.p.nics.N2]
speed = "10G"
switch = "b"
networks = ["smb2"]
[profiles.p.live_migration]
transport = "smb"
networks = ["smb1", "smb2"]
smb_bandwidth_limit = "8Gbps"
[hosts.hv1]
profile = "p"
[hosts.hv2]
profile = "p"
nics.N2 = { speed = "1G" }
"#;
        at_hv2_override("smb-bandwidth-cap-degraded", src, "nics.N2 = { speed");
    }

    #[test]
    fn lm_drain_time_points_at_the_hosts_slower_adapter() {
        // 128 GiB over SMB on 2 x 10G: one adapter down leaves 10 Gb/s, in
        // budget; hv2's second adapter is 1G.
        let src = r#"
[design]
name = "t"
platform = "windows-server-2016"
drain_budget = "10m"
[networks.lm]
role = "live-migration"
vlan = 30
[networks.csv]
role = "csv"
vlan = 20
[switches.sw]
[profiles.p]
memory_gb = 128
[profiles.p.nics.X1]
speed = "10G"
switch = "sw"
networks = ["lm"]
[profiles.p.nics.X2]
speed = "10G"
switch = "sw"
networks = ["csv"]
[profiles.p.live_migration]
transport = "smb"
networks = ["lm", "csv"]
[hosts.hv1]
profile = "p"
[hosts.hv2]
profile = "p"
nics.X2 = { speed = "1G" }
"#;
        at_hv2_override("lm-drain-time", src, "nics.X2 = { speed");
    }

    #[test]
    fn dcb_priority_mismatch_points_at_the_hosts_pfc() {
        let src = r#"
[design]
name = "t"
platform = "windows-server-2019"
[networks.smb1]
role = "storage"
protocol = "smb"
vlan = 711
[switches.tor]
dcb = { pfc = [3], ets = { 3 = 50, 7 = 1 } }
[profiles.p.nics.N1]
speed = "25G"
switch = "tor"
rdma = "roce-v2"
networks = ["smb1"]
[profiles.p.dcb]
willing = false
pfc = [3]
ets = { 3 = 50, 7 = 1 }
policies = [{ name = "SMB", match = "smb-direct", priority = 3 }]
[hosts.hv1]
profile = "p"
[hosts.hv2]
profile = "p"
dcb = { pfc = [4] }
"#;
        at_hv2_override("dcb-priority-mismatch", src, "dcb = { pfc = [4] }");
    }

    #[test]
    fn dcb_cluster_class_points_at_the_hosts_policy() {
        // hv2 moved the cluster class onto the lossless SMB priority.
        let src = r#"
[design]
name = "t"
platform = "windows-server-2019"
[switches.tor]
[profiles.p.nics.N1]
speed = "25G"
switch = "tor"
[profiles.p.dcb]
willing = false
pfc = [3]
ets = { 7 = 1 }
policies = [{ name = "Cluster", match = "cluster", priority = 7 }]
[hosts.hv1]
profile = "p"
[hosts.hv2]
profile = "p"
dcb = { policies = [{ name = "Cluster", match = "cluster", priority = 3 }] }
"#;
        at_hv2_override("dcb-cluster-class", src, "dcb = { policies");
    }

    #[test]
    fn spof_switch_points_at_the_hosts_cabling() {
        // The profile's SET switch spans both switches; hv2 cabled its
        // second member to the first switch too.
        let src = r#"
[design]
name = "t"
platform = "windows-server-2022"
[networks.vm]
role = "vm"
vlan = 100
[switches.tor-a]
[switches.tor-b]
[[links]]
a = "tor-a"
b = "tor-b"
speed = "25G"
members = 2
[profiles.p.nics.A]
speed = "25G"
switch = "tor-a"
[profiles.p.nics.B]
speed = "25G"
switch = "tor-b"
[profiles.p.vswitches.S]
uplinks = ["A", "B"]
networks = ["vm"]
[hosts.hv1]
profile = "p"
[hosts.hv2]
profile = "p"
nics.B = { switch = "tor-a" }
"#;
        at_hv2_override("spof-switch", src, "nics.B = { switch");
    }
}
