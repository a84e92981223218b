//! `netlint generate DESIGN --vendor nxos|eos|os10|ios -o DIR`: one running-config
//! per managed switch of the design (`DIR/<switch>.cfg`) and the cabling
//! the design states (`DIR/cabling.csv`), written by `netlint-generate`
//! so that `netlint import` reads back what the design states
//! (docs/generate.md). Each file is written whole or not at all. What the
//! vendor cannot build (a stack on NX-OS, ...) is refused: exit 2, each
//! cause at its design line, nothing written.

use crate::render;
use crate::run::files::{io_reason, read_file};
use crate::run::{write_atomic, FileReport, Report, DEFAULT_MAX_FILE_SIZE};
use netlint_generate::Vendor;
use netlint_model::{FailOn, Severity, SourceFile};
use std::io::Write;
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum VendorArg {
    /// Cisco NX-OS (Nexus 9000 syntax).
    Nxos,
    /// Arista EOS.
    Eos,
    /// Dell SmartFabric OS10.
    Os10,
    /// Cisco IOS-XE (Catalyst 9000 syntax).
    Ios,
}

#[derive(clap::Args, Debug)]
pub struct GenerateArgs {
    /// The design to write switch configs for.
    #[arg(value_name = "DESIGN")]
    pub design: PathBuf,
    /// The switches' operating system.
    #[arg(long, value_enum)]
    pub vendor: VendorArg,
    /// The folder to write `<switch>.cfg` and `cabling.csv` into (made if
    /// missing).
    #[arg(short = 'o', long = "output", value_name = "DIR")]
    pub output: PathBuf,
}

pub fn run(args: GenerateArgs, _out: &mut dyn Write, err: &mut dyn Write) -> Result<i32, String> {
    let shown = args.design.display().to_string();
    let bytes = read_file(&args.design, DEFAULT_MAX_FILE_SIZE)
        .map_err(|e| format!("cannot read {shown}: {e}"))?;
    let text = String::from_utf8(bytes).map_err(|_| format!("{shown} is not UTF-8 text"))?;
    let file = SourceFile::new(shown.clone(), text);
    let loaded = netlint_model::load(&file);
    let Some(design) = loaded.design else {
        for d in loaded
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
        {
            let at = file.line_col(d.primary.as_ref().map_or(0, |l| l.span.start));
            let _ = writeln!(err, "{shown}:{}:{}: {}", at.line, at.column, d.message);
        }
        let _ = writeln!(
            err,
            "netlint: {shown} does not load as a design: nothing generated"
        );
        return Ok(2);
    };
    let vendor = match args.vendor {
        VendorArg::Nxos => Vendor::NxOs,
        VendorArg::Eos => Vendor::Eos,
        VendorArg::Os10 => Vendor::Os10,
        VendorArg::Ios => Vendor::Ios,
    };
    let generated = match netlint_generate::generate(&design, vendor) {
        Ok(g) => g,
        Err(refused) => {
            // What the vendor cannot build, at the design lines that state
            // it, drawn as `check` draws its findings; nothing is written.
            let n = refused.len();
            let report = Report {
                sources: Vec::new(),
                files: vec![FileReport {
                    file,
                    diagnostics: refused,
                    design: None,
                    fail_on: FailOn::Warning,
                }],
                rules: Vec::new(),
            };
            let text = render::human::render(
                &report,
                &render::human::HumanOptions {
                    color: false,
                    width: 100,
                    rule_links: false,
                    summary: false,
                },
            );
            let _ = err.write_all(text.as_bytes());
            let _ = writeln!(
                err,
                "netlint: {shown}: {n} part{} of the design {} cannot build: nothing generated",
                if n == 1 { "" } else { "s" },
                vendor.name()
            );
            return Ok(2);
        }
    };
    let findings = netlint_rules::check(&design, &netlint_rules::RuleConfig::default()).diagnostics;
    std::fs::create_dir_all(&args.output)
        .map_err(|e| format!("cannot create {}: {}", args.output.display(), io_reason(&e)))?;
    for (name, text) in &generated.files {
        let path = args.output.join(name);
        write_atomic(&path, text.as_bytes())
            .map_err(|e| format!("cannot write {}: {}", path.display(), io_reason(&e)))?;
    }
    let switches = generated.files.len() - 1;
    let _ = writeln!(
        err,
        "generated {switches} {} config(s) and cabling.csv in {}",
        vendor.name(),
        args.output.display()
    );
    for n in &generated.not_generated {
        let _ = writeln!(err, "not generated: {n}");
    }
    if !findings.is_empty() {
        let _ = writeln!(
            err,
            "netlint: the design has {} finding(s) (`netlint check {shown}`): the configs carry them too",
            findings.len()
        );
    }
    Ok(0)
}
