//! `netlint graph`: the design drawn as it will behave. Switches grouped by
//! stack / MLAG domain and ranked by tier, inter-switch links with speed,
//! members and VLANs, the spanning tree's port roles (blocked ports dashed,
//! roots starred), hosts collapsed by profile, findings on the elements they
//! are about, and with `--fail` the state after a failure, cut networks in
//! red.
//!
//! Building the picture ([`build`]) is separate from writing it: a
//! [`Scene`] holds everything that is drawn, and `render::dot` and
//! `render::mermaid` turn the same scene into Graphviz DOT or a Mermaid
//! flowchart. `render::markdown` draws the part of a design its
//! spanning-tree and redundancy findings are about with a [`Scope`].

mod build;
mod cabling;
mod ctx;
mod hosts;
mod links;
mod marks;
mod options;
mod scene;
mod scope;
mod targets;

pub use build::build;
pub use marks::finding_elements;
pub use options::*;
pub use scene::*;
pub use scope::scope_of;
