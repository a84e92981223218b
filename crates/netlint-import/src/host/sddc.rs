//! `Get-SDDCDiagnosticInfo` collections: one [`Collection`] per cluster
//! node, read from the `Export-Clixml` files the module writes.
//!
//! The layout is the one of Microsoft's PrivateCloud.DiagnosticInfo module
//! (github.com/PowerShell/PrivateCloud.DiagnosticInfo,
//! `PrivateCloud.DiagnosticInfo.psm1` and its README, "What does the
//! gather include by default?"):
//!
//! - per node a folder `Node_<name>` (`Get-NodePath`: `Join-Path $Path
//!   "Node_$node"`);
//! - in it, per cmdlet of `$CmdsToLog`, `<cmdlet without dashes>.xml`
//!   written by `$out | Export-Clixml` ("Default rule: base cmdlet name no
//!   dash": `Get-NetAdapter` -> `GetNetAdapter.xml`) beside a `.txt` table,
//!   and the CIM classes as `Win32_ComputerSystem.xml`,
//!   `Win32_OperatingSystem.xml`;
//! - the cluster-wide outputs at the root (`GetClusterNetwork.XML`, ...).
//!
//! The module runs `Get-NetQosDcbxSetting`, `Get-NetQosFlowControl` and
//! `Get-NetQosTrafficClass` only where the DcbQos module is present, and
//! `Get-VMSwitch` / `Get-VMNetworkAdapter -All` only where Hyper-V is: a
//! file that is absent leaves its facts unknown (the Hyper-V mapping lists
//! the cmdlets missing), never defaulted. It gathers no
//! `Get-VMNetworkAdapterVlan` or `Get-VMNetworkAdapterIsolation`: a
//! management-OS adapter's `VlanSetting` and `IsolationSetting` (the same
//! `VMNetworkAdapterVlanSetting` / `VMNetworkAdapterIsolationSetting`
//! objects, serialized one level down at `Export-Clixml`'s default depth
//! 2) stand for them.
//!
//! Only the files that bear on the network are read (the table
//! [`FILES`]); the others (event logs, drivers, disks, ...) are counted as
//! not read. Names are matched case-insensitively (the module writes
//! `.xml`, its README `.XML`).

use std::collections::BTreeMap;
use std::path::Path;

use super::clixml;
use super::value::{Collection, Node, Value};
use crate::error::{ErrorKind, InputError};

/// The files read: the file's stem (case-insensitive) and the cmdlet it is
/// the output of, as the Hyper-V mapping names it.
pub const FILES: &[(&str, &str)] = &[
    ("GetNetAdapter", "Get-NetAdapter"),
    (
        "GetNetAdapterAdvancedProperty",
        "Get-NetAdapterAdvancedProperty",
    ),
    ("GetNetAdapterRdma", "Get-NetAdapterRdma"),
    ("GetNetLbfoTeam", "Get-NetLbfoTeam"),
    ("GetNetLbfoTeamMember", "Get-NetLbfoTeamMember"),
    ("GetNetQosPolicy", "Get-NetQosPolicy"),
    ("GetNetQosDcbxSetting", "Get-NetQosDcbxSetting"),
    ("GetNetQosFlowControl", "Get-NetQosFlowControl"),
    ("GetNetQosTrafficClass", "Get-NetQosTrafficClass"),
    ("GetVMSwitch", "Get-VMSwitch"),
    ("GetVMNetworkAdapter", "Get-VMNetworkAdapter"),
    ("Win32_ComputerSystem", "Win32_ComputerSystem"),
    ("Win32_OperatingSystem", "Win32_OperatingSystem"),
];

/// Cluster-wide files at the collection's root, given to every node.
pub const CLUSTER_FILES: &[(&str, &str)] = &[("GetClusterNetwork", "Get-ClusterNetwork")];

/// One node of a collection.
#[derive(Clone, Debug, PartialEq)]
pub struct SddcNode {
    /// The name of its `Node_<name>` folder.
    pub name: String,
    /// Its cmdlet outputs; `file` is the node's folder.
    pub collection: Collection,
    /// The file each cmdlet was read from, for messages.
    pub files: BTreeMap<String, String>,
    /// Files of the node's folder that were not read (no network facts).
    pub not_read: usize,
}

/// A whole collection.
#[derive(Clone, Debug, PartialEq)]
pub struct Sddc {
    pub root: String,
    pub nodes: Vec<SddcNode>,
}

/// Whether `dir` is a `Get-SDDCDiagnosticInfo` folder: it holds a
/// `Node_<name>` folder.
pub fn is_sddc_dir(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|rd| {
        rd.flatten()
            .any(|e| e.path().is_dir() && node_name(&e.file_name().to_string_lossy()).is_some())
    })
}

/// `Node_HV01` -> `HV01`.
fn node_name(folder: &str) -> Option<&str> {
    let (head, rest) = folder.split_at_checked(5)?;
    (head.eq_ignore_ascii_case("Node_") && !rest.is_empty()).then_some(rest)
}

/// Reads a collection folder from disk: the root's cluster-wide files and
/// every `Node_<name>` folder (files directly in it; its subfolders hold
/// reports and archives, not read).
pub fn read_dir(dir: &Path) -> Result<Sddc, Vec<InputError>> {
    read_dir_with(dir, &|p| std::fs::read(p).map_err(|e| e.to_string()))
}

/// [`read_dir`] with the files read by `read` (the caller's limits: only
/// regular files, at most so many bytes; its error is the reason, in
/// words). A wanted file that is not a regular file (a FIFO) is given to
/// `read`, which refuses it, rather than passed over in silence.
pub fn read_dir_with(
    dir: &Path,
    read: &dyn Fn(&Path) -> Result<Vec<u8>, String>,
) -> Result<Sddc, Vec<InputError>> {
    let root = dir.display().to_string();
    let io_err = |p: &Path, e: std::io::Error| InputError {
        file: p.display().to_string(),
        line: 1,
        column: 0,
        kind: ErrorKind::WrongKind(format!("cannot read: {e}")),
    };
    let read_err = |p: &Path, e: String| InputError {
        file: p.display().to_string(),
        line: 1,
        column: 0,
        kind: ErrorKind::WrongKind(format!("cannot read: {e}")),
    };
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    let mut errors = Vec::new();
    let mut entries: Vec<_> = match std::fs::read_dir(dir) {
        Ok(rd) => rd.flatten().map(|e| e.path()).collect(),
        Err(e) => return Err(vec![io_err(dir, e)]),
    };
    entries.sort();
    for p in entries {
        let name = p
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if p.is_dir() {
            if node_name(&name).is_none() {
                continue;
            }
            let mut inner: Vec<_> = match std::fs::read_dir(&p) {
                Ok(rd) => rd.flatten().map(|e| e.path()).collect(),
                Err(e) => {
                    errors.push(io_err(&p, e));
                    continue;
                }
            };
            inner.sort();
            for f in inner.into_iter().filter(|f| !f.is_dir()) {
                let fname = f
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let rel = format!("{name}/{fname}");
                if wanted(&fname, FILES).is_none() {
                    files.push((rel, Vec::new()));
                    continue;
                }
                match read(&f) {
                    Ok(b) => files.push((rel, b)),
                    Err(e) => errors.push(read_err(&f, e)),
                }
            }
        } else if wanted(&name, CLUSTER_FILES).is_some() {
            match read(&p) {
                Ok(b) => files.push((name, b)),
                Err(e) => errors.push(read_err(&p, e)),
            }
        }
    }
    match from_files(&root, files) {
        Ok(s) if errors.is_empty() => Ok(s),
        Ok(_) => Err(errors),
        Err(mut e) => {
            errors.append(&mut e);
            Err(errors)
        }
    }
}

/// Reads a collection delivered as a ZIP archive (the module's
/// `HealthTest-<cluster>-<date>.ZIP`): the same files as in the folder,
/// under whatever folder the archive puts them in.
pub fn read_zip(file: &str, bytes: &[u8]) -> Result<Sddc, Vec<InputError>> {
    let want = |name: &str| {
        let base = name.rsplit('/').next().unwrap_or(name);
        wanted(base, FILES).is_some() || wanted(base, CLUSTER_FILES).is_some()
    };
    let entries = super::zip::entries(file, bytes, want).map_err(|e| vec![e])?;
    // Folders above the Node_<name> folders (the archive's own) are cut.
    let depth = entries
        .iter()
        .find_map(|(n, _)| n.split('/').position(|c| node_name(c).is_some()))
        .unwrap_or(0);
    let files = entries
        .into_iter()
        .filter_map(|(n, b)| {
            let parts: Vec<&str> = n.split('/').collect();
            (parts.len() > depth).then(|| (parts[depth..].join("/"), b))
        })
        .collect();
    from_files(file, files)
}

/// The cmdlet a file name stands for in `table`.
fn wanted(file: &str, table: &[(&str, &'static str)]) -> Option<&'static str> {
    let (stem, ext) = file.rsplit_once('.')?;
    if !ext.eq_ignore_ascii_case("xml") {
        return None;
    }
    table
        .iter()
        .find(|(s, _)| s.eq_ignore_ascii_case(stem))
        .map(|(_, c)| *c)
}

/// Builds the collection from its files: `(path relative to the root,
/// bytes)`, paths `/`-separated (`Node_HV01/GetNetAdapter.xml`,
/// `GetClusterNetwork.XML`). Files no node or cluster-wide table names are
/// counted, not read (their bytes may be empty). Every file's errors are
/// returned together.
pub fn from_files(root: &str, files: Vec<(String, Vec<u8>)>) -> Result<Sddc, Vec<InputError>> {
    use rayon::prelude::*;
    let mut errors = Vec::new();
    let mut cluster: BTreeMap<String, (String, Node)> = BTreeMap::new();
    let mut nodes: BTreeMap<String, SddcNode> = BTreeMap::new();
    let full = |rel: &str| format!("{}/{rel}", root.trim_end_matches(['/', '\\']));
    // Which files are read, and for which node and cmdlet (in order).
    let mut jobs: Vec<(Option<String>, &'static str, String, Vec<u8>)> = Vec::new();
    for (rel, bytes) in files {
        let rel = rel.replace('\\', "/");
        let parts: Vec<&str> = rel.split('/').filter(|p| !p.is_empty()).collect();
        match parts.as_slice() {
            [file] => {
                if let Some(cmd) = wanted(file, CLUSTER_FILES) {
                    jobs.push((None, cmd, full(&rel), bytes));
                }
            }
            [folder, file] => {
                let Some(name) = node_name(folder) else {
                    continue;
                };
                let key = name.to_ascii_lowercase();
                let node = nodes.entry(key.clone()).or_insert_with(|| SddcNode {
                    name: name.to_string(),
                    collection: Collection {
                        file: full(folder),
                        host: Some(name.to_string()),
                        cmdlets: BTreeMap::new(),
                    },
                    files: BTreeMap::new(),
                    not_read: 0,
                });
                match wanted(file, FILES) {
                    Some(cmd) => jobs.push((Some(key), cmd, full(&rel), bytes)),
                    None => node.not_read += 1,
                }
            }
            _ => {}
        }
    }
    // The files are independent: read them in parallel, keep their order.
    let read: Vec<Result<Node, Vec<InputError>>> = jobs
        .par_iter()
        .map(|(_, _, path, bytes)| read_one(path, bytes))
        .collect();
    for ((node, cmd, path, _), r) in jobs.into_iter().zip(read) {
        match (r, node) {
            (Ok(n), None) => {
                cluster.insert(cmd.to_string(), (path, n));
            }
            (Ok(n), Some(key)) => {
                if let Some(node) = nodes.get_mut(&key) {
                    node.collection.cmdlets.insert(cmd.to_string(), n);
                    node.files.insert(cmd.to_string(), path);
                }
            }
            (Err(mut e), _) => errors.append(&mut e),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    if nodes.is_empty() {
        return Err(vec![InputError {
            file: root.to_string(),
            line: 1,
            column: 0,
            kind: ErrorKind::WrongKind(
                "no Node_<name> folder: not a Get-SDDCDiagnosticInfo collection".to_string(),
            ),
        }]);
    }
    let mut out = Vec::new();
    for (_, mut node) in nodes {
        for (cmd, (path, n)) in &cluster {
            node.collection.cmdlets.insert(cmd.clone(), n.clone());
            node.files.insert(cmd.clone(), path.clone());
        }
        vlan_from_adapters(&mut node);
        out.push(node);
    }
    Ok(Sddc {
        root: root.to_string(),
        nodes: out,
    })
}

/// One file's objects, as a list node at line 1 (the `<Objs>` element).
fn read_one(path: &str, bytes: &[u8]) -> Result<Node, Vec<InputError>> {
    let objs = clixml::parse_bytes(path, bytes)?;
    Ok(Node::new(Value::List(objs), 1))
}

/// `Get-VMNetworkAdapterVlan -ManagementOS` and
/// `Get-VMNetworkAdapterIsolation -ManagementOS` from the management-OS
/// adapters' `VlanSetting` and `IsolationSetting` (the collection holds no
/// output of its own for them).
fn vlan_from_adapters(node: &mut SddcNode) {
    setting_from_adapters(node, "Get-VMNetworkAdapterVlan", "VlanSetting");
    setting_from_adapters(node, "Get-VMNetworkAdapterIsolation", "IsolationSetting");
}

/// The objects of `cmdlet` from each management-OS adapter's `setting`
/// (`VMNetworkAdapterVlanSetting`, `VMNetworkAdapterIsolationSetting`,
/// serialized one level down), with the adapter's name as their parent.
fn setting_from_adapters(node: &mut SddcNode, cmdlet: &str, setting: &str) {
    if node.collection.cmdlet(cmdlet).is_some() {
        return;
    }
    let Some(adapters) = node.collection.cmdlet("Get-VMNetworkAdapter") else {
        return;
    };
    let mut out = Vec::new();
    for a in adapters.items() {
        if a.get("IsManagementOs").and_then(Node::as_bool) != Some(true) {
            continue;
        }
        let (Some(name), Some(vs)) = (a.get("Name"), a.get(setting)) else {
            continue;
        };
        let Some(props) = vs.as_map() else { continue };
        let mut m: Vec<(String, Node)> = vec![
            ("AdapterName".to_string(), name.clone()),
            (
                "ParentAdapter".to_string(),
                Node::new(
                    Value::Map(vec![("Name".to_string(), name.clone())]),
                    name.line,
                ),
            ),
        ];
        m.extend(
            props
                .iter()
                .filter(|(k, _)| {
                    !k.eq_ignore_ascii_case("ParentAdapter")
                        && !k.eq_ignore_ascii_case("AdapterName")
                })
                .cloned(),
        );
        out.push(Node::new(Value::Map(m), vs.line));
    }
    if !out.is_empty() {
        let line = adapters.line;
        node.collection
            .cmdlets
            .insert(cmdlet.to_string(), Node::new(Value::List(out), line));
        if let Some(f) = node.files.get("Get-VMNetworkAdapter").cloned() {
            node.files.insert(cmdlet.to_string(), f);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEAD: &str =
        r#"<Objs Version="1.1.0.1" xmlns="http://schemas.microsoft.com/powershell/2004/04">"#;

    #[test]
    fn files_map_to_cmdlets_per_node_and_cluster_files_to_every_node() {
        let adapters = format!(
            "{HEAD}\n<Obj RefId=\"0\"><Props><S N=\"Name\">SLOT 3 Port 1</S></Props></Obj>\n</Objs>"
        );
        let nets = format!("{HEAD}<Obj RefId=\"0\"><Props><S N=\"Name\">Cluster Network 1</S></Props></Obj></Objs>");
        let files = vec![
            (
                "Node_HV01/GetNetAdapter.xml".to_string(),
                adapters.clone().into_bytes(),
            ),
            ("Node_HV01/GetNetAdapter.txt".to_string(), Vec::new()),
            (
                "Node_HV02/GETNETADAPTER.XML".to_string(),
                adapters.into_bytes(),
            ),
            ("GetClusterNetwork.XML".to_string(), nets.into_bytes()),
            ("0_CloudHealthSummary.log".to_string(), Vec::new()),
        ];
        let s = from_files("c1", files).unwrap();
        assert_eq!(s.nodes.len(), 2);
        let n = &s.nodes[0];
        assert_eq!(n.name, "HV01");
        assert_eq!(n.not_read, 1);
        assert_eq!(n.collection.host.as_deref(), Some("HV01"));
        let a = &n.collection.objects("Get-NetAdapter")[0];
        assert_eq!(a.get("Name").unwrap().as_str(), Some("SLOT 3 Port 1"));
        assert_eq!(a.line, 2);
        assert_eq!(n.files["Get-NetAdapter"], "c1/Node_HV01/GetNetAdapter.xml");
        assert_eq!(s.nodes[1].collection.objects("Get-ClusterNetwork").len(), 1);
    }

    #[test]
    fn errors_of_every_file_come_together() {
        let files = vec![
            (
                "Node_A/GetNetAdapter.xml".to_string(),
                b"<Objs>\n<I32>x</I32></Objs>".to_vec(),
            ),
            (
                "Node_A/GetVMSwitch.xml".to_string(),
                b"<Objs>\n\n<S>".to_vec(),
            ),
        ];
        let e = from_files("c", files).unwrap_err();
        assert_eq!(e.len(), 2);
        assert_eq!(e[0].file, "c/Node_A/GetNetAdapter.xml");
        assert_eq!(e[0].line, 2);
        assert_eq!(e[1].file, "c/Node_A/GetVMSwitch.xml");
        assert!(from_files("c", vec![]).is_err());
    }

    #[test]
    fn vlan_settings_of_management_adapters_stand_for_get_vmnetworkadaptervlan() {
        let x = format!(
            r#"{HEAD}
<Obj RefId="0"><Props><S N="Name">SMB1</S><B N="IsManagementOs">true</B>
<Obj N="VlanSetting" RefId="1"><Props><I32 N="AccessVlanId">711</I32><S N="OperationMode">Access</S></Props></Obj></Props></Obj>
<Obj RefId="2"><Props><S N="Name">vm1</S><B N="IsManagementOs">false</B>
<Obj N="VlanSetting" RefId="3"><Props><I32 N="AccessVlanId">5</I32></Props></Obj></Props></Obj>
</Objs>"#
        );
        let s = from_files(
            "c",
            vec![("Node_A/GetVMNetworkAdapter.xml".into(), x.into_bytes())],
        )
        .unwrap();
        let v = s.nodes[0].collection.objects("Get-VMNetworkAdapterVlan");
        assert_eq!(v.len(), 1);
        assert_eq!(
            v[0].path(&["ParentAdapter", "Name"]).unwrap().as_str(),
            Some("SMB1")
        );
        assert_eq!(v[0].get("AccessVlanId").unwrap().as_i64(), Some(711));
        assert_eq!(v[0].line, 3);
    }

    #[test]
    fn a_zipped_collection_reads_like_the_folder() {
        let x =
            format!("{HEAD}\n<Obj RefId=\"0\"><Props><S N=\"Name\">NIC1</S></Props></Obj></Objs>");
        let z = crate::host::zip::write(&[
            (
                "HealthTest-C1-20261201-0500/Node_HV01/GetNetAdapter.xml",
                x.as_bytes(),
                true,
            ),
            (
                "HealthTest-C1-20261201-0500/Node_HV01/GetDrivers.XML",
                b"<Objs/>",
                true,
            ),
            (
                "HealthTest-C1-20261201-0500/0_CloudHealthSummary.log",
                b"x",
                false,
            ),
        ]);
        let s = read_zip("c.zip", &z).unwrap();
        assert_eq!(s.nodes.len(), 1);
        assert_eq!(s.nodes[0].not_read, 1);
        let a = &s.nodes[0].collection.objects("Get-NetAdapter")[0];
        assert_eq!(a.line, 2);
        assert_eq!(
            s.nodes[0].files["Get-NetAdapter"],
            "c.zip/Node_HV01/GetNetAdapter.xml"
        );
    }
}
