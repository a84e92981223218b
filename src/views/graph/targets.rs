//! Storage targets in the picture: one node per target at the hosts' rank
//! (drawn as a host is), with an edge per port to the switch it is cabled
//! to, and the findings about the target or its ports.

use super::ctx::Ctx;
use super::scene::*;
use netlint_model::{Element, SwitchId};
use std::collections::BTreeMap;

/// Adds a node per storage target, after the hosts.
pub(super) fn target_nodes(
    ctx: &Ctx<'_>,
    switch_node: &BTreeMap<SwitchId, usize>,
    scene: &mut Scene,
) {
    let design = ctx.design;
    for (ti, target) in design.storage.iter().enumerate() {
        let id = format!("st{ti}");
        let mut edges = Vec::new();
        for (pi, port) in target.ports.iter().enumerate() {
            let Some(s) = &port.switch else { continue };
            let Some(&sn) = switch_node.get(&s.value) else {
                continue;
            };
            let mut e = Edge::new(scene.switches[sn].id.clone(), id.clone(), EdgeKind::Host);
            let nets: Vec<&str> = port
                .networks
                .iter()
                .map(|n| design.network(n.value).name.as_str())
                .collect();
            e.label = vec![
                format!("{} · {}", port.name, port.speed.value),
                nets.join(", "),
            ];
            e.down = ctx.opts.failures.switches.contains(&s.value);
            if e.down {
                e.label.push("✕ DOWN".to_string());
            }
            e.marks = ctx
                .marks
                .on(&target.port_element(netlint_model::TargetPortIdx(pi)));
            edges.push(e);
        }
        // A target none of whose ports is drawn (out of the scope) is left
        // out, as a host would be.
        if edges.is_empty() && ctx.opts.scope.is_some() {
            continue;
        }
        let mut lines = vec![target.kind.value.words().to_string()];
        if let Some(m) = &target.model {
            lines.push(m.value.clone());
        }
        let mut mtus: Vec<u32> = target.ports.iter().map(|p| p.mtu.value.payload).collect();
        mtus.sort();
        mtus.dedup();
        let mtus: Vec<String> = mtus.iter().map(|m| m.to_string()).collect();
        lines.push(format!(
            "{} port{} · MTU {}",
            target.ports.len(),
            if target.ports.len() == 1 { "" } else { "s" },
            mtus.join("/")
        ));
        scene.edges.extend(edges);
        scene.hosts.push(HostNode {
            id,
            title: target.name.clone(),
            count: 1,
            lines,
            marks: ctx
                .marks
                .under(&Element::Storage(target.name.clone(), None), |_| false),
            parts: Vec::new(),
            cards: Vec::new(),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::super::{build, GraphOptions};
    use netlint_model::{load, Diagnostic, Element, Severity, SourceFile};

    #[test]
    fn a_target_is_a_node_cabled_to_its_switches_with_its_findings() {
        let src = include_str!("../../../fixtures/storage-spof.toml");
        let d = load(&SourceFile::new("t.toml", src)).design.unwrap();
        let port_finding = Diagnostic::new(
            "mtu-path-too-small",
            Severity::Error,
            Element::Storage("filer1".into(), Some("e0b".into())),
            "garbage",
        );
        let s = build(&d, &[port_finding], &GraphOptions::default()).unwrap();
        let node = s
            .hosts
            .iter()
            .find(|h| h.title == "filer1")
            .expect("target node");
        assert_eq!(node.lines[0], "NFS filer");
        assert_eq!(node.marks[0].rule, "mtu-path-too-small");
        let edges: Vec<_> = s.edges.iter().filter(|e| e.to == node.id).collect();
        assert_eq!(edges.len(), 2, "{edges:#?}");
        let tor_a = &s.switches.iter().find(|x| x.name == "tor-a").unwrap().id;
        assert!(edges.iter().all(|e| &e.from == tor_a));
        assert_eq!(edges[0].label[0], "e0a · 25G");
        assert!(edges[0].marks.is_empty());
        assert_eq!(edges[1].marks[0].rule, "mtu-path-too-small");
    }
}
