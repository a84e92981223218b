//! `netlint rules`.

use crate::commands::common::ListFormat;
use netlint_rules::{input_rules, registry};
use std::io::Write;

#[derive(clap::Args, Debug)]
pub struct RulesArgs {
    #[arg(long, value_enum, default_value = "human")]
    pub format: ListFormat,
}

pub fn run(args: RulesArgs, out: &mut dyn Write) -> Result<i32, String> {
    let metas: Vec<_> = registry()
        .iter()
        .map(|r| r.meta)
        .chain(
            netlint_rules::drift::drift_registry()
                .iter()
                .map(|r| r.rule.meta),
        )
        .chain(input_rules())
        .collect();
    let text = match args.format {
        ListFormat::Json => {
            let list: Vec<_> = metas
                .iter()
                .map(|m| {
                    serde_json::json!({
                        "id": m.id.as_str(),
                        "category": m.category.as_str(),
                        "default_severity": m.default_severity.as_str(),
                        "summary": m.summary,
                    })
                })
                .collect();
            let mut s =
                serde_json::to_string_pretty(&serde_json::json!({ "version": 1, "rules": list }))
                    .map_err(|e| e.to_string())?;
            s.push('\n');
            s
        }
        ListFormat::Human => {
            let width = metas.iter().map(|m| m.id.len()).max().unwrap_or(0);
            let mut s = String::new();
            for m in &metas {
                s.push_str(&format!(
                    "{:width$}  {:13}  {:7}  {}\n",
                    m.id,
                    m.category,
                    m.default_severity.as_str(),
                    m.summary
                ));
            }
            s
        }
    };
    out.write_all(text.as_bytes()).map_err(|e| e.to_string())?;
    Ok(0)
}
