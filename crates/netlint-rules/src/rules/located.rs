//! Where a finding points: the line whose value differs for the hosts the
//! finding concerns. A finding caused by one host's override must lead the
//! user to that override, not to the profile line every host shares (which
//! becomes a related label); `docs/format.md` promises it.

use netlint_model::{Host, Span};

/// The lines a finding involves, in the order the rule would point at them
/// when no host overrides any: the primary first.
pub(crate) struct Lines {
    lines: Vec<(Span, String)>,
}

impl Lines {
    pub fn new(span: Span, label: impl Into<String>) -> Self {
        Lines {
            lines: vec![(span, label.into())],
        }
    }

    /// Another line involved (a related label unless a host overrides it).
    pub fn and(mut self, span: Span, label: impl Into<String>) -> Self {
        self.lines.push((span, label.into()));
        self
    }

    /// The primary span and the related lines for a finding about `hosts`:
    /// the first line that one of them overrides is primary, the others
    /// (the profile's line first) follow in their order. Without an
    /// override the order is kept.
    pub fn for_hosts<'h>(
        mut self,
        hosts: impl IntoIterator<Item = &'h Host>,
    ) -> (Span, Vec<(Span, String)>) {
        let hosts: Vec<&Host> = hosts.into_iter().collect();
        if let Some(i) = self
            .lines
            .iter()
            .position(|(s, _)| hosts.iter().any(|h| h.overrides(*s)))
        {
            let line = self.lines.remove(i);
            self.lines.insert(0, line);
        }
        let mut lines = self.lines.into_iter();
        let (primary, _) = lines.next().expect("Lines holds at least one line");
        (primary, lines.collect())
    }
}

/// The label of a profile's shared line that an override displaced as
/// primary, when the rule has no better words for it.
pub(crate) fn profile_line(host: &Host) -> String {
    match &host.profile {
        Some(p) => format!("set in profile `{}` for every host built from it", p.value),
        None => format!("host `{}`", host.name),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use netlint_model::{load, SourceFile};

    const SRC: &str = r#"
[design]
name = "t"
[switches.sw]
[profiles.p.nics.A]
speed = "10G"
switch = "sw"
[hosts.h1]
profile = "p"
[hosts.h2]
profile = "p"
nics.A = { port = "e1/2" }
"#;

    #[test]
    fn the_override_of_a_concerned_host_is_primary() {
        let design = load(&SourceFile::new("t.toml", SRC)).design.unwrap();
        let (h1, h2) = (&design.hosts[0], &design.hosts[1]);
        let speed = h2.nics[0].speed.span;
        let port = h2.nics[0].port.as_ref().unwrap().span;
        let lines = || Lines::new(speed, "speed").and(port, "port");
        let (p, rel) = lines().for_hosts([h2]);
        assert_eq!(p, port);
        assert_eq!(rel, vec![(speed, "speed".to_string())]);
        // h1 does not override the port: the order stays.
        let (p, rel) = lines().for_hosts([h1]);
        assert_eq!(p, speed);
        assert_eq!(rel, vec![(port, "port".to_string())]);
    }
}
