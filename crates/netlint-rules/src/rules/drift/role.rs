//! `drift-role`: a network's role as built (a vmkernel port's services,
//! a cluster network's role, a Network ATC intent) cannot be the design's.

use super::{changed, of, value_words};
use crate::declare_drift_rule;
use crate::drift::{DriftContext, Side};
use netlint_analysis::drift::{Field, Value};
use netlint_model::{Diagnostic, Role, Severity};

declare_drift_rule!(
    RULE,
    id: "drift-role",
    severity: Warning,
    summary: "A network's role as built (what its hosts' interfaces carry) cannot be the design's.",
    check: check,
);

fn check(cx: &DriftContext<'_>, out: &mut Vec<Diagnostic>) {
    for diff in of(cx, |f| f == Field::NetworkRole) {
        let dv = value_words(cx, Side::Design, diff.field, &diff.value.design, &diff.at);
        let bv = value_words(cx, Side::Built, diff.field, &diff.value.built, &diff.at);
        let built = match &diff.value.built {
            Value::Role(r, _) => *r,
            _ => Role::Unknown,
        };
        let how = match built {
            Role::Management => "on Hyper-V the cluster network's Role, `(Get-ClusterNetwork NAME).Role`; on vSphere the vmkernel port's services",
            _ => "on vSphere the vmkernel port's services; on Hyper-V the cluster network's Role or the Network ATC intent",
        };
        let effect = format!(
            "the hosts carry {bv} traffic on it as built, and what was checked of the design's {dv} network (redundancy, cluster group, traffic classes, RDMA and jumbo advice) does not hold for it"
        );
        let help = format!(
            "give the network its designed role as built ({how}); or write its role as built ({bv}) in the design and review it again"
        );
        out.push(changed(cx, &RULE, diff, effect, Severity::Warning, help));
    }
}
