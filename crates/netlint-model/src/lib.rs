//! The netlint design format: TOML text with spans to a validated, typed
//! [`Design`]. See `docs/format.md` for the format itself.

#[macro_use]
pub mod design;
pub mod diag;
pub mod element;
pub mod fast_hash;
pub mod fix;
pub mod ifname;
mod load;
pub mod ports;
mod reader;
pub mod span;
mod speed;
pub mod storage;
pub mod switch_models;
mod syntax;
pub mod text;
pub mod units;
pub mod vlans;

pub use design::*;
pub use diag::{
    Category, Diagnostic, HostListStyle, HostWords, Label, RuleId, RuleMeta, Severity, SCHEMA,
    SYNTAX, UNREADABLE,
};
pub use element::{Element, Part, Via};
pub use fix::{Fix, FixEdit, FixSafety, FixValue, PathSegment, TomlPath};
pub use load::{load, parse_lint_settings, Loaded, MAX_DRAIN_BUDGET_S, MAX_MEMORY_GB};
pub use ports::{
    End, EndMtu, HostPortView, LinkEnds, NativeAt, PortDrop, PortVlan, SwitchPort,
    DEFAULT_NATIVE_VLAN,
};
pub use reader::{did_you_mean, nearest};
pub use span::{LineCol, SourceFile, Sp, Span};
pub use storage::*;
pub use units::{Bandwidth, Duration, Mtu, MtuForm, Speed};
pub use vlans::VlanSet;
