//! The hash maps of netlint's own bookkeeping (names, elements, bridge,
//! port and host indices): foldhash with a fixed seed instead of std's SipHash, which is
//! built to resist chosen keys, a threat indices of a design read from a
//! file do not pose. The seed is fixed so that a run does not depend on
//! the process; nothing reads these maps in their iteration order (std's
//! maps, seeded per process, could not have been read so either).

pub type Map<K, V> = std::collections::HashMap<K, V, foldhash::fast::FixedState>;
pub type Set<K> = std::collections::HashSet<K, foldhash::fast::FixedState>;
