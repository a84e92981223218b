use super::*;
use crate::defaults;
use crate::detect::Kind;

/// Every source a spec may cite: the named constants of `defaults.rs`.
const SOURCES: &[(&str, &str)] = &[
    ("NXOS_STP", defaults::NXOS_STP),
    ("EOS_STP", defaults::EOS_STP),
    ("OS10_STP", defaults::OS10_STP),
    ("IOS_STP", defaults::IOS_STP),
    ("TRUNK_ALL", defaults::TRUNK_ALL),
    ("OS10_TRUNK", defaults::OS10_TRUNK),
    ("NXOS_L3", defaults::NXOS_L3),
    ("NXOS_L2_INFERRED", defaults::NXOS_L2_INFERRED),
    ("L2_ACCESS", defaults::L2_ACCESS),
    ("OS10_MTU", defaults::OS10_MTU),
    ("EOS_MTU", defaults::EOS_MTU),
    ("EOS_L2_MTU", defaults::EOS_L2_MTU),
    ("OS10_PFC_MODE", defaults::OS10_PFC_MODE),
    ("CISCO_MTU", defaults::CISCO_MTU),
    ("NXOS_EDGE", defaults::NXOS_EDGE),
    ("IOS_PORTFAST", defaults::IOS_PORTFAST),
    ("EDGE_ANY_MODE", defaults::EDGE_ANY_MODE),
];

/// The constant's name, or a failure naming the text that is none.
fn cited(source: &str) -> &'static str {
    SOURCES
        .iter()
        .find(|(_, text)| *text == source)
        .map(|(name, _)| *name)
        .unwrap_or_else(|| {
            panic!("a spec cites a source that is no constant of defaults.rs: {source}")
        })
}

/// One line per spec. The destructuring names every field, so a field
/// added to [`VendorSpec`] is a compile error here until the table below
/// says what each vendor has.
fn row(spec: &VendorSpec) -> String {
    let VendorSpec {
        vendor,
        name,
        markers,
        stp_mode,
        layer,
        trunk,
        vlans_from_svis,
        mtu,
        port_mtu,
        qos,
        pfc,
        edge,
        stacks,
    } = *spec;
    let layer = match layer {
        Layer::Switchport(s) => format!("switchport <{}>", cited(s)),
        Layer::SystemDefault {
            routed,
            l2_inferred,
        } => format!(
            "system default (routed <{}>, layer 2 <{}>)",
            cited(routed),
            cited(l2_inferred)
        ),
    };
    let trunk = match trunk {
        Trunk::AllUnlessListed(s) => format!("all unless listed <{}>", cited(s)),
        Trunk::OnlyListed(s) => format!("only listed <{}>", cited(s)),
    };
    let mtu = match mtu {
        Mtu::Payload => "payload".to_string(),
        Mtu::Frame { overhead } => format!("frame (+{overhead})"),
        Mtu::Layer3 {
            l2_overhead,
            l2_default,
        } => format!(
            "layer 3, l2 mtu frame (+{l2_overhead}) {} <{}>",
            l2_default.value,
            cited(l2_default.source)
        ),
    };
    let pfc = match pfc {
        Pfc::Policy => "policy".to_string(),
        Pfc::PortMode(s) => format!("port mode <{}>", cited(s)),
    };
    let edge = match edge {
        Edge::AccessOnly(s) => format!("access only <{}>", cited(s)),
        Edge::AnyMode(s) => format!("any mode <{}>", cited(s)),
    };
    format!(
        "{}: {name}, {} markers, stp {:?} <{}>, layer {layer}, trunk {trunk}, \
         vlans from svis {vlans_from_svis}, mtu {mtu}, port mtu {} <{}>, qos {qos:?}, pfc {pfc}, \
         edge {edge}, stacks {stacks}",
        vendor.key(),
        markers.len(),
        stp_mode.value,
        cited(stp_mode.source),
        port_mtu.value,
        cited(port_mtu.source),
    )
}

/// What each vendor is, field by field. A fifth vendor adds its row.
#[test]
fn every_vendor_states_every_field() {
    let rows: Vec<String> = Vendor::ALL.iter().map(|v| row(v.spec())).collect();
    let want = [
        "nxos: NX-OS, 23 markers, stp RapidPvst <NXOS_STP>, \
         layer system default (routed <NXOS_L3>, layer 2 <NXOS_L2_INFERRED>), \
         trunk all unless listed <TRUNK_ALL>, vlans from svis false, mtu payload, \
         port mtu 1500 <CISCO_MTU>, qos NxOs, pfc policy, edge access only <NXOS_EDGE>, stacks false",
        "eos: EOS, 12 markers, stp Mst <EOS_STP>, layer switchport <L2_ACCESS>, \
         trunk all unless listed <TRUNK_ALL>, vlans from svis false, \
         mtu layer 3, l2 mtu frame (+18) 9234 <EOS_L2_MTU>, port mtu 1500 <EOS_MTU>, \
         qos Eos, pfc policy, edge any mode <EDGE_ANY_MODE>, stacks false",
        "ios: IOS, 13 markers, stp Pvst <IOS_STP>, layer switchport <L2_ACCESS>, \
         trunk all unless listed <TRUNK_ALL>, vlans from svis false, mtu payload, \
         port mtu 1500 <CISCO_MTU>, qos None, pfc policy, edge access only <IOS_PORTFAST>, stacks true",
        "os10: OS10, 16 markers, stp RapidPvst <OS10_STP>, layer switchport <L2_ACCESS>, \
         trunk only listed <OS10_TRUNK>, vlans from svis true, mtu frame (+18), \
         port mtu 1532 <OS10_MTU>, qos Os10, pfc port mode <OS10_PFC_MODE>, edge any mode <EDGE_ANY_MODE>, stacks false",
    ];
    assert_eq!(rows, want);
}

/// Each spec is its vendor's, its `--from` key names it, and its markers
/// tell it: weighted, none shared with another vendor (a shared marker
/// would count for both and tell neither). Every vendor `--from` names is
/// in [`Vendor::ALL`], the list detection scores and this file's table
/// walk.
#[test]
fn specs_belong_to_their_vendor() {
    for (key, kind) in Kind::KEYS {
        if let Kind::Config(v) = kind {
            assert!(
                Vendor::ALL.contains(&v),
                "`--from {key}`: {v:?} is missing from Vendor::ALL"
            );
        }
    }
    let mut seen: Vec<(&str, Vendor)> = Vec::new();
    for v in Vendor::ALL {
        let spec = v.spec();
        assert_eq!(spec.vendor, v);
        assert_eq!(Kind::from_key(v.key()), Some(Kind::Config(v)));
        assert!(!spec.markers.is_empty(), "{v:?} has no detection markers");
        for (m, w) in spec.markers {
            assert!(*w > 0, "{v:?} marker `{m}` weighs nothing");
            if let Some((_, other)) = seen.iter().find(|(s, _)| s == m) {
                panic!("marker `{m}` is both {other:?}'s and {v:?}'s");
            }
            seen.push((m, v));
        }
    }
}

/// The `.rs` files under `dir`, recursively, with their paths.
fn sources(dir: &std::path::Path, out: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            out.push((path.display().to_string(), text));
        }
    }
}

/// Whether `text` has `_` as a word of its own (a wildcard pattern).
fn has_wildcard(text: &str) -> bool {
    let b = text.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    (0..b.len()).any(|i| {
        b[i] == b'_' && (i == 0 || !word(b[i - 1])) && (i + 1 == b.len() || !word(b[i + 1]))
    })
}

/// The block of a `match` whose `{` is at `open`: up to its `}`.
fn block(text: &str, open: usize) -> &str {
    let mut depth = 0usize;
    for (i, c) in text[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return &text[open..open + i + 1];
                }
            }
            _ => {}
        }
    }
    &text[open..]
}

/// No vendor decision in `config/` outside the spec: the shared parser
/// names no vendor (no `if self.vendor == ...`), and no `match` over a
/// vendor anywhere in `config/` has a wildcard arm that would give a new
/// vendor another's behaviour. Reads the sources.
#[test]
fn no_vendor_wildcards() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/config");
    let mut files = Vec::new();
    sources(&dir, &mut files);
    assert!(files.len() >= 10, "config/ sources not found in {dir:?}");
    let vendor_path = ["Vendor", "::"].concat();
    let mut vendor_matches = 0;
    for (path, text) in &files {
        if path.ends_with("vendors/tests.rs") {
            continue;
        }
        let in_vendors = path.contains("/vendors/");
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            assert!(
                in_vendors || !code.contains(&vendor_path),
                "{path}:{}: the shared reader names a vendor; decide it in the VendorSpec: {line}",
                n + 1
            );
            for cmp in [".vendor ==", ".vendor !=", "vendor == ", "vendor != "] {
                assert!(
                    !code.contains(cmp),
                    "{path}:{}: a vendor compared; decide it in the VendorSpec: {line}",
                    n + 1
                );
            }
        }
        // The code without its comments.
        let text: String = text
            .lines()
            .map(|l| l.split("//").next().unwrap_or(""))
            .collect::<Vec<_>>()
            .join("\n");
        let text = text.as_str();
        let mut from = 0;
        while let Some(at) = text[from..].find("match ") {
            let start = from + at;
            from = start + "match ".len();
            let Some(open) = text[start..].find('{').map(|o| start + o) else {
                break;
            };
            let scrutinee = &text[start..open];
            let arms = block(text, open);
            // Over a vendor: by its scrutinee's name, or by its patterns.
            if !scrutinee.to_ascii_lowercase().contains("vendor") && !arms.contains(&vendor_path) {
                continue;
            }
            vendor_matches += 1;
            assert!(
                !has_wildcard(arms),
                "{path}: a `_` pattern in a match over a vendor (`{}`): name every vendor",
                scrutinee.trim()
            );
        }
    }
    // The scan sees at least the one match that finds a vendor's spec.
    assert!(vendor_matches >= 1, "no match over a vendor found");
}

#[test]
fn wildcard_words() {
    assert!(has_wildcard("{ Vendor::NxOs => 1, _ => 2 }"));
    assert!(has_wildcard("(true, _, Vendor::Os10)"));
    assert!(!has_wildcard(
        "{ Vendor::NxOs => &nxos::SPEC, l2_inferred }"
    ));
}

/// One file per vendor, named by its `--from` key, and every vendor with
/// a file in [`Vendor::ALL`]: a vendor whose spec [`Vendor::spec`] finds
/// but `ALL` forgot is never detected and has no row above.
#[test]
fn one_file_per_vendor() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/config/vendors");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().into_string().unwrap();
            let stem = name.strip_suffix(".rs")?.to_string();
            (stem != "mod" && stem != "tests").then_some(stem)
        })
        .collect();
    files.sort();
    let mut keys: Vec<String> = Vendor::ALL.iter().map(|v| v.key().to_string()).collect();
    keys.sort();
    assert_eq!(files, keys);
}
