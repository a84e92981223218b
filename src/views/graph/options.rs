//! What to draw: which tree, which hosts, what has failed, which part.

use netlint_analysis::failure::parse_unit;
use netlint_analysis::{Failures, Topology};
use netlint_model::{Design, HostId, NetworkId, SwitchId};
use std::collections::BTreeSet;

/// Which spanning tree's roles to draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// Every tree: a link blocked for some VLANs says which, at which end.
    AllTrees,
    /// One MSTP instance (0 = the CIST; non-MSTP bridges show their CIST role).
    Instance(u16),
    /// The trees that decide one network's VLAN on each bridge.
    Network(NetworkId),
}

/// The part of a design to draw (everything when absent).
#[derive(Clone, Debug, Default)]
pub struct Scope {
    pub switches: BTreeSet<SwitchId>,
    pub hosts: BTreeSet<HostId>,
    /// Networks listed in the legend (besides those cut or with findings).
    pub networks: BTreeSet<NetworkId>,
}

#[derive(Clone, Debug)]
pub struct GraphOptions {
    pub view: View,
    /// One node per host instead of one per identical profile build.
    pub hosts_all: bool,
    /// Draw cards, NICs, teams and virtual switches.
    pub detail_host: bool,
    pub failures: Failures,
    /// The `--fail` arguments as given, for the title.
    pub failure_names: Vec<String>,
    pub scope: Option<Scope>,
}

impl Default for GraphOptions {
    fn default() -> Self {
        GraphOptions {
            view: View::AllTrees,
            hosts_all: false,
            detail_host: false,
            failures: Failures::default(),
            failure_names: Vec::new(),
            scope: None,
        }
    }
}

/// Adds the failure `name` names to `into`: a switch, a stack or MLAG
/// domain (every member), a link (every cable), `link#K` (its K-th cable,
/// from 1), `host:NIC`, or `host:card:NAME` (every NIC on that card). The
/// names are those of `netlint simulate --fail`.
pub fn parse_failure(design: &Design, name: &str, into: &mut Failures) -> Result<(), String> {
    let topo = Topology::build(design);
    let unit = parse_unit(design, &topo, name).map_err(|e| format!("--fail {name}: {e}"))?;
    unit.add_to(design, &topo, into);
    Ok(())
}
