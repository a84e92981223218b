//! `netlint completions SHELL`: a completion script generated from the
//! same clap definitions the parser uses, so it cannot fall behind.
//!
//! clap_complete's scripts complete one value per word. For the options
//! that take a comma-separated list (`--select mtu-mismatch,<TAB>`), bash,
//! zsh and fish also complete the value after the last comma, with the
//! values already in the word left out: bash and fish through a function
//! added to the script, zsh by `_values -s ,` in place of the option's
//! value list. The lists come from the same definitions.

use crate::cli::Cli;
use clap::CommandFactory;
use clap_complete::Shell;
use std::io::Write;

#[derive(clap::Args, Debug)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

pub fn run(args: CompletionsArgs, out: &mut dyn Write) -> Result<i32, String> {
    out.write_all(script(args.shell)?.as_bytes())
        .map_err(|e| e.to_string())?;
    Ok(0)
}

/// The completion script for `shell`.
pub fn script(shell: Shell) -> Result<String, String> {
    let mut cmd = Cli::command();
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut cmd, "netlint", &mut buf);
    let script = String::from_utf8(buf).map_err(|e| e.to_string())?;
    let lists = lists(&cmd)?;
    Ok(match shell {
        Shell::Bash => bash(script, &lists),
        Shell::Zsh => zsh(script, &lists)?,
        Shell::Fish => fish(script, &lists),
        _ => script,
    })
}

/// An option of a command that takes a comma-separated list of known values.
#[derive(Debug)]
pub struct List {
    /// The command (`check`).
    pub command: String,
    /// The option's long name (`select`).
    pub long: String,
    pub value_name: String,
    /// Each value and its description.
    pub values: Vec<(String, String)>,
}

/// Every option of a command (one level below `netlint`) that takes a list
/// split at commas and has values to offer.
pub fn lists(cli: &clap::Command) -> Result<Vec<List>, String> {
    let mut lists = Vec::new();
    for command in cli.get_subcommands() {
        for arg in command.get_arguments() {
            if arg.get_value_delimiter() != Some(',') {
                continue;
            }
            let values: Vec<(String, String)> = arg
                .get_possible_values()
                .iter()
                .filter(|v| !v.is_hide_set())
                .map(|v| {
                    let help = v.get_help().map(|h| h.to_string()).unwrap_or_default();
                    (v.get_name().to_string(), help.replace('\n', " "))
                })
                .collect();
            if values.is_empty() {
                continue;
            }
            let Some(long) = arg.get_long() else {
                return Err(format!(
                    "completions: `{}`'s list option `{}` has no long name",
                    command.get_name(),
                    arg.get_id()
                ));
            };
            // The scripts below name the option by its long name alone.
            if arg.get_short().is_some() || arg.get_all_aliases().is_some() {
                return Err(format!(
                    "completions: `{} --{long}` has a short name or an alias the list completion does not know",
                    command.get_name()
                ));
            }
            let value_name = arg
                .get_value_names()
                .and_then(|n| n.first())
                .map_or_else(|| long.to_uppercase(), |n| n.to_string());
            lists.push(List {
                command: command.get_name().to_string(),
                long: long.to_string(),
                value_name,
                values,
            });
        }
    }
    Ok(lists)
}

/// `s` in single quotes for a POSIX shell.
fn sh_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// bash: `_netlint_lists` completes the value after the last comma of a
/// list option's word (`--select a,b` and `--select=a,b`), and hands every
/// other word to clap's `_netlint`.
fn bash(mut script: String, lists: &[List]) -> String {
    let mut cases = String::new();
    for l in lists {
        let names: Vec<&str> = l.values.iter().map(|(v, _)| v.as_str()).collect();
        cases.push_str(&format!(
            "            {}) values={} ;;\n",
            sh_quote(&format!("{} --{}", l.command, l.long)),
            sh_quote(&names.join(" "))
        ));
    }
    script.push_str(&format!(
        r#"
# The value after a comma in a list option (`--select mtu-mismatch,<TAB>`).
_netlint_lists() {{
    local cur="${{COMP_WORDS[COMP_CWORD]}}" opt="" values="" head word
    if (( COMP_CWORD >= 1 )); then
        opt="${{COMP_WORDS[COMP_CWORD-1]}}"
    fi
    if [[ "$opt" == "=" ]] && (( COMP_CWORD >= 2 )); then
        opt="${{COMP_WORDS[COMP_CWORD-2]}}"
    fi
    if [[ "$cur" == *,* ]]; then
        case "${{COMP_WORDS[1]}} $opt" in
{cases}        esac
    fi
    if [[ -z "$values" ]]; then
        _netlint "$@"
        return
    fi
    head="${{cur%,*}},"
    COMPREPLY=()
    for word in $values; do
        [[ "$word" == "${{cur##*,}}"* ]] || continue
        [[ ",$head" == *",$word,"* ]] && continue
        COMPREPLY+=("$head$word")
    done
}}

if [[ "${{BASH_VERSINFO[0]}}" -eq 4 && "${{BASH_VERSINFO[1]}}" -ge 4 || "${{BASH_VERSINFO[0]}}" -gt 4 ]]; then
    complete -F _netlint_lists -o nosort -o bashdefault -o default netlint
else
    complete -F _netlint_lists -o bashdefault -o default netlint
fi
"#
    ));
    script
}

/// Text for zsh inside single quotes and `[...]` (as clap_complete writes
/// its descriptions).
fn zsh_escape(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('\'', "'\\''")
        .replace('[', "\\[")
        .replace(']', "\\]")
        .replace(':', "\\:")
        .replace('$', "\\$")
        .replace('`', "\\`")
}

/// zsh: each list option's value list (`((a\:"..." b\:"..."))`) becomes a
/// call of `_netlint_list_values COMMAND --OPTION`, which completes the
/// list with `_values -s ,`.
fn zsh(mut script: String, lists: &[List]) -> Result<String, String> {
    let missing = |what: &str, l: &List| {
        format!(
            "completions: zsh: {what} of `{} --{}` not found in clap_complete's script",
            l.command, l.long
        )
    };
    let mut cases = String::new();
    for l in lists {
        // The command's `_arguments` block (the first `(check)`, the one
        // under `netlint`; `help`'s comes later).
        let label = format!("({})\n", l.command);
        let section = script
            .match_indices(&label)
            .map(|(i, _)| i)
            .find(|&i| i > 0 && matches!(script.as_bytes()[i - 1], b' ' | b'\n'))
            .ok_or_else(|| missing("the command", l))?;
        let end = section
            + script[section..]
                .find("\n;;")
                .ok_or_else(|| missing("the block's end", l))?;
        let spec = ["'*--", "'--"]
            .iter()
            .find_map(|p| script[section..end].find(&format!("\n{p}{}=[", l.long)))
            .map(|i| section + i)
            .ok_or_else(|| missing("the option", l))?;
        let open = format!("]:{}:((", zsh_escape(&l.value_name));
        let from = spec
            + script[spec..end]
                .find(&open)
                .ok_or_else(|| missing("the value list", l))?
            + open.len()
            - 2;
        let to = from
            + script[from..end]
                .find("))'")
                .ok_or_else(|| missing("the value list's end", l))?
            + 2;
        script.replace_range(
            from..to,
            &format!("_netlint_list_values {} --{}", l.command, l.long),
        );
        let mut case = format!(
            "        ({})\n            _values -s , {}",
            sh_quote(&format!("{} --{}", l.command, l.long)),
            sh_quote(&l.value_name)
        );
        for (value, help) in &l.values {
            case.push_str(&format!(
                " \\\n                '{}[{}]'",
                zsh_escape(value),
                zsh_escape(help)
            ));
        }
        case.push_str("\n            ;;\n");
        cases.push_str(&case);
    }
    let function = format!(
        r#"# _arguments passes its own options first: the command and option come last.
(( $+functions[_netlint_list_values] )) ||
_netlint_list_values() {{
    case "${{@[-2]}} ${{@[-1]}}" in
{cases}    esac
}}

"#
    );
    let tail = script
        .rfind("if [ \"$funcstack[1]\" = \"_netlint\" ]")
        .ok_or_else(|| "completions: zsh: the script's end not found".to_string())?;
    script.insert_str(tail, &function);
    Ok(script)
}

/// Text for fish inside single quotes.
fn fish_quote(s: &str) -> String {
    format!("'{}'", s.replace('\\', "\\\\").replace('\'', "\\'"))
}

/// fish: a second value source for each list option that, once the word
/// has a comma, offers the word with each value not yet in it appended.
fn fish(mut script: String, lists: &[List]) -> String {
    let mut cases = String::new();
    let mut completes = String::new();
    for l in lists {
        let ids: Vec<String> = l.values.iter().map(|(v, _)| fish_quote(v)).collect();
        let helps: Vec<String> = l.values.iter().map(|(_, h)| fish_quote(h)).collect();
        cases.push_str(&format!(
            "        case {}\n            set ids {}\n            set helps {}\n",
            fish_quote(&format!("{} --{}", l.command, l.long)),
            ids.join(" "),
            helps.join(" ")
        ));
        completes.push_str(&format!(
            "complete -c netlint -n \"__fish_netlint_using_subcommand {}\" -l {} -r -f -a \"(__fish_netlint_list_values {} --{})\"\n",
            l.command, l.long, l.command, l.long
        ));
    }
    script.push_str(&format!(
        r#"
# The value after a comma in a list option (`--select mtu-mismatch,<TAB>`).
function __fish_netlint_list_values
    set -l token (string replace -r -- '^--[^=]*=' '' (commandline -ct))
    string match -q -- '*,*' $token; or return
    set -l head (string replace -r -- '[^,]*$' '' $token)
    set -l typed (string split -- , $head)
    set -l ids
    set -l helps
    switch "$argv[1] $argv[2]"
{cases}    end
    for i in (seq (count $ids))
        contains -- $ids[$i] $typed; or printf '%s%s\t%s\n' $head $ids[$i] $helps[$i]
    end
end
{completes}"#
    ));
    script
}
