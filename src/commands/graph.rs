//! `netlint graph`: the design drawn as it will behave (the picture is
//! built by `views::graph` and written by `render::dot` / `render::mermaid`).

use crate::commands::common::{load_design, ConfigArgs, LoadedDesign};
use crate::render;
use crate::run::files::io_reason;
use crate::run::{check_source, config_for, refuse_inputs, write_atomic, CheckSettings};
use crate::views::graph::{build, parse_failure, GraphOptions, View};
use netlint_analysis::Failures;
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct GraphArgs {
    /// The design file.
    pub design: PathBuf,
    /// Graphviz DOT (render with `dot -Tsvg`) or a Mermaid flowchart (for
    /// Markdown: GitHub and GitLab draw it).
    #[arg(long, value_enum, default_value = "dot")]
    pub format: GraphFormat,
    /// Draw the port roles of this MSTP instance (0 = the CIST). Default:
    /// every tree, each blocked VLAN named on its link.
    #[arg(long, value_name = "N", conflicts_with = "network")]
    pub instance: Option<u16>,
    /// Draw the port roles of the tree(s) that carry this network's VLAN.
    #[arg(long, value_name = "NAME")]
    pub network: Option<String>,
    /// `collapsed`: hosts with one profile and an identical build are one
    /// node; `all`: one node per host.
    #[arg(long, value_enum, default_value = "collapsed")]
    pub hosts: HostsMode,
    /// `fabric`: a host is one node; `host`: its cards, NICs, teams and
    /// virtual switches are drawn.
    #[arg(long, value_enum, default_value = "fabric")]
    pub detail: Detail,
    /// Draw the state after this failure (repeatable): a switch, a stack or
    /// MLAG domain, a link (`isl`, or one cable `isl#2`), a host NIC
    /// (`hv1:NIC1`) or a host's card (`hv1:card:slot4`).
    #[arg(long = "fail", value_name = "NAME")]
    pub fail: Vec<String>,
    /// Write the picture to FILE instead of standard output.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub config: ConfigArgs,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum GraphFormat {
    Dot,
    Mermaid,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum HostsMode {
    Collapsed,
    All,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Detail {
    Fabric,
    Host,
}

pub fn run(args: GraphArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<i32, String> {
    if let Some(o) = &args.output {
        let mut inputs = vec![args.design.clone()];
        inputs.extend(config_for(&args.config.choice(), &args.design));
        refuse_inputs(o, &inputs)?;
    }
    let Some(LoadedDesign {
        file,
        design,
        config,
        ..
    }) = load_design(&args.design, &args.config, err)?
    else {
        return Ok(2);
    };
    let (diagnostics, _, _) = check_source(&file, config.as_ref(), &CheckSettings::default());
    let view = match (args.instance, &args.network) {
        (Some(n), _) => View::Instance(n),
        (None, Some(name)) => View::Network(design.network_by_name(name).ok_or_else(|| {
            let hint =
                netlint_model::did_you_mean(name, design.networks.iter().map(|n| n.name.as_str()));
            format!("the design has no network `{name}`{hint}")
        })?),
        (None, None) => View::AllTrees,
    };
    let mut failures = Failures::default();
    for name in &args.fail {
        parse_failure(&design, name, &mut failures)?;
    }
    let options = GraphOptions {
        view,
        hosts_all: args.hosts == HostsMode::All,
        detail_host: args.detail == Detail::Host,
        failures,
        failure_names: args.fail.clone(),
        scope: None,
    };
    let scene = build(&design, &diagnostics, &options)?;
    let text = match args.format {
        GraphFormat::Dot => render::dot::render(&scene),
        GraphFormat::Mermaid => render::mermaid::render(&scene),
    };
    match &args.output {
        Some(path) => write_atomic(path, text.as_bytes())
            .map_err(|e| format!("cannot write {}: {}", path.display(), io_reason(&e)))?,
        None => out.write_all(text.as_bytes()).map_err(|e| e.to_string())?,
    }
    Ok(0)
}
