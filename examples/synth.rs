//! Prints a synthetic design:
//! `cargo run --example synth -- HOSTS [SEED] [--flawed]`.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flawed = args.iter().any(|a| a == "--flawed");
    let mut nums = args.iter().filter(|a| !a.starts_with("--"));
    let hosts = nums.next().and_then(|a| a.parse().ok()).unwrap_or(64);
    let seed = nums.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let params = netlint_synth::Params {
        seed,
        flawed,
        ..netlint_synth::Params::hosts(hosts)
    };
    print!("{}", netlint_synth::generate(&params));
}
