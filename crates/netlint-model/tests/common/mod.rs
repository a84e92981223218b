//! What the loader says about a design: (line, message) of each diagnostic.

use netlint_model::{load, SourceFile};

pub fn diags(text: &str) -> Vec<(usize, String)> {
    let file = SourceFile::new("d.toml", text);
    load(&file)
        .diagnostics
        .iter()
        .map(|d| {
            // Nothing raw reaches a terminal through a message.
            assert!(
                !d.message.chars().any(|c| c.is_control()),
                "{:?}",
                d.message
            );
            let at = d.primary.as_ref().expect("located").span.start;
            (file.line_col(at).line, d.message.clone())
        })
        .collect()
}
