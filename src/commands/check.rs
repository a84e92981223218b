//! `netlint check`.

use crate::check::{run_check, CheckSettings};
use crate::cli::{CheckArgs, ColorChoice, Format};
use crate::render;
use std::io::{IsTerminal, Write};

pub fn use_color(choice: ColorChoice) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::io::stdout().is_terminal()
        }
    }
}

pub fn terminal_width() -> usize {
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.parse().ok())
        .filter(|w: &usize| *w >= 40)
        .unwrap_or(100)
}

pub fn run(args: CheckArgs, out: &mut dyn Write) -> Result<i32, String> {
    let settings = CheckSettings {
        fail_on: args.fail_on.map(Into::into),
    };
    let run = run_check(&args.paths, &settings)?;
    let text = match args.format {
        Format::Human => render::human::render(
            &run.report,
            &render::human::HumanOptions {
                color: use_color(args.color),
                width: terminal_width(),
            },
        ),
        Format::Json => render::json::render(&run.report, run.suppressed.len()),
    };
    out.write_all(text.as_bytes()).map_err(|e| e.to_string())?;
    Ok(run.exit)
}
