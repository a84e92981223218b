//! `netlint schema`: the JSON Schema (draft-07, the draft Taplo and Even
//! Better TOML read) of the design format, for completion, hover help and
//! validation while a design is written.
//!
//! The schema is generated from one table, [`objects`]: every table of the
//! format with its keys, their types and descriptions (taken from the
//! format reference). The values it cannot restate come from the model
//! itself: enumerations are the model's `NAMES` (and the per-context subsets
//! such as `LoadBalancing::TEAM`), MTU limits are `units::MIN_MTU` and
//! friends, rule ids and summaries come from the registry.
//!
//! What keeps the table and the loader from drifting is a differential test
//! (`tests/cli_schema.rs`): for every object it opens the table in a design
//! (the object's `probe`) and asks the loader itself which keys it takes
//! (the help of its unknown-key error), which keys it requires, which values
//! each enumeration takes, and which integers are in range, and compares
//! each answer with this table; and every fixture and reference design that
//! loads must validate against the schema. The loader's key lists stay
//! private to it and are never copied here by hand without that check.
//!
//! The document is written by a small serializer of its own so that key
//! order (and so the committed `netlint.schema.json`) does not depend on
//! whether some crate in the build turns on serde_json's `preserve_order`.

use netlint_model::units::{JUMBO_PACKET_HEADER, MAX_FRAME, MAX_MTU, MIN_MTU};
use netlint_model::{
    ClusterUse, FailOn, LagMode, Level, LinkKind, LoadBalancing, PathCost, Platform, PolicyMatch,
    Power, Protocol, Rdma, Role, StorageKind, StpMode, SwitchLag, TeamKind, TeamMode, Tier,
    Transport, VSwitchKind, SCHEMA, SYNTAX,
};
use std::fmt::Write as _;
use std::io::Write;

/// Where the committed copy lives, relative to the repository root.
pub const COMMITTED_FILE: &str = "netlint.schema.json";

/// A JSON value with object keys in insertion order.
#[derive(Clone, Debug, PartialEq)]
pub enum J {
    Bool(bool),
    Int(i64),
    Str(String),
    Arr(Vec<J>),
    Obj(Vec<(String, J)>),
}

impl J {
    pub(crate) fn obj() -> J {
        J::Obj(Vec::new())
    }
    pub(crate) fn s(s: &str) -> J {
        J::Str(s.to_string())
    }
    pub(crate) fn strs(items: &[&str]) -> J {
        J::Arr(items.iter().map(|s| J::s(s)).collect())
    }
    /// Adds a key (builder style).
    pub(crate) fn with(mut self, key: &str, value: J) -> J {
        if let J::Obj(entries) = &mut self {
            entries.push((key.to_string(), value));
        }
        self
    }

    fn write(&self, out: &mut String, indent: usize) {
        let pad = |n: usize| "  ".repeat(n);
        match self {
            J::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            J::Int(n) => {
                let _ = write!(out, "{n}");
            }
            J::Str(s) => out.push_str(&serde_json::to_string(s).expect("a string serialises")),
            J::Arr(items) if items.is_empty() => out.push_str("[]"),
            J::Arr(items) => {
                out.push_str("[\n");
                for (i, item) in items.iter().enumerate() {
                    out.push_str(&pad(indent + 1));
                    item.write(out, indent + 1);
                    out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
                }
                out.push_str(&pad(indent));
                out.push(']');
            }
            J::Obj(entries) if entries.is_empty() => out.push_str("{}"),
            J::Obj(entries) => {
                out.push_str("{\n");
                for (i, (k, v)) in entries.iter().enumerate() {
                    out.push_str(&pad(indent + 1));
                    out.push_str(&serde_json::to_string(k).expect("a key serialises"));
                    out.push_str(": ");
                    v.write(out, indent + 1);
                    out.push_str(if i + 1 < entries.len() { ",\n" } else { "\n" });
                }
                out.push_str(&pad(indent));
                out.push('}');
            }
        }
    }

    /// Pretty-printed with two spaces, as serde_json does, and a final newline.
    pub fn to_pretty(&self) -> String {
        let mut s = String::new();
        self.write(&mut s, 0);
        s.push('\n');
        s
    }
}

/// The type of a key's value.
#[derive(Clone, Debug)]
pub enum Ty {
    Str,
    Bool,
    /// `true`, `false`, or `"unknown"` (a value an import could not read).
    BoolOrUnknown,
    /// An integer in `min..=max`, optionally a multiple of `step`.
    Int {
        min: i64,
        max: i64,
        step: Option<i64>,
    },
    /// An integer or decimal number above zero, at most `max`.
    PositiveNumber {
        max: i64,
    },
    /// One of these strings.
    Enum(&'static [&'static str]),
    /// A string matching an ECMA 262 regular expression (a superset of what
    /// the loader takes where the exact rule, say a range, is not a regex).
    Pattern(&'static str),
    /// A list of names (references), each once.
    Names,
    /// The same, with at least one name.
    NonEmptyNames,
    /// A name, or a non-empty list of names.
    NameOrNames,
    /// VLAN ids and `"a-b"` ranges.
    VlanList,
    /// 802.1p priorities, each once.
    Priorities,
    /// `{ priority = percent }`.
    Ets,
    /// `{ instance = value }` for MSTP instances.
    Instances(Box<Ty>),
    /// `{ "10,30-32" = value }`: keyed by VLAN lists.
    VlanKeyed(Box<Ty>),
    /// A port cost, or a cost per MSTP instance.
    StpCost,
    /// An MTU, or an MTU per switch: `{ "tor-a" = 9216 }`.
    MtuPerSwitch,
    /// A reference to another object of the table.
    Ref(&'static str),
    /// Named elements: `{ name = object }`.
    MapOf(&'static str),
    /// `[[array]]` of objects.
    ArrayOf(&'static str),
    /// `allow = { rule-id = "reason" }`.
    Allow,
    /// `[netlint] rules = { rule-id = level }`.
    RuleLevels,
}

#[derive(Clone, Debug)]
pub struct Field {
    pub key: &'static str,
    pub ty: Ty,
    pub description: &'static str,
}

/// One table of the format.
#[derive(Clone, Debug)]
pub struct Object {
    /// Name under `definitions`.
    pub name: &'static str,
    pub description: &'static str,
    /// TOML that opens this table in a design (for the differential test);
    /// keys appended after it land in this table.
    pub probe: &'static str,
    pub fields: Vec<Field>,
    /// Keys that must be present.
    pub required: &'static [&'static str],
    /// Keys that must be present on a host written without a profile (a
    /// profile may provide them, a host may override them one by one).
    pub required_without_profile: &'static [&'static str],
    /// Alternative spellings of one value: at most one of each group.
    pub exclusive: &'static [&'static [&'static str]],
}

fn f(key: &'static str, ty: Ty, description: &'static str) -> Field {
    Field {
        key,
        ty,
        description,
    }
}

const MTU_DOC: &str = "The largest Ethernet payload (= the largest IP packet) in bytes: 1500 standard, 9000 typical jumbo (default 1500). On vSphere a vmnic runs its virtual switch's MTU: leave it out; another value than the switch's is an error.";
const ALLOW_DOC: &str = "`allow = { rule-id = \"reason\" }`: the rule does not report on this element or anything inside it. A reason is required.";
const SPEED: &str = r"^\s*([0-9]+\.?[0-9]*|\.[0-9]+)\s*([gGmMtT]([bB]([eE]|[pP][sS]|[iI][tT](/[sS])?|/[sS])?)?)\s*$";
const DURATION: &str = r"^\s*([0-9]+[hms])+\s*$";
const BANDWIDTH: &str = r"^\s*([0-9]+\.?[0-9]*|\.[0-9]+)\s*(B|[kK]B|MB|GB|TB|[kKmMgGtT][bB]([pP][sS]|/[sS])|[kKmMgGtT][bB][iI][tT]/[sS])?\s*$";
const SUBNET: &str = r"^\s*[0-9A-Fa-f:.]+\s*/\s*[0-9]{1,3}\s*$";
const VLAN_KEY: &str =
    r"^\s*[0-9]{1,4}(\s*-\s*[0-9]{1,4})?(\s*,\s*[0-9]{1,4}(\s*-\s*[0-9]{1,4})?)*\s*$";
const MAC: &str = r"^[0-9A-Fa-f]{2}([:-][0-9A-Fa-f]{2}){5}$";

fn mtu() -> Ty {
    Ty::Int {
        min: MIN_MTU as i64,
        max: MAX_MTU as i64,
        step: None,
    }
}

fn int(min: i64, max: i64) -> Ty {
    Ty::Int {
        min,
        max,
        step: None,
    }
}

fn host_fields(with_profile: bool) -> Vec<Field> {
    let mut v = Vec::new();
    if with_profile {
        v.push(f("profile", Ty::Str, "The profile this host is built from: its keys are merged onto the host's, key by key, and the host overrides what differs."));
    }
    v.extend([
        f("os", Ty::Enum(Platform::NAMES), "Operating system / hypervisor of the host (default: `[design] platform`)."),
        f("memory_gb", Ty::PositiveNumber { max: netlint_model::MAX_MEMORY_GB as i64 }, "Memory moved when the host is drained (VM memory), in GiB."),
        f("power", Ty::Enum(Power::NAMES), "Power profile of the host (default `unknown`)."),
        f("cluster", Ty::Str, "Splits one file into several clusters sharing switches; reachability is checked between hosts of the same cluster."),
        f("nics", Ty::MapOf("nic"), "Physical NICs, by name."),
        f("teams", Ty::MapOf("team"), "LBFO or vendor teams, by name."),
        f("vswitches", Ty::MapOf("vswitch"), "Virtual switches (vSphere: vSS / vDS), by name."),
        f("live_migration", Ty::Ref("live_migration"), "Live migration settings."),
        f("dcb", Ty::Ref("host_dcb"), "Data Center Bridging on the host: DCBX, PFC, ETS and QoS policies."),
        f("allow", Ty::Allow, ALLOW_DOC),
    ]);
    v
}

/// Every table of the format, the root first.
pub fn objects() -> Vec<Object> {
    vec![
        Object {
            name: "root",
            description: "A netlint design: one failover cluster's network (networks, switches, links, hosts).",
            probe: "",
            fields: vec![
                f("design", Ty::Ref("design"), "The design's name and default platform."),
                f("networks", Ty::MapOf("network"), "Logical networks, by name."),
                f("switches", Ty::MapOf("switch"), "Physical switches, by name."),
                f("links", Ty::ArrayOf("link"), "Cables and LAGs between switches."),
                f("profiles", Ty::MapOf("profile"), "Host builds shared by cluster nodes, by name."),
                f("hosts", Ty::MapOf("host"), "Cluster nodes, by name."),
                f("storage", Ty::MapOf("storage"), "Storage targets (iSCSI arrays, SMB file servers, NFS filers), by name."),
                f("netlint", Ty::Ref("netlint"), "Lint settings for this design (over those of the nearest netlint.toml)."),
            ],
            required: &["design"],
            required_without_profile: &[],
            exclusive: &[],
        },
        Object {
            name: "design",
            description: "`[design]`: the design's name and the default platform of its hosts.",
            probe: "[design]\n",
            fields: vec![
                f("name", Ty::Str, "The design's name."),
                f("platform", Ty::Enum(Platform::NAMES), "Default OS of every host (default windows-server-2019)."),
                f("drain_budget", Ty::Pattern(DURATION), "How long draining one host may take: \"90s\", \"5m\", \"1h30m\"."),
            ],
            required: &["name"],
            required_without_profile: &[],
            exclusive: &[],
        },
        Object {
            name: "network",
            description: "`[networks.NAME]`: a logical network.",
            probe: "[networks.n]\n",
            fields: vec![
                f("role", Ty::Enum(Role::NAMES), "What the network carries; decides the redundancy it needs."),
                f("vlan", int(0, 4094), "VLAN id 1 to 4094; 0 or absent = untagged."),
                f("subnet", Ty::Pattern(SUBNET), "IPv4 or IPv6 prefix, like \"10.0.20.0/24\"."),
                f("mtu", mtu(), "Intended MTU of the network (default 1500). The largest Ethernet payload in bytes."),
                f("protocol", Ty::Enum(Protocol::NAMES), "Storage networks only: the storage protocol."),
                f("cluster_use", Ty::Enum(ClusterUse::NAMES), "Cluster use; default by role: cluster-and-client for management, cluster for cluster, csv, live-migration and SMB storage, none otherwise."),
                f("allow", Ty::Allow, ALLOW_DOC),
            ],
            required: &["role"],
            required_without_profile: &[],
            exclusive: &[],
        },
        Object {
            name: "switch",
            description: "`[switches.NAME]`: a physical switch.",
            probe: "[switches.s]\n",
            fields: vec![
                f("model", Ty::Str, "Free text."),
                f("tier", Ty::Enum(Tier::NAMES), "Place in the network (default access)."),
                f("mtu", mtu(), "Largest payload the switch forwards, already allowing for an 802.1Q tag (default 1500, the factory default of most switches)."),
                f("frame_size", int((MIN_MTU + 18) as i64, MAX_FRAME as i64), "Instead of `mtu`: the largest frame forwarded, counting the 14-byte header and 4-byte FCS but not an 802.1Q tag (9018 carries an untagged 9000-byte packet, not a tagged one)."),
                f("vlans", Ty::VlanList, "VLANs defined on the switch; absent = every VLAN the design uses."),
                f("stack", Ty::Str, "Switches sharing a stack name are one logical switch."),
                f("mlag", Ty::Str, "MLAG / vPC / VLT domain: peers can terminate one LAG together."),
                f("host_ports", Ty::Ref("host_ports"), "How the ports facing hosts are configured."),
                f("stp", Ty::Ref("stp"), "Spanning tree settings."),
                f("dcb", Ty::Ref("switch_dcb"), "Data Center Bridging on the switch."),
                f("max_mtu", mtu(), "The largest `mtu` the switch takes (default: from `model` when netlint's table knows it, else 9216). A larger MTU on the switch or its links is an error, and fixes never advise more."),
                f("managed", Ty::Bool, "false: a device known only from cabling (a router, firewall or BMC switch): opaque, it bridges none of the fabric's VLANs and runs no spanning tree; it then takes no switching settings (default true)."),
                f("ports", Ty::MapOf("switch_port"), "Ports configured one by one, by the switch's name for them (`\"Ethernet1/5\"`), where `host_ports` does not fit."),
                f("allow", Ty::Allow, ALLOW_DOC),
            ],
            required: &[],
            required_without_profile: &[],
            exclusive: &[&["mtu", "frame_size"]],
        },
        Object {
            name: "host_ports",
            description: "How a switch's ports facing hosts are configured.",
            probe: "[switches.s.host_ports]\n",
            fields: vec![
                f("edge", Ty::Bool, "Ports are edge (portfast) ports."),
                f("bpdu_guard", Ty::Bool, "BPDU guard is on."),
                f("native_vlan", int(1, 4094), "The VLAN the hosts' untagged frames belong to (default: the switch's, VLAN 1, left as the design's untagged segment)."),
            ],
            required: &[],
            required_without_profile: &[],
            exclusive: &[],
        },
        Object {
            name: "switch_port",
            description: "`[switches.NAME.ports.\"PORT\"]`: one switch port configured on its own; what it leaves out comes from the switch's `host_ports` (for a host-facing port) or the switch.",
            probe: "[switches.s.ports.p]\n",
            fields: vec![
                f("vlans", Ty::VlanList, "Allowed VLANs of the trunk; absent = every VLAN the switch defines."),
                f("native_vlan", int(1, 4094), "The VLAN untagged frames belong to on this trunk."),
                f("access_vlan", int(1, 4094), "An access port in this VLAN: it carries that VLAN untagged and drops tagged frames."),
                f("mtu", mtu(), "Largest payload the port forwards (default: the switch's)."),
                f("frame_size", int((MIN_MTU + 18) as i64, MAX_FRAME as i64), "Instead of `mtu`: the largest frame, counting header and FCS but not an 802.1Q tag."),
                f("edge", Ty::Bool, "An edge (portfast) port."),
                f("bpdu_guard", Ty::Bool, "BPDU guard is on."),
                f("root_guard", Ty::Bool, "Root guard is on."),
                f("bpdu_filter", Ty::Bool, "BPDU filter is on: the port neither sends nor receives BPDUs."),
                f("pfc", Ty::Bool, "false: priority flow control is off on this port, so the switch's `dcb.pfc` priorities pause nothing here (OS10 without `priority-flow-control mode on`); default: the switch's."),
                f("lag", Ty::Enum(SwitchLag::NAMES), "The port's port-channel: lacp, static (`channel-group mode on`) or none."),
            ],
            required: &[],
            required_without_profile: &[],
            exclusive: &[&["mtu", "frame_size"], &["access_vlan", "vlans"], &["access_vlan", "native_vlan"]],
        },
        Object {
            name: "stp",
            description: "`[switches.NAME.stp]`: spanning tree.",
            probe: "[switches.s.stp]\n",
            fields: vec![
                f("mode", Ty::Enum(StpMode::NAMES), "Spanning tree protocol (default rstp)."),
                f("priority", Ty::Int { min: 0, max: 61440, step: Some(4096) }, "Bridge priority, 0 to 61440 in steps of 4096 (default 32768)."),
                f("mac", Ty::Pattern(MAC), "Bridge MAC address, breaks priority ties: \"00:1e:c9:00:00:0a\"."),
                f("region", Ty::Str, "MSTP region name."),
                f("revision", int(0, 65535), "MSTP revision number."),
                f("instances", Ty::Instances(Box::new(Ty::VlanList)), "MSTP instance -> VLANs; unlisted VLANs are in instance 0 (the IST)."),
                f("instance_priority", Ty::Instances(Box::new(Ty::Int { min: 0, max: 61440, step: Some(4096) })), "Bridge priority per MSTP instance (default: `priority`). MSTP only."),
                f("vlan_priority", Ty::VlanKeyed(Box::new(Ty::Int { min: 0, max: 61440, step: Some(4096) })), "PVST+ bridge priority per VLAN list: `{ \"10,30,50\" = 4096, \"20-22\" = 8192 }` (default: `priority`). PVST / rapid-PVST only."),
                f("path_cost", Ty::Enum(PathCost::NAMES), "Default port cost table: short (802.1D-1998: 10G = 2) or long (802.1t: 10G = 2000). Default: short for stp and Cisco PVST+ / rapid-PVST+, long otherwise."),
                f("disabled_vlans", Ty::VlanList, "PVST / rapid-PVST: VLANs with spanning tree off (`no spanning-tree vlan N`), forwarded on every port; not VLAN 1."),
                f("peer_switch", Ty::Bool, "On an MLAG / vPC peer: vPC peer-switch (the pair is one bridge). `false` is not modelled and rejected."),
            ],
            required: &[],
            required_without_profile: &[],
            exclusive: &[],
        },
        Object {
            name: "switch_dcb",
            description: "`[switches.NAME.dcb]`: Data Center Bridging on a switch.",
            probe: "[switches.s.dcb]\n",
            fields: vec![
                f("pfc", Ty::Priorities, "802.1p priorities with priority flow control enabled."),
                f("ets", Ty::Ets, "ETS bandwidth percent per 802.1p priority: `{ 3 = 50, 7 = 1 }`."),
            ],
            required: &[],
            required_without_profile: &[],
            exclusive: &[],
        },
        Object {
            name: "link",
            description: "`[[links]]`: a cable, or a bundle of cables, between switches.",
            probe: "[[links]]\n",
            fields: vec![
                f("name", Ty::Str, "Name of the link (default \"A--B\"); needed when two links join the same switches."),
                f("a", Ty::NameOrNames, "One end: a switch, or a list of switches sharing a stack or MLAG domain (with a list at `b` too: a double-sided multi-chassis LAG between two MLAG domains)."),
                f("b", Ty::NameOrNames, "The other end: a switch, or a list of switches sharing a stack or MLAG domain for a multi-chassis LAG."),
                f("speed", Ty::Pattern(SPEED), "Speed per member: \"1G\", \"10G\", \"25G\", \"100M\". Absent: unknown (never guessed; `speed-unknown` names the checks it stops)."),
                f("members", int(1, 64), "Cables in this link (default 1)."),
                f("lag", Ty::Enum(LagMode::NAMES), "How the members are bundled (default lacp when members > 1); none with members > 1 = parallel independent links."),
                f("lag_a", Ty::Enum(LagMode::NAMES), "How the `a` end bundles the cables, when the ends differ (with `lag_b`; ends that cannot bundle form no bundle: the link is taken as `none`)."),
                f("lag_b", Ty::Enum(LagMode::NAMES), "How the `b` end(s) bundle the cables, when the ends differ (with `lag_a`)."),
                f("kind", Ty::Enum(LinkKind::NAMES), "ethernet, stack (a stacking cable), peer-link (an MLAG peer link) or routed (a layer-3 link: no VLANs, no spanning tree)."),
                f("vlans", Ty::VlanList, "Allowed VLANs; absent = all VLANs both ends define."),
                f("vlans_a", Ty::VlanList, "Allowed VLANs of the `a` end, when the ends differ (with `vlans_b`; the link carries the VLANs both allow)."),
                f("vlans_b", Ty::VlanList, "Allowed VLANs of the `b` end(s), when the ends differ (with `vlans_a`)."),
                f("stp_cost", Ty::StpCost, "Port cost override, or per MSTP instance: `{ 0 = 2000, 1 = 20000 }`."),
                f("mtu", mtu(), "MTU of the link (default: the smaller of the two switches)."),
                f("frame_size", int((MIN_MTU + 18) as i64, MAX_FRAME as i64), "Instead of `mtu`: the largest frame, counting header and FCS but not an 802.1Q tag."),
                f("mtu_a", Ty::MtuPerSwitch, "MTU of the `a` end, when the ends differ: a number, or a table by switch for the peers of a multi-chassis end (the link carries the smallest)."),
                f("mtu_b", Ty::MtuPerSwitch, "MTU of the `b` end(s), when the ends differ: a number, or a table by switch (`{ \"tor-a\" = 9216, \"tor-b\" = 1500 }`)."),
                f("native_vlan", int(1, 4094), "Native (untagged) VLAN at both ends (default: VLAN 1, or the named ports' own)."),
                f("native_vlan_a", int(1, 4094), "Native VLAN at the `a` end."),
                f("native_vlan_b", int(1, 4094), "Native VLAN at the `b` end (every switch of a multi-chassis LAG)."),
                f("port_a", Ty::Str, "The port of switch `a` this link uses, configured under its `ports`."),
                f("port_b", Ty::Str, "The port of the `b` switch (of each, for a multi-chassis LAG) this link uses, configured under its `ports`."),
                f("allow", Ty::Allow, ALLOW_DOC),
            ],
            required: &["a", "b"],
            required_without_profile: &[],
            exclusive: &[&["mtu", "frame_size"], &["native_vlan", "native_vlan_a"], &["native_vlan", "native_vlan_b"], &["vlans", "vlans_a"], &["vlans", "vlans_b"], &["lag", "lag_a"], &["lag", "lag_b"], &["mtu", "mtu_a"], &["mtu", "mtu_b"], &["frame_size", "mtu_a"], &["frame_size", "mtu_b"]],
        },
        Object {
            name: "profile",
            description: "`[profiles.NAME]`: a host build shared by cluster nodes; a host names it and overrides what differs.",
            probe: "[profiles.p]\n",
            fields: host_fields(false),
            required: &[],
            required_without_profile: &[],
            exclusive: &[],
        },
        Object {
            name: "host",
            description: "`[hosts.NAME]`: a cluster node, written in full or as a profile plus overrides.",
            probe: "[hosts.h]\n",
            fields: host_fields(true),
            required: &[],
            required_without_profile: &[],
            exclusive: &[],
        },
        Object {
            name: "nic",
            description: "A physical NIC of a host.",
            probe: "[hosts.h.nics.n]\n",
            fields: vec![
                f("card", Ty::Str, "Physical adapter: NICs on one card fail together (default: the NIC itself)."),
                f("model", Ty::Str, "Adapter model, free text."),
                f("speed", Ty::Pattern(SPEED), "Link speed: \"1G\", \"10G\", \"25G\", \"100M\". Absent: unknown (never guessed; `speed-unknown` names the checks it stops)."),
                f("switch", Ty::Str, "The switch this NIC is cabled to; absent = not connected."),
                f("port", Ty::Str, "The switch port, free text; when it names a port configured under the switch's `ports`, that port."),
                f("switch_port", Ty::Str, "The port configured under `ports` of its switch that this NIC is cabled to."),
                f("peer", Ty::Str, "Instead of `switch`: a direct cable to another host's NIC, \"host:NIC\" (switchless storage)."),
                f("mtu", mtu(), MTU_DOC),
                f("jumbo_packet", int((MIN_MTU + JUMBO_PACKET_HEADER) as i64, (MAX_MTU + JUMBO_PACKET_HEADER) as i64), "Instead of `mtu`: the Windows \"Jumbo Packet\" property, which counts the 14-byte header (9014 = MTU 9000)."),
                f("rdma", Ty::Enum(Rdma::NAMES), "RDMA on this NIC (default none)."),
                f("networks", Ty::Names, "Networks whose host IP interface sits directly on this NIC."),
                f("allow", Ty::Allow, ALLOW_DOC),
            ],
            required: &[],
            required_without_profile: &[],
            exclusive: &[&["mtu", "jumbo_packet"], &["switch", "peer"]],
        },
        Object {
            name: "team",
            description: "An LBFO or vendor team of NICs.",
            probe: "[hosts.h.teams.t]\n",
            fields: vec![
                f("kind", Ty::Enum(TeamKind::NAMES), "Teaming technology (default lbfo)."),
                f("members", Ty::NonEmptyNames, "The member NICs (at least one)."),
                f("mode", Ty::Enum(TeamMode::NAMES), "Teaming mode (default switch-independent)."),
                f("load_balancing", Ty::Enum(LoadBalancing::TEAM), "Load balancing (default dynamic)."),
                f("standby", Ty::Str, "A member kept on standby."),
                f("switch_lag", Ty::Enum(SwitchLag::NAMES), "How the switch ports of the members are set up; absent = not stated."),
                f("networks", Ty::Names, "Networks on team interfaces directly."),
                f("mtu", mtu(), "MTU of the team interface (default: the members')."),
                f("allow", Ty::Allow, ALLOW_DOC),
            ],
            required: &[],
            required_without_profile: &["members"],
            exclusive: &[],
        },
        Object {
            name: "vswitch",
            description: "A virtual switch (Hyper-V; vSphere standard or distributed switch).",
            probe: "[hosts.h.vswitches.v]\n",
            fields: vec![
                f("kind", Ty::Enum(VSwitchKind::NAMES), "vSphere only: standard (vss) or distributed (vds) switch."),
                f("uplinks", Ty::Names, "One team or NIC; two or more NICs = Switch Embedded Teaming (SET)."),
                f("load_balancing", Ty::Enum(vswitch_load_balancing()), "By the host's platform: Windows (SET) hyperv-port or dynamic; vSphere originating-port (default), source-mac, ip-hash, physical-nic-load (vDS only), explicit-failover, lacp (vDS only)."),
                f("networks", Ty::Names, "Guest networks carried for VMs."),
                f("mtu", mtu(), "MTU of the switch (default: the smallest MTU of its uplinks). On vSphere also the MTU of its vmnics."),
                f("default_flow_weight", int(0, 100), "Hyper-V QoS weight for unclassified traffic."),
                f("vnics", Ty::MapOf("vnic"), "Management-OS vNICs (vSphere: vmkernel ports), by name."),
                f("switch_lag", Ty::Enum(SwitchLag::NAMES), "How the switch ports of its NIC uplinks are bundled: lacp, static or none; absent = not stated. On a team uplink, state it on the team."),
                f("allow", Ty::Allow, ALLOW_DOC),
            ],
            required: &[],
            required_without_profile: &["uplinks"],
            exclusive: &[],
        },
        Object {
            name: "vnic",
            description: "A management-OS vNIC (vSphere: a vmkernel port).",
            probe: "[hosts.h.vswitches.v.vnics.x]\n",
            fields: vec![
                f("network", Ty::Str, "The network this vNIC is on."),
                f("mtu", mtu(), "MTU of the vNIC (default 1500)."),
                f("rdma", Ty::Bool, "vRDMA on a SET switch."),
                f("min_bandwidth_weight", int(0, 100), "Hyper-V QoS minimum bandwidth weight."),
                f("active_uplinks", Ty::Names, "Pin to these uplinks (vSphere active/standby, SET affinity)."),
                f("standby_uplinks", Ty::Names, "vSphere: standby uplinks."),
                f("iscsi_port_binding", Ty::Bool, "vSphere: bound to the software iSCSI adapter."),
                f("allow", Ty::Allow, ALLOW_DOC),
            ],
            required: &[],
            required_without_profile: &["network"],
            exclusive: &[],
        },
        Object {
            name: "live_migration",
            description: "Live migration settings of a host.",
            probe: "[hosts.h.live_migration]\n",
            fields: vec![
                f("transport", Ty::Enum(Transport::NAMES), "Transport (default tcp; vSphere: tcp)."),
                f("networks", Ty::Names, "Networks for live migration, in preference order."),
                f("simultaneous", int(1, 64), "Simultaneous live migrations."),
                f("smb_bandwidth_limit", Ty::Pattern(BANDWIDTH), "Set-SmbBandwidthLimit -Category LiveMigration: \"1250MB\" (PowerShell units) or \"8Gbps\"; absent = none."),
            ],
            required: &[],
            required_without_profile: &[],
            exclusive: &[],
        },
        Object {
            name: "host_dcb",
            description: "Data Center Bridging on a host.",
            probe: "[hosts.h.dcb]\n",
            fields: vec![
                f("willing", Ty::BoolOrUnknown, "DCBX willing bit; \"unknown\" when an import could not read it (then not judged)."),
                f("pfc", Ty::Priorities, "802.1p priorities with PFC on the host."),
                f("ets", Ty::Ets, "ETS bandwidth percent per 802.1p priority."),
                f("policies", Ty::ArrayOf("dcb_policy"), "QoS policies mapping traffic to priorities."),
            ],
            required: &[],
            required_without_profile: &[],
            exclusive: &[],
        },
        Object {
            name: "dcb_policy",
            description: "A QoS policy: traffic it matches, and the 802.1p priority it gets.",
            probe: "[[hosts.h.dcb.policies]]\n",
            fields: vec![
                f("name", Ty::Str, "Policy name."),
                f("match", Ty::Enum(PolicyMatch::NAMES), "Traffic the policy matches."),
                f("priority", int(0, 7), "802.1p priority, 0 to 7."),
            ],
            required: &["name", "match", "priority"],
            required_without_profile: &[],
            exclusive: &[],
        },
        Object {
            name: "storage",
            description: "`[storage.NAME]`: a storage target (iSCSI array, SMB / SOFS file server, NFS filer) and the hosts that use it.",
            probe: "[storage.s]\n",
            fields: vec![
                f("kind", Ty::Enum(StorageKind::NAMES), "What it serves: iscsi, smb or nfs."),
                f("model", Ty::Str, "Array or server model, free text."),
                f("used_by", Ty::Names, "Clusters (a host's `cluster`) and hosts that use it; absent = every host of the design."),
                f("ports", Ty::MapOf("storage_port"), "Its network ports (controller NICs), by name, written like host NICs."),
                f("allow", Ty::Allow, ALLOW_DOC),
            ],
            required: &["kind", "ports"],
            required_without_profile: &[],
            exclusive: &[],
        },
        Object {
            name: "storage_port",
            description: "A network port of a storage target, written like a host NIC.",
            probe: "[storage.s.ports.p]\n",
            fields: vec![
                f("card", Ty::Str, "Controller or adapter: ports on one card fail together (default: the port itself)."),
                f("model", Ty::Str, "Adapter model, free text."),
                f("speed", Ty::Pattern(SPEED), "Link speed: \"10G\", \"25G\"."),
                f("switch", Ty::Str, "The switch this port is cabled to; absent = not connected."),
                f("port", Ty::Str, "The switch port, free text."),
                f("mtu", mtu(), "The largest Ethernet payload the port sends and takes, in bytes (default 1500)."),
                f("networks", Ty::Names, "Networks whose target address sits on this port."),
                f("allow", Ty::Allow, ALLOW_DOC),
            ],
            required: &["speed", "networks"],
            required_without_profile: &[],
            exclusive: &[],
        },
        Object {
            name: "netlint",
            description: "`[netlint]`: lint settings (also the only table of a netlint.toml).",
            probe: "[netlint]\n",
            fields: vec![
                f("fail_on", Ty::Enum(FailOn::NAMES), "Lowest severity that makes `netlint check` exit 1 (default warning)."),
                f("stack_as_unit", Ty::Bool, "Fail every stack as a whole (a reload, a bad upgrade) instead of member by member; `--stack-as-unit` (default false)."),
                f("rules", Ty::RuleLevels, "Level per rule id: off, info, warning or error."),
            ],
            required: &[],
            required_without_profile: &[],
            exclusive: &[],
        },
    ]
}

/// What a virtual switch's `load_balancing` takes: SET's and vSphere's.
fn vswitch_load_balancing() -> &'static [&'static str] {
    static NAMES: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    NAMES.get_or_init(|| {
        LoadBalancing::SET
            .iter()
            .chain(LoadBalancing::VSPHERE)
            .copied()
            .collect()
    })
}

/// A rule as the schema describes it: id and one-line summary.
pub struct RuleDoc<'a> {
    pub id: &'a str,
    pub summary: &'a str,
}

fn described(schema: J, description: &str) -> J {
    schema.with("description", J::s(description))
}

fn vlan_item() -> J {
    J::obj().with(
        "anyOf",
        J::Arr(vec![
            J::obj()
                .with("type", J::s("integer"))
                .with("minimum", J::Int(1))
                .with("maximum", J::Int(4094)),
            J::obj()
                .with("type", J::s("string"))
                .with("pattern", J::s(r"^\s*[0-9]+\s*-\s*[0-9]+\s*$")),
        ]),
    )
}

fn names() -> J {
    J::obj()
        .with("type", J::s("array"))
        .with("items", J::obj().with("type", J::s("string")))
        .with("uniqueItems", J::Bool(true))
}

fn ty_schema(ty: &Ty, rules: &[RuleDoc<'_>]) -> J {
    match ty {
        Ty::Str => J::obj().with("type", J::s("string")),
        Ty::Bool => J::obj().with("type", J::s("boolean")),
        Ty::BoolOrUnknown => J::obj().with(
            "enum",
            J::Arr(vec![J::Bool(true), J::Bool(false), J::s("unknown")]),
        ),
        Ty::Int { min, max, step } => {
            let mut j = J::obj()
                .with("type", J::s("integer"))
                .with("minimum", J::Int(*min))
                .with("maximum", J::Int(*max));
            if let Some(s) = step {
                j = j.with("multipleOf", J::Int(*s));
            }
            j
        }
        Ty::PositiveNumber { max } => J::obj()
            .with("type", J::s("number"))
            .with("exclusiveMinimum", J::Int(0))
            .with("maximum", J::Int(*max)),
        Ty::Enum(names) => J::obj()
            .with("type", J::s("string"))
            .with("enum", J::strs(names)),
        Ty::Pattern(p) => J::obj()
            .with("type", J::s("string"))
            .with("pattern", J::s(p)),
        Ty::Names => names(),
        Ty::NonEmptyNames => names().with("minItems", J::Int(1)),
        Ty::NameOrNames => J::obj().with(
            "anyOf",
            J::Arr(vec![
                J::obj().with("type", J::s("string")),
                names().with("minItems", J::Int(1)),
            ]),
        ),
        Ty::VlanList => J::obj()
            .with("type", J::s("array"))
            .with("items", vlan_item()),
        Ty::Priorities => J::obj()
            .with("type", J::s("array"))
            .with(
                "items",
                J::obj()
                    .with("type", J::s("integer"))
                    .with("minimum", J::Int(0))
                    .with("maximum", J::Int(7)),
            )
            .with("uniqueItems", J::Bool(true)),
        Ty::Ets => J::obj()
            .with("type", J::s("object"))
            .with(
                "propertyNames",
                J::obj().with("pattern", J::s(r"^\+?0*[0-7]$")),
            )
            .with(
                "additionalProperties",
                J::obj()
                    .with("type", J::s("integer"))
                    .with("minimum", J::Int(0))
                    .with("maximum", J::Int(100)),
            ),
        Ty::Instances(value) => J::obj()
            .with("type", J::s("object"))
            .with(
                "propertyNames",
                J::obj().with("pattern", J::s(r"^\+?[0-9]{1,4}$")),
            )
            .with("additionalProperties", ty_schema(value, rules)),
        Ty::VlanKeyed(value) => J::obj()
            .with("type", J::s("object"))
            .with("propertyNames", J::obj().with("pattern", J::s(VLAN_KEY)))
            .with("additionalProperties", ty_schema(value, rules)),
        Ty::StpCost => {
            let cost = || {
                J::obj()
                    .with("type", J::s("integer"))
                    .with("minimum", J::Int(1))
                    .with("maximum", J::Int(200_000_000))
            };
            J::obj().with(
                "anyOf",
                J::Arr(vec![
                    cost(),
                    J::obj()
                        .with("type", J::s("object"))
                        .with(
                            "propertyNames",
                            J::obj().with("pattern", J::s(r"^\+?[0-9]{1,4}$")),
                        )
                        .with("additionalProperties", cost()),
                ]),
            )
        }
        Ty::MtuPerSwitch => {
            let m = || {
                J::obj()
                    .with("type", J::s("integer"))
                    .with("minimum", J::Int(MIN_MTU as i64))
                    .with("maximum", J::Int(MAX_MTU as i64))
            };
            J::obj().with(
                "anyOf",
                J::Arr(vec![
                    m(),
                    J::obj()
                        .with("type", J::s("object"))
                        .with("additionalProperties", m()),
                ]),
            )
        }
        Ty::Ref(name) => J::obj().with("$ref", J::Str(format!("#/definitions/{name}"))),
        Ty::MapOf(name) => J::obj().with("type", J::s("object")).with(
            "additionalProperties",
            J::obj().with("$ref", J::Str(format!("#/definitions/{name}"))),
        ),
        Ty::ArrayOf(name) => J::obj().with("type", J::s("array")).with(
            "items",
            J::obj().with("$ref", J::Str(format!("#/definitions/{name}"))),
        ),
        Ty::Allow => {
            let reason = || {
                J::obj()
                    .with("type", J::s("string"))
                    .with("pattern", J::s(r"\S"))
            };
            // Rule ids are listed for completion; an unknown one is a
            // warning (`unused-allow`), not an input error, so it is
            // accepted here too.
            let props = rules
                .iter()
                .map(|r| (r.id.to_string(), described(reason(), r.summary)))
                .collect();
            J::obj()
                .with("type", J::s("object"))
                .with("properties", J::Obj(props))
                .with("additionalProperties", reason())
        }
        Ty::RuleLevels => {
            let props = rules
                .iter()
                .filter(|r| r.id != SYNTAX && r.id != SCHEMA)
                .map(|r| {
                    (
                        r.id.to_string(),
                        described(
                            J::obj()
                                .with("type", J::s("string"))
                                .with("enum", J::strs(Level::NAMES)),
                            r.summary,
                        ),
                    )
                })
                .collect();
            J::obj()
                .with("type", J::s("object"))
                .with("properties", J::Obj(props))
                .with("additionalProperties", J::Bool(false))
        }
    }
}

fn object_schema(o: &Object, rules: &[RuleDoc<'_>]) -> J {
    let props = o
        .fields
        .iter()
        .map(|fl| {
            (
                fl.key.to_string(),
                described(ty_schema(&fl.ty, rules), fl.description),
            )
        })
        .collect();
    let mut j = J::obj()
        .with("description", J::s(o.description))
        .with("type", J::s("object"))
        .with("properties", J::Obj(props))
        .with("additionalProperties", J::Bool(false));
    if !o.required.is_empty() {
        j = j.with("required", J::strs(o.required));
    }
    let not_both: Vec<J> = o
        .exclusive
        .iter()
        .flat_map(|group| {
            let mut pairs = Vec::new();
            for (i, a) in group.iter().enumerate() {
                for b in &group[i + 1..] {
                    pairs.push(J::obj().with("not", J::obj().with("required", J::strs(&[a, b]))));
                }
            }
            pairs
        })
        .collect();
    if !not_both.is_empty() {
        j = j.with("allOf", J::Arr(not_both));
    }
    j
}

/// A host written without a profile must have what the format requires of
/// each element itself (a profile may provide it otherwise).
fn host_without_profile(objects: &[Object]) -> J {
    let req = |name: &str| -> J {
        let o = objects.iter().find(|o| o.name == name).expect("object");
        J::obj().with("required", J::strs(o.required_without_profile))
    };
    let map_of = |inner: J| J::obj().with("additionalProperties", inner);
    J::obj()
        .with(
            "if",
            J::obj().with("not", J::obj().with("required", J::strs(&["profile"]))),
        )
        .with(
            "then",
            J::obj().with(
                "properties",
                J::obj()
                    .with("nics", map_of(req("nic")))
                    .with("teams", map_of(req("team")))
                    .with(
                        "vswitches",
                        map_of(
                            req("vswitch")
                                .with("properties", J::obj().with("vnics", map_of(req("vnic")))),
                        ),
                    ),
            ),
        )
}

/// The schema document.
pub fn schema(rules: &[RuleDoc<'_>]) -> J {
    let objects = objects();
    let root = objects.iter().find(|o| o.name == "root").expect("root");
    let mut definitions = Vec::new();
    for o in objects.iter().filter(|o| o.name != "root") {
        let mut j = object_schema(o, rules);
        if o.name == "host" {
            j = j.with("allOf", J::Arr(vec![host_without_profile(&objects)]));
        }
        definitions.push((o.name.to_string(), j));
    }
    let J::Obj(root_entries) = object_schema(root, rules) else {
        unreachable!("an object schema is an object")
    };
    let mut doc = J::obj()
        .with("$schema", J::s("http://json-schema.org/draft-07/schema#"))
        .with("title", J::s("netlint design"));
    for (k, v) in root_entries {
        doc = doc.with(&k, v);
    }
    doc.with("definitions", J::Obj(definitions))
}

/// The schema with the rules of this build of netlint.
pub fn current() -> String {
    let rules: Vec<RuleDoc<'_>> = netlint_rules::registry()
        .iter()
        .map(|r| r.meta)
        .chain(netlint_rules::input_rules())
        .map(|m| RuleDoc {
            id: m.id.as_str(),
            summary: m.summary,
        })
        .collect();
    schema(&rules).to_pretty()
}

#[derive(clap::Args, Debug, Default)]
pub struct SchemaArgs {
    /// Print the schema of netlint's own JSON report (`netlint check
    /// --format json`) instead of the design format's.
    #[arg(long)]
    pub output: bool,
}

pub fn run(args: SchemaArgs, out: &mut dyn Write) -> Result<i32, String> {
    let text = if args.output {
        super::output_schema::current()
    } else {
        current()
    };
    out.write_all(text.as_bytes()).map_err(|e| e.to_string())?;
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_serializer_matches_serde_json() {
        let j = J::obj()
            .with("b", J::Arr(vec![J::Int(1), J::s("x\"y\n")]))
            .with("a", J::obj())
            .with("c", J::Arr(vec![]))
            .with("d", J::obj().with("e", J::Bool(false)));
        let ours = j.to_pretty();
        let parsed: serde_json::Value = serde_json::from_str(&ours).unwrap();
        // Same text as serde_json's pretty printer (modulo key order, which
        // is already sorted-compatible... except `b` before `a`).
        assert_eq!(parsed["b"][1], "x\"y\n");
        assert_eq!(parsed["d"]["e"], false);
        assert!(ours.starts_with("{\n  \"b\": [\n    1,\n"));
        assert!(ours.ends_with("}\n"));
    }

    #[test]
    fn every_reference_has_a_definition() {
        let names: Vec<&str> = objects().iter().map(|o| o.name).collect();
        for o in objects() {
            for fl in &o.fields {
                if let Ty::Ref(n) | Ty::MapOf(n) | Ty::ArrayOf(n) = fl.ty {
                    assert!(names.contains(&n), "{}.{} -> {n}", o.name, fl.key);
                }
            }
            for k in o.required.iter().chain(o.required_without_profile) {
                assert!(o.fields.iter().any(|f| f.key == *k), "{}.{k}", o.name);
            }
        }
    }
}
