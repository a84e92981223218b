//! Live migration, the failover cluster and Network ATC of a Hyper-V
//! collection: Get-VMHost and Get-VMMigrationNetwork, Get-ClusterNetwork
//! and Get-ClusterNetworkInterface, Get-NetIntent. (The SMB bandwidth
//! limit of live migration is read with QoS, in the parent.)

use super::*;

pub(super) fn migration(c: &Collection, h: &mut HostFacts) {
    if let Some(v) = c.objects("Get-VMHost").first() {
        let mut f = VmHostFacts {
            line: v.line,
            ..Default::default()
        };
        if let Some(e) = v.get("VirtualMachineMigrationEnabled") {
            f.migration_enabled = e.as_bool().map(|b| at(b, e));
        }
        if let Some(t) = v.get("VirtualMachineMigrationPerformanceOption") {
            f.transport = enum_of(t, TRANSPORT).map(|x| at(x, t));
            if f.transport.is_none() {
                remark(h, t.line, "VirtualMachineMigrationPerformanceOption is not TCPIP, Compression or SMB (0-2)".into());
            }
        }
        if let Some(s) = v.get("MaximumVirtualMachineMigrations") {
            f.simultaneous = s
                .as_i64()
                .and_then(|x| u32::try_from(x).ok())
                .map(|x| at(x, s));
        }
        if let Some(a) = v.get("UseAnyNetworkForMigration") {
            f.any_network = a.as_bool().map(|b| at(b, a));
        }
        h.vmhost = Some(f);
    }
    if c.cmdlet("Get-VMMigrationNetwork").is_some() {
        let mut nets = Vec::new();
        let mut objs: Vec<&Node> = c.objects("Get-VMMigrationNetwork").iter().collect();
        objs.sort_by_key(|n| n.get("Priority").and_then(Node::as_i64).unwrap_or(i64::MAX));
        for n in objs {
            if let Some(s) = n.get("Subnet") {
                if let Some(t) = s.as_str() {
                    nets.push(at(t.to_string(), s));
                }
            }
        }
        h.migration_networks = Some(nets);
    }
}

/// `10.0.20.0` + `255.255.255.0` -> `10.0.20.0/24`.
pub(super) fn prefix(addr: &str, mask: &str) -> Option<String> {
    let bits: u32 = mask
        .split('.')
        .map(|o| o.parse::<u8>().ok().map(|b| b.count_ones()))
        .sum::<Option<u32>>()?;
    Some(format!("{addr}/{bits}"))
}

pub(super) fn cluster(c: &Collection, h: &mut HostFacts) {
    if c.cmdlet("Get-ClusterNetwork").is_some() {
        let mut nets = Vec::new();
        for n in c.objects("Get-ClusterNetwork") {
            let Some(name) = name_of(n) else { continue };
            let subnet = match (
                n.get("Address").and_then(Node::as_str),
                n.get("AddressMask").and_then(Node::as_str),
            ) {
                (Some(a), Some(m)) if !a.is_empty() => prefix(a, m)
                    .map(|p| Sourced::at(p, n.get("Address").map_or(n.line, |x| x.line))),
                _ => None,
            };
            nets.push(ClusterNetwork {
                line: n.line,
                name,
                role: n
                    .get("Role")
                    .and_then(|r| enum_of(r, CLUSTER_ROLE).map(|v| at(v, r))),
                subnet,
            });
        }
        h.cluster_networks = Some(nets);
    }
    if c.cmdlet("Get-ClusterNetworkInterface").is_some() {
        let mut out = Vec::new();
        for i in c.objects("Get-ClusterNetworkInterface") {
            let field = |k: &str| {
                i.get(k).and_then(|n| {
                    n.scalar_text()
                        .or_else(|| n.get("Name").and_then(Node::scalar_text))
                })
            };
            if let (Some(node), Some(network), Some(adapter)) =
                (field("Node"), field("Network"), field("Adapter"))
            {
                out.push(ClusterInterface {
                    line: i.line,
                    node,
                    network,
                    adapter,
                });
            }
        }
        h.cluster_interfaces = Some(out);
    }
}

/// The adapters of an intent: `NetAdapterNamesAsList` as an array, or as
/// the comma-joined text some builds print (`ethernet, ethernet 2`), else
/// `NetAdapterNameCsv` (`Ethernet#Ethernet 2`).
pub(super) fn intent_adapters(i: &Node) -> Vec<String> {
    let split = |n: &Node, sep: char| -> Vec<String> {
        match n.as_str() {
            Some(t) => t
                .trim()
                .trim_start_matches('{')
                .trim_end_matches('}')
                .split(sep)
                .map(|x| x.trim().to_string())
                .filter(|x| !x.is_empty())
                .collect(),
            None => n
                .strings()
                .into_iter()
                .map(|x| x.trim().to_string())
                .filter(|x| !x.is_empty())
                .collect(),
        }
    };
    if let Some(n) = i.get_any(&["NetAdapterNamesAsList", "NetAdapterNames"]) {
        return split(n, ',');
    }
    i.get_any(&["NetAdapterNameCsv"])
        .map(|n| split(n, '#'))
        .unwrap_or_default()
}

pub(super) fn intents(c: &Collection, h: &mut HostFacts) {
    if c.cmdlet("Get-NetIntent").is_none() {
        return;
    }
    let mut out = Vec::new();
    for i in c.objects("Get-NetIntent") {
        let Some(name) = i
            .get_any(&["IntentName", "Name"])
            .and_then(Node::scalar_text)
        else {
            continue;
        };
        let flags = [
            "IsComputeIntentSet",
            "IsStorageIntentSet",
            "IsManagementIntentSet",
        ]
        .map(|k| i.get(k).and_then(Node::as_bool));
        let ty = i.get("IntentType");
        let (compute, storage, management) = if flags.iter().any(Option::is_some) {
            (
                flags[0].unwrap_or(false),
                flags[1].unwrap_or(false),
                flags[2].unwrap_or(false),
            )
        } else if let Some(n) = ty.and_then(Node::as_i64) {
            let known = INTENT_COMPUTE | INTENT_STORAGE | INTENT_MANAGEMENT;
            if n & !known != 0 {
                remark(
                    h,
                    ty.map_or(i.line, |t| t.line),
                    format!("Network ATC intent {name}: IntentType {n} has bits other than Compute 2, Storage 4, Management 8; those are not read"),
                );
            }
            (
                n & INTENT_COMPUTE != 0,
                n & INTENT_STORAGE != 0,
                n & INTENT_MANAGEMENT != 0,
            )
        } else {
            let t = ty.and_then(Node::as_str).unwrap_or("").to_ascii_lowercase();
            (
                t.contains("compute"),
                t.contains("storage"),
                t.contains("management"),
            )
        };
        let jumbo = i
            .path(&["AdapterAdvancedParametersOverride", "JumboPacket"])
            .and_then(|j| {
                j.as_i64()
                    .and_then(|x| u32::try_from(x).ok())
                    .filter(|x| *x > 0)
                    .map(|x| at(x, j))
            });
        out.push(Intent {
            line: i.line,
            name,
            adapters: intent_adapters(i),
            management,
            compute,
            storage,
            jumbo_packet: jumbo,
        });
    }
    h.intents = Some(out);
}
