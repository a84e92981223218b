//! A Hyper-V host's `live_migration`: transport, networks (of the
//! design), simultaneous migrations and the SMB bandwidth limit.

use crate::design::toml::{string, Prov};

use super::super::facts::*;
use super::{list, Ctx, Host, NoteKind};

pub(super) fn write(c: &mut Ctx<'_>, a: &Host<'_>) {
    let h = c.h;
    let Host {
        lm_subnets,
        lm_nets,
        ..
    } = a;
    // Live migration.
    if let Some(vm) = &h.vmhost {
        let t = ["live_migration"];
        if let Some(tr) = &vm.transport {
            let v = match tr.value {
                Transport::Tcp => "tcp",
                Transport::Compression => "compression",
                Transport::Smb => "smb",
            };
            let at = c.src(tr);
            c.put(
                &t,
                "transport",
                string(v),
                at.map_text(|at| format!("{at} (VirtualMachineMigrationPerformanceOption)")),
            );
        }
        // Only networks the design gets: a live-migration subnet's network
        // whose interfaces were all left out is no network of the design.
        let (kept, left): (Vec<String>, Vec<String>) = lm_nets
            .iter()
            .cloned()
            .partition(|n| c.nets.contains_key(n));
        for n in &left {
            let line = lm_subnets.first().and_then(|s| s.line()).unwrap_or(vm.line);
            c.note(line, NoteKind::Unknown, format!("live migration network {n} is not written (its interfaces were left out): not listed in `live_migration.networks`"));
        }
        let lm_nets = kept;
        if !lm_nets.is_empty() {
            let line = lm_subnets.first().and_then(|s| s.line()).unwrap_or(1);
            c.put(
                &t,
                "networks",
                list(&lm_nets),
                Prov::line(&h.file, line).then(" (Get-VMMigrationNetwork subnets)"),
            );
        } else if vm.any_network.as_ref().is_some_and(|a| a.value) {
            c.note(vm.line, NoteKind::Unknown, "UseAnyNetworkForMigration is on: live migration may use any network, which the design cannot list".into());
        }
        if let Some(s) = &vm.simultaneous {
            if (1..=64).contains(&s.value) {
                let at = c.src(s);
                c.put(
                    &t,
                    "simultaneous",
                    s.value.to_string(),
                    at.map_text(|at| format!("{at} (MaximumVirtualMachineMigrations)")),
                );
            }
        }
        match &h.smb_limits {
            Some(limits) => {
                if let Some(l) = limits.iter().find(|l| l.live_migration) {
                    let b = l.bytes_per_second.value;
                    let v = if b % 1_048_576 == 0 { format!("{}MB", b / 1_048_576) } else { format!("{b}B") };
                    let at = c.src(&l.bytes_per_second);
                    c.put(&t, "smb_bandwidth_limit", string(&v), at.map_text(|at| format!("{at} (Get-SmbBandwidthLimit LiveMigration)")));
                }
            }
            None => c.note(vm.line, NoteKind::Unknown, "Get-SmbBandwidthLimit not collected: `smb_bandwidth_limit` not written, which the design reads as no limit".into()),
        }
    }
}
