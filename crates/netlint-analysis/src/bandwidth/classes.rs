//! Classes: the figures of one traffic class of one host, healthy and
//! degraded, and the host's drain time.

use super::*;

/// What a class needs to be evaluated in one scenario.
pub(super) struct Spec<'a> {
    pub(super) class: TrafficClass,
    pub(super) transport: ClassTransport,
    pub(super) simultaneous: u32,
    pub(super) cap: Option<&'a Bandwidth>,
}

pub(super) fn cap_bound(cap: &Bandwidth) -> Bound {
    Bound {
        kind: BoundKind::SmbCap,
        speed: Speed::from_bps(cap.bits_per_sec().round() as u64),
        reason: BoundReason::SmbCap(*cap),
        nics: Vec::new(),
        unknown: Vec::new(),
    }
}

pub(super) fn union_active(ports: &[&Port]) -> Vec<NicIdx> {
    let mut out = Vec::new();
    for p in ports {
        for n in &p.active {
            if !out.contains(n) {
                out.push(*n);
            }
        }
    }
    out
}

pub(super) fn smb_flows(p: &Port) -> Flows {
    if p.rss && p.rdma.is_none() {
        Flows::Many
    } else {
        Flows::One
    }
}

/// The figures of a class given the sending host's ports (None = down) and
/// the receiving (healthy, alike) host's ports, index-aligned.
pub(super) fn evaluate(
    host: &Host,
    spec: &Spec<'_>,
    tx: &[Option<Port>],
    rx: &[Port],
) -> Option<Figures> {
    let up: Vec<usize> = (0..tx.len()).filter(|i| tx[*i].is_some()).collect();
    let first = *up.first()?;
    let in_use: Vec<usize> = if spec.transport.one_network() {
        vec![first]
    } else {
        up.clone()
    };
    let txp = |i: usize| tx[i].as_ref().expect("up");
    let all_up: Vec<&Port> = up.iter().map(|i| txp(*i)).collect();
    let adapters = union_active(&all_up);
    let adapters_bound = Bound {
        kind: BoundKind::Adapters,
        speed: sum_speed(host, &adapters),
        reason: BoundReason::Adapters,
        unknown: unknown_speeds(host, &adapters),
        nics: adapters.clone(),
    };
    let cap = spec.cap.map(cap_bound);

    // One stream: one connection on the first port in use.
    let p0 = txp(first);
    let stream_nics: Vec<NicIdx> = match p0.tx {
        Spread::Shared(n) => vec![n],
        _ => p0.active.clone(),
    };
    let one_flow = Bound {
        kind: BoundKind::OneFlow,
        speed: min_speed(host, &stream_nics),
        reason: BoundReason::OneFlow {
            port: p0.via,
            migration: false,
        },
        unknown: unknown_speeds(host, &stream_nics),
        nics: stream_nics.clone(),
    };
    let mut per_stream = vec![one_flow];
    if spec.class == TrafficClass::LiveMigration {
        per_stream.extend(cap.clone());
    }

    let flows_for = |p: &Port| -> Flows {
        match spec.transport {
            ClassTransport::LmTcp | ClassTransport::LmCompression => {
                Flows::Count(spec.simultaneous)
            }
            ClassTransport::Smb => smb_flows(p),
            ClassTransport::Mpio => Flows::One,
            ClassTransport::MultiNicVmotion => Flows::One,
            ClassTransport::Guests | ClassTransport::Streams => Flows::Many,
        }
    };
    // Two networks on one interface (a team interface with two IPs) are
    // one port to the load balancing.
    let mut distinct: Vec<usize> = Vec::new();
    for i in &in_use {
        if !distinct.iter().any(|j| txp(*j).via == txp(*i).via) {
            distinct.push(*i);
        }
    }
    let items_tx: Vec<(&Port, Flows)> = distinct
        .iter()
        .map(|i| (txp(*i), flows_for(txp(*i))))
        .collect();
    let items_rx: Vec<(&Port, Flows)> = distinct
        .iter()
        .map(|i| (&rx[*i], flows_for(&rx[*i])))
        .collect();

    let mut aggregate = vec![adapters_bound.clone()];
    if spec.transport.one_network() {
        let chosen = &p0.active;
        let speed = sum_speed(host, chosen);
        let mut others: Vec<Via> = Vec::new();
        for i in &up {
            if *i != first && !others.contains(&txp(*i).via) {
                others.push(txp(*i).via);
            }
        }
        aggregate.push(Bound {
            kind: BoundKind::OneNetwork,
            speed,
            reason: BoundReason::OneNetwork {
                transport: spec.transport,
                port: p0.via,
                others,
            },
            unknown: unknown_speeds(host, chosen),
            nics: chosen.clone(),
        });
    }
    aggregate.extend(usage_bound(host, &items_tx, Side::Send, BoundKind::Send));
    aggregate.extend(usage_bound(
        host,
        &items_rx,
        Side::Receive,
        BoundKind::Receive,
    ));
    if spec.class == TrafficClass::LiveMigration {
        aggregate.extend(cap.clone());
    }

    let per_migration = (spec.class == TrafficClass::LiveMigration).then(|| {
        if spec.transport.one_network() {
            let mut b = per_stream.clone();
            b[0].reason = BoundReason::OneFlow {
                port: p0.via,
                migration: true,
            };
            Rate { bounds: b }
        } else {
            // One migration already spreads over every interface; the
            // simultaneous ones share the same channels.
            Rate {
                bounds: aggregate.clone(),
            }
        }
    });

    Some(Figures {
        per_stream: Rate { bounds: per_stream },
        per_migration,
        aggregate: Rate { bounds: aggregate },
        in_use,
    })
}

pub(super) fn pin_caps(
    host: &Host,
    spec: &Spec<'_>,
    ports: &[Port],
    figures: &Figures,
) -> Vec<PinCap> {
    let mut groups: Vec<(Balancer, Vec<usize>)> = Vec::new();
    for i in &figures.in_use {
        let p = &ports[*i];
        let Some(b) = &p.balancer else { continue };
        if !b.is_hyperv_port() || p.tx != Spread::OneMember {
            continue;
        }
        match groups.iter_mut().find(|(g, _)| g.group == b.group) {
            // Two networks on one interface are one port.
            Some((_, v)) if v.iter().any(|j| ports[*j].via == p.via) => {}
            Some((_, v)) => v.push(*i),
            None => groups.push((b.clone(), vec![*i])),
        }
    }
    let mut out = Vec::new();
    for (b, idx) in groups {
        let items: Vec<(&Port, Flows)> = idx
            .iter()
            .map(|i| (&ports[*i], Flows::Count(spec.simultaneous.max(1))))
            .collect();
        let used = used_nics(&items, Side::Send);
        let used_here: Vec<NicIdx> = used.into_iter().filter(|n| b.members.contains(n)).collect();
        if used_here.len() >= b.members.len() || b.members.len() < 2 {
            continue;
        }
        let member_speed = min_speed(host, &b.members);
        out.push(PinCap {
            cap: sum_speed(host, &used_here),
            team_total: sum_speed(host, &b.members),
            members_used: used_here.len(),
            member_speed,
            unknown: unknown_speeds(host, &b.members),
            balancer: b,
            ports: idx,
        });
    }
    out
}

pub(super) fn class_networks(design: &Design, host: &Host, class: TrafficClass) -> Vec<NetworkId> {
    let by_role = |f: &dyn Fn(&netlint_model::Network) -> bool| -> Vec<NetworkId> {
        design
            .networks
            .iter()
            .enumerate()
            .filter(|(_, n)| f(n))
            .map(|(i, _)| NetworkId(i))
            .collect()
    };
    match class {
        TrafficClass::LiveMigration => host
            .live_migration
            .as_ref()
            .map(|lm| lm.networks.iter().map(|n| n.value).collect())
            .unwrap_or_default(),
        TrafficClass::Csv => by_role(&|n| matches!(n.role.value, Role::Csv | Role::Cluster)),
        TrafficClass::SmbStorage => by_role(&|n| {
            n.role.value == Role::Storage
                && n.protocol.as_ref().map(|p| p.value) == Some(Protocol::Smb)
        }),
        TrafficClass::Iscsi => by_role(&|n| {
            n.role.value == Role::Storage
                && n.protocol.as_ref().map(|p| p.value) == Some(Protocol::Iscsi)
        }),
        TrafficClass::Vm => by_role(&|n| n.role.value == Role::Vm),
        TrafficClass::Backup => by_role(&|n| n.role.value == Role::Backup),
    }
}

pub(super) fn class_model(
    design: &Design,
    topology: &Topology,
    hid: HostId,
    class: TrafficClass,
) -> Option<ClassModel> {
    let host = design.host(hid);
    let vsphere = host.os.value.is_vsphere();
    let networks = class_networks(design, host, class);
    let guests = class == TrafficClass::Vm;
    let mut ports = Vec::new();
    for net in &networks {
        ports.extend(ports_of(design, topology, hid, *net, guests));
    }
    if ports.is_empty() {
        return None;
    }
    let lm = host.live_migration.as_ref();
    let mut assumptions: Vec<Assumption> = vec![Assumption::LineRate, Assumption::PeerAlike];
    let (transport, simultaneous, cap) = match class {
        TrafficClass::LiveMigration => {
            let lm = lm?;
            let transport = if vsphere {
                ClassTransport::MultiNicVmotion
            } else {
                match lm.transport.value {
                    Transport::Tcp => ClassTransport::LmTcp,
                    Transport::Compression => ClassTransport::LmCompression,
                    Transport::Smb => ClassTransport::Smb,
                }
            };
            let sim = match &lm.simultaneous {
                Some(s) => (s.value, false),
                None => (DEFAULT_SIMULTANEOUS_MIGRATIONS, true),
            };
            let cap = (transport == ClassTransport::Smb)
                .then(|| lm.smb_bandwidth_limit.as_ref().map(|c| c.value))
                .flatten();
            (transport, Some(sim), cap)
        }
        TrafficClass::Csv | TrafficClass::SmbStorage => (ClassTransport::Smb, None, None),
        TrafficClass::Iscsi => (ClassTransport::Mpio, None, None),
        TrafficClass::Vm => (ClassTransport::Guests, None, None),
        TrafficClass::Backup => (ClassTransport::Streams, None, None),
    };
    let spec = Spec {
        class,
        transport,
        simultaneous: simultaneous.map(|s| s.0).unwrap_or(1),
        cap: cap.as_ref(),
    };
    let tx: Vec<Option<Port>> = ports.iter().cloned().map(Some).collect();
    let healthy = evaluate(host, &spec, &tx, &ports)?;

    // The single adapter loss that hurts the class most.
    let mut candidates: Vec<NicIdx> = Vec::new();
    for p in &ports {
        for n in p.all_nics() {
            if !candidates.contains(&n) {
                candidates.push(n);
            }
        }
    }
    let mut degraded: Option<Degraded> = None;
    let mut stranded = Vec::new();
    for lost in candidates {
        let tx: Vec<Option<Port>> = ports.iter().map(|p| p.without(lost)).collect();
        let down: Vec<usize> = (0..tx.len()).filter(|i| tx[*i].is_none()).collect();
        let Some(figures) = evaluate(host, &spec, &tx, &ports) else {
            stranded.push(lost);
            continue;
        };
        // Compared without the SMB cap: the loss that takes most from the
        // adapters, even where the cap hides it.
        let uncapped = |r: &Rate| r.speed_without(BoundKind::SmbCap);
        let worse = match &degraded {
            None => {
                uncapped(&figures.aggregate) < uncapped(&healthy.aggregate)
                    || uncapped(&figures.per_stream) < uncapped(&healthy.per_stream)
            }
            Some(d) => uncapped(&figures.aggregate) < uncapped(&d.figures.aggregate),
        };
        if worse {
            degraded = Some(Degraded {
                lost,
                figures,
                down,
            });
        }
    }

    let pin_caps = pin_caps(host, &spec, &ports, &healthy);

    // Labels of what the figures relied on.
    let in_use_ports: Vec<&Port> = healthy.in_use.iter().map(|i| &ports[*i]).collect();
    match transport {
        ClassTransport::LmTcp | ClassTransport::LmCompression => {
            assumptions.push(Assumption::OneConnectionPerMigration);
            assumptions.push(Assumption::OneNetworkAtATime);
            assumptions.push(Assumption::OnePeer);
            if transport == ClassTransport::LmCompression {
                assumptions.push(Assumption::CompressionNotCredited);
            }
        }
        ClassTransport::Smb => {
            assumptions.push(Assumption::SmbMultichannel);
            if cap.is_some() {
                assumptions.push(Assumption::SmbCap);
            }
        }
        ClassTransport::MultiNicVmotion => assumptions.push(Assumption::MultiNicVmotion),
        ClassTransport::Mpio => assumptions.push(Assumption::MpioOneSession),
        ClassTransport::Guests => assumptions.push(Assumption::GuestsSpread),
        ClassTransport::Streams => {}
    }
    if simultaneous.is_some_and(|s| s.1) && transport.one_network() {
        assumptions.push(Assumption::DefaultSimultaneous);
    }
    for p in &in_use_ports {
        let Some(b) = &p.balancer else { continue };
        let lb = b.effective_lb(host);
        let push = |a: Assumption, v: &mut Vec<Assumption>| {
            if !v.contains(&a) {
                v.push(a);
            }
        };
        if p.tx == Spread::OneMember && p.active.len() > 1 {
            push(Assumption::HypervPortRoundRobin, &mut assumptions);
        }
        match lb {
            Some(LoadBalancing::AddressHash) => {
                push(Assumption::AddressHashReceive, &mut assumptions)
            }
            Some(LoadBalancing::Dynamic) => push(Assumption::DynamicSpreads, &mut assumptions),
            None => push(Assumption::SetBalancingUnstated, &mut assumptions),
            _ => {}
        }
        if b.mode.switch_dependent() {
            push(Assumption::AddressHashReceive, &mut assumptions);
        }
    }

    let mut notes = Vec::new();
    if transport == ClassTransport::Smb {
        for &i in &healthy.in_use {
            if let Some(rdma) = ports[i].rdma {
                notes.push(ClassNote::SmbDirect { port: i, rdma });
            }
        }
    }
    for net in &networks {
        if !ports.iter().any(|p| p.network == *net) {
            notes.push(ClassNote::NoInterface(*net));
        }
    }

    Some(ClassModel {
        class,
        transport,
        networks,
        ports,
        simultaneous,
        cap,
        healthy,
        degraded,
        stranded,
        pin_caps,
        assumptions,
        notes,
    })
}

pub(super) fn drain_time(gib: f64, rate: Speed, known: Known, standard_frames: bool) -> DrainTime {
    let seconds = drain_seconds(gib, rate);
    DrainTime {
        rate,
        known,
        seconds,
        standard_frames: standard_frames.then_some((
            seconds * (1.0 + JUMBO_LM_GAIN_LOW),
            seconds * (1.0 + JUMBO_LM_GAIN_HIGH),
        )),
    }
}

/// The classes of one host: everything of the model but the drain time.
/// Computed once per class of hosts alike (`alike::Inputs` lists what it
/// reads) and shared by them.
pub(super) fn host_classes(design: &Design, topology: &Topology, hid: HostId) -> Vec<ClassModel> {
    let host = design.host(hid);
    let mut classes: Vec<ClassModel> = TrafficClass::ALL
        .iter()
        .filter_map(|c| class_model(design, topology, hid, *c))
        .collect();
    // A drain time over standard frames is given as a range: only for a
    // host with `memory_gb` (whatever its value).
    if host.memory_gb.is_some() {
        if let Some(lm) = classes
            .iter_mut()
            .find(|c| c.class == TrafficClass::LiveMigration)
        {
            if standard_frames(lm, &lm.healthy)
                || lm
                    .degraded
                    .as_ref()
                    .is_some_and(|d| standard_frames(lm, &d.figures))
            {
                lm.assumptions.push(Assumption::JumboGain);
            }
        }
    }
    classes
}

/// Whether live migration runs over standard frames on an interface in use.
fn standard_frames(lm: &ClassModel, f: &Figures) -> bool {
    f.in_use
        .iter()
        .any(|i| lm.ports[*i].mtu <= STANDARD_FRAMES_MTU)
}

/// The host's drain time: its own `memory_gb` at the rates of its (maybe
/// shared) live-migration class.
pub(super) fn host_drain(host: &Host, classes: &[ClassModel]) -> Option<Drain> {
    let mem = host.memory_gb.as_ref()?;
    let lm = classes
        .iter()
        .find(|c| c.class == TrafficClass::LiveMigration)?;
    let healthy = drain_time(
        mem.value,
        lm.healthy.aggregate.speed(),
        lm.healthy.aggregate.known(),
        standard_frames(lm, &lm.healthy),
    );
    let degraded = lm.degraded.as_ref().map(|d| {
        (
            d.lost,
            drain_time(
                mem.value,
                d.figures.aggregate.speed(),
                d.figures.aggregate.known(),
                standard_frames(lm, &d.figures),
            ),
        )
    });
    Some(Drain {
        memory_gib: mem.clone(),
        healthy,
        degraded,
    })
}

/// One adapter's term of the validator's SMB live-migration limit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ValidatorTerm {
    pub nic: NicIdx,
    pub speed: Speed,
    /// Above 10G: the flat [`VALIDATOR_FLAT_MB_PER_ADAPTER`]; otherwise
    /// `share` x [`VALIDATOR_SMB_FACTOR`] x speed / 8.
    pub flat: bool,
    /// What the adapter adds, in whole MB/s (PowerShell MB, floored).
    pub mb_per_sec: f64,
}

/// The SMB live-migration limit Microsoft's validator expects for these
/// adapters: per adapter, `share` x [`VALIDATOR_SMB_FACTOR`] x link speed /
/// 8 up to 10G, [`VALIDATOR_FLAT_MB_PER_ADAPTER`] above. In bytes per
/// second, with each adapter's term. None when an adapter's speed is not
/// stated (the limit cannot be told).
pub fn validator_limit(
    host: &Host,
    nics: &[NicIdx],
    share: f64,
) -> Option<(Bandwidth, Vec<ValidatorTerm>)> {
    let mut total = 0.0;
    let mut terms = Vec::new();
    for n in nics {
        let speed = host.nic(*n).speed.as_ref()?.value;
        let flat = speed > VALIDATOR_FLAT_ABOVE;
        let bytes = if flat {
            VALIDATOR_FLAT_MB_PER_ADAPTER * 1_048_576.0
        } else {
            share * VALIDATOR_SMB_FACTOR * speed.bytes_per_sec()
        };
        total += b_floor(bytes);
        terms.push(ValidatorTerm {
            nic: *n,
            speed,
            flat,
            mb_per_sec: (bytes / 1_048_576.0).floor(),
        });
    }
    Some((Bandwidth::from_bytes_per_sec(total), terms))
}

/// Whole PowerShell MB.
pub(super) fn b_floor(bytes: f64) -> f64 {
    (bytes / 1_048_576.0).floor() * 1_048_576.0
}
