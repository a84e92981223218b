//! NIC teaming rules (LBFO, vendor teams, SET).

pub mod team_speed_mismatch;
