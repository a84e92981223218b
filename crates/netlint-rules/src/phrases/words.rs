//! Phrases shared by the rules and the views: lists of names, the list of a
//! finding's hosts, a port's speed. A finding's facts stay typed (its
//! subjects); these functions turn them into words, once, where they are
//! shown.

use netlint_analysis::Topology;
use netlint_model::{Diagnostic, Element, HostListStyle, HostWords, Speed};

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

/// Host names in design order, runs of three or more hosts in a row
/// written as "`hv01` to `hv04`", at most eight items then "and N more".
/// `hosts` are (place in the design, name).
pub fn host_runs<S: AsRef<str>>(hosts: &[(usize, S)]) -> String {
    let mut hosts: Vec<(usize, &str)> = hosts.iter().map(|(i, n)| (*i, n.as_ref())).collect();
    hosts.sort();
    hosts.dedup();
    let mut items: Vec<String> = Vec::new();
    let mut i = 0;
    while i < hosts.len() {
        let mut j = i;
        while j + 1 < hosts.len() && hosts[j + 1].0 == hosts[j].0 + 1 {
            j += 1;
        }
        if j - i >= 2 {
            items.push(format!("`{}` to `{}`", hosts[i].1, hosts[j].1));
        } else {
            items.extend(hosts[i..=j].iter().map(|(_, n)| format!("`{n}`")));
        }
        i = j + 1;
    }
    const LIMIT: usize = 8;
    if items.len() > LIMIT {
        let rest = items.len() - LIMIT;
        items.truncate(LIMIT);
        format!("{} and {rest} more", items.join(", "))
    } else {
        items.join(", ")
    }
}

/// The message `words` make about `hosts` (the hosts among a finding's
/// subjects, in subject order).
fn worded(words: &HostWords, hosts: &[&str]) -> String {
    let (before, after) = match hosts.len() {
        0 => return words.none.clone(),
        1 => &words.one,
        _ => &words.many,
    };
    let list = match &words.list {
        HostListStyle::Names => host_list(hosts),
        HostListStyle::Runs(places) => {
            // By name once: a finding can name every host of a site.
            let place: std::collections::HashMap<&str, usize> =
                places.iter().map(|(n, id)| (n.as_str(), id.0)).collect();
            let named: Vec<(usize, &str)> = hosts
                .iter()
                .filter_map(|h| place.get(h).map(|id| (*id, *h)))
                .collect();
            match named.as_slice() {
                [(_, one)] => format!("host `{one}`"),
                _ => format!("hosts {}", host_runs(&named)),
            }
        }
    };
    format!("{before}{list}{after}")
}

/// Writes the message of a finding that names its hosts ([`HostWords`])
/// from the hosts among its subjects. Called once `allow` (the engine) or
/// a baseline has taken away the subjects it covers, so the message names
/// exactly the hosts still reported.
pub fn name_hosts(d: &mut Diagnostic) {
    if let Some(words) = &d.host_words {
        d.message = worded(words, &d.hosts());
    }
}

/// `d` with `words` kept and its message written by them.
pub fn with_host_words(mut d: Diagnostic, words: HostWords) -> Diagnostic {
    d.host_words = Some(words);
    name_hosts(&mut d);
    d
}

/// The message of `d` as it would read about `subject` alone: it names
/// that subject's host only (other messages are unchanged).
pub fn message_about(d: &Diagnostic, subject: &Element) -> String {
    match (&d.host_words, subject.host_name()) {
        (Some(words), Some(host)) => worded(words, &[host]),
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

/// "2 x 10G" for several cables, "10G" for one ("2 x speed unknown").
pub fn cables_speed(members: u32, speed: Option<Speed>) -> String {
    if members > 1 {
        format!("{members} x {}", speed_text(speed))
    } else {
        speed_text(speed)
    }
}

/// A port's cables and their speed ([`cables_speed`]).
pub fn port_speed(topo: &Topology, port: usize) -> String {
    let p = &topo.ports[port];
    cables_speed(p.members, p.member_speed)
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
        d.host_words = Some(HostWords::leading("MTU 1500"));
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
