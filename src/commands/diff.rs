//! `netlint diff DESIGN AS-BUILT...`: every difference between the design
//! and the network as built that changes behaviour, as findings of the
//! `drift` category. The as-built side is a design file, or switch
//! running-configs, LLDP tables, cabling CSVs and host collections
//! (Hyper-V, vSphere, `Get-SDDCDiagnosticInfo`) imported in memory (as
//! `netlint import` would write them, by the same reader). CI-gateable like `check`: the same
//! output formats, exit codes, `--fail-on` and baselines.

use crate::commands::common::{
    kind_parser, note_skipped, render_run, use_color, ColorChoice, ConfigArgs, FailOnArg, Format,
};
use crate::run::configs::{import_inputs, refuse_inside_inputs, split_host_dirs, IMPORTED};
use crate::run::diff::run_diff;
use crate::run::files::{io_reason, is_design, parse_size, read_file};
use crate::run::{
    collect_designs, refuse_inputs, write_atomic, Baseline, CheckRun, CheckSettings, ReadOptions,
    RepoPaths, DEFAULT_MAX_FILE_SIZE,
};
use netlint_analysis::drift::CabledPeer;
use netlint_import::design::{Note, SourceMap};
use netlint_import::Kind;
use netlint_model::SourceFile;
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct DiffArgs {
    /// The design that was reviewed.
    #[arg(value_name = "DESIGN")]
    pub design: PathBuf,
    /// The network as built: one design file (for instance written by
    /// `netlint import`), or the inputs `netlint import` reads (configs,
    /// LLDP tables, cabling CSVs, Hyper-V, vSphere and SDDC collections,
    /// or folders of them), read as it reads them.
    #[arg(required = true, value_name = "AS-BUILT")]
    pub as_built: Vec<PathBuf>,
    /// Output format (default: human).
    #[arg(long, value_enum, default_value = "human")]
    pub format: Format,
    /// Write the report to FILE instead of standard output.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Lowest severity that makes the exit code 1 (default: the design's
    /// `[netlint] fail_on`, then netlint.toml's, then `warning`).
    #[arg(long, value_enum)]
    pub fail_on: Option<FailOnArg>,
    /// Colour in human output.
    #[arg(long, value_enum, default_value = "auto")]
    pub color: ColorChoice,
    /// Exit 0 even when there are findings (input errors still exit 2).
    #[arg(long)]
    pub exit_zero: bool,
    /// Only the findings: no count line at the end of the human output.
    #[arg(short, long)]
    pub quiet: bool,
    /// Run only these drift rules: ids or categories, comma-separated or
    /// repeated.
    #[arg(long, value_delimiter = ',', value_name = "RULE|CATEGORY",
          value_parser = crate::commands::common::RuleNames::SELECTORS, hide_possible_values = true)]
    pub select: Vec<String>,
    /// Do not run these drift rules.
    #[arg(long, value_delimiter = ',', value_name = "RULE|CATEGORY",
          value_parser = crate::commands::common::RuleNames::SELECTORS, hide_possible_values = true)]
    pub ignore: Vec<String>,
    /// Hide the differences recorded in this baseline; fail only on new ones.
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
    /// Record the differences found as a baseline in FILE (for `--baseline`
    /// on later runs) instead of failing on them.
    #[arg(long, value_name = "FILE", conflicts_with = "baseline")]
    pub write_baseline: Option<PathBuf>,
    /// Read every as-built file as this kind instead of detecting it (see
    /// `netlint import --from`).
    #[arg(long, value_name = "KIND", value_parser = kind_parser())]
    pub from: Option<String>,
    /// Read at most this much of one file (bytes, or with K, M, G); a
    /// larger file is an error. Default 16M, as `check`.
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub max_file_size: Option<u64>,
    #[command(flatten)]
    pub config: ConfigArgs,
}

/// The as-built design text and, for an import, its source map and the
/// files it was read from.
/// The as-built design, and when it was imported: the source map and the
/// files read, and the cables to hosts the import noted but did not write.
type AsBuilt = (
    SourceFile,
    Option<(SourceMap, Vec<SourceFile>)>,
    Vec<CabledPeer>,
);

fn render_diff(run: &CheckRun, format: Format, color: bool, summary: bool) -> String {
    render_run(run, format, color, false, summary, &RepoPaths::discover())
}

/// The as-built side as a design text: the one design file given, or the
/// design `netlint import` would write from the inputs given, found and
/// read as `import` and `check` read them (folders walked, regular files
/// only, `--max-file-size`), each read by the one reader. What the
/// importer did not understand is said on `err`. For an import, the
/// source map and the files read come second; `read` gets every file
/// read.
fn as_built(
    args: &DiffArgs,
    max: u64,
    read: &mut Vec<PathBuf>,
    err: &mut dyn Write,
) -> Result<AsBuilt, String> {
    let (host_dirs, paths) = split_host_dirs(&args.as_built);
    let opts = ReadOptions {
        max_file_size: max,
        any_file: true,
        ..ReadOptions::default()
    };
    let collected = collect_designs(&paths, &opts);
    note_skipped(&collected.skipped, err);
    if let Some(u) = collected.unreadable.first() {
        return Err(format!("cannot read {}: {}", u.shown, u.reason));
    }
    read.extend(collected.inputs.iter().filter_map(|i| i.path.clone()));
    read.extend(host_dirs.iter().cloned());
    if let ([input], true) = (collected.inputs.as_slice(), host_dirs.is_empty()) {
        if args.from.is_none() && is_design(&input.bytes) {
            let text = String::from_utf8(input.bytes.clone())
                .map_err(|_| format!("{} is not UTF-8 text", input.shown))?;
            return Ok((SourceFile::new(input.shown.clone(), text), None, Vec::new()));
        }
    }
    if args.from.is_none() {
        if let Some(i) = collected.inputs.iter().find(|i| is_design(&i.bytes)) {
            return Err(format!(
                "{} is a design: give it alone as the as-built side, or give configs, LLDP tables, cabling CSVs and host collections",
                i.shown
            ));
        }
    }
    let forced = args.from.as_deref().and_then(Kind::from_key);
    let set = import_inputs(collected.inputs, &host_dirs, forced, max, "as-built");
    if let Some((_, e)) = set.errors.first() {
        return Err(netlint_model::text::escape_keep_lines(&e.to_string()).to_string());
    }
    for line in &set.summary {
        let _ = writeln!(err, "{line}");
    }
    let Some(written) = set.written else {
        return Err("nothing was imported".to_string());
    };
    let imported = written.imported;
    let peers = imported
        .notes
        .iter()
        .filter_map(|n| match n {
            Note::NotImportedPeer {
                switch,
                port,
                peer_device,
                peer_port,
                at,
                ..
            } => Some(CabledPeer {
                switch: switch.clone(),
                port: port.clone(),
                device: peer_device.clone(),
                device_port: peer_port.clone(),
                at: line_span(&set.sources, &at.file, at.line),
            }),
            _ => None,
        })
        .collect();
    Ok((
        SourceFile::new(IMPORTED, imported.toml),
        Some((imported.map, set.sources)),
        peers,
    ))
}

/// File `file` of `sources` and the byte range of its line `line`.
fn line_span(
    sources: &[SourceFile],
    file: &str,
    line: u32,
) -> Option<(String, netlint_model::Span)> {
    let src = sources.iter().find(|s| s.path == file)?;
    let r = netlint_import::source::line_span(&src.text, line)?;
    Some((src.path.clone(), netlint_model::Span::from(r)))
}

pub fn run(args: DiffArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<i32, String> {
    let shown = args.design.to_string_lossy().replace('\\', "/");
    let max = args.max_file_size.unwrap_or(DEFAULT_MAX_FILE_SIZE);
    let bytes =
        read_file(&args.design, max).map_err(|reason| format!("cannot read {shown}: {reason}"))?;
    let text = String::from_utf8(bytes).map_err(|_| format!("{shown} is not UTF-8 text"))?;
    let mut read: Vec<PathBuf> = vec![args.design.clone()];
    let (built, imported_from, peers) = as_built(&args, max, &mut read, err)?;
    let baseline = args
        .baseline
        .as_deref()
        .map(|p| Baseline::read(p, max))
        .transpose()?;
    let settings = CheckSettings {
        fail_on: args.fail_on.map(Into::into),
        select: args.select.clone(),
        ignore: args.ignore.clone(),
        config: args.config.choice(),
        baseline,
        keep_designs: args.format == Format::Markdown,
        max_file_size: Some(max),
        ..CheckSettings::default()
    };
    let run = run_diff(
        SourceFile::new(shown, text),
        Some(&args.design),
        built,
        imported_from,
        &peers,
        &settings,
    )?;
    read.extend(args.as_built.iter().cloned());
    read.extend(run.read.iter().cloned());
    read.extend(args.baseline.iter().cloned());
    if let Some(path) = &args.write_baseline {
        refuse_inputs(path, &read)?;
        refuse_inside_inputs(path, &args.as_built)?;
        if run.exit == 2 {
            let text = render_diff(&run, Format::Human, false, true);
            let _ = err.write_all(text.as_bytes());
            return Err("no baseline written: fix the input errors above first".to_string());
        }
        let repo = RepoPaths::discover();
        let b = Baseline::from_report(&run.report, &|p| repo.relative(p));
        write_atomic(path, b.to_json().as_bytes())
            .map_err(|e| format!("cannot write {}: {}", path.display(), io_reason(&e)))?;
        let _ = writeln!(
            err,
            "netlint: baseline of {} difference{} written to {}",
            b.entries.len(),
            if b.entries.len() == 1 { "" } else { "s" },
            path.display()
        );
        return Ok(0);
    }
    let color = match &args.output {
        None => use_color(args.color),
        Some(_) => args.color == ColorChoice::Always,
    };
    let text = render_diff(&run, args.format, color, !args.quiet);
    match &args.output {
        Some(path) => {
            refuse_inputs(path, &read)?;
            refuse_inside_inputs(path, &args.as_built)?;
            write_atomic(path, text.as_bytes())
                .map_err(|e| format!("cannot write {}: {}", path.display(), io_reason(&e)))?
        }
        None => out.write_all(text.as_bytes()).map_err(|e| e.to_string())?,
    }
    if let (Some(b), Some(path), false) = (&run.baselined, &args.baseline, args.quiet) {
        let _ = writeln!(
            err,
            "netlint: {} difference{} hidden by the baseline {}",
            b.hidden,
            if b.hidden == 1 { "" } else { "s" },
            path.display()
        );
    }
    Ok(if args.exit_zero && run.exit == 1 {
        0
    } else {
        run.exit
    })
}
