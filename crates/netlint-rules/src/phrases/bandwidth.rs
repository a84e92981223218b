//! The words of the bandwidth model's facts (the model's own bound texts
//! are still written by the analysis: issue 11 item 2, left).

use netlint_analysis::bandwidth::{
    ClassModel, ClassNote, ValidatorTerm, VALIDATOR_FLAT_MB_PER_ADAPTER, VALIDATOR_SMB_FACTOR,
};
use netlint_model::units::trim_float;
use netlint_model::{Design, Host};

/// One adapter's term of the validator's SMB limit: "`X` 25G: above 10G,
/// 750 MB/s", "`X` 10G: 50 % x 0.6 x 10G / 8 = 357 MB/s".
pub fn validator_term(host: &Host, share: f64, t: &ValidatorTerm) -> String {
    let (name, speed) = (&host.nic(t.nic).name, t.speed);
    if t.flat {
        format!("`{name}` {speed}: above 10G, {VALIDATOR_FLAT_MB_PER_ADAPTER} MB/s")
    } else {
        format!(
            "`{name}` {speed}: {} % x {VALIDATOR_SMB_FACTOR} x {speed} / 8 = {} MB/s",
            trim_float(share * 100.0),
            trim_float(t.mb_per_sec)
        )
    }
}

/// A class's note in words: "SMB Direct (roce-v2) on vNIC `SMB1` on `S`",
/// "network `lm2` has no interface on this host".
pub fn class_note(design: &Design, class: &ClassModel, note: &ClassNote) -> String {
    match note {
        ClassNote::SmbDirect { port, rdma } => {
            format!("SMB Direct ({rdma}) on {}", class.ports[*port].name)
        }
        ClassNote::NoInterface(net) => format!(
            "network `{}` has no interface on this host",
            design.network(*net).name
        ),
    }
}
