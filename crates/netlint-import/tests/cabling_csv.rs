//! Cabling CSVs as spreadsheets write them (issue 29 item 5): a quoted
//! field holding the delimiter, semicolons (Excel in locales with a
//! decimal comma), tabs, columns by header name in any order with columns
//! netlint does not read, doubled quotes. Each is detected as a cabling
//! CSV without `--from`, and each fails on the reader that split rows at
//! every comma and knew the header only as `device,port,peer_device,peer_port`.

use netlint_import::*;

/// The file read without `--from`: it must be detected as cabling.
fn cabling(text: &str) -> Cabling {
    match parse("cabling.csv", text, None) {
        Ok(Document::Cabling(c)) => c,
        other => panic!("not read as a cabling CSV: {other:?}"),
    }
}

fn cables(c: &Cabling) -> Vec<(u32, String, String, String, String)> {
    c.cables
        .iter()
        .map(|k| {
            (
                k.line,
                k.device.clone(),
                k.port.clone(),
                k.peer_device.clone(),
                k.peer_port.clone(),
            )
        })
        .collect()
}

fn cable(line: u32, d: &str, p: &str, pd: &str, pp: &str) -> (u32, String, String, String, String) {
    (line, d.into(), p.into(), pd.into(), pp.into())
}

fn not_understood(c: &Cabling) -> Vec<(u32, String)> {
    c.summary
        .not_understood
        .iter()
        .map(|n| (n.line, n.reason.to_string()))
        .collect()
}

#[test]
fn a_quoted_field_may_hold_a_comma() {
    let c = cabling("device,port,peer_device,peer_port\n\"tor1, rack 3\",Eth1/1,hv1,NIC1\n");
    assert_eq!(not_understood(&c), []);
    assert_eq!(
        cables(&c),
        [cable(2, "tor1, rack 3", "Eth1/1", "hv1", "NIC1")]
    );
}

#[test]
fn semicolon_separated() {
    let c = cabling(
        "device;port;peer_device;peer_port\r\ntor1;Eth1/1;hv1;NIC1\r\ntor2;Eth1/1;hv1;NIC2\r\n",
    );
    assert_eq!(not_understood(&c), []);
    assert_eq!(
        cables(&c),
        [
            cable(2, "tor1", "Eth1/1", "hv1", "NIC1"),
            cable(3, "tor2", "Eth1/1", "hv1", "NIC2")
        ]
    );
}

#[test]
fn tab_separated() {
    let c =
        cabling("Device\tPort\tPeer_Device\tPeer_Port\ntor1\tEthernet 1/1\thv1\tSLOT 3 Port 1\n");
    assert_eq!(not_understood(&c), []);
    assert_eq!(
        cables(&c),
        [cable(2, "tor1", "Ethernet 1/1", "hv1", "SLOT 3 Port 1")]
    );
}

#[test]
fn extra_columns_in_another_order() {
    let c = cabling(
        "# exported from the cabling sheet\n\
         cable_id,peer_device,peer_port,length,device,port\n\
         C-001,hv1,NIC1,3m,tor1,Eth1/1\n\
         \n\
         C-002,hv1,NIC2,3m,tor2,Eth1/1\n",
    );
    assert_eq!(not_understood(&c), []);
    assert_eq!(
        cables(&c),
        [
            cable(3, "tor1", "Eth1/1", "hv1", "NIC1"),
            cable(5, "tor2", "Eth1/1", "hv1", "NIC2")
        ]
    );
    assert_eq!(c.summary.understood(), 2);
    assert_eq!(c.summary.ignored(), 3, "comment, header, blank line");
}

#[test]
fn doubled_quotes_are_one_quote() {
    let c = cabling("device,port,peer_device,peer_port\ntor1,Eth1/1,hv1,\"NIC \"\"A\"\"\"\n");
    assert_eq!(not_understood(&c), []);
    assert_eq!(cables(&c), [cable(2, "tor1", "Eth1/1", "hv1", "NIC \"A\"")]);
}

/// Rows that are not cables keep their line, after a comment and a blank
/// line, and after a row whose quoted note spans lines.
#[test]
fn bad_rows_are_listed_at_their_line() {
    let c = cabling(
        "device;port;peer_device;peer_port;notes\n\
         # spare ports\n\
         tor1;Eth1/1;hv1;NIC1;\"moved\nfrom rack 2\"\n\
         \n\
         tor1;;hv2;NIC1;\n\
         tor2;Eth1/2\n",
    );
    assert_eq!(cables(&c), [cable(3, "tor1", "Eth1/1", "hv1", "NIC1")]);
    assert_eq!(
        not_understood(&c),
        [
            (6, "the field `port` is empty".to_string()),
            (7, "2 fields, the header has 5".to_string())
        ]
    );
}
