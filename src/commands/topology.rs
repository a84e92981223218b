//! `netlint topology DESIGN`: what the switches will forward, and why
//! (the model is `views::topology`, its text `render::topology`).

use crate::commands::common::{load_design, ConfigArgs, ListFormat, LoadedDesign};
use crate::render;
use crate::views::topology::build;
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct TopologyArgs {
    /// The design file.
    pub design: PathBuf,
    #[arg(long, value_enum, default_value = "human")]
    pub format: ListFormat,
    #[command(flatten)]
    pub config: ConfigArgs,
}

pub fn run(args: TopologyArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<i32, String> {
    let Some(LoadedDesign {
        shown, design: d, ..
    }) = load_design(&args.design, &args.config, err)?
    else {
        return Ok(2);
    };
    let report = build(&d, &shown);
    let text = match args.format {
        ListFormat::Human => render::topology::human(&report),
        ListFormat::Json => {
            let mut s = serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?;
            s.push('\n');
            s
        }
    };
    out.write_all(text.as_bytes()).map_err(|e| e.to_string())?;
    Ok(0)
}
