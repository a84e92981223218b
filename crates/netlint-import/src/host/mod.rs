//! Hosts as built: Hyper-V / Azure Local collections read into a generic
//! value tree ([`value`]), mapped to typed facts with provenance.

pub mod clixml;
pub mod sddc;
pub mod value;

pub use value::{Collection, Node, Value};
pub mod facts;
pub mod hyperv;
pub mod json;
pub mod vsphere;
pub mod vsphere_write;
