//! `netlint explain`.

use netlint_rules::{input_rules, rule_by_id};
use std::io::Write;

#[derive(clap::Args, Debug)]
pub struct ExplainArgs {
    /// Rule id, as in `netlint rules`.
    #[arg(value_parser = crate::commands::common::RuleNames::IDS, hide_possible_values = true)]
    pub id: String,
}

pub fn run(args: ExplainArgs, out: &mut dyn Write) -> Result<i32, String> {
    let id = args.id.as_str();
    let doc = rule_by_id(id).map(|r| r.meta.doc).or_else(|| {
        input_rules()
            .into_iter()
            .find(|m| m.id == id)
            .map(|m| m.doc)
    });
    match doc {
        Some(doc) => {
            out.write_all(doc.as_bytes()).map_err(|e| e.to_string())?;
            Ok(0)
        }
        None => {
            let ids = netlint_rules::all_ids();
            let hint = netlint_model::did_you_mean(id, ids.iter().copied());
            Err(format!(
                "unknown rule `{id}`{hint} (`netlint rules` lists them)"
            ))
        }
    }
}
