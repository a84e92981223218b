//! Where each element is defined and every place that names another
//! element, read from the loaded design's spans: what go to definition,
//! references and hover look up.

use netlint_model::{
    Attachment, Design, HostId, LinkId, NetworkId, NicIdx, Sp, Span, StorageUser, SwitchId,
    TeamIdx, Uplink, VSwitchIdx,
};
use std::collections::HashSet;

/// An element of the design.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    Network(NetworkId),
    Switch(SwitchId),
    Link(LinkId),
    Profile(usize),
    Host(HostId),
    Nic(HostId, NicIdx),
    Team(HostId, TeamIdx),
    VSwitch(HostId, VSwitchIdx),
    VNic(HostId, VSwitchIdx, usize),
    Storage(usize),
}

/// Where an element is defined: its table header or key. Hosts built from
/// one profile share the profile's lines, so one span can define the same
/// NIC of several hosts (in host order).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Def {
    pub span: Span,
    pub target: Target,
}

/// A value that names another element (`switch = "tor-a"`), and the span
/// of that element's definition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ref {
    pub span: Span,
    pub def: Span,
    pub target: Target,
}

#[derive(Clone, Debug, Default)]
pub struct Index {
    pub defs: Vec<Def>,
    pub refs: Vec<Ref>,
}

/// Where a host writes its own line for a NIC (`nics.S1 = { peer = ... }`
/// under `[hosts.hv2]`, which overrides the profile's `S1`): the key `S1`,
/// what a `peer` naming that host's NIC leads to. The NIC's definition when
/// the host has no line of its own for it.
fn own_nic_line(design: &Design, text: &str, h: HostId, n: NicIdx) -> Span {
    let host = design.host(h);
    let nic = host.nic(n);
    host.overrides
        .iter()
        .copied()
        .filter(|o| {
            let key = text.get(o.start..o.end).unwrap_or("");
            key.trim_matches(['"', '\'']) == nic.name
                && text[..o.start].trim_end().ends_with("nics.")
        })
        .min_by_key(|o| o.start)
        .unwrap_or(nic.span)
}

fn contains(span: Span, offset: usize) -> bool {
    span.start <= offset && offset <= span.end && !span.is_empty()
}

impl Index {
    /// The index of `design`, loaded from `text`.
    pub fn build(design: &Design, text: &str) -> Index {
        let mut ix = Index::build_spans(design, text);
        // An element written as an inline table (`LM = { network = "lm" }`)
        // is defined by its span `{ ... }`: the key before it counts too.
        for d in &mut ix.defs {
            if text.get(d.span.start..d.span.start + 1) == Some("{") {
                let line_start = text[..d.span.start].rfind('\n').map_or(0, |i| i + 1);
                let indent = text[line_start..d.span.start].len()
                    - text[line_start..d.span.start].trim_start().len();
                d.span.start = line_start + indent;
            }
        }
        ix
    }

    fn build_spans(design: &Design, text: &str) -> Index {
        let mut ix = Index::default();
        let mut seen: HashSet<(Span, Span)> = HashSet::new();
        let mut add_ref = |ix: &mut Index, span: Span, def: Span, target: Target| {
            if !span.is_empty() && seen.insert((span, def)) {
                ix.refs.push(Ref { span, def, target });
            }
        };
        for (i, n) in design.networks.iter().enumerate() {
            ix.defs.push(Def {
                span: n.span,
                target: Target::Network(NetworkId(i)),
            });
        }
        for (i, s) in design.switches.iter().enumerate() {
            ix.defs.push(Def {
                span: s.span,
                target: Target::Switch(SwitchId(i)),
            });
        }
        for (i, p) in design.profiles.iter().enumerate() {
            ix.defs.push(Def {
                span: p.span,
                target: Target::Profile(i),
            });
        }
        let net = |id: &Sp<NetworkId>| {
            (
                id.span,
                design.network(id.value).span,
                Target::Network(id.value),
            )
        };
        let sw = |id: &Sp<SwitchId>| {
            (
                id.span,
                design.switch(id.value).span,
                Target::Switch(id.value),
            )
        };
        for (i, l) in design.links.iter().enumerate() {
            ix.defs.push(Def {
                span: l.span,
                target: Target::Link(LinkId(i)),
            });
            for s in l.a_ends().chain(&l.b) {
                let (a, b, t) = sw(s);
                add_ref(&mut ix, a, b, t);
            }
        }
        for (h, host) in design.hosts.iter().enumerate() {
            let hid = HostId(h);
            ix.defs.push(Def {
                span: host.span,
                target: Target::Host(hid),
            });
            if let Some(p) = &host.profile {
                if let Some(pi) = design.profiles.iter().position(|x| x.name == p.value) {
                    add_ref(
                        &mut ix,
                        p.span,
                        design.profiles[pi].span,
                        Target::Profile(pi),
                    );
                }
            }
            let nic = |n: &Sp<NicIdx>| (n.span, host.nic(n.value).span, Target::Nic(hid, n.value));
            for (n, x) in host.nics.iter().enumerate() {
                ix.defs.push(Def {
                    span: x.span,
                    target: Target::Nic(hid, NicIdx(n)),
                });
                for id in &x.networks {
                    let (a, b, t) = net(id);
                    add_ref(&mut ix, a, b, t);
                }
                match &x.attach {
                    Some(Attachment::Switch(s)) => {
                        let (a, b, t) = sw(s);
                        add_ref(&mut ix, a, b, t);
                    }
                    Some(Attachment::Peer {
                        host: ph,
                        nic: pn,
                        span,
                    }) => {
                        let def = own_nic_line(design, text, *ph, *pn);
                        add_ref(&mut ix, *span, def, Target::Nic(*ph, *pn));
                    }
                    None => {}
                }
            }
            for (t, team) in host.teams.iter().enumerate() {
                ix.defs.push(Def {
                    span: team.span,
                    target: Target::Team(hid, TeamIdx(t)),
                });
                for m in team.members.iter().chain(&team.standby) {
                    let (a, b, t) = nic(m);
                    add_ref(&mut ix, a, b, t);
                }
                for id in &team.networks {
                    let (a, b, t) = net(id);
                    add_ref(&mut ix, a, b, t);
                }
            }
            for (v, vs) in host.vswitches.iter().enumerate() {
                ix.defs.push(Def {
                    span: vs.span,
                    target: Target::VSwitch(hid, VSwitchIdx(v)),
                });
                for u in &vs.uplinks {
                    let (def, target) = match u.value {
                        Uplink::Nic(n) => (host.nic(n).span, Target::Nic(hid, n)),
                        Uplink::Team(t) => (host.teams[t.0].span, Target::Team(hid, t)),
                    };
                    add_ref(&mut ix, u.span, def, target);
                }
                for id in &vs.networks {
                    let (a, b, t) = net(id);
                    add_ref(&mut ix, a, b, t);
                }
                for (k, vnic) in vs.vnics.iter().enumerate() {
                    ix.defs.push(Def {
                        span: vnic.span,
                        target: Target::VNic(hid, VSwitchIdx(v), k),
                    });
                    let (a, b, t) = net(&vnic.network);
                    add_ref(&mut ix, a, b, t);
                    for m in vnic.active_uplinks.iter().chain(&vnic.standby_uplinks) {
                        let (a, b, t) = nic(m);
                        add_ref(&mut ix, a, b, t);
                    }
                }
            }
            if let Some(lm) = &host.live_migration {
                for id in &lm.networks {
                    let (a, b, t) = net(id);
                    add_ref(&mut ix, a, b, t);
                }
            }
        }
        for (i, st) in design.storage.iter().enumerate() {
            ix.defs.push(Def {
                span: st.span,
                target: Target::Storage(i),
            });
            if let Some(users) = &st.used_by {
                for u in &users.value {
                    if let StorageUser::Host(h) = u.value {
                        add_ref(&mut ix, u.span, design.host(h).span, Target::Host(h));
                    }
                }
            }
            for p in &st.ports {
                if let Some(s) = &p.switch {
                    let (a, b, t) = sw(s);
                    add_ref(&mut ix, a, b, t);
                }
                for id in &p.networks {
                    let (a, b, t) = net(id);
                    add_ref(&mut ix, a, b, t);
                }
            }
        }
        ix
    }

    /// The reference at `offset`, the narrowest when several hold it.
    pub fn ref_at(&self, offset: usize) -> Option<&Ref> {
        self.refs
            .iter()
            .filter(|r| contains(r.span, offset))
            .min_by_key(|r| r.span.len())
    }

    /// The definition at `offset`, the narrowest; the first element it
    /// defines (in design order) when it defines several.
    pub fn def_at(&self, offset: usize) -> Option<&Def> {
        let mut best: Option<&Def> = None;
        for d in self.defs.iter().filter(|d| contains(d.span, offset)) {
            if best.is_none_or(|b| d.span.len() < b.span.len()) {
                best = Some(d);
            }
        }
        best
    }

    /// The element at `offset`: the one a reference names, else the one
    /// whose definition is there.
    pub fn target_at(&self, offset: usize) -> Option<(Target, Span)> {
        if let Some(r) = self.ref_at(offset) {
            return Some((r.target, r.def));
        }
        self.def_at(offset).map(|d| (d.target, d.span))
    }

    /// Every reference to the element defined at `def`, in file order.
    pub fn refs_to(&self, def: Span) -> Vec<Span> {
        let mut out: Vec<Span> = self
            .refs
            .iter()
            .filter(|r| r.def == def)
            .map(|r| r.span)
            .collect();
        out.sort();
        out.dedup();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use netlint_model::{load, SourceFile};

    const SRC: &str = include_str!("../../fixtures/example.toml");

    fn index() -> (Design, Index) {
        let design = load(&SourceFile::new("example.toml", SRC)).design.unwrap();
        let ix = Index::build(&design, SRC);
        (design, ix)
    }

    fn at(s: &str, n: usize) -> usize {
        SRC.match_indices(s).nth(n).unwrap().0 + 1
    }

    #[test]
    fn a_switch_value_leads_to_its_table_and_back() {
        let (design, ix) = index();
        // `switch = "tor-b"` in profile nic P1-2.
        let r = ix.ref_at(at("\"tor-b\"", 0)).unwrap();
        let tor_b = design.switch_by_name("tor-b").unwrap();
        assert_eq!(r.target, Target::Switch(tor_b));
        assert_eq!(&SRC[r.def.start..r.def.end], "[switches.tor-b]");
        // References: the peer-link's `b` and the profile's NIC, each once
        // though four hosts share the profile line.
        let refs = ix.refs_to(r.def);
        let texts: Vec<&str> = refs.iter().map(|s| &SRC[s.start..s.end]).collect();
        assert_eq!(texts, ["\"tor-b\"", "\"tor-b\""]);
    }

    #[test]
    fn profiles_networks_and_uplinks_are_references() {
        let (design, ix) = index();
        let p = ix.ref_at(at("\"node\"", 0)).unwrap();
        assert_eq!(p.target, Target::Profile(0));
        assert_eq!(ix.refs_to(p.def).len(), 4);
        let lm = ix.ref_at(at("\"lm\"", 0)).unwrap();
        assert_eq!(
            lm.target,
            Target::Network(design.network_by_name("lm").unwrap())
        );
        let up = ix.ref_at(at("\"P1-1\"", 0)).unwrap();
        assert!(matches!(up.target, Target::Nic(HostId(0), NicIdx(0))));
        assert_eq!(&SRC[up.def.start..up.def.end], "[profiles.node.nics.P1-1]");
        // On a definition: the element itself.
        let (t, _) = ix.target_at(at("[hosts.hv03]", 0)).unwrap();
        assert_eq!(t, Target::Host(HostId(2)));
    }
}
