//! Parses a TOML file into a bare `toml::Table` and nothing else: the
//! floor `netlint check` is measured against in docs/performance.md (the
//! same `toml` version, the same file, as a whole process).
//!
//! `cargo run --release --example parse_toml -- FILE`

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: parse_toml FILE");
        std::process::exit(2);
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    match text.parse::<toml::Table>() {
        Ok(table) => println!("{} top-level keys", table.len()),
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    }
}
