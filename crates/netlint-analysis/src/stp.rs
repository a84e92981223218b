//! Spanning tree engine (in progress).
