//! A NIC's or link's `speed` may be absent: the design does not say (switch
//! configurations and imports rarely state it). It is then unknown, never
//! guessed; these accessors give the speed when stated and the line a
//! finding about it points at.

use crate::design::{Link, Nic};
use crate::span::Span;
use crate::units::Speed;

impl Nic {
    /// The stated speed; None: unknown.
    pub fn known_speed(&self) -> Option<Speed> {
        self.speed.as_ref().map(|s| s.value)
    }
    /// The `speed` line, or the NIC's own header when it states none.
    pub fn speed_span(&self) -> Span {
        self.speed.as_ref().map_or(self.span, |s| s.span)
    }
}

impl Link {
    /// The stated per-member speed; None: unknown.
    pub fn known_speed(&self) -> Option<Speed> {
        self.speed.as_ref().map(|s| s.value)
    }
    /// The `speed` line, or the link's own header when it states none.
    pub fn speed_span(&self) -> Span {
        self.speed.as_ref().map_or(self.span, |s| s.span)
    }
}
