//! Prints a synthetic design: `cargo run --example synth -- HOSTS [SEED]`.

fn main() {
    let mut args = std::env::args().skip(1);
    let hosts = args.next().and_then(|a| a.parse().ok()).unwrap_or(64);
    let seed = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let params = netlint_synth::Params {
        seed,
        ..netlint_synth::Params::hosts(hosts)
    };
    print!("{}", netlint_synth::generate(&params));
}
