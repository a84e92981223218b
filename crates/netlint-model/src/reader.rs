//! Walks the span-carrying TOML tree (filled in below).
