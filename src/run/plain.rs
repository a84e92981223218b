//! Errors of serde in the words of a person: no "invalid type: string,
//! expected u64" (file errors: `files::io_reason`).

/// Why a JSON document is not what was expected, with its line and column.
pub fn json_error(e: &serde_json::Error) -> String {
    let at = format!("line {}, column {}", e.line(), e.column());
    let text = e.to_string();
    // serde appends " at line L column C"; the position is given our way.
    let text = match text.rfind(" at line ") {
        Some(i) => &text[..i],
        None => text.as_str(),
    };
    let what = match e.classify() {
        serde_json::error::Category::Io => format!("it could not be read ({text})"),
        serde_json::error::Category::Eof => "it ends too early".to_string(),
        serde_json::error::Category::Syntax => format!("it is not valid JSON ({text})"),
        serde_json::error::Category::Data => data_words(text),
    };
    format!("{what}, at {at}")
}

/// serde's data errors, reworded: "invalid type: string \"x\", expected
/// u64" becomes "found a string where a whole number is expected".
fn data_words(text: &str) -> String {
    if let Some(rest) = text.strip_prefix("missing field ") {
        return format!("the field {rest} is missing");
    }
    if let Some(rest) = text.strip_prefix("unknown field ") {
        let field = rest.split(',').next().unwrap_or(rest);
        return format!("the field {field} is not one this file takes");
    }
    for prefix in ["invalid type: ", "invalid value: "] {
        if let Some(rest) = text.strip_prefix(prefix) {
            if let Some((found, expected)) = rest.split_once(", expected ") {
                let found = found
                    .replace("string ", "the text ")
                    .replace("integer ", "the number ")
                    .replace("map", "a table")
                    .replace("sequence", "a list");
                let expected = expected
                    .replace("u64", "a whole number")
                    .replace("u32", "a whole number")
                    .replace("usize", "a whole number")
                    .replace("a sequence", "a list")
                    .replace("a map", "a table")
                    .replace("struct ", "");
                return format!("found {found} where {expected} is expected");
            }
        }
    }
    lower_first(text)
}

fn lower_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_lowercase().chain(c).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_errors_in_plain_words() {
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct B {
            version: u64,
        }
        let e = serde_json::from_str::<B>("{\"version\": \"two\"}").unwrap_err();
        assert_eq!(
            json_error(&e),
            "found the text \"two\" where a whole number is expected, at line 1, column 17"
        );
        let e = serde_json::from_str::<B>("{}").unwrap_err();
        assert_eq!(
            json_error(&e),
            "the field `version` is missing, at line 1, column 2"
        );
        let e = serde_json::from_str::<B>("{\"version\": 1").unwrap_err();
        assert_eq!(json_error(&e), "it ends too early, at line 1, column 13");
    }
}
