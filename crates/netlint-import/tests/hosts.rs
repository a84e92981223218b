//! Host collections imported with the switches they are cabled to: the
//! design loads without a diagnostic, hosts built alike fold into one
//! profile, and the written TOML is snapshotted.

use std::path::Path;

use netlint_import::design::to_design_with_hosts;
use netlint_import::host::fold::{HostNote, NoteKind};
use netlint_import::host::read_hyperv;
use netlint_import::{parse, Document};
use netlint_model::{load, SourceFile};

fn import(switch_files: &[&str], host_files: &[&str]) -> (String, Vec<HostNote>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let docs: Vec<Document> = switch_files
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(root.join(f)).unwrap();
            parse(f, &text, None).unwrap_or_else(|e| panic!("{e}"))
        })
        .collect();
    let hosts: Vec<_> = host_files
        .iter()
        .map(|f| {
            let bytes = std::fs::read(root.join(f)).unwrap();
            read_hyperv(f, &bytes).unwrap_or_else(|e| panic!("{e}"))
        })
        .collect();
    let imported = to_design_with_hosts(&docs, &hosts, "imported");
    let loaded = load(&SourceFile::new("imported.toml", imported.toml.clone()));
    assert!(
        loaded.diagnostics.is_empty(),
        "{:#?}\n{}",
        loaded
            .diagnostics
            .iter()
            .map(|d| &d.message)
            .collect::<Vec<_>>(),
        imported.toml
    );
    (imported.toml, imported.host_notes)
}

fn notes_text(notes: &[HostNote]) -> String {
    notes
        .iter()
        .map(|n| format!("{:?} {n}\n", n.kind))
        .collect()
}

const SWITCHES: &[&str] = &["fixtures/nxos-tor1.cfg", "fixtures/nxos-tor2.cfg"];

#[test]
fn converged_set_cluster_folds_into_one_profile() {
    let mut sw = SWITCHES.to_vec();
    sw.push("host-fixtures/converged/cabling.csv");
    sw.push("host-fixtures/converged/tor2.lldp.txt");
    let (toml, notes) = import(
        &sw,
        &[
            "host-fixtures/converged/hv01.json",
            "host-fixtures/converged/hv02.json",
            "host-fixtures/converged/hv03.json",
            "host-fixtures/converged/hv04.json",
        ],
    );
    assert!(toml.contains("[profiles.hosts]"), "{toml}");
    // Jumbo differs on HV04 only: an override there, 9014 in the profile.
    assert!(
        toml.contains("nics.\"SLOT 3 Port 1\".jumbo_packet = 1514"),
        "{toml}"
    );
    assert!(toml.contains("jumbo_packet = 9014"), "{toml}");
    // HV04's second port comes from tor2's LLDP table (its MAC).
    assert!(toml.contains("tor2.lldp.txt:"), "{toml}");
    assert!(
        !notes.iter().any(|n| n.kind == NoteKind::UnmatchedNic),
        "{notes:?}"
    );
    insta::assert_snapshot!("converged.toml", toml);
    insta::assert_snapshot!("converged.notes", notes_text(&notes));
}

#[test]
fn lbfo_cluster_reports_the_nic_no_cable_ties() {
    let mut sw = SWITCHES.to_vec();
    sw.push("host-fixtures/lbfo/cabling.csv");
    let (toml, notes) = import(
        &sw,
        &[
            "host-fixtures/lbfo/lb01.json",
            "host-fixtures/lbfo/lb02.json",
        ],
    );
    assert!(toml.contains("load_balancing = \"hyperv-port\""), "{toml}");
    assert!(toml.contains("os = \"windows-server-2022\""), "{toml}");
    let unmatched: Vec<&HostNote> = notes
        .iter()
        .filter(|n| n.kind == NoteKind::UnmatchedNic)
        .collect();
    assert_eq!(unmatched.len(), 1, "{notes:?}");
    assert!(unmatched[0].text.contains("LB02") && unmatched[0].text.contains("NIC2"));
    insta::assert_snapshot!("lbfo.toml", toml);
    insta::assert_snapshot!("lbfo.notes", notes_text(&notes));
}
