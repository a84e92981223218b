//! `netlint simulate DESIGN [--fail NAME ...]`: what a failure takes away
//! (the model is `views::simulate`, its text `render::simulate`).

use crate::commands::common::{load_design, ConfigArgs, ListFormat, LoadedDesign};
use crate::render;
use crate::views::simulate::build;
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct SimulateArgs {
    /// The design file.
    pub design: PathBuf,
    /// Fail this, together with every other `--fail`: a switch, a stack or
    /// MLAG domain, a link (every cable), `link#K` (its K-th cable),
    /// `host:NIC` (a NIC port or its cable), `host:card:NAME`. Without
    /// `--fail`: a table of every single failure.
    #[arg(long = "fail", value_name = "NAME")]
    pub fail: Vec<String>,
    /// A stack fails as a whole (a reload, a bad upgrade), not member by member.
    #[arg(long)]
    pub stack_as_unit: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "human")]
    pub format: ListFormat,
    #[command(flatten)]
    pub config: ConfigArgs,
}
pub fn run(args: SimulateArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<i32, String> {
    let Some(LoadedDesign { shown, design, .. }) = load_design(&args.design, &args.config, err)?
    else {
        return Ok(2);
    };
    let report = build(&design, &shown, &args.fail, args.stack_as_unit)?;
    let text = match args.format {
        ListFormat::Human => render::simulate::human(&report),
        ListFormat::Json => {
            let mut s = serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?;
            s.push('\n');
            s
        }
    };
    out.write_all(text.as_bytes()).map_err(|e| e.to_string())?;
    Ok(0)
}
