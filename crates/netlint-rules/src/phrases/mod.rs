//! The words of netlint's analyses: every sentence the rules and the views
//! say about the facts the analysis crate returns (ids, numbers, enums).
//! The analysis crate writes no prose (its invariant, checked by its test
//! `analysis_source_has_no_sentences`); rules and the commands' views reach
//! these phrases here, so one fact reads the same everywhere.
//!
//! - [`failure`]: failure units, requirements, host lists, why a carrier
//!   or a host lost a requirement, the consequence of a loss, and the
//!   spanning-tree changes of a scenario.
//! - [`bandwidth`]: traffic classes, transports, ports, the reason of
//!   every bound of the bandwidth model, its assumptions and their
//!   sources, rates and durations, the validator's SMB limit.
//! - [`stp`]: names of spanning trees, why a root won, a tree's changes in
//!   a scenario.
//! - [`words`]: the phrases every rule and view shares: `and_list`, host
//!   lists (written from a finding's subjects after `allow`), port speeds.

pub mod bandwidth;
pub mod failure;
pub mod ports;
pub(crate) mod storage;
pub mod stp;
pub mod words;
