//! Prints a synthetic design:
//! `cargo run --example synth -- HOSTS [SEED] [--flawed] [--cluster-size N]`.
//! `--cluster-size N` puts N hosts in each cluster (default 16); with
//! N = HOSTS every host is in one cluster, so every pair of hosts shares
//! each network (the quadratic case of reachability).

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flawed = args.iter().any(|a| a == "--flawed");
    let cluster_size = args
        .iter()
        .position(|a| a == "--cluster-size")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse().ok());
    let mut nums = args
        .iter()
        .enumerate()
        .filter(|(i, a)| {
            let value_of_option = *i > 0 && args[i - 1] == "--cluster-size";
            !a.starts_with("--") && !value_of_option
        })
        .map(|(_, a)| a);
    let hosts = nums.next().and_then(|a| a.parse().ok()).unwrap_or(64);
    let seed = nums.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let defaults = netlint_synth::Params::hosts(hosts);
    let params = netlint_synth::Params {
        seed,
        flawed,
        cluster_size: cluster_size.unwrap_or(defaults.cluster_size),
        ..defaults
    };
    print!("{}", netlint_synth::generate(&params));
}
