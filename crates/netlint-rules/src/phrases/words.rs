//! Phrases shared by the rules and the views: lists of names, the list of a
//! finding's hosts, a port's speed. A finding's facts stay typed (its
//! subjects); these functions turn them into words, once, where they are
//! shown.

use netlint_analysis::Topology;
use netlint_model::{Diagnostic, Element, Speed};

/// "a", "a and b", "a, b and c".
pub fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// Host lists longer than this name the first few and count the rest.
const LISTED_HOSTS: usize = 8;

/// "host `hv1`", "hosts `hv1`, `hv2`", or "hosts `hv1`, `hv2`, `hv3` and 97 more".
pub fn host_list<S: AsRef<str>>(names: &[S]) -> String {
    let quoted: Vec<String> = names
        .iter()
        .take(if names.len() > LISTED_HOSTS {
            3
        } else {
            LISTED_HOSTS
        })
        .map(|n| format!("`{}`", n.as_ref()))
        .collect();
    match names.len() {
        1 => format!("host {}", quoted[0]),
        n if n > LISTED_HOSTS => format!("hosts {} and {} more", quoted.join(", "), n - 3),
        _ => format!("hosts {}", quoted.join(", ")),
    }
}

/// Writes the message of a finding that opens with its hosts ("hosts
/// `hv1`, `hv2`: ...") from the hosts among its subjects. Called once
/// `allow` (the engine) or a baseline has taken away the subjects it
/// covers, so the list names exactly the hosts still reported.
pub fn name_hosts(d: &mut Diagnostic) {
    if let Some(rest) = &d.after_hosts {
        let hosts = d.hosts();
        d.message = if hosts.is_empty() {
            rest.clone()
        } else {
            format!("{}: {rest}", host_list(&hosts))
        };
    }
}

/// The message of `d` as it would read about `subject` alone: its host
/// list names that subject's host only (other messages are unchanged).
pub fn message_about(d: &Diagnostic, subject: &Element) -> String {
    match (&d.after_hosts, subject.host_name()) {
        (Some(rest), Some(host)) => format!("{}: {rest}", host_list(&[host])),
        _ => d.message.clone(),
    }
}

/// "10G", or "speed unknown" where the design does not state it.
pub fn speed_text(speed: Option<Speed>) -> String {
    match speed {
        Some(s) => s.to_string(),
        None => "speed unknown".to_string(),
    }
}

/// "2 x 10G" for a LAG, "10G" for a single cable ("2 x speed unknown").
pub fn port_speed(topo: &Topology, port: usize) -> String {
    let p = &topo.ports[port];
    if p.members > 1 {
        format!("{} x {}", p.members, speed_text(p.member_speed))
    } else {
        speed_text(p.member_speed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use netlint_model::Severity;

    #[test]
    fn lists_read_naturally() {
        assert_eq!(and_list(&[]), "");
        assert_eq!(and_list(&["a".into()]), "a");
        assert_eq!(
            and_list(&["a".into(), "b".into(), "c".into()]),
            "a, b and c"
        );
        assert_eq!(host_list(&["a"]), "host `a`");
        assert_eq!(host_list(&["a", "b"]), "hosts `a`, `b`");
        let many: Vec<String> = (1..=10).map(|i| format!("h{i}")).collect();
        assert_eq!(host_list(&many), "hosts `h1`, `h2`, `h3` and 7 more");
    }

    #[test]
    fn the_host_list_is_written_from_the_subjects_that_remain() {
        let mut d = Diagnostic::new("r", Severity::Warning, Element::host("hv1"), "");
        d.subjects.push(Element::host("hv2"));
        d.after_hosts = Some("MTU 1500".into());
        name_hosts(&mut d);
        assert_eq!(d.message, "hosts `hv1`, `hv2`: MTU 1500");
        d.subjects.pop();
        name_hosts(&mut d);
        assert_eq!(d.message, "host `hv1`: MTU 1500");
        assert_eq!(
            message_about(&d, &Element::nic("hv9", "A")),
            "host `hv9`: MTU 1500"
        );
    }
}
