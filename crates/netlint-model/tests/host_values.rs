//! How the loader resolves values that depend on the platform or on where
//! they were written: vSphere uplinks run their virtual switch's MTU, and a
//! host knows which of its lines override its profile.

use netlint_model::{load, Loaded, SourceFile, Span, SCHEMA};

fn loaded(src: &str) -> Loaded {
    load(&SourceFile::new("t.toml", src))
}

fn line_of(src: &str, span: Span) -> &str {
    let start = src[..span.start].rfind('\n').map_or(0, |i| i + 1);
    let end = src[span.start..]
        .find('\n')
        .map_or(src.len(), |i| span.start + i);
    &src[start..end]
}

const VDS: &str = r#"
[design]
name = "t"
platform = "vsphere-8"
[networks.vmotion]
role = "live-migration"
vlan = 30
mtu = 9000
[switches.sw]
mtu = 9216
[profiles.esx.nics.vmnic0]
speed = "25G"
switch = "sw"
VMNIC0
[profiles.esx.nics.vmnic1]
speed = "25G"
switch = "sw"
VMNIC1
[profiles.esx.vswitches.vds]
kind = "vds"
uplinks = ["vmnic0", "vmnic1"]
VDS_MTU
[profiles.esx.vswitches.vds.vnics.vmk1]
network = "vmotion"
mtu = 9000
[hosts.esx1]
profile = "esx"
[hosts.esx2]
profile = "esx"
HOST
"#;

fn vds(vmnic0: &str, vmnic1: &str, vds_mtu: &str, host: &str) -> String {
    VDS.replace("VMNIC0", vmnic0)
        .replace("VMNIC1", vmnic1)
        .replace("VDS_MTU", vds_mtu)
        .replace("HOST", host)
}

#[test]
fn a_vmnic_runs_its_virtual_switch_mtu() {
    let src = vds("", "", "mtu = 9000", "");
    let l = loaded(&src);
    assert!(l.diagnostics.is_empty(), "{:#?}", l.diagnostics);
    let design = l.design.unwrap();
    for host in &design.hosts {
        for nic in &host.nics {
            assert_eq!(nic.mtu.payload, 9000, "{} {}", host.name, nic.name);
            assert_eq!(line_of(&src, nic.mtu.span), "mtu = 9000");
            assert!(
                src[nic.mtu.span.start..].starts_with("9000\n[profiles.esx.vswitches.vds.vnics"),
                "the span is the virtual switch's `mtu`"
            );
        }
    }
}

#[test]
fn a_vmnic_may_repeat_its_virtual_switch_mtu() {
    let l = loaded(&vds("mtu = 9000", "mtu = 9000", "mtu = 9000", ""));
    assert!(l.diagnostics.is_empty(), "{:#?}", l.diagnostics);
}

#[test]
fn a_vmnic_with_another_mtu_than_its_virtual_switch_is_an_input_error() {
    let src = vds("", "mtu = 1500", "mtu = 9000", "");
    let l = loaded(&src);
    assert!(l.design.is_none());
    assert_eq!(l.diagnostics.len(), 1, "{:#?}", l.diagnostics);
    let d = &l.diagnostics[0];
    assert_eq!(d.rule, SCHEMA);
    assert_eq!(
        d.message,
        "vmnic `vmnic1` sets MTU 1500, but on vSphere a vmnic has no MTU of its own: it runs the MTU of its virtual switch `vds` (MTU 9000)"
    );
    let p = d.primary.as_ref().unwrap().span;
    assert_eq!(&src[p.start..p.end], "1500");
    assert_eq!(d.related.len(), 1);
    assert!(d
        .help
        .as_deref()
        .unwrap()
        .contains("remove `mtu` from vmnic `vmnic1`"));
}

#[test]
fn vmnics_of_one_virtual_switch_without_mtu_must_agree() {
    let l = loaded(&vds("mtu = 9000", "mtu = 1500", "", ""));
    assert!(l.design.is_none());
    assert_eq!(l.diagnostics.len(), 1, "{:#?}", l.diagnostics);
    assert!(
        l.diagnostics[0].message.starts_with(
            "vmnics `vmnic0` (MTU 9000) and `vmnic1` (MTU 1500) of virtual switch `vds` set different MTUs"
        ),
        "{}",
        l.diagnostics[0].message
    );
    assert!(l.diagnostics[0]
        .help
        .as_deref()
        .unwrap()
        .contains("`mtu = 9000` on virtual switch `vds`"));
    // When they agree, the virtual switch runs their MTU, as before.
    let l = loaded(&vds("mtu = 9000", "mtu = 9000", "", ""));
    assert!(l.diagnostics.is_empty(), "{:#?}", l.diagnostics);
}

#[test]
fn a_host_override_of_the_virtual_switch_mtu_moves_the_vmnics_with_it() {
    let src = vds("", "", "mtu = 9000", "vswitches.vds = { mtu = 1500 }");
    let l = loaded(&src);
    assert!(l.diagnostics.is_empty(), "{:#?}", l.diagnostics);
    let design = l.design.unwrap();
    let esx2 = &design.hosts[1];
    assert_eq!(esx2.nics[0].mtu.payload, 1500);
    assert!(esx2.overrides(esx2.nics[0].mtu.span));
    assert!(!design.hosts[0].overrides(design.hosts[0].nics[0].mtu.span));
}

#[test]
fn windows_nics_keep_their_own_mtu() {
    let src = vds("", "", "mtu = 9000", "").replace("vsphere-8", "windows-server-2022");
    let src = src.replace("kind = \"vds\"\n", "");
    let l = loaded(&src);
    assert!(l.diagnostics.is_empty(), "{:#?}", l.diagnostics);
    assert_eq!(l.design.unwrap().hosts[0].nics[0].mtu.payload, 1500);
}

#[test]
fn a_host_knows_its_overrides() {
    let src = vds(
        "",
        "",
        "mtu = 9000",
        "nics.vmnic1 = { switch = \"sw\", port = \"e1/2\" }",
    );
    let design = loaded(&src).design.unwrap();
    let (esx1, esx2) = (&design.hosts[0], &design.hosts[1]);
    let port = esx2.nics[1].port.as_ref().unwrap().span;
    assert!(esx2.overrides(port));
    assert!(esx2.overrides(esx2.nics[1].attach.as_ref().unwrap().span()));
    assert!(!esx2.overrides(esx2.nics[0].attach.as_ref().unwrap().span()));
    assert!(!esx2.overrides(esx2.nics[1].speed_span()));
    // The profile's lines are no host's override, and a host without a
    // profile has no profile to override.
    assert!(!esx1.overrides(esx1.nics[1].attach.as_ref().unwrap().span()));
    assert!(!esx1.overrides(port));
}
