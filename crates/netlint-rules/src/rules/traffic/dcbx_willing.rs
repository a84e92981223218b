//! `dcbx-willing`: a host with DCB leaves the DCBX willing bit on.

use super::emit_per_host;
use crate::rules::fix_at::host_table;
use crate::{declare_rule, Context};
use netlint_model::{Diagnostic, Fix, FixEdit, Severity};

declare_rule!(
    RULE,
    id: "dcbx-willing",
    category: "traffic",
    severity: Warning,
    summary: "A host with DCB has `willing` not false: it takes whatever the switch advertises.",
    check: check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let mut found = Vec::new();
    for host in &cx.design.hosts {
        let Some(dcb) = &host.dcb else { continue };
        // Not known (an import that could not read it): no default is
        // assumed; what could not be checked is said, at info.
        if let (None, Some(at)) = (&dcb.willing, dcb.willing_unknown) {
            found.push(cx.finding_at(
                &RULE,
                Severity::Info,
                host.element(),
                at,
                "DCB's willing bit is not known (`willing = \"unknown\"`): netlint could not check that the host uses its own PFC and ETS settings rather than the switch's",
            ).with_help("collect `Get-NetQosDcbxSetting` (`netlint collect hyperv` does) and import again, or set `willing` to what the host has"));
            continue;
        }
        let (span, what, edit) = match &dcb.willing {
            Some(w) if !w.value => continue,
            Some(w) => (
                w.span,
                "sets `willing = true`",
                FixEdit::replace(
                    host_table(host, w.span).then("dcb").then("willing"),
                    true,
                    false,
                    w.span,
                ),
            ),
            None => (
                dcb.span,
                "leaves `willing` unset, and DCBX is willing by default",
                FixEdit::insert(
                    host_table(host, dcb.span).then("dcb").then("willing"),
                    false,
                    dcb.span,
                ),
            ),
        };
        let fix = Fix::safe(format!("set `{} = false`", edit.path), vec![edit]);
        found.push(cx
                .finding(
                    &RULE,
                    host.element(),
                    span,
                    format!(
                        "DCB {what}: the host adopts whatever PFC and ETS settings its switch advertises, in place of its own"
                    ),
                )
                .with_help(
                    "set `willing = false` in the host's `dcb` table (`Set-NetQosDcbxSetting -Willing $false`), so that the PFC/ETS configured on the host is what it uses",
                )
                .with_fix(Some(fix)));
    }
    emit_per_host(out, found);
}

#[cfg(test)]
mod tests {
    use crate::testing::findings;

    const BASE: &str = r#"
[design]
name = "t"
[profiles.p.dcb]
WILLING
pfc = [3]
[hosts.hv1]
profile = "p"
[hosts.hv2]
profile = "p"
"#;

    #[test]
    fn willing_true_fires_at_its_line_naming_every_host() {
        let src = BASE.replace("WILLING", "willing = true");
        let f = findings(&src, &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.starts_with("hosts `hv1`, `hv2`: "),
            "{}",
            f[0].message
        );
        assert!(f[0].message.contains("sets `willing = true`"));
        assert_eq!(f[0].element(), "hosts.hv1");
        let at = f[0].primary.as_ref().unwrap().span.start;
        assert_eq!(at, src.find("true").unwrap());
    }

    #[test]
    fn absent_willing_fires_at_the_dcb_table() {
        let src = BASE.replace("WILLING", "");
        let f = findings(&src, &super::RULE);
        assert_eq!(f.len(), 1);
        assert!(f[0].message.contains("leaves `willing` unset"));
        let at = f[0].primary.as_ref().unwrap().span.start;
        assert_eq!(at, src.find("[profiles.p.dcb]").unwrap());
    }

    /// Issue 32 item 3: an import that could not read the bit writes
    /// `willing = "unknown"`: no default is judged, the gap is said.
    #[test]
    fn unknown_willing_is_not_taken_for_the_default() {
        let f = findings(
            &BASE.replace("WILLING", "willing = \"unknown\""),
            &super::RULE,
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].severity, netlint_model::Severity::Info);
        assert!(
            f[0].message.contains("willing bit is not known"),
            "{}",
            f[0].message
        );
        assert!(f[0].fix.is_none());
    }

    #[test]
    fn willing_false_or_no_dcb_is_fine() {
        assert!(findings(&BASE.replace("WILLING", "willing = false"), &super::RULE).is_empty());
        let no_dcb = "[design]\nname = \"t\"\n[hosts.hv1]\nos = \"windows-server-2019\"\n";
        assert!(findings(no_dcb, &super::RULE).is_empty());
    }

    #[test]
    fn one_host_overriding_gets_its_own_finding() {
        let src = BASE.replace("WILLING", "willing = false").replace(
            "[hosts.hv2]\nprofile = \"p\"",
            "[hosts.hv2]\nprofile = \"p\"\ndcb.willing = true",
        );
        let f = findings(&src, &super::RULE);
        assert_eq!(f.len(), 1);
        assert!(f[0].message.starts_with("host `hv2`: "));
        assert_eq!(f[0].element(), "hosts.hv2");
    }
}
