//! The generic object tree every host reader produces (PowerShell JSON,
//! CliXml, PowerCLI): values with the 1-based line they stand on in their
//! file, so that every host fact can name where it came from.
//!
//! Keys are looked up case-insensitively ([`Node::get`]), as PowerShell
//! does: `LinkSpeed`, `linkspeed` and `LINKSPEED` are one property.

use std::collections::BTreeMap;

/// One value of a collected object tree.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    List(Vec<Node>),
    /// Properties in the order the file gives them.
    Map(Vec<(String, Node)>),
}

/// A value and the 1-based line of its file where it starts.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub value: Value,
    pub line: u32,
}

/// One host's collection: every cmdlet's output, by cmdlet name
/// (`"Get-NetAdapter"`), as read from `file`.
#[derive(Clone, Debug, PartialEq)]
pub struct Collection {
    /// The file (or folder, for a per-cmdlet collection) it was read from.
    pub file: String,
    /// The host's name when the collection states it.
    pub host: Option<String>,
    pub cmdlets: BTreeMap<String, Node>,
}

static NULL: Node = Node {
    value: Value::Null,
    line: 0,
};

impl Node {
    pub fn new(value: Value, line: u32) -> Self {
        Node { value, line }
    }

    /// The property `key` of a map, case-insensitively; `None` for a
    /// missing key or a value that is no map.
    pub fn get(&self, key: &str) -> Option<&Node> {
        match &self.value {
            Value::Map(props) => props
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(key))
                .map(|(_, v)| v),
            _ => None,
        }
    }

    /// The first of `keys` present and not null.
    pub fn get_any(&self, keys: &[&str]) -> Option<&Node> {
        keys.iter()
            .filter_map(|k| self.get(k))
            .find(|n| !n.is_null())
    }

    /// A nested property: `path(&["Value", "NetAdapterName"])`.
    pub fn path(&self, keys: &[&str]) -> Option<&Node> {
        let mut n = self;
        for k in keys {
            n = n.get(k)?;
        }
        Some(n)
    }

    pub fn is_null(&self) -> bool {
        matches!(self.value, Value::Null)
    }

    /// The text of a string; numbers and booleans are not text.
    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// An integer: an `Int`, a whole `Float`, or a string of digits (CliXml
    /// and depth-truncated JSON give numbers as text).
    pub fn as_i64(&self) -> Option<i64> {
        match &self.value {
            Value::Int(i) => Some(*i),
            Value::Float(f) if f.fract() == 0.0 && f.abs() < 9.0e18 => Some(*f as i64),
            Value::Str(s) => s.trim().parse().ok(),
            _ => None,
        }
    }

    pub fn as_u64(&self) -> Option<u64> {
        match &self.value {
            Value::Str(s) => s.trim().parse().ok(),
            _ => self.as_i64().and_then(|i| u64::try_from(i).ok()),
        }
    }

    pub fn as_f64(&self) -> Option<f64> {
        match &self.value {
            Value::Int(i) => Some(*i as f64),
            Value::Float(f) => Some(*f),
            Value::Str(s) => s.trim().parse().ok(),
            _ => None,
        }
    }

    /// A boolean: `true`/`false`, the strings `"True"`/`"False"` (any
    /// case), and 0 / 1.
    pub fn as_bool(&self) -> Option<bool> {
        match &self.value {
            Value::Bool(b) => Some(*b),
            Value::Int(0) => Some(false),
            Value::Int(1) => Some(true),
            Value::Str(s) if s.eq_ignore_ascii_case("true") => Some(true),
            Value::Str(s) if s.eq_ignore_ascii_case("false") => Some(false),
            _ => None,
        }
    }

    pub fn as_list(&self) -> Option<&[Node]> {
        match &self.value {
            Value::List(l) => Some(l),
            _ => None,
        }
    }

    pub fn as_map(&self) -> Option<&[(String, Node)]> {
        match &self.value {
            Value::Map(m) => Some(m),
            _ => None,
        }
    }

    /// The items of a list, or the value itself as the only item
    /// (`ConvertTo-Json` writes a one-object result as the object), or none
    /// for null.
    pub fn items(&self) -> &[Node] {
        match &self.value {
            Value::List(l) => l,
            Value::Null => &[],
            _ => std::slice::from_ref(self),
        }
    }

    /// Text of a scalar whatever its type (`"25"` for `Int(25)`), for
    /// names and messages; `None` for lists, maps and null.
    pub fn scalar_text(&self) -> Option<String> {
        match &self.value {
            Value::Str(s) => Some(s.clone()),
            Value::Int(i) => Some(i.to_string()),
            Value::Float(f) => Some(f.to_string()),
            Value::Bool(b) => Some(if *b { "True" } else { "False" }.to_string()),
            _ => None,
        }
    }

    /// Texts of a list-or-single value (`["a","b"]` or `"a"`). A
    /// depth-truncated array written as one string (`"a b"`) is not split:
    /// callers decide.
    pub fn strings(&self) -> Vec<String> {
        self.items()
            .iter()
            .filter_map(|n| n.scalar_text())
            .collect()
    }

    /// A null node at line 0, for lookups that want a node either way.
    pub fn null() -> &'static Node {
        &NULL
    }
}

impl Collection {
    /// The output of one cmdlet, case-insensitively by name; `None` when the
    /// collection lacks it (the facts it gives are then unknown, never
    /// defaulted).
    pub fn cmdlet(&self, name: &str) -> Option<&Node> {
        self.cmdlets
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v)
    }

    /// The objects a cmdlet returned (list-or-single); empty when absent.
    pub fn objects(&self, name: &str) -> &[Node] {
        self.cmdlet(name).map(Node::items).unwrap_or(&[])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(props: Vec<(&str, Node)>) -> Node {
        Node::new(
            Value::Map(props.into_iter().map(|(k, v)| (k.to_string(), v)).collect()),
            1,
        )
    }

    #[test]
    fn get_is_case_insensitive_and_items_accepts_a_single_object() {
        let n = map(vec![
            ("LinkSpeed", Node::new(Value::Str("25 Gbps".into()), 2)),
            ("Speed", Node::new(Value::Int(25_000_000_000), 3)),
        ]);
        assert_eq!(n.get("linkspeed").unwrap().as_str(), Some("25 Gbps"));
        assert_eq!(n.get("SPEED").unwrap().line, 3);
        assert_eq!(n.items().len(), 1);
        assert_eq!(Node::new(Value::Null, 1).items().len(), 0);
        assert!(n.get("Missing").is_none());
    }

    #[test]
    fn scalars_convert_across_the_shapes_powershell_writes() {
        assert_eq!(Node::new(Value::Str("9014".into()), 1).as_i64(), Some(9014));
        assert_eq!(Node::new(Value::Float(2.0), 1).as_i64(), Some(2));
        assert_eq!(Node::new(Value::Float(2.5), 1).as_i64(), None);
        assert_eq!(
            Node::new(Value::Str("True".into()), 1).as_bool(),
            Some(true)
        );
        assert_eq!(Node::new(Value::Int(0), 1).as_bool(), Some(false));
        assert_eq!(Node::new(Value::Str("x".into()), 1).as_bool(), None);
    }
}
